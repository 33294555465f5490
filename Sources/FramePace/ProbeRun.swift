import Foundation
import FrameLink

/// One run of the C probe (`../shared/probes/vs.c`, built by `make pace` with
/// `scripts/vs-intervals.h`, which makes it write every interval it measured).
enum ProbeRun {
    /// An error running the probe.
    struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        var description: String
    }

    /// Runs the probe at `path` in `mode` (`hybrid` or `sdldelay`); returns its intervals in
    /// milliseconds and its CPU time over its run time, in percent of one core.
    static func run(_ path: String, mode: String) throws -> (intervals: [Double], cpuPercent: Double) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("framepace-\(getpid()).txt").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let started = MonotonicClock.nanoseconds()
        let process = try ChildProcess.spawn(
            path, arguments: [mode], environment: ["FRAMEPACE_INTERVALS": file])
        let (status, cpu) = ChildProcess.wait(for: process)
        let wall = Double(MonotonicClock.nanoseconds() - started) / 1e9
        guard status == 0 else { throw Failure(description: "\(path) \(mode) failed (status \(status ?? -1))") }
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw Failure(
                description: "\(path) wrote no intervals: build it with scripts/vs-intervals.h (make pace does)")
        }
        let intervals = text.split(separator: "\n").compactMap { Double($0) }
        guard !intervals.isEmpty, intervals.allSatisfy(\.isFinite) else {
            throw Failure(description: "\(path) wrote unreadable intervals to \(file)")
        }
        return (intervals, cpu / wall * 100)
    }
}
