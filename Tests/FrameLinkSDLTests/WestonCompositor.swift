import Foundation
import XCTest

/// Weston, the reference Wayland compositor, started for one test inside the X server the tests
/// run under (`xvfb-run`): its x11 backend with pixman, a private `XDG_RUNTIME_DIR`, a socket name
/// of its own, and its debug protocol on, so that `weston-debug timeline` can record what it
/// showed. Stopped by PID, and its folder removed, by ``stop()``.
final class WestonCompositor {
    /// How long Weston gets to create its socket: 20 s, for a loaded machine (it takes about 0.2 s
    /// here when idle).
    static let startTimeout: Duration = .seconds(20)

    let runtimeFolder: String
    let socketName: String
    private let weston: Process
    private var timeline: Process?
    private let logPath: String

    /// Why Weston cannot run here, or `nil` when it can: no `weston` or `weston-debug` on the
    /// path, or no X server to put its window on.
    static var unavailableReason: String? {
        guard ProcessInfo.processInfo.environment["DISPLAY"].map({ !$0.isEmpty }) == true else {
            return "DISPLAY is not set: run under an X server, e.g. `xvfb-run -a swift test`"
        }
        for tool in ["weston", "weston-debug"] where path(of: tool) == nil {
            return "\(tool) is not installed (`make test` installs the weston package)"
        }
        return nil
    }

    /// A compositor started for a test, or a skip where Weston cannot run here (a failure under CI,
    /// whose `make test` installs it and runs under Xvfb).
    static func started(file: StaticString = #filePath, line: UInt = #line) throws -> WestonCompositor {
        if let reason = unavailableReason {
            if ProcessInfo.processInfo.environment["CI"] != nil {
                XCTFail("Weston cannot run: \(reason)", file: file, line: line)
            }
            throw XCTSkip(reason)
        }
        return try WestonCompositor()
    }

    /// Where `tool` is on the path, if it is.
    static func path(of tool: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts Weston and waits for its socket.
    init() throws {
        var template = Array(
            FileManager.default.temporaryDirectory.appendingPathComponent("framelink-weston-XXXXXX").path.utf8CString)
        guard let folder = mkdtemp(&template) else { throw XCTSkip("cannot create a runtime folder for Weston") }
        runtimeFolder = String(cString: folder)
        chmod(runtimeFolder, 0o700)
        socketName = "framelink-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        logPath = runtimeFolder + "/weston.log"
        weston = Process()
        weston.executableURL = URL(fileURLWithPath: Self.path(of: "weston") ?? "/usr/bin/weston")
        weston.arguments = [
            "--backend=x11-backend.so", "--use-pixman", "--idle-time=0", "--socket=\(socketName)", "--debug",
            "--log=\(logPath)",
        ]
        weston.environment = environment
        weston.standardOutput = FileHandle.nullDevice
        weston.standardError = FileHandle.nullDevice
        try weston.run()
        let deadline = ContinuousClock.now + Self.startTimeout
        while !FileManager.default.fileExists(atPath: runtimeFolder + "/" + socketName) {
            guard weston.isRunning, ContinuousClock.now < deadline else {
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                stop()
                XCTFail("Weston did not open its socket: \(log.suffix(2_000))")
                throw XCTSkip("Weston did not start")
            }
            usleep(20_000)
        }
    }

    /// The environment a Wayland client needs to reach this compositor (and Weston itself).
    var environment: [String: String] {
        var variables = ProcessInfo.processInfo.environment
        variables["XDG_RUNTIME_DIR"] = runtimeFolder
        variables["WAYLAND_DISPLAY"] = socketName
        return variables
    }

    /// Starts recording Weston's `timeline` debug scope into `path` (Weston writes the file
    /// itself, through the descriptor `weston-debug` hands it).
    func recordTimeline(to path: String) throws {
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: Self.path(of: "weston-debug") ?? "/usr/bin/weston-debug")
        recorder.arguments = ["-o", path, "timeline"]
        recorder.environment = environment
        recorder.standardOutput = FileHandle.nullDevice
        recorder.standardError = FileHandle.nullDevice
        try recorder.run()
        timeline = recorder
        // weston-debug subscribes within milliseconds; AnimDemo takes longer than that to start,
        // and frames shown before the record's first event are not judged anyway.
        usleep(300_000)
    }

    /// Stops the timeline recorder and Weston (SIGTERM, then SIGKILL after 5 s) and removes the
    /// runtime folder. Safe to call twice.
    func stop() {
        for process in [timeline, weston].compactMap({ $0 }) where process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = ContinuousClock.now + .seconds(5)
            while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        timeline = nil
        try? FileManager.default.removeItem(atPath: runtimeFolder)
    }

    deinit {
        stop()
    }
}
