import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// Review 8 (of b24d1f2, 650ceb9, 2bd6897, by an independent reviewer with scenarios of its own),
/// judged against the display lab's truth with the review-6 harness (`R6`) and a judge that also
/// applies the judges' rule for targets (`R8.judge`: a frame shown as late after its call as the
/// frames before it, `DisplayLab.pipelineLateness(beforeFrame:)`, presented before its target less
/// that lateness, is judged; 650ceb9's first rule excused steady pipelines, see
/// `newJudgeRuleOnGPUBoundMidGame`). Open defects are `withKnownIssue`, with their figures.
@MainActor
enum R8 {
    static let p60 = FrameRate.hz60.periodNanoseconds

    /// A run of `config` with a GPU time and latch deadline from the first frame.
    static func run(
        _ config: R6.Config, gpu: Duration = .zero, latch: Duration = .zero,
        setup: @MainActor (R6) -> Void = { _ in }
    ) -> R6 {
        let run = R6(config, run: false)
        run.lab.gpuTime = gpu
        run.lab.latchDeadline = latch
        setup(run)
        run.loop.run(frames: config.frames)
        return run
    }

    struct Verdict: CustomStringConvertible {
        var base: R6.Verdict
        /// Targets off (> 100 µs) that the judges' pipeline rule judges.
        var targetOffNew: [(Int64, Int64)] = []
        /// Targets off that the pipeline rule excuses (a frame late or early unlike the frames
        /// before it, or one presented after its target less the pipeline's lateness).
        var excused: [(Int64, Int64)] = []
        /// Frames whose target was judged (old rule).
        var targetsJudged = 0
        var description: String {
            "\(base); targets judged \(targetsJudged), off under the new rule \(targetOffNew.count) "
                + "\(targetOffNew.prefix(4).map { "\($0.0):\(Double($0.1) / 1e6)" }), excused by it \(excused.count) "
                + "\(excused.prefix(4).map { "\($0.0):\(Double($0.1) / 1e6)" })"
        }
    }

    /// Whether the judges' pipeline rule judges the target of frame `index`, `nearest` (the true
    /// refresh it stands for, when within 100 µs), on a display of period `period`: the frame was
    /// shown as late after its call as a clear majority of the frames before it
    /// (`DisplayLab.pipelineLateness(beforeFrame:)`), and presented before the target less that
    /// lateness.
    static func pipelineJudges(_ run: R6, index: Int, nearest: Int64, period: Int64) -> Bool {
        guard let pipeline = run.lab.pipelineLateness(beforeFrame: index),
            run.lab.refreshesLate(frame: index) == pipeline
        else { return false }
        return run.lab.frames[index].presentedAt.nanoseconds < nearest - Int64(pipeline) * period
    }

    /// `run.judge(a, b)` plus the targets under the pipeline rule.
    static func judge(_ run: R6, _ a: Int64, _ b: Int64, fixed: Bool = true) -> Verdict {
        var v = Verdict(base: run.judge(a, b, fixed: fixed))
        for f in run.frames where f.index >= a && f.index <= b && f.follows {
            guard Int(f.index) < run.lab.frames.count else { continue }
            let lf = run.lab.frames[Int(f.index)]
            guard let shown = lf.shownAt, lf.presentedAt.nanoseconds < f.target - 100_000 else { continue }
            v.targetsJudged += 1
            let d = shown.nanoseconds - f.target
            guard abs(d) > 100_000 else { continue }
            // (As SweepVerdict: against the true refresh the target stands for, when within 100 µs.)
            let nearest = f.target + (run.nearestDistance(f.target) <= 100_000 ? nearestOffset(run, f.target) : 0)
            let index = Int(f.index)
            if pipelineJudges(run, index: index, nearest: nearest, period: run.lab.periodBefore(nearest)) {
                v.targetOffNew.append((f.index, d))
            } else {
                v.excused.append((f.index, d))
            }
        }
        return v
    }

    /// The signed offset from `t` to the nearest true refresh.
    static func nearestOffset(_ run: R6, _ t: Int64) -> Int64 {
        let times = run.lab.refreshTimes
        let i = run.firstRefreshIndex(after: t)
        var best: Int64 = .max
        if i < times.count { best = times[i].nanoseconds - t }
        if i > 0, t - times[i - 1].nanoseconds < abs(best) { best = times[i - 1].nanoseconds - t }
        return best == .max ? 0 : best
    }

    /// Frames (loop indices in a..<b) whose target is off by more than 100 µs (old rule).
    static func offIndices(_ run: R6, _ a: Int64, _ b: Int64) -> [Int64] {
        judge(run, a, b).base.targetOff.map(\.0)
    }

    /// Shown intervals of lab frames a..<b: (count, shortest ns, mean ns).
    static func shownIntervals(_ run: R6, _ a: Int, _ b: Int) -> (count: Int, shortest: Int64, mean: Double) {
        let shown = run.lab.frames[a..<min(b, run.lab.frames.count)].compactMap { $0.shownAt?.nanoseconds }
        let gaps = zip(shown.dropFirst(), shown).map { $0 - $1 }
        return (gaps.count, gaps.min() ?? 0, gaps.isEmpty ? 0 : Double(gaps.reduce(0, +)) / Double(gaps.count))
    }

    /// The shortest mean shown interval over any 60 consecutive shown frames of lab frames a..<b.
    static func fastestShown60(_ run: R6, _ a: Int, _ b: Int) -> Int64 {
        let shown = run.lab.frames[a..<min(b, run.lab.frames.count)].compactMap { $0.shownAt?.nanoseconds }
        guard shown.count > 61 else { return .max }
        var best = Int64.max
        for s in 0..<(shown.count - 60) { best = min(best, (shown[s + 60] - shown[s]) / 60) }
        return best
    }
}

@MainActor
struct Review8Tests {
    static let p60 = R8.p60

    // MARK: GPU time and latch deadlines, 2 buffers

    /// A steady GPU-bound game (4 ms of work, 20 ms of drawing after present, 1 ms latch, 60 Hz, 2
    /// buffers, log-normal delay): all targets right once learned, all drops booked.
    @Test(arguments: [Int64(20), 25, 30])
    func steadyGPUBound(gpu: Int64) {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(3)), frames: 1_000)
        config.jitter = .lognormal(median: .microseconds(300), percentile99: .milliseconds(1))
        config.work = { _ in 4_000_000 }
        let run = R8.run(config, gpu: .milliseconds(gpu), latch: .milliseconds(1))
        let v = R8.judge(run, 200, 990)
        print("R8 steadyGPUBound \(gpu): \(v)")
        #expect(v.base.booked == v.base.missed, "\(v)")
        #expect(v.base.targetOff.isEmpty, "\(v)")
        // (Open since review 7, `PacingReview7Tests.boundByItsGPUAndMoved`: a GPU-bound present
        // blocks longer than the chain explains, and no frame follows the vsync; so no target is
        // judged here, and the learned lateness is never used from the start.)
        withKnownIssue("GPU-bound from the start: no frame follows the vsync (open since review 7)") {
            #expect(v.base.followed * 10 >= v.base.judged * 9, "\(v)")
        }
    }

    /// A scene change: GPU time 5 ms, 20 ms from frame 400, 5 ms again from frame 800 (work 4 ms,
    /// 60 Hz, 2 buffers). How many targets are off right after each change, and elsewhere none.
    @Test func sceneChangeGPUTime() {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(3)), frames: 1_200)
        config.work = { _ in 4_000_000 }
        config.events = { index, run in
            if index == 400 { run.lab.gpuTime = .milliseconds(20) }
            if index == 800 { run.lab.gpuTime = .milliseconds(5) }
        }
        let run = R8.run(config, gpu: .milliseconds(5), latch: .microseconds(500))
        let into = R8.judge(run, 395, 460)
        let out = R8.judge(run, 795, 860)
        let rest = R8.judge(run, 150, 394)
        let mid = R8.judge(run, 461, 794)
        let end = R8.judge(run, 861, 1_190)
        print("R8 sceneChange into: \(into)\nout: \(out)\nrest \(rest)\nmid \(mid)\nend \(end)")
        // Each way the lateness is learned after 10 frames (a clear majority of the last 16): the
        // frames between are late (or early) unlike the frames before them, which the judges
        // excuse; at most 10 are off by the strict judge, none by the pipeline rule.
        #expect(into.base.targetOff.count <= 10, "\(into)")
        #expect(out.base.targetOff.count <= 10, "\(out)")
        #expect(into.targetOffNew.isEmpty && out.targetOffNew.isEmpty, "\(into) || \(out)")
        #expect(rest.base.targetOff.isEmpty && mid.base.targetOff.isEmpty && end.base.targetOff.isEmpty)
        let all = R8.judge(run, 150, 1_190)
        #expect(all.base.booked == all.base.missed, "\(all)")
    }

    /// A steady GPU-bound pipeline (4 ms work, 20 ms GPU, 60 Hz, 2 buffers) in which one frame in
    /// `every` draws light (3 ms): each light frame is shown on time, the others a period later.
    /// The least lateness of the last 16 is then 0 whenever a light frame is among them.
    @Test(arguments: [8, 12, 20])
    func gpuBoundWithOccasionalLightFrame(every: Int64) {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(3)), frames: 1_200)
        config.work = { _ in 4_000_000 }
        config.events = { index, run in
            run.lab.gpuTime = index % every == 0 ? .milliseconds(3) : .milliseconds(20)
        }
        let run = R8.run(config, gpu: .milliseconds(20), latch: .microseconds(500))
        let v = R8.judge(run, 200, 1_190)
        let heavyOff = v.base.targetOff.filter { $0.0 % every != every - 1 }.count
        print("R8 occasionalLight every \(every): \(v); heavy frames off \(heavyOff)")
        #expect(v.base.booked == v.base.missed, "\(v)")
        #expect(v.base.targetOff.count * 5 <= v.targetsJudged, "old rule: \(v)")
        #expect(v.targetOffNew.count * 5 <= v.targetsJudged, "pipeline rule: \(v)")
    }

    /// Work that varies (1–7 ms, the 650ceb9 case: 12 ms GPU) and variants at other GPU times, 60
    /// Hz, 2 buffers, 500 µs latch: frames miss by their own work about half the time.
    @Test(arguments: [(Int64(12), Int64(1), Int64(7)), (10, 2, 8), (14, 0, 4), (8, 2, 9)])
    func varyingWorkFixedGPU(gpu: Int64, low: Int64, high: Int64) {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(3)), seed: 9, frames: 1_200)
        var random = SplitMix64(seed: UInt64(gpu * 100 + low))
        config.work = { _ in low * 1_000_000 + Int64(random.next() % UInt64((high - low) * 1_000_000)) }
        let run = R8.run(config, gpu: .milliseconds(gpu), latch: .microseconds(500))
        let v = R8.judge(run, 200, 1_190)
        print("R8 varyingWork gpu \(gpu) work \(low)-\(high): \(v)")
        #expect(v.base.booked == v.base.missed, "\(v)")
        // (At most 2 off: the source weighs only presents that blocked, the judge every frame
        // shown, so their windows of 16 differ after a frame whose present returned at once.)
        #expect(v.targetOffNew.count <= 2, "\(v)")
    }

    /// The latch deadline alone: 60 Hz, 2 buffers, 4 ms latch, work 14 ms (past the latch every
    /// frame: shown a period after its call explains), then 10 ms from frame 600 (in time).
    @Test func latchDeadlineSteadyThenInTime() {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(3)), frames: 1_200)
        config.jitter = .uniform(upTo: .microseconds(200))
        config.work = { index in index < 600 ? 14_000_000 : 10_000_000 }
        let run = R8.run(config, latch: .milliseconds(4))
        let before = R8.judge(run, 200, 595)
        let after = R8.judge(run, 605, 1_190)
        print("R8 latch steady: \(before)\nafter: \(after)")
        #expect(before.base.booked == before.base.missed && after.base.booked == after.base.missed)
        #expect(before.base.targetOff.isEmpty, "\(before)")
        // (The first frames in time after the change are early unlike the frames before them: 3 by
        // the strict judge, none by the pipeline rule.)
        #expect(after.base.targetOff.count <= 9, "\(after)")
        #expect(after.targetOffNew.isEmpty, "\(after)")
    }

    // MARK: GPU time, 3 buffers

    /// 3 buffers, steady GPU time over a period (20 ms; 5 ms work; 60 Hz): the lab's GPU time is a
    /// latency (frames still shown every vsync), so no refresh is missed and every target is judged.
    /// At 30 ms frames alternate between one and two vsyncs (395 drops, booked): no lateness is
    /// the pipeline's, and the pipeline rule excuses the 791 targets a period early that the strict
    /// judge counts (a lateness learnt with 3 buffers, and patterns, are open).
    @Test(arguments: [(3, Int64(20)), (3, 10), (3, 30), (4, 20)])
    func deepChainGPULatency(buffers: Int, gpu: Int64) {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(3)), buffers: buffers, frames: 1_000)
        config.work = { _ in 5_000_000 }
        let run = R8.run(config, gpu: .milliseconds(gpu), latch: .microseconds(500))
        let v = R8.judge(run, 200, 990)
        print("R8 deepChainGPU \(buffers) buffers gpu \(gpu): \(v)")
        #expect(v.base.booked == v.base.missed, "\(v)")
        #expect(v.targetOffNew.isEmpty, "\(v)")
    }

    /// 3 buffers, a scene change of GPU time 5 → 20 → 5 ms with work 4–12 ms that varies.
    @Test func deepChainSceneChange() {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(3)), buffers: 3, frames: 1_200)
        var random = SplitMix64(seed: 31)
        config.work = { _ in 4_000_000 + Int64(random.next() % 8_000_000) }
        config.events = { index, run in
            if index == 400 { run.lab.gpuTime = .milliseconds(20) }
            if index == 800 { run.lab.gpuTime = .milliseconds(5) }
        }
        let run = R8.run(config, gpu: .milliseconds(5), latch: .microseconds(500))
        let v = R8.judge(run, 200, 1_190)
        print("R8 deepChainScene: \(v)\n \(run.departures(from: 200))")
        #expect(v.base.booked == v.base.missed, "\(v)")
        #expect(v.targetOffNew.isEmpty, "\(v)")
    }

    // MARK: A divisor with GPU time

    /// 30 Hz asked for on a 60 Hz display, 2 buffers, 5 ms work, 20 ms GPU time (over a period,
    /// under the divisor's 33 ms): frames shown every 2nd vsync, and targets there.
    @Test(arguments: [Int64(6), 10, 12, 20, 40])
    func divisorWithGPUTime(gpu: Int64) {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(3)), frames: 1_000)
        config.work = { _ in 5_000_000 }
        config.range = FrameRateRange(exactly: FrameRate(numerator: 30))
        let run = R8.run(config, gpu: .milliseconds(gpu), latch: .microseconds(500))
        let v = R8.judge(run, 200, 990)
        let intervals = R8.shownIntervals(run, 200, 990)
        print("R8 divisorGPU \(gpu): \(v); shown \(intervals) interval \(run.source.presentInterval)")
        #expect(v.base.booked == run.missedAtDivisor(200, 990, k: 2), "\(v)")
        #expect(v.targetOffNew.isEmpty, "\(v)")
        #expect(v.base.targetOff.isEmpty, "\(v)")
        // 5 ms of work and the GPU's time fit in the divisor's two periods: 30 frames a second.
        // (Open, older than review 8: the present is held until half a period before the 2nd
        // vsync, so GPU time and latch over half a period miss it: every 3rd vsync, 20 fps, none
        // booked by the divisor's rounding. Holding it less by the learned lateness, tried after
        // review 8, made the lateness hold itself once the GPU time fell (every target a period
        // late for good) and flip when the work bound the frame: review 9. Reverted.)
        if gpu + 5 < 33 {
            withKnownIssue("a divisor's hold ignores GPU time: 20 fps for 30 asked") {
                #expect(abs(intervals.mean - 2 * Double(Self.p60)) < 100_000, "shown every \(intervals.mean / 1e6) ms")
            } when: {
                gpu >= 10
            }
        }
    }

    // MARK: Variable refresh

    static let vrr = FrameRate(numerator: 48)...FrameRate.hz144

    static func vrrRefresh(_ range: ClosedRange<FrameRate> = vrr) -> DisplayLab.Refresh {
        .variable(minimum: range.lowerBound, maximum: range.upperBound)
    }

    /// A VRR display (48–144 Hz), the window hidden from frame 3 to 200 (present waits 50 ms for
    /// frame callbacks; host told or not), 5 ms frames: afterwards frames come no faster than 144
    /// Hz, drops are the truth's, no more refreshes missed than with no hide.
    @Test(arguments: [(2, false), (3, false), (2, true), (3, true)])
    func vrrHiddenBeforeFirstFit(buffers: Int, told: Bool) {
        var config = R6.Config(refresh: Self.vrrRefresh(), buffers: buffers, frames: 900)
        config.work = { _ in 5_000_000 }
        config.events = { index, run in
            if index == 1 { run.lab.hiddenPresent = .waitsForFrameCallbacks(timeout: .milliseconds(50)) }
            if index == 3 {
                run.lab.isHidden = true
                if told { run.source.isWindowHidden = true }
            }
            if index == 200 {
                run.lab.isHidden = false
                if told { run.source.isWindowHidden = false }
            }
        }
        let run = R8.run(config)
        let v = R8.judge(run, 400, 890, fixed: false)
        let fastest = R8.fastestShown60(run, 400, 890)
        let intervals = R8.shownIntervals(run, 400, 890)
        print(
            "R8 vrrHidden \(buffers) told \(told): \(v); shown \(intervals) fastest60 \(fastest); \(run.source.pacingState)"
        )
        #expect(v.base.booked == v.base.missed, "\(v)")
        #expect(fastest >= FrameRate.hz144.periodNanoseconds - 25_000)
        #expect(v.base.targetOff.isEmpty, "\(v)")
        // 5 ms of work on a display that can refresh every 6.94 ms: no frame should wait long.
        #expect(intervals.mean < 8_000_000, "\(intervals)")
    }

    /// A move between a fixed 60 Hz display and a 48–144 Hz VRR one at frame 400 and back at 800
    /// (host told both times), 2 or 3 buffers, 5 ms of work.
    @Test(arguments: [2, 3])
    func fixedToVRRAndBack(buffers: Int) {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(2)), buffers: buffers, frames: 1_300)
        config.work = { _ in 5_000_000 }
        config.events = { index, run in
            if index == 400 {
                run.lab.changeRefresh(to: Self.vrrRefresh())
                run.source.variableRefreshRange = Self.vrr
                run.source.displayRefreshRate = .hz144
            }
            if index == 800 {
                run.lab.changeRefresh(to: .fixed(.hz60), blankingFor: .milliseconds(60))
                run.source.variableRefreshRange = nil
                run.source.displayRefreshRate = .hz60
            }
        }
        let run = R8.run(config)
        let vrr = R8.judge(run, 500, 795, fixed: false)
        let back = R8.judge(run, 950, 1_290)
        let vrrFastest = R8.fastestShown60(run, 500, 795)
        print("R8 fixedToVRR \(buffers): vrr \(vrr) fastest \(vrrFastest)\nback \(back) \(run.source.pacingState)")
        #expect(vrr.base.booked == vrr.base.missed, "\(vrr)")
        #expect(vrr.base.targetOff.isEmpty, "\(vrr)")
        #expect(vrrFastest >= FrameRate.hz144.periodNanoseconds - 25_000)
        #expect(back.base.booked == back.base.missed, "\(back)")
        #expect(back.base.tsOff.isEmpty && back.base.targetOff.isEmpty, "\(back)")
        #expect(back.base.followed * 10 >= back.base.judged * 9, "\(back)")
    }

    /// A cap on a VRR display (48–144 Hz), with or without a requested range, varied work 40–95 %
    /// of the cap's period: never faster than the cap, shown evenly when the cap is in the range,
    /// drops the truth's.
    @Test(arguments: [
        (Int64(60), Int64?.none), (60, 100), (60, 30), (50, 144), (48, nil), (45, nil), (45, 100), (140, nil),
        (144, 200),
    ])
    func vrrCap(cap: Int64, range: Int64?) {
        let capRate = FrameRate(numerator: cap)
        var config = R6.Config(refresh: Self.vrrRefresh(), frames: 900, cap: capRate)
        config.jitter = .none
        var random = SplitMix64(seed: UInt64(cap))
        let period = capRate.periodNanoseconds
        config.work = { _ in period * 4 / 10 + Int64(random.next() % UInt64(period * 55 / 100)) }
        if let range { config.range = FrameRateRange(exactly: FrameRate(numerator: range)) }
        let run = R8.run(config)
        let v = R8.judge(run, 200, 890, fixed: false)
        let fastest = R8.fastestShown60(run, 200, 890)
        let intervals = R8.shownIntervals(run, 200, 890)
        let expected = min(cap, range ?? cap)
        let expectedPeriod = FrameRate(numerator: expected).periodNanoseconds
        print(
            "R8 vrrCap \(cap) range \(String(describing: range)): \(v); shown \(intervals) fastest60 \(fastest) "
                + "(expected period \(expectedPeriod)); \(run.source.pacingState)")
        #expect(fastest >= expectedPeriod - 25_000, "fastest \(fastest) vs \(expectedPeriod)")
        // Shown at the rate asked for (a rate below the display's minimum is shown evenly too, each
        // frame repeated as the game asked: those repeats are no drops, by the source's own rule).
        // (Open, older than review 5: a cap at or just above the display's minimum paces each
        // present as the slowest refresh runs out; the display shows the old frame again first and
        // the new one a fastest period later: 27.78 ms apart at 48 and 45 Hz, none booked at 45.
        // The expectation is questioned: this lab's display has no low-framerate compensation, so
        // a frame 22.2 ms after the last (45 Hz) comes after its own refresh at 20.8 ms and waits a
        // fastest period, and 27.78 ms is the soonest it can be shown; no pacer shows 45 Hz evenly
        // there. At 48 Hz exactly each present races the slowest refresh.)
        withKnownIssue("a VRR cap at or near the display's minimum: shown 27.78 ms apart") {
            #expect(abs(intervals.mean - Double(expectedPeriod)) < 100_000, "shown every \(intervals.mean / 1e6) ms")
            let own = _VariableRefreshModel.ownRefreshesOnTime(pacedPeriod: expectedPeriod, refresh: Self.vrr)
            #expect(v.base.booked == v.base.missed - own * intervals.count - (own > 0 ? own : 0), "\(v)")
        } when: {
            cap <= 48
        }
        #expect(v.base.targetOff.isEmpty, "\(v)")
    }

    /// The cap changed mid-run on a VRR display (48–144 Hz): 60 → 100 at frame 400, → 50 at 800
    /// (as a game's options menu would), with a requested range of 120 Hz.
    @Test(arguments: [false, true])
    func vrrCapChangedMidRun(withRange: Bool) {
        var config = R6.Config(refresh: Self.vrrRefresh(), frames: 1_200, cap: .hz60)
        config.jitter = .none
        config.work = { _ in 4_000_000 }
        if withRange { config.range = FrameRateRange(exactly: FrameRate(numerator: 120)) }
        config.events = { index, run in
            if index == 400 { run.source.displayRefreshRate = FrameRate(numerator: 100) }
            if index == 800 { run.source.displayRefreshRate = FrameRate(numerator: 50) }
        }
        let run = R8.run(config)
        let a = R8.fastestShown60(run, 100, 395)
        let b = R8.fastestShown60(run, 500, 795)
        let c = R8.fastestShown60(run, 900, 1_190)
        let mb = R8.shownIntervals(run, 500, 795)
        let mc = R8.shownIntervals(run, 900, 1_190)
        let v = R8.judge(run, 100, 1_190, fixed: false)
        print(
            "R8 vrrCapChanged range \(withRange): fastest \(a) \(b) \(c); mean b \(mb) c \(mc); \(v); \(run.source.pacingState)"
        )
        #expect(a >= Self.p60 - 25_000)
        #expect(b >= FrameRate(numerator: 100).periodNanoseconds - 25_000)
        #expect(c >= FrameRate(numerator: 50).periodNanoseconds - 25_000)
        #expect(mb.mean < Double(FrameRate(numerator: 100).periodNanoseconds) * 1.02, "\(mb)")
        #expect(v.base.booked == v.base.missed, "\(v)")
    }

    /// VRR (48–144 Hz) with 3 buffers and no range, frames whose work varies 3–12 ms: drops are the
    /// truth's, targets where frames are shown, never faster than 144 Hz.
    @Test(arguments: [2, 3])
    func vrrVaryingWork(buffers: Int) {
        var config = R6.Config(refresh: Self.vrrRefresh(), buffers: buffers, frames: 1_200)
        var random = SplitMix64(seed: 41)
        config.work = { _ in 3_000_000 + Int64(random.next() % 9_000_000) }
        let run = R8.run(config)
        let v = R8.judge(run, 200, 1_190, fixed: false)
        let fastest = R8.fastestShown60(run, 200, 1_190)
        print("R8 vrrVarying \(buffers): \(v) fastest \(fastest) \(run.source.pacingState)")
        #expect(v.base.booked == v.base.missed, "\(v)")
        #expect(v.base.targetOff.isEmpty, "\(v)")
        #expect(fastest >= FrameRate.hz144.periodNanoseconds - 25_000)
    }

    /// VRR with a GPU time (48–144 Hz, 4 ms work, 10 ms GPU): frames shown when ready.
    @Test(arguments: [(2, Int64(10)), (3, 10), (2, 3), (2, 6), (2, 15), (2, 25)])
    func vrrGPUTime(buffers: Int, gpu: Int64) {
        var config = R6.Config(refresh: Self.vrrRefresh(), buffers: buffers, frames: 1_000)
        config.work = { _ in 4_000_000 }
        let run = R8.run(config, gpu: .milliseconds(gpu))
        let v = R8.judge(run, 200, 990, fixed: false)
        let intervals = R8.shownIntervals(run, 200, 990)
        print("R8 vrrGPU \(buffers) gpu \(gpu): \(v) shown \(intervals) \(run.source.pacingState)")
        // (b24d1f2 left these measuring with the fastest rate's deadline grid counting every
        // 14 ms interval a drop: 790 booked where the display missed none at 10 ms, 1,580 at
        // 15 ms. Fixed: while measuring, a VRR display's drops are its own refreshes.)
        #expect(v.base.booked == v.base.missed, "\(v)")
        // (Open, older than review 8: frames about the fastest period, shown when the GPU is done,
        // are taken to follow a grid fitted to their own returns; targets 0.1-0.4 ms off.)
        withKnownIssue("VRR frames about the fastest period claim a grid they do not keep") {
            #expect(v.base.targetOff.isEmpty, "\(v)")
        } when: {
            (buffers == 3 && gpu == 10) || (buffers == 2 && gpu == 3)
        }
    }

    // MARK: Other

    /// A refresh-rate change with a blank gap while the GPU draws 20 ms per frame (2 buffers):
    /// 60 → 144 Hz at frame 400 with a 300 ms blank.
    @Test func modesetWhileGPUBound() {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(2)), frames: 1_400)
        config.work = { _ in 4_000_000 }
        config.events = { index, run in
            if index == 400 {
                run.lab.changeRefresh(to: .fixed(.hz144), blankingFor: .milliseconds(300))
                run.source.displayRefreshRate = .hz144
            }
        }
        let run = R8.run(config, gpu: .milliseconds(20), latch: .microseconds(500))
        let before = R8.judge(run, 200, 395)
        let after = R8.judge(run, 800, 1_390)
        print("R8 modesetGPU: before \(before)\nafter \(after) \(run.source.pacingState)")
        #expect(before.base.booked == before.base.missed && after.base.booked == after.base.missed)
        #expect(before.base.targetOff.isEmpty, "\(before)")
    }

    /// 59.94 Hz with a 1 ms latch and 9–15 ms work (some frames past the latch), 2 buffers.
    @Test func ntscLatchVaryingWork() {
        var config = R6.Config(
            refresh: .fixed(FrameRate(numerator: 60_000, denominator: 1_001), phase: .milliseconds(5)), frames: 1_500)
        config.jitter = .lognormal(median: .microseconds(250), percentile99: .milliseconds(1))
        var random = SplitMix64(seed: 51)
        config.work = { _ in 9_000_000 + Int64(random.next() % 6_500_000) }
        let run = R8.run(config, latch: .milliseconds(1))
        let v = R8.judge(run, 200, 1_490)
        print("R8 ntscLatch: \(v)")
        #expect(v.base.booked == v.base.missed, "\(v)")
        #expect(v.base.tsOff.isEmpty, "\(v)")
        #expect(v.targetOffNew.isEmpty, "\(v)")
    }
}

extension R8 {
    /// Prints loop frames a...b with the lab's truth (debugging).
    static func dump(_ run: R6, _ a: Int64, _ b: Int64) {
        for f in run.frames where f.index >= a && f.index <= b {
            guard Int(f.index) < run.lab.frames.count else { continue }
            let lf = run.lab.frames[Int(f.index)]
            let ms = { (x: Int64) in String(format: "%.3f", Double(x) / 1e6) }
            let shown = lf.shownAt.map { ms($0.nanoseconds) } ?? "-"
            print(
                "R8DUMP \(f.index): ts \(ms(f.timestamp)) target \(ms(f.target)) pres \(ms(lf.presentedAt.nanoseconds)) "
                    + "ready \(ms(lf.readyAt.nanoseconds)) ret \(ms(lf.returnedAt.nanoseconds)) shown \(shown) "
                    + "missed \(lf.missedRefreshes) booked \(f.dropped) follows \(f.follows) \(f.state)")
        }
    }
}

extension Review8Tests {
    /// The judges' rule against a pacer that learns no lateness: the 60 Hz, 2-buffer game of
    /// `PacingReview6Tests.boundByItsGPUMidGame` (4 ms work, 20 ms GPU from frame 600). Frames
    /// 700–1,490. 650ceb9's rule (ready after the target's latch and a refresh missed: excused)
    /// would have excused a target a period early on every frame (791 of 791), so a pacer that
    /// learnt no lateness passed; the pipeline rule (`DisplayLab.pipelineLateness(beforeFrame:)`)
    /// judges every frame shown as late as the frames before it.
    @Test func newJudgeRuleOnGPUBoundMidGame() {
        let run = PacingReview6Tests.boundByItsGPU(from: 600, frames: 1_500)
        let v = R8.judge(run, 700, 1_490)
        print("R8 newJudgeRuleOnGPUBoundMidGame: \(v)")
        #expect(v.base.targetOff.isEmpty, "\(v)")
        var likeThePipeline = 0
        for f in run.frames where f.index >= 700 && f.index <= 1_490 && f.follows {
            let index = Int(f.index)
            if let pipeline = run.lab.pipelineLateness(beforeFrame: index), pipeline == 1,
                run.lab.refreshesLate(frame: index) == pipeline
            {
                likeThePipeline += 1
            }
        }
        print(
            "R8 newJudgeRuleOnGPUBoundMidGame: judged like a pipeline one refresh late: \(likeThePipeline) of \(v.targetsJudged)"
        )
        #expect(likeThePipeline * 10 >= v.targetsJudged * 9)
    }
}

extension DisplayLab {
    /// The display's period at `time`: the interval between the two refreshes before it (a judge on
    /// any display, not only 60 Hz: review 9 found R8's judge subtracting 60 Hz's period on 144).
    func periodBefore(_ time: Int64) -> Int64 {
        let times = refreshTimes
        var low = 0
        var high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle].nanoseconds <= time { low = middle + 1 } else { high = middle }
        }
        guard low >= 2 else { return FrameRate.hz60.periodNanoseconds }
        return times[low - 1].nanoseconds - times[low - 2].nanoseconds
    }
}
