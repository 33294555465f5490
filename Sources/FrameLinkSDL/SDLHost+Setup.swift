internal import CSDL2
internal import FrameLink

/// What an ``SDLHost`` initializer found or made before the host itself is built: the window, its
/// presenter, and how it stands with vsync.
struct _PresenterSetup {
    var title: String
    var window: OpaquePointer
    /// The renderer of a renderer host; `nil` for an OpenGL host.
    var renderer: OpaquePointer?
    /// The context of an OpenGL host; `nil` for a renderer host.
    var glContext: SDL_GLContext?
    var isAdopted: Bool
    var name: String
    var isSoftware: Bool
    var hasVSync: Bool
    var swapInterval: Int?
    var description: String
    /// The vsync part of the pacing note, such as `"the opengl renderer has the vsync flag"`.
    var vsyncNote: String
}

extension SDLHost {
    // MARK: Creating

    /// The largest window side, and the farthest a position may be from its display's corner.
    static let windowSides = 1...16_384

    /// Starts SDL video, opens the window and creates the renderer; on failure undoes what it did.
    static func createWindowAndRenderer(
        title: String, width: Int, height: Int, vsync: Bool, options: WindowOptions
    ) throws(SDLError) -> _PresenterSetup {
        for (name, value) in [("width", width), ("height", height)] where !windowSides.contains(value) {
            throw SDLError(operation: "SDLHost.init", message: "window \(name) \(value) is out of range 1...16384")
        }
        if case .at(let x, let y) = options.position, !(-16_384...16_384).contains(x) || !(-16_384...16_384).contains(y)
        {
            throw SDLError(
                operation: "SDLHost.init", message: "window position (\(x), \(y)) is out of range -16384...16384")
        }
        SDL_SetMainReady()
        try SDLError.check(SDL_InitSubSystem(SDL_INIT_VIDEO), "SDL_InitSubSystem(SDL_INIT_VIDEO)")
        let (x, y): (Int32, Int32)
        do throws(SDLError) {
            (x, y) = try windowPosition(options)
        } catch {
            quitVideo()
            throw error
        }
        guard
            let window = SDL_CreateWindow(
                title, x, y, Int32(width), Int32(height), windowFlags(options))
        else {
            let error = SDLError.current("SDL_CreateWindow(\(width)×\(height))")
            quitVideo()
            throw error
        }

        let vsyncFlag = vsync ? SDL_RENDERER_PRESENTVSYNC.rawValue : 0
        var fallbackReason: String?
        var renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue | vsyncFlag)
        if renderer == nil {
            fallbackReason = SDLError.current("SDL_CreateRenderer(accelerated)").message
            renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue | vsyncFlag)
        }
        guard let renderer else {
            let error = SDLError.current(
                "SDL_CreateRenderer(software, after accelerated failed: \(fallbackReason ?? "?"))")
            SDL_DestroyWindow(window)
            quitVideo()
            throw error
        }
        var setup = describe(renderer, of: window, title: title, adopted: false, vsyncRequested: vsync)
        if let fallbackReason {
            setup.description +=
                "; fell back to software because the accelerated renderer failed: \(fallbackReason)"
        }
        // Present one black frame now: the first present maps the window and sets up the driver
        // (over 100 ms under Xvfb), which would otherwise count as a long first frame.
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        SDL_RenderPresent(renderer)
        SDL_PumpEvents()
        return setup
    }

    /// The SDL window flags for `options`.
    static func windowFlags(_ options: WindowOptions) -> UInt32 {
        var flags = options.isHidden ? SDL_WINDOW_HIDDEN.rawValue : SDL_WINDOW_SHOWN.rawValue
        if options.allowsHighDPI { flags |= SDL_WINDOW_ALLOW_HIGHDPI.rawValue }
        if options.isResizable { flags |= SDL_WINDOW_RESIZABLE.rawValue }
        if options.isBorderless { flags |= SDL_WINDOW_BORDERLESS.rawValue }
        switch options.mode {
        case .windowed: break
        case .fullscreenDesktop: flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue
        case .fullscreen: flags |= SDL_WINDOW_FULLSCREEN.rawValue
        }
        return flags
    }

    /// The SDL window position for `options`, on its display: a display SDL does not have is an error.
    static func windowPosition(_ options: WindowOptions) throws(SDLError) -> (Int32, Int32) {
        let display = options.display ?? 0
        let displays = Int(SDL_GetNumVideoDisplays())
        guard (0..<max(displays, 1)).contains(display) else {
            throw SDLError(
                operation: "SDLHost.init",
                message:
                    "display \(display) does not exist: SDL reports \(displays) display\(displays == 1 ? "" : "s") "
                    + "(0...\(max(displays - 1, 0)))")
        }
        switch options.position {
        case .centered:
            let position = Int32(CSDL2_WindowPosCenteredOnDisplay(Int32(display)))
            return (position, position)
        case .undefined:
            let position = Int32(CSDL2_WindowPosUndefinedOnDisplay(Int32(display)))
            return (position, position)
        case .at(let x, let y):
            var bounds = SDL_Rect()
            if SDL_GetDisplayBounds(Int32(display), &bounds) != 0 { bounds = SDL_Rect() }
            return (bounds.x + Int32(x), bounds.y + Int32(y))
        }
    }

    // MARK: Adopting

    /// Checks that `renderer` is a live renderer of `window` and describes it; changes nothing.
    static func adoptRenderer(_ renderer: OpaquePointer, of window: OpaquePointer) throws(SDLError)
        -> _PresenterSetup
    {
        try checkAdoptable(window)
        guard let rendererWindow = SDL_RenderGetWindow(renderer) else {
            throw SDLError.current("SDL_RenderGetWindow (adopting a renderer)")
        }
        guard rendererWindow == window else {
            throw SDLError(
                operation: "SDLHost(adopting:renderer:)",
                message: "the renderer draws to another window (SDL_RenderGetWindow differs): adopt the pair that "
                    + "belongs together")
        }
        let title = SDL_GetWindowTitle(window).map { String(cString: $0) } ?? ""
        return describe(renderer, of: window, title: title, adopted: true, vsyncRequested: nil)
    }

    /// Checks that `window` is an OpenGL window with a current context, and sets the swap interval
    /// (adaptive, else 1, or 0 without `vsync`).
    static func adoptGLWindow(_ window: OpaquePointer, vsync: Bool) throws(SDLError) -> _PresenterSetup {
        try checkAdoptable(window)
        let operation = "SDLHost(adoptingGLWindow:)"
        guard SDL_GetWindowFlags(window) & SDL_WINDOW_OPENGL.rawValue != 0 else {
            throw SDLError(
                operation: operation, message: "the window was not created with SDL_WINDOW_OPENGL")
        }
        guard let context = SDL_GL_GetCurrentContext(), SDL_GL_GetCurrentWindow() == window else {
            throw SDLError(
                operation: operation,
                message: "no OpenGL context is current on this window: call SDL_GL_MakeCurrent(window, context) "
                    + "before adopting it")
        }

        var vsyncNote: String
        if vsync {
            if SDL_GL_SetSwapInterval(-1) == 0 {
                vsyncNote = "GL swap interval -1 (adaptive vsync)"
            } else {
                let adaptiveError = SDLError.current("SDL_GL_SetSwapInterval(-1)").message
                if SDL_GL_SetSwapInterval(1) == 0 {
                    vsyncNote = "GL swap interval 1 (adaptive vsync unavailable: \(adaptiveError))"
                } else {
                    let error = SDLError.current("SDL_GL_SetSwapInterval(1)").message
                    vsyncNote = "vsync requested, but the GL driver sets no swap interval: \(error)"
                }
            }
        } else {
            SDL_GL_SetSwapInterval(0)
            vsyncNote = "vsync off (GL swap interval 0)"
        }
        let interval = Int(SDL_GL_GetSwapInterval())
        let glRenderer = CSDL2_GL_RendererString().map { String(cString: $0) } ?? "unknown GL renderer"
        let title = SDL_GetWindowTitle(window).map { String(cString: $0) } ?? ""
        return _PresenterSetup(
            title: title, window: window, renderer: nil, glContext: context, isAdopted: true,
            name: "OpenGL \(glRenderer)", isSoftware: false, hasVSync: interval != 0, swapInterval: interval,
            description: "OpenGL context (\(glRenderer), swap interval \(interval)), adopted from the game",
            vsyncNote: vsyncNote)
    }

    /// Refuses to adopt unless SDL video runs and `window` is a live window.
    private static func checkAdoptable(_ window: OpaquePointer) throws(SDLError) {
        guard SDL_WasInit(SDL_INIT_VIDEO) != 0 else {
            throw SDLError(
                operation: "SDLHost(adopting…)",
                message: "SDL's video subsystem is not initialized: adopt a window the game created after "
                    + "SDL_Init(SDL_INIT_VIDEO)")
        }
        guard SDL_GetWindowID(window) != 0 else {
            throw SDLError.current("SDL_GetWindowID (adopting a window)")
        }
    }

    // MARK: Describing

    /// Reads a renderer's name and flags. `vsyncRequested` is what the host asked for when it made
    /// the renderer, or `nil` for an adopted one.
    private static func describe(
        _ renderer: OpaquePointer, of window: OpaquePointer, title: String, adopted: Bool, vsyncRequested: Bool?
    ) -> _PresenterSetup {
        var info = SDL_RendererInfo()
        var name = "unknown"
        var flags: UInt32 = 0
        if SDL_GetRendererInfo(renderer, &info) == 0 {
            name = info.name.map { String(cString: $0) } ?? "unknown"
            flags = info.flags
        }
        let isSoftware = flags & SDL_RENDERER_SOFTWARE.rawValue != 0 || name == "software"
        let hasVSync = flags & SDL_RENDERER_PRESENTVSYNC.rawValue != 0
        var description = "\(name) renderer (\(isSoftware && name != "software" ? "software, " : "")"
        let vsyncNote: String
        if hasVSync {
            description += "vsync flag set)"
            vsyncNote = "the \(name) renderer has the vsync flag"
        } else if vsyncRequested == true {
            description += "vsync flag not honoured)"
            vsyncNote = "vsync requested, but the \(name) renderer does not honour it"
        } else {
            description += "vsync off)"
            vsyncNote = adopted ? "the adopted \(name) renderer has no vsync flag" : "vsync off"
        }
        if adopted { description += ", adopted from the game" }
        return _PresenterSetup(
            title: title, window: window, renderer: renderer, glContext: nil, isAdopted: adopted, name: name,
            isSoftware: isSoftware, hasVSync: hasVSync, swapInterval: nil, description: description,
            vsyncNote: vsyncNote)
    }

    static func reportedRefreshRate(of window: OpaquePointer) -> Int? {
        var mode = SDL_DisplayMode()
        if SDL_GetWindowDisplayMode(window, &mode) == 0, let rate = plausibleRefreshRate(mode.refresh_rate) {
            return rate
        }
        let display = SDL_GetWindowDisplayIndex(window)
        if display >= 0, SDL_GetCurrentDisplayMode(display, &mode) == 0,
            let rate = plausibleRefreshRate(mode.refresh_rate)
        {
            return rate
        }
        return nil
    }

    /// The refresh rates a display can report: 1 to 1,000 Hz. SDL reports 0 for "unknown" (Xvfb,
    /// the dummy driver), and a driver may report anything; a rate outside is taken as unreported.
    nonisolated static let plausibleRefreshRates: ClosedRange<Int32> = 1...1_000

    /// A refresh rate SDL reported, if a display can have it (see ``plausibleRefreshRates``).
    nonisolated static func plausibleRefreshRate(_ reported: Int32) -> Int? {
        plausibleRefreshRates.contains(reported) ? Int(reported) : nil
    }

    static func pacingReason(override: FrameRate?, reported: Int?, vsync: String) -> String {
        let rate: String
        if let override {
            rate = "rate set by the caller (\(override))"
        } else if let reported {
            rate = "the display's reported refresh rate (\(reported) Hz)"
        } else {
            rate = "the display reports no refresh rate, 60 Hz assumed"
        }
        return "\(rate); \(vsync)"
    }
}
