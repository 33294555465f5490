import CFrameLinkShims
import Foundation

#if canImport(CoreFoundation)
    import CoreFoundation
#endif

/// Runs work queued for the main thread (main-queue blocks and `Task { @MainActor in … }` jobs)
/// while a frame loop blocks the main thread.
///
/// A loop that blocks the main thread starves that work unless it services the main queue. Where
/// libdispatch exposes the main queue's wake-up descriptor (an eventfd on Linux, the hook
/// CoreFoundation's run loop itself uses; reached through the `CFrameLinkShims` C target), a frame
/// wait is one `ppoll` on that descriptor that sleeps to its deadline with nanosecond precision and
/// wakes early only to run work that arrives, and a frame's drain is one non-blocking check. That
/// costs a fraction of a full `RunLoop` pass (which also allocates), so a pass is made only when a
/// `Foundation.Timer` on the main run loop is due and on every 60th frame, for other run-loop
/// sources.
///
/// The hook path is checked before it is trusted: at the first wait a block is queued on the main
/// queue and must run through the hook within 50 ms. Where the hooks are missing or do not run it,
/// FrameLink serves the main queue through the main run loop instead and says so once in the
/// pacing description (`note`). Tests force that fallback with ``forcesRunLoopFallback``.
///
/// On any other thread (Swift Testing runs `@MainActor` tests off the main thread on Linux) these do
/// nothing but sleep.
@MainActor
package enum MainQueueDrain {
    /// How the main queue is served.
    package enum Path: Equatable {
        /// Not decided yet: decided at the first wait on the main thread.
        case undecided
        /// Waits on libdispatch's main-queue descriptor, which the check showed to work.
        case descriptor(Int32)
        /// Passes through the main run loop.
        case runLoop
    }

    /// Forces the run-loop path even where the hooks work, so that the fallback is exercised (the
    /// test suite runs its main-queue tests both ways). Setting it makes the next wait decide again.
    package static var forcesRunLoopFallback = false {
        didSet { path = .undecided }
    }

    /// Makes the hook check fail as a toolchain whose hook runs nothing would, for the test of the
    /// check itself. Setting it makes the next wait decide again.
    package static var simulatesInertHook = false {
        didSet { path = .undecided }
    }

    /// The path in use (``Path/undecided`` until the first wait on the main thread).
    package private(set) static var path: Path = .undecided

    /// Why the run-loop path is in use where the descriptor path was expected, for pacing
    /// descriptions; nil while the descriptor path works (or nothing was decided).
    package private(set) static var note: String?

    /// Counts drains, to make a full run-loop pass every 60th.
    private static var drainCount = 0
    /// Set by the check's probe block when it runs.
    private static var probeRan = false

    /// Whether frame waits wait on the main queue's descriptor (rather than the main run loop).
    static var waitsOnMainQueueDescriptor: Bool {
        guard Thread.isMainThread else { return false }
        if case .descriptor = resolvedPath() { return true }
        return false
    }

    /// Decides the path at the first call on the main thread: the descriptor path if the hooks
    /// exist and running them really runs a block queued on the main queue, else the run loop.
    private static func resolvedPath() -> Path {
        if path != .undecided { return path }
        note = nil
        if forcesRunLoopFallback {
            path = .runLoop
            note = "main queue served through the run loop (fallback forced)"
            return path
        }
        let descriptor = CFrameLinkShims_mainQueueHandle()
        guard descriptor >= 0 else {
            path = .runLoop
            note = "main queue served through the run loop: libdispatch has no main-queue hooks"
            FrameLinkLogging.logger.notice("main queue: \(note ?? ""), a fallback")
            return path
        }
        probeRan = false
        DispatchQueue.main.async { MainActor.assumeIsolated { MainQueueDrain.probeRan = true } }
        // The descriptor must signal the block in time, and one run of the queue must run it.
        let giveUp = MonotonicClock.nanoseconds() + probeTimeout
        var signalled = false
        while !signalled {
            let remaining = giveUp - MonotonicClock.nanoseconds()
            if remaining <= 0 { break }
            signalled = CFrameLinkShims_waitReadable(descriptor, remaining) > 0
        }
        if signalled { runMainQueue() }
        if probeRan {
            path = .descriptor(descriptor)
        } else {
            // The run loop waits on the same descriptor: give back the signal the check consumed.
            if signalled { CFrameLinkShims_signal(descriptor) }
            path = .runLoop
            note =
                signalled
                ? "main queue served through the run loop: libdispatch's main-queue hook did not run queued work"
                : "main queue served through the run loop: libdispatch's main-queue descriptor was not signalled"
            FrameLinkLogging.logger.notice("main queue: \(note ?? ""), a fallback")
        }
        return path
    }

    /// Runs what the main queue holds through the hook, at the thread's own priority (a frame
    /// wait may have raised it to real time).
    private static func runMainQueue() {
        if simulatesInertHook { return }
        _RealTimeWait.atNormalPriority { _ = CFrameLinkShims_drainMainQueue() }
    }

    /// Runs the main queue's pending work without waiting. A full pass of the main run loop is
    /// made when one of its timers is due, on every 60th call (for other run-loop sources), and on
    /// every call on the run-loop path. CoreFoundation allocates a small block for each pass, so
    /// passes are kept to what needs them: a frame without one allocates nothing.
    static func drainIfOnMainThread() {
        guard Thread.isMainThread else { return }
        guard case .descriptor(let descriptor) = resolvedPath() else {
            _ = RunLoop.main.run(mode: .default, before: .distantPast)
            return
        }
        drainCount &+= 1
        if drainCount % runLoopPassInterval == 0 || runLoopTimerIsDue() { runLoopPass() }
        wait(on: descriptor, untilNanoseconds: nil)
    }

    /// Whether a timer of the main run loop (a `Foundation.Timer`) is due; asking allocates nothing.
    private static func runLoopTimerIsDue() -> Bool {
        #if canImport(CoreFoundation)
            let next = CFRunLoopGetNextTimerFireDate(CFRunLoopGetMain(), kCFRunLoopDefaultMode)
            return next > 0 && next <= CFAbsoluteTimeGetCurrent()
        #else
            return false
        #endif
    }

    /// One pass of the main run loop that does not wait.
    private static func runLoopPass() {
        #if canImport(CoreFoundation)
            _ = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0, true)
        #else
            _ = RunLoop.main.run(mode: .default, before: .distantPast)
        #endif
    }

    /// Runs main-queue work, and the work that work queues, without waiting in real time: for
    /// sources on virtual time, whose frames must not cost real time. Each of the `rounds` checks
    /// the main queue's descriptor (on that path) and makes one run-loop pass that does not wait.
    static func drainWithoutWaiting(rounds: Int = 3) {
        guard Thread.isMainThread else { return }
        for _ in 0..<rounds {
            if case .descriptor(let descriptor) = resolvedPath() { wait(on: descriptor, untilNanoseconds: nil) }
            runLoopPass()
        }
    }

    /// Sleeps until the monotonic clock reads `deadline`, running main-queue work that arrives
    /// meanwhile. On the descriptor path the wake-up is as precise as `clock_nanosleep`; on the
    /// run-loop path it can be a millisecond late on a busy machine, so the caller should stop
    /// short of a precise deadline. Returns at once when not on the main thread.
    static func sleepServingMainQueue(untilNanoseconds deadline: Int64) {
        guard Thread.isMainThread else { return }
        if case .descriptor(let descriptor) = resolvedPath() {
            wait(on: descriptor, untilNanoseconds: deadline)
            return
        }
        while true {
            let remaining = deadline - MonotonicClock.nanoseconds()
            if remaining <= 0 { return }
            // The run loop runs what it serves as it waits: all of it at the thread's own priority.
            _RealTimeWait.atNormalPriority {
                _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: Double(remaining) / 1e9))
            }
        }
    }

    /// What ended an idle sleep (``sleepServingMainQueue(untilNanoseconds:orInputOn:)``).
    enum IdleWake: Equatable {
        /// The deadline passed (or the longest sleep without one).
        case deadline
        /// The input descriptor became readable.
        case input
        /// Main-queue work arrived and ran.
        case mainQueue
        /// The wait failed (a descriptor closed under it): nothing was waited for.
        case failed
    }

    /// The longest idle sleep without a deadline: 10 s, so that a loop with nothing to wait for
    /// still looks around now and then (a signal handler that set a flag, a pushed event).
    static let longestIdleSleep: Int64 = 10_000_000_000

    /// How long the main queue's descriptor has to signal the probe's block before the run-loop
    /// fallback is used: 50 ms (libdispatch signals it at once; a machine stalled longer than this
    /// at start-up is served through the run loop, which still works).
    static let probeTimeout: Int64 = 50_000_000

    /// A full pass of the main run loop runs on every this many drains (besides when a timer is
    /// due): 60, about once a second at 60 Hz, for run-loop sources other than timers.
    static let runLoopPassInterval = 60

    /// Sleeps until `deadline` (or ``longestIdleSleep`` without one), until `input` is readable (a
    /// display connection; `nil` watches none) or the eventfd `wake` is signalled (an event pushed
    /// from another thread), or until main-queue work arrives, which it runs: one `ppoll`, no
    /// polling. Needs the descriptor path (``waitsOnMainQueueDescriptor``); returns `nil` at once
    /// without it, or off the main thread.
    static func sleepServingMainQueue(
        untilNanoseconds deadline: Int64?, orInputOn input: Int32?, wake: Int32? = nil
    ) -> IdleWake? {
        guard Thread.isMainThread, case .descriptor(let descriptor) = resolvedPath() else { return nil }
        let end = deadline ?? MonotonicClock.nanoseconds() &+ longestIdleSleep
        while true {
            let timeout = end - MonotonicClock.nanoseconds()
            if timeout <= 0 { return .deadline }
            let result = CFrameLinkShims_waitMainQueueOrInput(descriptor, input ?? -1, wake ?? -1, timeout)
            if result == -1 { continue }  // interrupted by a signal: wait for the rest
            if result < 0 { return .failed }
            if result & 1 != 0 {
                runMainQueue()
                return .mainQueue
            }
            if result & 2 != 0 { return .input }
            return .deadline
        }
    }

    /// Waits on the main queue's descriptor until `deadline`, running the main queue whenever it is
    /// signalled; with no deadline, only checks (twice, for work queued by the jobs just run).
    private static func wait(on descriptor: Int32, untilNanoseconds deadline: Int64?) {
        var checks = 0
        while true {
            var timeout: Int64 = 0
            if let deadline {
                timeout = deadline - MonotonicClock.nanoseconds()
                if timeout <= 0 { return }
            } else {
                if checks == 2 { return }
                checks += 1
            }
            switch CFrameLinkShims_waitReadable(descriptor, timeout) {
            case 1: runMainQueue()
            case 0: if deadline == nil { return }
            case -1: continue  // interrupted by a signal: wait for the rest
            default: return
            }
        }
    }
}
