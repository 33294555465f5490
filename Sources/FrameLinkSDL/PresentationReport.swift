public import FrameLink

/// What the compositor said of one presented frame: when it reached the screen, or that it never
/// did. An ``SDLHost`` hands each one to ``SDLHost/presentationReportHandler`` as it arrives,
/// usually a frame or two after the present: in frame order within what arrived together, but
/// not always across arrivals (a compositor may answer a backlog of an occluded window's frames
/// newest first, after later frames were answered), so read ``frame`` to know which one it is.
public struct PresentationReport: Sendable, Equatable {
    /// The frame's number: `PresentSource.presentCount` after its present. (That count includes a
    /// present call that had nothing new to show, which `SDLHost.presentCount` does not count, so
    /// the two differ by the frames the host had not drawn.)
    public var frame: Int64

    /// What became of the frame.
    public var outcome: Outcome

    /// What became of a presented frame.
    public enum Outcome: Sendable, Equatable {
        /// It reached the screen at `shownAt` on the loop's timeline (converted from the
        /// compositor's clock); `compositorTime` is the same moment as the compositor sent it, on
        /// its own clock.
        case shown(at: FrameInstant, compositorTime: Duration)
        /// It was never shown: a later frame replaced it before the compositor drew, or the window
        /// was not visible.
        case discarded
        /// The compositor said it was shown, at a time that cannot be true or cannot be converted
        /// to the loop's clock (nanoseconds past a second, a clock that stopped being readable, a
        /// time before the loop began), or without a time (`GLX_OML_sync_control` times only the
        /// newest swap completed when it is read, and not a swap that went out without waiting for
        /// a refresh): the time is not used.
        case shownAtUnusableTime
        /// The host closed before the compositor answered.
        case unanswered
    }

    /// The output's refresh period as the compositor reported it, or `nil` when it did not know it.
    public var refreshPeriod: Duration?

    /// The output's refresh counter when the frame was shown, or `nil` when the compositor has
    /// none (or the frame was discarded).
    public var refreshSequence: UInt64?

    /// The refreshes the output made, since the previous frame shown, without showing a new frame
    /// of this window: the step of ``refreshSequence`` less one, or `nil` when either frame has no
    /// sequence. Zero when frames follow every refresh.
    public var missedRefreshes: Int?

    /// How the compositor knows the time (`wp_presentation_feedback.kind`).
    public var flags: Flags

    /// How the compositor knows when a frame was shown.
    public struct Flags: OptionSet, Sendable, Hashable {
        /// The protocol's bits.
        public let rawValue: UInt32
        /// Makes flags from the protocol's bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// The frame was shown in step with the display's refresh (no tearing).
        public static let vsync = Flags(rawValue: 1)
        /// The time comes from the display hardware's clock, not a software estimate.
        public static let hardwareClock = Flags(rawValue: 2)
        /// The hardware signalled that the frame was shown.
        public static let hardwareCompletion = Flags(rawValue: 4)
        /// The frame was shown straight from the game's buffer, without a copy.
        public static let zeroCopy = Flags(rawValue: 8)
    }

    /// Makes a report (for tests and tools that replay one).
    public init(
        frame: Int64, outcome: Outcome, refreshPeriod: Duration? = nil, refreshSequence: UInt64? = nil,
        missedRefreshes: Int? = nil, flags: Flags = []
    ) {
        self.frame = frame
        self.outcome = outcome
        self.refreshPeriod = refreshPeriod
        self.refreshSequence = refreshSequence
        self.missedRefreshes = missedRefreshes
        self.flags = flags
    }
}
