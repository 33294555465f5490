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

    /// Where a started program's standard input, output and error go: each a descriptor of this
    /// process, or nil for the default (input and error inherited, output discarded).
    struct Streams {
        /// The descriptor the program reads as its standard input (nil: this process's own).
        var input: Int32?
        /// The descriptor the program writes its standard output to (nil: `/dev/null`).
        var output: Int32?
        /// The descriptor the program writes its standard error to (nil: this process's own).
        var error: Int32?
    }

    /// This program's own executable.
    static var ownExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Starts `path` with `arguments` and the extra `environment` entries, its streams as `streams`
    /// says (by default its output discarded); returns its process id.
    static func spawn(
        _ path: String, arguments: [String], environment: [String: String] = [:],
        streams: Streams = Streams()
    ) throws -> pid_t {
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
        if let input = streams.input { posix_spawn_file_actions_adddup2(&actions, input, STDIN_FILENO) }
        if let output = streams.output {
            posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        }
        if let error = streams.error { posix_spawn_file_actions_adddup2(&actions, error, STDERR_FILENO) }
        var process: pid_t = 0
        let status = posix_spawn(&process, path, &actions, nil, argv, envp)
        guard status == 0 else {
            throw SpawnError(description: "could not start \(path): \(String(cString: strerror(status)))")
        }
        return process
    }

    /// A pipe whose two ends close in started programs (`FD_CLOEXEC`; `spawn` hands a program the
    /// end it should have as one of its standard streams, which stays open).
    static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else {
            throw SpawnError(description: "could not make a pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Runs `path` with `arguments` to its end; returns its exit status (nil if it did not exit
    /// normally) and everything it wrote to its standard output and error.
    static func runCapturingOutput(_ path: String, arguments: [String]) throws -> (status: Int32?, output: String) {
        let ends = try pipe()
        let process: pid_t
        do {
            process = try spawn(path, arguments: arguments, streams: Streams(output: ends.write, error: ends.write))
        } catch {
            close(ends.read)
            close(ends.write)
            throw error
        }
        close(ends.write)
        let output = FileHandle(fileDescriptor: ends.read, closeOnDealloc: true).readDataToEndOfFile()
        return (wait(for: process).status, String(decoding: output, as: UTF8.self))
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
