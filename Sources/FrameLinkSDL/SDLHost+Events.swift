package import CSDL2
@_spi(FrameSourceImplementation) internal import FrameLink

extension SDLHost {
    /// Polls every pending SDL event and handles it in order: updates the drag state (switching the
    /// loop's mode), hands the event to ``eventHandler``, and stops the loop on `SDL_QUIT`.
    ///
    /// The loop calls this at the start of each frame; call it yourself only if you run frames
    /// without the host's loop hooks.
    package func pumpEvents() {
        var event = SDL_Event()
        while isOpen, SDL_PollEvent(&event) != 0 {
            handle(event)
        }
    }

    /// Handles one event as ``pumpEvents()`` does: applies it to the loop's mode, passes it to
    /// ``eventHandler`` and stops the loop if it is `SDL_QUIT`; when the window has moved to another
    /// display or changed size (a fullscreen mode set), takes the display's refresh rate again (see
    /// ``refreshRate``); when it is hidden,
    /// minimized, shown or restored, tells the pacing (`PresentSource.isWindowHidden`) and the loop
    /// (`FrameLoop.isOutputHidden`: no frames are run or presented until it is shown again).
    ///
    /// Useful for feeding events that a game polls itself, and in tests.
    package func handle(_ event: SDL_Event) {
        if event.type == SDL_WINDOWEVENT.rawValue, Self.mayChangeRefreshRate(event.window.event), let window {
            displayChanged(reportedRate: Self.reportedRefreshRate(of: window))
        }
        if event.type == SDL_WINDOWEVENT.rawValue, let hidden = Self.windowVisibility(after: event.window.event) {
            source.isWindowHidden = hidden
            loop.isOutputHidden = hidden
        }
        trackDrag(event)
        if Self.isInput(event) { loop.noteInput(at: inputInstant(of: event)) }
        eventHandler?(event)
        if event.type == SDL_QUIT.rawValue, stopsOnQuit {
            loop.stop()
        }
    }

    /// Whether a window event of kind `kind` may come with another refresh rate: the window moved to
    /// another display, or its size changed (an exclusive fullscreen window's mode set, a display
    /// mode changed under it). The rate is read again then (and nothing changes if it is the same).
    nonisolated static func mayChangeRefreshRate(_ kind: UInt8) -> Bool {
        switch SDL_WindowEventID(UInt32(kind)) {
        case SDL_WINDOWEVENT_DISPLAY_CHANGED, SDL_WINDOWEVENT_SIZE_CHANGED: true
        default: false
        }
    }

    /// Whether the window is hidden after a window event of kind `kind`: true when hidden or
    /// minimized, false when shown, restored, maximized or exposed, nil for other events. The
    /// pacing follows it (`PresentSource.isWindowHidden`): nothing is measured or dropped while
    /// nothing is shown.
    static func windowVisibility(after kind: UInt8) -> Bool? {
        switch SDL_WindowEventID(UInt32(kind)) {
        case SDL_WINDOWEVENT_HIDDEN, SDL_WINDOWEVENT_MINIMIZED: true
        case SDL_WINDOWEVENT_SHOWN, SDL_WINDOWEVENT_RESTORED, SDL_WINDOWEVENT_MAXIMIZED, SDL_WINDOWEVENT_EXPOSED: false
        default: nil
        }
    }

    /// Whether `event` is the player's input (keys, mouse, controllers, touch, text), whose latency
    /// to the screen the loop measures.
    static func isInput(_ event: SDL_Event) -> Bool {
        switch SDL_EventType(event.type) {
        case SDL_KEYDOWN, SDL_KEYUP, SDL_TEXTINPUT, SDL_MOUSEMOTION, SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP,
            SDL_MOUSEWHEEL, SDL_CONTROLLERAXISMOTION, SDL_CONTROLLERBUTTONDOWN, SDL_CONTROLLERBUTTONUP,
            SDL_JOYAXISMOTION, SDL_JOYBUTTONDOWN, SDL_JOYBUTTONUP, SDL_FINGERDOWN, SDL_FINGERUP, SDL_FINGERMOTION:
            true
        default:
            false
        }
    }

    /// When `event` happened on the loop's timeline: SDL stamps events in milliseconds since it
    /// started, so the event is placed that long before now (never in the future, and never more
    /// than a second back, for a stamp that is not SDL's); on a virtual clock, now.
    func inputInstant(of event: SDL_Event) -> FrameInstant {
        let now = loop.now.nanoseconds
        // SDL's stamps are real milliseconds: on a virtual clock (the headless host) they say
        // nothing about the loop's time, and the event is placed when it is pumped.
        guard source.clock.sleepsInRealTime else { return FrameInstant(nanoseconds: now) }
        let age = Int64(SDL_GetTicks()) - Int64(event.common.timestamp)
        let ageNanoseconds = min(max(age, 0), 1_000) * 1_000_000
        return FrameInstant(nanoseconds: max(0, now - ageNanoseconds))
    }

    /// Takes the refresh rate of the display the window is now on: the pacing follows it (unless
    /// the initializer was given a rate), and the pacing note says it.
    func displayChanged(reportedRate: Int?) {
        guard reportedRate != displayRefreshRate else { return }
        displayRefreshRate = reportedRate
        let displayRate = reportedRate.flatMap { FrameRate(numerator: Int64($0)) }
        refreshRate = refreshRateOverride ?? displayRate ?? .hz60
        source.displayRefreshRate = refreshRate
        source.capsAtDisplayRefreshRate = refreshRateOverride != nil || reportedRate == nil
        rateNote = Self.pacingReason(override: refreshRateOverride, reported: reportedRate, vsync: vsyncNote)
        updatePacingNote()
    }

    /// Switches the loop to `.tracking` while the left mouse button is dragged, and back to the
    /// mode it was in when the button is released or the window loses focus.
    private func trackDrag(_ event: SDL_Event) {
        let leftButton = UInt8(SDL_BUTTON_LEFT)
        switch event.type {
        case SDL_MOUSEBUTTONDOWN.rawValue where event.button.button == leftButton:
            isLeftButtonDown = true
        case SDL_MOUSEMOTION.rawValue:
            let leftHeld = isLeftButtonDown || event.motion.state & CSDL2_ButtonMask(SDL_BUTTON_LEFT) != 0
            if leftHeld, tracksMouseDrags, !isTrackingDrag {
                beginDrag()
            }
        case SDL_MOUSEBUTTONUP.rawValue where event.button.button == leftButton:
            isLeftButtonDown = false
            endDrag()
        case SDL_WINDOWEVENT.rawValue where event.window.event == UInt8(SDL_WINDOWEVENT_FOCUS_LOST.rawValue):
            // The button-up may never reach a window that lost focus: end the drag now.
            isLeftButtonDown = false
            endDrag()
        default:
            break
        }
    }

    private func beginDrag() {
        isTrackingDrag = true
        modeBeforeDrag = loop.currentMode
        loop.currentMode = .tracking
    }

    private func endDrag() {
        guard isTrackingDrag else { return }
        isTrackingDrag = false
        // Leave a mode the game switched to during the drag alone.
        if loop.currentMode == .tracking {
            loop.currentMode = modeBeforeDrag
        }
    }
}
