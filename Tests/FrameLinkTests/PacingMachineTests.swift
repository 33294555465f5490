import Testing

@testable import FrameLink

/// The pacing state machine, driven directly: each rule by the evidence that triggers it.
@Suite("_PacingMachine: the automatic pacing's decisions, rule by rule")
struct PacingMachineTests {
    static let period = FrameRate.hz60.periodNanoseconds

    /// Evidence of presents that block half a period on a phase-stable 60 Hz grid whose last return
    /// fitted, the presents pacing the frames themselves: everything a vsync verdict needs.
    static func vsyncEvidence() -> _PacingMachine.Evidence {
        _PacingMachine.Evidence(
            presentsTimed: 16, medianPresent: period / 2, displayRate: .hz60, gridRate: .hz60,
            gridRateIsMeasured: true, gridPeriod: Double(period), gridIsStable: true, gridRelocks: 0,
            lastReturnFits: true,
            receivesFeedback: false, returnsWerePaced: false, returnsFollowFrames: false,
            vsyncIsFasterThanDisplay: false, fasterVerdictDoubted: false, presentsReturnAtOnceIntoFullChain: false,
            isProbing: false, mayMeasureAgain: false, pacesRequestedRateDirectly: false, keepsNoPhase: false,
            gridIsUsable: true, presentWindowIsFull: true, heavyFramesMayBeProbed: false, noPresentBlocked: false)
    }

    /// Evidence of heavy frames on two buffers whose presents return too soon to be measured as
    /// blocking (none of the window did), with no grid: what the heavy-frame probe is for.
    static func heavyFramesEvidence() -> _PacingMachine.Evidence {
        var evidence = returnsAtOnceEvidence()
        evidence.medianPresent = 450_000
        evidence.gridPeriod = 0
        evidence.gridIsUsable = false
        evidence.heavyFramesMayBeProbed = true
        evidence.noPresentBlocked = true
        return evidence
    }

    /// Evidence of presents that return at once (tens of microseconds), with no grid.
    static func returnsAtOnceEvidence() -> _PacingMachine.Evidence {
        var evidence = vsyncEvidence()
        evidence.medianPresent = 50_000
        evidence.gridIsStable = nil
        evidence.lastReturnFits = false
        return evidence
    }

    static let measuring = PacingState(mode: .deadline, reason: .measuring)

    @Test("no verdict before 8 presents are timed, nor while a requested rate is paced directly on VRR")
    func noEarlyVerdict() {
        var machine = _PacingMachine(state: Self.measuring)
        var evidence = Self.vsyncEvidence()
        evidence.presentsTimed = _PacingMachine.presentsBeforeVerdict - 1
        #expect(machine.frameBegan(evidence) == .none)
        evidence.presentsTimed = _PacingMachine.presentsBeforeVerdict
        evidence.pacesRequestedRateDirectly = true
        #expect(machine.frameBegan(evidence) == .none)
        #expect(machine.state == Self.measuring)
    }

    @Test("heavy frames whose presents never blocked are probed once, for the probe's frames, still measuring")
    func heavyFramesAreProbedOnce() {
        var machine = _PacingMachine(state: Self.measuring)
        #expect(machine.frameBegan(Self.heavyFramesEvidence()) == .none)
        #expect(machine.heavyFrameProbe?.remaining == _HeavyFrameProbe.frames)
        #expect(machine.state == Self.measuring)
        for _ in 1..._HeavyFrameProbe.frames { #expect(machine.frameBegan(Self.heavyFramesEvidence()) == .none) }
        #expect(machine.heavyFrameProbe == nil)
        // Once: frames that stay heavy are not held again...
        _ = machine.frameBegan(Self.heavyFramesEvidence())
        #expect(machine.heavyFrameProbe == nil)
        // ...until frames went back to back again.
        machine.backToBackFramesEnded(inconclusive: true)
        _ = machine.frameBegan(Self.heavyFramesEvidence())
        #expect(machine.heavyFrameProbe != nil)
    }

    @Test(
        "no heavy-frame probe once a present of the window blocked, for frames that are light or on more buffers, or while frames go back to back"
    )
    func heavyFrameProbeNeedsItsCase() {
        for change in [
            { (evidence: inout _PacingMachine.Evidence) in evidence.noPresentBlocked = false },
            { (evidence: inout _PacingMachine.Evidence) in evidence.heavyFramesMayBeProbed = false },
            { (evidence: inout _PacingMachine.Evidence) in evidence.isProbing = true },
            { (evidence: inout _PacingMachine.Evidence) in evidence.presentWindowIsFull = false },
        ] {
            var machine = _PacingMachine(state: Self.measuring)
            var evidence = Self.heavyFramesEvidence()
            change(&evidence)
            _ = machine.frameBegan(evidence)
            #expect(machine.heavyFrameProbe == nil)
        }
    }

    @Test("heavy frames kept in vsync mode on another display whose grid is not fitted are probed, once")
    func heavyFramesOnAnotherDisplayAreProbed() {
        var machine = _PacingMachine(state: Self.measuring)
        _ = machine.frameBegan(Self.vsyncEvidence())
        machine.displayChanged()
        _ = machine.frameBegan(Self.heavyFramesEvidence())
        #expect(machine.state.mode == .vsync)
        #expect(machine.heavyFrameProbe != nil)
        // Not on the display it was measured on: vsync mode with its grid usable says enough.
        var settled = _PacingMachine(state: Self.measuring)
        _ = settled.frameBegan(Self.vsyncEvidence())
        _ = settled.frameBegan(Self.heavyFramesEvidence())
        #expect(settled.heavyFrameProbe == nil)
    }

    @Test("the heavy-frame probe ends when the vsync is confirmed, or when frames are no longer heavy")
    func heavyFrameProbeEnds() {
        var machine = _PacingMachine(state: Self.measuring)
        _ = machine.frameBegan(Self.heavyFramesEvidence())
        #expect(machine.heavyFrameProbe != nil)
        _ = machine.frameBegan(Self.vsyncEvidence())
        #expect(machine.state.mode == .vsync)
        #expect(machine.heavyFrameProbe == nil)

        var lighter = _PacingMachine(state: Self.measuring)
        _ = lighter.frameBegan(Self.heavyFramesEvidence())
        var evidence = Self.heavyFramesEvidence()
        evidence.heavyFramesMayBeProbed = false
        _ = lighter.frameBegan(evidence)
        #expect(lighter.heavyFrameProbe == nil)
    }

    @Test("a phase-stable grid whose last return fitted, of presents that paced the frames, promotes to vsync")
    func promotes() {
        var machine = _PacingMachine(state: Self.measuring)
        #expect(machine.frameBegan(Self.vsyncEvidence()) == .none)
        #expect(machine.state.mode == .vsync)
        #expect(machine.state.reason == .presentBlocks(median: .nanoseconds(Self.period / 2), grid: .hz60))
    }

    @Test("after a display change, a vsync state is stated again once the new grid is measured; a forced one is not")
    func restatedAfterDisplayChange() {
        var machine = _PacingMachine(state: Self.measuring)
        _ = machine.frameBegan(Self.vsyncEvidence())
        machine.displayChanged()
        #expect(machine.statesAnotherDisplay)
        // The new display's rate is not measured yet: the state stays as it was.
        var evidence = Self.vsyncEvidence()
        evidence.displayRate = FrameRate(numerator: 144)
        evidence.gridRate = evidence.displayRate
        evidence.gridRateIsMeasured = false
        evidence.medianPresent = evidence.displayRate.periodNanoseconds / 3
        _ = machine.frameBegan(evidence)
        #expect(machine.state.reason == .presentBlocks(median: .nanoseconds(Self.period / 2), grid: .hz60))
        // Measured: stated again, with the new grid and median.
        evidence.gridRate = FrameRate(framesPerSecond: 143.998)
        evidence.gridRateIsMeasured = true
        _ = machine.frameBegan(evidence)
        #expect(
            machine.state
                == PacingState(
                    mode: .vsync,
                    reason: .presentBlocks(
                        median: .nanoseconds(evidence.medianPresent), grid: FrameRate(framesPerSecond: 143.998))))
        #expect(!machine.statesAnotherDisplay)
        // Once: a rate that wobbles after that is not stated again.
        evidence.gridRate = FrameRate(framesPerSecond: 143.999)
        _ = machine.frameBegan(evidence)
        #expect(
            machine.state.reason
                == .presentBlocks(
                    median: .nanoseconds(evidence.medianPresent), grid: FrameRate(framesPerSecond: 143.998)))
        // A forced vsync names no grid: a display change leaves it as it is.
        var forced = _PacingMachine(state: Self.measuring)
        forced.pacingRequested(.vsync)
        forced.displayChanged()
        _ = forced.frameBegan(evidence)
        #expect(forced.state == PacingState(mode: .vsync, reason: .requested))
    }

    /// A vsync state on a display that is gone, with no grid of the new one and presents that find
    /// room (a window shown again after a move): measured afresh by deadline, with back-to-back
    /// frames. Not before a full window of the new display's presents, nor while frames are too
    /// heavy to go back to back.
    @Test("another display whose presents find room is measured afresh, as at start-up")
    func anotherDisplayWithRoomMeasuredAfresh() {
        var machine = _PacingMachine(state: Self.measuring)
        _ = machine.frameBegan(Self.vsyncEvidence())
        machine.displayChanged()
        var evidence = Self.returnsAtOnceEvidence()
        evidence.gridIsUsable = false
        evidence.presentWindowIsFull = false
        evidence.mayMeasureAgain = true
        _ = machine.frameBegan(evidence)
        #expect(machine.state.mode == .vsync, "not before a full window of the new display's presents")
        evidence.presentWindowIsFull = true
        evidence.mayMeasureAgain = false
        _ = machine.frameBegan(evidence)
        #expect(machine.state.mode == .vsync, "not while frames are too heavy to go back to back")
        evidence.mayMeasureAgain = true
        _ = machine.frameBegan(evidence)
        #expect(machine.state == PacingState(mode: .deadline, reason: .measuring))
        #expect(machine.verdictAwaitsLightFrames && !machine.statesAnotherDisplay)
        #expect(machine.frameBegan(evidence) == .measureAgain)
        // Presents that block on the new display keep the vsync mode until its grid is measured.
        var blocking = _PacingMachine(state: Self.measuring)
        _ = blocking.frameBegan(Self.vsyncEvidence())
        blocking.displayChanged()
        var blocks = Self.vsyncEvidence()
        blocks.gridIsUsable = false
        blocks.gridRateIsMeasured = false
        _ = blocking.frameBegan(blocks)
        #expect(blocking.state.mode == .vsync && blocking.statesAnotherDisplay)
    }

    @Test("without a fitted last return there is no promotion, unless the presenter reports presentation times")
    func promotionNeedsFitOrFeedback() {
        var machine = _PacingMachine(state: Self.measuring)
        var evidence = Self.vsyncEvidence()
        evidence.lastReturnFits = false
        _ = machine.frameBegan(evidence)
        #expect(machine.state == Self.measuring)
        evidence.receivesFeedback = true
        evidence.returnsWerePaced = true
        _ = machine.frameBegan(evidence)
        #expect(machine.state.mode == .vsync)
    }

    @Test("a grid of returns whose calls the source timed goes through the phase probe, which decides")
    func phaseProbeDecides() {
        for followsFrames in [false, true] {
            var machine = _PacingMachine(state: Self.measuring)
            var evidence = Self.vsyncEvidence()
            evidence.returnsWerePaced = true
            #expect(machine.frameBegan(evidence) == .startPhaseProbe)
            #expect(machine.state.reason == .checkingPhase)
            #expect(machine.frameBegan(evidence) == .none)  // Frames still to run.
            let distance = followsFrames ? Self.period / 2 : 200_000
            for _ in 0..<_PhaseProbe.frames { machine.phaseProbeFrame(blocked: true) { distance } }
            let action = machine.frameBegan(evidence)
            #expect(machine.phaseProbe == nil)
            if followsFrames {
                #expect(action == .notePresentFollowsFrames)
                #expect(machine.state.mode == .deadline && machine.state.reason.isVsyncRejected)
            } else {
                #expect(action == .clearDoubtsAboutGrid)
                #expect(machine.state.mode == .vsync)
            }
        }
    }

    @Test("a phase probe too few presents blocked in says nothing: the source is measuring again, not 'checking'")
    func inconclusiveProbe() {
        var machine = _PacingMachine(state: Self.measuring)
        var evidence = Self.vsyncEvidence()
        evidence.returnsWerePaced = true
        #expect(machine.frameBegan(evidence) == .startPhaseProbe)
        for _ in 0..<_PhaseProbe.frames { machine.phaseProbeFrame(blocked: false) { 0 } }
        #expect(machine.frameBegan(evidence) == .none)
        #expect(machine.phaseProbe == nil)
        #expect(machine.state == Self.measuring)
    }

    @Test("a vsync faster than the display is paced by deadline at the display's rate, said once")
    func fasterThanDisplay() {
        var machine = _PacingMachine(state: PacingState(mode: .vsync, reason: .measuring))
        var evidence = Self.vsyncEvidence()
        evidence.vsyncIsFasterThanDisplay = true
        evidence.gridPeriod = 16_000_000
        #expect(machine.frameBegan(evidence) == .paceAtDisplayRate)
        #expect(machine.state.mode == .deadline)
        guard case .vsyncFasterThanDisplay(let measured, let display) = machine.state.reason else {
            Issue.record("expected the faster-than-display reason, got \(machine.state.reason)")
            return
        }
        #expect(measured == FrameRate(framesPerSecond: 62.5) && display == .hz60)
        #expect(machine.frameBegan(evidence) == .none)
    }

    @Test("a doubted faster verdict whose timed returns now fit a stable grid is checked by the phase probe")
    func doubtedFasterVerdict() {
        var machine = _PacingMachine(state: Self.measuring)
        var evidence = Self.vsyncEvidence()
        evidence.vsyncIsFasterThanDisplay = true
        evidence.fasterVerdictDoubted = true
        #expect(machine.frameBegan(evidence) == .startPhaseProbe)
    }

    @Test("blocking returns that keep no phase are an emulated vsync; a stronger verdict is not overwritten")
    func keepsNoPhase() {
        var machine = _PacingMachine(state: Self.measuring)
        var evidence = Self.vsyncEvidence()
        evidence.gridIsStable = false
        _ = machine.frameBegan(evidence)
        #expect(machine.state.reason == .returnsKeepNoPhase(median: .nanoseconds(Self.period / 2)))
        let faster = PacingReason.vsyncFasterThanDisplay(measured: nil, display: .hz60)
        var decided = _PacingMachine(state: PacingState(mode: .deadline, reason: faster))
        _ = decided.frameBegan(evidence)
        #expect(decided.state.reason == faster)
    }

    @Test("presents that returned at once into a chain that must have been full reject vsync while measuring")
    func returnsAtOnce() {
        var machine = _PacingMachine(state: Self.measuring)
        var evidence = Self.returnsAtOnceEvidence()
        _ = machine.frameBegan(evidence)
        #expect(machine.state == Self.measuring)  // Returns at once into a chain with room: nothing.
        evidence.presentsReturnAtOnceIntoFullChain = true
        _ = machine.frameBegan(evidence)
        #expect(machine.state.reason == .presentReturnsAtOnce(median: .nanoseconds(50_000)))
    }

    @Test("frames too slow to fill a chain go back to back again once light and free of caps")
    func measuresAgain() {
        var machine = _PacingMachine(state: Self.measuring)
        machine.backToBackFramesEnded(inconclusive: true)
        var evidence = Self.returnsAtOnceEvidence()
        #expect(machine.frameBegan(evidence) == .none)
        evidence.mayMeasureAgain = true
        evidence.isProbing = true
        #expect(machine.frameBegan(evidence) == .none)
        evidence.isProbing = false
        #expect(machine.frameBegan(evidence) == .measureAgain)
        #expect(machine.state.reason == .measuringAgain && !machine.verdictAwaitsLightFrames)
        #expect(machine.frameBegan(evidence) == .none)
    }

    @Test(
        "in vsync mode, only evidence demotes: presents into a full chain (without feedback) or returns with no phase",
        arguments: [
            (fullChain: false, feedback: false, stable: Bool?.none, demoted: false),
            (fullChain: false, feedback: false, stable: true, demoted: false),
            (fullChain: true, feedback: false, stable: true, demoted: true),
            (fullChain: true, feedback: true, stable: true, demoted: false),
            (fullChain: false, feedback: false, stable: false, demoted: true),
        ])
    func vsyncDemotion(fullChain: Bool, feedback: Bool, stable: Bool?, demoted: Bool) {
        var machine = _PacingMachine(
            state: PacingState(mode: .vsync, reason: .presentBlocks(median: .zero, grid: .hz60)))
        var evidence = Self.vsyncEvidence()
        evidence.presentsReturnAtOnceIntoFullChain = fullChain
        evidence.receivesFeedback = feedback
        evidence.gridIsStable = stable
        _ = machine.frameBegan(evidence)
        #expect((machine.state.mode == .deadline) == demoted)
        #expect(machine.state.reason.isVsyncRejected == demoted)
    }

    @Test("asked pacing: forced modes at once; automatic measures afresh, and frames that were unpaced get paced")
    func pacingRequested() {
        var machine = _PacingMachine(state: Self.measuring)
        machine.pacingRequested(.unpaced)
        #expect(machine.state == PacingState(mode: .unpaced, reason: .requested))
        machine.pacingRequested(.automatic)
        #expect(machine.state == Self.measuring)
        machine.pacingRequested(.vsync)
        machine.pacingRequested(.automatic)
        #expect(machine.state == PacingState(mode: .vsync, reason: .measuring))
    }

    @Test(
        "a vsync kept while measuring again (automatic asked for after vsync) is confirmed by the evidence that promotes one"
    )
    func vsyncKeptWhileMeasuringIsConfirmed() {
        var machine = _PacingMachine(state: PacingState(mode: .vsync, reason: .measuring))
        var evidence = Self.vsyncEvidence()
        evidence.lastReturnFits = false
        #expect(machine.frameBegan(evidence) == .none)
        #expect(machine.state == PacingState(mode: .vsync, reason: .measuring), "no fit yet: still measuring")
        evidence.lastReturnFits = true
        #expect(machine.frameBegan(evidence) == .none)
        #expect(machine.state.reason == .presentBlocks(median: .nanoseconds(Self.period / 2), grid: .hz60))
        // A vsync asked for is not measured: nothing to confirm.
        var requested = _PacingMachine(state: PacingState(mode: .vsync, reason: .requested))
        _ = requested.frameBegan(Self.vsyncEvidence())
        #expect(requested.state == PacingState(mode: .vsync, reason: .requested))
    }

    @Test(
        "automatic asked for again measures as at start: frames back to back once light, and a vsync kept while measuring whose presents do not block is measured by deadline"
    )
    func automaticAgainMeasuresAsAtStart() {
        var machine = _PacingMachine(state: PacingState(mode: .vsync, reason: .requested))
        machine.pacingRequested(.automatic)
        #expect(machine.verdictAwaitsLightFrames)
        var evidence = Self.returnsAtOnceEvidence()
        evidence.mayMeasureAgain = true
        // In vsync mode, presents that do not block: back to deadline, still measuring.
        #expect(machine.frameBegan(evidence) == .none)
        #expect(machine.state == Self.measuring)
        // Then the light frames go back to back, to fill a chain.
        #expect(machine.frameBegan(evidence) == .measureAgain)
        #expect(machine.state == PacingState(mode: .deadline, reason: .measuringAgain))
    }

    @Test("a range paced directly on VRR is deadline pacing with its reason, until it is no longer")
    func rangeOnVariableRefresh() throws {
        var machine = _PacingMachine(state: Self.measuring)
        let range = try FrameRateRange(validatingMinimum: 30, maximum: 60, preferred: 48)
        let choice = range.choice(onVariableRefresh: FrameRate(framesPerSecond: 40)...FrameRate(framesPerSecond: 144))
        machine.rangePacedDirectly(choice)
        #expect(machine.state == PacingState(mode: .deadline, reason: .frameRateRangeOnVariableRefresh(choice)))
        machine.frameLateOnVariableRefresh(maximum: FrameRate(framesPerSecond: 144), pacesRequestedRateDirectly: true)
        #expect(machine.state.reason == .frameRateRangeOnVariableRefresh(choice))
        machine.rangeNoLongerPacedDirectly()
        #expect(machine.state == Self.measuring)
        machine.frameLateOnVariableRefresh(maximum: FrameRate(framesPerSecond: 144), pacesRequestedRateDirectly: false)
        #expect(machine.state == Self.measuring)  // Still measuring: not a verdict.
        // Frames too slow to fill a chain measure nothing: the late frames are the reason then.
        machine.backToBackFramesEnded(inconclusive: true)
        machine.frameLateOnVariableRefresh(maximum: FrameRate(framesPerSecond: 144), pacesRequestedRateDirectly: false)
        #expect(machine.state.reason == .variableRefreshShowsLateFrames(maximum: FrameRate(framesPerSecond: 144)))
        machine.pacingRequested(.automatic)
        machine.rangeNoLongerPacedDirectly()
        #expect(machine.state == Self.measuring)
    }

    @Test(
        "decided: vsync once the grid is usable; deadline once a full window says present does not block or is no vsync; never while probing"
    )
    func decided() {
        var vsync = _PacingMachine(state: PacingState(mode: .vsync, reason: .requested))
        var evidence = Self.vsyncEvidence()
        #expect(vsync.hasDecided(evidence))
        evidence.gridIsUsable = false
        #expect(!vsync.hasDecided(evidence), "a grid re-locking: frames must not move yet")
        _ = vsync.frameBegan(Self.vsyncEvidence())

        let measuring = _PacingMachine(state: Self.measuring)
        #expect(!measuring.hasDecided(Self.vsyncEvidence()), "presents block: still measuring")
        var atOnce = Self.returnsAtOnceEvidence()
        #expect(measuring.hasDecided(atOnce), "a full window of presents that return at once")
        atOnce.presentWindowIsFull = false
        #expect(!measuring.hasDecided(atOnce), "a window not yet full")
        atOnce.presentWindowIsFull = true
        atOnce.isProbing = true
        #expect(!measuring.hasDecided(atOnce), "frames still back to back")
        for emulated in [\_PacingMachine.Evidence.keepsNoPhase, \.vsyncIsFasterThanDisplay, \.returnsFollowFrames] {
            var blocking = Self.vsyncEvidence()
            blocking[keyPath: emulated] = true
            #expect(measuring.hasDecided(blocking), "a blocking present found not to be the vsync")
        }
        #expect(_PacingMachine(state: PacingState(mode: .unpaced, reason: .requested)).hasDecided(atOnce))
    }
}
