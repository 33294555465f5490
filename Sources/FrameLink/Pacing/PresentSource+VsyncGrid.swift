// PresentSource's vsync grid: what present returns and presentation feedback tell of it, the
// wait and the timestamp while frames follow it, and the swap-chain model's drops and targets.
extension PresentSource {
    /// When the frame presented at the last boundary reached, or will reach, the screen: the vsync
    /// the swap-chain model (or presentation feedback) puts it on while frames follow the vsync
    /// grid; the moment present returned while a requested rate below a variable-refresh display's
    /// maximum is paced directly; else `nil`.
    @_spi(FrameSourceImplementation) public var shownAtLastBoundary: FrameInstant? {
        knownShownTime.map { FrameInstant(nanoseconds: $0) }
    }

    /// Reports ignored as implausible (see `reportPresentation(ofFrame:at:)`).
    var ignoredReports: Int { reports.ignored }
    var chainDepth: Int64 { Int64(swapChainBuffers - Self.doubleBuffering) }

    /// Whether the presenter has reported when frames reached the screen
    /// (`reportPresentation(ofFrame:at:)`): the grid then follows those times.
    public var receivesPresentationFeedback: Bool { reports.receivesFeedback }

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
    public var isPhaseLocked: Bool { grid.isPhaseLocked && timestampFollowsVsync }

    /// How close to the true vsync the grid's line must be known (its stated 99th-percentile error,
    /// `_VsyncGrid.uncertainty(ofNumber:)`) for a timestamp to be called a vsync: 100 µs, the
    /// precision the pacing sweep holds such timestamps to. A line less precise still times the
    /// frames (it is the best estimate there is), but the source does not claim it.
    static let vsyncPrecision: Int64 = 100_000

    /// Whether the frame's timestamp is a vsync of a usable grid (the frame follows the grid) whose
    /// line is known within ``vsyncPrecision`` there, locked or not yet: what the pacing sweep
    /// judges against the true vsync.
    package var timestampFollowsVsync: Bool {
        guard grid.isUsable, let number = swapChain.lastVsyncNumber else { return false }
        return grid.uncertainty(ofNumber: number) <= Self.vsyncPrecision
    }

    /// How many times the vsync grid was fitted again because returns stopped fitting it (a move
    /// to a display with another rate, a hide and show that moved the phase).
    @_spi(FrameSourceImplementation) public var vsyncRelocks: Int { grid.relocks }

    /// When the frame being built will be shown, while frames follow the vsync grid.
    public var targetTimestamp: FrameInstant? {
        knownTarget.map { FrameInstant(nanoseconds: $0) }
    }

    /// The refreshes the display missed before the frame just presented, from the swap-chain model,
    /// while frames follow the vsync grid.
    @_spi(FrameSourceImplementation) public var droppedFramesAtLastBoundary: Int? { knownDrops }

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
        reports.accept(frame: frame, at: instant.nanoseconds, now: now.nanoseconds, presentCount: presentCount)
    }

    /// Tells the source that presentation feedback stopped coming (a compositor that stopped
    /// answering for an occluded window): the vsync grid goes back to present's returns until
    /// reports come again.
    package func presentationFeedbackStopped() {
        reports.stop()
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

    /// Offers the grid what is known of the vsync: reported presentation times, or else the
    /// return of a present that blocked.
    /// Returns whether the present's return fits the grid (true with feedback, which does not
    /// depend on it).
    func feedGrid(presentEnd: Int64, blocked: Bool) -> Bool {
        var fits = true
        if receivesPresentationFeedback {
            absorbReports()
            if displayWaitedForFrame {
                // A variable-refresh display showed a reported frame as it came: its refreshes
                // take the frame's phase, as after a late frame (see `nextFrameWait()`).
                displayWaitedForFrame = false
                forgetGridPosition()
                grid.restartPhase()
            }
        } else if blocked {
            fits = grid.add(returnTime: presentEnd)
        }
        if grid.relocks != gridGeneration {
            gridGeneration = grid.relocks
            forgetGridPosition()
        }
        // (Not from the old display's fit after a display change: see _VsyncRateVerdict.)
        if grid.hasGrid && grid.isStable != false && rateVerdict.isCurrentDisplays(relocks: grid.relocks) {
            // (The grid keeps only fits a display can have: see _VsyncGrid.plausiblePeriods.)
            if let rate = grid.measuredRate { measuredRefreshRate = rate }
        }
        if grid.hasGrid {
            rateVerdict.judge(
                period: grid.period, relocks: grid.relocks, reported: displayRefreshRate,
                returnsWerePaced: returnsWerePaced)
        }
        if grid.isStable == false {
            keepsNoPhase = true
        } else if grid.isStable == true && !returnsFollowFrames && !returnsWerePaced {
            // (A stable grid of returns whose calls the source timed may echo that timing: the
            // phase probe decides.)
            keepsNoPhase = false
        }
        return fits
    }

    /// Takes in the reported presentations: the vsync of the grid each reported frame was shown
    /// on, the newest noted in the swap-chain model (`_SwapChainModel`) to place the frames after it.
    /// (Drops are the model's, counted where it shows each frame: a report corrects where frames
    /// are shown, and a drop is booked at the boundary where the model knows of it, not when the
    /// report arrives a frame or two later, in an interval too short to hold it.)
    func takeReports() {
        absorbReports()
        guard let newest = newestReport else { return }
        swapChain.noteReport(
            frame: newest.frame, shownOn: grid.number(atOrBefore: newest.time + _VsyncGrid.earlyTolerance))
        newestReport = nil
    }

    /// Fits the grid to the reports that came in, and keeps the newest to place the model's frames.
    /// On a variable-refresh display a frame shown as its present was called, later than the
    /// display's fastest cadence allows after the frame before, was waited for
    /// (`_VariableRefreshModel.displayWaited(forFrameShownAt:calledAt:previousShownAt:fastestPeriod:)`):
    /// its time is the frame's own, not a refresh of a grid, so it is not fitted, and the grid
    /// starts again at the next frame boundary (`displayWaitedForFrame`).
    func absorbReports() {
        reports.takePending { frame, time, calledAt in
            let previous = previousReportedShowTime
            previousReportedShowTime = time
            if let display = variableRefreshRange, let calledAt,
                _VariableRefreshModel.displayWaited(
                    forFrameShownAt: time, calledAt: calledAt, previousShownAt: previous,
                    fastestPeriod: display.upperBound.periodNanoseconds)
            {
                displayWaitedForFrame = true
                return
            }
            grid.add(returnTime: time)
            newestReport = (frame, time)
        }
    }

    /// The wait while frames follow the grid: none after a present that blocked (the frame's vsync
    /// is the one at or before its return), a sleep to the next vsync after one that did not.
    /// Before a grid is fitted, the return is the best time there is, never sooner than a period
    /// after the last frame.
    func vsyncWait(blocked: Bool, fits: Bool, locksDeadline: Bool) -> FrameWait {
        // While measuring, a grid fitted to returns of presents whose calls the source timed is
        // not trusted before the phase probe says it is the display's.
        guard grid.isUsable, fits, !(locksDeadline && returnsWerePaced) else {
            // While the grid re-locks after a move the period is not known: a frame a vsync
            // released is not counted as a drop then. (At start-up the nominal period counts them,
            // and so does the old period for the returns before the relock.)
            forgetGridPosition()
            if blocked && grid.relocks > 0 && !grid.hasGrid { knownDrops = 0 }
            boundary = .now(blocked: blocked, locksDeadline: locksDeadline)
            guard let lastTimestamp else { return .none }
            if !blocked {
                return .sleep(until: FrameInstant(nanoseconds: lastTimestamp + currentPeriod * Int64(presentInterval)))
            }
            if locksDeadline && capsAtDisplayRefreshRate {
                // Still measuring, and the present that blocked is not known to be the display's
                // vsync (an emulated one throttles faster: Xvfb's 62.5 Hz on a display that reports
                // none): frames are held to the cap, never faster.
                let earliest = lastTimestamp + displayRefreshRate.periodNanoseconds
                if earliest > now.nanoseconds {
                    callWasPaced = true
                    return .sleep(until: FrameInstant(nanoseconds: earliest))
                }
            }
            return .none
        }
        let called = grid.number(atOrBefore: presentStart)
        var number = grid.number(atOrBefore: now.nanoseconds + (blocked ? _VsyncGrid.earlyTolerance : 0))
        if !blocked { number += 1 }
        if let last = swapChain.lastVsyncNumber, number < last + Int64(presentInterval) {
            number = last + Int64(presentInterval)
        }
        // Coming onto the grid from frames timed otherwise (a deadline grid, the phase probe's
        // shifted frames): never a frame less than half a period after the last one.
        if swapChain.lastVsyncNumber == nil, let lastTimestamp {
            while grid.time(ofNumber: number) < lastTimestamp + currentPeriod / Self.comingOntoGridFraction {
                number += 1
            }
        }
        boundary = .vsync(called: called, number: number, blocked: blocked, locksDeadline: locksDeadline)
        let time = grid.time(ofNumber: number)
        return time > now.nanoseconds ? .sleep(until: FrameInstant(nanoseconds: time)) : .none
    }

    /// The frame's timestamp while frames follow the grid: vsync `number` (present was called in
    /// vsync `called`'s interval). Counts the refreshes the display missed from the swap-chain
    /// model, and the target of the next frame.
    func vsyncTimestamp(called: Int64, number: Int64, blocked: Bool) -> Int64 {
        // Feedback that came in up to now, the wait included: where recent frames were really
        // shown, which places the frames after them.
        if receivesPresentationFeedback { takeReports() }
        let placement = swapChain.place(
            _SwapChainModel.Frame(
                called: called, number: number, blocked: blocked, frame: presentCount,
                interval: Int64(presentInterval), chainDepth: chainDepth, lastBlockingReturn: lastBlockingReturnNumber,
                refreshesEveryVsync: variableRefreshRange == nil))
        knownDrops = placement.drops
        knownShownTime = grid.time(ofNumber: placement.shown)
        knownTarget = grid.time(ofNumber: placement.target)
        return grid.time(ofNumber: number)
    }

    /// The grid number of the last frame's timestamp when that was the return of a present that
    /// blocked, on a vsync of the grid (within a quarter period: while the source still measured,
    /// as when a game that starts with slow frames shows each on every 3rd vsync); `nil` after any
    /// other timestamp (a deadline's, the phase probe's shifted frames, a hidden window's).
    var lastBlockingReturnNumber: Int64? {
        guard let lastTimestamp, lastTimestampWasBlockingReturn else { return nil }
        let period = Int64(grid.period.rounded())
        let slack = period / Self.blockingReturnOnGridFraction
        let previous = grid.number(atOrBefore: lastTimestamp + slack)
        guard abs(lastTimestamp - grid.time(ofNumber: previous)) <= slack else { return nil }
        return previous
    }

    /// Frames no longer follow the grid (deadline pacing, a relock): the next frame on it starts
    /// the swap-chain model afresh.
    func forgetGridPosition() {
        swapChain.forget()
    }

    /// How many vsync fits were discarded for a period no display has (see `_VsyncGrid`).
    var discardedImplausibleFits: Int { grid.implausibleFits }
}
