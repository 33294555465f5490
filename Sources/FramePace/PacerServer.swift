import CFrameLinkShims
import Foundation
import FrameLink

#if canImport(Glibc)
    import Glibc
#endif

/// The child side of a ``ChildPacer``: this program started with `--serve-pacer GRANT`, usually
/// as an unprivileged user. It takes the grant, answers `ready …` (or `unavailable …` and ends),
/// then keeps one ``FrameLinkRun`` (real-time asked for, as a game's loop asks by default) and
/// paces a run for each `run N` line it reads, answering with a `result` line and a `scheduling`
/// line, until its input ends.
@MainActor
enum PacerServer {
    /// An error setting up the child's limits.
    struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        var description: String
    }

    /// The flag Linux adds to a policy that a child process must not inherit (`SCHED_RESET_ON_FORK`).
    static let resetOnForkFlag: Int32 = 0x4000_0000
    /// `CAP_SYS_NICE`'s bit in the capability masks of `/proc/self/status`.
    static let sysNiceCapabilityBit = 23
    /// Microseconds per millisecond, for the `RLIMIT_RTTIME` phrase.
    static let microsecondsPerMillisecond: Int64 = 1_000
    /// Nanoseconds per microsecond, for the slice asked of the kernel.
    static let nanosecondsPerMicrosecond: Int64 = 1_000

    /// Serves runs under `grant` until the parent closes the input; ends the process.
    static func serve(_ grant: SchedulingGrant) -> Never {
        let outcome: String
        do {
            outcome = try take(grant)
        } catch {
            say("unavailable \(error)")
            exit(0)
        }
        say("ready \(identity()); \(outcome)")  // After the grant: the limits as they are now.
        let run = FrameLinkRun(realTime: true)
        while let line = readLine() {
            let words = line.split(separator: " ")
            guard words.count == 2, words[0] == "run", let count = Int(words[1]), count > 0 else {
                say("error unknown command '\(line)'")
                exit(1)
            }
            let result = run.run(intervals: count)
            say("result \(result.cpuPercent) " + result.intervals.map { "\($0)" }.joined(separator: " "))
            say("scheduling \(run.loop.waiter.waitScheduling)")
        }
        exit(0)
    }

    /// Writes `line` to the parent at once.
    private static func say(_ line: String) {
        print(line)
        fflush(nil)
    }

    /// Sets the limits of a stock desktop session (no real-time priority of one's own) unless the
    /// grant is a real-time limit (checked instead), then takes `grant`; returns what was granted,
    /// in words, or throws why it could not be.
    private static func take(_ grant: SchedulingGrant) throws -> String {
        let thread = getpid()  // The main thread, which runs the loop: its id is the process's.
        if case .realTimeLimit(let priority) = grant {
            var limit = rlimit()
            getrlimit(__rlimit_resource_t(__RLIMIT_RTPRIO.rawValue), &limit)
            guard limit.rlim_cur >= rlim_t(priority) else {
                throw Failure(
                    description: "RLIMIT_RTPRIO is \(limit.rlim_cur), not \(priority): only root can raise it"
                        + " (rtprio in /etc/security/limits.conf does it for a user)")
            }
            return "RLIMIT_RTPRIO \(limit.rlim_cur)"
        }
        try setLimit(__RLIMIT_RTPRIO, to: 0)
        switch grant {
        case .none, .realTimeLimit:
            return "no grant"
        case .rtkitRealTime(let priority):
            let highest = try Rtkit.property("MaxRealtimePriority")
            guard priority <= highest else {
                throw Rtkit.Failure(description: "rtkit grants priorities up to \(highest), not \(priority)")
            }
            let budget = try Rtkit.property("RTTimeUSecMax")
            try setLimit(__RLIMIT_RTTIME, to: rlim_t(budget))
            try Rtkit.makeThreadRealTime(process: getpid(), thread: thread, priority: priority)
            var parameters = sched_param()
            let policy = sched_getscheduler(0) & ~resetOnForkFlag
            guard policy == SCHED_RR || policy == SCHED_FIFO, sched_getparam(0, &parameters) == 0 else {
                throw Rtkit.Failure(description: "rtkit said yes but the thread's policy is still \(policy)")
            }
            return "rtkit: SCHED_RR \(parameters.sched_priority) for good, RLIMIT_RTTIME"
                + " \(budget / microsecondsPerMillisecond) ms"
        case .rtkitNice(let level):
            let lowest = try Rtkit.property("MinNiceLevel")
            guard level >= lowest else {
                throw Rtkit.Failure(
                    description: "rtkit grants nice levels down to \(lowest) (MinNiceLevel), not \(level)")
            }
            try Rtkit.makeThreadHighPriority(process: getpid(), thread: thread, level: level)
            let now = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(thread))
            guard now == level else {
                throw Rtkit.Failure(description: "rtkit said yes but the thread's nice level is \(now)")
            }
            return "rtkit: nice \(now) for good"
        case .fairSlice(let microseconds):
            let error = CFrameLinkShims_setFairSlice(UInt64(microseconds) * UInt64(nanosecondsPerMicrosecond))
            guard error == 0 else {
                throw Failure(
                    description: "the kernel keeps no slice of \(microseconds) µs: \(String(cString: strerror(error)))"
                        + " (Linux 6.12 or later sets one)")
            }
            return "slice \(microseconds) µs for good (no privilege)"
        }
    }

    /// Sets both the soft and the hard `resource` limit to `value`.
    private static func setLimit(_ resource: __rlimit_resource, to value: rlim_t) throws {
        var limit = rlimit(rlim_cur: value, rlim_max: value)
        guard setrlimit(__rlimit_resource_t(resource.rawValue), &limit) == 0 else {
            throw Failure(description: "could not set limit \(resource.rawValue): \(String(cString: strerror(errno)))")
        }
    }

    /// Who this process runs as, for the table: its user id and whether it holds `CAP_SYS_NICE`.
    private static func identity() -> String {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let mask = status.split(separator: "\n").first { $0.hasPrefix("CapEff:") }
            .flatMap { UInt64($0.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16) }
        let nice = mask.map { $0 & (1 << sysNiceCapabilityBit) != 0 ? "CAP_SYS_NICE" : "no CAP_SYS_NICE" }
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(__RLIMIT_RTPRIO.rawValue), &limit)
        return "uid \(getuid()), \(nice ?? "capabilities unknown"), RLIMIT_RTPRIO \(limit.rlim_cur)"
    }
}
