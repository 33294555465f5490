import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// Review 15 harness (of 8e39e75, by an independent reviewer): the review-6 harness (`R6`) run on a
/// display whose report (`PresentSource.displayRefreshRate`) is not its true rate, with the grid's
/// fitted period and its source noted per frame, judged against the lab's truth.
@MainActor
enum R15 {
    /// What the grid held, per loop frame (read at the frame's start).
    final class Probe {
        var period: [Int64: Double] = [:]
        /// The slope's source (`_VsyncGrid.SlopeFit`, as text: "reported" for the report's weighing).
        var fit: [Int64: String] = [:]
        var hasGrid: [Int64: Bool] = [:]
    }

    /// A run on a fixed display of `truth` (or `refresh`, if given) that reports `report` (the
    /// display's own report: not a cap, not variable), with `buffers` buffers and `work` ns of work
    /// per frame.
    static func run(
        truth: FrameRate, report: FrameRate, buffers: Int = 2, frames: Int = 1_200,
        jitter: PresentJitter = .uniform(upTo: .microseconds(300)), seed: UInt64 = 3, feedback: Bool = false,
        refresh: DisplayLab.Refresh? = nil,
        work: @escaping @MainActor (Int64) -> Int64 = { _ in 5_000_000 },
        events: @escaping @MainActor (Int64, R6) -> Void = { _, _ in }
    ) -> (R6, Probe) {
        let probe = Probe()
        var config = R6.Config(refresh: refresh ?? .fixed(truth, phase: .milliseconds(3)), frames: frames)
        config.buffers = buffers
        config.jitter = jitter
        config.seed = seed
        config.feedback = feedback
        config.work = work
        // (The harness takes `cap` as the rate the source is told; the cap flag is cleared below, so
        // the rate is the display's report.)
        config.cap = report
        config.events = { index, run in
            let grid = run.source.pacer.tracker.grid
            probe.period[index] = grid.period
            probe.fit[index] = "\(grid.slopeFit)"
            probe.hasGrid[index] = grid.hasGrid
            events(index, run)
        }
        let run = R6(config, run: false)
        run.source.capsAtDisplayRefreshRate = false
        run.loop.run(frames: frames)
        return (run, probe)
    }

    /// The true period of `truth`, in ns (unrounded).
    static func period(of truth: FrameRate) -> Double { 1e9 * Double(truth.denominator) / Double(truth.numerator) }

    /// The largest |fitted − true period| in `a...b`, in ns.
    static func worstPeriodError(_ probe: Probe, truth: FrameRate, _ a: Int64, _ b: Int64) -> Double {
        let period = 1e9 * Double(truth.denominator) / Double(truth.numerator)
        var worst = 0.0
        for index in a...b where probe.hasGrid[index] == true {
            if let p = probe.period[index] { worst = max(worst, abs(p - period)) }
        }
        return worst
    }

    /// The frames whose slope came from the report, in `a...b`.
    static func reportedFits(_ probe: Probe, _ a: Int64, _ b: Int64) -> Int {
        (a...b).filter { probe.fit[$0] == "reported" }.count
    }

    /// A line of figures for a run.
    static func summary(_ run: R6, _ probe: Probe, truth: FrameRate, _ a: Int64, _ b: Int64) -> String {
        let v = run.judge(a, b)
        let truthPeriod = 1e9 * Double(truth.denominator) / Double(truth.numerator)
        let samples = stride(from: a, through: b, by: Int(max(1, (b - a) / 12))).map { index -> String in
            let p = probe.period[index].map { String(format: "%+.0f", $0 - truthPeriod) } ?? "-"
            return "\(index):\(p)\(probe.fit[index] == "reported" ? "r" : "")"
        }
        return "\(v); period − truth (ns) \(samples.joined(separator: " "))"
    }
}
