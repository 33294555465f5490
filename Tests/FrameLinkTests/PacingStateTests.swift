@_spi(FrameSourceImplementation) import FrameLink
import Testing

/// The typed pacing state: what a game switches on instead of reading text, its sentences, and
/// the change notification.
@MainActor
@Suite("PacingState: a typed mode and reason, and being told when they change")
struct PacingStateTests {
    @Test(
        "each reason renders the sentence the reports show",
        arguments: [
            (PacingState(mode: .vsync, reason: .requested), "vsync requested"),
            (PacingState(mode: .deadline, reason: .requested), "deadline pacing requested"),
            (PacingState(mode: .unpaced, reason: .requested), "pacing off requested"),
            (PacingState(mode: .deadline, reason: .measuring), "measuring whether present blocks on vsync"),
            (
                PacingState(mode: .deadline, reason: .presentReturnsAtOnce(median: .microseconds(50))),
                "present returned in 0.1 ms, vsync not honoured"
            ),
            (
                PacingState(mode: .vsync, reason: .presentBlocks(median: .milliseconds(16), grid: .hz59_94)),
                "present blocks for 16.0 ms (median of 16 frames); vsync grid at 59.94 Hz"
            ),
            (
                PacingState(mode: .deadline, reason: .vsyncFasterThanDisplay(measured: nil, display: .hz60)),
                "present blocks, but at ?, faster than the display's 60 Hz: not the display's vsync (an emulated"
                    + " one, as under Xvfb), paced by deadline"
            ),
            (
                PacingState(mode: .deadline, reason: .variableRefreshShowsLateFrames(maximum: .hz144)),
                "variable refresh: frames slower than the display's 144 Hz are shown as they come"
            ),
        ])
    func sentences(state: PacingState, sentence: String) {
        #expect(state.description == sentence)
    }

    @Test("the reasons that reject vsync, and those that still measure, are told apart")
    func classes() {
        let rejecting: [PacingReason] = [
            .presentReturnsAtOnce(median: .zero), .returnsKeepNoPhase(median: .zero),
            .vsyncFasterThanDisplay(measured: .hz75, display: .hz60),
            .returnsFollowFrames(median: .zero, offGrid: .zero),
        ]
        let others: [PacingReason] = [
            .requested, .measuring, .measuringAgain, .checkingPhase,
            .presentBlocks(median: .zero, grid: .hz60), .variableRefreshShowsLateFrames(maximum: .hz144),
        ]
        #expect(rejecting.allSatisfy { $0.isVsyncRejected })
        #expect(!others.contains { $0.isVsyncRejected })
        #expect([PacingReason.measuring, .measuringAgain].allSatisfy { $0.isMeasuring })
        #expect(!(rejecting + [.checkingPhase, .requested]).contains { $0.isMeasuring })
    }

    @Test("a vsync display: measuring, then present blocks, told once")
    func toldWhenVsyncIsFound() {
        let display = SimulatedDisplay(rate: .hz60)
        let source = PresentSource(clock: display.clock) { display.present() }
        let loop = FrameLoop(source: source)
        var frame: Int64 = 0
        var told: [(frame: Int64, state: PacingState)] = []
        DisplayLink { link in frame = link.frameIndex }.add(to: loop, forMode: .common)
        source.onPacingStateChange = { told.append((frame, $0)) }
        #expect(source.pacingState == PacingState(mode: .deadline, reason: .measuring))
        loop.run(frames: 200)
        #expect(told.count == 1)
        #expect(told.first?.state == source.pacingState)
        guard case .presentBlocks(_, let grid) = source.pacingState.reason else {
            Issue.record("expected present blocks, got \(source.pacingState)")
            return
        }
        #expect(grid == .hz60)
        #expect(source.mode == .vsync && source.reason == source.pacingState.description)
    }

    @Test("present that returns at once: vsync not honoured, as a typed reason")
    func toldWhenVsyncIsNotHonoured() {
        let display = SimulatedDisplay(rate: .hz60)
        display.honoursVSync = false
        let source = PresentSource(clock: display.clock) { display.present() }
        let loop = FrameLoop(source: source)
        DisplayLink { _ in }.add(to: loop, forMode: .common)
        var told: [PacingState] = []
        source.onPacingStateChange = { told.append($0) }
        loop.run(frames: 120)
        guard case .presentReturnsAtOnce(let median) = source.pacingState.reason else {
            Issue.record("expected present returns at once, got \(source.pacingState)")
            return
        }
        #expect(median < .milliseconds(1))
        #expect(source.pacingState.reason.isVsyncRejected)
        #expect(told == [source.pacingState])
    }

    @Test("the callback may change the pacing: the request is told at the next frame, not inside the first call")
    func callbackMayChangePacing() {
        let display = SimulatedDisplay(rate: .hz60)
        let source = PresentSource(clock: display.clock) { display.present() }
        let loop = FrameLoop(source: source)
        DisplayLink { _ in }.add(to: loop, forMode: .common)
        var told: [PacingState] = []
        source.onPacingStateChange = { state in
            told.append(state)
            if state.mode == .vsync { source.pacing = .deadline }
        }
        loop.run(frames: 200)
        #expect(told.count == 2)
        #expect(told.first?.mode == .vsync)
        #expect(told.last == PacingState(mode: .deadline, reason: .requested))
        #expect(source.pacingState == PacingState(mode: .deadline, reason: .requested))
    }

    @Test("setting pacing and back within a frame tells nothing")
    func noChangeNoCall() {
        let display = SimulatedDisplay(rate: .hz60)
        let source = PresentSource(pacing: .deadline, clock: display.clock) { display.present() }
        let loop = FrameLoop(source: source)
        DisplayLink { _ in }.add(to: loop, forMode: .common)
        var calls = 0
        source.onPacingStateChange = { _ in calls += 1 }
        loop.run(frames: 10)
        source.pacing = .vsync
        source.pacing = .deadline
        loop.run(frames: 10)
        #expect(calls == 0)
        #expect(source.pacingState == PacingState(mode: .deadline, reason: .requested))
    }

    @Test("pacing off, then automatic: frames are paced again at once and vsync is found, as at start")
    func unpacedThenAutomatic() {
        let display = SimulatedDisplay(rate: .hz60)
        let source = PresentSource(pacing: .unpaced, clock: display.clock) { display.present() }
        let loop = FrameLoop(source: source)
        DisplayLink { _ in }.add(to: loop, forMode: .common)
        display.honoursVSync = false
        loop.run(frames: 20)
        display.honoursVSync = true
        source.pacing = .automatic
        #expect(source.pacingState == PacingState(mode: .deadline, reason: .measuring))
        loop.run(frames: 200)
        #expect(source.mode == .vsync)
    }

    @Test(
        "frames slower than a variable-refresh display's maximum: shown as they come, said so, not 'measuring' for good"
    )
    func slowFramesOnVariableRefresh() {
        // Three buffers: each present returns at once (the display shows each frame as it comes).
        let lab = DisplayLab(refresh: .variable(minimum: .hz48, maximum: .hz144), buffers: 3)
        let source = lab.makeSource()
        source.swapChainBuffers = 3
        let loop = FrameLoop(source: source)
        DisplayLink { _ in lab.work(for: .milliseconds(10)) }.add(to: loop, forMode: .common)
        loop.run(frames: 300)
        #expect(
            source.pacingState == PacingState(mode: .deadline, reason: .variableRefreshShowsLateFrames(maximum: .hz144))
        )
        #expect(loop.statistics.droppedFrames == lab.missedRefreshes)
    }
}
