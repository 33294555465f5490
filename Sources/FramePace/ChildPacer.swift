import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// FrameLink's pacer in a child process (``PacerServer``), as a desktop user runs it: started as
/// an unprivileged user when this program runs as root (`setpriv` to `nobody`, no capabilities,
/// `RLIMIT_RTPRIO` 0 unless the grant is a real-time limit, inherited from this process), with a
/// ``SchedulingGrant`` taken before it paces. It lives for one load,
/// keeping its loop from one run to the next as ``FrameLinkRun`` does.
///
/// A child that cannot take its grant (no rtkit, a refusal) ends at once; the pacer then says why
/// (``unavailableReason``) instead of pacing without the grant.
@MainActor
final class ChildPacer {
    /// An error running the child.
    struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        var description: String
    }

    /// The user a root parent runs the child as.
    static let unprivilegedUser = "nobody"
    /// Where `setpriv` (util-linux) is looked for.
    static let setprivPaths = ["/usr/bin/setpriv", "/bin/setpriv"]

    /// The grant the child takes.
    let grant: SchedulingGrant
    /// Who the child runs as and what it was granted, once it is ready.
    private(set) var identity = ""
    /// Why the child cannot pace with its grant (nil when it is ready).
    private(set) var unavailableReason: String?
    /// How FrameLink's waits were scheduled in the last run.
    private(set) var scheduling = "not run"
    /// This process's real-time limit while it is raised for a child to inherit.
    private var restoredLimit: rlimit?
    private var process: pid_t = 0
    private var input: UnsafeMutablePointer<FILE>?
    private var output: UnsafeMutablePointer<FILE>?

    /// Starts the child and waits for it to take `grant`.
    init(grant: SchedulingGrant) throws {
        self.grant = grant
        // The real-time limit raised for the child (if it is) is put back however the start ends.
        defer { putBackLimit() }
        // A child that ends early closes its input: a write there must fail, not end this process.
        signal(SIGPIPE, SIG_IGN)
        let serve = [ChildProcess.ownExecutable, "--serve-pacer", grant.argument]
        let command: [String]
        if geteuid() == 0 {
            guard let setpriv = Self.setprivPaths.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
            else {
                unavailableReason = "setpriv not found (util-linux): cannot drop to an unprivileged user"
                return
            }
            guard let user = getpwnam(Self.unprivilegedUser) else {
                unavailableReason = "no user '\(Self.unprivilegedUser)' to run as"
                return
            }
            if case .realTimeLimit(let priority) = grant {
                // Raised in this process for the child to inherit, while still root, as a login
                // session's limits are set before the user's programs start; put back once it runs.
                var saved = rlimit()
                getrlimit(__rlimit_resource_t(__RLIMIT_RTPRIO.rawValue), &saved)
                var raised = rlimit(rlim_cur: rlim_t(priority), rlim_max: max(saved.rlim_max, rlim_t(priority)))
                guard setrlimit(__rlimit_resource_t(__RLIMIT_RTPRIO.rawValue), &raised) == 0 else {
                    unavailableReason =
                        "cannot raise RLIMIT_RTPRIO to \(priority) here (\(String(cString: strerror(errno))):"
                        + " raising a hard limit needs CAP_SYS_RESOURCE)"
                    return
                }
                restoredLimit = saved
            }
            command =
                [
                    setpriv, "--reuid=\(user.pointee.pw_uid)", "--regid=\(user.pointee.pw_gid)", "--clear-groups",
                    "--inh-caps=-all", "--",
                ] + serve
        } else {
            command = serve  // Already unprivileged (unless granted capabilities: the child says).
        }
        let toChild = try ChildProcess.pipe()
        let fromChild = try ChildProcess.pipe()
        defer {
            close(toChild.read)
            close(fromChild.write)
        }
        do {
            process = try ChildProcess.spawn(
                command[0], arguments: Array(command.dropFirst()),
                streams: ChildProcess.Streams(input: toChild.read, output: fromChild.write))
        } catch {
            close(toChild.write)
            close(fromChild.read)
            throw error
        }
        input = fdopen(toChild.write, "w")
        output = fdopen(fromChild.read, "r")
        let first =
            readLine()
            ?? "unavailable the child ended without a word (its error above; can \(Self.unprivilegedUser) run"
            + " \(ChildProcess.ownExecutable)?)"
        if first.hasPrefix("ready ") {
            identity = String(first.dropFirst("ready ".count))
        } else {
            unavailableReason = first.hasPrefix("unavailable ") ? String(first.dropFirst("unavailable ".count)) : first
            stop()
        }
    }

    /// Has the child pace `intervals` + 1 frames; returns the intervals in milliseconds and the
    /// child's CPU time over its run time, in percent of one core.
    func run(intervals: Int) throws -> (intervals: [Double], cpuPercent: Double) {
        guard let input, unavailableReason == nil else {
            throw Failure(description: "the \(grant) pacer is not running: \(unavailableReason ?? "stopped")")
        }
        fputs("run \(intervals)\n", input)
        fflush(input)
        guard let result = readLine(), result.hasPrefix("result "), let line = readLine(), line.hasPrefix("scheduling ")
        else { throw Failure(description: "the \(grant) pacer's child ended or answered out of turn") }
        scheduling = String(line.dropFirst("scheduling ".count))
        let numbers = result.dropFirst("result ".count).split(separator: " ").compactMap { Double($0) }
        guard let cpu = numbers.first, numbers.count == intervals + 1 else {
            throw Failure(description: "the \(grant) pacer's child answered an unreadable result")
        }
        return (Array(numbers.dropFirst()), cpu)
    }

    /// Ends the child (it ends when its input closes) and waits for it.
    func stop() {
        if let input { fclose(input) }
        if let output { fclose(output) }
        input = nil
        output = nil
        if process > 0 { _ = ChildProcess.wait(for: process) }
        process = 0
    }

    /// Puts back this process's real-time limit if it was raised for the child.
    private func putBackLimit() {
        guard var limit = restoredLimit else { return }
        setrlimit(__rlimit_resource_t(__RLIMIT_RTPRIO.rawValue), &limit)
        restoredLimit = nil
    }

    /// The child's next line, without its newline; nil at the end of its output.
    private func readLine() -> String? {
        guard let output else { return nil }
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        guard getline(&buffer, &capacity, output) >= 0, let buffer else { return nil }
        return String(cString: buffer).trimmingCharacters(in: .newlines)
    }
}
