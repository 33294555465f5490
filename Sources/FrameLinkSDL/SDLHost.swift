public import CSDL2
public import FrameLink

/// A window with an SDL renderer that drives a ``FrameLoop``: the tie between FrameLink's timing
/// core and an SDL2 game.
///
/// The host initializes SDL's video subsystem, opens a centred window, creates a renderer
/// (accelerated with `SDL_RENDERER_PRESENTVSYNC`, falling back to the software renderer) and owns a
/// ``loop`` paced by a ``DeadlineSource`` at the display's refresh rate. Each frame it:
///
/// 1. presents the previous frame (`SDL_RenderPresent`) and waits for vsync or the next deadline;
/// 2. pumps SDL events: every event goes to ``eventHandler``; `SDL_QUIT` stops the loop; a drag
///    with the left mouse button switches the loop to `.tracking` until the button is released, so
///    `.default` timers and links pause while `.common` ones go on (the run-loop-mode lesson of
///    iOS scrolling);
/// 3. lets the loop fire its timers and display links;
/// 4. calls ``renderHandler`` with the renderer: draw the frame there.
///
/// While no display link is active the loop sleeps until its next timer, waking early when input
/// arrives (`SDL_PumpEvents` + `SDL_HasEvents`), so an idle game uses no CPU.
///
/// Pacing: the loop's source is a ``PresentSource`` around `SDL_RenderPresent`. It detects whether
/// present really blocks on vsync (and keeps checking), measures the real refresh period when it
/// does, and otherwise paces by an absolute nanosecond deadline grid at ``refreshRate`` (sleep, then
/// spin a fraction of a millisecond); ``pacingDescription`` says which and why. Under the dummy and
/// offscreen drivers, and under Xvfb, SDL reports no refresh rate and 60 Hz is assumed.
///
/// ```swift
/// let host = try SDLHost(title: "Game", width: 1280, height: 720)
/// let link = DisplayLink(target: scene) { scene, link in scene.step(to: link.targetTimestamp) }
/// link.add(to: host.loop, forMode: .common)
/// host.renderHandler = { renderer in scene.draw(on: renderer) }
/// host.eventHandler = { event in scene.handle(event) }
/// host.run()      // until the window is closed
/// host.close()
/// ```
///
/// SDL has one event queue per process and must be called from the main thread: use one host at a
/// time, on the main actor. Closing the host (or releasing it) shuts SDL's video down again.
@MainActor
public final class SDLHost {
    /// The window's title.
    public let title: String

    /// The window (`SDL_Window *`), or `nil` once the host is closed.
    public private(set) var window: OpaquePointer?

    /// The renderer (`SDL_Renderer *`), or `nil` once the host is closed.
    public private(set) var renderer: OpaquePointer?

    /// The frame loop the host drives: add display links and timers to it.
    public let loop: FrameLoop

    /// The source that produces the loop's frames: `SDL_RenderPresent` is its frame boundary; it
    /// detects whether present blocks on vsync and paces by deadline when it does not. Its
    /// `present` and `inputPending` hooks belong to the host; set its `pacing` (automatic, vsync,
    /// deadline) and `automaticFrameRate` freely.
    public let source: PresentSource

    /// The refresh rate SDL reports for the window's display in hertz, or `nil` when it reports
    /// none (0, as under Xvfb and the dummy driver) or cannot be asked.
    public let displayRefreshRate: Int?

    /// The rate the loop paces to: the override given to the initializer, else the display's
    /// refresh rate, else 60 Hz.
    public let refreshRate: FrameRate

    /// The SDL render driver in use, such as `"opengl"` or `"software"`.
    public let rendererName: String

    /// Whether the host fell back to (or was given) SDL's software renderer.
    public let isSoftwareRenderer: Bool

    /// Whether the renderer was created with `SDL_RENDERER_PRESENTVSYNC` and reports the flag.
    /// SDL's dummy and offscreen drivers ignore it; Xvfb emulates it.
    public let hasVSyncFlag: Bool

    /// A one-line account of the renderer: its name, flags, and why the host fell back to software
    /// if it did.
    public let rendererDescription: String

    /// A one-line account of how frames are paced, and why, for logs and reports: the source's own
    /// description with the host's reason (the refresh rate's origin and the vsync situation).
    /// The loop's statistics report the same text.
    public var pacingDescription: String { source.pacingDescription }

    /// Called for every SDL event, in order, at the start of each frame (before timers and links).
    ///
    /// The host has already applied the event to the loop by then: during a left-button drag the
    /// loop is in `.tracking`. After `SDL_QUIT` is handed over, the loop stops (see ``stopsOnQuit``).
    public var eventHandler: (@MainActor (SDL_Event) -> Void)?

    /// Called once per frame, after timers and display links, with the renderer (`SDL_Renderer *`):
    /// clear and draw the frame here. The host presents it at the start of the next frame.
    public var renderHandler: (@MainActor (OpaquePointer) -> Void)?

    /// Whether `SDL_QUIT` (the window's close button, or a pushed quit event) stops the loop after
    /// ``eventHandler`` has seen it; true by default.
    public var stopsOnQuit = true

    /// Whether a drag with the left mouse button switches the loop to `.tracking`; true by default.
    public var tracksMouseDrags = true

    /// Whether a left-button drag is in progress (the loop is in `.tracking` because of it).
    public internal(set) var isTrackingDrag = false

    /// The number of frames presented (`SDL_RenderPresent` calls by the host).
    public private(set) var presentCount = 0

    var isLeftButtonDown = false
    var modeBeforeDrag: RunLoopMode = .default
    var hasUnpresentedFrame = false

    /// Opens a window with a renderer and a frame loop paced to the display.
    ///
    /// - Parameters:
    ///   - title: The window title.
    ///   - width: The window width in screen coordinates, 1...16384.
    ///   - height: The window height in screen coordinates, 1...16384.
    ///   - vsync: Whether to ask the renderer for `SDL_RENDERER_PRESENTVSYNC`.
    ///   - override: A rate to pace to instead of the display's refresh rate.
    ///   - hidden: Whether to create the window hidden (for tests and headless runs).
    /// - Throws: ``SDLError`` when a size is out of range or SDL cannot initialize video, open the
    ///   window or create any renderer; SDL's own message is included.
    public init(
        title: String, width: Int, height: Int, vsync: Bool = true,
        refreshRate override: FrameRate? = nil, hidden: Bool = false
    ) throws(SDLError) {
        for (name, value) in [("width", width), ("height", height)] where !(1...16_384).contains(value) {
            throw SDLError(operation: "SDLHost.init", message: "window \(name) \(value) is out of range 1...16384")
        }
        self.title = title

        SDL_SetMainReady()
        try SDLError.check(SDL_InitSubSystem(SDL_INIT_VIDEO), "SDL_InitSubSystem(SDL_INIT_VIDEO)")
        var windowFlags = SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        windowFlags |= hidden ? SDL_WINDOW_HIDDEN.rawValue : SDL_WINDOW_SHOWN.rawValue
        guard
            let window = SDL_CreateWindow(
                title, CSDL2_WindowPosCentered(), CSDL2_WindowPosCentered(), Int32(width), Int32(height),
                windowFlags)
        else {
            let error = SDLError.current("SDL_CreateWindow(\(width)×\(height))")
            Self.quitVideo()
            throw error
        }

        let created: CreatedRenderer
        do throws(SDLError) {
            created = try Self.createRenderer(for: window, vsync: vsync)
        } catch {
            SDL_DestroyWindow(window)
            Self.quitVideo()
            throw error
        }
        self.window = window
        renderer = created.renderer
        rendererName = created.name
        isSoftwareRenderer = created.isSoftware
        hasVSyncFlag = created.hasVSync
        rendererDescription = created.description

        let reported = Self.reportedRefreshRate(of: window)
        displayRefreshRate = reported
        let displayRate = reported.flatMap { try? FrameRate(numerator: Int64($0)) }
        refreshRate = override ?? displayRate ?? .hz60
        // Present one black frame now: the first present maps the window and sets up the driver
        // (over 100 ms under Xvfb), which would otherwise count as a long first frame.
        SDL_SetRenderDrawColor(created.renderer, 0, 0, 0, 255)
        SDL_RenderClear(created.renderer)
        SDL_RenderPresent(created.renderer)
        SDL_PumpEvents()

        source = PresentSource(displayRefreshRate: refreshRate, pacing: vsync ? .automatic : .deadline)
        source.note = Self.pacingReason(
            override: override, reported: reported, vsyncFlag: created.hasVSync, vsyncRequested: vsync,
            rendererName: created.name)
        loop = FrameLoop(source: source)
        installHooks()
    }

    isolated deinit {
        close()
    }

    /// Whether the window and renderer are open (true until ``close()``).
    public var isOpen: Bool { renderer != nil }

    /// The size of the renderer's output in pixels (larger than the window on high-DPI screens), or
    /// zero once closed.
    public var outputSize: (width: Int, height: Int) {
        guard let renderer else { return (0, 0) }
        var width: Int32 = 0
        var height: Int32 = 0
        guard SDL_GetRendererOutputSize(renderer, &width, &height) == 0 else { return (0, 0) }
        return (Int(width), Int(height))
    }

    // MARK: Running

    /// Runs frames until the loop is stopped: by `SDL_QUIT` (closing the window), by
    /// `loop.stop()`, or by ``close()``. Returns at once if the host is closed.
    public func run() {
        guard isOpen else { return }
        loop.run()
    }

    /// Runs `frames` frames, or fewer if the loop is stopped first. Returns at once if the host is
    /// closed or `frames` is not positive.
    ///
    /// A frame in which no display link is active waits for the next timer or input instead of the
    /// next refresh, so with neither it waits until input arrives.
    public func run(frames: Int) {
        guard isOpen, frames > 0 else { return }
        loop.run(frames: frames)
    }

    /// Stops the loop, releases ``eventHandler`` and ``renderHandler``, destroys the renderer and the
    /// window, and shuts SDL's video subsystem down (and SDL itself once nothing else of it is in
    /// use). Safe to call twice, and from inside a handler; the host's deinitializer calls it too.
    ///
    /// Destroy your own textures before closing: SDL frees them with the renderer.
    public func close() {
        guard let renderer else { return }
        loop.stop()
        source.present = nil
        source.inputPending = nil
        loop.eventHandler = nil
        loop.renderHandler = nil
        // The game's handlers often capture the host: release them so nothing keeps it alive.
        eventHandler = nil
        renderHandler = nil
        SDL_DestroyRenderer(renderer)
        self.renderer = nil
        if let window {
            SDL_DestroyWindow(window)
            self.window = nil
        }
        isTrackingDrag = false
        isLeftButtonDown = false
        Self.quitVideo()
    }

    // MARK: Frame hooks

    private func installHooks() {
        source.present = { [weak self] in
            self?.presentIfNeeded()
        }
        source.inputPending = { [weak self] in
            guard let self, self.isOpen else { return false }
            SDL_PumpEvents()
            return SDL_HasEvents(SDL_FIRSTEVENT.rawValue, SDL_LASTEVENT.rawValue) == SDL_TRUE
        }
        loop.eventHandler = { [weak self] _ in
            self?.pumpEvents()
        }
        loop.renderHandler = { [weak self] _ in
            guard let self, let renderer = self.renderer else { return }
            self.renderHandler?(renderer)
            self.hasUnpresentedFrame = true
        }
    }

    /// Presents the frame drawn since the last present, if any; never presents a frame twice (the
    /// back buffer's content is undefined after a present).
    func presentIfNeeded() {
        guard hasUnpresentedFrame, let renderer else { return }
        hasUnpresentedFrame = false
        SDL_RenderPresent(renderer)
        presentCount += 1
    }

    // MARK: Setup helpers

    private struct CreatedRenderer {
        var renderer: OpaquePointer
        var name: String
        var isSoftware: Bool
        var hasVSync: Bool
        var description: String
    }

    private static func createRenderer(for window: OpaquePointer, vsync: Bool) throws(SDLError) -> CreatedRenderer {
        let vsyncFlag = vsync ? SDL_RENDERER_PRESENTVSYNC.rawValue : 0
        var fallbackReason: String?
        var renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue | vsyncFlag)
        if renderer == nil {
            fallbackReason = SDLError.current("SDL_CreateRenderer(accelerated)").message
            renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue | vsyncFlag)
        }
        let created = try SDLError.check(
            renderer, "SDL_CreateRenderer(software, after accelerated failed: \(fallbackReason ?? "?"))")

        var info = SDL_RendererInfo()
        var name = "unknown"
        var flags: UInt32 = 0
        if SDL_GetRendererInfo(created, &info) == 0 {
            name = info.name.map { String(cString: $0) } ?? "unknown"
            flags = info.flags
        }
        let isSoftware = flags & SDL_RENDERER_SOFTWARE.rawValue != 0 || name == "software"
        let hasVSync = flags & SDL_RENDERER_PRESENTVSYNC.rawValue != 0
        var description = "\(name) renderer (\(isSoftware && name != "software" ? "software, " : "")"
        description += hasVSync ? "vsync flag set)" : vsync ? "vsync flag not honoured)" : "vsync off)"
        if let fallbackReason {
            description += "; fell back to software because the accelerated renderer failed: \(fallbackReason)"
        }
        return CreatedRenderer(
            renderer: created, name: name, isSoftware: isSoftware, hasVSync: hasVSync, description: description)
    }

    private static func reportedRefreshRate(of window: OpaquePointer) -> Int? {
        var mode = SDL_DisplayMode()
        if SDL_GetWindowDisplayMode(window, &mode) == 0, mode.refresh_rate > 0 {
            return Int(mode.refresh_rate)
        }
        let display = SDL_GetWindowDisplayIndex(window)
        if display >= 0, SDL_GetCurrentDisplayMode(display, &mode) == 0, mode.refresh_rate > 0 {
            return Int(mode.refresh_rate)
        }
        return nil
    }

    private static func pacingReason(
        override: FrameRate?, reported: Int?, vsyncFlag: Bool, vsyncRequested: Bool, rendererName: String
    ) -> String {
        var text: String
        if let override {
            text = "rate set by the caller (\(override))"
        } else if let reported {
            text = "the display's reported refresh rate (\(reported) Hz)"
        } else {
            text = "the display reports no refresh rate, 60 Hz assumed"
        }
        if vsyncFlag {
            text += "; the \(rendererName) renderer has the vsync flag"
        } else if vsyncRequested {
            text += "; vsync requested, but the \(rendererName) renderer does not honour it"
        } else {
            text += "; vsync off"
        }
        return text
    }

    /// Shuts down the video subsystem this host started, and SDL when nothing else of it is running.
    static func quitVideo() {
        SDL_QuitSubSystem(SDL_INIT_VIDEO)
        if SDL_WasInit(0) == 0 {
            SDL_Quit()
        }
    }
}
