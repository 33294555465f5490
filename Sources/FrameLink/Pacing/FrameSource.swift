/// The source of frame boundaries that drives a ``FrameLoop``: a present that blocks on vsync, a
/// deadline pacer, or virtual time in tests.
///
/// A source owns the clock. The loop asks it to wait for the next frame while any display link is
/// active, and to sleep until a timer deadline (or input) while none is.
///
/// FrameLink ships ``ManualFrameSource`` (virtual time, for deterministic tests) and
/// ``DeadlineSource`` (sleep-then-spin to an absolute nanosecond grid, with an optional present
/// function). FrameLinkSDL builds its window's source on them.
@MainActor
public protocol FrameSource: AnyObject {
    /// The rate of the frame grid: the display's refresh rate, or the rate paced to.
    var refreshRate: FrameRate { get }

    /// The current time on the source's clock.
    var now: FrameInstant { get }

    /// Blocks until the next frame boundary (presenting the previous frame if the source presents)
    /// and returns the frame's timestamp.
    func waitForNextFrame() -> FrameInstant

    /// Sleeps while no display link needs frames: until `deadline` (`nil` means no timer is
    /// waiting), or earlier when input arrives. Returns the time it woke.
    ///
    /// A source must not busy-wait here. `drainMainQueue` runs work queued for the main actor; a
    /// real source calls it while it sleeps so that `Task { @MainActor in … }` work is not starved.
    func waitIdle(until deadline: FrameInstant?, drainMainQueue: () -> Void) -> FrameInstant

    /// Called when a loop starts using the source. The default does nothing.
    func attach(to loop: FrameLoop)

    /// How long the last present call took, in nanoseconds (0 for sources that do not present):
    /// blamed as the `present` phase, apart from the wait that follows it.
    var lastPresentDuration: Int64 { get }

    /// How the source paces frames and why, for reports (for example
    /// `"deadline 60 Hz: present returned in 0.05 ms, vsync not honoured"`).
    var pacingDescription: String { get }

    /// The time `frames` frames after the frame at `timestamp` is expected to begin: the ideal
    /// grid time where the source has a grid. The default adds `frames` rounded periods.
    func expectedTimestamp(frames: Int64, after timestamp: FrameInstant) -> FrameInstant

    /// The time the frame being built will reach the screen, when the source knows it: a swap chain
    /// that queues frames shows a frame some vsyncs after the frame's timestamp. `nil` (the
    /// default) means the next grid point, ``expectedTimestamp(frames:after:)`` with one frame.
    var targetTimestamp: FrameInstant? { get }

    /// The refreshes the display showed an old frame again in the interval that ended at the last
    /// frame boundary, when the source knows them (from its vsync grid or presentation feedback):
    /// a queued frame can absorb a late one, so the interval alone may over-count. `nil` (the
    /// default) lets the loop count them from the interval.
    var droppedFramesAtLastBoundary: Int? { get }
}

extension FrameSource {
    /// Does nothing: most sources need no reference to their loop.
    public func attach(to loop: FrameLoop) {}

    /// Zero: the source does not present.
    public var lastPresentDuration: Int64 { 0 }

    /// The source's type and rate, such as `"ManualFrameSource at 60 Hz"`.
    public var pacingDescription: String { "\(type(of: self)) at \(refreshRate)" }

    /// `nil`: the frame being built is shown at the next grid point.
    public var targetTimestamp: FrameInstant? { nil }

    /// `nil`: the loop counts dropped frames from the interval.
    public var droppedFramesAtLastBoundary: Int? { nil }

    /// Adds `frames` periods of ``refreshRate`` (rounded to the nanosecond) to `timestamp`.
    public func expectedTimestamp(frames: Int64, after timestamp: FrameInstant) -> FrameInstant {
        FrameInstant(nanoseconds: timestamp.nanoseconds + frames * refreshRate.periodNanoseconds)
    }
}
