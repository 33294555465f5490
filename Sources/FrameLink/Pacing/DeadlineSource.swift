import Foundation

/// A frame source that paces frames to an absolute nanosecond grid: the loop's ``FrameWaiter``
/// sleeps until a little before each deadline, then spins to it.
///
/// The grid is phase-locked: deadline `k` is `origin + k × period`, computed exactly from the
/// ``FrameRate`` fraction, so pacing never drifts and a late frame does not push later ones back.
/// A frame that comes less than a quarter period late is taken at once (late, not dropped) and the
/// grid keeps its phase; after a longer stall the next frame is the next grid point in the future,
/// and the frames in between are dropped, not replayed.
///
/// How the wait is done — the adaptive spin, real-time priority for the wait alone, main-queue
/// work served while sleeping — is the loop's: see ``FrameLoop/waiter``.
///
/// An optional `present` function runs at the start of each frame (a renderer's present that does
/// not block on vsync, for example).
@MainActor
public final class DeadlineSource: FrameSource {
    /// The rate of the grid: the rate set, or while a frame-rate range is requested
    /// (`requestFrameRate(in:)`) the rate chosen for it. Setting it restarts the grid at the
    /// current time (a requested range keeps its rate).
    public var refreshRate: FrameRate {
        get { gridRate }
        set {
            baseRate = newValue
            gridRate = frameRateChoice?.rate ?? newValue
            restartGrid()
        }
    }

    /// The rate chosen for the requested range, and why; `nil` while none is requested.
    public private(set) var frameRateChoice: FrameRateChoice?

    /// The rate set (the display's, or 60 Hz), and the rate the grid runs at.
    private var baseRate: FrameRate
    private var gridRate: FrameRate

    /// Called at the start of every frame wait, before sleeping: present the previous frame here.
    @_spi(FrameSourceImplementation) public var present: (@MainActor () -> Void)?

    /// Returns true when input is waiting; checked between idle sleeps so that input wakes the loop.
    @_spi(FrameSourceImplementation) public var inputPending: (@MainActor () -> Bool)?

    /// How the host's input can wake an idle loop (`SDLHost` sets it); `nil`: polled.
    package var idleInput: (@MainActor () -> _IdleInput)?

    /// Why the source paces by deadline, for reports (set by whoever chose it, for example
    /// `"vsync not honoured: present returned in 0.05 ms"`).
    @_spi(FrameSourceImplementation) public var reason: String?

    /// The mode and rate, with the reason it was chosen and how the loop waits:
    /// `"deadline 60 Hz (sleep, then spin the last 0.5 ms): vsync not honoured"`.
    public var pacingDescription: String {
        let spin = (loop?.waiter.currentSpin ?? .nanoseconds(FrameWaiter.AdaptiveSpin.initial)).wholeNanoseconds
        let base = "deadline \(refreshRate) (sleep, then spin the last \(Milliseconds(spin)) ms)"
        var text = reason.map { "\(base): \($0)" } ?? base
        if let schedulingNote { text += "; \(schedulingNote)" }
        if clock.sleepsInRealTime, let note = MainQueueDrain.note { text += "; \(note)" }
        return text
    }

    /// The loop's scheduling phrase for pacing descriptions, once a wait on the real clock has run.
    var schedulingNote: String? { loop?.waiter.schedulingNote }

    /// The clock the source reads and the loop waits on.
    public let clock: any PacingClock

    /// The clock's reading when the source was created: its time zero.
    @_spi(FrameSourceImplementation) public let epochNanoseconds: Int64

    private weak var loop: FrameLoop?
    private var origin: Int64
    private var lastFrameIndex: Int64 = 0
    /// Whether the last wait was an idle one (the next frame keeps the grid's phase).
    private var wasIdle = false

    /// Creates a pacer for `refreshRate` (60 Hz unless told otherwise) on `clock` (the system's
    /// monotonic clock unless told otherwise).
    public init(refreshRate: FrameRate = .hz60, clock: (any PacingClock)? = nil) {
        baseRate = refreshRate
        gridRate = refreshRate
        self.clock = clock ?? SystemClock.shared
        epochNanoseconds = self.clock.nanoseconds()
        origin = 0
    }

    /// Calls the present function, if one is set, timing it.
    @_spi(FrameSourceImplementation) public func presentFrame() {
        guard let present else { return }
        let start = clock.nanoseconds()
        present()
        lastPresentDuration = clock.nanoseconds() - start
    }

    /// How long the last present call took, in nanoseconds.
    @_spi(FrameSourceImplementation) public private(set) var lastPresentDuration: Int64 = 0

    /// A wait until the next deadline of the grid (none for a frame less than a quarter period late).
    @_spi(FrameSourceImplementation) public func nextFrameWait() -> FrameWait {
        wasIdle = false
        return deadlineWait(framesAfterLast: 1)
    }

    /// An idle wait until `deadline` or input; the frames after it keep the grid's phase.
    @_spi(FrameSourceImplementation) public func idleWait(until deadline: FrameInstant?) -> FrameWait {
        wasIdle = true
        return .idle(until: deadline)
    }

    /// The moment the wait ended: the deadline reached (or the moment a little-late frame was
    /// taken).
    @_spi(FrameSourceImplementation) public func beginFrame(at instant: FrameInstant) -> FrameInstant {
        let reached = instant
        if wasIdle { noteIdleEnded(at: reached) }
        return reached
    }

    /// A frame later than its grid point by less than a period divided by this is taken now, on
    /// the grid: a quarter (a late frame rather than a dropped one; later than that, waiting for
    /// the next point shows the frame sooner than it would queue behind the late one).
    nonisolated static let lateFrameFraction: Int64 = 4

    /// The wait until the grid point `frames` after the last frame (or the first one still in the
    /// future, if that has passed); no wait for a frame less than a quarter period late.
    func deadlineWait(framesAfterLast frames: Int64) -> FrameWait {
        let current = now.nanoseconds
        var index = lastFrameIndex + frames
        let planned = origin + refreshRate.offsetNanoseconds(ofFrame: index)
        if current > planned {
            // Late. A little late (under a quarter period): take the frame now and keep the grid, a
            // late frame rather than a dropped one. Later than that: the next grid point.
            if current - planned < refreshRate.periodNanoseconds / Self.lateFrameFraction {
                lastFrameIndex = index
                return .none
            }
            index = refreshRate.frameIndex(atOrAfter: current - origin)
        }
        lastFrameIndex = index
        return .deadline(FrameInstant(nanoseconds: origin + refreshRate.offsetNanoseconds(ofFrame: index)))
    }

    /// The grid deadline `frames` frames after the frame at `timestamp`.
    @_spi(FrameSourceImplementation) public func expectedTimestamp(frames: Int64, after timestamp: FrameInstant)
        -> FrameInstant
    {
        let index = refreshRate.frameIndex(atOrAfter: timestamp.nanoseconds - origin + 1) + frames - 1
        return FrameInstant(nanoseconds: origin + refreshRate.offsetNanoseconds(ofFrame: index))
    }

    /// Paces frames at a rate in `range`, or at ``refreshRate`` again for `nil`: the preferred rate,
    /// directly (no vsync paces a deadline grid, so any rate is even). The grid restarts now.
    @_spi(FrameSourceImplementation) public func requestFrameRate(in range: FrameRateRange?) {
        apply(range.map { $0.directChoice() })
    }

    /// Paces at `choice`'s rate (a source that knows the display chose it), or at the rate set.
    func apply(_ choice: FrameRateChoice?) {
        frameRateChoice = choice
        let rate = choice?.rate ?? baseRate
        guard rate != gridRate else { return }
        gridRate = rate
        restartGrid()
    }

    /// Remembers the loop, for its waiter's description.
    @_spi(FrameSourceImplementation) public func attach(to loop: FrameLoop) {
        self.loop = loop
    }

    /// Notes that an idle wait ended at `instant`: the frames after it land on the same grid.
    func noteIdleEnded(at instant: FrameInstant) {
        lastFrameIndex = max(lastFrameIndex, refreshRate.frameIndex(atOrAfter: instant.nanoseconds - origin) - 1)
    }

    private func restartGrid() {
        origin = now.nanoseconds
        lastFrameIndex = 0
    }

    /// Restarts the grid so that its next point is one period after `instant` (the source's time).
    func lockGrid(to instant: FrameInstant) {
        origin = instant.nanoseconds
        lastFrameIndex = 0
    }
}

extension DeadlineSource: _IdleInputWatching {}
