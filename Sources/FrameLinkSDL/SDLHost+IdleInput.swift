internal import CFrameLinkSDLShims
internal import CFrameLinkWayland
internal import CSDL2
internal import FrameLink

extension SDLHost {
    /// The SDL subsystems whose devices SDL reads by polling (joysticks, game controllers, sensors):
    /// while one runs, an idle loop must keep asking SDL for input.
    static let polledSubsystems = SDL_INIT_JOYSTICK | SDL_INIT_GAMECONTROLLER | SDL_INIT_SENSOR

    /// How input can wake the loop while it idles (no display link running): the display
    /// connection's descriptor on X11 and Wayland, and on every driver a descriptor that an SDL
    /// event watch signals when an event enters SDL's queue from any thread (`SDL_PushEvent`), so the
    /// loop sleeps until input, a pushed event, main-queue work or its next timer, with no wake-ups
    /// in between (the dummy and offscreen drivers have no connection: pushed events, main-queue
    /// work and timers). While SDL polls devices itself (a joystick, game-controller or sensor
    /// subsystem is running), or on a driver whose connection is not known, the loop asks for input
    /// every idle slice (`FrameWaiter.idleSlice`).
    func idleInput() -> _IdleInput {
        guard let window, SDL_WasInit(Self.polledSubsystems) == 0 else { return .polled }
        let wake = CFrameLinkSDLShims_eventWakeDescriptor()
        guard wake >= 0 else { return .polled }
        switch SDL_GetCurrentVideoDriver().map({ String(cString: $0) }) {
        case "x11":
            let descriptor = CFrameLinkSDLShims_connectionDescriptor(UnsafeMutableRawPointer(window))
            return descriptor >= 0 ? .descriptors(connection: descriptor, wake: wake) : .polled
        case "wayland":
            var display: UnsafeMutableRawPointer?
            var surface: UnsafeMutableRawPointer?
            guard CFrameLinkWayland_surfaceOfSDLWindow(UnsafeMutableRawPointer(window), &display, &surface) == 1
            else { return .polled }
            let descriptor = CFrameLinkWayland_displayDescriptor(display)
            return descriptor >= 0 ? .descriptors(connection: descriptor, wake: wake) : .polled
        case "dummy", "offscreen":
            return .descriptors(connection: nil, wake: wake)
        default:
            return .polled
        }
    }
}
