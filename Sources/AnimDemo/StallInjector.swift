import Foundation
import FrameLink

/// Makes frames late on purpose, so that dropped frames and their blame become visible: a display
/// link labelled ``label`` that normally returns at once and, when a stall is due, blocks the main
/// thread for ``duration`` inside its callback. FrameLink's statistics then report the late frame
/// with this link as the slowest callback.
///
/// A stall is due when ``requestStall()`` was called (the `S` key) or, with ``interval`` set, on
/// every `interval`-th frame of the loop (`--stall-every`).
@MainActor
final class StallInjector {
    /// One stall that was injected.
    struct Stall: Codable, Equatable {
        /// The loop frame in whose link phase the stall ran; its drop is reported with the next frame.
        var frame: Int64
        /// How long the stall blocked, in milliseconds (measured).
        var milliseconds: Double
    }

    /// The label of the link, as drop reports name it.
    static let label = "injected stall"

    /// How long a stall blocks.
    let duration: Duration

    /// Inject a stall on every `interval`-th frame, or `nil` for stalls on request only.
    let interval: Int64?

    /// The last frame on which a periodic stall may run, or `nil` for no limit: a stall in the last
    /// frame of a run could not be measured (its late frame never comes), so it is not injected.
    var lastFrame: Int64?

    /// The stalls injected so far, in order.
    private(set) var stalls: [Stall] = []

    private var isRequested = false
    private var link: DisplayLink?

    /// Creates an injector of `duration`-long stalls, every `interval` frames if given.
    init(duration: Duration, every interval: Int?) {
        self.duration = duration
        self.interval = interval.map(Int64.init)
    }

    /// Adds the injector's link to `loop` in `.common` (stalls happen in every mode).
    func attach(to loop: FrameLoop) {
        let link = DisplayLink(target: self) { injector, link in
            injector.step(link)
        }
        link.label = Self.label
        link.add(to: loop, forMode: .common)
        self.link = link
    }

    /// Stalls once, in the next frame.
    func requestStall() {
        isRequested = true
    }

    /// Removes the link from its loop.
    func invalidate() {
        link?.invalidate()
        link = nil
    }

    private func step(_ link: DisplayLink) {
        let frame = link.frameIndex
        var isDue = isRequested
        if let interval, frame % interval == 0, lastFrame.map({ frame < $0 }) ?? true {
            isDue = true
        }
        guard isDue else { return }
        isRequested = false
        let start = ContinuousClock.now
        Thread.sleep(forTimeInterval: (duration / .seconds(1)))
        let slept = ContinuousClock.now - start
        stalls.append(Stall(frame: frame, milliseconds: (slept / .seconds(1)) * 1e3))
    }
}
