// PresentSource's vsync grid, as the game and the presenter see it: a thin face on `_VsyncTracker`,
// which keeps the grid, the feedback and the swap-chain model.
extension PresentSource {
    /// When the frame presented at the last boundary reached, or will reach, the screen: the vsync
    /// the swap-chain model (or presentation feedback) puts it on while frames follow the vsync
    /// grid; the moment present returned while a requested rate below a variable-refresh display's
    /// maximum is paced directly; else `nil`.
    @_spi(FrameSourceImplementation) public var shownAtLastBoundary: FrameInstant? {
        tracker.knownShownTime.map { FrameInstant(nanoseconds: $0) }
    }

    /// Reports ignored as implausible (see `reportPresentation(ofFrame:at:)`).
    var ignoredReports: Int { tracker.reports.ignored }
    var chainDepth: Int64 { Int64(swapChainBuffers - Self.doubleBuffering) }

    /// Whether the presenter has reported when frames reached the screen
    /// (`reportPresentation(ofFrame:at:)`): the grid then follows those times.
    public var receivesPresentationFeedback: Bool { tracker.receivesFeedback }

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
    public var isPhaseLocked: Bool { tracker.isPhaseLocked }

    /// Whether the frame's timestamp is a vsync of a usable grid (the frame follows the grid) whose
    /// line is known within 100 µs there (`_VsyncTracker.vsyncPrecision`), locked or not yet: what
    /// the pacing sweep judges against the true vsync.
    package var timestampFollowsVsync: Bool { tracker.timestampFollowsVsync }

    /// How many times the vsync grid was fitted again because returns stopped fitting it (a move
    /// to a display with another rate, a hide and show that moved the phase).
    @_spi(FrameSourceImplementation) public var vsyncRelocks: Int { tracker.grid.relocks }

    /// When the frame being built will be shown, while frames follow the vsync grid.
    public var targetTimestamp: FrameInstant? {
        tracker.knownTarget.map { FrameInstant(nanoseconds: $0) }
    }

    /// The refreshes the display missed before the frame just presented, from the swap-chain model,
    /// while frames follow the vsync grid.
    @_spi(FrameSourceImplementation) public var droppedFramesAtLastBoundary: Int? { tracker.knownDrops }

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
        tracker.reports.accept(frame: frame, at: instant.nanoseconds, now: now.nanoseconds, presentCount: presentCount)
    }

    /// Tells the source that presentation feedback stopped coming (a compositor that stopped
    /// answering for an occluded window): the vsync grid goes back to present's returns until
    /// reports come again.
    package func presentationFeedbackStopped() {
        tracker.reports.stop()
    }

    /// `reportPresentation(ofFrame:at:)` with a time on the source's clock (a ``DisplayLab``'s).
    func reportPresentation(ofFrame frame: Int64, atClockNanoseconds time: Int64) {
        reportPresentation(ofFrame: frame, at: FrameInstant(nanoseconds: time - epochNanoseconds))
    }

    /// The period frames are paced at now: the vsync's in vsync mode, the deadline grid's else.
    var currentPeriod: Int64 {
        (mode == .vsync ? (measuredRefreshRate ?? displayRefreshRate) : deadline.refreshRate).periodNanoseconds
    }

    /// The clock's reading at the source's time zero (its deadline pacer's).
    @_spi(FrameSourceImplementation) public var epochNanoseconds: Int64 { deadline.epochNanoseconds }

    /// The wait while frames follow the grid (see `_VsyncTracker.vsyncWait(for:)`).
    func vsyncWait(blocked: Bool, fits: Bool, locksDeadline: Bool, chainHadRoom: Bool) -> FrameWait {
        let decided = tracker.vsyncWait(
            for: _VsyncTracker.Boundary(
                blocked: blocked, fits: fits, locksDeadline: locksDeadline, presentStart: presentStart,
                now: now.nanoseconds, lastTimestamp: lastTimestamp, period: currentPeriod,
                interval: Int64(presentInterval),
                capPeriod: capsAtDisplayRefreshRate ? displayRefreshRate.periodNanoseconds : nil,
                chainHadRoom: chainHadRoom))
        boundary = decided.boundary
        if decided.heldToCap { callWasPaced = true }
        return decided.wait
    }

    /// The frame's timestamp while frames follow the grid: vsync `number` (present was called in
    /// vsync `called`'s interval), placed by the swap-chain model. Coming onto the grid, the
    /// frame before is placed by the vsync that released its present, if it blocked: the last
    /// timestamp's when that was a blocking return, else the present's own return's (frames paced
    /// by deadline whose presents blocked: a refresh the next frame missed is a drop).
    func vsyncTimestamp(called: Int64, number: Int64, blocked: Bool) -> Int64 {
        tracker.placeFrame(
            called: called, number: number, blocked: blocked, frame: presentCount,
            interval: Int64(presentInterval), chainDepth: chainDepth,
            lastBlockingReturn: tracker.blockingReturnNumber(
                lastTimestamp: lastTimestamp, wasBlockingReturn: lastTimestampWasBlockingReturn)
                ?? tracker.blockingReturnNumber(
                    lastTimestamp: tracker.blockingReturnBeforeLast, wasBlockingReturn: true),
            variableRefresh: variableRefreshRange)
    }

    /// How many vsync fits were discarded for a period no display has (see `_VsyncGrid`).
    var discardedImplausibleFits: Int { tracker.grid.implausibleFits }
}
