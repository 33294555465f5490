import CSDL2
import Foundation
// The presentation log compares with the compositor in CLOCK_MONOTONIC: it needs the source epoch.
@_spi(FrameSourceImplementation) import FrameLink
import FrameLinkSDL

/// AnimDemo itself, laid out as a game would be: initialization (window, atlas, scene, HUD, timers),
/// the main loop (events, update, draw — run by FrameLink), and de-initialization.
@MainActor
final class DemoApp {
    /// How a run ended.
    struct Outcome {
        /// What ended it: `"frames"`, `"escape"`, `"window closed"`, `"SIGINT"`, `"SIGTERM"` or `"SIGHUP"`.
        var endedBy: String
        /// The signal that ended the run, if one did.
        var signal: Int32?
        /// One line for each output that could not be written (screenshot first, then report).
        var failures: [String] = []
    }

    private let options: DemoOptions
    private let atlas: SpriteAtlas
    private let host: SDLHost
    private let scene: Scene
    private let hud: HUD
    private let stalls: StallInjector
    private var text: TextRenderer?
    private var timers: [FrameTimer] = []
    private var endedBy: String?
    private var receivedSignal: Int32?
    private var isShowingProgress = false
    /// The compositor's answers, kept for `--presentation-log`.
    private var presentationLog = PresentationLog()
    private let videoDriver: String

    /// Loads the atlas (before any window opens, so a missing file is reported first), opens the
    /// window and builds the scene.
    init(options: DemoOptions) throws {
        self.options = options
        let atlasPath = (options.assetsFolder as NSString).appendingPathComponent("sprites.png")
        do {
            atlas = try SpriteAtlas(contentsOf: atlasPath)
        } catch {
            throw DemoError(description: "cannot load the sprite atlas: \(error)")
        }
        if !options.headless, let problem = Self.missingDisplay() {
            atlas.destroy()
            throw DemoError(description: problem)
        }
        let chosenDriver = ProcessInfo.processInfo.environment["SDL_VIDEODRIVER"] ?? ""
        if options.headless {
            // Keep a driver the caller chose (e.g. offscreen); otherwise no display is needed.
            setenv("SDL_VIDEODRIVER", "dummy", 0)
            setenv("SDL_RENDER_DRIVER", "software", 0)
        }
        // What SDL's drivers print while they probe (libwayland on a stale WAYLAND_DISPLAY) is held back:
        // passed on after a good start, dropped when the error line below says it better.
        let (created, driverMessages) = captureStandardError {
            Result { () throws(SDLError) -> SDLHost in
                try SDLHost(
                    title: "FrameLink AnimDemo", width: options.width, height: options.height,
                    vsync: options.vsync, refreshRate: options.refreshRate, hidden: options.headless)
            }
        }
        switch created {
        case .success(let created): host = created
        case .failure(let error):
            atlas.destroy()
            throw DemoError(description: Self.explainWindowFailure(error, headless: options.headless))
        }
        videoDriver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
        if !options.headless, chosenDriver.isEmpty, let problem = Self.staleDisplay(driver: videoDriver) {
            atlas.destroy()
            host.close()
            throw DemoError(description: problem)
        }
        if !driverMessages.isEmpty {
            FileHandle.standardError.write(Data(driverMessages.utf8))
        }
        guard let renderer = host.renderer else { throw DemoError(description: "the renderer is gone") }
        do {
            try SDLError.check(
                SDL_RenderSetLogicalSize(renderer, Int32(options.width), Int32(options.height)),
                "SDL_RenderSetLogicalSize")
            try atlas.makeTexture(renderer: renderer)
        } catch {
            atlas.destroy()
            host.close()
            throw DemoError(description: "cannot prepare the renderer: \(error)")
        }

        host.loop.minimizesInputLatency = options.latencyMode
        host.source.variableRefreshRange = options.variableRefresh
        host.loop.preferredFrameRateRange = options.frameRateRange
        switch options.pacing {
        case .auto: break
        case .vsync: host.source.pacing = .vsync
        case .deadline: host.source.pacing = .deadline
        case .off:
            // The renderer has no vsync flag, so a source that trusts present to block on vsync
            // starts each frame as soon as the last one is presented: no pacing at all.
            host.source.pacing = .vsync
            host.source.note = (host.source.note.map { "\($0); " } ?? "") + "--pacing off: frames are not paced"
        }

        if options.showsHUD {
            do {
                text = try TextRenderer(fontPath: options.fontPath, pointSize: 14)
            } catch {
                printError("warning: the HUD is drawn without text: \(error)")
                text = nil
            }
        }
        let timeline: Scene.Timeline = options.headless ? .fixedStep(host.refreshRate.period) : .realTime
        scene = Scene(
            count: options.sprites, width: options.width, height: options.height, seed: options.seed,
            timeline: timeline)
        if options.motion == .engine {
            // Headless runs animate on virtual time that follows the fixed-step game clock, so frame N
            // is the same on every run; with a window the animator runs on the host's loop, in .common.
            scene.motion = EngineMotion(
                width: options.width, height: options.height, seed: options.seed,
                loop: options.headless ? nil : host.loop)
        }
        hud = HUD(
            statistics: host.loop.statistics, budget: host.refreshRate.period, width: options.width,
            height: options.height, text: text)
        hud.isHidden = !options.showsHUD
        stalls = StallInjector(duration: options.stallDuration, every: options.stallEvery)
    }

    /// Runs the demo until the window is closed, Esc is pressed, a signal arrives, or `--frames`
    /// frames have run; then saves the screenshot and the report and prints the summary.
    ///
    /// An output that cannot be written is left as it was and listed in ``Outcome/failures``.
    /// - Throws: When the HUD's timers cannot be created.
    func run() throws -> Outcome {
        scene.attach(to: host.loop)
        stalls.attach(to: host.loop)
        try installTimers()
        installHandlers()
        refreshHUDText()
        warmUp()

        if let path = options.screenshotPath { OutputFile.expect("the screenshot", at: path) }
        if let path = options.reportPath { OutputFile.expect("the report", at: path) }
        if let path = options.logPath {
            OutputFile.expect("the frame log", at: path)
            // Room for the run up front (no growth mid-run), up to a minute at 240 Hz; a longer
            // log grows as it goes rather than reserving gigabytes before the first frame.
            host.loop.frameLog = FrameLog(
                periodNanoseconds: host.loop.refreshRate.periodNanoseconds,
                capacity: min(options.frames ?? 3_600, 14_400))
        }
        if let path = options.presentationLogPath {
            OutputFile.expect("the presentation log", at: path)
            presentationLog.reserve(options.frames ?? 3_600)
            let epoch = host.source.epochNanoseconds
            host.presentationReportHandler = { [weak self] report in
                self?.presentationLog.append(report, epochNanoseconds: epoch)
            }
        }
        InterruptSignal.loopWillRun()
        let firstFrame = host.loop.frameIndex
        if let frames = options.frames {
            stalls.lastFrame = firstFrame + Int64(frames)
            host.run(frames: frames)
        } else {
            host.run()
        }
        let framesRun = host.loop.frameIndex - firstFrame
        if isShowingProgress { FileHandle.standardError.write(Data("\n".utf8)) }
        var outcome = Outcome(
            endedBy: endedBy ?? (options.frames != nil ? "frames" : "window closed"), signal: receivedSignal)

        // Each output is written whole or not at all (OutputFile); a failure does not stop the other.
        var screenshotWritten = false
        if let path = options.screenshotPath {
            do throws(DemoError) {
                let png = try ScreenshotCapture.png(of: host, for: path)
                try OutputFile.write(png, to: path, label: "the screenshot")
                screenshotWritten = true
            } catch {
                outcome.failures.append(error.description)
            }
        }
        let report = DemoReport(
            host: host, framesRun: framesRun, sprites: scene.count, options: options, videoDriver: videoDriver,
            stalls: stalls.stalls, timeScale: scene.clock.timeScale, endedBy: outcome.endedBy)
        var reportWritten = false
        if let path = options.reportPath {
            do throws(DemoError) {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                let data: Data
                do {
                    data = try encoder.encode(report)
                } catch {
                    throw DemoError(description: "cannot encode the report for \(path): \(error)")
                }
                try OutputFile.write(data, to: path, label: "the report")
                reportWritten = true
            } catch {
                outcome.failures.append(error.description)
            }
        }
        var logWritten = false
        if let path = options.logPath, let log = host.loop.frameLog {
            do throws(DemoError) {
                do {
                    try log.validate()
                } catch {
                    throw DemoError(description: "cannot write the frame log to \(path): \(error)")
                }
                let isJSON = path.hasSuffix(".jsonl") || path.hasSuffix(".json")
                try OutputFile.write(Data((isJSON ? log.jsonLines : log.csv).utf8), to: path, label: "the frame log")
                logWritten = true
            } catch {
                outcome.failures.append(error.description)
            }
        }
        // (Closing the host reports the frames the compositor has not answered yet.)
        shutDown()
        var presentationLogWritten = false
        if let path = options.presentationLogPath {
            do throws(DemoError) {
                try OutputFile.write(Data(presentationLog.csv.utf8), to: path, label: "the presentation log")
                presentationLogWritten = true
            } catch {
                outcome.failures.append(error.description)
            }
        }

        print(report.paragraph)
        print(
            "Screenshot: \(Self.describe(options.screenshotPath, written: screenshotWritten, option: "--screenshot"))")
        print("Report: \(Self.describe(options.reportPath, written: reportWritten, option: "--report"))")
        print("Frame log: \(Self.describe(options.logPath, written: logWritten, option: "--log"))")
        print(
            "Presentation log: "
                + Self.describe(
                    options.presentationLogPath, written: presentationLogWritten, option: "--presentation-log"))
        return outcome
    }

    /// How the summary names an output: its path, "not written", or how to ask for it.
    private static func describe(_ path: String?, written: Bool, option: String) -> String {
        guard let path else { return "none (add \(option) PATH)" }
        return written ? path : "\(path) was not written (see the error)"
    }

    // MARK: Setup

    private func installTimers() throws {
        // The clock: a .default timer, so it stops while the mouse drags (the loop is in .tracking).
        let clock = FrameTimer(target: hud, interval: .seconds(1)) { hud, _ in hud.tick() }
        clock.label = "clock"
        clock.add(to: host.loop, forMode: .default)

        let text = FrameTimer(target: self, interval: .milliseconds(250)) { app, _ in app.refreshHUDText() }
        text.label = "hud text"
        text.add(to: host.loop, forMode: .common)

        // Signals are checked between frames, as input is: the run then ends like a closed window.
        let signals = FrameTimer(target: self, interval: .milliseconds(50)) { app, _ in app.checkSignals() }
        signals.label = "signals"
        signals.add(to: host.loop, forMode: .common)
        timers = [clock, text, signals]

        if options.frames != nil, isatty(STDERR_FILENO) != 0 {
            let progress = FrameTimer(target: self, interval: .seconds(1)) { app, _ in app.printProgress() }
            progress.label = "progress"
            progress.add(to: host.loop, forMode: .common)
            timers.append(progress)
        }
    }

    private func installHandlers() {
        host.eventHandler = { [weak self] event in
            self?.handle(event)
        }
        host.renderHandler = { [weak self] renderer in
            self?.draw(on: renderer)
        }
    }

    /// Draws and presents one frame before the loop starts, as a loading screen would: the first
    /// draw compiles the renderer's shaders and uploads the atlas (tens of milliseconds with Mesa's
    /// llvmpipe), which would otherwise show up as a dropped frame in the report.
    private func warmUp() {
        guard let renderer = host.renderer else { return }
        draw(on: renderer)
        SDL_RenderPresent(renderer)
    }

    // MARK: Main loop

    private func handle(_ event: SDL_Event) {
        scene.motion.handle(event)
        if event.type == SDL_QUIT.rawValue, endedBy == nil {
            endedBy = "window closed"
        }
        guard event.type == SDL_KEYDOWN.rawValue, event.key.repeat == 0 else { return }
        let key = event.key.keysym.sym
        switch key {
        case Int32(SDLK_ESCAPE.rawValue):
            endedBy = "escape"
            host.loop.stop()
        case Int32(SDLK_SPACE.rawValue):
            scene.togglePause()
        case Int32(SDLK_PLUS.rawValue), Int32(SDLK_EQUALS.rawValue), Int32(SDLK_KP_PLUS.rawValue):
            scene.setCount(min(scene.count * 2, DemoOptions.maximumSprites))
        case Int32(SDLK_MINUS.rawValue), Int32(SDLK_KP_MINUS.rawValue):
            scene.setCount(max(scene.count / 2, 1))
        case Int32(SDLK_s.rawValue):
            stalls.requestStall()
        case Int32(SDLK_v.rawValue):
            host.source.pacing = host.source.mode == .vsync ? .deadline : .vsync
        case Int32(SDLK_1.rawValue):
            scene.link?.preferredFrameRate = .hz30
        case Int32(SDLK_2.rawValue):
            scene.link?.preferredFrameRate = .hz60
        case Int32(SDLK_3.rawValue):
            scene.link?.preferredFrameRate = .hz120
        case Int32(SDLK_4.rawValue):
            scene.link?.preferredFrameRate = nil
        case Int32(SDLK_t.rawValue):
            scene.toggleSlowMotion()
        case Int32(SDLK_h.rawValue):
            hud.isHidden.toggle()
        case Int32(SDLK_l.rawValue):
            host.loop.minimizesInputLatency.toggle()
        default:
            return
        }
        refreshHUDText()
    }

    private func checkSignals() {
        guard receivedSignal == nil, let received = InterruptSignal.pending else { return }
        receivedSignal = received
        endedBy = InterruptSignal.name(of: received)
        host.loop.stop()
    }

    private func draw(on renderer: OpaquePointer) {
        SDL_SetRenderDrawColor(renderer, 18, 20, 28, 255)
        SDL_RenderClear(renderer)
        if let texture = atlas.texture {
            scene.draw(on: renderer, atlas: texture)
        }
        hud.draw(on: renderer)
    }

    private func refreshHUDText() {
        guard !hud.isHidden else { return }
        let statistics = host.loop.statistics
        let rate = scene.link?.preferredFrameRate.map { "\($0)" } ?? "display rate"
        let timeScale = scene.clock.timeScale == 1 ? "1×" : "\(format(scene.clock.timeScale, decimals: 2))× (slow)"
        hud.setLines([
            "\(format(hud.recentFramesPerSecond, decimals: 1)) fps   frame \(format(hud.lastFrameMilliseconds, decimals: 1)) ms"
                + "   dropped \(statistics.droppedFrames) in \(statistics.dropEvents) events   hitch ratio "
                + "\(format(statistics.hitchTimeRatio, decimals: 1)) ms/s",
            "pacing: \(host.source.mode.rawValue)\(options.pacing == .off ? " (off)" : "") at \(host.source.refreshRate)"
                + "   \(scene.count) sprites at \(rate)   time \(timeScale)\(scene.isPaused ? "   PAUSED" : "")",
            "mode: \(host.loop.currentMode)   renderer: \(host.rendererName)",
            inputLatencyLine(statistics),
            "[space] pause  [+/-] sprites  [S] stall  [V] vsync/deadline  [1-4] 30/60/120/display Hz",
            "[T] slow motion  [L] latency mode  [H] hide HUD  [drag] .tracking: the clock stops  [esc] quit",
        ])
    }

    /// The HUD's input line: latency mode, and input-to-screen latency once input was measured.
    private func inputLatencyLine(_ statistics: FrameStatistics) -> String {
        var line = "latency mode \(host.loop.minimizesInputLatency ? "on" : "off")"
        if host.loop.minimizesInputLatency {
            line += " (margin \(format((host.loop.inputLatencyMargin / .milliseconds(1)), decimals: 1)) ms)"
        }
        guard statistics.inputEvents > 0 else { return line + "   input to screen: no input yet" }
        return line + "   input to screen p50 "
            + "\(format((statistics.inputLatency(atPercentile: 50) / .milliseconds(1)), decimals: 1)) p99 "
            + "\(format((statistics.inputLatency(atPercentile: 99) / .milliseconds(1)), decimals: 1)) max "
            + "\(format((statistics.longestInputLatency / .milliseconds(1)), decimals: 1)) ms"
    }

    private func printProgress() {
        let statistics = host.loop.statistics
        var line = "\rAnimDemo: frame \(host.loop.frameIndex)"
        if let frames = options.frames { line += "/\(frames)" }
        line += ", \(format(hud.recentFramesPerSecond, decimals: 1)) fps, \(statistics.droppedFrames) dropped   "
        FileHandle.standardError.write(Data(line.utf8))
        isShowingProgress = true
    }

    // MARK: Shutdown

    private func shutDown() {
        for timer in timers { timer.invalidate() }
        timers.removeAll()
        scene.link?.invalidate()
        scene.motion.invalidate()
        stalls.invalidate()
        host.eventHandler = nil
        host.renderHandler = nil
        atlas.destroy()
        text?.destroy()
        text = nil
        host.close()
    }

    /// Why a window cannot be shown, or `nil` when there is a display (or the caller chose SDL's video
    /// driver with `SDL_VIDEODRIVER`). Without a display SDL would fall back to its offscreen driver
    /// and run an invisible window.
    private static func missingDisplay() -> String? {
        let environment = ProcessInfo.processInfo.environment
        let isSet = { (name: String) in !(environment[name] ?? "").isEmpty }
        guard !isSet("DISPLAY"), !isSet("WAYLAND_DISPLAY"), !isSet("SDL_VIDEODRIVER") else { return nil }
        return "there is no display to open a window on (DISPLAY and WAYLAND_DISPLAY are not set): run under "
            + "Xvfb (xvfb-run -a AnimDemo …) or with --headless --frames N"
    }

    /// Why the window SDL opened is not on a display, or `nil` when it is: with `DISPLAY` or
    /// `WAYLAND_DISPLAY` set but naming no server SDL can reach, SDL falls back to its offscreen (or
    /// dummy) driver and would run an invisible window. Only asked when the caller chose no driver.
    private static func staleDisplay(driver: String) -> String? {
        guard driver == "offscreen" || driver == "dummy" else { return nil }
        let environment = ProcessInfo.processInfo.environment
        let named = ["DISPLAY", "WAYLAND_DISPLAY"].compactMap { name in
            environment[name].flatMap { $0.isEmpty ? nil : "\(name)=\($0)" }
        }
        guard !named.isEmpty else { return nil }
        let verb = named.count == 1 ? "names" : "name"
        return "\(named.joined(separator: " and ")) \(verb) no display SDL can open (SDL fell back to its "
            + "invisible \(driver) driver): start or fix the display, run under Xvfb (xvfb-run -a AnimDemo …), or "
            + "use --headless --frames N (or choose a driver with SDL_VIDEODRIVER)"
    }

    /// One line that says why the window could not be opened.
    private static func explainWindowFailure(_ error: SDLError, headless: Bool) -> String {
        headless
            ? "cannot start SDL's headless video driver: \(error)"
            : "cannot open the window: \(error) (without a display, run under xvfb-run or with --headless)"
    }
}
