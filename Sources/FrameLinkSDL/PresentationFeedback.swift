/// Where an ``SDLHost`` learns when its frames really reached the screen.
///
/// On Wayland the compositor reports it through the presentation-time protocol
/// (`wp_presentation`): the host binds it when it opens, asks for feedback on every present, and
/// hands each answer to the pacing (`PresentSource.reportPresentation(ofFrame:at:)`), so the vsync
/// grid is fitted to when frames turned into light instead of to when present returned. Anywhere
/// else (X11, the dummy driver, a compositor without the protocol) the pacing estimates from
/// present's returns, and ``none(_:)`` says why. ``SDLHost/pacingDescription`` says which, once.
public enum PresentationFeedback: Sendable, Equatable, CustomStringConvertible {
    /// Wayland's presentation-time protocol, with times on the compositor's clock `clockID` (a
    /// `clockid_t`: 1 is `CLOCK_MONOTONIC`, 4 `CLOCK_MONOTONIC_RAW`), converted to FrameLink's
    /// `CLOCK_MONOTONIC` as they arrive.
    case waylandPresentationTime(clockID: Int32)

    /// No feedback: the pacing estimates when frames are shown from present's returns.
    case none(Absence)

    /// Why a host has no presentation feedback.
    public enum Absence: Sendable, Equatable, CustomStringConvertible {
        /// The window is on neither Wayland nor X11 with OpenGL (SDL's dummy or offscreen driver, a
        /// software renderer).
        case notWayland
        /// The window is on X11 with OpenGL, and the X server's GLX offers no
        /// `GLX_OML_sync_control` (Xvfb's does not).
        case glxWithoutSyncControl
        /// The window is on X11 with OpenGL and the X server offers `GLX_OML_sync_control`, which
        /// FrameLink does not read yet: whether its readings block and when a swap's completion is
        /// known differ by driver, and none could be observed where FrameLink is tested.
        case glxSyncControlNotRead
        /// The host runs headless.
        case headless
        /// Turned off before the host opened (``SDLHost/requestsPresentationFeedback``).
        case turnedOff
        /// The compositor offers no `wp_presentation`.
        case compositorOffersNone
        /// The compositor did not answer within the host's wait when the host opened.
        case compositorDidNotAnswer
        /// The connection to the compositor failed.
        case connectionFailed
        /// The compositor's clock (`clock_id`) cannot be read here, so its times cannot be
        /// converted.
        case unreadableClock(clockID: Int32)
        /// The compositor stopped answering: this many frames waited for their feedback (an
        /// occluded window). The host asks again once they are answered.
        case compositorStoppedAnswering(unansweredFrames: Int)
        /// The compositor's shown times cannot be true: the pacing refused this many in a row (a
        /// time before the frame's present, in the future, before the loop began: a clock that is
        /// off). The host stopped asking.
        case untrueTimes(refusedInARow: Int)

        /// The reason in words, for the pacing description.
        public var description: String {
            switch self {
            case .notWayland: "the window is not on Wayland"
            case .glxWithoutSyncControl: "the X server's GLX offers no GLX_OML_sync_control"
            case .glxSyncControlNotRead: "the X server offers GLX_OML_sync_control, which FrameLink does not read yet"
            case .headless: "headless"
            case .turnedOff: "turned off (SDLHost.requestsPresentationFeedback)"
            case .compositorOffersNone: "the compositor offers no wp_presentation"
            case .compositorDidNotAnswer: "the compositor did not answer"
            case .connectionFailed: "the connection to the compositor failed"
            case .unreadableClock(let clockID): "the compositor's clock \(clockID) cannot be read here"
            case .compositorStoppedAnswering(let frames):
                "the compositor stopped answering (\(frames) frames unanswered)"
            case .untrueTimes(let refused): "the compositor's times cannot be true (\(refused) refused in a row)"
            }
        }
    }

    /// Whether the host receives feedback.
    public var isAvailable: Bool {
        if case .waylandPresentationTime = self { true } else { false }
    }

    /// The feedback in words, for the pacing description: `presentation feedback: Wayland
    /// presentation-time (CLOCK_MONOTONIC_RAW)` or `no presentation feedback (<why>): shown times
    /// estimated from present's returns`.
    public var description: String {
        switch self {
        case .waylandPresentationTime(let clockID):
            "presentation feedback: Wayland presentation-time (\(_CompositorClock.name(of: clockID)))"
        case .none(let absence):
            "no presentation feedback (\(absence)): shown times estimated from present's returns"
        }
    }
}
