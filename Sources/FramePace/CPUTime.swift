#if canImport(Glibc)
    import Glibc
#endif

/// CPU time (user and system) in seconds.
enum CPUTime {
    /// The CPU time `usage` records.
    static func seconds(of usage: rusage) -> Double {
        Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// The CPU time this process has used so far.
    static func ofThisProcess() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return seconds(of: usage)
    }
}
