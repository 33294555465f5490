import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// The heavy-frame probe (``_HeavyFrameProbe``): where it calls a held present, how long it runs,
/// and, on the display lab, heavy frames on two buffers that reach the vsync with it.
@Suite("_HeavyFrameProbe: heavy frames are given time to wait for a vsync")
struct HeavyFrameProbeTests {
    static let period = FrameRate(numerator: 240).periodNanoseconds

    @Test(
        "a held present is called half a period past a vsync through the last return, the first such point not before now",
        arguments: [
            // (now after the last return, in periods / 100; the call after the last return, the same)
            (30, 50), (50, 50), (89, 150), (150, 150), (151, 250), (295, 350),
        ])
    func presentTime(nowHundredths: Int64, callHundredths: Int64) {
        let lastReturn: Int64 = 7_000_000
        let now = lastReturn + Self.period * nowHundredths / 100
        let call = _HeavyFrameProbe.presentTime(lastReturn: lastReturn, period: Self.period, now: now)
        #expect(call == lastReturn + Self.period * callHundredths / 100)
    }

    @Test("the probe runs its frames and ends")
    func runsItsFrames() {
        var probe = _HeavyFrameProbe()
        for _ in 1..<_HeavyFrameProbe.frames {
            probe.noteFrame()
            #expect(!probe.isOver)
        }
        probe.noteFrame()
        #expect(probe.isOver)
    }

    /// Frames of `costPercent` % of a period on two buffers of a `rate` Hz display whose presents
    /// return with no delay: each present waits for the vsync less than a present that blocked
    /// takes at least (0.5 ms, or an eighth of a period).
    @MainActor
    @Test(
        "heavy frames on two buffers, whose presents wait too briefly to be measured, reach the vsync and its phase lock",
        arguments: [(240, 89), (165, 93), (60, 98)])
    func heavyFramesReachTheVsync(rate: Int64, costPercent: Int64) {
        // Before the probe: measured by deadline for good ("measuring whether present blocks on
        // vsync" after 1,071 frames at 240 Hz and 89 %: sweep seed 9 #129), never phase-locked.
        let display = FrameRate(numerator: rate)
        let period = display.periodNanoseconds
        let lab = DisplayLab(
            refresh: .fixed(display, phase: .microseconds(1_500)), buffers: 2, jitter: .none, seed: 3)
        let run = ReviewRun(lab, declaredBuffers: 2) { _ in .nanoseconds(period * costPercent / 100) }
        run.run(frames: 600)
        let locked = run.frames.first { $0.mode == .vsync }
        #expect(locked.map { $0.index <= 120 } == true, "vsync from frame \(locked.map { "\($0.index)" } ?? "never")")
        #expect(run.source.mode == .vsync && run.source.isPhaseLocked, "\(run.source.pacingState)")
        let verdict = run.judge(from: 200, period: period)
        #expect(verdict.passes, "\(verdict)")
    }

    @MainActor
    @Test("heavy frames moved to a faster display find its vsync, and the state names the new display's grid")
    func heavyFramesAfterAMove() {
        // 75 Hz, then 240 Hz: frames of 89 % of the new period on two buffers. Before the probe,
        // the source kept vsync mode with the old display's grid named for good ("vsync grid at
        // 75 Hz" after 250 frames at 240 Hz: sweep seed 10 #120), its frames never phase-locked.
        let fast = FrameRate(numerator: 240)
        let lab = DisplayLab(
            refresh: .fixed(FrameRate(numerator: 75), phase: .microseconds(2_000)), buffers: 2, jitter: .none,
            seed: 5)
        var run: ReviewRun!
        run = ReviewRun(lab, declaredBuffers: 2) { index in
            if index == 300 {
                lab.changeRefresh(to: .fixed(fast, phase: .microseconds(700)), blankingFor: .milliseconds(150))
                run.source.displayRefreshRate = fast
            }
            return .nanoseconds(fast.periodNanoseconds * 89 / 100)
        }
        run.run(frames: 800)
        #expect(run.source.mode == .vsync && run.source.isPhaseLocked, "\(run.source.pacingState)")
        guard case .presentBlocks(_, let grid) = run.source.pacingState.reason else {
            Issue.record("\(run.source.pacingState)")
            return
        }
        #expect(abs(grid.framesPerSecond - 240) < 0.1, "\(run.source.pacingState)")
        let verdict = run.judge(from: 500, period: fast.periodNanoseconds)
        #expect(verdict.passes, "\(verdict)")
    }

    @MainActor
    @Test("heavy frames on three buffers are not held: the chain has room, and a held present waits for nothing")
    func threeBuffersAreNotProbed() {
        let display = FrameRate(numerator: 240)
        let period = display.periodNanoseconds
        let lab = DisplayLab(
            refresh: .fixed(display, phase: .microseconds(1_500)), buffers: 3, jitter: .none, seed: 3)
        let run = ReviewRun(lab, declaredBuffers: 3) { _ in .nanoseconds(period * 89 / 100) }
        run.run(frames: 300)
        // Paced by deadline at the display's rate throughout: no interval of two periods or more.
        let longest =
            zip(run.frames.dropFirst(40), run.frames.dropFirst(41))
            .map { $1.timestamp.nanoseconds - $0.timestamp.nanoseconds }.max() ?? 0
        #expect(longest < period * 3 / 2, "longest interval \(longest) ns")
    }
}
