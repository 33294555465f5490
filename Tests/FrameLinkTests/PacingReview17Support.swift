import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// Review 17 harness (of 970a397, by an independent reviewer): the review-6 harness (`R6`) with
/// present delays of the reviewer's own (whose distribution may change mid-run), a display whose
/// true rate may be changed behind the source's back (a slow drift), and figures about the phase
/// lock judged against the display lab's truth.
@MainActor
enum R17 {
    /// A delay for a blocking present's return, drawn for loop frame `index`.
    typealias R17Delay = @MainActor (_ index: Int64, _ random: inout _SplitMix64) -> Int64

    /// A scenario: the display, what the source is told, the delays, and what happens per frame.
    struct R17Scenario {
        var refresh: DisplayLab.Refresh
        /// The rate the source is told (the display's own unless set).
        var report: FrameRate?
        var buffers = 2
        /// The lab's own jitter (unused when `delay` is set).
        var jitter = PresentJitter.uniform(upTo: .microseconds(300))
        /// The reviewer's own delay after each blocking present (the lab's jitter is then none).
        var delay: R17Delay?
        /// The least delay in force at loop frame `index` (for judging timestamps beyond it);
        /// the lab's least drawn delay unless set.
        var floor: (@MainActor (Int64) -> Int64)?
        var seed: UInt64 = 3
        var frames = 3_000
        /// Work per frame as a fraction of the display's period.
        var workFraction = 0.3
        var events: @MainActor (Int64, R6) -> Void = { _, _ in }
    }

    /// Runs `scenario` on the display lab.
    static func run(_ scenario: R17Scenario) -> R6 {
        var config = R6.Config(refresh: scenario.refresh, frames: scenario.frames)
        config.buffers = scenario.buffers
        config.jitter = scenario.delay == nil ? scenario.jitter : .none
        config.seed = scenario.seed
        config.events = scenario.events
        config.cap = scenario.report
        let rate = DisplayLabMatrixTests.rate(of: scenario.refresh) ?? .hz60
        let work = Int64(Double(rate.periodNanoseconds) * scenario.workFraction)
        config.work = { _ in work }
        let run = R6(config, run: false)
        // The report is the display's, not a cap (R6 takes a given rate as a cap).
        run.source.capsAtDisplayRefreshRate = false
        if let delay = scenario.delay {
            let lab = run.lab
            var random = _SplitMix64(seed: scenario.seed &* 0x2545_F491_4F6C_DD1D)
            run.source.present = {
                lab.present()
                // Blocked: the present returned at a refresh (the lab's jitter is none).
                guard let frame = lab.frames.last, let refresh = lab.refreshTimes.last,
                    frame.returnedAt == refresh, frame.returnedAt > frame.presentedAt
                else { return }
                let index = Int64(lab.frames.count - 1)
                lab.work(for: .nanoseconds(max(0, delay(index, &random))))
            }
        }
        run.loop.run(frames: scenario.frames)
        return run
    }

    /// Figures of the phase lock over loop frames `a...b`.
    struct R17Figures: CustomStringConvertible {
        var frames = 0
        var locked = 0
        /// Changes of `isPhaseLocked` between consecutive frames.
        var transitions = 0
        /// Consecutive locked frames, those whose `deltaTime` is more than 2 µs off the true
        /// vsyncs' distance, and the worst (ns).
        var lockedPairs = 0
        var deltasOver2us = 0
        var worstDelta: Int64 = 0
        /// Locked timestamps more than 50 µs off the true vsync beyond the delay's floor, and the
        /// worst (ns, beyond the floor).
        var lockedOver50us = 0
        var worstLocked: Int64 = 0
        /// Frames claimed as the vsync.
        var claimed = 0
        var booked = 0
        var missed = 0
        var relocks = 0
        var description: String {
            "locked \(locked)/\(frames), transitions \(transitions); locked pairs \(lockedPairs): "
                + "Δ>2µs \(deltasOver2us) (worst \(String(format: "%.1f", Double(worstDelta) / 1e3)) µs); "
                + "locked ts >50µs \(lockedOver50us) (worst \(String(format: "%.1f", Double(worstLocked) / 1e3)) µs); "
                + "claimed \(claimed); booked \(booked) missed \(missed); relocks \(relocks)"
        }
    }

    /// The signed distance from `t` to the nearest true refresh (ns).
    static func signedError(_ run: R6, _ t: Int64) -> Int64 {
        let times = run.lab.refreshTimes
        let index = run.firstRefreshIndex(after: t)
        var best = Int64.max
        if index < times.count { best = t - times[index].nanoseconds }
        if index > 0, abs(t - times[index - 1].nanoseconds) < abs(best) { best = t - times[index - 1].nanoseconds }
        return best
    }

    static func figures(
        _ run: R6, _ a: Int64, _ b: Int64, floor: (@MainActor (Int64) -> Int64)? = nil
    ) -> R17Figures {
        var figures = R17Figures()
        let least = run.lab.leastPresentDelay?.ns ?? 0
        let floorAt = floor ?? { _ in least }
        var previous: (locked: Bool, error: Int64)?
        for frame in run.frames where frame.index >= a && frame.index <= b {
            figures.frames += 1
            let error = signedError(run, frame.timestamp)
            if frame.follows { figures.claimed += 1 }
            if let previous, previous.locked != frame.locked { figures.transitions += 1 }
            if frame.locked {
                figures.locked += 1
                let beyond = max(error - floorAt(frame.index), -error)
                if beyond > 50_000 { figures.lockedOver50us += 1 }
                figures.worstLocked = max(figures.worstLocked, beyond)
                if let previous, previous.locked {
                    figures.lockedPairs += 1
                    let change = abs(error - previous.error)
                    if change > 2_000 { figures.deltasOver2us += 1 }
                    figures.worstDelta = max(figures.worstDelta, change)
                }
            }
            previous = (frame.locked, error)
        }
        figures.booked = run.booked(a, b)
        figures.missed = run.missed(a, b)
        figures.relocks = run.source.vsyncRelocks
        return figures
    }

    /// A rate in millionths of a hertz.
    static func microhertz(_ hertz: Double) -> FrameRate {
        FrameRate(numerator: Int64((hertz * 1_000_000).rounded()), denominator: 1_000_000)
    }
}
