import Foundation

/// rtkit (RealtimeKit), the desktop's daemon that grants real-time or high priority to a user's
/// threads over the system D-Bus, reached with `dbus-send` (part of D-Bus itself, so present
/// wherever a system bus is).
///
/// The `…WithPID` calls name the process and thread to raise, so that a helper (`dbus-send`) can
/// ask for this process's main thread; rtkit checks that the helper runs as the same user, and asks
/// polkit (`org.freedesktop.RealtimeKit1.acquire-real-time` / `acquire-high-priority`, granted to
/// an active local session by default) whether that user may have it.
enum Rtkit {
    /// An error talking to rtkit, or its refusal, in words.
    struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        var description: String
    }

    /// Where `dbus-send` is looked for.
    static let dbusSendPaths = ["/usr/bin/dbus-send", "/bin/dbus-send"]
    /// rtkit's bus name, which is also its interface's name.
    static let service = "org.freedesktop.RealtimeKit1"
    /// rtkit's object path.
    static let objectPath = "/org/freedesktop/RealtimeKit1"

    /// `dbus-send`, or a failure saying it is missing.
    private static func dbusSend() throws -> String {
        guard let path = dbusSendPaths.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Failure(description: "dbus-send not found (Debian package dbus-bin): no way to reach rtkit")
        }
        return path
    }

    /// Calls `member` of `interface` on rtkit with `arguments` (in `dbus-send`'s `type:value`
    /// form); returns the reply as `dbus-send --print-reply` prints it. `purpose` names the call in
    /// errors (the member's name unless told).
    private static func call(
        _ interface: String, _ member: String, _ arguments: [String], purpose: String? = nil
    ) throws -> String {
        let (status, output) = try ChildProcess.runCapturingOutput(
            try dbusSend(),
            arguments: [
                "--system", "--print-reply", "--reply-timeout=\(replyTimeoutMilliseconds)", "--dest=\(service)",
                objectPath, "\(interface).\(member)",
            ] + arguments)
        guard status == 0 else {
            let message = output.trimmingCharacters(in: .whitespacesAndNewlines)
            // rtkit answers a polkit "no" with AccessDenied: its actions go to an active local session.
            let hint = message.contains("AccessDenied") ? " (polkit: no active local session for this user?)" : ""
            throw Failure(
                description: "rtkit \(purpose ?? member): \(message.isEmpty ? "dbus-send failed" : message)\(hint)")
        }
        return output
    }

    /// How long a call waits for rtkit's answer (rtkit itself asks polkit before it answers).
    static let replyTimeoutMilliseconds = 5_000

    /// rtkit's integer property `name` (`MaxRealtimePriority`, `MinNiceLevel`, `RTTimeUSecMax`).
    static func property(_ name: String) throws -> Int64 {
        let reply = try call(
            "org.freedesktop.DBus.Properties", "Get", ["string:\(service)", "string:\(name)"],
            purpose: "reading \(name)")
        // The reply's last line reads `   variant       int64 200000`.
        guard let line = reply.split(separator: "\n").last(where: { $0.contains("variant") }),
            let word = line.split(separator: " ").last, let value = Int64(word)
        else { throw Failure(description: "rtkit's \(name) is unreadable: \(reply)") }
        return value
    }

    /// Asks rtkit to run `thread` of `process` under `SCHED_RR` at `priority`, for good. The process
    /// must have set `RLIMIT_RTTIME` to at most ``property(_:)`` `RTTimeUSecMax` first.
    static func makeThreadRealTime(process: Int32, thread: Int32, priority: Int32) throws {
        _ = try call(
            service, "MakeThreadRealtimeWithPID", ["uint64:\(process)", "uint64:\(thread)", "uint32:\(priority)"])
    }

    /// Asks rtkit to set the nice level of `thread` of `process` to `level`, for good.
    static func makeThreadHighPriority(process: Int32, thread: Int32, level: Int32) throws {
        _ = try call(
            service, "MakeThreadHighPriorityWithPID", ["uint64:\(process)", "uint64:\(thread)", "int32:\(level)"])
    }
}
