import CFrameLinkShims
import Foundation

/// The one wait in every frame: the part of a ``FrameLoop`` that carries out its source's
/// ``FrameWait`` — sleeping, spinning the last stretch, serving main-queue work while it sleeps,
/// and asking for real-time priority for the wait alone.
///
/// Every loop owns one (``FrameLoop/waiter``); set its options there. On a virtual clock (a
/// ``ManualFrameSource``, a ``DisplayLab``, a ``VirtualClock``) a wait jumps the clock: it never
/// sleeps or spins in real time.
///
/// **Sleep, then spin.** For a ``FrameWait/deadline(_:)`` wait the waiter sleeps until a little
/// before the deadline, then spins to it. The spin adapts to the wake-up latency it measures, so it
/// stays short (and cheap) on a quiet machine and grows on a loaded one (see ``spin``).
///
/// **Real-time scheduling.** On the real clock, the sleep and the spin run at real-time priority
/// where the system grants it, and only they do (see ``WaitScheduling``): under CPU load that, not
/// the spin, is what keeps frames on time. ``usesRealTimeScheduling`` turns it off.
@MainActor
public final class FrameWaiter {
    /// How long before a deadline the waiter stops sleeping and starts spinning, or `nil` (the
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

    /// The spin in use now (the fixed ``spin``, or the adapted one).
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

    /// Where the main queue is served by the run loop's fallback (no descriptor of its own to wait
    /// on), the serving sleep stops this far short of the spin: 2 ms, since that wake-up can be a
    /// millisecond late on a busy machine; a plain sleep follows.
    static let runLoopServingMargin: Int64 = 2_000_000

    /// The shortest idle slice: 0.1 ms, whatever ``idleSlice`` says (a zero or negative slice
    /// would poll in a busy loop).
    static let shortestIdleSlice: Int64 = 100_000

    private var adaptiveSpin = AdaptiveSpin.initial
    private var oversleeps = _Ring(capacity: AdaptiveSpin.window)
    private var framesSinceAdapt = 0

    /// The longest single sleep while idle where input must be polled, so that input checks and
    /// main-queue work are serviced (4 ms by default). A host that says how its input wakes the
    /// loop (`SDLHost`: the display connection's descriptor) is not polled: the loop sleeps until
    /// input, main-queue work or its next timer.
    public var idleSlice: Duration = .milliseconds(4)

    /// Whether each wait on the real clock runs at real-time priority (true by default; see
    /// ``WaitScheduling``). Turn it off to leave the thread's scheduling alone; ``waitScheduling``
    /// says what the system granted.
    public var usesRealTimeScheduling = true

    /// How the waits are scheduled: what was asked for and granted (``WaitScheduling/undecided``
    /// until the first wait on the real clock; ``WaitScheduling/off`` while the loop runs on a
    /// virtual clock).
    public var waitScheduling: WaitScheduling { waitsInRealTime ? realTimeWait.scheduling : .off }

    /// The scheduling phrase for pacing descriptions, once a wait on the real clock has run.
    var schedulingNote: String? {
        guard waitsInRealTime, let timerSlack = realTimeWait.timerSlackDescription else { return nil }
        return "\(realTimeWait.scheduling), \(timerSlack)"
    }

    private var realTimeWait = _RealTimeWait()
    /// Whether the last wait was on the real clock.
    private var waitsInRealTime = false

    /// Creates a waiter with an adaptive spin and real-time scheduling on.
    public init() {}

    /// Waits as `wait` says, on `source`'s clock and timeline, and returns when the wait ended on
    /// that timeline (read while the thread still held real-time priority, for a deadline).
    /// `servesMainQueue` runs main-queue work that arrives during a real-time sleep (on the
    /// process main thread only).
    func wait(
        _ wait: FrameWait, on source: any FrameSource, servesMainQueue: Bool, periodNanoseconds: Int64,
        drainMainQueue: () -> Void
    ) -> FrameInstant {
        let clock = source.clock
        let epoch = source.epochNanoseconds
        let isRealTime = clock.sleepsInRealTime
        waitsInRealTime = isRealTime
        let serves = servesMainQueue && Thread.isMainThread
        switch wait {
        case .none:
            break
        case .sleep(let instant):
            let wake = Self.clockTime(of: instant, epoch: epoch)
            if !isRealTime {
                if serves { MainQueueDrain.drainWithoutWaiting() }
                clock.sleep(untilNanoseconds: wake)
            } else if serves && MainQueueDrain.waitsOnMainQueueDescriptor {
                MainQueueDrain.sleepServingMainQueue(untilNanoseconds: wake)
            } else {
                clock.sleep(untilNanoseconds: wake)
            }
        case .deadline(let instant):
            if !isRealTime && serves { MainQueueDrain.drainWithoutWaiting() }
            let reached = sleepAndSpin(
                until: Self.clockTime(of: instant, epoch: epoch), on: clock, isRealTime: isRealTime,
                serves: serves && isRealTime,
                period: periodNanoseconds)
            return FrameInstant(nanoseconds: reached - epoch)
        case .idle(let until):
            idle(
                until: until.map { Self.clockTime(of: $0, epoch: epoch) }, on: clock, source: source, serves: serves,
                drainMainQueue: drainMainQueue)
        }
        return FrameInstant(nanoseconds: clock.nanoseconds() - epoch)
    }

    /// The clock's time of `instant` (instants count from the source's epoch), saturating: a wait
    /// until a timer's fire date near the largest instant (a "never", or a date read from a save)
    /// waits as long as the clock can count instead of overflowing.
    static func clockTime(of instant: FrameInstant, epoch: Int64) -> Int64 {
        let (sum, overflow) = epoch.addingReportingOverflow(instant.nanoseconds)
        guard overflow else { return sum }
        return instant.nanoseconds > 0 ? .max : .min
    }

    /// Sleeps until `spin` before `deadline` (clock nanoseconds), then spins to it, at real-time
    /// priority where granted. On a virtual clock the same steps run (a simulated clock may wake
    /// late, as a real one does), but the spin is a jump: spinning on virtual time would never end.
    private func sleepAndSpin(
        until deadline: Int64, on clock: any PacingClock, isRealTime: Bool, serves: Bool, period: Int64
    ) -> Int64 {
        let spinNanoseconds = spin?.wholeNanoseconds ?? adaptiveSpin
        // The wait and the spin run at real-time priority where granted, and only they do.
        let raised = isRealTime && realTimeWait.begin(wanted: usesRealTimeScheduling)
        defer { if raised { realTimeWait.end() } }
        // Main-actor work runs during the wait, as it arrives. Waiting on the main queue's own
        // descriptor is as precise as a plain sleep; the run-loop fallback is not, so it stops short
        // (``runLoopServingMargin``) and a plain sleep follows.
        if serves && !MainQueueDrain.waitsOnMainQueueDescriptor {
            MainQueueDrain.sleepServingMainQueue(
                untilNanoseconds: deadline - spinNanoseconds - Self.runLoopServingMargin)
        }
        if deadline - clock.nanoseconds() > spinNanoseconds {
            let wake = deadline - spinNanoseconds
            if serves && MainQueueDrain.waitsOnMainQueueDescriptor {
                MainQueueDrain.sleepServingMainQueue(untilNanoseconds: wake)
            } else {
                clock.sleep(untilNanoseconds: wake)
            }
            if spin == nil { adapt(oversleep: clock.nanoseconds() - wake, period: period) }
        }
        if !isRealTime {
            clock.sleep(untilNanoseconds: deadline)
            return clock.nanoseconds()
        }
        // The time reached is read here, still at real-time priority (the deferred lowering runs
        // after it).
        var reached = clock.nanoseconds()
        while reached < deadline { reached = clock.nanoseconds() }
        return reached
    }

    /// Sleeps in slices of at most ``idleSlice`` until `deadline` (clock nanoseconds) or input;
    /// runs main-queue work between slices. Never spins. Where the host says how its input wakes
    /// the loop (a display connection's descriptor, or none), it sleeps instead without slices
    /// (`sleepsUntilWoken`: the real clock is the monotonic clock the main queue's wait reads).
    private func idle(
        until deadline: Int64?, on clock: any PacingClock, source: any FrameSource, serves: Bool,
        drainMainQueue: () -> Void
    ) {
        let slice = max(idleSlice.wholeNanoseconds, Self.shortestIdleSlice)
        let inputPending = source.inputPending
        if clock.sleepsInRealTime, serves, MainQueueDrain.waitsOnMainQueueDescriptor,
            let input = (source as? any _IdleInputWatching)?.idleInput?(), input != .polled
        {
            sleepsUntilWoken(
                until: deadline, input: input, slice: slice, inputPending: inputPending, drainMainQueue: drainMainQueue)
            return
        }
        if !clock.sleepsInRealTime && inputPending == nil {
            // Virtual time with no input to watch: nothing can end the wait early, so it goes
            // straight to the deadline (a timer a day ahead is one step, not 864 million slices).
            drainMainQueue()
            let (oneSlice, overflow) = clock.nanoseconds().addingReportingOverflow(slice)
            clock.sleep(untilNanoseconds: deadline ?? (overflow ? .max : oneSlice))
            return
        }
        while true {
            drainMainQueue()
            let current = clock.nanoseconds()
            if let deadline, current >= deadline { break }
            if let inputPending, inputPending() { break }
            var wake = current + slice
            if let deadline { wake = min(wake, deadline) }
            clock.sleep(untilNanoseconds: wake)
            idleWakeUps += 1
            // With nothing to wait for, or on virtual time (which no input moves), one slice.
            if deadline == nil, inputPending == nil || !clock.sleepsInRealTime { break }
        }
    }

    /// Idle wake-ups so far: each return from an idle sleep or slice (for measurements).
    package private(set) var idleWakeUps = 0

    /// The last stretch before an idle deadline, slept apart: 2 ms. A sleep of a second can end a
    /// millisecond or more late (measured here: 1.2–1.35 ms, as the CPU leaves a deep idle state),
    /// a sleep of 2 ms within a fraction of one; so a timer stays within 1 ms for one more wake-up.
    static let idleFinalApproach: Int64 = 2_000_000

    /// The idle wait without slices: sleeps on the main queue, the input descriptor (if any) and
    /// `deadline` at once, and returns for the deadline, for input (which `inputPending` confirms),
    /// or after main-queue work ran (which may have started a display link: the loop looks again).
    private func sleepsUntilWoken(
        until deadline: Int64?, input: _IdleInput, slice: Int64, inputPending: (@MainActor () -> Bool)?,
        drainMainQueue: () -> Void
    ) {
        guard case .descriptors(let connection, let wake) = input else { return }
        var readableWithoutInput = false
        while true {
            drainMainQueue()
            let now = MonotonicClock.nanoseconds()
            if let deadline, now >= deadline { return }
            // The wake-up is reset before the pump looks: an event added after the look signals it.
            if let wake { _ = CFrameLinkShims_waitReadable(wake, -1) }
            if let inputPending, inputPending() { return }
            // A descriptor that stays readable with no input behind it (a connection that hung up)
            // would wake the loop at once, again and again: after such a wake, one slice without it.
            let woke: MainQueueDrain.IdleWake?
            if readableWithoutInput {
                let end = now &+ slice
                woke = MainQueueDrain.sleepServingMainQueue(
                    untilNanoseconds: deadline.map { min($0, end) } ?? end, orInputOn: nil, wake: wake)
            } else if let deadline, deadline - now > Self.idleFinalApproach {
                woke = MainQueueDrain.sleepServingMainQueue(
                    untilNanoseconds: deadline - Self.idleFinalApproach, orInputOn: connection, wake: wake)
            } else {
                woke = MainQueueDrain.sleepServingMainQueue(
                    untilNanoseconds: deadline, orInputOn: connection, wake: wake)
            }
            idleWakeUps += 1
            readableWithoutInput = woke == .input
            switch woke {
            case .deadline?: if let deadline, MonotonicClock.nanoseconds() >= deadline { return }
            case .mainQueue?, nil: return
            case .input?: continue  // the pump at the top reads it (and returns if it was input)
            case .failed?:
                // A wait that fails at once (a descriptor closed under it) must not become a spin:
                // one plain slice, then the loop looks again.
                MonotonicClock.sleep(untilNanoseconds: deadline.map { min($0, now &+ slice) } ?? now &+ slice)
            }
        }
    }

    /// Keeps the spin just above the wake-up latency the last 128 sleeps showed, within the CPU
    /// budget (see ``spin``).
    private func adapt(oversleep: Int64, period: Int64) {
        oversleeps.append(max(0, oversleep))
        framesSinceAdapt += 1
        guard framesSinceAdapt >= AdaptiveSpin.adaptEvery, oversleeps.count >= AdaptiveSpin.adaptEvery else { return }
        framesSinceAdapt = 0
        let wanted =
            oversleeps.percentile(AdaptiveSpin.coveredPercentile) * AdaptiveSpin.margin + AdaptiveSpin.headroom
        let budget = oversleeps.median + period / AdaptiveSpin.budgetDivisor
        adaptiveSpin = max(AdaptiveSpin.minimum, min(wanted, budget))
    }
}
