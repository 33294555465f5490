#if canImport(Glibc)
    import Glibc
#endif

/// The clock and unit of a `GLX_OML_sync_control` UST, which the extension leaves to the driver:
/// Mesa's are microseconds of `CLOCK_MONOTONIC` (the kernel's vblank times, or the X server's
/// `GetTimeInMicros` for a window on no display); other drivers have used nanoseconds, or the wall
/// clock. Found from the latest refresh, which must be recent when it is read.
struct _USTClock: Equatable {
    /// The clock (`CLOCK_MONOTONIC` or `CLOCK_REALTIME`).
    var clockID: Int32
    /// Nanoseconds per UST unit: 1,000 for microseconds, 1 for nanoseconds.
    var nanosecondsPerUnit: Int64

    /// The clocks and units a UST is tried in: Mesa's (microseconds of `CLOCK_MONOTONIC`),
    /// nanoseconds of it, and microseconds of the wall clock (`gettimeofday`, an older fallback).
    static let candidates = [
        _USTClock(clockID: Int32(CLOCK_MONOTONIC), nanosecondsPerUnit: 1_000),
        _USTClock(clockID: Int32(CLOCK_MONOTONIC), nanosecondsPerUnit: 1),
        _USTClock(clockID: Int32(CLOCK_REALTIME), nanosecondsPerUnit: 1_000),
    ]

    /// How far ahead of the moment it is read a refresh's UST may be: 2 ms. The kernel stamps a
    /// refresh at the end of its blanking interval, which its interrupt precedes (about 0.5 ms at
    /// 60 Hz; 2 ms covers the long blanking of low rates and variable refresh).
    static let vblankAheadAllowance: Int64 = 2_000_000

    /// How far behind the moment it is read the latest refresh's UST may be: 2 s. A running display
    /// refreshed within one period (50 ms at 20 Hz); a window on no display is timed by the X
    /// server's stand-in refresh, once a second. Older than that, the time is not one of this
    /// clock's (or the display is blank: the reading is not usable now).
    static let vblankAgeLimit: Int64 = 2_000_000_000

    /// `ust` in nanoseconds of the clock, or `nil` when it does not fit 64 bits or is negative.
    func nanoseconds(of ust: Int64) -> Int64? {
        let product = ust.multipliedReportingOverflow(by: nanosecondsPerUnit)
        guard !product.overflow, product.partialValue >= 0 else { return nil }
        return product.partialValue
    }

    /// How long before `now` (on this clock, in nanoseconds) the refresh at `ust` was, or `nil`
    /// when it cannot be the latest refresh: more than ``vblankAheadAllowance`` ahead, or more than
    /// ``vblankAgeLimit`` behind.
    func age(of ust: Int64, now: Int64) -> Int64? {
        guard let time = nanoseconds(of: ust) else { return nil }
        let age = now.subtractingReportingOverflow(time)
        guard !age.overflow, age.partialValue >= -Self.vblankAheadAllowance, age.partialValue <= Self.vblankAgeLimit
        else { return nil }
        return age.partialValue
    }

    /// The clock the latest refresh's `ust` is on, read through `read` (a clock in nanoseconds):
    /// the candidate it fits, or `nil` when it fits none. Where two fit (the wall clock's
    /// microseconds equal the monotonic clock's nanoseconds for two seconds after about 20.8 days
    /// of uptime), the one on which the refresh is nearest to now: a running display's latest
    /// refresh is less than a period old, a wrong clock's anywhere in the two seconds.
    static func identify(ust: Int64, read: (Int32) -> Int64?) -> _USTClock? {
        var best: (clock: _USTClock, age: Int64)?
        for candidate in candidates {
            guard let now = read(candidate.clockID), let age = candidate.age(of: ust, now: now) else { continue }
            if best.map({ abs(age) < abs($0.age) }) ?? true { best = (candidate, age) }
        }
        return best?.clock
    }
}
