import Foundation

/// A frame source that paces frames to an absolute nanosecond grid on the monotonic clock: it sleeps
/// until a little before each deadline, then spins to it. The spin adapts to the wake-up latency it
/// measures, so it stays short (and cheap) on a quiet machine and grows on a loaded one.
///
/// The grid is phase-locked: deadline `k` is `origin + k × period`, computed exactly from the
/// ``FrameRate`` fraction, so pacing never drifts and a late frame does not push later ones back.
/// A frame that comes less than a quarter period late is taken at once (late, not dropped) and the
/// grid keeps its phase; after a longer stall the next frame is the next grid point in the future,
/// and the frames in between are dropped, not replayed.
///
/// On the real clock, the wait and the spin run at real-time priority where the system grants it,
/// and only they do (see ``WaitScheduling``): under CPU load that, not the spin, is what keeps
/// frames on time.
///
/// An optional `present` function runs at the start of each wait (a renderer's present that does not
/// block on vsync, for example).
@MainActor
public final class DeadlineSource: FrameSource {
    /// The rate of the grid. Setting it restarts the grid at the current time.
    public var refreshRate: FrameRate {
        didSet { restartGrid() }
    }

    /// How long before a deadline the source stops sleeping and starts spinning, or `nil` (the
    /// default) to adapt it to the wake-up latency measured on this machine.
    ///
    /// The adapted spin is three times the 98th percentile of the last 128 oversleeps plus 0.1 ms,
    /// at least 0.2 ms, and at most the median oversleep plus 1/28 of the period, recomputed every
    /// 16 frames (0.5 ms until then). Where the numbers come from: the spin exists to cover the
    /// sleep's wake-up latency, so it follows a high percentile of it, the 98th so that the one or
    /// two extreme wake-ups of a 2 s window (which no affordable spin covers) do not set it, times 3
    /// for the tail beyond (the worst of 128 wake-ups is typically 2–3× the 98th percentile), plus
    /// 0.1 ms for the context switch back into the process that an oversleep does not see; 0.2 ms
    /// is a floor so that a quiet machine still absorbs a slightly late wake-up. The ceiling is a
    /// CPU budget: the thread sleeps through the median oversleep, and spins at most 1/28 of the
    /// period beyond it, about 3.6 % of a core at any rate (0.73 ms at 60 Hz on a machine that
    /// oversleeps by 0.14 ms).
    ///
    /// A longer spin trades CPU time for precision on a loaded machine; zero sleeps the whole way.
    public var spin: Duration?

    /// The spin in use now, in nanoseconds (the fixed ``spin``, or the adapted one).
    public var currentSpin: Duration { .nanoseconds(spin?.wholeNanoseconds ?? adaptiveSpin) }

    /// The adaptive spin and where its constants come from. None is fitted to one machine: each
    /// follows from what a spin is for (covering the sleep's wake-up latency) and what it may
    /// cost (a share of a core).
    enum AdaptiveSpin {
        /// The spin before anything is measured: 0.5 ms, the middle of the range that Linux's
        /// high-resolution timers wake up in on a loaded desktop (tens of microseconds quiet, up to
        /// a millisecond busy); it is replaced after the first ``adaptEvery`` frames.
        static let initial: Int64 = 500_000
        /// Oversleeps remembered: 128 frames, about 2 s at 60 Hz, long enough for the percentile
        /// below to mean something and short enough to follow a change of load.
        static let window = 128
        /// The spin is recomputed every 16 frames (and not before 16 oversleeps are known): often
        /// enough to follow the load, rarely enough that its cost (a sort of the window) is small.
        static let adaptEvery = 16
        /// The percentile of recent oversleeps the spin covers: the 98th, so that one or two
        /// extreme wake-ups in the window (which no affordable spin covers) do not set it.
        static let coveredPercentile = 98
        /// How many times that percentile the spin is: 3, for the tail beyond it (wake-up latency
        /// has a long tail: the worst of 128 is typically 2–3× the 98th percentile).
        static let margin: Int64 = 3
        /// Added to the spin: 0.1 ms, for the time between the wake-up and the first clock read
        /// (a context switch back into the process, cache misses) that the oversleep does not see.
        static let headroom: Int64 = 100_000
        /// The shortest spin: 0.2 ms, twice the headroom, so that a quiet machine still absorbs a
        /// wake-up a little later than usual.
        static let minimum: Int64 = 200_000
        /// The CPU budget: the spin is at most the median oversleep (which the spin does not pay
        /// for: the thread is asleep) plus 1/28 of the period, so spinning costs at most 1/28
        /// (3.6 %) of a core at any rate.
        static let budgetDivisor: Int64 = 28
    }

    private var adaptiveSpin = AdaptiveSpin.initial
    private var oversleeps = _Ring(capacity: AdaptiveSpin.window)
    private var framesSinceAdapt = 0

    /// Longest single sleep while idle, so that input checks and main-queue work are serviced
    /// (4 ms by default).
    public var idleSlice: Duration = .milliseconds(4)

    /// Called at the start of every frame wait, before sleeping: present the previous frame here.
    public var present: (@MainActor () -> Void)?

    /// Returns true when input is waiting; checked between idle sleeps so that input wakes the loop.
    public var inputPending: (@MainActor () -> Bool)?

    /// Why the source paces by deadline, for reports (set by whoever chose it, for example
    /// `"vsync not honoured: present returned in 0.05 ms"`).
    public var reason: String?

    /// The mode and rate, with ``reason``: `"deadline 60 Hz (sleep, then spin the last 1.0 ms)"`.
    public var pacingDescription: String {
        let base =
            "deadline \(refreshRate) (sleep, then spin the last \(Milliseconds(currentSpin.wholeNanoseconds)) ms)"
        var text = reason.map { "\(base): \($0)" } ?? base
        if let schedulingNote { text += "; \(schedulingNote)" }
        if isRealTime, let note = MainQueueDrain.note { text += "; \(note)" }
        return text
    }

    /// Whether each wait on the real clock runs at real-time priority (true by default; see
    /// ``WaitScheduling``). Turn it off to leave the thread's scheduling alone; ``waitScheduling``
    /// says what the system granted.
    public var usesRealTimeScheduling = true

    /// How the waits are scheduled: what was asked for and granted (``WaitScheduling/undecided``
    /// until the first wait on the real clock; ``WaitScheduling/off`` on a virtual clock).
    public var waitScheduling: WaitScheduling { isRealTime ? realTimeWait.scheduling : .off }

    /// The scheduling phrase for pacing descriptions, once a wait on the real clock has run.
    var schedulingNote: String? {
        guard let timerSlack = realTimeWait.timerSlackDescription else { return nil }
        return "\(realTimeWait.scheduling), \(timerSlack)"
    }

    private var realTimeWait = _RealTimeWait()

    /// The clock the source reads and sleeps on.
    public let clock: any PacingClock

    private weak var loop: FrameLoop?
    /// Whether `clock` is real time (read once: a clock does not change its nature).
    private let isRealTime: Bool
    private let epoch: Int64
    private var origin: Int64
    private var lastFrameIndex: Int64 = 0

    /// Creates a pacer for `refreshRate` (60 Hz unless told otherwise), waking `spin` before each
    /// deadline, on `clock` (the system's monotonic clock unless told otherwise).
    public init(refreshRate: FrameRate = .hz60, spin: Duration? = nil, clock: (any PacingClock)? = nil) {
        self.refreshRate = refreshRate
        self.spin = spin
        self.clock = clock ?? SystemClock.shared
        isRealTime = self.clock.sleepsInRealTime
        epoch = self.clock.nanoseconds()
        origin = 0
    }

    /// The time since the source was created.
    public var now: FrameInstant {
        FrameInstant(nanoseconds: clock.nanoseconds() - epoch)
    }

    /// Presents (if a present function is set), then sleeps and spins to the next grid deadline and
    /// returns the time it reached it.
    public func waitForNextFrame() -> FrameInstant {
        if let present {
            let start = clock.nanoseconds()
            present()
            lastPresentDuration = clock.nanoseconds() - start
        }
        return waitForDeadline(framesAfterLast: 1)
    }

    /// How long the last present call took, in nanoseconds.
    public private(set) var lastPresentDuration: Int64 = 0

    /// Sleeps and spins to the grid point `frames` after the last frame (or the first one still in
    /// the future, if that has passed) and returns the time reached.
    func waitForDeadline(framesAfterLast frames: Int64) -> FrameInstant {
        let current = clock.nanoseconds() - epoch
        var index = lastFrameIndex + frames
        let planned = origin + refreshRate.offsetNanoseconds(ofFrame: index)
        if current > planned {
            // Late. A little late (under a quarter period): take the frame now and keep the grid, a
            // late frame rather than a dropped one. Later than that: the next grid point.
            if current - planned < refreshRate.periodNanoseconds / 4 {
                lastFrameIndex = index
                return FrameInstant(nanoseconds: current)
            }
            index = refreshRate.frameIndex(atOrAfter: current - origin)
        }
        lastFrameIndex = index
        let deadline = origin + refreshRate.offsetNanoseconds(ofFrame: index) + epoch
        let spinNanoseconds = spin?.wholeNanoseconds ?? adaptiveSpin
        // The wait and the spin run at real-time priority where granted, and only they do.
        let raised = isRealTime && realTimeWait.begin(wanted: usesRealTimeScheduling)
        defer { if raised { realTimeWait.end() } }
        // Main-actor work runs during the wait, as it arrives. Waiting on the main queue's own
        // descriptor is as precise as a plain sleep; the run-loop fallback is not, so it stops 2 ms
        // short (its wake-up can be a millisecond late on a busy machine) and a plain sleep follows.
        let servesMainQueue = isRealTime && loop?.drainsMainQueue == true && Thread.isMainThread
        if servesMainQueue && !MainQueueDrain.waitsOnMainQueueDescriptor {
            MainQueueDrain.sleepServingMainQueue(untilNanoseconds: deadline - spinNanoseconds - 2_000_000)
        }
        if deadline - clock.nanoseconds() > spinNanoseconds {
            let wake = deadline - spinNanoseconds
            if servesMainQueue && MainQueueDrain.waitsOnMainQueueDescriptor {
                MainQueueDrain.sleepServingMainQueue(untilNanoseconds: wake)
            } else {
                clock.sleep(untilNanoseconds: wake)
            }
            if spin == nil { adapt(oversleep: clock.nanoseconds() - wake) }
        }
        // Spin to the deadline. A virtual clock jumps there: spinning on it would never end.
        if !isRealTime { clock.sleep(untilNanoseconds: deadline) }
        var reached = clock.nanoseconds()
        while reached < deadline { reached = clock.nanoseconds() }
        return FrameInstant(nanoseconds: reached - epoch)
    }

    /// Presents what the last frame drew (if a present function is set), then sleeps in slices of
    /// at most ``idleSlice`` until `deadline` or input; runs main-queue work between slices. Never
    /// spins.
    public func waitIdle(until deadline: FrameInstant?, drainMainQueue: () -> Void) -> FrameInstant {
        present?()
        let slice = max(idleSlice.wholeNanoseconds, 100_000)
        while true {
            drainMainQueue()
            let current = clock.nanoseconds() - epoch
            if let deadline, current >= deadline.nanoseconds { break }
            if let inputPending, inputPending() { break }
            var wake = current + slice
            if let deadline { wake = min(wake, deadline.nanoseconds) }
            clock.sleep(untilNanoseconds: wake + epoch)
            if deadline == nil, inputPending == nil { break }
        }
        let woke = clock.nanoseconds() - epoch
        // Keep the grid's phase: frames after an idle period land on the same grid.
        lastFrameIndex = max(lastFrameIndex, refreshRate.frameIndex(atOrAfter: woke - origin) - 1)
        return FrameInstant(nanoseconds: woke)
    }

    /// The grid deadline `frames` frames after the frame at `timestamp`.
    public func expectedTimestamp(frames: Int64, after timestamp: FrameInstant) -> FrameInstant {
        let index = refreshRate.frameIndex(atOrAfter: timestamp.nanoseconds - origin + 1) + frames - 1
        return FrameInstant(nanoseconds: origin + refreshRate.offsetNanoseconds(ofFrame: index))
    }

    /// Remembers the loop, to know whether it wants main-queue work run during waits.
    public func attach(to loop: FrameLoop) {
        self.loop = loop
    }

    /// Keeps the spin just above the wake-up latency the last 128 sleeps showed, within the CPU
    /// budget (see ``spin``).
    private func adapt(oversleep: Int64) {
        oversleeps.append(max(0, oversleep))
        framesSinceAdapt += 1
        guard framesSinceAdapt >= AdaptiveSpin.adaptEvery, oversleeps.count >= AdaptiveSpin.adaptEvery else { return }
        framesSinceAdapt = 0
        let wanted =
            oversleeps.percentile(AdaptiveSpin.coveredPercentile) * AdaptiveSpin.margin + AdaptiveSpin.headroom
        let budget = oversleeps.percentile(50) + refreshRate.periodNanoseconds / AdaptiveSpin.budgetDivisor
        adaptiveSpin = max(AdaptiveSpin.minimum, min(wanted, budget))
    }

    private func restartGrid() {
        origin = clock.nanoseconds() - epoch
        lastFrameIndex = 0
    }

    /// Restarts the grid so that its next point is one period after `instant` (the source's time).
    func lockGrid(to instant: FrameInstant) {
        origin = instant.nanoseconds
        lastFrameIndex = 0
    }
}
