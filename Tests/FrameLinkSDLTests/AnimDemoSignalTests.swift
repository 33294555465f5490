import Foundation
import XCTest

/// AnimDemo and signals, run as a subprocess: SIGINT, SIGTERM and SIGHUP end it at any point with
/// exit status 128 + the signal (start-up included, even while the main thread is blocked), the
/// outputs are written when the frame loop has run, and SIGQUIT terminates the process by SIGQUIT.
///
/// AnimDemo promises to be gone within 0.5 s of a signal; on a loaded 2-core CI machine the tests
/// allow ``bound`` and print each measured time.
final class AnimDemoSignalTests: XCTestCase {
    private var assets: String { AnimDemoProcess.assetsFolder }

    /// The longest the tests allow between a signal and the end of the process, in seconds.
    private let bound = 1.5

    /// The signals that end a run, with the exit status each gives.
    private let endings: [(signal: Int32, status: Int32, name: String)] = [
        (SIGINT, 130, "SIGINT"), (SIGTERM, 143, "SIGTERM"), (SIGHUP, 129, "SIGHUP"),
    ]

    /// Checks and prints the time from a signal to the end of the process.
    private func assertQuick(
        _ seconds: TimeInterval?, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let seconds else {
            XCTFail("\(what): still running 5 s after the signal", file: file, line: line)
            return
        }
        print("AnimDemoSignalTests: \(what): gone \(String(format: "%.3f", seconds)) s after the signal")
        XCTAssertLessThan(seconds, bound, "\(what) took \(seconds) s", file: file, line: line)
    }

    /// Checks that the run ended by itself (not timed out, not killed) with exit status `status` and one
    /// line on stderr, as after signal `name`.
    private func assertEndedWithOneLine(
        _ result: AnimDemoProcess.Result, status: Int32, _ name: String, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertFalse(result.timedOut, "\(name) did not end the run", file: file, line: line)
        XCTAssertTrue(
            result.exitedNormally, "\(name) killed the process: \(result.standardError)", file: file, line: line)
        XCTAssertEqual(result.status, status, result.standardError, file: file, line: line)
        XCTAssertEqual(result.errorLines.count, 1, result.standardError, file: file, line: line)
    }

    /// A temporary folder that the caller removes.
    private func makeFolder() throws -> String {
        let folder = AnimDemoProcess.temporaryPath("-signals")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A signal in the frame loop ends the run with 128 + the signal, the report (ended by that signal) and the
    /// screenshot written, nothing on stderr, no temporary file left, within the bound.
    func testSIGINTSIGTERMAndSIGHUPEndTheRunCleanlyWithTheOutputsWritten() throws {
        for (signal, status, name) in endings {
            let folder = try makeFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let report = (folder as NSString).appendingPathComponent("report.json")
            let screenshot = (folder as NSString).appendingPathComponent("shot.png")
            var seconds: TimeInterval?
            let result = try AnimDemoProcess.run(
                [
                    "--headless", "--frames", "100000", "--sprites", "50", "--report", report, "--screenshot",
                    screenshot, "--assets", assets,
                ],
                environment: ["SDL_VIDEODRIVER": nil], timeout: 30
            ) { process in
                Thread.sleep(forTimeInterval: 1.5)
                seconds = AnimDemoProcess.signal(process, signal)
            }
            XCTAssertFalse(result.timedOut, "\(name) did not end the run")
            XCTAssertTrue(result.exitedNormally, "\(name) must end the run, not kill the process")
            XCTAssertEqual(result.status, status, result.standardError)
            XCTAssertEqual(result.standardError, "", "a signal in the loop is not an error")
            assertQuick(seconds, "\(name) in the frame loop")
            let parsed = try AnimDemoReport.load(report)
            XCTAssertEqual(parsed.endedBy, name)
            XCTAssertGreaterThan(parsed.framesRun, 10)
            XCTAssertLessThan(parsed.framesRun, 100_000)
            XCTAssertNotNil(SDLTestSupport.pixels(ofImageAt: screenshot), "\(name): no screenshot")
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), ["report.json", "shot.png"])
        }
    }

    /// A signal while the main thread is blocked opening a named pipe as the atlas ends the process within
    /// the bound with 128 + the signal and one line on stderr.
    func testASignalWhileStartUpBlocksInOpenEndsAtOnce() throws {
        for (signal, status, name) in endings {
            // A named pipe as the atlas: opening it blocks until a writer comes, which never happens.
            let folder = try makeFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            XCTAssertEqual(mkfifo((folder as NSString).appendingPathComponent("sprites.png"), 0o600), 0)
            var seconds: TimeInterval?
            var blocked = false
            let result = try AnimDemoProcess.run(
                ["--headless", "--frames", "5", "--assets", folder], environment: ["SDL_VIDEODRIVER": nil],
                timeout: 20
            ) { process in
                blocked = Self.waitUntilBlockedInOpen(process.processIdentifier)
                seconds = AnimDemoProcess.signal(process, signal)
            }
            XCTAssertTrue(blocked, "the demo never blocked opening the named pipe")
            XCTAssertFalse(result.timedOut, "\(name) did not end a blocked start-up")
            XCTAssertTrue(result.exitedNormally, "\(name) killed the process: \(result.standardError)")
            XCTAssertEqual(result.status, status, result.standardError)
            XCTAssertEqual(
                result.errorLines,
                [
                    "AnimDemo: stopped by \(name) during start-up, before the frame loop "
                        + "ran: nothing was written"
                ])
            assertQuick(seconds, "\(name) while blocked opening a named pipe")
        }
    }

    /// A signal 0.5 s into a start-up with 100,000 sprites ends the process within the bound with 128 + the
    /// signal and one line, and leaves no file behind.
    func testASignalWhileBuildingManySpritesEndsAtOnce() throws {
        for (signal, status, name) in endings {
            let folder = try makeFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let report = (folder as NSString).appendingPathComponent("report.json")
            var seconds: TimeInterval?
            let result = try AnimDemoProcess.run(
                ["--headless", "--frames", "100", "--sprites", "100000", "--report", report, "--assets", assets],
                environment: ["SDL_VIDEODRIVER": nil], timeout: 60
            ) { process in
                Thread.sleep(forTimeInterval: 0.5)
                seconds = AnimDemoProcess.signal(process, signal)
            }
            assertEndedWithOneLine(result, status: status, name)
            XCTAssertTrue(result.standardError.hasPrefix("AnimDemo: stopped by \(name)"), result.standardError)
            assertQuick(seconds, "\(name) 0.5 s into a start-up with 100,000 sprites")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [], "no file, no leftovers")
        }
    }

    /// A signal during a 2 s frame ends the process within the bound (the watchdog) with 128 + the signal and
    /// one line naming the report as not written; the previous report is intact, no temporary file is left.
    func testASignalDuringAFrameThatDoesNotEndStillEndsTheProcessInTime() throws {
        for (signal, status, name) in endings {
            // Every frame stalls for 2 s: the loop cannot notice the signal in time, the watchdog must.
            let folder = try makeFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let report = (folder as NSString).appendingPathComponent("report.json")
            try Data("previous report\n".utf8).write(to: URL(fileURLWithPath: report))
            var seconds: TimeInterval?
            let result = try AnimDemoProcess.run(
                [
                    "--headless", "--frames", "1000", "--sprites", "50", "--stall-every", "1", "--stall-ms", "2000",
                    "--report", report, "--assets", assets,
                ],
                environment: ["SDL_VIDEODRIVER": nil], timeout: 30
            ) { process in
                Thread.sleep(forTimeInterval: 1.5)
                seconds = AnimDemoProcess.signal(process, signal)
            }
            assertEndedWithOneLine(result, status: status, name)
            XCTAssertTrue(result.standardError.contains("the report was not written"), result.standardError)
            assertQuick(seconds, "\(name) during a 2 s frame")
            XCTAssertEqual(try String(contentsOfFile: report, encoding: .utf8), "previous report\n")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["report.json"])
        }
    }

    /// SIGQUIT terminates the process by SIGQUIT (its default action), within the bound.
    func testSIGQUITTerminatesTheProcessBySIGQUIT() throws {
        // No core file: the default action of SIGQUIT dumps core where the limit allows.
        var saved = rlimit()
        getrlimit(Int32(RLIMIT_CORE.rawValue), &saved)
        var none = saved
        none.rlim_cur = 0
        setrlimit(Int32(RLIMIT_CORE.rawValue), &none)
        defer { setrlimit(Int32(RLIMIT_CORE.rawValue), &saved) }

        var seconds: TimeInterval?
        let result = try AnimDemoProcess.run(
            ["--headless", "--frames", "100000", "--sprites", "50", "--assets", assets],
            environment: ["SDL_VIDEODRIVER": nil], timeout: 20
        ) { process in
            Thread.sleep(forTimeInterval: 1.0)
            seconds = AnimDemoProcess.signal(process, SIGQUIT)
        }
        XCTAssertFalse(result.timedOut, "SIGQUIT did not end the process")
        XCTAssertEqual(result.terminatingSignal, SIGQUIT, "exited with \(result.status): \(result.standardError)")
        assertQuick(seconds, "SIGQUIT in the frame loop")
    }

    /// Waits (up to 10 s) until process `pid` is blocked opening a named pipe (seen twice, 50 ms apart);
    /// returns whether it was.
    private static func waitUntilBlockedInOpen(_ pid: Int32) -> Bool {
        for _ in 0..<1000 {
            if isBlockedInOpen(pid) {
                usleep(50_000)
                if isBlockedInOpen(pid) { return true }
            }
            usleep(10_000)
        }
        return false
    }

    /// Whether the main thread of `pid` waits in `open` (`/proc/<pid>/wchan`, or the system call
    /// number in `/proc/<pid>/syscall`: 257 is openat and 2 is open on x86-64).
    private static func isBlockedInOpen(_ pid: Int32) -> Bool {
        let channel = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
        let call = (try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8)) ?? ""
        return channel.contains("wait_for_partner") || channel.contains("fifo_open") || call.hasPrefix("257 ")
            || call.hasPrefix("2 ")
    }
}
