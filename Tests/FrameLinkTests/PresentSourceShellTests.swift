import Testing

@_spi(FrameSourceImplementation) @testable import FrameLink

/// `PresentSource` is a shell around its pacer (`_PresentPacer`): the host's code it calls — the
/// present function, the state-change callback, a log handler (`PacingLogTests`) — runs outside the
/// pacer's work, so it may read and set anything on the source. A read or write there that overlapped
/// the pacer's access to its state would be a fatal access conflict (a trap), not a wrong figure.
@MainActor
@Suite("PresentSource's host code runs outside the pacer's work")
struct PresentSourceShellTests {
    @Test(
        "a present function that reads every public figure, reports presentation and changes settings from inside present"
    )
    func presentReadsAndChangesTheSource() {
        let lab = DisplayLab(refresh: .fixed(.hz60, phase: .milliseconds(3)), buffers: 3, feedback: true)
        let source = lab.makeSource()
        let labPresent = source.present
        var presents = 0
        var rejected = 0
        source.present = {
            labPresent?()
            presents += 1
            _ = (source.pacingDescription, source.reason, source.pacingState, source.refreshRate)
            _ = (source.isPhaseLocked, source.targetTimestamp, source.presentInterval, source.frameRateChoice)
            _ = (source.measuredRefreshRate, source.acceptsLateFrames, source.presentCount, source.now)
            _ = source.expectedTimestamp(frames: 1, after: source.now)
            // A report for a frame not yet presented is refused, from here as from anywhere.
            rejected += source.acceptPresentation(ofFrame: source.presentCount + 5, at: source.now) ? 0 : 1
            if presents == 300 { source.automaticFrameRate = true }
            if presents == 400 { source.requestFrameRate(in: FrameRateRange(minimum: 20, maximum: 40, preferred: 30)) }
            if presents == 500 { source.requestFrameRate(in: nil) }
            if presents == 600 { source.isWindowHidden = true }
            if presents == 650 { source.isWindowHidden = false }
        }
        let loop = FrameLoop(source: source)
        var frames = 0
        DisplayLink { _ in
            frames += 1
            lab.work(for: .milliseconds(4))
        }.add(to: loop, forMode: .common)
        loop.run(frames: 900)
        #expect(frames == 900)
        #expect(presents >= 900)
        #expect(rejected == presents)
        #expect(source.mode == .vsync, "\(source.pacingDescription)")
    }

    @Test("a state-change callback that sets the pacing and the display's rate takes effect at the next frame")
    func callbackChangesTheSource() {
        let lab = DisplayLab(refresh: .fixed(.hz60, phase: .milliseconds(3)))
        let source = lab.makeSource()
        var told: [PresentSource.Mode] = []
        source.onPacingStateChange = { state in
            told.append(state.mode)
            _ = source.pacingDescription
            if state.mode == .vsync && told.count == 1 { source.pacing = .deadline }
            source.displayRefreshRate = .hz60
        }
        let loop = FrameLoop(source: source)
        DisplayLink { _ in lab.work(for: .milliseconds(2)) }.add(to: loop, forMode: .common)
        loop.run(frames: 300)
        #expect(told.first == .vsync, "\(told)")
        #expect(source.mode == .deadline, "\(told)")
        #expect(source.pacingState.reason == .requested)
    }
}
