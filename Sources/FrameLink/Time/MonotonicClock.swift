#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system's monotonic clock (`CLOCK_MONOTONIC`), the clock real frame sources pace against.
public enum MonotonicClock {
    /// The current time in nanoseconds since an arbitrary, fixed point (usually boot).
    @inline(__always)
    public static func nanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// Sleeps until the monotonic clock reads `deadline` nanoseconds (an absolute sleep, so a late
    /// wake-up never pushes later deadlines back). Returns at once if the deadline has passed.
    public static func sleep(untilNanoseconds deadline: Int64) {
        guard deadline > nanoseconds() else { return }
        var spec = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        #if canImport(Darwin)
            var now = nanoseconds()
            while now < deadline {
                let remaining = deadline - now
                var relative = timespec(tv_sec: Int(remaining / 1_000_000_000), tv_nsec: Int(remaining % 1_000_000_000))
                nanosleep(&relative, nil)
                now = nanoseconds()
            }
            _ = spec
        #else
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
        #endif
    }
}
