/// The source of frame boundaries that drives a ``FrameLoop``: a presenter (what sends a frame to
/// the screen) and a pacer (when the next frame begins, and its timestamp), on a clock.
///
/// A frame's boundary happens in three steps, each a requirement, called by the loop in this order
/// (``FrameLoop/runFrame()`` reads top to bottom):
/// 1. **Present**: `presentFrame()` sends what the last frame drew to the screen; it may block
///    on vsync.
/// 2. **Wait**: `nextFrameWait()` (while a display link is active) or `idleWait(until:)` (while
///    none is) says until when; the loop's ``FrameWaiter`` does the waiting, so no source sleeps or
///    spins itself (one exception: a ``PresentSource`` presenting on every 2nd vsync holds the
///    present until the vsync in between has passed).
/// 3. **Timestamp**: `beginFrame(at:)` gives the frame's timestamp once the wait is over: a vsync of
///    the fitted grid, the deadline reached, or a virtual grid point. Timestamps never go back: the
///    loop takes one before the last frame's as the last one (and a ``targetTimestamp`` before the
///    frame's timestamp as the next grid point), and says so once in its log.
///
/// FrameLink ships ``ManualFrameSource`` (virtual time, for deterministic tests),
/// ``DeadlineSource`` (a deadline grid, with an optional present that does not block) and
/// ``PresentSource`` (a present that may block on vsync, with detection and a phase-locked vsync
/// grid). FrameLinkSDL's window host uses a ``PresentSource``.
///
/// **The loop's side is not the game's.** A game reads a source (``refreshRate``, ``now``,
/// ``pacingDescription``, ``targetTimestamp``, ``frameRateChoice``); the steps above change pacing
/// state, and only the loop and the host call them. They, and a host's hooks on ``PresentSource``
/// (its present and input callbacks, presentation reports, the swap-chain size), are a system
/// programming interface: a source or host of your own imports it by name, and nothing else sees it.
///
/// ```
/// @_spi(FrameSourceImplementation) import FrameLink
///
/// final class MySource: FrameSource {
///     func nextFrameWait() -> FrameWait { … }
///     func beginFrame(at instant: FrameInstant) -> FrameInstant { … }
///     …
/// }
/// ```
@MainActor
public protocol FrameSource: AnyObject {
    /// The rate of the frame grid: the display's refresh rate, or the rate paced to.
    var refreshRate: FrameRate { get }

    /// The clock the source reads and the loop waits on.
    var clock: any PacingClock { get }

    /// The clock's reading, in its nanoseconds, at the source's time zero: ``now`` is the clock's
    /// time minus it, and a ``FrameWait``'s instants are on that timeline.
    @_spi(FrameSourceImplementation) var epochNanoseconds: Int64 { get }

    /// The current time on the source's timeline. The default is the clock's time minus
    /// `epochNanoseconds`.
    var now: FrameInstant { get }

    /// The wait before `presentFrame()`, carried out by the loop's waiter like any other (a present
    /// held to go out on a later vsync, or at a paced time): the default is ``FrameWait/none``.
    /// Called right before `presentFrame()` whenever the loop presents.
    @_spi(FrameSourceImplementation) func presentWait() -> FrameWait

    /// Presents what the last frame drew (the present step; it may block until vsync). Called at
    /// the start of every frame, before the wait, whether or not a display link is active, so that
    /// a frame drawn while none is still reaches the screen. The default does nothing.
    @_spi(FrameSourceImplementation) func presentFrame()

    /// How long the last `presentFrame()` took, in nanoseconds (0 for sources that do not
    /// present): blamed as the `present` phase, apart from the wait that follows it.
    @_spi(FrameSourceImplementation) var lastPresentDuration: Int64 { get }

    /// The wait before the next frame, decided after `presentFrame()` while a display link (or a
    /// task waiting for a frame) is active: the pacer's step.
    @_spi(FrameSourceImplementation) func nextFrameWait() -> FrameWait

    /// The wait while no display link is active: until `deadline` (the next timer's fire date;
    /// `nil` for none) or input. The default is ``FrameWait/idle(until:)``, which never spins; a
    /// source must not busy-wait here.
    @_spi(FrameSourceImplementation) func idleWait(until deadline: FrameInstant?) -> FrameWait

    /// Returns true when input is waiting; checked between idle sleeps so that input ends an idle
    /// wait. The default is `nil`: idle waits last until their deadline.
    @_spi(FrameSourceImplementation) var inputPending: (@MainActor () -> Bool)? { get }

    /// Begins the frame that the last wait led to and returns its timestamp: called once, right
    /// after the wait, which ended at `instant` (read by the waiter the moment the wait was over,
    /// before it gave up real-time priority: a thread lowered to normal priority on a busy machine
    /// can wait milliseconds for a core before it reads the clock again).
    @_spi(FrameSourceImplementation) func beginFrame(at instant: FrameInstant) -> FrameInstant

    /// Called when the frame's work begins: right after `beginFrame(at:)`, or after latency mode's
    /// wait (``FrameLoop/minimizesInputLatency``). A source that measures frame costs measures them
    /// from here. The default does nothing.
    @_spi(FrameSourceImplementation) func beginWork(at instant: FrameInstant)

    /// Called when a loop starts using the source. The default does nothing.
    @_spi(FrameSourceImplementation) func attach(to loop: FrameLoop)

    /// Whether frames may begin later than their boundary (``FrameLoop/minimizesInputLatency``)
    /// without disturbing what the source measures. The default is true; a source still measuring
    /// how present behaves says false until it knows.
    @_spi(FrameSourceImplementation) var acceptsLateFrames: Bool { get }

    /// How the source paces frames and why, for reports (for example
    /// `"deadline 60 Hz: present returned in 0.05 ms, vsync not honoured"`).
    var pacingDescription: String { get }

    /// The time `frames` frames after the frame at `timestamp` is expected to begin: the ideal
    /// grid time where the source has a grid. The default adds `frames` rounded periods.
    @_spi(FrameSourceImplementation) func expectedTimestamp(frames: Int64, after timestamp: FrameInstant)
        -> FrameInstant

    /// The time the frame being built will reach the screen, when the source knows it: a swap chain
    /// that queues frames shows a frame some vsyncs after the frame's timestamp. `nil` (the
    /// default) means the next grid point, `expectedTimestamp(frames:after:)` with one frame.
    var targetTimestamp: FrameInstant? { get }

    /// Asks the source to pace frames at a rate in `range`, or at its own rate again for `nil`
    /// (``FrameLoop/preferredFrameRateRange`` calls it). A source with a fixed refresh runs at the
    /// even rate closest to the preferred one (``FrameRateRange/choice(dividing:)``); one whose
    /// display shows frames as they come paces the preferred rate directly. The default ignores
    /// the request (``frameRateChoice`` stays `nil`, and the loop logs that).
    @_spi(FrameSourceImplementation) func requestFrameRate(in range: FrameRateRange?)

    /// The rate chosen for the last requested range, and why; `nil` while none is requested (or
    /// the source does not take requests).
    var frameRateChoice: FrameRateChoice? { get }

    /// When the frame presented at the last frame boundary reached, or will reach, the screen, when
    /// the source knows it: the vsync its swap-chain model (or presentation feedback) puts it on, or
    /// the moment present returned on a variable-refresh display that shows frames as they come.
    /// The loop measures input latency to it. `nil` (the default) means the frame's target, later
    /// by the frames the loop counted as dropped.
    @_spi(FrameSourceImplementation) var shownAtLastBoundary: FrameInstant? { get }

    /// The refreshes the display showed an old frame again in the interval that ended at the last
    /// frame boundary, when the source knows them (from its vsync grid or presentation feedback):
    /// a queued frame can absorb a late one, so the interval alone may over-count. `nil` (the
    /// default) lets the loop count them from the interval.
    @_spi(FrameSourceImplementation) var droppedFramesAtLastBoundary: Int? { get }
}

extension FrameSource {
    /// The clock's time minus `epochNanoseconds`.
    public var now: FrameInstant { FrameInstant(nanoseconds: clock.nanoseconds() - epochNanoseconds) }

    /// ``FrameWait/none``: the present goes out at once.
    @_spi(FrameSourceImplementation) public func presentWait() -> FrameWait { .none }

    /// Does nothing: the source does not present.
    @_spi(FrameSourceImplementation) public func presentFrame() {}

    /// Zero: the source does not present.
    @_spi(FrameSourceImplementation) public var lastPresentDuration: Int64 { 0 }

    /// ``FrameWait/idle(until:)`` until `deadline`.
    @_spi(FrameSourceImplementation) public func idleWait(until deadline: FrameInstant?) -> FrameWait {
        .idle(until: deadline)
    }

    /// `nil`: idle waits last until their deadline.
    @_spi(FrameSourceImplementation) public var inputPending: (@MainActor () -> Bool)? { nil }

    /// Does nothing: the source measures no frame costs.
    @_spi(FrameSourceImplementation) public func beginWork(at instant: FrameInstant) {}

    /// True: frames may begin late.
    @_spi(FrameSourceImplementation) public var acceptsLateFrames: Bool { true }

    /// Does nothing: most sources need no reference to their loop.
    @_spi(FrameSourceImplementation) public func attach(to loop: FrameLoop) {}

    /// The source's type and rate, such as `"ManualFrameSource at 60 Hz"`.
    public var pacingDescription: String { "\(type(of: self)) at \(refreshRate)" }

    /// `nil`: the frame being built is shown at the next grid point.
    public var targetTimestamp: FrameInstant? { nil }

    /// `nil`: the frame is shown at its target, later by the dropped frames.
    @_spi(FrameSourceImplementation) public var shownAtLastBoundary: FrameInstant? { nil }

    /// Ignores the request: the source paces at its own rate.
    @_spi(FrameSourceImplementation) public func requestFrameRate(in range: FrameRateRange?) {}

    /// `nil`: the source takes no frame-rate requests.
    public var frameRateChoice: FrameRateChoice? { nil }

    /// `nil`: the loop counts dropped frames from the interval.
    @_spi(FrameSourceImplementation) public var droppedFramesAtLastBoundary: Int? { nil }

    /// Adds `frames` periods of ``refreshRate`` (rounded to the nanosecond) to `timestamp`.
    @_spi(FrameSourceImplementation) public func expectedTimestamp(frames: Int64, after timestamp: FrameInstant)
        -> FrameInstant
    {
        FrameInstant(nanoseconds: timestamp.nanoseconds + frames * refreshRate.periodNanoseconds)
    }
}
