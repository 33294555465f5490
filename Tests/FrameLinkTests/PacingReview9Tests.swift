import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// Review 9 (of 432b54c and f79a72f, by an independent reviewer with scenarios of its own), judged
/// against the display lab's truth with the review-6 harness (`R6`) and a judge of its own (`R9`)
/// that applies the judges' pipeline rule with the display's true period (R8's used 60 Hz's; it
/// takes the display's now). Its defects were fixed by reverting the divisor's shortened hold, a
/// clear majority for the learned lateness, and stalls placed by their call only where a chain
/// queues frames; what stays open is `withKnownIssue`, with figures.
@MainActor
enum R9 {
    /// What the source had learned, per loop frame (read at the frame's start).
    final class Probe {
        var lateness: [Int64: Int64] = [:]
        var interval: [Int64: Int] = [:]
    }

    /// A run of `config` with a GPU time and latch deadline from the first frame; the learned
    /// lateness and present interval are noted per frame.
    static func run(
        _ config: R6.Config, gpu: Duration = .zero, latch: Duration = .zero,
        setup: @MainActor (R6) -> Void = { _ in }
    ) -> (R6, Probe) {
        let probe = Probe()
        var config = config
        let inner = config.events
        config.events = { index, run in
            probe.lateness[index] = run.source.pacer.tracker.swapChain.lateness.vsyncs
            probe.interval[index] = run.source.pacer.presentInterval
            inner(index, run)
        }
        let run = R6(config, run: false)
        run.lab.gpuTime = gpu
        run.lab.latchDeadline = latch
        setup(run)
        run.loop.run(frames: config.frames)
        return (run, probe)
    }

    struct Verdict: CustomStringConvertible {
        var base: R6.Verdict
        var targetsJudged = 0
        var targetOffNew: [(Int64, Int64)] = []
        var excused: [(Int64, Int64)] = []
        /// Frames whose pipeline lateness is a tie (`nil`): no target judged at all.
        var ties = 0
        /// Frames the pipeline rule judges (off or not).
        var judgedByRule = 0
        var description: String {
            "\(base); targets judged (old rule) \(targetsJudged), off under the pipeline rule \(targetOffNew.count) "
                + "\(targetOffNew.prefix(4).map { "\($0.0):\(Double($0.1) / 1e6)" }), excused \(excused.count) "
                + "\(excused.prefix(4).map { "\($0.0):\(Double($0.1) / 1e6)" }), ties \(ties), judged by the rule \(judgedByRule)"
        }
    }

    /// As `R8.judge`, but the pipeline's lateness is in the display's own period.
    static func judge(_ run: R6, _ a: Int64, _ b: Int64, fixed: Bool = true, period fixedPeriod: Int64? = nil)
        -> Verdict
    {
        var v = Verdict(base: run.judge(a, b, fixed: fixed))
        for f in run.frames where f.index >= a && f.index <= b && f.follows {
            guard Int(f.index) < run.lab.frames.count else { continue }
            let lf = run.lab.frames[Int(f.index)]
            guard let shown = lf.shownAt, lf.presentedAt.nanoseconds < f.target - 100_000 else { continue }
            v.targetsJudged += 1
            let index = Int(f.index)
            if run.lab.pipelineLateness(beforeFrame: index) == nil { v.ties += 1 }
            let d = shown.nanoseconds - f.target
            let nearest = f.target + (run.nearestDistance(f.target) <= 100_000 ? R8.nearestOffset(run, f.target) : 0)
            let period = fixedPeriod ?? run.truePeriod(at: f.target)
            let judged = R8.pipelineJudges(run, index: index, nearest: nearest, period: period)
            if judged { v.judgedByRule += 1 }
            guard abs(d) > 100_000 else { continue }
            if judged {
                v.targetOffNew.append((f.index, d))
            } else {
                v.excused.append((f.index, d))
            }
        }
        return v
    }

    /// The shown intervals, in refreshes, of lab frames a..<b (frames with a refresh number).
    static func refreshIntervals(_ run: R6, _ a: Int, _ b: Int) -> [(frame: Int, refreshes: Int64)] {
        var out: [(Int, Int64)] = []
        var last: Int64?
        for i in a..<min(b, run.lab.frames.count) {
            guard let r = run.lab.frames[i].refresh else {
                last = nil
                continue
            }
            if let last { out.append((i, r - last)) }
            last = r
        }
        return out
    }

    static func histogram(_ xs: [(frame: Int, refreshes: Int64)]) -> [Int64: Int] {
        var h: [Int64: Int] = [:]
        for x in xs { h[x.refreshes, default: 0] += 1 }
        return h
    }

    /// Runs of the learned lateness: (first frame, value) at each change in a...b.
    static func latenessChanges(_ probe: Probe, _ a: Int64, _ b: Int64) -> [(Int64, Int64)] {
        var out: [(Int64, Int64)] = []
        var last: Int64?
        for i in a...b {
            guard let l = probe.lateness[i] else { continue }
            if l != last { out.append((i, l)) }
            last = l
        }
        return out
    }

    static let vrrRefresh = DisplayLab.Refresh.variable(minimum: FrameRate(numerator: 48), maximum: .hz144)

    static func ms(_ x: Int64) -> String { String(format: "%.3f", Double(x) / 1e6) }

    static func dump(_ run: R6, _ probe: Probe, _ a: Int64, _ b: Int64) {
        for f in run.frames where f.index >= a && f.index <= b {
            guard Int(f.index) < run.lab.frames.count else { continue }
            let lf = run.lab.frames[Int(f.index)]
            let shown = lf.shownAt.map { ms($0.nanoseconds) } ?? "-"
            print(
                "R9DUMP \(f.index): ts \(ms(f.timestamp)) target \(ms(f.target)) pres \(ms(lf.presentedAt.nanoseconds)) "
                    + "ready \(ms(lf.readyAt.nanoseconds)) ret \(ms(lf.returnedAt.nanoseconds)) shown \(shown) "
                    + "refresh \(lf.refresh ?? -1) missed \(lf.missedRefreshes) late \(run.lab.refreshesLate(frame: Int(f.index)) ?? -1) "
                    + "pipe \(run.lab.pipelineLateness(beforeFrame: Int(f.index)) ?? -1) learned \(probe.lateness[f.index] ?? -1) "
                    + "k \(probe.interval[f.index] ?? -1) booked \(f.dropped) follows \(f.follows) \(f.mode) \(f.state.reason)"
            )
        }
    }
}

@MainActor
struct Review9Tests {
    static let p60 = FrameRate.hz60.periodNanoseconds

    // MARK: A divisor's shortened hold

    /// A divisor with GPU time that falls: heavy GPU time (a lateness is learned, the hold
    /// shortened), then light from frame 800. Work 4 ms, 2 buffers, 500 µs latch.
    @Test(arguments: [
        (Int64(60), Int64(30), Int64(14), Int64(3)),
        (144, 48, 12, 2),
        (120, 40, 14, 2),
        (60, 20, 24, 3),
    ])
    func divisorGPUTimeFalls(display: Int64, requested: Int64, heavy: Int64, light: Int64) {
        let rate = FrameRate(numerator: display)
        let k = Int(display / requested)
        var config = R6.Config(refresh: .fixed(rate, phase: .milliseconds(3)), frames: 1_200)
        config.work = { _ in 4_000_000 }
        config.range = FrameRateRange(exactly: FrameRate(numerator: requested))
        config.events = { index, run in
            if index == 400 { run.lab.gpuTime = .milliseconds(heavy) }
            if index == 800 { run.lab.gpuTime = .milliseconds(light) }
        }
        let (run, probe) = R9.run(config, gpu: .milliseconds(light), latch: .microseconds(500))
        let heavyIntervals = R9.refreshIntervals(run, 500, 795)
        let after = R9.refreshIntervals(run, 800, 1_190)
        let fast = after.filter { $0.refreshes < Int64(k) }
        let v = R9.judge(run, 800, 1_190)
        let all = R9.judge(run, 200, 1_190)
        let truth = run.missedAtDivisor(200, 1_190, k: k)
        print(
            "R9 divisorGPUTimeFalls \(requested) on \(display) gpu \(heavy)→\(light): heavy shown \(R9.histogram(heavyIntervals)) "
                + "after \(R9.histogram(after)); faster than asked \(fast.count) at \(fast.prefix(12).map(\.frame)); "
                + "lateness \(R9.latenessChanges(probe, 200, 1_190)); after \(v); all booked \(all.base.booked) truth \(truth)"
        )
        if !fast.isEmpty { R9.dump(run, probe, Int64(fast[0].frame) - 3, Int64(fast[0].frame) + 12) }
        if display == 60 && requested == 30 {
            R9.dump(run, probe, 396, 412)
            R9.dump(run, probe, 796, 812)
        }
        // Never more frames than asked for: no interval shorter than the divisor's.
        #expect(fast.isEmpty, "\(fast.count) frames shown after fewer than \(k) refreshes")
        #expect(all.base.booked == truth, "\(all)")
        // (With f79a72f's shortened hold the learned lateness was never forgotten: every target after
        // frame 800 a period late (30 on 60), at 2e8b54a 8. The hold is the full one again; the
        // lateness is relearned in 10 frames.)
        #expect(v.base.targetOff.count <= 10, "\(v)")
        #expect(v.targetOffNew.isEmpty, "\(v)")
        // (Open, older than review 8: with the full hold, GPU time over half a period misses the
        // k-th vsync in the heavy phase.)
        withKnownIssue("a divisor's hold ignores GPU time") {
            #expect(R9.histogram(heavyIntervals)[Int64(k)] ?? 0 >= heavyIntervals.count * 9 / 10)
        }
    }

    /// A divisor bound by its own work: 30 Hz on 60 Hz with 20 ms of work and 10 ms of GPU time
    /// (30 ms a frame: 30 Hz fits). The full hold calls the present after the 2nd vsync's half
    /// period (shown on the 3rd: late 1); the shortened hold is no hold (work-bound: called after
    /// the 1st vsync, shown on the 2nd: late 0).
    @Test(arguments: [
        (Int64(60), Int64(30), Int64(20), Int64(10)),
        (60, 30, 22, 9),
        (144, 48, 12, 7),
        (60, 20, 36, 12),
    ])
    func divisorWorkBound(display: Int64, requested: Int64, work: Int64, gpu: Int64) {
        let rate = FrameRate(numerator: display)
        let k = Int(display / requested)
        var config = R6.Config(refresh: .fixed(rate, phase: .milliseconds(3)), frames: 1_000)
        config.work = { _ in work * 1_000_000 }
        config.range = FrameRateRange(exactly: FrameRate(numerator: requested))
        let (run, probe) = R9.run(config, gpu: .milliseconds(gpu), latch: .microseconds(500))
        let intervals = R9.refreshIntervals(run, 200, 990)
        let v = R9.judge(run, 200, 990)
        let changes = R9.latenessChanges(probe, 200, 990)
        print(
            "R9 divisorWorkBound \(requested) on \(display) work \(work) gpu \(gpu): shown \(R9.histogram(intervals)); "
                + "lateness changes \(changes.count) \(changes.prefix(10)); \(v); truth \(run.missedAtDivisor(200, 990, k: k))"
        )
        R9.dump(run, probe, 300, 330)
        #expect(v.base.booked == run.missedAtDivisor(200, 990, k: k), "\(v)")
        // The frame fits k periods: shown every k refreshes. (At 2e8b54a every frame was shown
        // every k + 1, 20 fps for 30; now about half are.)
        // (Open, as at 2e8b54a: the full hold puts a work-bound frame past the k-th vsync.)
        withKnownIssue("a work-bound divisor: not every frame on the k-th vsync") {
            #expect(R9.histogram(intervals)[Int64(k)] ?? 0 >= intervals.count * 9 / 10, "\(R9.histogram(intervals))")
        }
        #expect(intervals.allSatisfy { $0.refreshes >= Int64(k) })
        // (New with f79a72f: the shortened hold changes the lateness it was shortened by.)
        #expect(changes.count <= 2, "the learned lateness flips: \(changes.prefix(12))")
        #expect(v.base.targetOff.isEmpty, "\(v)")
    }

    /// A divisor (30 on 60) with 10 ms of GPU time and work that varies 2–18 ms, 2 buffers.
    @Test(arguments: [Int64(10), 6, 14])
    func divisorVaryingWork(gpu: Int64) {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(3)), seed: 5, frames: 1_200)
        var random = SplitMix64(seed: 77 + UInt64(gpu))
        config.work = { _ in 2_000_000 + Int64(random.next() % 16_000_000) }
        config.range = FrameRateRange(exactly: FrameRate(numerator: 30))
        let (run, probe) = R9.run(config, gpu: .milliseconds(gpu), latch: .microseconds(500))
        let intervals = R9.refreshIntervals(run, 200, 1_190)
        let fast = intervals.filter { $0.refreshes < 2 }
        let v = R9.judge(run, 200, 1_190)
        let changes = R9.latenessChanges(probe, 200, 1_190)
        print(
            "R9 divisorVaryingWork gpu \(gpu): shown \(R9.histogram(intervals)); fast \(fast.count) \(fast.prefix(8).map(\.frame)); "
                + "lateness changes \(changes.count); \(v); truth \(run.missedAtDivisor(200, 1_190, k: 2))")
        if !fast.isEmpty { R9.dump(run, probe, Int64(fast[0].frame) - 4, Int64(fast[0].frame) + 4) }
        #expect(fast.isEmpty)
        #expect(v.base.booked == run.missedAtDivisor(200, 1_190, k: 2), "\(v)")
        #expect(v.targetOffNew.isEmpty, "\(v)")
    }

    /// A divisor (30 Hz on 60, 2 buffers, 4 ms work, 3 ms GPU time) with a burst of heavy GPU
    /// time (14 ms) for `burst` frames from frame 300 (a loading screen, an explosion), and a hidden
    /// window (host told) from 700 to 720: once the burst is long enough for a lateness to be
    /// learned, is it ever forgotten?
    @Test(arguments: [(Int64(8), false), (12, false), (40, false), (12, true)])
    func divisorGPUBurstLeavesLateness(burst: Int64, feedback: Bool) {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(3)), feedback: feedback, frames: 1_000)
        config.work = { _ in 4_000_000 }
        config.range = FrameRateRange(exactly: FrameRate(numerator: 30))
        config.events = { index, run in
            if index == 300 { run.lab.gpuTime = .milliseconds(14) }
            if index == 300 + burst { run.lab.gpuTime = .milliseconds(3) }
            if index == 700 {
                run.lab.isHidden = true
                run.source.isWindowHidden = true
            }
            if index == 720 {
                run.lab.isHidden = false
                run.source.isWindowHidden = false
            }
        }
        let (run, probe) = R9.run(config, gpu: .milliseconds(3), latch: .microseconds(500))
        let before = R9.judge(run, 150, 299)
        let first = R9.judge(run, 300, 699).base.targetOff.first { $0.0 >= 300 + burst }
        print(
            "R9 divisorGPUBurst \(burst) feedback \(feedback): first off after the burst \(String(describing: first))")
        let after = R9.judge(run, 300 + burst + 20, 699)
        let unhidden = R9.judge(run, 760, 990)
        print(
            "R9 divisorGPUBurst \(burst): lateness \(R9.latenessChanges(probe, 150, 990)); before \(before)\nafter \(after)\n"
                + "unhidden \(unhidden); shown after \(R9.histogram(R9.refreshIntervals(run, 300 + Int(burst) + 20, 699)))"
        )
        #expect(before.base.targetOff.isEmpty, "\(before)")
        #expect(after.base.targetOff.isEmpty, "\(after)")
        #expect(unhidden.base.targetOff.isEmpty, "\(unhidden)")
    }

    // MARK: The most common lateness

    /// GPU time in a repeating pattern (60 Hz, 2 buffers, 4 ms work, 500 µs latch): each frame's
    /// lateness follows the pattern, so the pipeline's is the pattern's most common (or a tie).
    @Test(arguments: [[Int64(5), 20], [5, 5, 20], [20, 20, 5], [5, 20, 20, 20], [5, 5, 5, 20, 20, 20]])
    func latenessPattern(pattern: [Int64]) {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(3)), frames: 1_000)
        config.work = { _ in 4_000_000 }
        config.events = { index, run in
            run.lab.gpuTime = .milliseconds(pattern[Int(index) % pattern.count])
        }
        let (run, probe) = R9.run(config, gpu: .milliseconds(pattern[0]), latch: .microseconds(500))
        let v = R9.judge(run, 200, 990)
        print(
            "R9 latenessPattern \(pattern): \(v); lateness changes \(R9.latenessChanges(probe, 200, 990).count) "
                + "\(R9.latenessChanges(probe, 200, 990).prefix(6)); \(run.source.pacingState)")
        #expect(v.base.booked == v.base.missed, "\(v)")
        #expect(v.targetOffNew.isEmpty, "\(v)")
        #expect(v.base.followed * 10 >= v.base.judged * 9, "\(v)")
        // No worse than a lateness kept fixed (either gets at least half the targets right).
        #expect(v.base.targetOff.count * 2 <= v.targetsJudged + 20, "\(v)")
    }

    /// A GPU-bound game (60 Hz, 2 buffers, 4 ms work, 20 ms GPU) through a hitch (frame 400, 70 ms
    /// of work), a hidden window (frames 500–560, presents return at once; host told), and a move to
    /// a 144 Hz display (frame 800, host told).
    @Test func gpuBoundThroughHitchHideAndMove() {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(3)), frames: 1_300)
        config.work = { index in index == 400 ? 70_000_000 : 4_000_000 }
        config.events = { index, run in
            if index == 300 { run.lab.gpuTime = .milliseconds(20) }
            if index == 500 {
                run.lab.isHidden = true
                run.source.isWindowHidden = true
            }
            if index == 560 {
                run.lab.isHidden = false
                run.source.isWindowHidden = false
            }
            if index == 800 {
                run.lab.changeRefresh(to: .fixed(.hz144))
                run.source.displayRefreshRate = .hz144
            }
        }
        let (run, probe) = R9.run(config, gpu: .milliseconds(5), latch: .microseconds(500))
        let hitch = R9.judge(run, 390, 440)
        let hide = R9.judge(run, 561, 620)
        let mid = R9.judge(run, 621, 795)
        let move = R9.judge(run, 800, 860)
        let end = R9.judge(run, 900, 1_290)
        print(
            "R9 gpuBoundEvents hitch \(hitch)\nhide \(hide)\nmid \(mid)\nmove \(move)\nend \(end)\n"
                + "lateness \(R9.latenessChanges(probe, 200, 1_290)) \(run.source.pacingState)")
        R9.dump(run, probe, 556, 580)
        for v in [hitch, hide, mid, end] {
            #expect(v.base.booked == v.base.missed, "\(v)")
            #expect(v.targetOffNew.isEmpty, "\(v)")
        }
        // (Also at 2e8b54a: after the hidden window a GPU-bound game never follows the vsync again
        // (0 of 175, then 0 of 391 after the move), and the move books 159 of 179 missed.)
        withKnownIssue(
            "GPU-bound after a hidden window: off the vsync for good; the move under-booked (also at 2e8b54a)"
        ) {
            #expect(move.base.booked == move.base.missed, "\(move)")
            #expect(mid.base.followed * 10 >= mid.base.judged * 9, "\(mid)")
            #expect(end.base.followed * 10 >= end.base.judged * 9, "\(end)")
        }
    }

    // MARK: Stalls

    /// Compositor stalls (a blocked present returns `stall` late, 1 in 300) of lengths not whole
    /// periods, or landing just after a vsync (whole periods plus 150 µs: within the usual delays),
    /// with 2–4 buffers, with and without a 30 Hz divisor. 60 Hz, 5 ms work.
    @Test(arguments: [
        (2, 2_500, 0), (3, 2_500, 0), (4, 2_500, 0),
        (2, 3_300, 0), (3, 3_300, 0), (4, 3_700, 0),
        (2, 3_009, 0), (3, 3_009, 0), (4, 4_009, 0),
        (2, 3_300, 30), (2, 2_500, 30), (2, 4_009, 30), (4, 3_300, 30),
    ])
    func stallShapes(buffers: Int, stallMilliperiods: Int64, requested: Int64) {
        let stall = stallMilliperiods * Self.p60 / 1_000
        var delays: [Duration] = []
        for index in 0..<300 {
            delays.append(index == 150 ? .nanoseconds(stall) : .microseconds(100 + Int64(index % 7) * 50))
        }
        var config = R6.Config(
            refresh: .fixed(.hz60, phase: .microseconds(4_400)), buffers: buffers, jitter: .sampled(delays), seed: 1,
            frames: 1_500)
        if requested > 0 { config.range = FrameRateRange(exactly: FrameRate(numerator: requested)) }
        let k = requested > 0 ? Int(60 / requested) : 1
        let (run, probe) = R9.run(config)
        let lab = run.lab
        let threshold = Int64(2 * k + 1) * Self.p60 / 2
        let stalls = lab.frames.indices.filter {
            $0 > 150 && $0 < 1_450
                && lab.frames[$0].returnedAt.nanoseconds - lab.frames[$0].presentedAt.nanoseconds > threshold
        }
        var wrong: [String] = []
        for s in stalls {
            let booked = run.booked(Int64(s - 2), Int64(s + 20))
            let real =
                k == 1
                ? run.missed(Int64(s - 2), Int64(s + 20)) : run.missedAtDivisor(Int64(s - 2), Int64(s + 20), k: k)
            if booked != real { wrong.append("at \(s): booked \(booked) truth \(real)") }
        }
        let v = R9.judge(run, 200, 1_490)
        let truth = k == 1 ? v.base.missed : run.missedAtDivisor(200, 1_490, k: k)
        print(
            "R9 stallShapes \(buffers) buffers stall \(Double(stallMilliperiods) / 1000) periods k \(k): stalls \(stalls.count) "
                + "wrong \(wrong); \(v); truth \(truth)")
        if let first = wrong.first, let s = Int64(first.dropFirst(3).prefix { $0.isNumber }) {
            R9.dump(run, probe, s - 3, s + 6)
        }
        #expect(!stalls.isEmpty || (buffers > 2 && k > 1))
        // (Also at 2e8b54a: with 4 buffers a stall books 2–3 drops too many and, when the chain
        // drains, every target after it is a period early for good (846 of 1,291); with 3 a stall
        // that returns just after a vsync (3 periods + 150 µs) is placed by its return: 3 for 2.)
        withKnownIssue("stalls with 4 buffers, or returning on a vsync with 3 (also at 2e8b54a)") {
            #expect(wrong.isEmpty, "\(wrong)")
            #expect(v.base.booked == truth, "\(v)")
            #expect(v.base.tsOff.isEmpty && v.targetOffNew.isEmpty, "\(v)")
        } when: {
            (buffers == 4 && k == 1) || (buffers == 3 && stallMilliperiods == 3_009)
        }
    }

    /// A GPU-bound game whose blocks are long by its GPU (20–40 ms of drawing, 2 buffers) with a
    /// compositor delay that has a long tail (log-normal, 99th percentile 2–3 ms): a late return off
    /// the vsync is still the chain's block, not a stall.
    @Test(arguments: [(Int64(20), Int64(2)), (20, 3), (28, 3), (12, 3)])
    func gpuBoundHeavyTail(gpu: Int64, p99: Int64) {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(3)), seed: 11, frames: 1_400)
        config.jitter = .lognormal(median: .microseconds(300), percentile99: .milliseconds(p99))
        config.work = { _ in 4_000_000 }
        // (Light first: a game bound by its GPU from the start never follows the vsync, open since review 7.)
        config.events = { index, run in if index == 300 { run.lab.gpuTime = .milliseconds(gpu) } }
        let (run, probe) = R9.run(config, gpu: .milliseconds(4), latch: .microseconds(500))
        let v = R9.judge(run, 400, 1_390)
        print(
            "R9 gpuBoundHeavyTail gpu \(gpu) p99 \(p99): \(v) \(run.departures(from: 200)) lateness changes \(R9.latenessChanges(probe, 200, 1_390).count)"
        )
        // (A drop left unbooked at 20 ms and 3 ms until the first frame on the grid after frames
        // paced by deadline had the drops its interval holds counted.)
        #expect(v.base.booked == v.base.missed, "\(v)")
        #expect(v.targetOffNew.isEmpty, "\(v)")
        // (Also at 2e8b54a: 20–28 ms of GPU time with a log-normal delay whose 99th percentile is
        // 2–3 ms never follows the vsync after it begins: 0 of 991.)
        withKnownIssue("GPU-bound with a long-tailed delay: off the vsync (also at 2e8b54a)") {
            #expect(v.base.followed * 10 >= v.base.judged * 9, "\(v)")
        } when: {
            gpu >= 20
        }
    }

    // MARK: Variable refresh while measuring

    /// A VRR display (48–144 Hz) with frames slower than its slowest refresh (work 25–35 ms), 2 or
    /// 3 buffers, and with GPU time: drops the display's repeats.
    @Test(arguments: [(2, Int64(25), Int64(0)), (3, 25, 0), (2, 30, 0), (3, 4, 25), (3, 10, 15), (2, 4, 30)])
    func vrrSlowerThanMinimum(buffers: Int, work: Int64, gpu: Int64) {
        var config = R6.Config(refresh: R9.vrrRefresh, buffers: buffers, frames: 900)
        config.work = { _ in work * 1_000_000 }
        let (run, _) = R9.run(config, gpu: .milliseconds(gpu))
        let v = R9.judge(run, 100, 890, fixed: false)
        let early = R9.judge(run, 2, 100, fixed: false)
        print(
            "R9 vrrSlow \(buffers) work \(work) gpu \(gpu): early \(early.base.booked)/\(early.base.missed) \(v) "
                + "shown \(R8.shownIntervals(run, 100, 890)) \(run.source.pacingState) \(run.departures(from: 2))")
        // (Also at 2e8b54a: 3 buffers with 25 ms of work book one drop a frame late, ending one
        // over; 3 buffers with 25 ms of GPU time fit a 144 Hz grid and book 1,185 of 395 missed.)
        withKnownIssue("VRR, 3 buffers, frames slower than the minimum (also at 2e8b54a)") {
            #expect(early.base.booked == early.base.missed, "\(early)")
            #expect(v.base.booked == v.base.missed, "\(v)")
        } when: {
            buffers == 3 && (work == 25 || gpu == 25)
        }
    }

    /// A move from a VRR display (48–144 Hz) to a fixed 60 Hz one at frame 40, while the source is
    /// still measuring (told, or not told), 2 or 3 buffers, 10 ms work.
    @Test(arguments: [(2, true), (3, true), (2, false), (3, false)])
    func vrrToFixedWhileMeasuring(buffers: Int, told: Bool) {
        var config = R6.Config(refresh: R9.vrrRefresh, buffers: buffers, frames: 900)
        config.work = { _ in 10_000_000 }
        config.events = { index, run in
            if index == 40 {
                run.lab.changeRefresh(to: .fixed(.hz60))
                if told {
                    run.source.variableRefreshRange = nil
                    run.source.displayRefreshRate = .hz60
                }
            }
        }
        let (run, _) = R9.run(config)
        let before = R9.judge(run, 2, 39, fixed: false)
        let after = R9.judge(run, 41, 300)
        let end = R9.judge(run, 300, 890)
        print(
            "R9 vrrToFixed \(buffers) told \(told): before \(before.base.booked)/\(before.base.missed) after \(after)\nend \(end) "
                + "\(run.source.pacingState) \(run.departures(from: 2))")
        withKnownIssue("the move's missed refresh unbooked (also at 2e8b54a)") {
            #expect(after.base.booked == after.base.missed, "\(after)")
        } when: {
            told
        }
        #expect(end.base.booked == end.base.missed, "\(end)")
        #expect(end.base.tsOff.isEmpty && end.targetOffNew.isEmpty, "\(end)")
    }

    // MARK: The judges' rule

    /// The judges' pipeline rule and a divisor whose GPU time changes every 100 frames (14 and
    /// 3 ms): with f79a72f's shortened hold, frames were shown at 60 Hz where 30 was asked, earlier
    /// than their target and than the frames before them, and the rule excused every one. With the
    /// full hold again no frame comes faster than asked.
    @Test func judgesExcuseTheShortenedHold() {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(3)), frames: 1_000)
        config.work = { _ in 4_000_000 }
        config.range = FrameRateRange(exactly: FrameRate(numerator: 30))
        config.events = { index, run in
            run.lab.gpuTime = (index / 100) % 2 == 0 ? .milliseconds(14) : .milliseconds(3)
        }
        let (run, _) = R9.run(config, gpu: .milliseconds(14), latch: .microseconds(500))
        let v = R9.judge(run, 200, 990)
        let r8 = R8.judge(run, 200, 990)
        let fast = R9.refreshIntervals(run, 200, 990).filter { $0.refreshes < 2 }
        print("R9 judgesExcuse: \(v); R8 \(r8.targetOffNew.count) off; shown faster than asked \(fast.count)")
        #expect(fast.isEmpty)
        // (Each change takes 10 frames to learn: 8 changes judged here.)
        #expect(v.base.targetOff.count <= 8 * 10, "strict judge: \(v)")
        #expect(v.targetOffNew.isEmpty, "pipeline rule: \(v)")
    }

    /// A lateness that alternates (5 and 20 ms of GPU time in turn) ties the pipeline rule: no
    /// target is judged however wrong.
    @Test func judgesTieOnAlternatingLateness() {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(3)), frames: 800)
        config.work = { _ in 4_000_000 }
        config.events = { index, run in run.lab.gpuTime = .milliseconds(index % 2 == 0 ? 5 : 20) }
        let (run, _) = R9.run(config, gpu: .milliseconds(5), latch: .microseconds(500))
        let v = R9.judge(run, 200, 790)
        print("R9 judgesTie: \(v)")
        // (Open: a hole in the judges' rule. Without a clear majority no lateness is the
        // pipeline's, and no target is judged, however wrong.)
        withKnownIssue("the pipeline rule judges no target when the lateness alternates") {
            #expect(v.ties * 2 < v.targetsJudged, "\(v)")
        }
    }

    /// R8's judge subtracts the pipeline's lateness in 60 Hz periods whatever the display: on 144
    /// Hz it judges fewer frames than the display's period would.
    @Test func r8JudgeOn144Hz() {
        // (The 48-on-144 divisor whose learned lateness sticks, `divisorGPUTimeFalls`: every target
        // after frame 800 two 144 Hz periods late, pipeline 0 by then.) And 144 Hz GPU-bound.
        var config = R6.Config(refresh: .fixed(.hz144, phase: .milliseconds(1)), frames: 1_000)
        config.work = { _ in 3_000_000 }
        config.events = { index, run in
            if index == 300 { run.lab.gpuTime = .milliseconds(9) }
            if index == 500 { run.lab.gpuTime = .milliseconds(2) }
        }
        let (run, _) = R9.run(config, gpu: .milliseconds(2), latch: .microseconds(300))
        let v = R9.judge(run, 320, 495)
        let sixty = R9.judge(run, 320, 495, period: R8.p60)
        let r8 = R8.judge(run, 320, 495)
        print(
            "R9 r8JudgeOn144Hz: judged by the rule with the display's period \(v.judgedByRule), with 60 Hz's \(sixty.judgedByRule); "
                + "R8 excused \(r8.excused.count), with the display's period \(v.excused.count); \(v)")
        // (R8's judge now takes the display's period: `DisplayLab.periodBefore(_:)`.)
        #expect(r8.excused.count == v.excused.count && r8.targetOffNew.count == v.targetOffNew.count)
    }
}
