/// How a ``PresentSource`` decides its mode while pacing is automatic: a state machine in
/// swift-nio's style. The state is the typed ``PacingState`` (mode and reason) with the phase probe
/// under way and whether a verdict waits for lighter frames; events come in as mutating calls, and
/// what the source must do besides changing its state comes back as an ``Action``.
///
/// The machine decides; it measures nothing. What the source has measured (present durations, the
/// vsync grid, the swap chain's evidence, the rate verdict) comes in as ``Evidence`` at the start
/// of each frame (``frameBegan(_:)``). The rules, each with its reason:
/// - **no verdict before ``presentsBeforeVerdict`` presents** were timed, and none while a requested
///   rate is paced directly on a variable-refresh display (the range decides there);
/// - **the phase probe** concludes when its frames are done (``_PhaseProbe``);
/// - **a vsync faster than the display** (by more than the display's rate allows) is not the
///   display's: deadline pacing at the display's rate; if the returns the source timed then fit a
///   grid no faster, the phase probe decides whether it is the display's after all;
/// - **in deadline mode**: a phase-stable grid whose last return fitted it (or presentation
///   feedback) promotes to vsync, through the phase probe when the source timed the presents'
///   calls; returns that keep no phase are an emulated vsync; presents that returned at once into
///   a chain that must have been full (``_SwapChainFill``) reject vsync; frames that were too slow to
///   fill a chain go back to back again once they are light; while they stay heavy and their
///   presents block too briefly to tell, the heavy-frame probe holds their presents half a period
///   past a vsync, once per wait (``_HeavyFrameProbe``);
/// - **in vsync mode**: the same evidence of presents returning at once (without feedback), or
///   returns that keep no phase, demote to deadline pacing. Jitter alone never does.
struct _PacingMachine {
    /// Presents timed before any verdict: 8, half the window of 16 whose median is read (a median
    /// of fewer is one slow present away from another answer).
    static let presentsBeforeVerdict = 8

    /// A present blocks, in the median, when it takes a period divided by this or more: a quarter
    /// of a period (a present that waits for the vsync waits, on average, about half of one; one
    /// that returns at once costs tens of microseconds).
    static let blockingMedianFraction: Int64 = 4

    /// The mode and why.
    private(set) var state: PacingState
    /// The phase probe under way, if any.
    private(set) var phaseProbe: _PhaseProbe?
    /// The heavy-frame probe under way, if any: the source holds each present half a period past a
    /// vsync (``_HeavyFrameProbe``).
    private(set) var heavyFrameProbe: _HeavyFrameProbe?
    /// Whether the heavy-frame probe ran since frames last went back to back (or the pacing or the
    /// display changed): once each time (frames that stay heavy are not held again and again).
    private(set) var heavyFrameProbeRan = false
    /// Whether the last back-to-back frames ended with no present that blocked and no evidence
    /// that present ignores vsync (the frames were too slow to fill a swap chain): they go back to
    /// back again once they are light.
    private(set) var verdictAwaitsLightFrames = false
    /// Whether the state names a display that is gone (``PacingReason/presentBlocks(median:grid:)``
    /// measured before the display changed): it is stated again once the new display's grid is
    /// measured and confirms the vsync.
    private(set) var statesAnotherDisplay = false

    /// A machine in `state`.
    init(state: PacingState) {
        self.state = state
    }

    /// What the source has measured, at the start of a frame.
    struct Evidence {
        /// Presents timed in the window whose median is read.
        var presentsTimed: Int
        /// Their median duration, in nanoseconds.
        var medianPresent: Int64
        /// The display's nominal rate (as reported, or overridden).
        var displayRate: FrameRate
        /// The rate of the vsync grid the source would pace at (measured when known).
        var gridRate: FrameRate
        /// Whether ``gridRate`` is measured on the current display (not its nominal rate).
        var gridRateIsMeasured: Bool
        /// The fitted grid's period, in nanoseconds (0 while none is fitted).
        var gridPeriod: Double
        /// Whether the fitted grid is phase-stable (`nil` while it cannot tell yet).
        var gridIsStable: Bool?
        /// The grid's re-lock count.
        var gridRelocks: Int
        /// Whether the last present blocked and its return fitted the grid.
        var lastReturnFits: Bool
        /// Whether the presenter reports when frames reached the screen.
        var receivesFeedback: Bool
        /// Whether the source timed the calls of many recent blocking presents.
        var returnsWerePaced: Bool
        /// Whether a phase probe found the returns following the frames' own timing.
        var returnsFollowFrames: Bool
        /// Whether the fitted grid is faster than the display can be.
        var vsyncIsFasterThanDisplay: Bool
        /// Whether returns the source timed cast doubt on that verdict.
        var fasterVerdictDoubted: Bool
        /// Whether presents returned at once into a chain that must have been full.
        var presentsReturnAtOnceIntoFullChain: Bool
        /// Whether the first frames still go back to back.
        var isProbing: Bool
        /// Whether frames are light enough, and free of caps, to go back to back again.
        var mayMeasureAgain: Bool
        /// Whether a requested rate is paced directly on a variable-refresh display.
        var pacesRequestedRateDirectly: Bool
        /// Whether the returns of blocking presents were found to keep no phase (an emulated
        /// vsync) and were not judged phase-stable since.
        var keepsNoPhase: Bool
        /// Whether the grid is usable (fitted and not found unstable).
        var gridIsUsable: Bool
        /// Whether the window of present durations whose median is read is full.
        var presentWindowIsFull: Bool
        /// Whether the last frames were too heavy to go back to back (not light), on two buffers,
        /// and no cap, requested range, halved rate or variable refresh holds them: the
        /// heavy-frame probe may hold their presents.
        var heavyFramesMayBeProbed: Bool
        /// Whether none of the presents in that window blocked.
        var noPresentBlocked: Bool

        /// Whether presents block for a good part of a period, in the median.
        var presentsBlock: Bool {
            medianPresent * _PacingMachine.blockingMedianFraction >= displayRate.periodNanoseconds
        }
    }

    /// What the source does besides the state change (a change of mode is seen in ``state``).
    enum Action: Equatable {
        /// Nothing more.
        case none
        /// Begin the phase probe's frames, half a period off the grid.
        case startPhaseProbe
        /// Pace by deadline at the display's own rate: the vsync is faster than the display.
        case paceAtDisplayRate
        /// Present the next frames back to back, to measure again whether present blocks.
        case measureAgain
        /// The phase probe found the returns following the frames: note it for good (until the
        /// display changes).
        case notePresentFollowsFrames
        /// The phase probe found the returns on the grid: clear the doubts about it.
        case clearDoubtsAboutGrid
    }

    // MARK: Events

    /// Whether the mode is decided, so frames may begin late (``FrameLoop/minimizesInputLatency``)
    /// without disturbing what is measured: in vsync mode once the grid is usable; in deadline
    /// mode once no probe runs, the first frames no longer go back to back, a full window of
    /// presents was timed, and they were found not to block (in the median) or not to be the
    /// display's vsync (no phase, faster than the display, returns that follow the frames); always
    /// with pacing off.
    func hasDecided(_ evidence: Evidence) -> Bool {
        switch state.mode {
        case .vsync:
            return evidence.gridIsUsable
        case .deadline:
            guard phaseProbe == nil, !evidence.isProbing, evidence.presentWindowIsFull else { return false }
            return !evidence.presentsBlock || evidence.keepsNoPhase || evidence.vsyncIsFasterThanDisplay
                || evidence.returnsFollowFrames
        case .unpaced:
            return true
        }
    }

    /// The start of a frame, with what is measured: decides the mode.
    mutating func frameBegan(_ evidence: Evidence) -> Action {
        guard evidence.presentsTimed >= Self.presentsBeforeVerdict, !evidence.pacesRequestedRateDirectly else {
            return .none
        }
        let median = Duration.nanoseconds(evidence.medianPresent)
        if state.mode == .deadline, let probe = phaseProbe {
            return probe.isOver ? concludePhaseProbe(probe, evidence) : .none
        }
        noteHeavyFrameProbeFrame(evidence)
        if evidence.vsyncIsFasterThanDisplay && evidence.presentsBlock {
            if evidence.fasterVerdictDoubted && state.mode == .deadline && evidence.gridIsStable == true
                && evidence.lastReturnFits && !evidence.returnsFollowFrames
            {
                // Returns of presents the source timed now fit a grid no faster than the display
                // (after a move to another display, say): the probe tells whether it is the vsync.
                return startPhaseProbe(evidence)
            }
            if case .vsyncFasterThanDisplay = state.reason { return .none }
            let fitted = try? FrameRate(validating: 1e9 / evidence.gridPeriod)
            state = PacingState(
                mode: .deadline, reason: .vsyncFasterThanDisplay(measured: fitted, display: evidence.displayRate))
            return .paceAtDisplayRate
        }
        switch state.mode {
        case .deadline:
            if confirmsVsync(evidence) {
                // A phase-stable grid, and the last present returned on it (or the presenter reports
                // when frames were shown). From feedback, or from returns of presents that paced the
                // frames themselves, it is the display's; else the phase probe decides.
                guard evidence.receivesFeedback || !evidence.returnsWerePaced else { return startPhaseProbe(evidence) }
                promoteToVsync(evidence)
            } else if evidence.presentsBlock && evidence.gridIsStable == false {
                switch state.reason {
                case .returnsKeepNoPhase, .vsyncFasterThanDisplay, .returnsFollowFrames: break
                default: state.reason = .returnsKeepNoPhase(median: median)
                }
            } else if state.reason.isMeasuring && evidence.presentsReturnAtOnceIntoFullChain {
                state.reason = .presentReturnsAtOnce(median: median)
                verdictAwaitsLightFrames = false
            } else if verdictAwaitsLightFrames && !evidence.isProbing && evidence.mayMeasureAgain {
                verdictAwaitsLightFrames = false
                state.reason = .measuringAgain
                return .measureAgain
            } else if state.reason.isMeasuring && mayStartHeavyFrameProbe(evidence) {
                // **Heavy frames are given time to wait for a vsync**: their presents block too
                // briefly to be measured, and lighter frames may never come (the heavy-frame
                // probe, ``_HeavyFrameProbe``).
                startHeavyFrameProbe()
            }
        case .unpaced:
            break
        case .vsync:
            if evidence.presentsReturnAtOnceIntoFullChain && !evidence.receivesFeedback {
                state = PacingState(mode: .deadline, reason: .presentReturnsAtOnce(median: median))
            } else if evidence.gridIsStable == false {
                state = PacingState(mode: .deadline, reason: .returnsKeepNoPhase(median: median))
            } else if statesAnotherDisplay && state.reason.isPresentBlocks && evidence.gridRateIsMeasured
                && confirmsVsync(evidence)
            {
                // **A state measured on a display that is gone is stated again** on the new one,
                // once its grid is measured: the state named the old display's grid for good (60 Hz
                // after a move to 144 Hz), and the game was never told of the new one (found by
                // review).
                promoteToVsync(evidence)
            } else if statesAnotherDisplay && !evidence.gridIsUsable && evidence.presentWindowIsFull
                && !evidence.presentsBlock && evidence.mayMeasureAgain
            {
                // **Another display whose presents find room is measured afresh**, as at start-up,
                // when frames are light enough: by deadline, with frames back to back, since only
                // they fill the chain and make presents block on the new vsync. (Kept in vsync
                // mode, a window hidden, moved to another display and shown again with three
                // buffers paced by vsync with no grid for good, every timestamp off the new vsync,
                // up to 4.6 ms, and the old display's grid still named: review 16. Heavier frames
                // stay: a chain they cannot fill still shows the vsync in the presents that block,
                // and measured by deadline, frames hovering about a period after a move to 30 Hz
                // never came back to the vsync: found by the sweep.)
                statesAnotherDisplay = false
                state = PacingState(mode: .deadline, reason: .measuring)
                verdictAwaitsLightFrames = true
            } else if statesAnotherDisplay && !evidence.gridIsUsable && mayStartHeavyFrameProbe(evidence) {
                // **Heavy frames on another display are given time to wait for its vsync**: kept
                // in vsync mode (their chain still shows it), with presents that block too briefly
                // to be measured, the new display's grid was never fitted, and the old one's was
                // named for good (sweep seed 10 #120: 75 Hz, then 239.63 Hz, frames of 89 %).
                startHeavyFrameProbe()
            } else if state.reason.isMeasuring && confirmsVsync(evidence) {
                // **A vsync kept while measuring is confirmed as one is promoted**: automatic
                // pacing asked for again keeps the vsync mode while it measures, and only the
                // rules above could end that (found by review: "measuring" for good, 3,000 frames
                // on a steady 60 Hz display).
                promoteToVsync(evidence)
            } else if state.reason.isMeasuring && !evidence.presentsBlock {
                // **A vsync kept while measuring whose presents do not block is measured as at
                // start**: by deadline, with frames back to back once they are light (following
                // a grid there is none of, a display with no vsync stayed "measuring" for good:
                // found by review).
                state.mode = .deadline
            }
        }
        return .none
    }

    /// One frame of the phase probe: whether its present `blocked`, and how far from the grid it
    /// returned (see ``_PhaseProbe/noteFrame(blocked:distanceFromGrid:)``).
    mutating func phaseProbeFrame(blocked: Bool, distanceFromGrid: () -> Int64) {
        phaseProbe?.noteFrame(blocked: blocked, distanceFromGrid: distanceFromGrid)
    }

    /// The start-up (or repeated) back-to-back frames ended; `inconclusive` when no present
    /// blocked and there is no evidence against vsync (the frames were too slow to fill a chain).
    mutating func backToBackFramesEnded(inconclusive: Bool) {
        verdictAwaitsLightFrames = inconclusive
        heavyFrameProbeRan = false
    }

    /// The game asked for `pacing`: forced modes are taken at once; automatic measures again.
    mutating func pacingRequested(_ pacing: PresentSource.Pacing) {
        phaseProbe = nil
        heavyFrameProbe = nil
        heavyFrameProbeRan = false
        verdictAwaitsLightFrames = false
        statesAnotherDisplay = false
        switch pacing {
        case .vsync: state = PacingState(mode: .vsync, reason: .requested)
        case .deadline: state = PacingState(mode: .deadline, reason: .requested)
        case .unpaced: state = PacingState(mode: .unpaced, reason: .requested)
        case .automatic:
            // Measured afresh, pacing meanwhile as the mode goes (a forced vsync keeps its grid);
            // frames that were not paced at all are paced by deadline while measuring, as at start.
            state = PacingState(mode: state.mode == .unpaced ? .deadline : state.mode, reason: .measuring)
            // **Measuring afresh needs frames back to back**: a verdict against vsync rests on
            // presents that returned at once into a chain that must have been full, and only
            // back-to-back frames fill one (asked for again without them, a display with no vsync
            // stayed "measuring" for good: found by review). They go as soon as frames are light.
            verdictAwaitsLightFrames = true
        }
    }

    /// The display changed (another rate): what the probes found no longer holds.
    mutating func displayChanged() {
        phaseProbe = nil
        heavyFrameProbe = nil
        heavyFrameProbeRan = false
        verdictAwaitsLightFrames = false
        if case .presentBlocks = state.reason { statesAnotherDisplay = true }
    }

    /// A requested rate is now paced directly on a variable-refresh display, as `choice` says.
    mutating func rangePacedDirectly(_ choice: FrameRateChoice) {
        phaseProbe = nil
        state = PacingState(mode: .deadline, reason: .frameRateRangeOnVariableRefresh(choice))
    }

    /// A requested rate is no longer paced directly (the range or the variable refresh is gone):
    /// measure again.
    mutating func rangeNoLongerPacedDirectly() {
        if case .frameRateRangeOnVariableRefresh = state.reason { state.reason = .measuring }
    }

    /// A frame came late for a variable-refresh display whose fastest refresh is `maximum`, and
    /// was shown as it came: in deadline mode (no range paced directly), that is why frames are
    /// not on a fixed grid, unless the source still measures whether present blocks (frames too
    /// slow to fill a swap chain measure nothing: their verdict waits for lighter frames).
    mutating func frameLateOnVariableRefresh(maximum: FrameRate, pacesRequestedRateDirectly: Bool) {
        guard state.mode == .deadline, !pacesRequestedRateDirectly,
            !state.reason.isMeasuring || verdictAwaitsLightFrames
        else { return }
        state.reason = .variableRefreshShowsLateFrames(maximum: maximum)
    }

    // MARK: Rules

    /// Counts a frame of the heavy-frame probe, and ends it when its frames are done, or once it
    /// has nothing left to find: the source no longer measures by deadline (a vsync confirmed, the
    /// phase probe under way, another verdict), or frames go back to back or are no longer heavy.
    private mutating func noteHeavyFrameProbeFrame(_ evidence: Evidence) {
        guard var probe = heavyFrameProbe else { return }
        probe.noteFrame()
        let stillMeasures =
            switch state.mode {
            case .deadline: state.reason.isMeasuring && phaseProbe == nil
            case .vsync: statesAnotherDisplay && !evidence.gridIsUsable
            case .unpaced: false
            }
        let measuresOn = stillMeasures && !evidence.isProbing && evidence.heavyFramesMayBeProbed
        heavyFrameProbe = probe.isOver || !measuresOn ? nil : probe
    }

    /// Whether the heavy-frame probe may start: not yet run since frames last went back to back,
    /// none going back to back now, heavy frames on two buffers, and a full window of presents of
    /// which none blocked.
    private func mayStartHeavyFrameProbe(_ evidence: Evidence) -> Bool {
        !heavyFrameProbeRan && !evidence.isProbing && evidence.heavyFramesMayBeProbed
            && evidence.presentWindowIsFull && evidence.noPresentBlocked
    }

    private mutating func startHeavyFrameProbe() {
        heavyFrameProbeRan = true
        heavyFrameProbe = _HeavyFrameProbe()
    }

    private mutating func startPhaseProbe(_ evidence: Evidence) -> Action {
        phaseProbe = _PhaseProbe(relocks: evidence.gridRelocks)
        heavyFrameProbe = nil
        state.reason = .checkingPhase
        return .startPhaseProbe
    }

    private mutating func concludePhaseProbe(_ probe: _PhaseProbe, _ evidence: Evidence) -> Action {
        phaseProbe = nil
        switch probe.verdict(period: Int64(evidence.gridPeriod.rounded()), relocksNow: evidence.gridRelocks) {
        case .inconclusive:
            // Too few presents blocked to tell: still measuring (not checking: no probe runs).
            state.reason = .measuring
            return .none
        case .returnsFollowFrames(let offGrid):
            state.reason = .returnsFollowFrames(
                median: .nanoseconds(evidence.medianPresent), offGrid: .nanoseconds(offGrid))
            return .notePresentFollowsFrames
        case .returnsStayOnGrid:
            guard evidence.gridIsStable == true else {
                state.reason = .measuring
                return .none
            }
            promoteToVsync(evidence)
            return .clearDoubtsAboutGrid
        }
    }

    /// Whether `evidence` shows the display's vsync: a phase-stable grid, not following the frames
    /// nor faster than the display, the last present having returned on it (or the presenter
    /// reporting when frames were shown).
    private func confirmsVsync(_ evidence: Evidence) -> Bool {
        evidence.gridIsStable == true && !evidence.returnsFollowFrames && !evidence.vsyncIsFasterThanDisplay
            && (evidence.receivesFeedback || evidence.lastReturnFits)
    }

    private mutating func promoteToVsync(_ evidence: Evidence) {
        verdictAwaitsLightFrames = false
        heavyFrameProbe = nil
        statesAnotherDisplay = false
        state = PacingState(
            mode: .vsync, reason: .presentBlocks(median: .nanoseconds(evidence.medianPresent), grid: evidence.gridRate))
    }
}

extension PacingReason {
    /// Whether this is ``presentBlocks(median:grid:)``, whatever it measured.
    fileprivate var isPresentBlocks: Bool {
        if case .presentBlocks = self { return true }
        return false
    }
}
