import ArgumentParser
import Foundation
import FrameLink

/// The FrameLink demo: thousands of rotating sprites animated by a display link, a `.default` clock
/// timer that stops while you drag, and a frame-time HUD; with `--headless --frames N` it runs
/// without a display and writes a screenshot and a JSON frame report.
@main
struct AnimDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "AnimDemo",
        abstract: "Animate sprites with FrameLink and report frame pacing.",
        discussion: """
            Keys: space pauses and resumes the sprites; Esc or closing the window quits. Drag with \
            the left mouse button to put the loop in .tracking mode: the clock (a .default timer) \
            stops while the sprites (a .common display link) keep moving.
            """)

    @Option(help: "Number of sprites (1...100000).")
    var sprites = 1000

    @Option(help: "Run this many frames, then exit (required with --headless).")
    var frames: Int?

    @Flag(help: "Run without a display (SDL's dummy video driver and the software renderer).")
    var headless = false

    @Option(help: ArgumentHelp("Save the last frame as a PNG file.", valueName: "path"))
    var screenshot: String?

    @Option(help: ArgumentHelp("Write a JSON frame report.", valueName: "path"))
    var report: String?

    @Option(help: "Seed for sprite placement and motion (same seed, same sprites).")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Folder that holds sprites.png.", valueName: "dir"))
    var assets = "./assets"

    @Option(help: "Window width (64...7680).")
    var width = 1280

    @Option(help: "Window height (64...4320).")
    var height = 720

    @Option(help: ArgumentHelp("Pace to this rate instead of the display's (1...1000 Hz).", valueName: "hz"))
    var refreshRate: Double?

    @Flag(inversion: .prefixedNo, help: "Ask the renderer for vsync.")
    var vsync = true

    @Option(help: ArgumentHelp("TrueType font for the HUD text.", valueName: "path"))
    var font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    mutating func validate() throws {
        guard (1...100_000).contains(sprites) else {
            throw ValidationError("--sprites \(sprites) is out of range: use 1...100000")
        }
        if let frames, frames <= 0 {
            throw ValidationError("--frames \(frames) must be at least 1")
        }
        if headless && frames == nil {
            throw ValidationError("--headless needs --frames N: nothing could end the run otherwise")
        }
        guard (64...7680).contains(width) else {
            throw ValidationError("--width \(width) is out of range: use 64...7680")
        }
        guard (64...4320).contains(height) else {
            throw ValidationError("--height \(height) is out of range: use 64...4320")
        }
        if let refreshRate {
            guard refreshRate.isFinite, (1...1000).contains(refreshRate) else {
                throw ValidationError("--refresh-rate \(refreshRate) must be a number of hertz in 1...1000")
            }
        }
        for (name, path) in [("--screenshot", screenshot), ("--report", report)] {
            guard let path else { continue }
            guard !path.isEmpty else { throw ValidationError("\(name) needs a file path") }
            let folder = (path as NSString).deletingLastPathComponent
            var isDirectory: ObjCBool = false
            if !folder.isEmpty,
                !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory)
                    || !isDirectory.boolValue
            {
                throw ValidationError("\(name) \(path): the folder \(folder) does not exist")
            }
        }
        if assets.isEmpty { throw ValidationError("--assets needs a folder") }
    }

    func run() throws {
        let options: DemoOptions
        do {
            options = DemoOptions(
                sprites: sprites, frames: frames, headless: headless, screenshotPath: screenshot,
                reportPath: report, seed: seed, assetsFolder: assets, width: width, height: height,
                refreshRate: try refreshRate.map { try FrameRate(framesPerSecond: $0) }, vsync: vsync,
                fontPath: font)
        } catch {
            throw ValidationError("--refresh-rate: \(error)")
        }
        do {
            try MainActor.assumeIsolated {
                let app = try DemoApp(options: options)
                try app.run()
            }
        } catch {
            // One clear line, no stack trace, non-zero exit.
            MainActor.assumeIsolated { DemoApp.printError("error: \(error)") }
            throw ExitCode.failure
        }
    }
}
