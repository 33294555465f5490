import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Starts programs and waits for them with `posix_spawn` and `wait4`, so that each one's CPU time
/// is its own (Foundation's `Process` reaps children on another thread, at a time of its choosing).
enum ChildProcess {
    /// An error starting a program.
    struct SpawnError: Error, CustomStringConvertible {
        /// What failed.
        var description: String
    }

    /// This program's own executable.
    static var ownExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Starts `path` with `arguments` and the extra `environment` entries, its output discarded;
    /// returns its process id.
    static func spawn(_ path: String, arguments: [String], environment: [String: String] = [:]) throws -> pid_t {
        var strings = [path] + arguments
        let argumentCount = strings.count
        let entries = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        strings += entries.map { "\($0.key)=\($0.value)" }
        let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        defer { for pointer in pointers { free(pointer) } }
        let argv = Array(pointers[0..<argumentCount]) + [nil]
        let envp = Array(pointers[argumentCount...]) + [nil]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var process: pid_t = 0
        let status = posix_spawn(&process, path, &actions, nil, argv, envp)
        guard status == 0 else {
            throw SpawnError(description: "could not start \(path): \(String(cString: strerror(status)))")
        }
        return process
    }

    /// Waits for `process` to end; returns its exit status (nil if it did not exit normally) and the
    /// CPU time it used, in seconds.
    static func wait(for process: pid_t) -> (status: Int32?, cpuSeconds: Double) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(process, &status, 0, &usage) < 0 && errno == EINTR {}
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : nil, CPUTime.seconds(of: usage))
    }
}
