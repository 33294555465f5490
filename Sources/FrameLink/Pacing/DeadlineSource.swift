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
/// An optional `present` function runs at the start of each wait (a renderer's present that does not
/// block on vsync, for example).
@MainActor
public final class DeadlineSource: FrameSource {
    /// The rate of the grid. Setting it restarts the grid at the current time.
    public var refreshRate: FrameRate {
        didSet { restartGrid() }
    }

    /// How long before a deadline the source stops sleeping and starts spinning, or `nil` (the
    /// default) to adapt it to the wake-up latency measured on this machine: three times the 98th
    /// percentile of the last 128 oversleeps plus 0.1 ms, at least 0.2 ms, and at most the median
    /// oversleep plus 1/28 of the period, so that spinning costs at most about 3.6 % of a core
    /// (a spin of at most 0.73 ms at 60 Hz on a machine that oversleeps by 0.14 ms).
    ///
    /// A longer spin trades CPU time for precision on a loaded machine; zero sleeps the whole way.
    public var spin: Duration?

    /// The spin in use now, in nanoseconds (the fixed ``spin``, or the adapted one).
    public var currentSpin: Duration { .nanoseconds(spin?.wholeNanoseconds ?? adaptiveSpin) }

    private var adaptiveSpin: Int64 = 500_000
    private var oversleeps = _Ring(capacity: 128)
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
        var base =
            "deadline \(refreshRate) (sleep, then spin the last \(Milliseconds(currentSpin.wholeNanoseconds)) ms)"
        if interferenceShifts > 0 {
            base += "; grid moved \(interferenceShifts)× away from interruptions at its deadlines"
        }
        var text = reason.map { "\(base): \($0)" } ?? base
        if isRealTime, let note = MainQueueDrain.note { text += "; \(note)" }
        return text
    }

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
        // Spin, watching for interruptions: a jump between two clock reads means the thread was
        // held (an interrupt, the kernel's tick, the host taking the CPU). They are logged by
        // their offsets from the deadline. A virtual clock is stepped 1 µs at a time, so that a
        // simulated interruption shows too.
        var reached = clock.nanoseconds()
        var previous = reached
        while reached < deadline {
            if !isRealTime { clock.sleep(untilNanoseconds: min(deadline, reached + 1_000)) }
            reached = clock.nanoseconds()
            if reached - previous > Self.interruptionThreshold {
                interruptions.append(frame: index, start: previous - deadline, end: reached - deadline)
            }
            previous = reached
        }
        // Without a spin every frame is late by its wake-up latency: that is not interference.
        if spinNanoseconds > 0 {
            noteLateness(reached - deadline, frame: index, spin: spinNanoseconds)
            noteInterruption(frame: index, spin: spinNanoseconds)
        }
        return FrameInstant(nanoseconds: reached - epoch)
    }

    /// Whether the grid moves away from periodic interference (true by default).
    ///
    /// Some machines run something at a fixed rate that preempts the pacer just as a deadline falls
    /// due: the kernel's scheduler tick (250 Hz on many kernels), a kernel thread, a monitoring
    /// agent, or, on a virtual machine, the host taking the virtual CPU away (which no thread
    /// priority prevents). Such an activity keeps its phase on the monotonic clock, so against a
    /// 60 Hz grid it recurs on every third or sixth deadline at the same offset, for as long as
    /// both run. The spin watches for interruptions (jumps of more than 3 µs between two reads of
    /// the clock) and logs where they fall relative to each deadline. The source moves its grid
    /// so that the activity falls inside the frame's work instead of on its deadline: earlier, to
    /// the point of the spin's window that the interruptions of the last 60 frames kept clearest
    /// of (the window is the only stretch before a deadline the source has watched), or 1 ms
    /// later (an eighth of a period above 125 Hz) when the spin is under 0.1 ms. It moves when
    ///
    /// - an interruption holds the spin across the deadline, so the frame is late. A recurring
    ///   activity would make this deadline late again every few frames; a chance one will not,
    ///   but moving costs nothing more then: the interval after a late frame is off the period
    ///   anyway, and the move only changes by how much;
    /// - the spin is interrupted twice within 60 frames at the same offset from the deadline
    ///   (within 3 µs), each time ending less than 30 µs before it. This catches a recurring
    ///   activity from its near misses, before a frame is late; the chance interruptions of a busy
    ///   machine come at scattered offsets; or
    /// - three late frames in a row come at the same spacing (at most 30 frames apart): sleeps
    ///   that end late at a fixed rhythm.
    ///
    /// It moves at most once every 120 frames; each move makes one interval shorter by at most the
    /// spin. Only deadline pacing can do this: a display's vsync has a fixed phase. A source whose
    /// ``spin`` is zero never moves its grid: every one of its frames is late by the sleep's
    /// wake-up latency, which no phase avoids, and it has no spin in which to see interruptions.
    public var avoidsPeriodicInterference = true

    /// How many times the grid has moved away from interruptions at its deadlines (see
    /// ``avoidsPeriodicInterference``).
    public private(set) var interferenceShifts = 0

    /// Frame indices of the last three frames that reached their deadline more than 5 µs late.
    private var lateFrames: (Int64, Int64, Int64) = (0, 0, 0)
    private var lastShiftFrame: Int64 = -1_000

    /// A jump between two clock reads in the spin longer than this is an interruption (3 µs; a
    /// read takes about 25 ns).
    static let interruptionThreshold: Int64 = 3_000

    /// The interruptions the last spins saw, by their offsets from their deadlines.
    private var interruptions = _InterruptionLog()

    /// Notes how late the spin ended; moves the grid when late frames recur at a fixed spacing.
    private func noteLateness(_ lateness: Int64, frame index: Int64, spin: Int64) {
        guard avoidsPeriodicInterference, lateness > 5_000 else { return }
        lateFrames = (lateFrames.1, lateFrames.2, index)
        let spacing = lateFrames.2 - lateFrames.1
        guard lateFrames.0 > 0, lateFrames.1 - lateFrames.0 == spacing, spacing <= 30 else { return }
        moveGrid(at: index, spin: spin)
    }

    /// Looks at the last interruption of this frame's spin, if it had one; moves the grid when it
    /// made the frame late, or when it ended close to the deadline at the offset of an earlier near
    /// miss.
    private func noteInterruption(frame index: Int64, spin: Int64) {
        guard avoidsPeriodicInterference, let last = interruptions.last, last.frame == index,
            last.end > -_InterruptionLog.nearMissMargin
        else { return }
        let madeFrameLate = last.end > 5_000
        if madeFrameLate || interruptions.hasNearMiss(startingAt: last.start, within: 3_000, in: (index - 60)..<index) {
            moveGrid(at: index, spin: spin)
        }
    }

    /// Moves the grid, unless it moved in the last 120 frames: earlier, to the point of the spin's
    /// window that the interruptions of the last 60 frames kept clearest of; or, if the spin is
    /// too short to choose in, 1 ms (an eighth of a period above 125 Hz) later.
    private func moveGrid(at index: Int64, spin: Int64) {
        guard index - lastShiftFrame >= 120 else { return }
        if let earlier = interruptions.clearestOffset(window: spin, frames: (index - 60)...index) {
            origin -= earlier
        } else {
            origin += min(1_000_000, refreshRate.periodNanoseconds / 8)
        }
        lastShiftFrame = index
        lateFrames = (0, 0, 0)
        interruptions.removeAll()
        interferenceShifts += 1
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
        guard framesSinceAdapt >= 16, oversleeps.count >= 16 else { return }
        framesSinceAdapt = 0
        let wanted = oversleeps.percentile(98) * 3 + 100_000
        let budget = oversleeps.percentile(50) + refreshRate.periodNanoseconds / 28
        adaptiveSpin = max(200_000, min(wanted, budget))
    }

    private func restartGrid() {
        origin = clock.nanoseconds() - epoch
        lastFrameIndex = 0
        forgetLateFrames()
    }

    private func forgetLateFrames() {
        lateFrames = (0, 0, 0)
        interruptions.removeAll()
        lastShiftFrame = -1_000
    }

    /// Restarts the grid so that its next point is one period after `instant` (the source's time).
    func lockGrid(to instant: FrameInstant) {
        origin = instant.nanoseconds
        lastFrameIndex = 0
        forgetLateFrames()
    }
}
