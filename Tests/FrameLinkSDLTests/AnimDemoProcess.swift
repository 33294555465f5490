import Dispatch
import Foundation
import FrameLink
import XCTest

/// Runs the AnimDemo executable as a subprocess, as a user would, and collects what it did.
///
/// The binary is found next to the test bundle (SwiftPM builds executables and the test bundle into
/// the same folder: `swift build --build-tests` builds both), or at `$ANIMDEMO` if that is set.
/// Output goes to files, not pipes, so a chatty run can never block on a full pipe.
struct AnimDemoProcess {
    /// What one run left behind.
    struct Result {
        /// The exit status (meaningful when `exitedNormally`).
        var status: Int32
        /// Whether the process exited (true) or was killed by a signal (false: a crash).
        var exitedNormally: Bool
        /// The signal that terminated the process, or `nil` when it exited.
        var terminatingSignal: Int32? { exitedNormally ? nil : status }
        /// Whether the run had to be killed because it overran its time limit.
        var timedOut: Bool
        var standardOutput: String
        var standardError: String

        /// The non-empty lines written to stderr.
        var errorLines: [String] {
            standardError.split(whereSeparator: \.isNewline).map(String.init).filter {
                !$0.trimmingCharacters(in: .whitespaces).isEmpty
            }
        }
    }

    /// The package's root folder (for `assets/` and `scripts/`).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The repository's sprite atlas folder.
    static var assetsFolder: String { packageRoot.appendingPathComponent("assets").path }

    /// The AnimDemo binary, or `nil` when it has not been built.
    static var executable: URL? {
        if let override = ProcessInfo.processInfo.environment["ANIMDEMO"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        var candidates: [URL] = []
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(runner.deletingLastPathComponent())
        if let bundle = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            candidates.append(bundle.deletingLastPathComponent())
        }
        for folder in candidates {
            // The runner may be `<bin>/FrameLinkPackageTests.xctest` itself or inside a bundle folder.
            for base in [folder, folder.deletingLastPathComponent()] {
                let binary = base.appendingPathComponent("AnimDemo")
                if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
            }
        }
        return nil
    }

    /// The binary, or a test failure that says how to build it.
    static func requireExecutable(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        guard let executable else {
            XCTFail(
                "AnimDemo is not built next to the tests: run `swift build --build-tests` first (or set ANIMDEMO)",
                file: file, line: line)
            throw XCTSkip("AnimDemo binary not found")
        }
        return executable
    }

    /// Runs AnimDemo with `arguments`, with the environment changed by `environment` (a `nil` value
    /// removes a variable), killing it after `timeout` seconds (on the monotonic clock).
    ///
    /// `whileRunning` is called on its own thread once the process has started (to send it a signal
    /// or close its window), so the timeout covers it too: the process is killed when the time is up,
    /// whatever `whileRunning` is doing. Its waits (``RunningDemo``) give up once the process has
    /// ended, and the run waits for it to return (a failure if it has not 30 s after the process
    /// ended), so whatever it recorded can be read afterwards.
    static func run(
        _ arguments: [String], environment: [String: String?] = [:], timeout: TimeInterval = 60,
        whileRunning: (@Sendable (RunningDemo) -> Void)? = nil, file: StaticString = #filePath, line: UInt = #line
    ) throws -> Result {
        let executable = try requireExecutable()
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        process.environment = variables
        let outputPath = temporaryPath(".out")
        let errorPath = temporaryPath(".err")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: outputPath)
            try? FileManager.default.removeItem(atPath: errorPath)
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let started = ContinuousClock.now
        let helperDone = DispatchSemaphore(value: 0)
        if let whileRunning {
            let demo = RunningDemo(pid: process.processIdentifier)
            Thread.detachNewThread {
                whileRunning(demo)
                helperDone.signal()
            }
        } else {
            helperDone.signal()
        }

        let deadline = started + .seconds(timeout)
        while process.isRunning && ContinuousClock.now < deadline {
            usleep(10_000)
        }
        var timedOut = false
        if process.isRunning {
            timedOut = true
            process.terminate()
            let grace = ContinuousClock.now + .seconds(3)
            while process.isRunning && ContinuousClock.now < grace { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        if helperDone.wait(timeout: .now() + .seconds(30)) == .timedOut {
            XCTFail("the actions on the running demo did not return within 30 s of its end", file: file, line: line)
        }
        try output.close()
        try errors.close()
        return Result(
            status: process.terminationStatus, exitedNormally: process.terminationReason == .exit,
            timedOut: timedOut,
            standardOutput: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
    }

    /// Whether process `pid` has ended: it is a zombie (or dead), or already reaped.
    static func hasEnded(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state == "Z" || state == "X"
    }

    /// Runs AnimDemo and checks it failed the way bad input must: it exited (no crash, no hang) with
    /// `status`, after exactly one line on stderr that contains `fragment`. Returns the result.
    @discardableResult
    static func assertRefused(
        _ arguments: [String], status: Int32 = 64, saying fragment: String,
        environment: [String: String?] = ["SDL_VIDEODRIVER": "dummy"], file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> Result {
        let result = try run(arguments, environment: environment, timeout: 30)
        let shown = "\(arguments): stderr \(result.standardError.debugDescription)"
        XCTAssertFalse(result.timedOut, "hung: \(shown)", file: file, line: line)
        XCTAssertTrue(result.exitedNormally, "crashed: \(shown)", file: file, line: line)
        XCTAssertEqual(result.status, status, shown, file: file, line: line)
        XCTAssertEqual(result.errorLines.count, 1, "one line on stderr: \(shown)", file: file, line: line)
        let message = result.errorLines.first ?? ""
        XCTAssertTrue(message.hasPrefix("AnimDemo: error: "), shown, file: file, line: line)
        XCTAssertTrue(message.contains(fragment), "expected '\(fragment)' in: \(message)", file: file, line: line)
        return result
    }

    /// A fresh path in the temporary folder for a file with `suffix`.
    static func temporaryPath(_ suffix: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("animdemo-\(UUID().uuidString)\(suffix)").path
    }
}

/// The parts of AnimDemo's JSON report that the tests read: FrameLink's own report and the demo's
/// fields.
struct AnimDemoReport: Decodable {
    /// One injected stall.
    struct Stall: Decodable {
        var frame: Int64
        var milliseconds: Double
    }

    var statistics: FrameReport
    var framesRun: Int64
    var millisecondsPerFrame: Double
    var sprites: Int
    var seed: UInt64
    var headless: Bool
    var videoDriver: String
    var renderer: String
    var pacingRequested: String
    var pacingMode: String
    var timeScale: Double
    var stallLabel: String
    var injectedStalls: [Stall]
    var endedBy: String

    /// Reads and decodes the report at `path`.
    static func load(_ path: String) throws -> AnimDemoReport {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONDecoder().decode(AnimDemoReport.self, from: data)
    }
}
