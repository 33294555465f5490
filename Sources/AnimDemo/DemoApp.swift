import CSDL2
import Foundation
import FrameLink
import FrameLinkSDL

/// The settings AnimDemo runs with, checked by the command line.
struct DemoOptions: Sendable {
    var sprites: Int
    var frames: Int?
    var headless: Bool
    var screenshotPath: String?
    var reportPath: String?
    var seed: UInt64
    var assetsFolder: String
    var width: Int
    var height: Int
    var refreshRate: FrameRate?
    var vsync: Bool
    var fontPath: String
}

/// An error that ends AnimDemo with one line on stderr and a non-zero exit status.
struct DemoError: Error, CustomStringConvertible {
    /// The line to print.
    var description: String
}

/// AnimDemo itself, laid out as a game would be: initialization (window, atlas, scene, HUD, timers),
/// the main loop (events, update, draw — run by FrameLink), and de-initialization.
@MainActor
final class DemoApp {
    private let options: DemoOptions
    private let atlas: SpriteAtlas
    private let host: SDLHost
    private let scene: Scene
    private let hud: HUD
    private var text: TextRenderer?
    private var timers: [FrameTimer] = []

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
        if options.headless {
            // Keep a driver the caller chose (e.g. offscreen); otherwise no display is needed.
            setenv("SDL_VIDEODRIVER", "dummy", 0)
            setenv("SDL_RENDER_DRIVER", "software", 0)
        }
        do {
            host = try SDLHost(
                title: "FrameLink AnimDemo — \(options.sprites) sprites", width: options.width,
                height: options.height, vsync: options.vsync, refreshRate: options.refreshRate,
                hidden: options.headless)
        } catch {
            atlas.destroy()
            throw DemoError(description: "cannot open the window: \(error)")
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

        do {
            text = try TextRenderer(fontPath: options.fontPath, pointSize: 14)
        } catch {
            Self.printError("warning: the HUD is drawn without text: \(error)")
            text = nil
        }
        scene = Scene(count: options.sprites, width: options.width, height: options.height, seed: options.seed)
        hud = HUD(
            statistics: host.loop.statistics, budget: host.refreshRate.period, width: options.width,
            height: options.height, text: text)
    }

    /// Runs the demo until the window is closed, Esc is pressed, or `--frames` frames have run;
    /// then saves the screenshot and the report and prints the summary.
    func run() throws {
        scene.attach(to: host.loop)
        try installTimers()
        installHandlers()
        refreshHUDText()
        warmUp()

        let firstFrame = host.loop.frameIndex
        if let frames = options.frames {
            host.run(frames: frames)
        } else {
            host.run()
        }
        let framesRun = host.loop.frameIndex - firstFrame

        var failure: DemoError?
        if let path = options.screenshotPath {
            do {
                try host.screenshot(to: path)
            } catch {
                failure = DemoError(description: "cannot save the screenshot: \(error)")
            }
        }
        let report = DemoReport(
            host: host, framesRun: framesRun, sprites: options.sprites, seed: options.seed,
            headless: options.headless, videoDriver: SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none")
        if let path = options.reportPath, failure == nil {
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                try encoder.encode(report).write(to: URL(fileURLWithPath: path))
            } catch {
                failure = DemoError(description: "cannot write the report to \(path): \(error.localizedDescription)")
            }
        }
        shutDown()

        print(report.paragraph)
        if options.headless {
            print("Screenshot: \(options.screenshotPath ?? "none (add --screenshot PATH)")")
            print("Report: \(options.reportPath ?? "none (add --report PATH)")")
        }
        if let failure { throw failure }
    }

    // MARK: Setup

    private func installTimers() throws {
        // The clock: a .default timer, so it stops while the mouse drags (the loop is in .tracking).
        let clock = try FrameTimer(target: hud, interval: .seconds(1)) { hud, _ in hud.tick() }
        clock.label = "clock"
        clock.add(to: host.loop, forMode: .default)

        let text = try FrameTimer(target: self, interval: .milliseconds(250)) { app, _ in app.refreshHUDText() }
        text.label = "hud text"
        text.add(to: host.loop, forMode: .common)
        timers = [clock, text]

        if options.headless {
            let progress = try FrameTimer(target: self, interval: .seconds(1)) { app, _ in app.printProgress() }
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
        guard event.type == SDL_KEYDOWN.rawValue, event.key.repeat == 0 else { return }
        switch event.key.keysym.sym {
        case Int32(SDLK_ESCAPE.rawValue):
            host.loop.stop()
        case Int32(SDLK_SPACE.rawValue):
            scene.togglePause(now: host.loop.now)
            refreshHUDText()
        default:
            break
        }
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
        let statistics = host.loop.statistics
        hud.setLines([
            "\(format(hud.recentFramesPerSecond, decimals: 1)) fps   \(options.sprites) sprites   "
                + "dropped \(statistics.droppedFrames) in \(statistics.dropEvents) events",
            "mode: \(host.loop.currentMode)\(scene.isPaused ? "   sprites paused" : "")   "
                + "renderer: \(host.rendererName)",
            "[space] pause sprites   [drag] .tracking: the clock stops   [esc] quit",
        ])
    }

    private func printProgress() {
        let statistics = host.loop.statistics
        var line = "frame \(host.loop.frameIndex)"
        if let frames = options.frames { line += "/\(frames)" }
        line += ", \(format(hud.recentFramesPerSecond, decimals: 1)) fps, \(statistics.droppedFrames) dropped"
        Self.printError(line)
    }

    // MARK: Shutdown

    private func shutDown() {
        for timer in timers { timer.invalidate() }
        timers.removeAll()
        scene.link?.invalidate()
        host.eventHandler = nil
        host.renderHandler = nil
        atlas.destroy()
        text?.destroy()
        text = nil
        host.close()
    }

    /// Prints `message` on stderr, prefixed with the program's name.
    static func printError(_ message: String) {
        FileHandle.standardError.write(Data("AnimDemo: \(message)\n".utf8))
    }
}
