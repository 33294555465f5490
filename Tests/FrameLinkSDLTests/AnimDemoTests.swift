import CSDL2
import Foundation
import FrameLink
import XCTest

/// AnimDemo run as a subprocess, as a newcomer runs it: bad input and a missing or stale display end
/// with one clear line and a non-zero status (never a crash or a hang), and a headless run writes a
/// report whose injected stalls are all blamed on the stall and a screenshot that shows sprites.
/// Outputs: AnimDemoOutputTests; signals: AnimDemoSignalTests.
final class AnimDemoTests: XCTestCase {
    private var assets: String { AnimDemoProcess.assetsFolder }

    /// Runs AnimDemo and checks it failed the way bad input must (see ``AnimDemoProcess/assertRefused``).
    private func assertRefused(
        _ arguments: [String], status: Int32 = 64, saying fragment: String,
        environment: [String: String?] = ["SDL_VIDEODRIVER": "dummy"], file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        try AnimDemoProcess.assertRefused(
            arguments, status: status, saying: fragment, environment: environment, file: file, line: line)
    }

    private var headless: [String] { ["--headless", "--frames", "5", "--assets", assets] }

    // MARK: Bad input

    func testANegativeSpriteCountIsRefused() throws {
        try assertRefused(headless + ["--sprites", "-3"], saying: "--sprites -3 is out of range")
        try assertRefused(headless + ["--sprites=-1"], saying: "--sprites -1 is out of range")
    }

    func testZeroSpritesAreRefused() throws {
        try assertRefused(headless + ["--sprites", "0"], saying: "--sprites 0 is out of range")
    }

    func testAnAbsurdSpriteCountIsRefused() throws {
        try assertRefused(headless + ["--sprites", "100001"], saying: "--sprites 100001 is out of range")
        try assertRefused(headless + ["--sprites", "99999999999999999999999"], saying: "--sprites")
        try assertRefused(headless + ["--sprites", "lots"], saying: "--sprites")
    }

    func testAnUnknownFlagIsRefused() throws {
        try assertRefused(headless + ["--bogus"], saying: "--bogus")
        try assertRefused(headless + ["extra"], saying: "extra")
    }

    func testARefreshRateOfZeroOrLessIsRefused() throws {
        try assertRefused(headless + ["--refresh-rate", "0"], saying: "--refresh-rate 0.0")
        try assertRefused(headless + ["--refresh-rate", "-60"], saying: "--refresh-rate -60.0")
    }

    func testANaNOrInfiniteRefreshRateIsRefused() throws {
        try assertRefused(headless + ["--refresh-rate", "nan"], saying: "--refresh-rate nan")
        try assertRefused(headless + ["--refresh-rate", "inf"], saying: "--refresh-rate inf")
    }

    func testOtherInvalidOptionsAreRefused() throws {
        try assertRefused(["--headless", "--assets", assets], saying: "--headless needs --frames")
        try assertRefused(headless + ["--frames", "0"], saying: "--frames 0")
        try assertRefused(headless + ["--stall-every", "0"], saying: "--stall-every 0")
        try assertRefused(headless + ["--stall-ms", "-5"], saying: "--stall-ms -5")
        try assertRefused(headless + ["--pacing", "sideways"], saying: "sideways")
        try assertRefused(headless + ["--pacing", "vsync", "--no-vsync"], saying: "--pacing vsync")
        try assertRefused(headless + ["--width", "10"], saying: "--width 10")
        try assertRefused(headless + ["--seed", "-1"], saying: "--seed")
        try assertRefused(
            headless + ["--report", "/nonexistent-\(UUID().uuidString)/r.json"], saying: "does not exist")
    }

    func testABadFrameRateRangeIsRefused() throws {
        try assertRefused(headless + ["--frame-rate-range", "50-40"], saying: "the minimum 50 Hz is above the maximum")
        try assertRefused(headless + ["--frame-rate-range", "fast"], saying: "`fast` is not a number of hertz")
        try assertRefused(headless + ["--frame-rate-range", "40-50@60"], saying: "the preferred 60 Hz lies outside it")
        try assertRefused(headless + ["--frame-rate-range", "nan"], saying: "--frame-rate-range `nan`")
        try assertRefused(headless + ["--frame-rate-range", "0"], saying: "--frame-rate-range `0`")
        try assertRefused(headless + ["--frame-rate-range", "40-50-60"], saying: "use MIN-MAX")
        try assertRefused(headless + ["--variable-refresh", "144-48"], saying: "--variable-refresh `144-48`")
    }

    func testAFrameRateRangeIsPacedAndReported() throws {
        let report = AnimDemoProcess.temporaryPath(".json")
        defer { try? FileManager.default.removeItem(atPath: report) }
        let result = try AnimDemoProcess.run(
            [
                "--headless", "--frames", "40", "--assets", assets, "--sprites", "50", "--frame-rate-range", "24-30",
                "--report", report,
            ], environment: ["SDL_VIDEODRIVER": nil])
        XCTAssertTrue(result.exitedNormally && result.status == 0, "\(result.status): \(result.standardError)")
        XCTAssertTrue(
            result.standardOutput.contains("frame rate: loop: 30 Hz (paced directly at 30 Hz by deadline"),
            result.standardOutput)
        let parsed = try AnimDemoReport.load(report)
        XCTAssertEqual(parsed.statistics.frameRateChoices?.first?.hasPrefix("loop: 30 Hz"), true)
        XCTAssertEqual(parsed.statistics.periodMilliseconds, 1000.0 / 30, accuracy: 0.001)
    }

    func testAMissingAssetIsReported() throws {
        let folder = "/nonexistent-\(UUID().uuidString)"
        try assertRefused(
            ["--headless", "--frames", "5", "--assets", folder], status: 1, saying: "cannot load the sprite atlas")
    }

    func testACorruptAssetIsReported() throws {
        let folder = AnimDemoProcess.temporaryPath("-assets")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let atlas = (folder as NSString).appendingPathComponent("sprites.png")

        // Not an image at all.
        try Data("this is not a PNG\n".utf8).write(to: URL(fileURLWithPath: atlas))
        try assertRefused(
            ["--headless", "--frames", "5", "--assets", folder], status: 1, saying: "cannot load the sprite atlas")

        // A PNG cut short.
        let real = try Data(
            contentsOf: URL(fileURLWithPath: (assets as NSString).appendingPathComponent("sprites.png")))
        try real.prefix(real.count / 3).write(to: URL(fileURLWithPath: atlas))
        try assertRefused(
            ["--headless", "--frames", "5", "--assets", folder], status: 1, saying: "cannot load the sprite atlas")

        // A valid PNG of the wrong size.
        let surface = try XCTUnwrap(SDL_CreateRGBSurfaceWithFormat(0, 8, 8, 32, SDL_PIXELFORMAT_ARGB8888.rawValue))
        defer { SDL_FreeSurface(surface) }
        XCTAssertEqual(IMG_SavePNG(surface, atlas), 0)
        try assertRefused(["--headless", "--frames", "5", "--assets", folder], status: 1, saying: "expected 256×64")
    }

    func testNoDisplayAndNoXvfbIsReported() throws {
        try assertRefused(
            ["--frames", "5", "--assets", assets], status: 1, saying: "there is no display",
            environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "SDL_VIDEODRIVER": nil])
    }

    /// A display number with no X server on this machine (no socket, no lock file), from 93 up.
    private func unusedDisplay() -> String {
        let number = (93..<200).first { number in
            !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
                && !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
        }
        return ":\(number ?? 93)"
    }

    /// A `DISPLAY` with no X server behind it ends with exit 1 and one line naming it (no hang).
    func testAStaleDISPLAYIsReportedInsteadOfAnInvisibleWindow() throws {
        // Without --frames: before, SDL fell back to its offscreen driver and the run never ended.
        let display = unusedDisplay()
        let result = try AnimDemoProcess.assertRefused(
            ["--assets", assets], status: 1, saying: "DISPLAY=\(display) names no display",
            environment: ["DISPLAY": display, "WAYLAND_DISPLAY": nil, "SDL_VIDEODRIVER": nil])
        XCTAssertTrue(result.standardError.contains("--headless"), result.standardError)
        XCTAssertTrue(result.standardError.contains("xvfb-run"), result.standardError)
    }

    /// A `WAYLAND_DISPLAY` with no compositor behind it (and no `DISPLAY`) ends with exit 1 and one line.
    func testABogusWAYLAND_DISPLAYIsReportedInsteadOfAnInvisibleWindow() throws {
        let result = try AnimDemoProcess.assertRefused(
            ["--assets", assets], status: 1, saying: "WAYLAND_DISPLAY=wayland-nonexistent names no display",
            environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": "wayland-nonexistent", "SDL_VIDEODRIVER": nil])
        XCTAssertTrue(result.standardError.contains("--headless"), result.standardError)
    }

    /// `--headless`, or a driver chosen with `SDL_VIDEODRIVER`, runs despite a stale `DISPLAY`.
    func testAStaleDisplayIsFineWithHeadlessOrAChosenDriver() throws {
        let display = unusedDisplay()
        for (arguments, driver) in [(["--headless"], nil), ([], "offscreen")] as [([String], String?)] {
            let result = try AnimDemoProcess.run(
                arguments + ["--frames", "3", "--sprites", "20", "--assets", assets],
                environment: ["DISPLAY": display, "WAYLAND_DISPLAY": nil, "SDL_VIDEODRIVER": driver], timeout: 30)
            XCTAssertEqual(
                result.status, 0, "\(arguments) SDL_VIDEODRIVER=\(driver ?? "unset"): \(result.standardError)")
            XCTAssertTrue(result.exitedNormally)
        }
    }

    // MARK: Headless runs

    func testAHeadlessRunReportsEveryInjectedStallBlamedOnTheStallAndScreenshotsSprites() throws {
        let report = AnimDemoProcess.temporaryPath(".json")
        let screenshot = AnimDemoProcess.temporaryPath(".png")
        defer {
            try? FileManager.default.removeItem(atPath: report)
            try? FileManager.default.removeItem(atPath: screenshot)
        }
        let result = try AnimDemoProcess.run(
            [
                "--headless", "--frames", "150", "--sprites", "300", "--seed", "7", "--stall-every", "30",
                "--stall-ms", "250", "--report", report, "--screenshot", screenshot, "--assets", assets,
            ], environment: ["SDL_VIDEODRIVER": nil], timeout: 120)
        XCTAssertTrue(result.exitedNormally && result.status == 0, "\(result.status): \(result.standardError)")
        XCTAssertTrue(result.standardOutput.contains("Report: \(report)"), result.standardOutput)

        let parsed = try AnimDemoReport.load(report)
        XCTAssertEqual(parsed.framesRun, 150)
        XCTAssertEqual(parsed.statistics.frames, 149, "150 frames make 149 intervals")
        XCTAssertEqual(parsed.sprites, 300)
        XCTAssertEqual(parsed.seed, 7)
        XCTAssertTrue(parsed.headless)
        XCTAssertEqual(parsed.videoDriver, "dummy")
        XCTAssertEqual(parsed.endedBy, "frames")
        XCTAssertEqual(parsed.pacingMode, "deadline", "the dummy driver does not honour vsync")
        XCTAssertFalse(parsed.statistics.pacing.isEmpty)

        // Stalls on frames 30, 60, 90, 120 (not on the last frame, whose late successor never comes).
        // A 250 ms stall outlasts anything else a frame does, even on a busy machine (300 sprites
        // drawn in software), so it is the culprit of its drop, and its wait would have to end 250 ms
        // late for the drop to count as a gap (the process not running) instead.
        XCTAssertEqual(parsed.injectedStalls.map(\.frame), [30, 60, 90, 120])
        for stall in parsed.injectedStalls {
            XCTAssertGreaterThanOrEqual(stall.milliseconds, 249)
            let drop = parsed.statistics.drops.first { $0.frame == stall.frame + 1 }
            XCTAssertNotNil(drop, "the stall in frame \(stall.frame) is not reported as a drop")
            guard let drop else { continue }
            XCTAssertEqual(drop.culprit, parsed.stallLabel, "frame \(drop.frame) must be blamed on the stall")
            XCTAssertEqual(drop.culprit, "injected stall")
            XCTAssertEqual(drop.phase, "links")
            XCTAssertGreaterThanOrEqual(drop.droppedFrames, 14, "a 250 ms stall at 60 Hz drops about 15 frames")
            XCTAssertGreaterThanOrEqual(drop.culpritMilliseconds, 249)
            XCTAssertNil(drop.gapMilliseconds, "the stall ran: it is not a gap")
        }
        XCTAssertGreaterThanOrEqual(parsed.statistics.dropEvents, 4)

        // The screenshot is a 1280×720 PNG with sprites in the part of the canvas the HUD leaves free.
        let header = try XCTUnwrap(FileManager.default.contents(atPath: screenshot)).prefix(8)
        XCTAssertEqual(Array(header), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "not a PNG")
        let image = try XCTUnwrap(SDLTestSupport.pixels(ofImageAt: screenshot))
        XCTAssertEqual(image.width, 1280)
        XCTAssertEqual(image.height, 720)
        let background: UInt32 = 0xFF12_141C  // (18, 20, 28)
        var covered = 0
        var colours: Set<UInt32> = []
        for y in 150..<500 {
            for x in 520..<1100 {
                let pixel = image.argb[y * image.width + x]
                if pixel != background { covered += 1 }
                colours.insert(pixel)
            }
        }
        let share = Double(covered) / Double(350 * 580)
        XCTAssertGreaterThan(share, 0.05, "only \(share * 100) % of the free canvas differs from the background")
        XCTAssertGreaterThan(colours.count, 20, "a frame of sprites has many colours, got \(colours.count)")
    }

    func testAProgressLineIsShownOnATerminalOnly() throws {
        let arguments = ["--headless", "--frames", "150", "--sprites", "50", "--assets", assets]
        let toFile = try AnimDemoProcess.run(arguments, environment: ["SDL_VIDEODRIVER": nil])
        XCTAssertEqual(toFile.status, 0, toFile.standardError)
        XCTAssertEqual(toFile.standardError, "", "no progress line when stderr is not a terminal")

        // `script` gives the demo a pseudo-terminal (util-linux; part of every Debian install).
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            throw XCTSkip("/usr/bin/script is not installed")
        }
        let executable = try AnimDemoProcess.requireExecutable().path
        let command = ([executable] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        // Under `timeout`: a run that hangs ends (and fails) instead of hanging the suite.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["120", "/usr/bin/script", "-qec", command, "/dev/null"]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("\rAnimDemo: frame "), "no progress line on a terminal: \(text.debugDescription)")
        XCTAssertTrue(text.contains("/150, "), text)
    }

    func testTheSameSeedDrawsTheSamePictureHeadless() throws {
        var images: [[UInt32]] = []
        for seed in ["3", "3", "4"] {
            let screenshot = AnimDemoProcess.temporaryPath(".png")
            defer { try? FileManager.default.removeItem(atPath: screenshot) }
            let result = try AnimDemoProcess.run(
                [
                    "--headless", "--frames", "12", "--sprites", "200", "--seed", seed, "--no-hud", "--screenshot",
                    screenshot, "--assets", assets,
                ], environment: ["SDL_VIDEODRIVER": nil])
            XCTAssertEqual(result.status, 0, result.standardError)
            images.append(try XCTUnwrap(SDLTestSupport.pixels(ofImageAt: screenshot)).argb)
        }
        XCTAssertTrue(images[0] == images[1], "the same seed must draw the same frame")
        XCTAssertFalse(images[0] == images[2], "another seed must draw another frame")
    }

}

/// AnimDemo in a real X11 window: run under Xvfb (`xvfb-run -a swift test`); skipped without a
/// `DISPLAY`.
final class AnimDemoXvfbTests: XCTestCase {
    private var assets: String { AnimDemoProcess.assetsFolder }

    private func requireDisplay() throws {
        guard let display = ProcessInfo.processInfo.environment["DISPLAY"], !display.isEmpty else {
            throw XCTSkip("DISPLAY is not set: run under an X server, e.g. `xvfb-run -a swift test`")
        }
    }

    func testAWindowedRunUnderXvfbDrawsAndReports() throws {
        try requireDisplay()
        let report = AnimDemoProcess.temporaryPath(".json")
        let screenshot = AnimDemoProcess.temporaryPath(".png")
        defer {
            try? FileManager.default.removeItem(atPath: report)
            try? FileManager.default.removeItem(atPath: screenshot)
        }
        let result = try AnimDemoProcess.run(
            ["--frames", "40", "--sprites", "500", "--report", report, "--screenshot", screenshot, "--assets", assets],
            environment: ["SDL_VIDEODRIVER": nil])
        XCTAssertEqual(result.status, 0, result.standardError)
        let parsed = try AnimDemoReport.load(report)
        XCTAssertEqual(parsed.videoDriver, "x11")
        XCTAssertFalse(parsed.headless)
        XCTAssertEqual(parsed.framesRun, 40)
        XCTAssertTrue(parsed.statistics.pacing.hasPrefix(parsed.pacingMode), parsed.statistics.pacing)
        let image = try XCTUnwrap(SDLTestSupport.pixels(ofImageAt: screenshot))
        let distinct = Set(image.argb).count
        XCTAssertGreaterThan(distinct, 20, "the window's frame looks blank (\(distinct) colours)")
    }

    func testClosingTheWindowEndsTheRunCleanlyWithTheReportWritten() throws {
        try requireDisplay()
        let script = AnimDemoProcess.packageRoot.appendingPathComponent("scripts/x11_close_window.py").path
        let report = AnimDemoProcess.temporaryPath(".json")
        defer { try? FileManager.default.removeItem(atPath: report) }
        let looping = Shared(false)
        let closerStatus = Shared<Int32?>(nil)
        let result = try AnimDemoProcess.run(
            ["--frames", "100000", "--sprites", "100", "--report", report, "--assets", assets],
            environment: ["SDL_VIDEODRIVER": nil], timeout: 180
        ) { demo in
            // Once the loop runs (the window is open), ask the window to close (WM_DELETE_WINDOW).
            looping.value = demo.waitUntilLooping()
            closerStatus.value = Self.runTool(["python3", script, "FrameLink AnimDemo", "60"])
        }
        XCTAssertTrue(looping.value, "the frame loop never ran: \(result.standardError)")
        XCTAssertEqual(closerStatus.value, 0, "the close script could not reach the window")
        XCTAssertFalse(result.timedOut, "closing the window did not end the run")
        XCTAssertTrue(result.exitedNormally)
        XCTAssertEqual(result.status, 0, result.standardError)
        let parsed = try AnimDemoReport.load(report)
        XCTAssertEqual(parsed.endedBy, "window closed")
        XCTAssertGreaterThan(parsed.framesRun, 0, "the window was closed once the loop had run")
        XCTAssertLessThan(parsed.framesRun, 100_000)
    }

    /// Runs a tool (through `env`, under `timeout 90`: nothing it does may hang the suite) and returns
    /// its exit status (124 when it timed out).
    private static func runTool(_ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["90", "/usr/bin/env"] + arguments
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    func testTheKeysWorkAndEscapeQuits() throws {
        try requireDisplay()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool") else {
            throw XCTSkip("xdotool is not installed (apt-get install xdotool)")
        }
        let report = AnimDemoProcess.temporaryPath(".json")
        defer { try? FileManager.default.removeItem(atPath: report) }
        let failures = Shared<[String]>([])
        let result = try AnimDemoProcess.run(
            ["--frames", "100000", "--sprites", "100", "--stall-ms", "250", "--report", report, "--assets", assets],
            environment: ["SDL_VIDEODRIVER": nil], timeout: 240
        ) { demo in
            // X delivers the keys in order; what needs a frame in between is waited for, not slept on.
            func press(_ key: String) {
                let status = Self.runTool(
                    ["xdotool", "search", "--sync", "--name", "FrameLink AnimDemo", "key", "--window", "%1", key])
                if status != 0 { failures.value.append("xdotool key \(key): exit status \(status)") }
            }
            guard demo.waitUntilLooping() else { return failures.value.append("the frame loop never ran") }
            // +: 200 sprites; S: one stall (seen, then frames after it, so its drop is booked before Esc).
            press("plus")
            press("s")
            guard demo.waitUntilStalled() else { return failures.value.append("S did not stall the loop") }
            guard demo.waitUntilLooping() else { return failures.value.append("the loop did not go on") }
            // T: slow motion; 1: sprite link at 30 Hz; V, H, space: no crash.
            for key in ["t", "1", "v", "h", "space", "h", "space", "Escape"] { press(key) }
        }
        XCTAssertEqual(failures.value, [])
        XCTAssertFalse(result.timedOut, "Esc did not end the run")
        XCTAssertEqual(result.status, 0, result.standardError)
        let parsed = try AnimDemoReport.load(report)
        XCTAssertEqual(parsed.endedBy, "escape")
        XCTAssertEqual(parsed.sprites, 200, "+ doubles the sprites")
        XCTAssertEqual(parsed.timeScale, 0.25, "T switches to slow motion")
        XCTAssertEqual(parsed.injectedStalls.count, 1, "S injects one stall")
        XCTAssertGreaterThanOrEqual(parsed.injectedStalls.first?.milliseconds ?? 0, 249)
        let stall = try XCTUnwrap(parsed.injectedStalls.first)
        let drop = parsed.statistics.drops.first { $0.frame == stall.frame + 1 }
        XCTAssertEqual(drop?.culprit, "injected stall", "a 250 ms stall outlasts anything else a frame does")
    }
}
