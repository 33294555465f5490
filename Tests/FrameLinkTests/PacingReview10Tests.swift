import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// Review 10 (of 88a1625 and f79a72f, by an independent reviewer): the clear-majority lateness,
/// judged with R6/R8 (and R9's probe of the learned lateness). The clear-majority rule held in
/// every 2-buffer scenario; what failed is open, `withKnownIssue` with its figures: 3-buffer stalls
/// that return near a vsync (one drop too many), 3-buffer stalls with GPU time (under-booked), a
/// hidden window inside a learned lateness (one drop too many).
@MainActor
enum R10 {
    static let p60 = FrameRate.hz60.periodNanoseconds

    /// The share of lab frames a..<b shown later than their call explains.
    static func lateShare(_ run: R6, _ a: Int, _ b: Int) -> Double {
        var late = 0
        var all = 0
        for i in a..<min(b, run.lab.frames.count) {
            guard let l = run.lab.refreshesLate(frame: i) else { continue }
            all += 1
            if l > 0 { late += 1 }
        }
        return all == 0 ? 0 : Double(late) / Double(all)
    }

    static func report(_ name: String, _ run: R6, _ probe: R9.Probe, _ v: R8.Verdict, _ a: Int64, _ b: Int64) {
        let changes = R9.latenessChanges(probe, a, b)
        print(
            "R10 \(name): \(v); late share \(String(format: "%.2f", lateShare(run, Int(a), Int(b)))); "
                + "lateness changes \(changes.count) \(changes.prefix(6)); fastest60 shown \(Double(R8.fastestShown60(run, Int(a), Int(b))) / 1e6) ms"
        )
        if let first = v.targetOffNew.first { R9.dump(run, probe, max(a, first.0 - 18), first.0 + 3) }
    }

    static func check(_ v: R8.Verdict, _ run: R6, _ a: Int64, _ b: Int64) {
        #expect(v.base.booked == v.base.missed, "drops: \(v)")
        #expect(v.targetOffNew.isEmpty, "pipeline rule: \(v)")
        #expect(v.base.tsOff.isEmpty, "timestamps: \(v)")
        #expect(v.base.fastest60 >= p60 - 200_000, "faster than the display: \(v)")
        #expect(R8.fastestShown60(run, Int(a), Int(b)) >= p60 - 1_000, "shown faster than the display")
    }
}

@MainActor
struct Review10Tests {
    static let p60 = R10.p60

    func gpuBoundConfig(frames: Int = 1_400) -> R6.Config {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(3)), frames: frames)
        config.work = { _ in 4_000_000 }
        return config
    }

    /// GPU-bound (20 ms from frame 300), then for 600 frames a GPU time near the vsync's edge so
    /// that about 40–60 % of frames are a period late by the delay alone; then 20 ms again.
    @Test(arguments: [Int64(11_800), 12_000, 12_050, 12_100, 12_150])
    func gpuNearEdge(gpuMicros: Int64) {
        var config = gpuBoundConfig()
        config.events = { index, run in
            if index == 300 { run.lab.gpuTime = .milliseconds(20) }
            if index == 500 { run.lab.gpuTime = .microseconds(gpuMicros) }
            if index == 1_100 { run.lab.gpuTime = .milliseconds(20) }
        }
        let (run, probe) = R9.run(config, gpu: .milliseconds(5), latch: .microseconds(500))
        let mid = R8.judge(run, 520, 1_095)
        let after = R8.judge(run, 1_100, 1_390)
        let all = R8.judge(run, 320, 1_390)
        R10.report("gpuNearEdge \(gpuMicros) mid", run, probe, mid, 520, 1_095)
        R10.report("gpuNearEdge \(gpuMicros) after", run, probe, after, 1_100, 1_390)
        R10.check(mid, run, 520, 1_095)
        R10.check(after, run, 1_100, 1_390)
        #expect(all.base.booked == all.base.missed, "\(all)")
    }

    /// GPU-bound, then for 600 frames each frame draws 20 ms with probability `percent` %, else
    /// 5 ms (about that share late by its own drawing), then 20 ms again.
    @Test(arguments: [60, 40, 65, 35])
    func gpuMixture(percent: Int) {
        var config = gpuBoundConfig()
        var random = SplitMix64(seed: UInt64(percent))
        config.events = { index, run in
            if index == 300 { run.lab.gpuTime = .milliseconds(20) }
            if index >= 500 && index < 1_100 {
                run.lab.gpuTime = Int(random.next() % 100) < percent ? .milliseconds(20) : .milliseconds(5)
            }
            if index == 1_100 { run.lab.gpuTime = .milliseconds(20) }
        }
        let (run, probe) = R9.run(config, gpu: .milliseconds(5), latch: .microseconds(500))
        let mid = R8.judge(run, 520, 1_095)
        let after = R8.judge(run, 1_100, 1_390)
        R10.report("gpuMixture \(percent) mid", run, probe, mid, 520, 1_095)
        R10.report("gpuMixture \(percent) after", run, probe, after, 1_100, 1_390)
        R10.check(mid, run, 520, 1_095)
        R10.check(after, run, 1_100, 1_390)
    }

    /// GPU time drifting slowly across the vsync's edge: 20 ms from 300, then from frame 500 a
    /// drift from `from` to `to` µs over 900 frames.
    @Test(arguments: [(Int64(10_500), Int64(13_000)), (13_000, 10_500), (14_000, 30_000), (30_000, 14_000)])
    func gpuDrift(from: Int64, to: Int64) {
        var config = gpuBoundConfig(frames: 1_500)
        config.events = { index, run in
            if index == 300 { run.lab.gpuTime = .milliseconds(20) }
            if index >= 500 && index < 1_400 {
                run.lab.gpuTime = .microseconds(from + (to - from) * (index - 500) / 900)
            }
        }
        let (run, probe) = R9.run(config, gpu: .milliseconds(5), latch: .microseconds(500))
        let mid = R8.judge(run, 500, 1_490)
        R10.report("gpuDrift \(from)->\(to)", run, probe, mid, 500, 1_490)
        R10.check(mid, run, 500, 1_490)
    }

    /// A learned lateness of 1 (20 ms of GPU time from 300) interrupted at 600 by: a hitch (work
    /// `hitch` ms for one frame; 30+ ms drains the chain, so the next present returns at once), or
    /// a short hidden window (frames 600..<600+hide, host told or not).
    @Test(arguments: [
        (Int64(30), 0, false), (Int64(40), 0, false), (Int64(25), 0, false), (Int64(90), 0, false),
        (Int64(4), 3, true), (Int64(4), 3, false), (Int64(4), 30, true),
    ])
    func interruptionsInLearnedLateness(hitch: Int64, hide: Int64, told: Bool) {
        var config = gpuBoundConfig(frames: 1_200)
        config.work = { index in index == 600 ? hitch * 1_000_000 : 4_000_000 }
        config.events = { index, run in
            if index == 300 { run.lab.gpuTime = .milliseconds(20) }
            if hide > 0 && index == 600 {
                run.lab.isHidden = true
                if told { run.source.isWindowHidden = true }
            }
            if hide > 0 && index == 600 + hide {
                run.lab.isHidden = false
                if told { run.source.isWindowHidden = false }
            }
        }
        let (run, probe) = R9.run(config, gpu: .milliseconds(5), latch: .microseconds(500))
        let before = R8.judge(run, 400, 595)
        let around = R8.judge(run, 596, 700 + hide)
        let after = R8.judge(run, 700 + hide, 1_190)
        R10.report("interrupt hitch \(hitch) hide \(hide) told \(told) before", run, probe, before, 400, 595)
        R10.report("interrupt hitch \(hitch) hide \(hide) told \(told) around", run, probe, around, 596, 700 + hide)
        R10.report("interrupt hitch \(hitch) hide \(hide) told \(told) after", run, probe, after, 700 + hide, 1_190)
        R9.dump(run, probe, 596, 606 + hide)
        print("R10 departures hitch \(hitch) hide \(hide) told \(told): \(run.departures(from: 400))")
        for v in [before, around, after] {
            withKnownIssue("GPU-bound, a hidden window: one drop too many at its first frame shown (review 10)") {
                #expect(v.base.booked == v.base.missed, "drops: \(v)")
            } when: {
                hide > 0 && v.base.booked != v.base.missed
            }
            #expect(v.targetOffNew.isEmpty, "pipeline rule: \(v)")
            #expect(v.base.tsOff.isEmpty, "timestamps: \(v)")
        }
        // The learned lateness survives a present that returned at once.
        #expect(probe.lateness[610 + hide] == 1 || hide > 0, "\(R9.latenessChanges(probe, 590, 700))")
    }

    /// 3 buffers, compositor stalls (1 in 300 blocked presents) of lengths near whole periods,
    /// with GPU time `gpu` ms and 5 ms of work, 60 Hz.
    @Test(arguments: [
        (Int64(1_990), Int64(0)), (2_010, 0), (2_990, 0), (2_050, 0), (1_950, 0), (3_950, 0),
        (1_990, 12), (2_010, 12), (2_990, 20), (2_010, 20), (1_900, 0), (2_100, 0), (2_500, 12), (2_500, 20),
    ])
    func deepChainStallsNearVsync(stallMilliperiods: Int64, gpu: Int64) {
        let stall = stallMilliperiods * Self.p60 / 1_000
        var delays: [Duration] = []
        for index in 0..<300 {
            delays.append(index == 150 ? .nanoseconds(stall) : .microseconds(100 + Int64(index % 7) * 50))
        }
        var config = R6.Config(
            refresh: .fixed(.hz60, phase: .microseconds(4_400)), buffers: 3, jitter: .sampled(delays), seed: 5,
            frames: 1_500)
        config.work = { _ in 5_000_000 }
        let (run, probe) = R9.run(config, gpu: .milliseconds(gpu), latch: .microseconds(500))
        let lab = run.lab
        let stalls = lab.frames.indices.filter {
            $0 > 150 && $0 < 1_450
                && lab.frames[$0].returnedAt.nanoseconds - lab.frames[$0].presentedAt.nanoseconds > 3 * Self.p60 / 2
        }
        var wrong: [String] = []
        for s in stalls {
            let booked = run.booked(Int64(s - 2), Int64(s + 20))
            let real = run.missed(Int64(s - 2), Int64(s + 20))
            if booked != real { wrong.append("at \(s): booked \(booked) truth \(real)") }
        }
        let v = R8.judge(run, 200, 1_490)
        R10.report(
            "deepChainStall \(stallMilliperiods) gpu \(gpu): stalls \(stalls.count) wrong \(wrong)", run, probe, v, 200,
            1_490)
        if let first = wrong.first, let s = Int64(first.dropFirst(3).prefix { $0.isNumber }) {
            R9.dump(run, probe, s - 3, s + 6)
        }
        // Review 10: with 3 buffers a stall returning within ~1 ms before a vsync (or just after)
        // books one drop too many; with GPU time (12/20 ms) a stall of 2.5 periods books too few, and
        // the target after a stall is a period early.
        withKnownIssue("3 buffers: stalls near a vsync over-book; with GPU time under-book, target early (review 10)") {
            #expect(wrong.isEmpty, "\(wrong)")
            R10.check(v, run, 200, 1_490)
        } when: {
            !(gpu == 0 && (stallMilliperiods == 2_050 || stallMilliperiods == 2_100))
        }
    }
}
