/// The clock a pacing source reads and sleeps on: the system's monotonic clock in real use, a
/// ``VirtualClock`` in tests of pacing logic.
@MainActor
public protocol PacingClock: AnyObject {
    /// The current time in nanoseconds.
    func nanoseconds() -> Int64

    /// Sleeps until the clock reads `deadline` nanoseconds; returns at once if it has passed.
    func sleep(untilNanoseconds deadline: Int64)

    /// Whether the clock is the real passage of time, so that sleeping on it takes that long.
    ///
    /// A real clock is paced as the system clock is: the loop's ``FrameWaiter`` serves the main
    /// queue while it sleeps, spins on the clock without sleeping, and asks for real-time
    /// scheduling for the wait. A virtual clock (false) sleeps straight to the deadline: a wait on
    /// virtual time takes no real time, and main-queue work is only run without waiting.
    var sleepsInRealTime: Bool { get }
}

/// The system's monotonic clock as a ``PacingClock``.
///
/// Every instance reads the same clock: `SystemClock()` and ``shared`` behave alike.
@MainActor
public final class SystemClock: PacingClock {
    /// The one system clock.
    public static let shared = SystemClock()

    /// Creates a handle on the monotonic clock.
    public init() {}

    /// True: the system clock is real time.
    public var sleepsInRealTime: Bool { true }

    /// `CLOCK_MONOTONIC` in nanoseconds.
    public func nanoseconds() -> Int64 { MonotonicClock.nanoseconds() }

    /// An absolute `clock_nanosleep` to `deadline`.
    public func sleep(untilNanoseconds deadline: Int64) { MonotonicClock.sleep(untilNanoseconds: deadline) }
}

/// A clock that moves only when told: sleeping jumps to the deadline. For deterministic tests of
/// pacing (``PresentSource`` detection, auto frame rate) with a simulated display.
@MainActor
public final class VirtualClock: PacingClock {
    /// The current virtual time in nanoseconds.
    public private(set) var now: Int64

    /// Creates a clock reading `start` nanoseconds.
    public init(start: Int64 = 0) {
        now = start
    }

    /// The current virtual time.
    public func nanoseconds() -> Int64 { now }

    /// False: sleeping jumps the clock, it takes no real time.
    public var sleepsInRealTime: Bool { false }

    /// Jumps to `deadline` if it is later than now.
    public func sleep(untilNanoseconds deadline: Int64) {
        now = max(now, deadline)
    }

    /// Moves time forward by `nanoseconds` (ignored if not positive), as work or a blocking call would.
    public func advance(nanoseconds: Int64) {
        if nanoseconds > 0 { now += nanoseconds }
    }
}
