/// How the thread that waits for frames is scheduled during each wait: what a loop's ``FrameWaiter``
/// asked the system for and what it was granted.
///
/// Under load, sleeping well is not enough: a thread woken at its deadline still waits for a core
/// while other runnable threads (the game's own, other programs) use up their time slices. With
/// two busy processes on a 2-core machine, every sleep-based pacer measured missed about a third of
/// its frames by about 3 ms; the same pacer under `SCHED_FIFO` missed none by more than 0.02 ms. So
/// a ``FrameWaiter`` on the real clock raises its thread to `SCHED_FIFO` for the wait and the
/// spin before each frame, and returns it to its own policy as soon as the deadline is reached: the
/// frame's own work never runs at real-time priority, and neither does main-queue work served
/// during the wait. The thread's timer slack is set to 1 ns as well (the kernel otherwise lets
/// a normal thread's sleep end up to 50 µs late, to batch wake-ups).
///
/// Where the system refuses (a user without the privilege and without a real-time limit, a
/// container that forbids it), the waiter waits at normal priority and says why in its pacing
/// description. To grant it to a user, raise their real-time limit (`ulimit -r`, or `rtprio` in
/// `/etc/security/limits.conf`): the waiter then takes the highest priority the limit allows, up
/// to its own.
public enum WaitScheduling: Sendable, Equatable, CustomStringConvertible {
    /// Nothing asked yet: the loop has not waited on the real clock.
    case undecided
    /// Real-time scheduling is not asked for: turned off
    /// (``FrameWaiter/usesRealTimeScheduling`` is false), or the loop runs on a virtual clock.
    case off
    /// Each wait runs under `SCHED_FIFO` at `priority`; the thread returns to its own policy after.
    case realTime(priority: Int)
    /// The thread already runs under a real-time policy at `priority` (it was started under
    /// `chrt`, for example), and keeps it: the waiter changes nothing.
    case inherited(priority: Int)
    /// The system refused real-time scheduling, for `reason`; waits run at normal priority.
    case refused(reason: String)

    /// A phrase for pacing descriptions: `"waits at real-time priority 10 (SCHED_FIFO)"`.
    public var description: String {
        switch self {
        case .undecided: "real-time scheduling not yet asked for"
        case .off: "real-time scheduling off"
        case .realTime(let priority): "waits at real-time priority \(priority) (SCHED_FIFO)"
        case .inherited(let priority): "waits at the thread's own real-time priority \(priority)"
        case .refused(let reason): "real-time scheduling refused (\(reason)): waits at normal priority"
        }
    }
}
