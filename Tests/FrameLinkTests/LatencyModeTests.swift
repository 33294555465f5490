@_spi(FrameSourceImplementation) import FrameLink
import Testing

/// Latency mode on the display lab: scripted input events and frame costs on a 60 Hz double-buffered
/// display with present jitter; the loop's input-to-screen figures against the lab's ground truth.
@MainActor
@Suite("Latency mode: input read late, shown sooner, on the display lab")
struct LatencyModeTests {
    /// What a run measured.
    struct Run {
        /// The loop's input-to-screen figures.
        var statistics: FrameStatistics
        /// The true latency of every input event: from its time to when the lab showed the frame
        /// that read it.
        var truth: [Int64]
        /// The loop indices of frames whose interval dropped frames, with the count.
        var drops: [(frame: Int64, count: Int)]
        /// The refreshes the display truly showed an old frame again.
        var missedRefreshes: Int
        var margin: Duration
        var pacing: String
        var trueMean: Double { Double(truth.reduce(0, +)) / Double(max(1, truth.count)) / 1e6 }
    }

    /// Runs `frames` frames of a 3 ms frame (or `cost(frame)`) on a 60 Hz display, with an input
    /// event every 7.3 ms (not a divisor of the period, so events fall everywhere in it).
    func run(latencyMode: Bool, frames: Int, cost: @escaping (Int64) -> Duration = { _ in .milliseconds(3) }) -> Run {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .milliseconds(2)), jitter: .uniform(upTo: .microseconds(300)), seed: 11)
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        loop.minimizesInputLatency = latencyMode
        var nextInput: Int64 = 1_000_000
        var readThisFrame: [Int64] = []
        var rendered: [Int64] = []
        var truth: [Int64] = []
        var drops: [(Int64, Int)] = []
        // Input: every event up to now is read in the event phase.
        loop.eventHandler = { loop in
            let now = loop.now.nanoseconds
            while nextInput <= now {
                loop.noteInput(at: FrameInstant(nanoseconds: nextInput))
                readThisFrame.append(nextInput)
                nextInput += 7_300_000
            }
        }
        DisplayLink { link in lab.work(for: cost(link.frameIndex)) }.add(to: loop, forMode: .common)
        loop.renderHandler = { _ in
            rendered = readThisFrame
            readThisFrame.removeAll()
        }
        // The truth: a frame's present blocks until it is shown (two buffers), so the lab knows
        // when each frame, and the input it read, reached the screen.
        source.present = {
            lab.present()
            if let shown = lab.frames.last?.shownAt?.nanoseconds {
                truth.append(contentsOf: rendered.map { shown - $0 })
            }
            rendered.removeAll()
        }
        loop.statistics.dropHandler = { drop in drops.append((drop.frameIndex, drop.droppedFrames)) }
        loop.run(frames: frames)
        return Run(
            statistics: loop.statistics, truth: truth, drops: drops, missedRefreshes: lab.missedRefreshes,
            margin: loop.inputLatencyMargin, pacing: loop.statistics.pacingDescription)
    }

    @Test("a steady 3 ms frame at 60 Hz: latency mode cuts the mean latency by 8 ms or more, with no extra drops")
    func steady() {
        let normal = run(latencyMode: false, frames: 10_000)
        let late = run(latencyMode: true, frames: 10_000)
        let normalMean = normal.statistics.meanInputLatency.secondsValue * 1e3
        let lateMean = late.statistics.meanInputLatency.secondsValue * 1e3
        #expect(normalMean - lateMean >= 8, "default \(normalMean) ms, latency mode \(lateMean) ms")
        #expect(normal.trueMean - late.trueMean >= 8, "true means: \(normal.trueMean) ms, \(late.trueMean) ms")
        #expect(late.statistics.droppedFrames <= normal.statistics.droppedFrames)
        #expect(late.pacing.hasPrefix("vsync (60 Hz measured, phase-locked)"), "\(late.pacing)")
        #expect(late.missedRefreshes <= normal.missedRefreshes)
        // The loop's measure is the truth's: the same events, the same mean within 0.1 ms.
        #expect(abs(late.statistics.inputEvents - late.truth.count) <= 1)
        #expect(abs(lateMean - late.trueMean) < 0.1, "measured \(lateMean) ms, true \(late.trueMean) ms")
        #expect(abs(normalMean - normal.trueMean) < 0.1, "measured \(normalMean) ms, true \(normal.trueMean) ms")
    }

    @Test("a one-off 10 ms frame costs at most one drop, and the margin then covers the frames after it")
    func spike() {
        let late = run(latencyMode: true, frames: 3_000) { $0 == 2_000 ? .milliseconds(10) : .milliseconds(3) }
        let around = late.drops.filter { $0.frame > 1_900 }
        #expect(around.reduce(0) { $0 + $1.count } <= 1, "\(around)")
        #expect(late.margin > .milliseconds(1), "the margin widened: \(late.margin)")
        #expect(late.pacing.hasPrefix("vsync"), "\(late.pacing)")
    }

    @Test("a frame cost that jumps for good from 3 to 12 ms costs at most two drops")
    func jump() {
        let late = run(latencyMode: true, frames: 3_000) { $0 >= 2_000 ? .milliseconds(12) : .milliseconds(3) }
        let after = late.drops.filter { $0.frame > 1_900 }
        #expect(after.reduce(0) { $0 + $1.count } <= 2, "\(after)")
        #expect(late.pacing.hasPrefix("vsync"), "\(late.pacing)")
    }
}

/// Latency mode's edges: with the automatic frame rate, bad input times, and waits that must end.
@MainActor
@Suite("Latency mode and waits: edges")
struct LatencyModeEdgeTests {
    @Test("latency mode's wait is not frame cost: the automatic frame rate keeps every vsync")
    func automaticFrameRate() {
        let lab = DisplayLab(
            refresh: .fixed(.hz30, phase: .milliseconds(2)), jitter: .uniform(upTo: .microseconds(300)))
        let source = lab.makeSource()
        source.automaticFrameRate = true
        let loop = FrameLoop(source: source)
        loop.minimizesInputLatency = true
        DisplayLink { _ in lab.work(for: .milliseconds(3)) }.add(to: loop, forMode: .common)
        loop.run(frames: 2_000)
        #expect(source.presentInterval == 1, "\(source.pacingDescription)")
        #expect(loop.statistics.droppedFrames == lab.missedRefreshes)
    }

    @Test("an input time far in the past is measured, not a crash; input outside a frame is ignored")
    func extremeInputTimes() {
        let source = ManualFrameSource(refreshRate: .hz60)
        let loop = FrameLoop(source: source)
        loop.noteInput(at: .zero)  // outside a frame
        DisplayLink { _ in loop.noteInput(at: FrameInstant(nanoseconds: .min)) }.add(to: loop, forMode: .common)
        source.advance(frames: 5)
        #expect(loop.statistics.inputEvents == 4)  // frames 1–4's input, booked at frames 2–5
        #expect(loop.statistics.longestInputLatency > .zero)
    }

    @Test("an idle wait on virtual time with an input check and no timer ends: virtual time waits for no input")
    func idleOnVirtualTime() {
        let clock = VirtualClock()
        let source = DeadlineSource(refreshRate: .hz60, clock: clock)
        source.inputPending = { false }
        let loop = FrameLoop(source: source)
        loop.runFrame()
        loop.runFrame()
        #expect(loop.frameIndex == 2)
        #expect(clock.now <= 8_000_000, "one idle slice each, at most")
    }

    @Test("asking for a pacing during the phase probe ends the probe: pacing off means back to back")
    func requestedPacingEndsTheProbe() {
        let lab = DisplayLab(refresh: .none)
        lab.presentCost = .milliseconds(6)
        let source = lab.makeSource(nominalRate: .hz60)
        source.capsAtDisplayRefreshRate = true  // held to 60 Hz, the presents' returns echo that: probed
        let loop = FrameLoop(source: source)
        var stamps: [Int64] = []
        DisplayLink { link in
            lab.work(for: .milliseconds(3))
            stamps.append(link.timestamp.nanoseconds)
            if source.pacingState.reason == .checkingPhase && source.pacing == .automatic {
                source.pacing = .unpaced
            }
        }.add(to: loop, forMode: .common)
        loop.run(frames: 300)
        #expect(source.pacing == .unpaced, "the probe started: \(source.reason)")
        let last = stamps.suffix(20)
        let intervals = zip(last.dropFirst(), last).map { $0 - $1 }
        #expect(intervals.allSatisfy { $0 == 9_000_000 }, "back to back: \(intervals)")
    }
}
