// The pacer's frame path: the wait before present, present timed, and the wait and timestamp
// of the next frame.
extension _PresentPacer {
    /// The wait before the present, carried out by the loop's waiter as any wait is (the main queue
    /// served while it sleeps; real-time priority for a deadline's last stretch): while frames go
    /// out on every k-th vsync (a range's divisor, the automatic frame rate's halving), until the
    /// interval before the k-th vsync (a
    /// present on a FIFO swap chain goes out at the first vsync after it is called); while a
    /// requested rate is paced directly on a variable-refresh display, until the frame's paced
    /// time, precisely (the display shows the frame when it is presented, so the present, not only
    /// the frame's start, is held to it: frames whose work varies are still shown evenly); while
    /// the heavy-frame probe runs, until half a period past the vsync the last present returned on
    /// (``_HeavyFrameProbe``). Else none. Notes what the frame's work cost first (the automatic frame rate may change the
    /// interval).
    func presentWait() -> FrameWait {
        guard let lastTimestamp else { return .none }
        noteWorkEnded()
        if mode == .vsync && presentInterval > 1 {
            // Out at the first vsync after the call: called in the interval before the k-th.
            let hold = currentPeriod * Int64(presentInterval - 1) + currentPeriod / Self.holdFraction
            return .sleep(until: FrameInstant(nanoseconds: lastTimestamp + hold))
        } else if pacing == .automatic && showsFramesWhenPresented {
            let target = lastTimestamp + deadline.refreshRate.periodNanoseconds * Int64(presentInterval)
            return .deadline(FrameInstant(nanoseconds: target))
        } else if machine.heavyFrameProbe != nil && presentCount > 0 {
            // The heavy-frame probe: the present half a period past the vsync the last one
            // returned on. (The call is the source's timing: its return may only echo it.)
            callWasPaced = true
            return .sleep(
                until: FrameInstant(
                    nanoseconds: _HeavyFrameProbe.presentTime(
                        lastReturn: presentEnd, period: currentPeriod, now: now.nanoseconds)))
        }
        return .none
    }

    /// Notes what the frame's work cost, once per frame: from its start to now.
    func noteWorkEnded() {
        guard !workCostNoted, lastTimestamp != nil else { return }
        workCostNoted = true
        noteFrameCost(now.nanoseconds - frameStart)
    }

    /// Notes that present is about to be called (after `presentWait()`'s wait): the frame's work
    /// ended, and the call's start.
    func willPresent() {
        noteWorkEnded()
        previousPresentStart = presentCount > 0 ? presentStart : nil
        presentStart = now.nanoseconds
        // (Reports for this frame may come from inside present: it is frame presentCount + 1.)
        tracker.reports.notePresentCall(at: presentStart, ofFrame: presentCount + 1)
    }

    /// Notes that present returned: the frame is counted and the call timed.
    func didPresent() {
        presentCount += 1
        presentEnd = now.nanoseconds
        lastPresentDuration = presentEnd - presentStart
    }

    /// Takes in what the present showed (did it block, where is the vsync grid) and decides the
    /// wait: none after a present that blocked until its vsync, a sleep to the grid's next vsync
    /// after one that did not, a deadline in deadline mode.
    func nextFrameWait() -> FrameWait {
        let present = isWindowHidden ? nil : measurePresent()
        let rule = _FrameRule.choose(
            _FrameRule.Facts(
                windowHidden: isWindowHidden, lateOnVariableRefresh: present?.lateOnVariableRefresh ?? false,
                automatic: pacing == .automatic, pacesRequestedRateDirectly: pacesRequestedRateDirectly,
                phaseProbeRuns: machine.phaseProbe != nil, mode: mode, blocked: present?.blocked ?? false,
                keepsNoPhase: tracker.keepsNoPhase, vsyncIsFasterThanDisplay: vsyncIsFasterThanDisplay,
                isProbing: isProbing,
                returnedPastDeadline: lastTimestamp.map { presentEnd >= $0 + deadline.refreshRate.periodNanoseconds }
                    ?? false))
        frameRule = rule
        guard let present else {
            // Hidden: no drop (nothing was to be shown), no measurement, the deadline grid.
            tracker.noteReturn(blockedUntil: nil)
            chainFill.forget()
            backToBack.stop()
            tracker.knownDrops = 0
            tracker.knownTarget = nil
            tracker.knownShownTime = nil
            return pacedByDeadline(framesAfterLast: Int64(presentInterval))
        }
        return wait(following: rule, after: present)
    }

    /// Carries out `rule` (see ``_FrameRule``) for the frame after `present`: the wait, what ends
    /// it, and the drops and shown time known at this boundary.
    func wait(following rule: _FrameRule, after present: _MeasuredPresent) -> FrameWait {
        // The drops of a frame paced by deadline below a variable-refresh display's maximum (`nil`
        // elsewhere: the interval counts them).
        let dropsIfShownAsPresented = dropsShownAsPresented(
            lastShown: present.previousShownTime ?? previousPresentStart)
        switch rule {
        case .hiddenWindow:
            preconditionFailure("a hidden window's frames are paced before any present is measured")
        case .lateOnVariableRefresh:
            guard let display = variableRefreshRange, let lastTimestamp else { return .none }
            tracker.forgetPosition()
            tracker.grid.restartPhaseKeepingPeriod()
            let shown: (time: Int64, drops: Int)
            if present.firstAfterShow {
                // The display refreshed on its own every slowest period since it last showed a
                // frame of ours, and nothing was to be shown meanwhile (no drop).
                let time =
                    lastShownBeforeHiding.map {
                        _VariableRefreshModel.showing(presentedAt: presentStart, lastShown: $0, refresh: display).time
                    } ?? presentStart
                shown = (time, 0)
            } else {
                shown = _VariableRefreshModel.showing(
                    presentedAt: presentStart,
                    lastShown: present.previousShownTime
                        ?? (mode == .vsync ? lastTimestamp : previousPresentStart ?? lastTimestamp),
                    refresh: display)
            }
            tracker.knownDrops = max(0, shown.drops - ownRefreshesOnTime(on: display))
            tracker.knownShownTime = shown.time
            machine.frameLateOnVariableRefresh(
                maximum: display.upperBound, pacesRequestedRateDirectly: pacesRequestedRateDirectly)
            // Timed at the refresh that showed it (a present that blocked for it returns a little
            // after), or at the present's return if the frame still waits to be shown.
            boundary = .restartingDeadline(at: min(shown.time, presentEnd))
            return .none
        case .requestedRateOnVariableRefresh:
            if showsFramesWhenPresented { tracker.knownShownTime = presentEnd }
            tracker.knownDrops = dropsIfShownAsPresented
            return pacedByDeadline(framesAfterLast: Int64(presentInterval))
        case .phaseProbe:
            let (grid, returned) = (tracker.grid, presentEnd)
            machine.phaseProbeFrame(blocked: present.blocked) {
                // How far from the grid's vsync the present returned (a return just before one,
                // within the line's error, counts as on it).
                let number = grid.number(atOrBefore: returned + _VsyncGrid.earlyTolerance)
                return abs(returned - grid.time(ofNumber: number))
            }
            tracker.knownDrops = dropsIfShownAsPresented
            return pacedByDeadline(framesAfterLast: 1)
        case .unpaced:
            tracker.forgetPosition()
            boundary = .presentEnd
            return .none
        case .backToBack:
            boundary = .presentEnd
            return .none
        case .followVsync:
            let slowOnGrid = tracker.isSlowReturnOnGrid(
                presentStart: presentStart, presentEnd: presentEnd, blocked: present.blocked, fits: present.fits)
            return vsyncWait(
                blocked: present.blocked, fits: present.fits || slowOnGrid, locksDeadline: false,
                chainHadRoom: present.chainHadRoom)
        case .measuringBlockingPresent:
            // **A variable-refresh display drops a frame only when its slowest refresh runs out**:
            // it shows each frame as it comes, so an interval longer than its fastest period is
            // no drop (counted by its fastest rate while measuring, a game bound by its GPU, 14 ms
            // a frame on a 48–144 Hz display, booked one drop a frame where the display missed
            // none: found by review).
            if variableRefreshRange != nil { tracker.knownDrops = dropsIfShownAsPresented }
            return vsyncWait(
                blocked: present.blocked, fits: present.fits, locksDeadline: true, chainHadRoom: present.chainHadRoom)
        case .heldPastDeadline:
            tracker.forgetPosition()
            boundary = .restartingDeadline(at: presentEnd)
            return .none
        case .deadline:
            tracker.knownDrops = dropsIfShownAsPresented
            return pacedByDeadline(framesAfterLast: Int64(presentInterval))
        }
    }

    /// Frames paced by the deadline grid, `framesAfterLast` of its points after the last frame: off
    /// the vsync grid, the call timed by the source.
    func pacedByDeadline(framesAfterLast frames: Int64) -> FrameWait {
        tracker.forgetPosition()
        boundary = .deadline
        callWasPaced = true
        return deadline.deadlineWait(framesAfterLast: frames)
    }

    /// An idle wait until `deadline` or input.
    func idleWait(until deadline: FrameInstant?) -> FrameWait {
        boundary = .idle
        return .idle(until: deadline)
    }

    /// The frame's timestamp, now that the wait is over: the vsync of the grid in vsync mode, the
    /// deadline reached in deadline mode.
    func beginFrame(at instant: FrameInstant) -> FrameInstant {
        let timestamp: Int64
        switch boundary {
        case .presentEnd:
            timestamp = presentEnd
        case .restartingDeadline(let time):
            timestamp = time
            deadline.lockGrid(to: FrameInstant(nanoseconds: time))
        case .deadline:
            timestamp = instant.nanoseconds
        case .now(_, let locksDeadline):
            timestamp = instant.nanoseconds
            if locksDeadline { deadline.lockGrid(to: FrameInstant(nanoseconds: timestamp)) }
        case .vsync(let called, let number, let blocked, let released, let locksDeadline):
            timestamp = vsyncTimestamp(called: called, number: number, blocked: blocked, released: released)
            if locksDeadline { deadline.lockGrid(to: FrameInstant(nanoseconds: timestamp)) }
        case .idle:
            let woke = instant
            deadline.noteIdleEnded(at: woke)
            lastTimestamp = nil
            lastTimestampWasBlockingReturn = false
            tracker.forgetReturns()
            backToBack.forgetCosts()
            tracker.forgetPosition()
            tracker.knownDrops = nil
            tracker.knownTarget = nil
            lastDropsCountedByInterval = false
            probeDelay = nil
            return woke
        }
        let previousTimestamp = lastTimestamp
        lastTimestamp = timestamp
        lastTimestampWasBlockingReturn = boundary.isBlockingReturn
        // (The probe's delay is the next frame's: detect() below may start a probe.)
        let pendingProbeDelay = probeDelay
        probeDelay = nil
        if pacing == .automatic { detect() }
        if case .vsync = boundary, var known = tracker.knownDrops, let previousTimestamp {
            let interval = timestamp - previousTimestamp
            let period = refreshRate.periodNanoseconds
            // **Coming onto the grid, the interval counts the drops the model cannot**, when the
            // frames before were timed otherwise and their drops counted by their intervals:
            // nothing says where the last of them was shown. (Booked as none, a refresh the display
            // missed just before vsync pacing began was lost for good: found by the sweep. Not
            // after frames whose drops were known otherwise: a hidden window's none, a
            // variable-refresh display's.)
            if tracker.dropsBeforeAreUnknown && lastDropsCountedByInterval {
                known += FrameRecord.droppedFrames(interval: interval, period: period)
            }
            tracker.knownDrops = min(known, Self.mostSwapChainDrops(interval: interval, period: period))
        }
        // **The phase probe's delay is no drop**: it starts its first frame up to a period late so
        // that the frame's present lands half a period off the grid, before the vsync that shows
        // it; the interval less that delay counts the frame's drops, as the deadline's intervals
        // count the others. (Counted whole, an interval of 1.504 periods booked a drop where the
        // display showed the two frames one refresh apart, in 12 of 30 runs at 60 Hz: review 15.)
        if let delay = pendingProbeDelay, case .deadline = boundary, tracker.knownDrops == nil,
            let previousTimestamp
        {
            tracker.knownDrops = FrameRecord.droppedFrames(
                interval: timestamp - previousTimestamp - delay, period: refreshRate.periodNanoseconds)
        }
        tracker.dropsBeforeAreUnknown = false
        lastDropsCountedByInterval = tracker.knownDrops == nil
        return FrameInstant(nanoseconds: timestamp)
    }

    /// Notes when the frame's work began (after a latency-mode wait): frame costs, for the
    /// automatic frame rate and the phase probe, run from here.
    func beginWork(at instant: FrameInstant) {
        frameStart = instant.nanoseconds
        workCostNoted = false
    }

    /// `frames` vsyncs of the grid after `timestamp` while frames follow it; else `frames` periods
    /// of the effective rate.
    func expectedTimestamp(frames: Int64, after timestamp: FrameInstant) -> FrameInstant {
        if tracker.followsGrid {
            let number = tracker.grid.number(atOrBefore: timestamp.nanoseconds + _VsyncGrid.earlyTolerance)
            return FrameInstant(nanoseconds: tracker.grid.time(ofNumber: number + frames * Int64(presentInterval)))
        }
        let rate = refreshRate
        return FrameInstant(nanoseconds: timestamp.nanoseconds + rate.offsetNanoseconds(ofFrame: frames))
    }

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
    /// vsync `called`'s interval, and released by vsync `released` if it blocked), placed by the
    /// swap-chain model. Coming onto the grid, the
    /// frame before is placed by the vsync that released its present, if it blocked: the last
    /// timestamp's when that was a blocking return, else the present's own return's (frames paced
    /// by deadline whose presents blocked: a refresh the next frame missed is a drop).
    func vsyncTimestamp(called: Int64, number: Int64, blocked: Bool, released: Int64) -> Int64 {
        tracker.placeFrame(
            called: called, number: number, blocked: blocked, released: released,
            releaseIsUnknown: blocked && lastReleaseIsUnknown, frame: presentCount,
            interval: Int64(presentInterval), chainDepth: chainDepth,
            lastBlockingReturn: tracker.blockingReturnNumber(
                lastTimestamp: lastTimestamp, wasBlockingReturn: lastTimestampWasBlockingReturn)
                ?? tracker.blockingReturnNumber(
                    lastTimestamp: tracker.blockingReturnBeforeLast, wasBlockingReturn: true),
            variableRefresh: variableRefreshRange)
    }
}
