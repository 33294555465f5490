import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// A third independent review's scenarios against the pacing changes of e6f3b52..a04b1e1 (a queued
/// frame covers a late present on variable refresh, a cap on variable refresh paced directly, a
/// present with room in the chain did not wait, a block longer than the chain explains is no
/// vsync's): each run on the display lab and judged by outcomes against its ground truth, with
/// ``ReviewRun`` (PacingReview2Tests) for fixed displays and ``VariableRun`` for variable ones.
@MainActor
final class VariableRun {
    let lab: DisplayLab
    let source: PresentSource
    let loop: FrameLoop
    /// The drops the loop had booked at the start of each frame.
    var droppedAt: [Int64: Int] = [:]
    var script: (Int64) -> Duration

    init(
        minimum: Int64 = 44, maximum: FrameRate = .hz144, nominal: FrameRate?, buffers: Int = 2,
        caps: Bool = true, setUp: (PresentSource, FrameLoop) -> Void = { _, _ in },
        script: @escaping (Int64) -> Duration
    ) {
        lab = DisplayLab(
            refresh: .variable(minimum: FrameRate(numerator: minimum), maximum: maximum), buffers: buffers,
            jitter: .exponential(mean: .microseconds(150)), seed: 9)
        source = lab.makeSource(nominalRate: nominal)
        source.swapChainBuffers = buffers
        source.capsAtDisplayRefreshRate = caps
        loop = FrameLoop(source: source)
        self.script = script
        setUp(source, loop)
        let box = ReviewRun.WorkBox()
        let (lab, loop) = (lab, loop)
        DisplayLink { [unowned self] link in
            self.droppedAt[link.frameIndex] = loop.statistics.droppedFrames
            lab.work(for: box.body(link.frameIndex))
        }.add(to: loop, forMode: .common)
        box.body = { [unowned self] in self.script($0) }
    }

    func run(frames count: Int) { loop.run(frames: count) }

    /// What frames `range` (lab frame positions) showed: intervals between shown frames off
    /// `period` by over 100 µs, the shortest interval, refreshes that showed an old frame, and the
    /// drops booked over the same frames.
    struct Outcome: CustomStringConvertible {
        var shown = 0
        var uneven = 0
        var shortest = Int64.max
        var longest: Int64 = 0
        var missed = 0
        var booked = 0
        var description: String {
            "shown \(shown) uneven \(uneven) shortest \(shortest) ns longest \(longest) ns missed \(missed) booked \(booked)"
        }
    }

    func outcome(_ range: Range<Int>, period: Int64?) -> Outcome {
        var outcome = Outcome()
        let frames = Array(lab.frames[range])
        let shown = frames.compactMap { $0.shownAt?.nanoseconds }
        for (earlier, later) in zip(shown, shown.dropFirst()) {
            outcome.shown += 1
            if let period, abs(later - earlier - period) > 100_000 { outcome.uneven += 1 }
            outcome.shortest = min(outcome.shortest, later - earlier)
            outcome.longest = max(outcome.longest, later - earlier)
        }
        outcome.missed = frames.dropFirst().reduce(0) { $0 + $1.missedRefreshes }
        // Loop frame i presents lab position i; the drops booked for it show at frame i + 1's start.
        if let first = droppedAt[Int64(range.lowerBound + 1)], let last = droppedAt[Int64(range.upperBound)] {
            outcome.booked = last - first
        }
        return outcome
    }
}

@MainActor
@Suite("Pacing review 3: scenarios judged against the lab's truth")
struct PacingReview3Tests {
    static let p60 = FrameRate.hz60.periodNanoseconds
    static let p144 = FrameRate.hz144.periodNanoseconds

    static func work(_ random: inout SplitMix64, _ period: Int64, _ low: Double, _ high: Double) -> Duration {
        let unit = Double(random.next() >> 11) / Double(1 << 53)
        return .nanoseconds(Int64((low + unit * (high - low)) * Double(period)))
    }

    // MARK: Variable refresh: caps

    @Test(
        "a cap at or above a variable display's maximum: never faster than the maximum, no old frame shown unbooked",
        arguments: [144, 165, 240])
    func capAtOrAboveMaximum(cap: Int64) {
        var random = SplitMix64(seed: 3)
        let run = VariableRun(nominal: FrameRate(numerator: cap)) { _ in
            Self.work(&random, Self.p144, 0.3, 0.9)
        }
        run.run(frames: 900)
        let outcome = run.outcome(200..<880, period: nil)
        print("cap \(cap) on 44-144: \(outcome) \(run.source.pacingDescription)")
        #expect(outcome.shortest >= Self.p144 - 100_000, "\(outcome)")
        #expect(outcome.booked == outcome.missed, "\(outcome)")
    }

    @Test("a cap changed mid-run (60 → 100 → 144 → 72 Hz): each segment shown evenly at its cap")
    func capChangedMidRun() {
        var random = SplitMix64(seed: 4)
        let caps: [(Int64, Int64)] = [(0, 60), (400, 100), (800, 144), (1_200, 72)]
        var run: VariableRun!
        run = VariableRun(nominal: .hz60) { index in
            if let change = caps.first(where: { $0.0 == index && index > 0 }) {
                run.source.displayRefreshRate = FrameRate(numerator: change.1)
            }
            let cap = caps.last { $0.0 <= index }!.1
            return Self.work(&random, FrameRate(numerator: cap).periodNanoseconds, 0.3, 0.85)
        }
        run.run(frames: 1_600)
        var failures: [String] = []
        for (position, (start, cap)) in caps.enumerated() {
            let end = position + 1 < caps.count ? Int(caps[position + 1].0) : 1_590
            let period = FrameRate(numerator: cap).periodNanoseconds
            let outcome = run.outcome((Int(start) + 60)..<end, period: cap == 144 ? nil : period)
            print("cap \(cap) from \(start): \(outcome)")
            if outcome.uneven > 0 || outcome.missed > 0 || outcome.booked != outcome.missed
                || outcome.shortest < period - 100_000
            {
                failures.append("cap \(cap): \(outcome)")
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test(
        "a cap turned off and on mid-run on a variable display: even when capped, never faster than the maximum, drops as shown"
    )
    func capTurnedOff() {
        var random = SplitMix64(seed: 5)
        var run: VariableRun!
        run = VariableRun(nominal: .hz60) { index in
            if index == 500 { run.source.capsAtDisplayRefreshRate = false }
            if index == 1_000 { run.source.capsAtDisplayRefreshRate = true }
            return Self.work(&random, Self.p144, 0.3, 0.9)
        }
        run.run(frames: 1_500)
        let capped = run.outcome(200..<500, period: Self.p60)
        let free = run.outcome(600..<1_000, period: nil)
        let again = run.outcome(1_100..<1_490, period: Self.p60)
        print("cap off: capped \(capped) || free \(free) || again \(again) \(run.source.pacingDescription)")
        #expect(capped.uneven == 0 && again.uneven == 0, "\(capped) || \(again)")
        // (Uncapped, frames are not held: on a variable display they come as their work ends, faster
        // than the 60 Hz reported: 12.8 ms apart at the closest; see `variableUncapped`.)
        #expect(free.shortest >= Self.p144 - 100_000, "\(free)")
        #expect(free.booked == free.missed && again.booked == again.missed, "\(free) || \(again)")
    }

    @Test("a cap with a slower requested range: the range, shown evenly")
    func capWithSlowerRequestedRange() { capWithRequestedRange(cap: 100, range: 60) }

    @Test(
        "a cap with a faster requested range: never faster than the cap",
        arguments: [(cap: Int64(60), range: Int64(100)), (cap: 90, range: 120)])
    func capWithFasterRequestedRange(cap: Int64, range: Int64) { capWithRequestedRange(cap: cap, range: range) }

    func capWithRequestedRange(cap: Int64, range: Int64) {
        var random = SplitMix64(seed: 6)
        let rate = min(cap, range)
        let period = FrameRate(numerator: rate).periodNanoseconds
        let run = VariableRun(nominal: FrameRate(numerator: cap)) { _, loop in
            loop.preferredFrameRateRange = FrameRateRange(exactly: FrameRate(numerator: range))
        } script: { _ in
            Self.work(&random, Self.p144, 0.3, 0.9)
        }
        run.run(frames: 900)
        let outcome = run.outcome(200..<880, period: period)
        print("cap \(cap) range \(range): \(outcome) \(run.source.pacingDescription)")
        #expect(outcome.shortest >= period - 100_000, "faster than the cap: \(outcome)")
        #expect(outcome.uneven == 0 && outcome.missed == 0, "\(outcome)")
    }

    @Test("a variable display capped at 60 Hz, the window hidden and shown (host told): even again after the show")
    func variableHiddenAndShown() {
        var random = SplitMix64(seed: 7)
        var run: VariableRun!
        run = VariableRun(nominal: .hz60) { index in
            if index == 400 {
                run.lab.isHidden = true
                run.source.isWindowHidden = true
            }
            if index == 500 {
                run.lab.isHidden = false
                run.source.isWindowHidden = false
            }
            return Self.work(&random, Self.p60, 0.3, 0.85)
        }
        run.run(frames: 900)
        let before = run.outcome(200..<398, period: Self.p60)
        let after = run.outcome(520..<890, period: Self.p60)
        print("VRR hidden: before \(before) || after \(after)")
        #expect(before.uneven == 0 && after.uneven == 0, "\(before) || \(after)")
        #expect(after.missed == 0 && after.booked == 0, "\(after)")
    }

    @Test(
        "the automatic frame rate under a variable display's 60 Hz cap: heavy frames halve it, drops follow the truth",
        arguments: [44, 20])
    func halvingUnderAVariableCap(minimum: Int64) {
        var run: VariableRun!
        run = VariableRun(minimum: minimum, nominal: .hz60) { source, _ in
            source.automaticFrameRate = true
        } script: { index in
            (300..<700).contains(index) ? .milliseconds(19) : .milliseconds(5)
        }
        var intervals: [Int64: Int] = [:]
        run.script = { index in
            intervals[index] = run.source.presentInterval
            return (300..<700).contains(index) ? .milliseconds(19) : .milliseconds(5)
        }
        run.run(frames: 1_100)
        let halved = intervals.filter { $0.value == 2 }.map(\.key).sorted()
        let heavy = run.outcome(400..<690, period: 2 * Self.p60)
        let back = run.outcome(800..<1_090, period: Self.p60)
        print(
            "VRR halving (min \(minimum)): halved frames \(halved.first ?? -1)...\(halved.last ?? -1) heavy \(heavy) || back \(back)"
        )
        // (Halved to 30 Hz below the display's 44 Hz minimum, it repeats each frame once: even, and
        // no drop at an interval of 2.)
        #expect(heavy.uneven == 0 && heavy.booked == 0 && heavy.missed <= heavy.shown, "heavy: \(heavy)")
        #expect(back.uneven == 0 && back.missed == 0 && back.booked == 0, "back: \(back)")
    }

    @Test("latency mode on a variable display capped at 60 Hz: presents held to their paced time, shown evenly")
    func latencyModeUnderAVariableCap() {
        var random = SplitMix64(seed: 8)
        let run = VariableRun(nominal: .hz60) { _, loop in
            loop.minimizesInputLatency = true
        } script: { _ in
            Self.work(&random, Self.p60, 0.2, 0.7)
        }
        run.run(frames: 900)
        let outcome = run.outcome(200..<880, period: Self.p60)
        print("VRR latency mode: \(outcome) \(run.source.pacingDescription)")
        #expect(outcome.uneven == 0 && outcome.missed == 0 && outcome.booked == 0, "\(outcome)")
    }

    @Test(
        "a variable display capped at 60 Hz, a 30 ms hitch now and then: drops as the display repeated, even between",
        arguments: [2, 3])
    func variableCapWithHitches(buffers: Int) {
        var random = SplitMix64(seed: 9)
        let run = VariableRun(nominal: .hz60, buffers: buffers) { index in
            if index % 150 == 70 { return .milliseconds(30) }
            return Self.work(&random, Self.p60, 0.3, 0.85)
        }
        run.run(frames: 1_200)
        var uneven = 0
        var booked = 0
        var missed = 0
        // (Between the hitches, at frames 70 + 150 n.)
        for hitch in stride(from: 220, to: 1_050, by: 150) {
            let outcome = run.outcome((hitch + 15)..<(hitch + 140), period: Self.p60)
            uneven += outcome.uneven
            booked += outcome.booked
            missed += outcome.missed
        }
        let all = run.outcome(200..<1_190, period: nil)
        print("VRR cap with hitches, \(buffers) buffers: uneven \(uneven) booked \(booked) missed \(missed) all \(all)")
        #expect(uneven == 0 && booked == missed, "uneven \(uneven) booked \(booked) missed \(missed)")
        #expect(all.booked == all.missed, "\(all)")
    }

    // MARK: Deeper chains at the vsync

    @Test(
        "3–4 buffers, presents right at the vsyncs with a latch deadline and a GPU time: truth kept",
        .disabled(
            "defect (a form pre-existing on c888216: 106 of 465 targets off and drops half booked there): with an 800 µs latch deadline, presents called 40 µs before to 40 µs after a vsync, every judged target is a period early (3 buffers 82/82, 4 buffers 82/82, with or without 3 ms GPU time); drops booked 679 = truth 679; without the latch 0/83 (deepChainsAtTheVsyncNoLatch)"
        ),
        arguments: [(3, 0), (3, 3), (4, 0), (4, 3)])
    func deepChainsAtTheVsync(buffers: Int, gpu: Int) {
        deepChainAtTheVsync(buffers: buffers, latch: .microseconds(800), gpu: .milliseconds(Int64(gpu)))
    }

    /// Frames of a period ± 40 µs on 3–4 buffers, presents right at the vsyncs, with a latch deadline
    /// and a GPU time, or none.
    func deepChainAtTheVsync(buffers: Int, latch: Duration, gpu: Duration) {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .microseconds(1_700)), buffers: buffers,
            jitter: .uniform(upTo: .microseconds(60)), seed: 14)
        lab.latchDeadline = latch
        lab.gpuTime = gpu
        var random = SplitMix64(seed: 12)
        let run = ReviewRun(lab, declaredBuffers: buffers) { index in
            if index < 150 { return .milliseconds(5) }
            // From 40 µs before to 40 µs after a period.
            return .nanoseconds(Self.p60 - 40_000 + Int64(random.next() % 80_000))
        }
        run.run(frames: 1_200)
        let verdict = run.judge(from: 200, period: Self.p60)
        print("deep chain \(buffers) buffers, latch \(latch), GPU \(gpu) at the vsync: \(verdict)")
        #expect(verdict.passes, "\(verdict)")
    }

    @Test("swapChainBuffers declared 4 while the display has 3: nothing claimed off the truth")
    func declaredFourRealThree() { declaredBuffersWrong(declared: 4, real: 3) }

    @Test(
        "swapChainBuffers left at 2 while the display has 3: no claimed vsync off the truth")
    func declaredTwoRealThree() { declaredBuffersWrong(declared: 2, real: 3) }

    @Test(
        "swapChainBuffers declared 3 while the display has 2: targets where the frames are shown",
        .disabled(
            "defect (pre-existing, identical on c888216 and e6f3b52): 666 of 993 targets a period early (presents block 11.2 ms median, frames shown on the vsync that releases them, the model places them a vsync later); timestamps 0/993 off, drops 395 = truth"
        ))
    func declaredThreeRealTwo() { declaredBuffersWrong(declared: 3, real: 2) }

    func declaredBuffersWrong(declared: Int, real: Int) {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .microseconds(2_900)), buffers: real,
            jitter: .lognormal(median: .microseconds(150), percentile99: .microseconds(2_000)), seed: 15)
        var random = SplitMix64(seed: 13)
        let run = ReviewRun(lab, declaredBuffers: declared) { index in
            if index % 120 == 60 { return .milliseconds(27) }
            if index % 3 == 0 { return .nanoseconds(Self.p60 - 30_000 + Int64(random.next() % 60_000)) }
            return .nanoseconds(4_000_000 + Int64(random.next() % 6_000_000))
        }
        run.run(frames: 1_200)
        let verdict = run.judge(from: 200, period: Self.p60)
        run.dump(1_180...1_192)
        print("declared \(declared) real \(real): \(verdict) \(run.source.pacingDescription)")
        #expect(verdict.passes, "\(verdict)")
    }

    // MARK: Blocks longer than the chain

    @Test(
        "2 buffers, compositor stalls of 3–5 periods now and then: the stalled frames' drops booked, the grid kept",
        arguments: [Int64(3), 5])
    func compositorStallDoubleBuffered(periods: Int64) { compositorStall(buffers: 2, periods: periods) }

    @Test(
        "3 buffers, compositor stalls of 3–5 periods now and then: the stalled frames' drops booked, the grid kept",
        arguments: [Int64(3), 5])
    func compositorStallTripleBuffered(periods: Int64) { compositorStall(buffers: 3, periods: periods) }

    func compositorStall(buffers: Int, periods: Int64) {
        // About 1 blocked present in 300 returns `periods` periods late.
        var delays: [Duration] = []
        for index in 0..<300 {
            delays.append(
                index == 150
                    ? .nanoseconds(periods * Self.p60 + 1_000_000) : .microseconds(100 + Int64(index % 7) * 50))
        }
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .microseconds(4_400)), buffers: buffers, jitter: .sampled(delays), seed: 1)
        let run = ReviewRun(lab, declaredBuffers: buffers) { _ in .milliseconds(5) }
        run.run(frames: 1_500)
        let stalls = lab.frames.indices.filter {
            $0 > 100 && $0 < 1_450
                && lab.frames[$0].returnedAt.nanoseconds - lab.frames[$0].presentedAt.nanoseconds > 2 * Self.p60
        }.map(Int64.init)
        let verdict = run.judge(from: 150, events: stalls, after: 30, period: Self.p60)
        // Over each stall: the drops booked from just before to 20 frames after, against the truth.
        var truth = [0]
        for frame in lab.frames { truth.append(truth[truth.count - 1] + frame.missedRefreshes) }
        func dropped(_ index: Int64) -> Int { run.frames.first { $0.index == index }!.dropped }
        var wrong: [String] = []
        for stall in stalls {
            let booked = dropped(stall + 20) - dropped(stall - 2)
            let real = truth[Int(stall + 20)] - truth[Int(stall - 2)]
            if booked != real { wrong.append("at \(stall): booked \(booked) truth \(real)") }
        }
        print("stalls \(periods) periods, \(buffers) buffers at \(stalls): \(wrong) \(verdict)")
        #expect(!stalls.isEmpty)
        #expect(wrong.isEmpty, "\(wrong)")
        #expect(verdict.passes, "\(verdict)")
    }

    @Test(
        "3 buffers with presents right at the vsyncs, no latch deadline: truth kept",
        arguments: [3, 4])
    func deepChainsAtTheVsyncNoLatch(buffers: Int) {
        deepChainAtTheVsync(buffers: buffers, latch: .zero, gpu: .zero)
    }

    @Test("a variable display reported at 60 Hz without a cap: never faster than its maximum, drops as shown")
    func variableUncapped() {
        var random = SplitMix64(seed: 5)
        let run = VariableRun(nominal: .hz60, caps: false) { _ in Self.work(&random, Self.p144, 0.3, 0.9) }
        run.run(frames: 900)
        let outcome = run.outcome(200..<880, period: nil)
        print("VRR uncapped: \(outcome) \(run.source.pacingDescription)")
        // (Seen: still measuring whether present blocks after 900 frames, frames as close as 12.7 ms
        // under a 60 Hz report; not judged.)
        #expect(outcome.shortest >= Self.p144 - 100_000, "\(outcome)")
        #expect(outcome.booked == outcome.missed, "\(outcome)")
    }

    @Test(
        "2 buffers with a GPU time over half a period: blocks past 1.5 periods keep timestamps and drops true",
        arguments: [Int64(10), 12])
    func gpuOverHalfAPeriodGuard(gpu: Int64) {
        let verdict = gpuOverHalfAPeriod(gpu: gpu)
        #expect(verdict.timestampsOff == 0 && verdict.dropShifts.isEmpty && verdict.booked == verdict.truthTotal)
        #expect(verdict.fastestWindow >= 59.75, "\(verdict)")
    }

    @Test(
        "2 buffers with a GPU time over half a period: targets where the frames are shown",
        arguments: [Int64(10), 12])
    func gpuOverHalfAPeriodTargets(gpu: Int64) {
        let verdict = gpuOverHalfAPeriod(gpu: gpu)
        #expect(verdict.passes, "\(verdict)")
    }

    @discardableResult
    func gpuOverHalfAPeriod(gpu: Int64) -> ReviewRun.Verdict {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .microseconds(6_100)), buffers: 2,
            jitter: .exponential(mean: .microseconds(200)), seed: 19)
        lab.gpuTime = .milliseconds(gpu)
        lab.latchDeadline = .microseconds(500)
        var random = SplitMix64(seed: 21)
        let run = ReviewRun(lab, declaredBuffers: 2) { index in
            if index % 130 == 60 { return .milliseconds(25) }
            return .nanoseconds(1_000_000 + Int64(random.next() % 6_000_000))
        }
        run.run(frames: 1_200)
        let verdict = run.judge(from: 200, period: Self.p60)
        let long = lab.frames.filter {
            $0.returnedAt.nanoseconds - $0.presentedAt.nanoseconds > Self.p60 * 3 / 2
        }.count
        print("2 buffers GPU \(gpu) ms: \(long) blocks over 1.5 periods; \(verdict) \(run.source.mode)")
        return verdict
    }

    @Test(
        "a short modeset blank (50–80 ms, same rate): truth kept after the relock",
        arguments: [(2, 50), (3, 50), (3, 80)])
    func shortModesetBlank(buffers: Int, blank: Int64) {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .microseconds(2_500)), buffers: buffers,
            jitter: .exponential(mean: .microseconds(200)), seed: 23)
        let run = ReviewRun(lab, declaredBuffers: buffers) { index in
            if index == 500 {
                lab.changeRefresh(to: .fixed(.hz60, phase: .microseconds(7_000)), blankingFor: .milliseconds(blank))
            }
            return .milliseconds(5)
        }
        run.run(frames: 1_000)
        let verdict = run.judge(from: 150, events: [500], after: 60, period: Self.p60)
        print("blank \(blank) ms, \(buffers) buffers: \(verdict)")
        #expect(verdict.passes, "\(verdict)")
    }

    // MARK: Divisors with room in the chain

    @Test(
        "a divisor with 3 buffers, frames costing about k periods: truth kept",
        arguments: [2, 3])
    func divisorAtTheVsync(every k: Int) {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .microseconds(3_100)), buffers: 3,
            jitter: .uniform(upTo: .microseconds(50)), seed: 25)
        var random = SplitMix64(seed: 26)
        let run = ReviewRun(lab, declaredBuffers: 3) { _, loop in
            loop.preferredFrameRateRange = FrameRateRange(exactly: FrameRate(numerator: 60, denominator: Int64(k)))
        } script: { index in
            if index < 150 { return .milliseconds(5) }
            return .nanoseconds(Self.p60 * Int64(k) - 40_000 + Int64(random.next() % 80_000))
        }
        run.run(frames: 1_000)
        let verdict = run.judge(from: 200, period: Self.p60, vsyncsPerFrame: k)
        print("divisor \(k), 3 buffers, about k periods: \(verdict)")
        #expect(run.source.presentInterval == k)
        #expect(verdict.passes, "\(verdict)")
    }
}
