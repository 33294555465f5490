import CFrameLinkShims

#if canImport(Glibc)
    import Glibc
#endif

/// Raises the waiting thread to real-time scheduling for one frame's wait and lowers it after (see
/// ``WaitScheduling``). One per waiter: it remembers what the system granted, and does not ask
/// again after a refusal.
@MainActor
package struct _RealTimeWait {
    /// The `SCHED_FIFO` priority asked for: 10 of 1–99. Any real-time priority runs before every
    /// normal thread, which is all a frame's wake-up needs; a low one stays below the kernel's own
    /// threaded interrupts (50) and the audio servers that rtkit raises (up to 20 by default), so a
    /// frame wait never delays them.
    static let priority: Int32 = 10

    /// Makes every request fail as an unprivileged process's would, so that the fallback is
    /// exercised where the real request succeeds (the tests run both ways).
    package static var simulatesRefusal = false

    /// Whether the thread is raised now: main-queue work served during a wait runs lowered.
    private static var isRaised = false

    /// What was asked and granted.
    private(set) var scheduling = WaitScheduling.undecided
    /// Whether the thread's timer slack was set to 1 ns (nil before the first wait).
    private(set) var hasFineTimerSlack: Bool?

    /// The timer-slack phrase for pacing descriptions, once a wait has run.
    var timerSlackDescription: String? {
        hasFineTimerSlack.map { $0 ? "timer slack 1 ns" : "timer slack not settable" }
    }

    /// Starts a wait: raises the thread if `wanted` and the system allows it. Returns whether it
    /// raised the thread (then ``end()`` must follow when the wait is over).
    mutating func begin(wanted: Bool) -> Bool {
        if hasFineTimerSlack == nil { hasFineTimerSlack = CFrameLinkShims_setTimerSlack(1) == 0 }
        guard wanted else {
            scheduling = .off
            return false
        }
        switch scheduling {
        case .refused, .inherited: return false
        case .undecided, .off, .realTime: break
        }
        if Self.simulatesRefusal {
            decide(.refused(reason: "refusal simulated"))
            return false
        }
        var granted: Int32 = 0
        let outcome = Self.outcome(ofRequest: CFrameLinkShims_enterRealTime(Self.priority, &granted), granted: granted)
        decide(outcome)
        guard case .realTime = outcome else { return false }
        Self.isRaised = true
        return true
    }

    /// What a request answered with `result` (``CFrameLinkShims_enterRealTime``'s) got, the
    /// priority in force being `granted`: raised, left at a real-time policy of its own (a thread
    /// started under `chrt`, or raised by rtkit), or refused (an `errno`: `EPERM` for a process
    /// without the privilege, the usual case for a player's desktop session).
    static func outcome(ofRequest result: Int32, granted: Int32) -> WaitScheduling {
        switch result {
        case 0: .realTime(priority: Int(granted))
        case CFrameLinkShims_alreadyRealTime: .inherited(priority: Int(granted))
        case let error: .refused(reason: explain(error))
        }
    }

    /// Records what the wait got, logging it when it differs from what the last wait got (later
    /// waits usually repeat the same request and get the same answer).
    private mutating func decide(_ outcome: WaitScheduling) {
        if outcome != scheduling {
            switch outcome {
            case .refused(let reason):
                FrameLinkLogging.logger.debug("frame waits: real-time scheduling refused (\(reason)): normal priority")
            case .realTime(let priority):
                FrameLinkLogging.logger.debug(
                    "frame waits: real-time priority \(priority) (SCHED_FIFO) during each wait")
            case .inherited(let priority):
                FrameLinkLogging.logger.debug("frame waits: the thread already runs at real-time priority \(priority)")
            case .undecided, .off:
                break
            }
        }
        scheduling = outcome
    }

    /// Ends a wait that ``begin(wanted:)`` raised: the thread returns to its own policy.
    mutating func end() {
        guard Self.isRaised else { return }
        Self.isRaised = false
        let error = CFrameLinkShims_leaveRealTime()
        // The thread is still raised if it could not be lowered: do not raise it again.
        if error != 0 { scheduling = .refused(reason: "could not return to normal priority: \(Self.explain(error))") }
    }

    /// Runs `body` at the thread's own priority when a wait raised it (main-queue work served
    /// during a wait is the program's, not the pacer's), then raises it again.
    static func atNormalPriority(_ body: () -> Void) {
        guard isRaised, CFrameLinkShims_leaveRealTime() == 0 else { return body() }
        isRaised = false
        body()
        var granted: Int32 = 0
        isRaised = CFrameLinkShims_enterRealTime(priority, &granted) == 0
    }

    /// A reason in words for an `errno` value.
    private static func explain(_ error: Int32) -> String {
        switch error {
        case EPERM: "not permitted: no CAP_SYS_NICE and no real-time limit (ulimit -r)"
        case ENOSYS: "not available on this system"
        default: "error \(error)"
        }
    }
}
