import Foundation
import FrameLink

#if canImport(Glibc)
    import Glibc
#endif

/// Busy-loop processes that load the CPU while pacers are measured: copies of this program started
/// with `--busy-loop`, at normal priority, killed when the load ends.
struct BusyLoops {
    /// The running processes.
    private var processes: [pid_t] = []

    /// Starts `count` busy-loop processes and gives them 200 ms to get going.
    init(count: Int) throws {
        for _ in 0..<count {
            processes.append(try ChildProcess.spawn(ChildProcess.ownExecutable, arguments: ["--busy-loop"]))
        }
        if count > 0 { usleep(200_000) }
    }

    /// Kills the processes and waits for them to end.
    func stop() {
        for process in processes {
            kill(process, SIGKILL)
            _ = ChildProcess.wait(for: process)
        }
    }

    /// What a busy-loop process does: read the clock, forever (a call the optimiser cannot drop,
    /// all of it on the CPU).
    static func spin() -> Never {
        while true { _ = MonotonicClock.nanoseconds() }
    }
}
