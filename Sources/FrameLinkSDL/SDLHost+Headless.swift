internal import CSDL2
public import FrameLink

extension SDLHost {
    /// How a headless host keeps time.
    public enum HeadlessTime: Sendable, Equatable {
        /// Virtual time: frames land exactly on the refresh grid and nothing waits, so a run of N
        /// frames finishes as fast as the CPU allows, the same on every machine; the statistics are
        /// those of an ideal display (no frame is late, since work takes no virtual time).
        case virtual
        /// Real time: the host paces by deadline at its rate, as a windowed run without vsync does.
        case real
    }

    /// Opens a host without a display: SDL's dummy video driver (chosen for you, whatever
    /// `SDL_VIDEODRIVER` says), a hidden window and the software renderer, on virtual time unless
    /// told otherwise.
    ///
    /// Use it for tests, servers, recording and benchmarks of game logic. Rendering still runs (into
    /// the dummy driver's surface, which ``screenshot(to:)`` can save); input comes only from events
    /// the program pushes. On ``HeadlessTime/virtual`` time, ``run(frames:)`` runs that many frames at
    /// once, deterministically: `host.loop.timestamp` after 600 frames at 60 Hz is exactly 10 s.
    ///
    /// ```swift
    /// let host = try SDLHost.headless(width: 320, height: 180)
    /// host.run(frames: 600)                      // ten seconds of game, in a moment
    /// print(host.loop.statistics.summary)        // 0 dropped, 60.00 fps
    /// ```
    ///
    /// - Parameters:
    ///   - title: The hidden window's title.
    ///   - width: The window width, 1...16384.
    ///   - height: The window height, 1...16384.
    ///   - refreshRate: The rate the frames come at (60 Hz by default).
    ///   - time: Virtual (the default) or real time.
    /// - Returns: A host whose ``isHeadless`` is true.
    /// - Throws: ``SDLError`` for a size out of range, when SDL's video subsystem is already running
    ///   with another driver, or when SDL cannot open the dummy window.
    public static func headless(
        title: String = "headless", width: Int = 640, height: Int = 360, refreshRate: FrameRate = .hz60,
        time: HeadlessTime = .virtual
    ) throws(SDLError) -> SDLHost {
        if SDL_WasInit(SDL_INIT_VIDEO) != 0, let driver = SDL_GetCurrentVideoDriver() {
            let name = String(cString: driver)
            if name != "dummy" {
                throw SDLError(
                    operation: "SDLHost.headless",
                    message: "SDL video is already running with the \(name) driver; quit it first")
            }
        }
        // The hint wins over SDL_VIDEODRIVER for this host only: afterwards the environment (or a hint
        // the game set itself) is what SDL reads again.
        let environment = SDL_getenv(SDL_HINT_VIDEODRIVER).map { String(cString: $0) }
        let previous = SDL_GetHint(SDL_HINT_VIDEODRIVER).map { String(cString: $0) }
        SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, "dummy", SDL_HINT_OVERRIDE)
        defer {
            if previous == nil || previous == environment {
                SDL_ResetHint(SDL_HINT_VIDEODRIVER)
            } else {
                SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, previous, SDL_HINT_OVERRIDE)
            }
        }
        var options = WindowOptions()
        options.isHidden = true
        let setup = try createWindowAndRenderer(
            title: title, width: width, height: height, vsync: false, options: options)
        return SDLHost(setup, refreshRate: refreshRate, headless: time)
    }
}
