@_spi(FrameSourceImplementation) import FrameLink
import Testing

/// A simulated display on virtual time: present blocks until the next vsync (or not at all).
@MainActor
final class SimulatedDisplay {
    let clock = VirtualClock(start: 1_000_000_000)
    var rate: FrameRate
    var honoursVSync = true
    /// Extra delay after vsync, as an emulated vsync adds (cycled through).
    var jitterPattern: [Int64] = [0]
    private var presents = 0

    init(rate: FrameRate) {
        self.rate = rate
    }

    func present() {
        presents += 1
        guard honoursVSync else {
            clock.advance(nanoseconds: 50_000)
            return
        }
        let index = rate.frameIndex(atOrAfter: clock.now + 1)
        let jitterValue = jitterPattern[presents % jitterPattern.count]
        clock.sleep(untilNanoseconds: rate.offsetNanoseconds(ofFrame: index) + jitterValue)
    }
}

@MainActor
@Suite("PresentSource: vsync detection, deadline fallback, auto frame rate")
struct PresentSourceTests {
    func makeSource(_ display: SimulatedDisplay, nominal: FrameRate = .hz60) -> (PresentSource, FrameLoop) {
        let source = PresentSource(displayRefreshRate: nominal, clock: display.clock) { display.present() }
        let loop = FrameLoop(source: source)
        DisplayLink { _ in }.add(to: loop, forMode: .common)
        return (source, loop)
    }

    @Test("a present that blocks on vsync is detected, and the real 59.94 Hz is measured though SDL says 59")
    func detectsVSyncAndMeasuresFractionalRate() throws {
        let display = SimulatedDisplay(rate: FrameRate(numerator: 60_000, denominator: 1_001))
        let (source, loop) = makeSource(display, nominal: FrameRate(numerator: 59))
        loop.run(frames: 300)
        #expect(source.mode == .vsync)
        if case .presentBlocks = source.pacingState.reason {} else { Issue.record("\(source.pacingState)") }
        #expect(source.measuredRefreshRate == (FrameRate(framesPerSecond: 59.94)))
        #expect(loop.statistics.droppedFrames == 0)
        #expect(loop.statistics.pacingDescription.hasPrefix("vsync (59.94 Hz measured, phase-locked)"))
    }

    @Test("a present that returns at once means vsync is not honoured: frames are paced by deadline, exactly")
    func fallsBackToDeadline() throws {
        let display = SimulatedDisplay(rate: .hz60)
        display.honoursVSync = false
        let (source, loop) = makeSource(display)
        let times = Recorder<FrameInstant>()
        DisplayLink { link in times.append(link.timestamp) }.add(to: loop, forMode: .common)
        loop.run(frames: 120)
        #expect(source.mode == .deadline)
        #expect(source.reason == "present returned in 0.1 ms, vsync not honoured")
        // After the four start-up frames presented back to back: by the 4th, a FIFO swap chain of
        // three buffers would have been full, and present still returned at once.
        let paced = Array(times.values.dropFirst(4))
        let intervals = zip(paced.dropFirst(), paced).map { ($0 - $1).wholeNanoseconds }
        #expect(intervals.allSatisfy { abs($0 - 16_666_667) <= 1 })
        #expect(loop.statistics.pacingDescription == "deadline 60 Hz: present returned in 0.1 ms, vsync not honoured")
    }

    @Test("a present that stops blocking (a chain with room) is no evidence against vsync: frames stay on the grid")
    func presentThatStopsBlocking() throws {
        let display = SimulatedDisplay(rate: .hz60)
        let (source, loop) = makeSource(display)
        let times = Recorder<FrameInstant>()
        DisplayLink { link in
            times.append(link.timestamp)
            display.clock.advance(nanoseconds: 2_000_000)
        }.add(to: loop, forMode: .common)
        loop.run(frames: 120)
        #expect(source.mode == .vsync)
        display.honoursVSync = false
        loop.run(frames: 60)
        // Frames come no faster than the display, on its vsyncs, and none is dropped: a present
        // that returns at once into a chain with room says nothing against the vsync.
        #expect(source.mode == .vsync, "\(source.pacingDescription)")
        let last = Array(times.values.suffix(60))
        let intervals = zip(last.dropFirst(), last).map { ($0 - $1).wholeNanoseconds }
        #expect(intervals.allSatisfy { abs($0 - 16_666_667) <= 1 }, "\(intervals)")
        #expect(loop.statistics.droppedFrames == 0)
        display.honoursVSync = true
        loop.run(frames: 60)
        #expect(source.mode == .vsync, "\(source.pacingDescription)")
        #expect(loop.statistics.droppedFrames == 0)
    }

    @Test("a window the host says is hidden: nothing measured or dropped, the display's rate kept, then vsync again")
    func hiddenWindow() throws {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .milliseconds(3)), jitter: .uniform(upTo: .microseconds(300)))
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        let times = Recorder<FrameInstant>()
        DisplayLink { link in
            times.append(link.timestamp)
            lab.work(for: .milliseconds(2))
            if link.frameIndex == 200 { (lab.isHidden, source.isWindowHidden) = (true, true) }
            // A hitch while hidden: nothing was to be shown, so nothing is dropped.
            if link.frameIndex == 250 { lab.work(for: .milliseconds(50)) }
            if link.frameIndex == 300 { (lab.isHidden, source.isWindowHidden) = (false, false) }
        }.add(to: loop, forMode: .common)
        loop.run(frames: 500)
        #expect(source.mode == .vsync && source.isPhaseLocked, "\(source.pacingDescription)")
        #expect(loop.statistics.droppedFrames == lab.missedRefreshes)
        #expect(lab.missedRefreshes == 0)
        // While hidden, frames kept the display's rate: no interval under a period.
        let stamps = times.values
        let hidden = zip(stamps[201...299], stamps[200...298]).map { ($0 - $1).wholeNanoseconds }
        #expect(hidden.allSatisfy { $0 >= 16_666_000 }, "\(hidden)")
    }

    @Test("a present that blocks but returns up to 2.2 ms late keeps vsync: timestamps are the vsyncs themselves")
    func jitteryVSync() throws {
        // 0.1.0 demoted such a display to deadline pacing (p90 jitter over 1 ms); the returns keep
        // the vsync's phase, so it is a real vsync, and the jitter never reaches the timestamps.
        let display = SimulatedDisplay(rate: .hz60)
        display.jitterPattern = [0, 2_000_000, 500_000, 1_800_000, 100_000, 2_200_000]
        let (source, loop) = makeSource(display)
        let times = Recorder<FrameInstant>()
        DisplayLink { link in times.append(link.timestamp) }.add(to: loop, forMode: .common)
        loop.run(frames: 200)
        #expect(source.mode == .vsync)
        #expect(!source.reason.contains("jitter"))
        #expect(loop.statistics.droppedFrames == 0)
        // The display's vsyncs are at whole periods of 60 Hz from 1 s (the clock's start).
        for time in times.values.suffix(50) {
            let clockTime = Double(time.nanoseconds + 1_000_000_000)
            let vsync = (clockTime * 60 / 1e9).rounded() * 1e9 / 60
            #expect(abs(clockTime - vsync) <= 1_000, "\(time)")
        }
    }

    @Test("forced modes are kept whatever present does")
    func forcedModes() throws {
        let display = SimulatedDisplay(rate: .hz60)
        let (source, loop) = makeSource(display)
        source.pacing = .deadline
        loop.run(frames: 60)
        #expect(source.pacingState == PacingState(mode: .deadline, reason: .requested))
        display.honoursVSync = false
        source.pacing = .vsync
        loop.run(frames: 60)
        #expect(source.pacingState == PacingState(mode: .vsync, reason: .requested))
    }

    @Test("auto frame rate: over budget, it presents every 2nd vsync evenly; game time stays true; it recovers")
    func automaticFrameRate() throws {
        let display = SimulatedDisplay(rate: .hz60)
        let (source, loop) = makeSource(display)
        source.automaticFrameRate = true
        let cost = Recorder<Int64>()
        cost.values = [5_000_000]
        // A sprite moving at 100 px/s, stepped as a game steps it: by the delta time each frame gets.
        let positions = Recorder<(FrameInstant, Double)>()
        let deltas = Recorder<Int64>()
        var x = 0.0
        DisplayLink { link in
            display.clock.advance(nanoseconds: cost.values[0])
            x += 100 * link.deltaTime.secondsValue
            deltas.append(link.deltaTime.wholeNanoseconds)
            positions.append((link.timestamp, x))
        }.add(to: loop, forMode: .common)
        loop.run(frames: 120)
        #expect(source.presentInterval == 1)
        #expect(source.mode == .vsync)

        cost.values = [20_000_000]  // over the 16.7 ms budget
        loop.run(frames: 60)
        #expect(source.presentInterval == 2)
        // Frames dropped until the average caught up (about 10); none once the rate was halved.
        let dropsBeforeSwitch = loop.statistics.droppedFrames
        #expect((5...12).contains(dropsBeforeSwitch))
        loop.run(frames: 30)
        #expect(loop.statistics.droppedFrames == dropsBeforeSwitch)
        #expect(source.refreshRate == (FrameRate(numerator: 30)))
        #expect(source.pacingDescription.contains("presenting every 2nd vsync"))
        let halved = positions.values.suffix(20).map(\.0)
        let intervals = zip(halved.dropFirst(), halved).map { ($0 - $1).wholeNanoseconds }
        #expect(intervals.allSatisfy { abs($0 - 33_333_333) <= 1_000_000 }, "\(intervals)")
        // Game time: each frame at the halved rate steps by a 30 Hz period, so the sprite keeps its
        // speed (stepping by the display's 16.7 ms would halve it).
        #expect(deltas.values.suffix(19).allSatisfy { abs($0 - 33_333_333) <= 1 }, "\(deltas.values.suffix(19))")
        let (t0, x0) = positions.values[positions.values.count - 20]
        let (t1, x1) = positions.values[positions.values.count - 1]
        #expect(
            abs((x1 - x0) / (t1 - t0).secondsValue - 100) < 1e-6, "speed \((x1 - x0) / (t1 - t0).secondsValue) px/s")

        cost.values = [4_000_000]
        loop.run(frames: 90)
        #expect(source.presentInterval == 1)
        #expect(source.refreshRate == .hz60)
        #expect(loop.statistics.droppedFrames == dropsBeforeSwitch, "recovering drops nothing")
    }
}
