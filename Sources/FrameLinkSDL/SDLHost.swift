public import CSDL2
@_spi(FrameSourceImplementation) public import FrameLink

/// A window and its presenter — an SDL renderer or an OpenGL context — that drive a `FrameLoop`:
/// the tie between FrameLink's timing core and an SDL2 game.
///
/// A host either **creates** what it needs or **adopts** what the game already has:
///
/// - ``headless(title:width:height:refreshRate:time:)`` does the same without a display: SDL's
///   dummy video driver, chosen for you, on virtual time unless told otherwise.
/// - ``init(title:width:height:vsync:refreshRate:hidden:)`` initializes SDL's video subsystem,
///   opens a centred window and creates a renderer (accelerated with `SDL_RENDERER_PRESENTVSYNC`,
///   falling back to the software renderer). ``close()`` destroys them and shuts video down again.
/// - ``init(adopting:renderer:refreshRate:)`` drives the loop from the game's own `SDL_Window` and
///   `SDL_Renderer`; ``init(adoptingGLWindow:vsync:refreshRate:)`` from the game's own window with a
///   current OpenGL context, presenting with `SDL_GL_SwapWindow`. An adopting host never creates or
///   destroys a window, renderer or context, and never starts or quits SDL: ``close()`` only lets
///   go of them.
///
/// Either way, the host owns a ``loop`` paced by a `PresentSource` whose frame boundary is the
/// present (`SDL_RenderPresent` or `SDL_GL_SwapWindow`). Each frame it:
///
/// 1. presents the previous frame and waits for vsync or the next deadline;
/// 2. pumps SDL events: every event goes to ``eventHandler``; `SDL_QUIT` stops the loop; a drag
///    with the left mouse button switches the loop to `.tracking` until the button is released, so
///    `.default` timers and links pause while `.common` ones go on (the run-loop-mode lesson of
///    iOS scrolling);
/// 3. lets the loop fire its timers and display links;
/// 4. calls ``renderHandler`` with the renderer (renderer hosts), then ``drawHandler``: draw the
///    frame there.
///
/// While no display link is active the loop sleeps until its next timer, waking early when input
/// arrives (`SDL_PumpEvents` + `SDL_HasEvents`), so an idle game uses no CPU.
///
/// Pacing: the ``source`` detects whether present really blocks on vsync (and keeps checking),
/// measures the real refresh period when it does, and otherwise paces by an absolute nanosecond
/// deadline grid at ``refreshRate`` (sleep, then spin a fraction of a millisecond);
/// ``pacingDescription`` says which and why. Under the dummy and offscreen drivers, and under Xvfb,
/// SDL reports no refresh rate and 60 Hz is assumed. On Wayland the host also learns from the
/// compositor when each frame really reached the screen (``presentationFeedback``), and the vsync
/// grid follows those times.
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
/// A game that made its own window and renderer keeps them, and lends them to the host:
///
/// ```swift
/// let window = SDL_CreateWindow("Game", 0, 0, 1280, 720, 0)
/// let renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_PRESENTVSYNC.rawValue)
/// let host = try SDLHost(adopting: window!, renderer: renderer!)
/// host.renderHandler = { renderer in scene.draw(on: renderer) }
/// host.run()
/// host.close()                      // the window and renderer are still the game's
/// SDL_DestroyRenderer(renderer)
/// ```
///
/// SDL has one event queue per process and must be called from the main thread: use one host at a
/// time, on the main actor.
@MainActor
public final class SDLHost {
    /// How a host presents a frame.
    public enum PresentMethod: Sendable, Equatable {
        /// `SDL_RenderPresent` on the host's ``SDLHost/renderer``.
        case renderer
        /// `SDL_GL_SwapWindow` on the host's ``SDLHost/window``, whose OpenGL context the game made.
        case openGL
    }

    /// The window's title (read from the window when it was adopted).
    public let title: String

    /// The window (`SDL_Window *`), or `nil` once the host is closed.
    public private(set) var window: OpaquePointer?

    /// The renderer (`SDL_Renderer *`), or `nil` for an OpenGL host and once the host is closed.
    public private(set) var renderer: OpaquePointer?

    /// The OpenGL context (`SDL_GLContext`) that was current on the window when an OpenGL host
    /// adopted it, or `nil` for a renderer host and once the host is closed.
    public private(set) var glContext: SDL_GLContext?

    /// How the host presents: with an SDL renderer or by swapping an OpenGL window.
    public let presentMethod: PresentMethod

    /// Whether the host adopted a game's window (and renderer or GL context) instead of creating its
    /// own. An adopting host never destroys them and never starts or quits SDL.
    public let isAdopted: Bool

    /// The frame loop the host drives: add display links and timers to it.
    public let loop: FrameLoop

    /// The source that produces the loop's frames: the present is its frame boundary; it detects
    /// whether present blocks on vsync and paces by deadline when it does not. Its `present` and
    /// `inputPending` hooks belong to the host; set its `pacing` (automatic, vsync, deadline) and
    /// `automaticFrameRate` freely.
    public let source: PresentSource

    /// The refresh rate SDL reports for the window's display in hertz, or `nil` when it reports
    /// none (0, as under Xvfb and the dummy driver) or cannot be asked. Updated when the window
    /// moves to another display (`SDL_WINDOWEVENT_DISPLAY_CHANGED`).
    public internal(set) var displayRefreshRate: Int?

    /// The rate the loop paces to: the override given to the initializer, else the display's
    /// refresh rate, else 60 Hz. Frames never come faster than this rate (see
    /// `PresentSource.displayRefreshRate`); without an override it follows the window to another
    /// display.
    public internal(set) var refreshRate: FrameRate

    /// The rate given to the initializer, if any.
    let refreshRateOverride: FrameRate?

    /// What the setup said about vsync, for the pacing note.
    let vsyncNote: String

    /// The SDL render driver in use, such as `"opengl"` or `"software"`; for an OpenGL host,
    /// `"OpenGL"` followed by the context's `GL_RENDERER` string.
    public let rendererName: String

    /// Whether the host fell back to (or was given) SDL's software renderer. Always false for an
    /// OpenGL host.
    public let isSoftwareRenderer: Bool

    /// Whether presents were asked to wait for vsync: the renderer reports
    /// `SDL_RENDERER_PRESENTVSYNC`, or the OpenGL swap interval is not zero. SDL's dummy and
    /// offscreen drivers ignore the flag; Xvfb emulates it.
    public let hasVSyncFlag: Bool

    /// The OpenGL swap interval in effect for an OpenGL host — −1 adaptive vsync, 1 vsync, 0 none —
    /// or `nil` for a renderer host.
    public let swapInterval: Int?

    /// A one-line account of the presenter: the renderer's name and flags (or the GL context and
    /// its swap interval), whether it was adopted, and why the host fell back to software if it did.
    public let rendererDescription: String

    /// A one-line account of how frames are paced, and why, for logs and reports: the source's own
    /// description with the host's reason (the refresh rate's origin and the vsync situation).
    /// The loop's statistics report the same text.
    public var pacingDescription: String { source.pacingDescription }

    /// How the source paces frames and why, typed (`PresentSource.pacingState`): a game switches
    /// on it, and is told of changes through `PresentSource.onPacingStateChange`.
    public var pacingState: PacingState { source.pacingState }

    /// Called for every SDL event, in order, at the start of each frame (before timers and links).
    ///
    /// The host has already applied the event to the loop by then: during a left-button drag the
    /// loop is in `.tracking`. After `SDL_QUIT` is handed over, the loop stops (see ``stopsOnQuit``).
    public var eventHandler: (@MainActor (SDL_Event) -> Void)?

    /// Called once per frame, after timers and display links, with the renderer (`SDL_Renderer *`):
    /// clear and draw the frame here. The host presents it at the start of the next frame.
    ///
    /// Only a renderer host has a renderer: setting this on an OpenGL host stops the program with a
    /// message; use ``drawHandler`` there.
    public var renderHandler: (@MainActor (OpaquePointer) -> Void)? {
        didSet {
            precondition(
                renderHandler == nil || presentMethod == .renderer,
                "SDLHost.renderHandler needs an SDL renderer, but this host presents with SDL_GL_SwapWindow: "
                    + "set drawHandler and draw with OpenGL instead")
        }
    }

    /// Called once per frame after ``renderHandler``, with no argument: on an OpenGL host, draw the
    /// frame here with OpenGL (the adopted context is current). The host swaps at the start of the
    /// next frame.
    public var drawHandler: (@MainActor () -> Void)?

    /// Whether `SDL_QUIT` (the window's close button, or a pushed quit event) stops the loop after
    /// ``eventHandler`` has seen it; true by default.
    public var stopsOnQuit = true

    /// Whether a drag with the left mouse button switches the loop to `.tracking`; true by default.
    public var tracksMouseDrags = true

    /// Whether a left-button drag is in progress (the loop is in `.tracking` because of it).
    public internal(set) var isTrackingDrag = false

    /// The number of frames presented (`SDL_RenderPresent` or `SDL_GL_SwapWindow` calls by the host).
    public private(set) var presentCount = 0

    /// Where the host learns when its frames reached the screen: Wayland's presentation-time
    /// protocol, GLX_OML_sync_control, or none and why (see ``requestsPresentationFeedback``).
    public internal(set) var presentationFeedback: PresentationFeedback = .none(.notWayland)

    /// Called with each frame's presentation feedback as the compositor's answer arrives (usually
    /// a frame or two after its present), after the pacing has taken it in: when it was shown,
    /// the refreshes missed before it, or that it was discarded. Only a host with
    /// ``presentationFeedback`` calls it. It runs inside a frame: it may close the host, not run
    /// it (``run(frames:)`` from inside a frame stops the program, saying so).
    public var presentationReportHandler: (@MainActor (PresentationReport) -> Void)?

    /// The binding of presentation-time, while the host has one.
    var waylandPresentation: _WaylandPresentation?

    /// The readings of GLX_OML_sync_control, while the host has them.
    var glxSyncControl: _GLXSyncControl?

    /// Whether the host asks for feedback on its next present.
    var feedbackRequests = _FeedbackRequests()

    /// The host's parts of the pacing note: the rate's origin and the vsync situation (or the
    /// headless note), and what the main thread's priority became; ``presentationFeedback``
    /// follows them (see `updatePacingNote()`).
    var rateNote = ""
    var priorityNote: String?

    var isLeftButtonDown = false
    var modeBeforeDrag: RunLoopMode = .default
    var hasUnpresentedFrame = false
    private let ownsVideoSubsystem: Bool

    // MARK: Creating a host

    /// Opens a window with a renderer and a frame loop paced to the display.
    ///
    /// - Parameters:
    ///   - title: The window title.
    ///   - width: The window width in screen coordinates, 1...16384.
    ///   - height: The window height in screen coordinates, 1...16384.
    ///   - vsync: Whether to ask the renderer for `SDL_RENDERER_PRESENTVSYNC`; without it the host
    ///     paces by deadline.
    ///   - override: A rate to pace to instead of the display's refresh rate.
    ///   - hidden: Whether to create the window hidden (for tests and headless runs).
    /// - Throws: ``SDLError`` when a size is out of range or SDL cannot initialize video, open the
    ///   window or create any renderer; SDL's own message is included.
    public convenience init(
        title: String, width: Int, height: Int, vsync: Bool = true,
        refreshRate override: FrameRate? = nil, hidden: Bool = false
    ) throws(SDLError) {
        var options = WindowOptions()
        options.isHidden = hidden
        try self.init(title: title, width: width, height: height, options: options, vsync: vsync, refreshRate: override)
    }

    /// Opens a window as `options` say — fullscreen, resizable, on another display, at a position —
    /// with a renderer and a frame loop paced to the display it opens on.
    ///
    /// - Parameters:
    ///   - title: The window title.
    ///   - width: The window width in screen coordinates, 1...16384 (for ``WindowOptions/Mode/fullscreen``,
    ///     the size whose closest display mode SDL sets).
    ///   - height: The window height in screen coordinates, 1...16384.
    ///   - options: Fullscreen or windowed, resizable, high-DPI, borderless, hidden, display, position.
    ///   - vsync: Whether to ask the renderer for `SDL_RENDERER_PRESENTVSYNC`; without it the host
    ///     paces by deadline.
    ///   - override: A rate to pace to instead of the display's refresh rate.
    /// - Throws: ``SDLError`` when a size or position is out of range, the display does not exist,
    ///   or SDL cannot initialize video, open the window or create any renderer; SDL's own message
    ///   is included.
    public convenience init(
        title: String, width: Int, height: Int, options: WindowOptions, vsync: Bool = true,
        refreshRate override: FrameRate? = nil
    ) throws(SDLError) {
        let setup = try Self.createWindowAndRenderer(
            title: title, width: width, height: height, vsync: vsync, options: options)
        self.init(setup, refreshRate: override)
    }

    /// Drives a frame loop from a window and renderer that the game created and keeps owning.
    ///
    /// The host presents with `SDL_RenderPresent(renderer)` and paces as the renderer allows: with
    /// `SDL_RENDERER_PRESENTVSYNC` it detects whether present really blocks on vsync; without it, it
    /// paces by deadline. The renderer's vsync setting is left as the game made it.
    ///
    /// ``close()`` (or releasing the host) neither destroys the window or the renderer nor quits SDL:
    /// they stay the game's, and so does destroying them — after the host is closed.
    ///
    /// - Parameters:
    ///   - window: The game's window (`SDL_Window *`).
    ///   - renderer: The game's renderer for that window (`SDL_Renderer *`).
    ///   - override: A rate to pace to instead of the display's refresh rate.
    /// - Throws: ``SDLError`` when SDL's video subsystem is not initialized, `window` or `renderer`
    ///   is not a live SDL object, or `renderer` draws to another window.
    public convenience init(
        adopting window: OpaquePointer, renderer: OpaquePointer, refreshRate override: FrameRate? = nil
    ) throws(SDLError) {
        let setup = try Self.adoptRenderer(renderer, of: window)
        self.init(setup, refreshRate: override)
    }

    /// Drives a frame loop from a window with an OpenGL context that the game created, made current
    /// on that window, and keeps owning.
    ///
    /// The host presents with `SDL_GL_SwapWindow(window)`. With `vsync` it sets the context's swap
    /// interval to −1 (adaptive vsync: a late frame is shown at once instead of waiting a whole
    /// period) where the driver has it, else to 1; when the driver accepts neither (Xvfb's GLX
    /// does not), the interval stays 0, the host paces by deadline, and ``pacingDescription`` gives
    /// SDL's reason. Without `vsync` it sets the interval to 0 and paces by deadline.
    ///
    /// ``close()`` (or releasing the host) neither deletes the context nor destroys the window nor
    /// quits SDL. Draw in ``drawHandler``; ``renderHandler`` is for renderer hosts.
    ///
    /// - Parameters:
    ///   - window: The game's window (`SDL_Window *`), created with `SDL_WINDOW_OPENGL`.
    ///   - vsync: Whether to ask for a swap interval that waits for vsync (true by default).
    ///   - override: A rate to pace to instead of the display's refresh rate.
    /// - Throws: ``SDLError`` when SDL's video subsystem is not initialized, `window` is not a live
    ///   SDL window, it was created without `SDL_WINDOW_OPENGL`, or no OpenGL context is current on
    ///   it (call `SDL_GL_MakeCurrent(window, context)` first).
    public convenience init(
        adoptingGLWindow window: OpaquePointer, vsync: Bool = true, refreshRate override: FrameRate? = nil
    ) throws(SDLError) {
        let setup = try Self.adoptGLWindow(window, vsync: vsync)
        self.init(setup, refreshRate: override)
    }

    /// The one initializer every public one goes through, once the window and presenter are ready.
    init(_ setup: _PresenterSetup, refreshRate override: FrameRate?, headless: HeadlessTime? = nil) {
        title = setup.title
        window = setup.window
        renderer = setup.renderer
        glContext = setup.glContext
        presentMethod = setup.glContext == nil ? .renderer : .openGL
        isAdopted = setup.isAdopted
        ownsVideoSubsystem = !setup.isAdopted
        rendererName = setup.name
        isSoftwareRenderer = setup.isSoftware
        hasVSyncFlag = setup.hasVSync
        swapInterval = setup.swapInterval
        rendererDescription = setup.description

        refreshRateOverride = override
        vsyncNote = setup.vsyncNote
        let reported = Self.reportedRefreshRate(of: setup.window)
        displayRefreshRate = reported
        let displayRate = reported.flatMap { FrameRate(numerator: Int64($0)) }
        refreshRate = override ?? displayRate ?? .hz60

        headlessTime = headless
        source = PresentSource(
            displayRefreshRate: refreshRate, pacing: setup.hasVSync && headless == nil ? .automatic : .deadline,
            clock: headless == .virtual ? VirtualClock() : nil)
        // An override is a cap, and so is the rate assumed for a display that reports none.
        source.capsAtDisplayRefreshRate = override != nil || reported == nil
        let rate = refreshRate
        if let headless {
            rateNote = "headless: the dummy video driver, \(headless == .virtual ? "virtual" : "real") time at \(rate)"
        } else {
            rateNote = Self.pacingReason(override: override, reported: reported, vsync: setup.vsyncNote)
            if Self.raisesMainThreadPriority { priorityNote = Self.raiseMainThreadPriority() }
        }
        loop = FrameLoop(source: source)
        installHooks()
        openPresentationFeedback()
    }

    isolated deinit {
        close()
    }

    /// How a host made by ``headless(title:width:height:refreshRate:time:)`` keeps time, or `nil`
    /// for a host with a display.
    public let headlessTime: HeadlessTime?

    /// Whether the host runs without a display (made by
    /// ``headless(title:width:height:refreshRate:time:)``).
    public var isHeadless: Bool { headlessTime != nil }

    /// Whether the host still drives its window (true until ``close()``).
    public var isOpen: Bool { window != nil }

    /// The size of the drawable area in pixels (the renderer's output, or the GL drawable; larger
    /// than the window on high-DPI screens), or zero once closed.
    public var outputSize: (width: Int, height: Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        if let renderer {
            guard SDL_GetRendererOutputSize(renderer, &width, &height) == 0 else { return (0, 0) }
        } else if let window {
            SDL_GL_GetDrawableSize(window, &width, &height)
        }
        return (Int(width), Int(height))
    }

    // MARK: Running

    /// Runs frames until the loop is stopped: by `SDL_QUIT` (closing the window), by
    /// `loop.stop()`, or by ``close()``. Returns at once if the host is closed.
    ///
    /// With `GLX_OML_sync_control` feedback (``PresentationFeedback/glxSyncControl(clockID:ustUnit:)``)
    /// a run begins by waiting for the window's swaps so far to be shown (a refresh or two), so that
    /// swaps the game made itself between runs are told from the host's.
    public func run() {
        guard isOpen else { return }
        precondition(
            !loop.isRunning,
            "SDLHost.run was called while the host's loop runs (from a handler or a presentation report); "
                + "return from the handler instead: the loop goes on, or call loop.stop() to end it")
        resynchronizePresentationFeedback()
        loop.run()
    }

    /// Runs `frames` frames, or fewer if the loop is stopped first. Returns at once if the host is
    /// closed or `frames` is not positive.
    ///
    /// A frame in which no display link is active waits for the next timer or input instead of the
    /// next refresh, so with neither it waits until input arrives. With `GLX_OML_sync_control`
    /// feedback a run begins by waiting for the window's swaps so far to be shown, as ``run()``
    /// does.
    public func run(frames: Int) {
        guard isOpen, frames > 0 else { return }
        precondition(
            !loop.isRunning,
            "SDLHost.run was called while the host's loop runs (from a handler or a presentation report); "
                + "return from the handler instead: the loop goes on, or call loop.stop() to end it")
        resynchronizePresentationFeedback()
        loop.run(frames: frames)
    }

    /// Stops the loop, releases ``eventHandler``, ``renderHandler`` and ``drawHandler``, and lets go
    /// of the window. Safe to call twice, and from inside a handler; the host's deinitializer calls
    /// it too.
    ///
    /// A host that created its window destroys the renderer and the window and shuts SDL's video
    /// subsystem down (and SDL itself once nothing else of it is in use): destroy your own textures
    /// before closing, as SDL frees them with the renderer. An adopting host destroys nothing and
    /// quits nothing: the window, renderer or GL context stay the game's, usable as before.
    public func close() {
        guard let window else { return }
        // Closed from here on: a handler that closes the host again while this runs (one that
        // gets the last presentation reports, below) finds it closed.
        self.window = nil
        loop.stop()
        source.present = nil
        source.inputPending = nil
        source.idleInput = nil
        closePresentationFeedback()
        presentationReportHandler = nil
        loop.hostEventHandler = nil
        loop.hostRenderHandler = nil
        // The game's handlers often capture the host: release them so nothing keeps it alive.
        loop.eventHandler = nil
        loop.renderHandler = nil
        eventHandler = nil
        renderHandler = nil
        drawHandler = nil
        if !isAdopted {
            if let renderer { SDL_DestroyRenderer(renderer) }
            SDL_DestroyWindow(window)
        }
        renderer = nil
        glContext = nil
        isTrackingDrag = false
        isLeftButtonDown = false
        if ownsVideoSubsystem {
            Self.quitVideo()
        }
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
        source.idleInput = { [weak self] in self?.idleInput() ?? .polled }
        // The host's own hooks: a game that sets the loop's eventHandler or renderHandler adds to
        // them, it does not stop the pumping or the presenting.
        loop.hostEventHandler = { [weak self] _ in
            self?.pumpEvents()
        }
        loop.hostRenderHandler = { [weak self] _ in
            guard let self, self.isOpen else { return }
            if let renderer = self.renderer { self.renderHandler?(renderer) }
            self.drawHandler?()
            self.hasUnpresentedFrame = true
        }
    }

    /// Presents the frame drawn since the last present, if any; never presents a frame twice (the
    /// back buffer's content is undefined after a present).
    func presentIfNeeded() {
        guard hasUnpresentedFrame, let window else { return }
        hasUnpresentedFrame = false
        requestPresentationFeedback()
        if let renderer {
            SDL_RenderPresent(renderer)
        } else {
            SDL_GL_SwapWindow(window)
        }
        presentCount += 1
        collectPresentationReports()
    }

    // MARK: Helpers

    /// Shuts down the video subsystem this host started, and SDL when nothing else of it is running.
    static func quitVideo() {
        SDL_QuitSubSystem(SDL_INIT_VIDEO)
        if SDL_WasInit(0) == 0 {
            SDL_Quit()
        }
    }
}
