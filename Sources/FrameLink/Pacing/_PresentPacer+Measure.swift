// The pacer's measurement of a present: did it block, and what it tells the vsync tracker.
extension _PresentPacer {
    /// Takes in what the last present showed: whether it blocked, what that says of the swap
    /// chain and the back-to-back frames, and what it (or presentation feedback) tells the vsync
    /// tracker.
    func measurePresent() -> _MeasuredPresent {
        presentDurations.append(lastPresentDuration)
        // A present blocked when it took a good part of a period, or, once a grid is fitted, when
        // it returned on the vsync after its call (called just before one, it waits a moment:
        // latency mode calls it so, and so do frames that cost about a period).
        // **A present with room in the chain did not wait**: one called just before a vsync whose
        // return came just after it (its own cost, a scheduler's delay) was not released by that
        // vsync when the frame before was already shown (a chain of three buffers with room).
        let chainHadRoom = tracker.chainHadRoom(forPresentCalledAt: presentStart, chainDepth: chainDepth)
        let returnedOnVsync =
            tracker.grid.returnsOnVsync(calledAt: presentStart, returnedAt: presentEnd) && !chainHadRoom
        let blocked = _BlockingPresent.blocked(
            duration: lastPresentDuration, period: currentPeriod, returnedOnVsync: returnedOnVsync)
        presentsBlocked.append(blocked)
        chainFill.note(
            calledAt: presentStart, blocked: blocked, fastestPeriod: fastestPlausiblePeriod, buffers: swapChainBuffers)
        if let end = backToBack.endsWith(
            present: presentCount, blocked: blocked, chainShowsNoBlock: chainFill.showsPresentDoesNotBlock,
            capped: capsAtDisplayRefreshRate, fastestPeriod: fastestPlausiblePeriod)
        {
            // Frames too slow to fill a chain (or to show it ignores vsync) before the limit:
            // measured again once they are light enough to.
            machine.backToBackFramesEnded(inconclusive: end == .inconclusive)
        }
        let previousShownTime = tracker.knownShownTime
        tracker.knownDrops = nil
        tracker.knownTarget = nil
        tracker.knownShownTime = nil
        // A frame late for a variable-refresh display's fastest refresh is shown when it is
        // presented (or as soon as a refresh the display made on its own allows): its return says
        // nothing about a vsync grid.
        let lateOnVariableRefresh = isLateOnVariableRefresh(previousShownTime: previousShownTime)
        // (The first frame after a variable-refresh display was shown again is late: its display
        // waited for it.)
        let firstAfterShow = firstFrameAfterShow
        firstFrameAfterShow = false
        // **A block longer than the chain explains is no vsync's**: a present waits at most for
        // the frames queued ahead of it and its own vsync (the chain's depth plus the present
        // interval, in periods) and a delay; one that blocked longer (a compositor's
        // frame-callback timeout for a hidden window the host was not told of, a modeset's
        // blank) returned at no vsync.
        let longestBlock = (chainDepth + Int64(presentInterval)) * currentPeriod
        let blockIsTheChains =
            !tracker.grid.isUsable
            || lastPresentDuration <= longestBlock + currentPeriod / Self.longestBlockSlackFraction
        // (Read only by a fit from scratch.)
        if !tracker.grid.hasGrid {
            tracker.grid.explainedVsyncMultiple = explainedVsyncMultiple
            tracker.grid.nominalIsDisplaysReport = rateIsDisplaysReport
            tracker.grid.variableRefreshFastestPeriod = variableRefreshRange?.upperBound.periodNanoseconds
        }
        // (Read by every fit: the report of the display the frames are on now, as the grid's
        // nominal period is. Set only before a fit from scratch, a move that kept the grid kept
        // the old report's error, a fractional one's 1.7 µs for a whole-hertz one's 282: review 15.)
        tracker.grid.reportedPeriodUncertainty =
            rateIsDisplaysReport ? _VsyncGrid.reportedPeriodError(of: displayRefreshRate) : nil
        let relocks = tracker.grid.relocks
        // (Such a return is not offered to the grid, and does not fit it: its frame is timed as a
        // stray's.)
        let fits =
            tracker.take(
                presentEnd: presentEnd, blocked: blocked && !lateOnVariableRefresh && blockIsTheChains,
                variableRefresh: variableRefreshRange, reported: displayRefreshRate)
            && (blockIsTheChains || !blocked)
        lockLog.noteFrame(
            implausibleFits: tracker.grid.implausibleFits, relocksBefore: relocks, relocks: tracker.grid.relocks,
            isPhaseLocked: tracker.isPhaseLocked, rate: displayRefreshRate, measuredRate: measuredRefreshRate,
            into: &log)
        // A present that blocked although the source chose when it was called (after a deadline
        // wait, or held to a cap): its return may only echo that timing (see the phase probe).
        if blocked { tracker.noteBlockingPresent(callWasPaced: callWasPaced) }
        tracker.noteReturn(blockedUntil: blocked ? presentEnd : nil)
        callWasPaced = false
        lastReturnFits = blocked && fits
        lastReleaseIsUnknown =
            blocked && !blockIsTheChains
            && !tracker.grid.returnsOnVsync(calledAt: presentStart, returnedAt: presentEnd)
        returnOffset = presentEnd - frameStart
        return _MeasuredPresent(
            blocked: blocked, fits: fits, lateOnVariableRefresh: lateOnVariableRefresh,
            previousShownTime: previousShownTime, chainHadRoom: chainHadRoom,
            firstAfterShow: firstAfterShow && lateOnVariableRefresh)
    }

}
