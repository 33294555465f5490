import ArgumentParser
import Foundation
import FrameLink
import Logging

/// The FrameLink demo: a window of rotating sprites moved by a display link, a `.default` clock
/// timer that stops while you drag, and a HUD that shows frame pacing live; with
/// `--headless --frames N` it runs without a display and writes a screenshot and a JSON report.
@main
struct AnimDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "AnimDemo",
        abstract: "Animate sprites with FrameLink and report frame pacing and dropped frames.",
        discussion: """
            Keys: space pause/resume · + / - double/halve the sprites · S inject a stall · V switch \
            vsync <-> deadline pacing · 1 2 3 4 sprite link at 30/60/120 Hz/display rate · T slow \
            motion · H hide the HUD · Esc or closing the window quits. Drag with the left mouse button \
            to put the loop in .tracking mode: the clock (a .default timer) stops while the sprites \
            (a .common display link) keep moving.

            Outputs: --screenshot, --report and --log are checked before SDL starts (the folder exists \
            and accepts a new file; the path is not a folder or a special file; no two are the same \
            file; none is an input: the atlas, the --font file, the assets folder). Each is written \
            to a temporary file in its folder, synced, checked and renamed into place: a failed write \
            leaves the previous file (or none) and no temporary file.

            Signals: SIGINT, SIGTERM and SIGHUP end the run at any point. Before the frame loop runs, \
            AnimDemo exits at once; once it runs, the loop stops and the screenshot and report are still \
            written, unless that takes over 0.4 s or a second signal comes: then AnimDemo exits at once \
            and names the outputs it did not write. SIGQUIT keeps its default action: the process is \
            terminated by it.

            Display: when DISPLAY or WAYLAND_DISPLAY names no server SDL can reach, SDL falls back to its \
            offscreen driver (an invisible window); AnimDemo stops with an error instead, unless you pass \
            --headless or choose a driver with SDL_VIDEODRIVER.

            Exit status: 0 after a normal run (frames done, Esc, window closed); 64 for bad options, \
            output paths included; 1 for errors (missing or corrupt asset, no display or a stale one, an \
            output that could not be written: one line each, even after a signal); 128 + the signal \
            after SIGINT (130), SIGTERM (143) or SIGHUP (129).
            """)

    @Option(parsing: .unconditional, help: "Number of sprites (1...100000).")
    var sprites = 1000

    @Option(parsing: .unconditional, help: "Run this many frames, then exit (required with --headless).")
    var frames: Int?

    @Flag(help: "Run without a display (SDL's dummy video driver and the software renderer).")
    var headless = false

    @Option(help: ArgumentHelp("Save the last frame as a PNG file.", valueName: "path"))
    var screenshot: String?

    @Option(help: ArgumentHelp("Write the frame report as JSON.", valueName: "path"))
    var report: String?

    @Option(
        help: ArgumentHelp(
            "Record every frame into a frame log (JSON lines for .jsonl or .json, else CSV); read it with framelink.",
            valueName: "path"))
    var log: String?

    @Option(
        help: ArgumentHelp(
            "Write what the compositor said of each frame (Wayland presentation feedback) as CSV: frame, shown "
                + "or discarded, its time on the compositor's clock and on CLOCK_MONOTONIC, refresh, sequence, "
                + "missed refreshes, flags.",
            valueName: "path"))
    var presentationLog: String?

    @Option(parsing: .unconditional, help: "Seed for sprite placement and motion (same seed, same sprites).")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Folder that holds sprites.png.", valueName: "dir"))
    var assets = "./assets"

    @Option(parsing: .unconditional, help: "Window width (64...7680).")
    var width = 1280

    @Option(parsing: .unconditional, help: "Window height (64...4320).")
    var height = 720

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Pace to this rate instead of the display's (1...1000 Hz).", valueName: "hz"))
    var refreshRate: Double?

    @Flag(inversion: .prefixedNo, help: "Ask the renderer for vsync.")
    var vsync = true

    @Option(
        help: ArgumentHelp(
            "How frames are paced: auto (detect vsync, else deadline), vsync, deadline, or off (as fast as "
                + "possible, for measuring frame cost).",
            valueName: "mode"))
    var pacing: PacingChoice = .auto

    @Option(
        help: ArgumentHelp(
            "How the sprites move: engine (FrameLink's animator: tweens, keyframe paths, springs that follow "
                + "the mouse, flicks that decay) or orbit (a pure function of time).",
            valueName: "kind"))
    var motion: MotionChoice = .engine

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Inject a stall every N frames (blamed on the link 'injected stall').", valueName: "N"))
    var stallEvery: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Length of an injected stall (1...2000).", valueName: "ms"))
    var stallMs = 50

    @Flag(inversion: .prefixedNo, help: "Draw the HUD (graph, clock, text).")
    var hud = true

    @Flag(help: "Start in latency mode: frames begin as late as they can, so input is read late (L toggles it).")
    var latencyMode = false

    @Flag(
        help: "Print FrameLink's pacing decisions as they happen (its log at debug level; problems are printed always)."
    )
    var verbose = false

    @Option(
        help: ArgumentHelp(
            "Ask for a frame-rate range: 30 (exactly), 40-50 (preferring 50) or 40-50@45; on a fixed display "
                + "the even division of its rate closest to the preferred one, else paced directly.",
            valueName: "range"))
    var frameRateRange: String?

    @Option(
        help: ArgumentHelp(
            "Say the display refreshes variably (VRR) from MIN to MAX hertz, such as 48-144: a frame-rate range "
                + "is then paced directly (a cap just under MAX keeps the swap chain empty).",
            valueName: "range"))
    var variableRefresh: String?

    @Option(help: ArgumentHelp("TrueType font for the HUD text.", valueName: "path"))
    var font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    mutating func validate() throws {
        guard (1...DemoOptions.maximumSprites).contains(sprites) else {
            throw ValidationError("--sprites \(sprites) is out of range: use 1...\(DemoOptions.maximumSprites)")
        }
        if let frames, !(1...100_000_000).contains(frames) {
            throw ValidationError("--frames \(frames) is out of range: use 1...100000000")
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
        if let stallEvery, !(1...1_000_000).contains(stallEvery) {
            throw ValidationError("--stall-every \(stallEvery) is out of range: use 1...1000000 frames")
        }
        guard (1...2000).contains(stallMs) else {
            throw ValidationError("--stall-ms \(stallMs) is out of range: use 1...2000 milliseconds")
        }
        if pacing == .vsync && !vsync {
            throw ValidationError("--pacing vsync needs a vsync renderer: drop --no-vsync")
        }
        if let frameRateRange {
            do {
                _ = try RateRangeArgument.range(frameRateRange)
            } catch {
                throw ValidationError("--frame-rate-range \(error)")
            }
        }
        if let variableRefresh {
            do {
                _ = try RateRangeArgument.variableRefresh(variableRefresh)
            } catch {
                throw ValidationError("--variable-refresh \(error)")
            }
        }
        if font.isEmpty { throw ValidationError("--font needs a file path") }
        if assets.isEmpty { throw ValidationError("--assets needs a folder") }
        try OutputPaths.check(
            screenshot: screenshot, report: report, log: log, presentationLog: presentationLog, assets: assets,
            font: font)
    }

    func run() throws {
        // FrameLink's log on stdout: its problems (notice and above), and with --verbose its
        // routine pacing decisions too (mode changes, vsync locks, frame-rate switches: debug).
        let level: Logger.Level = verbose ? .debug : .info
        LoggingSystem.bootstrap { ConsoleLogHandler(label: $0, logLevel: level) }
        let options = DemoOptions(
            sprites: sprites, frames: frames, headless: headless, screenshotPath: screenshot, reportPath: report,
            logPath: log, presentationLogPath: presentationLog, seed: seed, assetsFolder: assets, width: width,
            height: height,
            refreshRate: refreshRate.flatMap { FrameRate(framesPerSecond: $0) },
            vsync: vsync && pacing != .off, pacing: pacing, stallEvery: stallEvery,
            stallDuration: .milliseconds(stallMs), showsHUD: hud, fontPath: font, motion: motion,
            latencyMode: latencyMode, frameRateRange: try frameRateRange.map(RateRangeArgument.range),
            variableRefresh: try variableRefresh.map(RateRangeArgument.variableRefresh))
        let outcome = try MainActor.assumeIsolated { () throws -> DemoApp.Outcome in
            let app = try DemoApp(options: options)
            return try app.run()
        }
        for failure in outcome.failures {
            printError("error: \(failure)")
        }
        if !outcome.failures.isEmpty { throw ExitCode.failure }
        // A signal after the loop ended (while writing or shutting down) counts too.
        if let signal = outcome.signal ?? InterruptSignal.pending {
            throw ExitCode(128 + signal)
        }
    }

    /// Parses the command line and runs the demo; every failure ends with one line on stderr and a
    /// non-zero exit status (64 for bad options), never a usage dump or a stack trace.
    static func main() {
        // First, before any other thread exists: SIGINT, SIGTERM and SIGHUP end the run from now on.
        InterruptSignal.install()
        do {
            // The parsed command is AnimDemo, or ArgumentParser's own help command for `--help`.
            var command = try parseAsRoot()
            try command.run()
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch let error as DemoError {
            fail(error.description, status: .failure)
        } catch {
            let status = exitCode(for: error)
            if status == .success {
                // --help and --version: the full text on stdout.
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            fail(message(for: error), status: status)
        }
        Foundation.exit(0)
    }

    /// Prints `message` as one line on stderr and exits with `status`.
    private static func fail(_ message: String, status: ExitCode) -> Never {
        let line = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " — ")
        printError("error: \(line.isEmpty ? "unknown error" : line)")
        Foundation.exit(status.rawValue)
    }
}

/// How AnimDemo paces its frames (`--pacing`).
enum PacingChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Detect whether present blocks on vsync; pace by deadline when it does not.
    case auto
    /// Trust present to block on vsync.
    case vsync
    /// Pace by deadline, whatever present does.
    case deadline
    /// No pacing: present without vsync and start the next frame at once.
    case off
}

/// How AnimDemo moves its sprites (`--motion`).
enum MotionChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// FrameLink's animation engine: tweens, keyframe paths, springs and decays.
    case engine
    /// Lissajous orbits computed from game time.
    case orbit
}

/// Prints `message` on stderr, prefixed with the program's name.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("AnimDemo: \(message)\n".utf8))
}
