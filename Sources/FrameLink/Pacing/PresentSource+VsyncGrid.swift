// PresentSource's vsync grid and presentation feedback, as the game and the presenter see them: a
// face on the pacer's `_VsyncTracker`, which keeps the grid, the feedback and the swap-chain model.
extension PresentSource {
    /// When the frame presented at the last boundary reached, or will reach, the screen: the vsync
    /// the swap-chain model (or presentation feedback) puts it on while frames follow the vsync
    /// grid; the moment present returned while a requested rate below a variable-refresh display's
    /// maximum is paced directly; else `nil`.
    @_spi(FrameSourceImplementation) public var shownAtLastBoundary: FrameInstant? {
        pacer.tracker.knownShownTime.map { FrameInstant(nanoseconds: $0) }
    }

    /// Whether the presenter has reported when frames reached the screen
    /// (`reportPresentation(ofFrame:at:)`): the grid then follows those times.
    public var receivesPresentationFeedback: Bool { pacer.tracker.receivesFeedback }

    /// Whether the frame's timestamp is a phase-locked vsync: frames follow the vsync grid, and its
    /// line is pinned within 50 µs in every quarter of the window of returns and the fit is
    /// precise to about 20 µs (a window long enough for its delays), so each `timestamp` is within
    /// a few tens of microseconds of the true vsync. A return the grid cannot explain ends the
    /// lock; so does a frame timed otherwise (a deadline, the phase probe's moved frames, a
    /// hidden window), whatever the grid knows meanwhile.
    ///
    /// The lock also ends while the line is carried far past its newest return (presents that stop
    /// blocking, a hidden window): its error grows with each vsync it is carried
    /// (the grid's stated 99th-percentile error; see the pacing article), and past 100 µs the phase
    /// is not known.
    public var isPhaseLocked: Bool { pacer.tracker.isPhaseLocked }

    /// Whether the frame's timestamp is a vsync of a usable grid (the frame follows the grid) whose
    /// line is known within 100 µs there (`_VsyncTracker.vsyncPrecision`), locked or not yet: what
    /// the pacing sweep judges against the true vsync.
    package var timestampFollowsVsync: Bool { pacer.tracker.timestampFollowsVsync }

    /// How many times the vsync grid was fitted again because returns stopped fitting it (a move
    /// to a display with another rate, a hide and show that moved the phase).
    @_spi(FrameSourceImplementation) public var vsyncRelocks: Int { pacer.tracker.grid.relocks }

    /// When the frame being built will be shown, while frames follow the vsync grid.
    public var targetTimestamp: FrameInstant? {
        pacer.tracker.knownTarget.map { FrameInstant(nanoseconds: $0) }
    }

    /// The refreshes the display missed before the frame just presented, from the swap-chain model,
    /// while frames follow the vsync grid.
    @_spi(FrameSourceImplementation) public var droppedFramesAtLastBoundary: Int? { pacer.tracker.knownDrops }

    /// Tells the source when frame `frame` (counted by `presentCount`) reached the screen, on the
    /// source's timeline (its ``now``): presentation feedback, as Wayland's presentation-time
    /// `presented` event, `GLX_OML_sync_control`'s UST, or `VK_GOOGLE_display_timing` give it.
    ///
    /// Once feedback arrives, the vsync grid is fitted to these exact times instead of to the
    /// jittery returns of present. A report is data from outside (a compositor, a driver), checked
    /// where it enters, and ignored when it cannot be true: for a frame after the one being
    /// presented, for a frame already reported or out of order, at a time before the source's
    /// start, before the frame's present was called, not after the last report, or more than 1 ms
    /// ahead of now.
    ///
    /// - Parameters:
    ///   - frame: The frame's number: the value of `presentCount` after its present.
    ///   - instant: When it reached the screen, on the source's timeline.
    @_spi(FrameSourceImplementation) public func reportPresentation(ofFrame frame: Int64, at instant: FrameInstant) {
        _ = acceptPresentation(ofFrame: frame, at: instant)
    }

    /// `reportPresentation(ofFrame:at:)`, saying whether the report was taken (false: ignored as
    /// implausible).
    package func acceptPresentation(ofFrame frame: Int64, at instant: FrameInstant) -> Bool {
        pacer.tracker.reports.accept(
            frame: frame, at: instant.nanoseconds, now: now.nanoseconds, presentCount: presentCount)
    }

    /// Tells the source that presentation feedback stopped coming (a compositor that stopped
    /// answering for an occluded window): the vsync grid goes back to present's returns until
    /// reports come again.
    package func presentationFeedbackStopped() {
        pacer.tracker.reports.stop()
    }

    /// `reportPresentation(ofFrame:at:)` with a time on the source's clock (a ``DisplayLab``'s).
    func reportPresentation(ofFrame frame: Int64, atClockNanoseconds time: Int64) {
        reportPresentation(ofFrame: frame, at: FrameInstant(nanoseconds: time - epochNanoseconds))
    }

    /// The clock's reading at the source's time zero (its deadline pacer's).
    @_spi(FrameSourceImplementation) public var epochNanoseconds: Int64 { deadline.epochNanoseconds }
}
