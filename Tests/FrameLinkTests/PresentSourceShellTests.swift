import Testing

@_spi(FrameSourceImplementation) @testable import FrameLink

/// `PresentSource` is a shell around its pacer (`_PresentPacer`): the host's code it calls — the
/// present function, the state-change callback, a log handler (`PacingLogTests`), the clock — may
/// read anything on the source, and all but the clock may set anything. An access that overlapped
/// the pacer's own would be a fatal access conflict (a trap), not a wrong figure: the pacer is an
/// object (a value held under one exclusive access for a whole call trapped on a clock that reads
/// the source, found by review), and log lines are written after its work.
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

    /// A clock a host might wrap around its own: each reading is tagged with the pacing state (a
    /// profiler labelling samples), or traced to the log, whose handler reads the source.
    final class ReadingClock: PacingClock {
        let lab: DisplayLab
        weak var source: PresentSource?
        var reads = 0
        init(lab: DisplayLab) { self.lab = lab }
        func nanoseconds() -> Int64 {
            if let source {
                _ = (source.pacingState, source.mode, source.isPhaseLocked, source.presentCount)
                reads += 1
            }
            return lab.nanoseconds()
        }
        func sleep(untilNanoseconds deadline: Int64) { lab.sleep(untilNanoseconds: deadline) }
        var sleepsInRealTime: Bool {
            _ = source?.mode
            return false
        }
    }

    @Test("a clock that reads the source each time it is read, on a vsync display and by deadline")
    func clockReadsTheSource() {
        for refresh in [DisplayLab.Refresh.fixed(.hz60, phase: .milliseconds(3)), .none] {
            let lab = DisplayLab(refresh: refresh)
            let clock = ReadingClock(lab: lab)
            let source = PresentSource(displayRefreshRate: .hz60, clock: clock) { lab.present() }
            clock.source = source
            let loop = FrameLoop(source: source)
            var frames = 0
            DisplayLink { link in
                frames += 1
                lab.work(for: .milliseconds(2))
                _ = source.pacingDescription
                if link.frameIndex == 300 { source.displayRefreshRate = .hz75 }
            }.add(to: loop, forMode: .common)
            loop.run(frames: 400)
            #expect(frames == 400)
            #expect(clock.reads > 400)
            #expect(source.mode == (refresh == .none ? .deadline : .vsync), "\(source.pacingDescription)")
        }
    }

    @Test(
        "automatic pacing asked for again after a vsync lock measures and concludes, directly or after a forced vsync",
        arguments: [false, true])
    func automaticAgainConcludes(viaForcedVsync: Bool) {
        let lab = DisplayLab(refresh: .fixed(.hz60, phase: .milliseconds(3)))
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        var told: [PacingState] = []
        source.onPacingStateChange = { told.append($0) }
        DisplayLink { _ in lab.work(for: .milliseconds(3)) }.add(to: loop, forMode: .common)
        loop.run(frames: 200)
        #expect(source.mode == .vsync && !source.pacingState.reason.isMeasuring, "\(source.pacingDescription)")
        if viaForcedVsync {
            source.pacing = .vsync
            loop.run(frames: 10)
        }
        source.pacing = .automatic
        #expect(source.pacingState.reason.isMeasuring)
        loop.run(frames: 100)
        // (It stayed "measuring" for 3,000 frames and more before the fix.)
        #expect(source.mode == .vsync && !source.pacingState.reason.isMeasuring, "\(told.map(\.description))")
        #expect(told.last?.reason.isMeasuring == false)
    }
}
