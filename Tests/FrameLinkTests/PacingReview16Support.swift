import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// Review 16 harness (of c14af4b, by an independent reviewer): the review-6 harness (`R6`) with the
/// settings a host changes mid-run (the display's report, a cap, a range, the pacing, a hidden
/// window) and a one-line verdict per run, judged against the display lab's truth.
@MainActor
enum R16 {
    /// A scenario: the display, what the source is told, and what happens per frame.
    struct Scenario {
        var refresh: DisplayLab.Refresh
        /// The rate the source is told at the start (the display's report, unless `caps`).
        var report: FrameRate
        var caps = false
        var buffers = 2
        var declaredBuffers: Int?
        var jitter = PresentJitter.uniform(upTo: .microseconds(300))
        var seed: UInt64 = 3
        var feedback = false
        var frames = 1_200
        var range: FrameRateRange?
        var pacing = PresentSource.Pacing.automatic
        var work: @MainActor (Int64) -> Int64 = { _ in 5_000_000 }
        var events: @MainActor (Int64, R6) -> Void = { _, _ in }
    }

    /// Runs `scenario` on the display lab.
    static func run(_ scenario: Scenario) -> R6 {
        var config = R6.Config(refresh: scenario.refresh, frames: scenario.frames)
        config.buffers = scenario.buffers
        config.declaredBuffers = scenario.declaredBuffers
        config.jitter = scenario.jitter
        config.seed = scenario.seed
        config.feedback = scenario.feedback
        config.pacing = scenario.pacing
        config.range = scenario.range
        config.work = scenario.work
        config.events = scenario.events
        // (The harness takes `cap` as the rate the source is told; the cap flag is set below.)
        config.cap = scenario.report
        let run = R6(config, run: false)
        run.source.capsAtDisplayRefreshRate = scenario.caps
        run.loop.run(frames: scenario.frames)
        return run
    }

    /// Figures of a run over loop frames `a...b`.
    struct Figures: CustomStringConvertible {
        var booked: Int
        var missed: Int
        /// Frames whose timestamp the source claims as the vsync.
        var followed: Int
        var judged: Int
        /// Claimed timestamps more than 100 µs off the true vsync, and the worst (ns).
        var timestampsOff: Int
        var worstTimestamp: Int64
        /// Targets more than 100 µs off when the frame was shown, and the worst (ns).
        var targetsOff: Int
        var worstTarget: Int64
        /// Frames in vsync mode.
        var vsyncFrames: Int
        /// The shortest mean interval over 60 frames (ns).
        var fastest60: Int64
        /// The grid's re-locks at the end.
        var relocks: Int
        /// Timestamps of any frame (claimed or not) more than 100 µs off the true vsync, the worst
        /// (ns), and `deltaTime`s more than 100 µs off a whole number of true periods.
        var anyOff = 0
        var worstAny: Int64 = 0
        var deltasOff = 0
        var description: String {
            "booked \(booked) missed \(missed); vsync \(vsyncFrames)/\(judged), claimed \(followed); "
                + "ts off \(timestampsOff) (worst \(String(format: "%.3f", Double(worstTimestamp) / 1e6)) ms); "
                + "targets off \(targetsOff) (worst \(String(format: "%.3f", Double(worstTarget) / 1e6)) ms); "
                + "fastest 60 \(String(format: "%.3f", Double(fastest60) / 1e6)) ms; relocks \(relocks); "
                + "any ts off \(anyOff) (worst \(String(format: "%.3f", Double(worstAny) / 1e6)) ms), deltas off \(deltasOff)"
        }
    }

    static func figures(_ run: R6, _ a: Int64, _ b: Int64) -> Figures {
        let v = run.judge(a, b)
        let frames = run.frames.filter { $0.index >= a && $0.index <= b }
        var anyOff = 0
        var worstAny: Int64 = 0
        var deltasOff = 0
        for (i, f) in frames.enumerated() {
            let e = run.nearestDistance(f.timestamp)
            if e > 100_000 { anyOff += 1 }
            worstAny = max(worstAny, e)
            if i > 0 {
                let p = run.truePeriod(at: f.timestamp)
                let k = max(1, (f.delta + p / 2) / p)
                if abs(f.delta - k * p) > 100_000 { deltasOff += 1 }
            }
        }
        var figures = Figures(
            booked: v.booked, missed: v.missed, followed: v.followed, judged: v.judged,
            timestampsOff: v.tsOff.count, worstTimestamp: v.tsOff.map(\.1).max() ?? 0,
            targetsOff: v.targetOff.count, worstTarget: v.targetOff.map { abs($0.1) }.max() ?? 0,
            vsyncFrames: frames.filter { $0.mode == .vsync }.count, fastest60: v.fastest60,
            relocks: run.source.vsyncRelocks)
        (figures.anyOff, figures.worstAny, figures.deltasOff) = (anyOff, worstAny, deltasOff)
        return figures
    }

    static func rate(_ hertz: Double) -> FrameRate {
        FrameRate(numerator: Int64((hertz * 1_000).rounded()), denominator: 1_000)
    }
}
