/// Where an ``SDLHost`` learns when its frames really reached the screen.
///
/// On Wayland the compositor reports it through the presentation-time protocol
/// (`wp_presentation`): the host binds it when it opens, asks for feedback on every present, and
/// hands each answer to the pacing (`PresentSource.reportPresentation(ofFrame:at:)`), so the vsync
/// grid is fitted to when frames turned into light instead of to when present returned. On X11
/// with OpenGL, where the X server's GLX offers `GLX_OML_sync_control` (Mesa's with a DRI driver
/// does; Xvfb's does not), the host reads after each swap when the newest completed swap was shown
/// and at which refresh. Anywhere else (the dummy driver, a software renderer, a compositor or X
/// server without either) the pacing estimates from present's returns, and ``none(_:)`` says why.
/// ``SDLHost/pacingDescription`` says which, once.
public enum PresentationFeedback: Sendable, Equatable, CustomStringConvertible {
    /// Wayland's presentation-time protocol, with times on the compositor's clock `clockID` (a
    /// `clockid_t`: 1 is `CLOCK_MONOTONIC`, 4 `CLOCK_MONOTONIC_RAW`), converted to FrameLink's
    /// `CLOCK_MONOTONIC` as they arrive.
    case waylandPresentationTime(clockID: Int32)

    /// GLX's `GLX_OML_sync_control`: after each swap the host reads the newest completed swap's
    /// UST (a system time) and MSC (the display's refresh count). `clockID` is the clock the UST
    /// was found to count (1, `CLOCK_MONOTONIC`, with Mesa), and `ustUnit` its unit; times are
    /// converted to FrameLink's `CLOCK_MONOTONIC` as they arrive.
    case glxSyncControl(clockID: Int32, ustUnit: Duration)

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
        /// No longer reported: FrameLink reads `GLX_OML_sync_control` where the X server offers it
        /// (``PresentationFeedback/glxSyncControl(clockID:ustUnit:)``), or says why it cannot
        /// (``glxSyncControlUnusable(_:)``).
        @available(*, deprecated, message: "FrameLink reads GLX_OML_sync_control now; see glxSyncControlUnusable")
        case glxSyncControlNotRead
        /// The window is on X11 with OpenGL and the X server offers `GLX_OML_sync_control`, but its
        /// readings cannot be used, for the reason given.
        case glxSyncControlUnusable(SyncControlFault)
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
            case .glxSyncControlUnusable(let fault): "the X server offers GLX_OML_sync_control, but \(fault)"
            case .headless: "headless"
            case .turnedOff: "turned off (SDLHost.requestsPresentationFeedback)"
            case .compositorOffersNone: "the compositor offers no wp_presentation"
            case .compositorDidNotAnswer: "the compositor did not answer"
            case .connectionFailed: "the connection to the compositor failed"
            case .unreadableClock(let clockID): "the compositor's clock \(clockID) cannot be read here"
            case .compositorStoppedAnswering(let frames):
                "the compositor stopped answering (\(frames) frames unanswered)"
            case .untrueTimes(let refused): "the compositor's times cannot be true (\(refused) refused in a row)"
            default: "the X server offers GLX_OML_sync_control, which this version of FrameLink did not read"
            }
        }
    }

    /// Why `GLX_OML_sync_control`'s readings cannot be used (``Absence/glxSyncControlUnusable(_:)``).
    public enum SyncControlFault: Sendable, Equatable, CustomStringConvertible {
        /// GLX gave no reading for the window (`glXGetSyncValuesOML` failed).
        case noReading
        /// The UST is not a time on any clock FrameLink knows: neither microseconds nor
        /// nanoseconds of `CLOCK_MONOTONIC`, nor microseconds of `CLOCK_REALTIME`, within two
        /// seconds of now.
        case unknownClock
        /// A refresh or swap count is negative or beyond any a display or game reaches (2⁵²).
        case countOutOfRange
        /// The swap count (SBC) went back.
        case countersWentBack
        /// The swap count (SBC) counts more swaps than the host made (someone else swaps the
        /// window, or the count is not this window's).
        case swapNotMade
        /// A swap was shown more than a refresh before the host made it: the swap counted is not
        /// the host's (the game swapped the window itself, or a swap made before the host opened
        /// was still counted).
        case shownBeforeMade
        /// Swaps go out without waiting for a refresh (vsync off), and GLX gives the refresh before
        /// each: when they were shown cannot be told.
        case swapsDoNotWaitForRefresh
        /// The X server is Xwayland, whose refresh counts are the Wayland compositor's frame
        /// callbacks and whose times are when they arrived, not refreshes of a display. (SDL's
        /// Wayland driver, `SDL_VIDEODRIVER=wayland`, gets the compositor's presentation times.)
        case xwayland

        /// The fault in words, for the pacing description.
        public var description: String {
            switch self {
            case .noReading: "GLX gave no reading for the window"
            case .unknownClock: "its UST is not a time on a clock FrameLink knows"
            case .countOutOfRange: "its counts are beyond any a display or game reaches"
            case .countersWentBack: "its swap count went back"
            case .swapNotMade: "its swap count counts swaps the host did not make"
            case .shownBeforeMade: "a swap was shown before the host made it"
            case .swapsDoNotWaitForRefresh: "swaps do not wait for the refresh, so when they are shown is not known"
            case .xwayland:
                "the X server is Xwayland, whose counts are the compositor's frame callbacks"
                    + " (SDL_VIDEODRIVER=wayland gets its presentation times)"
            }
        }
    }

    /// Whether the host receives feedback.
    public var isAvailable: Bool {
        switch self {
        case .waylandPresentationTime, .glxSyncControl: true
        case .none: false
        }
    }

    /// The feedback in words, for the pacing description: `presentation feedback: Wayland
    /// presentation-time (CLOCK_MONOTONIC_RAW)` or `no presentation feedback (<why>): shown times
    /// estimated from present's returns`.
    public var description: String {
        switch self {
        case .waylandPresentationTime(let clockID):
            "presentation feedback: Wayland presentation-time (\(_CompositorClock.name(of: clockID)))"
        case .glxSyncControl(let clockID, let unit):
            "presentation feedback: GLX_OML_sync_control (UST in \(unit == .microseconds(1) ? "microseconds" : "nanoseconds") of \(_CompositorClock.name(of: clockID)))"
        case .none(let absence):
            "no presentation feedback (\(absence)): shown times estimated from present's returns"
        }
    }
}
