// The pacer's frame-rate ranges (`PresentSource.requestFrameRate(in:)`), variable refresh and
// the automatic frame rate.
extension _PresentPacer {
    /// The requested frame-rate range (`PresentSource.requestFrameRate(in:)`).
    var requestedRange: FrameRateRange? { cadence.requestedRange }

    /// The vsyncs from one present to the next (`PresentSource.presentInterval`).
    var presentInterval: Int {
        cadence.presentInterval(
            followsVsync: mode == .vsync, base: vsyncRate, pacedDirectly: pacesRequestedRateDirectly)
    }

    /// Whether auto frame rate has halved the rate.
    var halvesRate: Bool { cadence.halvesRate }

    /// The display's rate, measured when known.
    var vsyncRate: FrameRate { measuredRefreshRate ?? displayRefreshRate }

    /// The vsyncs per frame chosen for the requested range while frames follow the vsync (1
    /// without one, or while the range is paced directly), for the display's rate (measured when
    /// known; see `_FrameRateCadence.divisor(of:)`).
    var rangeInterval: Int { cadence.rangeInterval(of: vsyncRate, pacedDirectly: pacesRequestedRateDirectly) }

    /// Whether frames are paced directly at a rate asked for (`_FrameRateCadence.pacesDirectly`):
    /// ``directRange`` on a variable-refresh display.
    var pacesRequestedRateDirectly: Bool {
        cadence.pacesDirectly(rateAskedFor: directRange != nil, variableRefresh: variableRefreshRange, pacing: pacing)
    }

    /// The rate a variable-refresh display is paced at directly, as a range: the requested range,
    /// or else a cap below the display's maximum (``capsAtDisplayRefreshRate``: a rate the game
    /// asked the host for), exactly. **A cap on a variable-refresh display is a rate asked for**:
    /// the display shows each frame as it is presented, so each present is held to its paced time
    /// and frames are shown evenly at the cap (presented as their work ended, frames whose work
    /// varies were shown unevenly, and one later than the display's slowest refresh after the
    /// frame before made it show the old frame again).
    var directRange: FrameRateRange? {
        if let requestedRange { return requestedRange }
        guard capsAtDisplayRefreshRate, let display = variableRefreshRange, displayRefreshRate < display.upperBound
        else { return nil }
        return FrameRateRange(exactly: displayRefreshRate)
    }

    /// The cap on a variable-refresh display (``capsAtDisplayRefreshRate``: the display's rate is a
    /// rate the game asked the host for), `nil` without one: a range asked for is paced directly,
    /// but never above it. (A 60 Hz cap with a range of exactly 100 Hz on a 44–144 Hz display
    /// showed frames every 10 ms: found by review.)
    var variableRefreshCap: FrameRate? {
        capsAtDisplayRefreshRate && variableRefreshRange != nil ? displayRefreshRate : nil
    }

    /// Whether a requested rate below a variable-refresh display's maximum is paced directly (see
    /// ``variableRefreshRange``): the display then shows each frame as it is presented. (At the
    /// maximum, a frame may wait for the display's next refresh.)
    var showsFramesWhenPresented: Bool {
        guard pacesRequestedRateDirectly, let display = variableRefreshRange else { return false }
        return deadline.refreshRate < display.upperBound
    }

    /// Whether the frame just presented on a variable-refresh display (``variableRefreshRange``)
    /// came late (``_VariableRefreshModel``), while pacing is automatic and no phase probe runs:
    /// the display shows it when it is presented, and it is not a drop. Late after the last
    /// frame's timestamp, or after `previousShownTime` (when the frame before it is shown, if
    /// known) when that is later: a frame queued ahead covers it.
    func isLateOnVariableRefresh(previousShownTime: Int64?) -> Bool {
        guard let display = variableRefreshRange, pacing == .automatic, machine.phaseProbe == nil,
            let lastTimestamp
        else { return false }
        if firstFrameAfterShow { return true }  // (See `firstFrameAfterShow`.)
        return _VariableRefreshModel.isLate(
            presentStart: presentStart, lastFrame: max(lastTimestamp, previousShownTime ?? lastTimestamp),
            pacedPeriod: pacedPeriodOnVariableRefresh, interval: Int64(presentInterval), refresh: display)
    }

    /// The period a variable-refresh display is paced at now, for one frame: a rate paced directly
    /// (the deadline grid's), else the current one.
    var pacedPeriodOnVariableRefresh: Int64 {
        pacesRequestedRateDirectly ? deadline.refreshRate.periodNanoseconds : currentPeriod
    }

    /// The refreshes a variable-refresh display (`display`) makes on its own between frames on time
    /// at the rate paced now (the deadline grid's or the vsync's, times ``presentInterval``): not
    /// drops (see ``_VariableRefreshModel/ownRefreshesOnTime(pacedPeriod:refresh:)``).
    func ownRefreshesOnTime(on display: ClosedRange<FrameRate>) -> Int {
        _VariableRefreshModel.ownRefreshesOnTime(
            pacedPeriod: pacedPeriodOnVariableRefresh * Int64(presentInterval), refresh: display)
    }

    /// The drops of a frame paced by deadline on a variable-refresh display (``variableRefreshRange``)
    /// at a rate it keeps up with (no faster than its maximum, so no frame queues behind another):
    /// the display waited for the frame and showed it as it came (or its fastest period after the
    /// refresh before), so it dropped one only each time its slowest refresh ran out
    /// (``_VariableRefreshModel``), however far the frame's timestamp moved (the phase probe's half
    /// period is no drop there), beyond those a frame on time brings at the paced rate (a rate
    /// below the display's minimum, as the game asked: see
    /// ``_VariableRefreshModel/ownRefreshesOnTime(pacedPeriod:refresh:)``). `nil` elsewhere: the
    /// interval counts them.
    func dropsShownAsPresented(lastShown: Int64?) -> Int? {
        guard let display = variableRefreshRange, deadline.refreshRate <= display.upperBound, let lastShown
        else { return nil }
        let own = _VariableRefreshModel.showing(presentedAt: presentStart, lastShown: lastShown, refresh: display).drops
        return max(0, own - ownRefreshesOnTime(on: display))
    }

    /// The effective frame rate (`PresentSource.refreshRate`).
    var refreshRate: FrameRate {
        let base = mode == .vsync ? (measuredRefreshRate ?? displayRefreshRate) : deadline.refreshRate
        return base.divided(by: presentInterval)
    }

    /// Paces frames at a rate in `range` (`PresentSource.requestFrameRate(in:)`).
    func requestFrameRate(in range: FrameRateRange?) {
        if cadence.request(range) { applyRequestedRange() }
    }

    /// The rate chosen for the requested range and why (`PresentSource.frameRateChoice`).
    var frameRateChoice: FrameRateChoice? {
        guard let requestedRange, mode != .unpaced else { return nil }
        if mode == .vsync && !pacesRequestedRateDirectly {
            return requestedRange.choice(dividing: vsyncRate, by: rangeInterval)
        }
        return deadline.frameRateChoice
    }

    /// Applies the requested range: the vsync divisor is chosen afresh, and the deadline grid
    /// (see ``applyDeadlineRange()``).
    func applyRequestedRange() {
        cadence.chooseAgain()
        if pacesRequestedRateDirectly, let range = directRange, let display = variableRefreshRange {
            applyDeadlineRange()
            if pacing == .automatic {
                let choice =
                    deadline.frameRateChoice ?? range.choice(onVariableRefresh: display, cappedAt: variableRefreshCap)
                let before = mode
                machine.rangePacedDirectly(choice)
                if mode != before { modeDidChange(from: before) }
                if let lastTimestamp { deadline.lockGrid(to: FrameInstant(nanoseconds: lastTimestamp)) }
            }
            return
        }
        if pacing == .automatic {
            // No longer paced directly (the range or the variable refresh is gone): measure again.
            machine.rangeNoLongerPacedDirectly()
        }
        applyDeadlineRange()
    }

    /// The deadline grid's rate for the requested range on a fixed display: the same division of
    /// the display's rate as under vsync once a vsync was seen (a hidden window keeps its cadence),
    /// else the preferred rate directly but never above the display's rate.
    func applyDeadlineRange() {
        // **A cap paced directly is a range of its own** (``directRange``), requested or not: the
        // deadline grid takes its rate. (Taken from the requested range alone, a cap lowered from
        // a variable-refresh display's maximum to 72 Hz while frames followed its vsync left the
        // grid at 144 Hz: every frame came when its work ended, shown 7 to 12 ms apart.)
        if pacesRequestedRateDirectly, let range = directRange, let display = variableRefreshRange {
            deadline.apply(range.choice(onVariableRefresh: display, cappedAt: variableRefreshCap))
            return
        }
        let vsyncIsKnown =
            measuredRefreshRate != nil && tracker.grid.isUsable && !tracker.keepsNoPhase
            && !tracker.returnsFollowFrames && !vsyncIsFasterThanDisplay
        deadline.apply(
            cadence.deadlineChoice(
                pacedDirectlyOn: pacesRequestedRateDirectly ? variableRefreshRange : nil, cap: variableRefreshCap,
                vsyncBase: vsyncIsKnown ? measuredRefreshRate : nil, display: displayRefreshRate))
    }

    /// Notes what the frame's work cost: for the back-to-back frames, and the automatic frame rate.
    func noteFrameCost(_ cost: Int64) {
        backToBack.noteFrameCost(cost)
        guard automaticFrameRate else { return }
        // The budget of a frame at the rate asked for (every vsync, or a requested range's rate).
        apply(cadence.noteFrameCost(cost, rate: refreshRate))
    }

    /// What the halved rate presents on: every 2nd deadline of a requested range's rate, or every
    /// 2k-th vsync for a divisor k.
    var halvedCadence: (every: Int, ofDeadlines: Bool) {
        mode == .deadline && cadence.requestedRange != nil
            ? (_AutoFrameRate.halvingFactor, true) : (rangeInterval * _AutoFrameRate.halvingFactor, false)
    }

    /// Notes in the log what the automatic frame rate did (`turnedOff`: it went back to the full
    /// rate because it was turned off).
    func apply(_ action: _AutoFrameRate.Action, turnedOff: Bool = false) {
        switch action {
        case .none:
            break
        case .halve:
            if case .halved(let cost, let budget) = cadence.autoFrameRate.state {
                let cadence = halvedCadence
                log.append(
                    .frameRateHalved(every: cadence.every, ofDeadlines: cadence.ofDeadlines, cost: cost, budget: budget)
                )
            }
        case .restore:
            log.append(.frameRateRestored(turnedOff: turnedOff))
        }
    }
}
