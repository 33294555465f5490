import Foundation

/// What Weston's `timeline` debug scope recorded of one window: every repaint of the output the
/// window is on, with when it reached the screen (`vblank_monotonic`, on `CLOCK_MONOTONIC`) and
/// whether it showed new content of the window (a `core_flush_damage` of the window's surface
/// between the repaint's `core_repaint_begin` and its `core_repaint_finished`), and the window's
/// commits (`core_commit_damage`). The compositor's own record, independent of FrameLink's binding.
struct WestonTimeline {
    /// One output repaint.
    struct Repaint: Equatable {
        /// When it reached the screen, nanoseconds on `CLOCK_MONOTONIC`.
        var time: Int64
        /// Whether it showed a new frame of the window.
        var showsWindow: Bool
    }

    /// The output's repaints, in order.
    var repaints: [Repaint] = []
    /// The window's surface commits.
    var commits = 0
    /// When the record starts (its first timed event), nanoseconds on `CLOCK_MONOTONIC`.
    var start: Int64?

    /// Reads the JSON lines of a timeline recording, for the surfaces whose description contains
    /// `window` (Weston describes a top-level surface as "top-level window '<title>' of <app>").
    init(jsonLines text: String, window: String) throws {
        var surfaces = Set<Int>()
        var repaintsByOutput: [Int: [Repaint]] = [:]
        var showsWindow: [Int: Bool] = [:]
        for line in text.split(whereSeparator: \.isNewline) where !line.allSatisfy(\.isWhitespace) {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                continue
            }
            if let id = object["id"] as? Int {
                if object["type"] as? String == "weston_surface", (object["desc"] as? String)?.contains(window) == true
                {
                    surfaces.insert(id)
                }
                continue
            }
            if start == nil, let time = Self.nanoseconds(object["T"]) { start = time }
            let isWindow = (object["ws"] as? Int).map(surfaces.contains) == true
            let output = object["wo"] as? Int
            switch object["N"] as? String {
            case "core_commit_damage" where isWindow:
                commits += 1
            case "core_repaint_begin":
                if let output { showsWindow[output] = false }
            case "core_flush_damage" where isWindow:
                if let output { showsWindow[output] = true }
            case "core_repaint_finished":
                guard let output, let time = Self.nanoseconds(object["vblank_monotonic"]) else { continue }
                repaintsByOutput[output, default: []].append(
                    Repaint(time: time, showsWindow: showsWindow[output] ?? false))
                showsWindow[output] = false
            default:
                break
            }
        }
        // The window's output: the one that showed it most.
        repaints =
            repaintsByOutput.values.max { first, second in
                first.count(where: \.showsWindow) < second.count(where: \.showsWindow)
            } ?? []
    }

    /// `[seconds, nanoseconds]` as nanoseconds.
    static func nanoseconds(_ value: Any?) -> Int64? {
        guard let pair = value as? [Any], pair.count == 2, let seconds = pair[0] as? Int,
            let nanoseconds = pair[1] as? Int
        else { return nil }
        return Int64(seconds) * 1_000_000_000 + Int64(nanoseconds)
    }
}
