/// What an unprivileged FrameLink pacer (run as a child process, see ``ChildPacer``) gets before
/// it paces: nothing, a real-time limit of its own (what `rtprio` in `limits.conf` gives a user),
/// one of rtkit's grants for its main thread, or a short time slice that the kernel gives anyone
/// who asks.
///
/// Written on a child's command line as `none`, `rtprio:PRIORITY`, `rtkit-realtime:PRIORITY`,
/// `rtkit-nice:LEVEL` or `slice:MICROSECONDS`.
enum SchedulingGrant: Sendable, Equatable, CustomStringConvertible {
    /// Nothing: FrameLink asks for `SCHED_FIFO` for its waits, as always, and is refused.
    case none
    /// `RLIMIT_RTPRIO` of `priority`, set before the child drops its privileges (it inherits it), as
    /// `rtprio` in `/etc/security/limits.conf` sets it for a user's session: FrameLink's own
    /// request for `SCHED_FIFO` during each wait is then granted up to that priority.
    case realTimeLimit(priority: Int32)
    /// rtkit's `MakeThreadRealtimeWithPID`: `SCHED_RR` at `priority` for the main thread, for good
    /// (rtkit requires `RLIMIT_RTTIME` set, so a thread that spins too long at that priority is
    /// killed); FrameLink finds the thread real-time and leaves it so.
    case rtkitRealTime(priority: Int32)
    /// rtkit's `MakeThreadHighPriorityWithPID`: the main thread's nice level set to `level`, for
    /// good; FrameLink's own request for `SCHED_FIFO` is still refused.
    case rtkitNice(level: Int32)
    /// The main thread's time slice under the fair scheduler (EEVDF, Linux 6.12 and later) set to
    /// `microseconds`, for good, by the thread itself: no privilege needed. A shorter slice than
    /// the busy threads' lets the woken thread preempt them at once.
    case fairSlice(microseconds: Int32)

    /// The priorities of Linux's real-time policies.
    static let realTimePriorities: ClosedRange<Int32> = 1...99
    /// The nice levels of Linux's normal policy (lower runs first).
    static let niceLevels: ClosedRange<Int32> = -20...19
    /// The fair scheduler's slices, in microseconds (the kernel clamps to 0.1–100 ms).
    static let fairSlices: ClosedRange<Int32> = 100...100_000

    /// The grant as a child's command line writes it.
    var argument: String {
        switch self {
        case .none: "none"
        case .realTimeLimit(let priority): "rtprio:\(priority)"
        case .rtkitRealTime(let priority): "rtkit-realtime:\(priority)"
        case .rtkitNice(let level): "rtkit-nice:\(level)"
        case .fairSlice(let microseconds): "slice:\(microseconds)"
        }
    }

    /// The grant as a table says it.
    var description: String {
        switch self {
        case .none: "no grant"
        case .realTimeLimit(let priority): "RLIMIT_RTPRIO \(priority)"
        case .rtkitRealTime(let priority): "rtkit SCHED_RR \(priority)"
        case .rtkitNice(let level): "rtkit nice \(level)"
        case .fairSlice(let microseconds): "slice \(microseconds) µs"
        }
    }

    /// Reads a grant as ``argument`` writes it; nil if `text` is not one.
    init?(argument text: String) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        switch (parts.first, parts.count == 2 ? Int32(parts[1]) : nil) {
        case ("none", _) where parts.count == 1: self = .none
        case ("rtprio", let priority?) where Self.realTimePriorities.contains(priority):
            self = .realTimeLimit(priority: priority)
        case ("rtkit-realtime", let priority?) where Self.realTimePriorities.contains(priority):
            self = .rtkitRealTime(priority: priority)
        case ("rtkit-nice", let level?) where Self.niceLevels.contains(level): self = .rtkitNice(level: level)
        case ("slice", let microseconds?) where Self.fairSlices.contains(microseconds):
            self = .fairSlice(microseconds: microseconds)
        default: return nil
        }
    }
}
