import Foundation

/// A running AnimDemo process, as ``AnimDemoProcess/run(_:environment:timeout:whileRunning:file:line:)``
/// hands it to its `whileRunning` actions: ways to wait until the demo has reached a given point (read
/// from `/proc`, never guessed with a fixed sleep) and to signal it.
///
/// Every wait polls with a generous time limit and gives up as soon as the process has ended, so an
/// action never outlives the run. The process is identified by its pid and its start time, so a
/// signal never reaches another process that reused the pid after the demo was reaped.
struct RunningDemo: Sendable {
    let pid: pid_t
    /// The start time of the process (field 22 of `/proc/<pid>/stat`), when the demo was handed over.
    private let startTime: String?

    init(pid: pid_t) {
        self.pid = pid
        startTime = Self.statFields(pid).map { $0.count > 19 ? $0[19] : "" }
    }

    /// The system call numbers the waits recognise (x86-64 and arm64).
    private enum Call {
        #if arch(arm64)
            static let openat = 56
            static let ppoll = 73
            static let clockNanosleep = 115
            static let open = -2  // arm64 has no open(2)
        #else
            static let openat = 257
            static let ppoll = 271
            static let clockNanosleep = 230
            static let open = 2
        #endif
    }

    /// What the main thread of the demo is doing, from `/proc/<pid>/syscall`.
    enum MainThread: Equatable {
        /// Blocked in FrameLink's frame wait: `ppoll` on the main-queue descriptor, or an absolute
        /// `clock_nanosleep` on the monotonic clock (the run-loop path).
        case frameWait
        /// Blocked in the injected stall's `Thread.sleep`: a relative `clock_nanosleep` on the
        /// real-time clock.
        case stallSleep
        /// Blocked opening a file (a named pipe with no writer).
        case opening
        /// In another system call, running, or gone.
        case other
    }

    /// What the main thread is doing now.
    var mainThread: MainThread {
        guard let line = try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8) else { return .other }
        let fields = line.split(separator: " ").map(String.init)
        guard let number = fields.first.flatMap({ Int($0) }) else { return .other }  // "running"
        switch number {
        case Call.ppoll: return .frameWait
        case Call.clockNanosleep where fields.count > 2:
            // clock_nanosleep(clock, flags, …): CLOCK_MONOTONIC (1) with TIMER_ABSTIME (1) is the
            // frame wait; CLOCK_REALTIME (0), relative (0) is Thread.sleep.
            if fields[1] == "0x1" && fields[2] == "0x1" { return .frameWait }
            if fields[1] == "0x0" && fields[2] == "0x0" { return .stallSleep }
            return .other
        case Call.openat, Call.open: return .opening
        default: return .other
        }
    }

    /// Whether the demo has ended (a zombie, or reaped), or the pid now names another process.
    var hasEnded: Bool {
        if AnimDemoProcess.hasEnded(pid) { return true }
        let now = Self.statFields(pid).map { $0.count > 19 ? $0[19] : "" }
        return now != startTime
    }

    /// The state letter of the process (`R`, `S`, `T`, `Z`…), or `nil` when it is gone.
    var state: Character? {
        Self.statFields(pid)?.first?.first
    }

    /// Sends `signal` unless the demo has ended; returns whether it was sent.
    @discardableResult
    func send(_ signal: Int32) -> Bool {
        guard !hasEnded else { return false }
        return kill(pid, signal) == 0
    }

    /// Polls `condition` every millisecond until it holds (true), the demo ends or `limit` seconds
    /// pass (false).
    func wait(upTo limit: TimeInterval = 30, until condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(limit)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            if hasEnded { return false }
            usleep(1000)
        }
        return condition()
    }

    /// Waits until the frame loop runs: the main thread seen in the frame wait, then doing something
    /// else, then in the frame wait again (two separate waits: the loop went round). Start-up never
    /// waits this way. Returns whether it did within `limit` seconds.
    func waitUntilLooping(upTo limit: TimeInterval = 30) -> Bool {
        var seenWait = false
        var seenOther = false
        return wait(upTo: limit) {
            let now = mainThread
            if now == .frameWait {
                if seenWait && seenOther { return true }
                seenWait = true
            } else if seenWait {
                seenOther = true
            }
            return false
        }
    }

    /// Waits until the main thread sleeps in an injected stall (`--stall-every`, the S key).
    func waitUntilStalled(upTo limit: TimeInterval = 30) -> Bool {
        wait(upTo: limit) { mainThread == .stallSleep }
    }

    /// Waits until the main thread is blocked opening a file (seen twice, 50 ms apart).
    func waitUntilBlockedInOpen(upTo limit: TimeInterval = 30) -> Bool {
        wait(upTo: limit) {
            guard mainThread == .opening else { return false }
            usleep(50_000)
            return mainThread == .opening
        }
    }

    /// Waits until AnimDemo observes SIGINT, SIGTERM and SIGHUP (its first act: the main thread blocks
    /// them, so from then on they are handled, never the default action).
    func waitUntilSignalsAreHandled(upTo limit: TimeInterval = 30) -> Bool {
        let handled: UInt64 = (1 << (UInt64(SIGINT) - 1)) | (1 << (UInt64(SIGTERM) - 1)) | (1 << (UInt64(SIGHUP) - 1))
        return wait(upTo: limit) {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
                let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
            else { return false }
            return mask & handled == handled
        }
    }

    /// Waits until the main thread has used `seconds` of CPU time (its own work: a busy machine
    /// makes that take longer, not shorter).
    func waitUntilMainThreadHasWorked(_ seconds: TimeInterval, upTo limit: TimeInterval = 60) -> Bool {
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        return wait(upTo: limit) {
            // utime and stime (fields 14 and 15) of the main thread, in clock ticks.
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
                return false
            }
            return (user + system) / ticksPerSecond >= seconds
        }
    }

    /// Sends `signal` and returns the seconds until the demo has ended (a zombie or gone), or `nil`
    /// if it still runs after `limit` seconds (or the signal could not be sent).
    func signalAndTimeExit(_ signal: Int32, upTo limit: TimeInterval = 30) -> TimeInterval? {
        let start = ContinuousClock.now
        guard send(signal) else { return nil }
        while ContinuousClock.now - start < .seconds(limit) {
            if hasEnded { return (ContinuousClock.now - start).seconds }
            usleep(1000)
        }
        return nil
    }

    /// Stops the demo (SIGSTOP) while its main thread is in the frame wait: waits until it runs
    /// there, stops it, and checks where the stopped main thread is. A stop that landed elsewhere is
    /// undone at once (SIGCONT) and tried again. Returns whether the demo is stopped in the frame wait
    /// (the caller continues it).
    func stopInFrameWait(upTo limit: TimeInterval = 30) -> Bool {
        let deadline = ContinuousClock.now + .seconds(limit)
        while ContinuousClock.now < deadline {
            guard wait(upTo: limit, until: { mainThread == .frameWait }) else { return false }
            guard send(SIGSTOP) else { return false }
            guard wait(upTo: limit, until: { state == "T" }) else { return false }
            if mainThread == .frameWait { return true }
            send(SIGCONT)
        }
        return false
    }

    /// The fields of `/proc/<pid>/stat` after the command name (the state is the first).
    private static func statFields(_ pid: pid_t) -> [String]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ").map(String.init)
    }
}

/// A value that `@Sendable` actions (``RunningDemo``'s, on another thread) set and the test reads
/// afterwards, behind a lock.
final class Shared<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: Value
    init(_ value: Value) { storage = value }
    var value: Value {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue } }
    }
}

extension Duration {
    /// The duration in seconds.
    fileprivate var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
