// The pacer's detection: whether present blocks on the display's vsync, decided by the pacing
// machine (``_PacingMachine``) from what is measured.
extension _PresentPacer {
    /// Whether the first frames are still presented back to back.
    var isProbing: Bool { backToBack.isRunning }
    /// Whether frames may go back to back to measure again whether present blocks: the last frames
    /// were light (``_BackToBackFrames``), and no cap, requested range or halved rate holds them
    /// (back-to-back frames would exceed it).
    var mayMeasureAgain: Bool {
        backToBack.framesAreLight(period: displayRefreshRate.periodNanoseconds) && !capsAtDisplayRefreshRate
            && requestedRange == nil && !halvesRate
    }
    /// Takes in a change of the requested pacing.
    func applyRequestedPacing() {
        chainFill.forget()
        let before = mode
        machine.pacingRequested(pacing)
        if mode != before { modeDidChange(from: before) }
        // Whether a range is paced directly depends on the pacing asked for.
        if requestedRange != nil || capsAtDisplayRefreshRate { applyRequestedRange() }
    }

    /// Whether the blocking presents measured so far come faster than the display allows.
    var vsyncIsFasterThanDisplay: Bool { tracker.rateVerdict.isFaster }

    /// The fastest period the display may really have, in nanoseconds.
    var fastestPlausiblePeriod: Int64 {
        _VsyncRateVerdict.fastestPlausiblePeriod(reported: displayRefreshRate)
    }

    /// What the source has measured, for the pacing machine.
    var evidence: _PacingMachine.Evidence {
        _PacingMachine.Evidence(
            presentsTimed: presentDurations.count, medianPresent: presentDurations.median,
            displayRate: displayRefreshRate, gridRate: measuredRefreshRate ?? displayRefreshRate,
            gridRateIsMeasured: measuredRefreshRate != nil,
            gridPeriod: tracker.grid.period, gridIsStable: tracker.grid.isStable, gridRelocks: tracker.grid.relocks,
            lastReturnFits: lastReturnFits, receivesFeedback: tracker.receivesFeedback,
            returnsWerePaced: tracker.returnsWerePaced, returnsFollowFrames: tracker.returnsFollowFrames,
            vsyncIsFasterThanDisplay: vsyncIsFasterThanDisplay, fasterVerdictDoubted: tracker.rateVerdict.isDoubted,
            presentsReturnAtOnceIntoFullChain: chainFill.showsPresentDoesNotBlock, isProbing: isProbing,
            mayMeasureAgain: mayMeasureAgain, pacesRequestedRateDirectly: pacesRequestedRateDirectly,
            keepsNoPhase: tracker.keepsNoPhase, gridIsUsable: tracker.grid.isUsable,
            presentWindowIsFull: presentDurations.count == presentDurations.capacity,
            heavyFramesMayBeProbed: heavyFramesMayBeProbed, noPresentBlocked: presentsBlocked.marked == 0)
    }

    /// Whether the heavy-frame probe may hold the presents (``_HeavyFrameProbe``): the last frames
    /// were too heavy to go back to back (a full window of costs, not light), on two buffers (with
    /// more, a chain has room for frames at the display's rate: a held present waits for nothing),
    /// and nothing else holds them: no cap, requested range, halved rate or variable refresh (which
    /// shows frames when they come: no vsync to wait for).
    var heavyFramesMayBeProbed: Bool {
        backToBack.recentCosts.count == backToBack.recentCosts.capacity && chainDepth == 0
            && !backToBack.framesAreLight(period: displayRefreshRate.periodNanoseconds) && !capsAtDisplayRefreshRate
            && requestedRange == nil && !halvesRate && variableRefreshRange == nil
    }

    /// Lets the pacing machine decide from what is measured, and does what it says.
    func detect() {
        let before = mode
        let action = machine.frameBegan(evidence)
        if mode != before { modeDidChange(from: before) }
        switch action {
        case .none:
            break
        case .startPhaseProbe:
            // Frames begin so that, with the last frame's time from its start to its present's
            // return, the returns would land half a period off the grid's vsyncs.
            let start = _PhaseProbe.firstFrameStart(
                vsyncAfterNext: tracker.grid.time(
                    ofNumber: tracker.grid.number(atOrBefore: now.nanoseconds) + _PhaseProbe.firstVsyncAhead),
                period: Int64(tracker.grid.period.rounded()), returnOffset: returnOffset, now: now.nanoseconds)
            let period = deadline.refreshRate.periodNanoseconds
            deadline.lockGrid(to: FrameInstant(nanoseconds: start - period))
            // (What the probe adds to the next interval beyond a period: no drop of the display's.)
            probeDelay = lastTimestamp.map { max(0, start - $0 - period) }
        case .paceAtDisplayRate:
            deadline.refreshRate = displayRefreshRate
            applyDeadlineRange()
        case .measureAgain:
            startBackToBackFrames()
        case .notePresentFollowsFrames:
            tracker.returnsFollowFrames = true
            tracker.keepsNoPhase = true
            log.append(.presentFollowsFrames(pacingState.reason, rate: displayRefreshRate))
        case .clearDoubtsAboutGrid:
            tracker.keepsNoPhase = false
            tracker.rateVerdict.clear()
        }
    }

    /// Whether ``displayRefreshRate`` is a fixed display's own report: not a cap, nor the rate
    /// assumed for a display that reports none, nor a variable-refresh display's fastest.
    var rateIsDisplaysReport: Bool { !capsAtDisplayRefreshRate && variableRefreshRange == nil }

    /// The most vsyncs between two presents' returns that the source's own pacing explains: its
    /// present interval, or, while the last frames cost more than a period, one more than the
    /// whole periods the costliest of them took (a frame of 2.4 periods is shown on the 3rd vsync).
    /// On a fixed display whose rate is its own report (not a cap, nor the rate assumed for a
    /// display that reports none), any multiple the first fit allows
    /// (`_VsyncGrid.largestVsyncMultiple`): **returns whole periods of a reported rate apart are
    /// that many of its vsyncs**, whatever the frames' own cost says. A game bound by its GPU
    /// (4 ms of work, 20 ms of drawing after present) returned every 2nd vsync of a 60 Hz display
    /// from the start and was taken for a 30 Hz one: 890 missed refreshes, none booked (found by
    /// review). A display slower than its report (a 30 Hz mode reported as 60) then books a drop
    /// on every frame: a report that is wrong by a whole multiple is rarer than a game bound by
    /// its GPU.
    var explainedVsyncMultiple: Int64 {
        if rateIsDisplaysReport { return _VsyncGrid.largestVsyncMultiple }
        let period = displayRefreshRate.periodNanoseconds
        return max(Int64(presentInterval), period > 0 ? backToBack.costliestRecentFrame / period + 1 : 1)
    }

    /// Presents the next frames back to back (or until one blocks), and measures again
    /// whether present blocks: the start-up probe, again, once frames are fast enough to fill a
    /// swap chain.
    func startBackToBackFrames() {
        backToBack.start(afterPresent: presentCount)
        presentDurations.removeAll()
        presentsBlocked.removeAll()
        // A fit from before the slow frames is carried over a gap with no returns: its line may
        // have drifted from the vsync by then. The returns to come fit it afresh.
        if tracker.grid.hasGrid { tracker.grid.restartPhase() }
        // **Back-to-back frames measure as at start-up**: their presents are called when the
        // last returned, not when the source chose, so the grid they fit needs no phase probe,
        // whatever the frames paced by deadline before them did. (Remembered, the deadline frames'
        // presents sent each grid the back-to-back frames fitted to the probe, which with three
        // buffers and light frames drained the chain and ended without a verdict, over and over:
        // after `.deadline`, a move to 75 Hz and `.automatic` again, frames never followed the
        // vsync again, 591 of 591 timestamps up to 6.7 ms off: review 16.)
        tracker.forgetPacedReturns()
        log.append(.measuringAgain(rate: displayRefreshRate))
    }

    /// Whether frames may begin late (``FrameLoop/minimizesInputLatency``) without disturbing what
    /// the source measures: while pacing is automatic, once frames follow a vsync grid or the source
    /// has decided to pace by deadline; always under forced pacing.
    var acceptsLateFrames: Bool {
        pacing != .automatic || machine.hasDecided(evidence)
    }

    /// What a change of mode (from `oldMode` to ``mode``) takes besides: the log says so, the
    /// present durations are timed afresh, and in deadline mode the deadline grid keeps the vsync's
    /// rate and phase where they are known (a window hidden, or a swap chain whose presents stopped
    /// blocking, is still best paced on the display's grid).
    func modeDidChange(from oldMode: PresentSource.Mode) {
        log.append(.modeChanged(from: oldMode, to: pacingState, rate: displayRefreshRate))
        presentDurations.removeAll()
        presentsBlocked.removeAll()
        if mode == .deadline, let lastTimestamp {
            if let measuredRefreshRate, tracker.grid.isUsable { deadline.refreshRate = measuredRefreshRate }
            applyDeadlineRange()
            deadline.lockGrid(to: FrameInstant(nanoseconds: lastTimestamp))
        }
    }
}
