import FrameLink
import LabPlotKit

/// The vsync half of `make pace`: how close FrameLink's vsync-mode timestamps come to the true
/// vsync on the display lab, at each rate and jitter of the scenario matrix, over several seeds.
enum LabTable {
    /// The display rates of the scenario matrix.
    static let rates: [FrameRate] = [.hz59_94, .hz60, .hz75, .hz120, .hz144, .hz165]
    /// The present-return jitter (uniform from zero to this).
    static let jitters: [Duration] = [.zero, .microseconds(300), .milliseconds(1), .microseconds(1_500)]

    /// The figures of one rate and jitter over the seeds: the lock frames and the pooled errors.
    struct Row {
        /// The frame each seed's run phase-locked at (runs that never locked are left out).
        var lockFrames: [Int64] = []
        /// |timestamp − true vsync| of every locked vsync-mode frame.
        var errors: ErrorStatistics?
        /// Raw present-return delays of the same frames.
        var delays: ErrorStatistics?
    }

    /// Runs `seeds` seeds of `frames` frames at `rate` with `jitter`.
    @MainActor
    static func measure(rate: FrameRate, jitter: Duration, seeds: Int, frames: Int) throws -> Row {
        var errors: [Int64] = []
        var delays: [Int64] = []
        var row = Row()
        for seed in 1...seeds {
            let run = try ScenarioRun(
                PlotScenario(refreshRate: rate, jitter: jitter, frames: frames, seed: UInt64(seed)))
            guard let locked = run.firstLockedFrame else { continue }
            row.lockFrames.append(locked.index)
            for sample in run.samples where sample.isPhaseLocked && sample.mode == .vsync {
                if let error = sample.timestampError { errors.append(error) }
                if let delay = sample.returnDelay { delays.append(delay) }
            }
        }
        row.errors = ErrorStatistics(errors: errors)
        row.delays = ErrorStatistics(errors: delays)
        return row
    }

    /// Runs every rate and jitter with `seeds` seeds of `frames` frames each and prints the table.
    @MainActor
    static func print(seeds: Int, frames: Int) throws {
        Swift.print(
            "\nVsync mode on the display lab (2 buffers, 3 ms of work, \(frames) frames, seeds 1–\(seeds)):"
                + " |timestamp − true vsync| once phase-locked, all seeds together")
        Swift.print(
            Column.pad("display", 10) + Column.pad("jitter", 10) + Column.pad("locked at frame", 17)
                + Column.pad("p50", 9, right: true) + Column.pad("p99", 9, right: true)
                + Column.pad("max", 9, right: true) + "   raw returns: p50, max")
        for rate in rates {
            for jitter in jitters {
                let row = try measure(rate: rate, jitter: jitter, seeds: seeds, frames: frames)
                let lock =
                    row.lockFrames.isEmpty
                    ? "never"
                    : "\(row.lockFrames.min() ?? 0)–\(row.lockFrames.max() ?? 0)"
                        + (row.lockFrames.count < seeds ? " (\(row.lockFrames.count) of \(seeds))" : "")
                Swift.print(
                    Column.pad("\(rate)", 10) + Column.pad("\(jitter.wholeNanoseconds / 1_000) µs", 10)
                        + Column.pad(lock, 17) + Column.pad(microseconds(row.errors?.median), 9, right: true)
                        + Column.pad(microseconds(row.errors?.percentile99), 9, right: true)
                        + Column.pad(microseconds(row.errors?.maximum), 9, right: true)
                        + "   \(microseconds(row.delays?.median)), \(microseconds(row.delays?.maximum))")
            }
        }
    }

    /// Nanoseconds as microseconds with one decimal and the unit, or a dash.
    private static func microseconds(_ value: Int64?) -> String {
        guard let value else { return "–" }
        return String(format: "%.1f µs", Double(value) / 1_000)
    }
}
