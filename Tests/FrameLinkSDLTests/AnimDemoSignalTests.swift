import Foundation
import XCTest

/// AnimDemo and signals, run as a subprocess: SIGINT, SIGTERM and SIGHUP end it at any point with
/// exit status 128 + the signal (start-up included, even while the main thread is blocked), the
/// outputs are written when the frame loop has run, and SIGQUIT terminates the process by SIGQUIT.
///
/// Each signal is sent once the demo has reached the point the test is about (the frame loop runs,
/// start-up blocks in `open`, a stall sleeps), as `/proc` shows it (``RunningDemo``), never after a
/// fixed sleep. The verdicts are the outcome (exit status, stderr, outputs); the time from the
/// signal to the end is printed, not checked against a bound: AnimDemo's "gone within 0.5 s" is a
/// promise about a machine that gives it a CPU, which a loaded CI machine does not, so the tests
/// only require the process to end (within ``limit``, generous).
final class AnimDemoSignalTests: XCTestCase {
    private var assets: String { AnimDemoProcess.assetsFolder }

    /// How long the tests wait for the process to end after a signal, in seconds: a hang, not a speed.
    private let limit: TimeInterval = 30

    /// The signals that end a run, with the exit status each gives.
    private let endings: [(signal: Int32, status: Int32, name: String)] = [
        (SIGINT, 130, "SIGINT"), (SIGTERM, 143, "SIGTERM"), (SIGHUP, 129, "SIGHUP"),
    ]

    /// Checks that the process ended after the signal, and prints how long that took.
    private func assertEnded(
        _ seconds: TimeInterval?, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let seconds else {
            return XCTFail("\(what): not sent, or still running \(limit) s after the signal", file: file, line: line)
        }
        print("AnimDemoSignalTests: \(what): gone \(String(format: "%.3f", seconds)) s after the signal")
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
    /// screenshot written, nothing on stderr, no temporary file left.
    func testSIGINTSIGTERMAndSIGHUPEndTheRunCleanlyWithTheOutputsWritten() throws {
        for (signal, status, name) in endings {
            let folder = try makeFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let report = (folder as NSString).appendingPathComponent("report.json")
            let screenshot = (folder as NSString).appendingPathComponent("shot.png")
            let looping = Shared(false)
            let seconds = Shared<TimeInterval?>(nil)
            let limit = limit
            let result = try AnimDemoProcess.run(
                // A small canvas: winding down (the screenshot's PNG, the report) must fit in AnimDemo's
                // own 0.4 s watchdog, real time that a busy machine shrinks.
                [
                    "--headless", "--frames", "100000", "--sprites", "50", "--width", "320", "--height", "240",
                    "--report", report, "--screenshot", screenshot, "--assets", assets,
                ],
                environment: ["SDL_VIDEODRIVER": nil], timeout: 120
            ) { demo in
                looping.value = demo.waitUntilLooping()
                seconds.value = demo.signalAndTimeExit(signal, upTo: limit)
            }
            XCTAssertTrue(looping.value, "\(name): the frame loop never ran: \(result.standardError)")
            XCTAssertFalse(result.timedOut, "\(name) did not end the run")
            XCTAssertTrue(result.exitedNormally, "\(name) must end the run, not kill the process")
            XCTAssertEqual(result.status, status, result.standardError)
            XCTAssertEqual(result.standardError, "", "a signal in the loop is not an error")
            assertEnded(seconds.value, "\(name) in the frame loop")
            let parsed = try AnimDemoReport.load(report)
            XCTAssertEqual(parsed.endedBy, name)
            XCTAssertGreaterThan(parsed.framesRun, 0, "the signal came once the loop had run")
            XCTAssertLessThan(parsed.framesRun, 100_000)
            XCTAssertNotNil(SDLTestSupport.pixels(ofImageAt: screenshot), "\(name): no screenshot")
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), ["report.json", "shot.png"])
        }
    }

    /// A signal while the main thread is blocked opening a named pipe as the atlas ends the process with
    /// 128 + the signal and one line on stderr.
    func testASignalWhileStartUpBlocksInOpenEndsAtOnce() throws {
        for (signal, status, name) in endings {
            // A named pipe as the atlas: opening it blocks until a writer comes, which never happens.
            let folder = try makeFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            XCTAssertEqual(mkfifo((folder as NSString).appendingPathComponent("sprites.png"), 0o600), 0)
            let blocked = Shared(false)
            let seconds = Shared<TimeInterval?>(nil)
            let limit = limit
            let result = try AnimDemoProcess.run(
                ["--headless", "--frames", "5", "--assets", folder], environment: ["SDL_VIDEODRIVER": nil],
                timeout: 120
            ) { demo in
                blocked.value = demo.waitUntilBlockedInOpen()
                seconds.value = demo.signalAndTimeExit(signal, upTo: limit)
            }
            XCTAssertTrue(blocked.value, "the demo never blocked opening the named pipe")
            XCTAssertFalse(result.timedOut, "\(name) did not end a blocked start-up")
            XCTAssertTrue(result.exitedNormally, "\(name) killed the process: \(result.standardError)")
            XCTAssertEqual(result.status, status, result.standardError)
            XCTAssertEqual(
                result.errorLines,
                [
                    "AnimDemo: stopped by \(name) during start-up, before the frame loop "
                        + "ran: nothing was written"
                ])
            assertEnded(seconds.value, "\(name) while blocked opening a named pipe")
        }
    }

    /// A signal while start-up builds 100,000 sprites (sent once the main thread has worked for 0.3 s of CPU
    /// time, of about 2 s that start-up takes) ends the process with 128 + the signal and the start-up
    /// line, and leaves no file behind.
    func testASignalWhileBuildingManySpritesEndsAtOnce() throws {
        for (signal, status, name) in endings {
            let folder = try makeFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let report = (folder as NSString).appendingPathComponent("report.json")
            let handled = Shared(false)
            let seconds = Shared<TimeInterval?>(nil)
            let limit = limit
            let result = try AnimDemoProcess.run(
                ["--headless", "--frames", "100", "--sprites", "100000", "--report", report, "--assets", assets],
                environment: ["SDL_VIDEODRIVER": nil], timeout: 120
            ) { demo in
                handled.value = demo.waitUntilSignalsAreHandled() && demo.waitUntilMainThreadHasWorked(0.3)
                seconds.value = demo.signalAndTimeExit(signal, upTo: limit)
            }
            XCTAssertTrue(handled.value, "AnimDemo never handled signals and worked 0.3 s: \(result.standardError)")
            assertEndedWithOneLine(result, status: status, name)
            XCTAssertEqual(
                result.errorLines,
                ["AnimDemo: stopped by \(name) during start-up, before the frame loop ran: nothing was written"])
            assertEnded(seconds.value, "\(name) in a start-up with 100,000 sprites")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [], "no file, no leftovers")
        }
    }

    /// A signal during a 2 s frame ends the process (the watchdog: the loop cannot notice it in time) with
    /// 128 + the signal and one line naming the report as not written; the previous report is intact, no
    /// temporary file is left.
    func testASignalDuringAFrameThatDoesNotEndStillEndsTheProcessInTime() throws {
        for (signal, status, name) in endings {
            // Every frame stalls for 2 s: the loop cannot notice the signal in time, the watchdog must.
            let folder = try makeFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let report = (folder as NSString).appendingPathComponent("report.json")
            try Data("previous report\n".utf8).write(to: URL(fileURLWithPath: report))
            let stalled = Shared(false)
            let seconds = Shared<TimeInterval?>(nil)
            let limit = limit
            let result = try AnimDemoProcess.run(
                [
                    "--headless", "--frames", "1000", "--sprites", "50", "--stall-every", "1", "--stall-ms", "2000",
                    "--report", report, "--assets", assets,
                ],
                environment: ["SDL_VIDEODRIVER": nil], timeout: 120
            ) { demo in
                // The signal lands in a frame's 2 s stall.
                stalled.value = demo.waitUntilStalled()
                seconds.value = demo.signalAndTimeExit(signal, upTo: limit)
            }
            XCTAssertTrue(stalled.value, "no stall was seen: \(result.standardError)")
            assertEndedWithOneLine(result, status: status, name)
            XCTAssertTrue(result.standardError.contains("the report was not written"), result.standardError)
            assertEnded(seconds.value, "\(name) during a 2 s frame")
            XCTAssertEqual(try String(contentsOfFile: report, encoding: .utf8), "previous report\n")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["report.json"])
        }
    }

    /// SIGQUIT in the frame loop terminates the process by SIGQUIT (its default action).
    func testSIGQUITTerminatesTheProcessBySIGQUIT() throws {
        // No core file: the default action of SIGQUIT dumps core where the limit allows.
        var saved = rlimit()
        getrlimit(Int32(RLIMIT_CORE.rawValue), &saved)
        var none = saved
        none.rlim_cur = 0
        setrlimit(Int32(RLIMIT_CORE.rawValue), &none)
        defer { setrlimit(Int32(RLIMIT_CORE.rawValue), &saved) }

        let looping = Shared(false)
        let seconds = Shared<TimeInterval?>(nil)
        let limit = limit
        let result = try AnimDemoProcess.run(
            ["--headless", "--frames", "100000", "--sprites", "50", "--assets", assets],
            environment: ["SDL_VIDEODRIVER": nil], timeout: 120
        ) { demo in
            looping.value = demo.waitUntilLooping()
            seconds.value = demo.signalAndTimeExit(SIGQUIT, upTo: limit)
        }
        XCTAssertTrue(looping.value, "the frame loop never ran: \(result.standardError)")
        XCTAssertFalse(result.timedOut, "SIGQUIT did not end the process")
        XCTAssertEqual(result.terminatingSignal, SIGQUIT, "exited with \(result.status): \(result.standardError)")
        assertEnded(seconds.value, "SIGQUIT in the frame loop")
    }
}
