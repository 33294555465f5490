import Testing

@_spi(FrameSourceImplementation) @testable import FrameLink

/// The classes of pacing defect that random displays found, each on the display lab against its
/// ground truth; each of these failed before its fix.
@MainActor
@Suite("Pacing defects found by the sweep, each against the lab's truth")
struct PacingClassesTests {
    nonisolated static let hoveringDisplays: [(FrameRate, UInt64)] = [(.hz59_94, 1), (.hz60, 2), (.hz144, 3)]

    /// Runs `frames` frames of `work(frameIndex)` on `lab`, telling the source `buffers`; returns
    /// the source, the loop and every frame's (timestamp, target, whether on the vsync grid).
    func run(
        _ lab: DisplayLab, buffers: Int, frames: Int, work: @escaping (Int64) -> Duration
    ) -> (PresentSource, FrameLoop) {
        let source = lab.makeSource()
        source.swapChainBuffers = buffers
        let loop = FrameLoop(source: source)
        DisplayLink { link in lab.work(for: work(link.frameIndex)) }.add(to: loop, forMode: .common)
        loop.run(frames: frames)
        return (source, loop)
    }

    @Test("a hitch that drains a triple-buffered chain leaves a real vsync in vsync mode (it was deadline for good)")
    func hitchDrainsChain() {
        let lab = DisplayLab(refresh: .fixed(FrameRate(numerator: 128), phase: .milliseconds(2)), buffers: 3)
        let (source, loop) = run(lab, buffers: 3, frames: 700) { index in
            index == 300 ? .milliseconds(220) : .microseconds(900)
        }
        #expect(source.mode == .vsync, "\(source.pacingDescription)")
        #expect(loop.statistics.droppedFrames == lab.missedRefreshes)
    }

    @Test("frames hovering at 90–110 % of a period on three buffers: never judged 'vsync not honoured'")
    func hoveringFramesOnThreeBuffers() {
        let lab = DisplayLab(refresh: .fixed(.hz165, phase: .milliseconds(3)), buffers: 3)
        var random = _SplitMix64(seed: 76)
        let period = Double(FrameRate.hz165.periodNanoseconds)
        let (source, _) = run(lab, buffers: 3, frames: 900) { _ in
            .nanoseconds(Int64(period * (0.9 + 0.2 * random.unit())))
        }
        #expect(!source.pacingState.reason.isVsyncRejected, "\(source.pacingDescription)")
    }

    @Test("a drop learnt from feedback one frame late is booked, not capped away by a one-period interval")
    func lateDropFromFeedback() {
        let lab = DisplayLab(refresh: .fixed(.hz120, phase: .milliseconds(3)), buffers: 3, feedback: true)
        let period = FrameRate.hz120.periodNanoseconds
        let (_, loop) = run(lab, buffers: 3, frames: 600) { index in
            .nanoseconds(period * 62 / 100 + (index == 400 || index == 450 ? period : 0))
        }
        #expect(lab.missedRefreshes > 0)
        #expect(loop.statistics.droppedFrames == lab.missedRefreshes)
    }

    @Test(
        "frames hovering at 95–105 % of a period on two buffers: targets, timestamps and drops as the display saw them",
        arguments: Self.hoveringDisplays)
    func hoveringFramesOnTwoBuffers(rate: FrameRate, seed: UInt64) {
        // Presents land microseconds from a vsync, on either side of it.
        let lab = DisplayLab(refresh: .fixed(rate, phase: .milliseconds(4)))
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        var random = _SplitMix64(seed: seed)
        var frames: [(index: Int64, timestamp: Int64, target: Int64, onVsync: Bool)] = []
        DisplayLink { link in
            frames.append(
                (link.frameIndex, link.timestamp.nanoseconds, link.targetTimestamp.nanoseconds, source.isPhaseLocked))
            lab.work(for: .nanoseconds(Int64(Double(rate.periodNanoseconds) * (0.95 + 0.1 * random.unit()))))
        }.add(to: loop, forMode: .common)
        loop.run(frames: 900)
        #expect(source.mode == .vsync, "\(source.pacingDescription)")
        #expect(loop.statistics.droppedFrames == lab.missedRefreshes)
        let judged = frames.filter { $0.index >= 200 && $0.index < 890 }
        #expect(judged.filter(\.onVsync).count * 10 >= judged.count * 9, "locked in most frames")
        for frame in judged where frame.onVsync {
            let truth = lab.frames[Int(frame.index)]
            let vsync = lab.lastRefresh(atOrBefore: FrameInstant(nanoseconds: frame.timestamp + 50_000))
            #expect(vsync.map { abs($0.nanoseconds - frame.timestamp) <= 100_000 } == true, "frame \(frame.index)")
            guard let shown = truth.shownAt, truth.presentedAt.nanoseconds < frame.target - 100_000 else { continue }
            #expect(abs(shown.nanoseconds - frame.target) <= 100_000, "frame \(frame.index)")
        }
    }

    @Test(
        "frames of a steady 85–95 % of a period on two buffers: vsync and locked (90 % stayed measuring)",
        arguments: [0.85, 0.9, 0.95])
    func steadyHeavyFrames(fraction: Double) {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .milliseconds(3)), jitter: .uniform(upTo: .microseconds(300)), seed: 7)
        let (source, loop) = run(lab, buffers: 2, frames: 1_200) { _ in
            .nanoseconds(Int64(fraction * Double(FrameRate.hz60.periodNanoseconds)))
        }
        #expect(source.mode == .vsync, "\(source.pacingDescription)")
        #expect(source.isPhaseLocked, "\(source.pacingDescription)")
        #expect(loop.statistics.droppedFrames == lab.missedRefreshes)
    }

    @Test("slow present returns (a 3.6 ms tail, 1 in 400) keep their frames on the vsync: deltaTime stays whole")
    func oneSlowReturn() {
        // Delays of 0–0.3 ms, and one of 3.6 ms at frame 400 (a long tail of the compositor's).
        var delays = [Duration](repeating: .microseconds(150), count: 399)
        delays.append(.microseconds(3_600))
        let lab = DisplayLab(refresh: .fixed(.hz60, phase: .milliseconds(3)), jitter: .sampled(delays), seed: 7)
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        var deltas: [Int64] = []
        var onGrid: [Bool] = []
        DisplayLink { link in
            deltas.append(link.deltaTime.wholeNanoseconds)
            onGrid.append(source.mode == .vsync)
            lab.work(for: .milliseconds(4))
        }.add(to: loop, forMode: .common)
        loop.run(frames: 3_000)
        let period = FrameRate.hz60.periodNanoseconds
        // Every deltaTime after start-up is a whole number of periods, the slow returns' included.
        let late = deltas.indices.filter { $0 >= 120 && onGrid[$0] }.filter { index in
            let periods = max(1, (deltas[index] + period / 2) / period)
            return abs(deltas[index] - periods * period) > 100_000
        }
        #expect(late.isEmpty, "deltaTime off whole periods at frames \(late.prefix(5))")
        #expect(loop.statistics.droppedFrames == lab.missedRefreshes)
    }

    @Test("an exact 60 Hz on a 40–165 Hz variable display, frames of 8 and 12 ms: shown every 16.7 ms, not 12.7/20.7")
    func variableRefreshHoldsThePresent() {
        let lab = DisplayLab(
            refresh: .variable(minimum: FrameRate(numerator: 40), maximum: .hz165),
            jitter: .uniform(upTo: .microseconds(300)))
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        loop.preferredFrameRateRange = FrameRateRange(exactly: .hz60)
        var targets: [Int64: Int64] = [:]
        DisplayLink { link in
            targets[link.frameIndex] = link.targetTimestamp.nanoseconds
            lab.work(for: link.frameIndex % 2 == 0 ? .milliseconds(8) : .milliseconds(12))
        }.add(to: loop, forMode: .common)
        loop.run(frames: 600)
        let shown = lab.frames.dropFirst(30).compactMap(\.shownAt)
        let intervals = zip(shown, shown.dropFirst()).map { ($1 - $0).wholeNanoseconds }
        #expect(intervals.allSatisfy { abs($0 - FrameRate.hz60.periodNanoseconds) <= 1 }, "\(Set(intervals).sorted())")
        // (The display may refresh on its own while the first frames are measured.)
        #expect(lab.frames.dropFirst(30).allSatisfy { $0.missedRefreshes == 0 })
        #expect(loop.statistics.drops.allSatisfy { $0.frameIndex < 30 })
        for index in 30..<590 {
            guard let shownAt = lab.frames[index].shownAt, let target = targets[Int64(index)] else { continue }
            #expect(abs(shownAt.nanoseconds - target) <= 100_000, "frame \(index)")
        }
    }

    @Test("a steady display with light frames is paced by vsync within 40 frames (it took 96 or more)")
    func vsyncSoon() {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .milliseconds(5)), jitter: .exponential(mean: .microseconds(100)))
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        var vsyncFrom: Int64?
        DisplayLink { link in
            if source.mode == .vsync, vsyncFrom == nil { vsyncFrom = link.frameIndex }
            if source.mode != .vsync { vsyncFrom = nil }
            lab.work(for: .milliseconds(3))
        }.add(to: loop, forMode: .common)
        loop.run(frames: 300)
        #expect(vsyncFrom.map { $0 <= 40 } == true, "vsync from frame \(vsyncFrom.map(String.init) ?? "never")")
        #expect(loop.statistics.droppedFrames == lab.missedRefreshes)
    }
}
