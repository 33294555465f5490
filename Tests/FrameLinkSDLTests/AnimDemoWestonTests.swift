import Foundation
import FrameLink
import XCTest

/// AnimDemo on a real compositor: Weston (x11 backend inside the tests' Xvfb), SDL's Wayland
/// driver, FrameLink's presentation-time binding — and what FrameLink says of every frame compared
/// with the compositor's own record (its `timeline` debug scope), taken independently of it.
///
/// Weston's repaint is driven by its own timer in this backend (its feedback carries no vsync or
/// hardware-clock flag, and no refresh counter), so this proves the plumbing, the clock conversion
/// and the bookkeeping against a compositor someone else wrote, not a panel's vsync.
final class AnimDemoWestonTests: XCTestCase {
    /// How far FrameLink's shown time may be from the compositor's record of the same repaint:
    /// 1 ms. Weston's clock here is `CLOCK_MONOTONIC_RAW`; Weston's record converts its time to
    /// `CLOCK_MONOTONIC` when it writes the record, FrameLink when the feedback arrives, each by
    /// reading both clocks, so the two conversions differ: by the NTP slew between them (at most
    /// 500 ppm of tens of milliseconds) and by a preemption between two clock reads on either side
    /// (measured here: 0.3–0.4 µs idle, 19.5 µs with `make test` running beside). 1 ms is far more
    /// than that and far less than the 16 ms between repaints, so no frame can be matched to the
    /// wrong one; the run prints the largest difference it saw.
    static let conversionTolerance: Int64 = 1_000_000

    /// Frames AnimDemo runs: at least 600, as the issue asks.
    static let frames = 600

    func testAnimDemoOnWestonReportsWhatTheCompositorShowed() throws {
        let weston = try WestonCompositor.started()
        defer { weston.stop() }
        let timelinePath = SDLTestSupport.temporaryPath(".json")
        let logPath = SDLTestSupport.temporaryPath(".csv")
        let frameLogPath = SDLTestSupport.temporaryPath(".csv")
        let tracePath = SDLTestSupport.temporaryPath(".json")
        defer {
            for path in [timelinePath, logPath, frameLogPath, tracePath] {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        try weston.recordTimeline(to: timelinePath)

        var environment: [String: String?] = [:]
        for (name, value) in weston.environment where ["XDG_RUNTIME_DIR", "WAYLAND_DISPLAY"].contains(name) {
            environment[name] = value
        }
        environment["SDL_VIDEODRIVER"] = "wayland"
        let result = try AnimDemoProcess.run(
            [
                "--frames", String(Self.frames), "--sprites", "200", "--assets", AnimDemoProcess.assetsFolder,
                "--presentation-log", logPath, "--log", frameLogPath,
            ], environment: environment, timeout: 240)
        XCTAssertFalse(result.timedOut, "AnimDemo on Weston did not finish within 240 s")
        XCTAssertEqual(result.status, 0, "AnimDemo on Weston failed: \(result.standardError)")
        XCTAssertTrue(
            result.standardOutput.contains("on the wayland video driver"),
            "AnimDemo did not run on SDL's Wayland driver: \(result.standardOutput)")
        XCTAssertTrue(
            result.standardOutput.contains("presentation feedback: Wayland presentation-time"),
            "the report does not say the shown times came from presentation feedback: \(result.standardOutput)")
        usleep(200_000)  // Weston writes the last repaints of the record.
        weston.stop()

        let log = try PresentationLogRows(csv: String(contentsOfFile: logPath, encoding: .utf8))
        let timeline = try WestonTimeline(
            jsonLines: String(contentsOfFile: timelinePath, encoding: .utf8), window: "'FrameLink AnimDemo'")
        let verdict = WestonComparison(log: log, timeline: timeline, tolerance: Self.conversionTolerance)
        print("AnimDemo on Weston: \(verdict.summary)")
        for failure in verdict.failures.prefix(20) { XCTFail(failure) }
        XCTAssertGreaterThanOrEqual(
            verdict.judgedFrames, Self.frames * 9 / 10, "too few frames were judged: \(verdict.summary)")
        try checkFrameLog(at: frameLogPath, against: log, tracePath: tracePath)
    }

    /// The run's frame log carries the same shown times (on the loop's timeline: one offset from
    /// `CLOCK_MONOTONIC` for all), `framelink summary` says where they came from, and the trace
    /// shows them on a track of their own.
    func checkFrameLog(at path: String, against log: PresentationLogRows, tracePath: String) throws {
        let (shownInLog, loopDrops) = try MainActor.assumeIsolated {
            let records = try FrameLog(contentsOfFile: path).records
            return (records.compactMap(\.shownAt?.nanoseconds), records.reduce(0) { $0 + $1.droppedFrames })
        }
        // The loop books drops by its own pacing (by deadline at the assumed 60 Hz here, as
        // Weston's timer-driven repaints keep no phase), not from the feedback: a figure, not a check.
        print("AnimDemo on Weston: the loop booked \(loopDrops) dropped frames")
        let reported = log.rows.compactMap(\.shown)
        XCTAssertGreaterThanOrEqual(
            shownInLog.count, reported.count - 3, "frames reported shown are missing from the frame log")
        if let first = shownInLog.first, let offset = reported.first(where: { $0 - first > 0 }).map({ $0 - first }) {
            let times = Set(reported)
            let unmatched = shownInLog.filter { !times.contains($0 + offset) }
            XCTAssertTrue(unmatched.isEmpty, "shown times in the frame log that no report gave: \(unmatched.prefix(5))")
        }
        let framelink = try XCTUnwrap(
            AnimDemoProcess.executable?.deletingLastPathComponent().appendingPathComponent("framelink"),
            "the framelink command is built next to AnimDemo")
        let summary = try Self.output(of: framelink, ["summary", path])
        XCTAssertTrue(summary.contains("shown times: from presentation feedback for \(shownInLog.count) of "), summary)
        _ = try Self.output(of: framelink, ["trace", path, "--output", tracePath])
        let trace = try String(contentsOfFile: tracePath, encoding: .utf8)
        XCTAssertTrue(trace.contains(#""args":{"name":"screen"}"#), "the trace has no screen track")
        XCTAssertEqual(
            trace.components(separatedBy: #""name":"shown""#).count - 1, shownInLog.count,
            "one shown event per frame with a shown time")
    }

    /// What `executable arguments` prints (it must exit 0).
    static func output(of executable: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 0, "\(executable.lastPathComponent) \(arguments): \(text)")
        return text
    }
}

/// A `--presentation-log` CSV, read back.
struct PresentationLogRows {
    struct Row {
        var frame: Int64
        var outcome: String
        var shown: Int64?
        var missedRefreshes: Int?
    }

    var rows: [Row] = []

    init(csv: String) throws {
        let lines = csv.split(whereSeparator: \.isNewline)
        guard lines.first == "frame,outcome,compositor_ns,shown_ns,refresh_ns,sequence,missed_refreshes,flags" else {
            throw CocoaError(.fileReadCorruptFile)
        }
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 8, let frame = Int64(fields[0]) else { throw CocoaError(.fileReadCorruptFile) }
            rows.append(Row(frame: frame, outcome: fields[1], shown: Int64(fields[3]), missedRefreshes: Int(fields[6])))
        }
    }
}

/// FrameLink's presentation log against the compositor's record.
struct WestonComparison {
    var failures: [String] = []
    /// Frames FrameLink reported shown, after the record's start.
    var judgedFrames = 0
    var skippedBeforeRecord = 0
    var discarded = 0
    var unanswered = 0
    var missedRefreshesCompared = 0
    var largestDifference: Int64 = 0
    var compositorMissedRefreshes = 0

    init(log: PresentationLogRows, timeline: WestonTimeline, tolerance: Int64) {
        let rows = log.rows
        // Every frame asked about is accounted for, once, in order; unanswered ones only at the end.
        for (row, next) in zip(rows, rows.dropFirst()) where next.frame != row.frame + 1 {
            failures.append("the log goes from frame \(row.frame) to \(next.frame): every frame needs one report")
        }
        if let firstUnanswered = rows.firstIndex(where: { $0.outcome == "unanswered" }),
            rows[firstUnanswered...].contains(where: { $0.outcome != "unanswered" })
        {
            failures.append("frame \(rows[firstUnanswered].frame) is unanswered but later frames were answered")
        }
        discarded = rows.count { $0.outcome == "discarded" }
        unanswered = rows.count { $0.outcome == "unanswered" }
        if let other = rows.first(where: { !["shown", "discarded", "unanswered"].contains($0.outcome) }) {
            failures.append("frame \(other.frame): outcome \(other.outcome)")
        }

        // Each frame shown is one repaint that showed the window, at the same time, in order.
        let repaints = timeline.repaints
        let start = timeline.start ?? .max
        var matched: [(row: PresentationLogRows.Row, repaint: Int)] = []
        var searchFrom = 0
        for row in rows where row.outcome == "shown" {
            guard let shown = row.shown else {
                failures.append("frame \(row.frame) is shown with no time")
                continue
            }
            guard shown > start + tolerance else {
                skippedBeforeRecord += 1
                continue
            }
            judgedFrames += 1
            let nearest = repaints.indices.dropFirst(searchFrom).min {
                abs(repaints[$0].time - shown) < abs(repaints[$1].time - shown)
            }
            guard let nearest, abs(repaints[nearest].time - shown) <= tolerance else {
                failures.append("frame \(row.frame) shown at \(shown) ns: no repaint of the compositor then")
                continue
            }
            largestDifference = max(largestDifference, abs(repaints[nearest].time - shown))
            if !repaints[nearest].showsWindow {
                failures.append(
                    "frame \(row.frame): the compositor's repaint at \(shown) ns showed nothing new of the window")
            }
            matched.append((row, nearest))
            searchFrom = nearest + 1
        }
        // No new frame of the window was shown that FrameLink did not report, between the first and
        // last frames judged; and the refreshes missed between them agree.
        for (earlier, later) in zip(matched, matched.dropFirst()) {
            let between = repaints[(earlier.repaint + 1)..<later.repaint]
            if let unreported = between.first(where: \.showsWindow) {
                failures.append(
                    "the compositor showed a new frame at \(unreported.time) ns, between frames \(earlier.row.frame) "
                        + "and \(later.row.frame), that FrameLink did not report")
            }
            compositorMissedRefreshes += between.count
            if let missed = later.row.missedRefreshes {
                missedRefreshesCompared += 1
                if missed != between.count {
                    failures.append(
                        "frame \(later.row.frame): FrameLink counts \(missed) missed refreshes, the compositor "
                            + "\(between.count)")
                }
            }
        }
    }

    var summary: String {
        "\(judgedFrames) frames shown judged (\(skippedBeforeRecord) before the record began), each on the "
            + "compositor's repaint within \(largestDifference) ns after clock conversion; \(discarded) discarded, "
            + "\(unanswered) unanswered at close; \(compositorMissedRefreshes) refreshes without a new frame in "
            + "the record, \(missedRefreshesCompared) frames' missed-refresh counts compared (the compositor "
            + "reported a refresh counter for those only); \(failures.count) failures"
    }
}
