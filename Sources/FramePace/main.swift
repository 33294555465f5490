// FramePace: measures FrameLink's deadline pacing against the C probes (`make pace`).
//
// Paces 600 frames at 60 Hz through a FrameLoop with a DeadlineSource and one empty display link
// (nothing drawn), prints p50/p99/max of |interval − period| and the CPU time used, then runs
// ../shared/probes/vs (hybrid and sdldelay) if its path is given and prints the ratios.

import Foundation
import FrameLink

#if canImport(Glibc)
    import Glibc
#endif

struct PaceResult {
    var p50: Double
    var p99: Double
    var max: Double
    /// How many intervals missed the period by more than 5 µs, 50 µs and 0.5 ms.
    var over: (Int, Int, Int)
}

func errors(of intervals: [Double], period: Double) -> PaceResult {
    let sorted = intervals.map { abs($0 - period) }.sorted()
    return PaceResult(
        p50: sorted[sorted.count / 2], p99: sorted[min(sorted.count - 1, sorted.count * 99 / 100)],
        max: sorted.last ?? 0,
        over: (sorted.count { $0 > 0.005 }, sorted.count { $0 > 0.05 }, sorted.count { $0 > 0.5 }))
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
        + Double(usage.ru_stime.tv_usec) / 1e6
}

/// Runs the probe in `mode` and returns its |err| p99 in ms, parsed from its output line.
func probe(_ path: String, _ mode: String) -> (line: String, p99: Double)? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = [mode]
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch { return nil }
    process.waitUntilExit()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    guard let line = text.split(separator: "\n").last.map(String.init),
        let range = line.range(of: "p99 ")
    else { return nil }
    let value = line[range.upperBound...].split(separator: " ").first.flatMap { Double($0) }
    return value.map { (line, $0) }
}

let arguments = CommandLine.arguments.dropFirst()
var frames = 600
var rounds = 1
var probePath: String?
var spin: Duration?
var iterator = arguments.makeIterator()
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(2)
}
while let argument = iterator.next() {
    switch argument {
    case "--frames":
        guard let value = iterator.next().flatMap(Int.init), (2...100_000).contains(value) else {
            fail("--frames needs a count in 2...100000")
        }
        frames = value
    case "--rounds":
        guard let value = iterator.next().flatMap(Int.init), (1...50).contains(value) else {
            fail("--rounds needs a count in 1...50")
        }
        rounds = value
    case "--spin":
        guard let value = iterator.next().flatMap(Double.init), value.isFinite, (0...16).contains(value) else {
            fail("--spin needs milliseconds in 0...16")
        }
        spin = .nanoseconds(Int64(value * 1e6))
    case "--probe":
        guard let value = iterator.next() else { fail("--probe needs the path of the vs probe binary") }
        probePath = value
    default:
        fail("unknown argument '\(argument)' (use --frames N, --rounds N, --spin MS, --probe PATH)")
    }
}

/// Paces `frames` frames through a FrameLoop on a DeadlineSource; returns the errors and CPU share.
func paceOnce() -> (PaceResult, cpuPercent: Double, spin: Duration, shifts: Int) {
    MainActor.assumeIsolated {
        let source = DeadlineSource(refreshRate: .hz60, spin: spin)
        let loop = FrameLoop(source: source)
        var stamps: [Int64] = []
        stamps.reserveCapacity(frames + 1)
        DisplayLink { link in stamps.append(link.timestamp.nanoseconds) }.add(to: loop, forMode: .common)
        let cpuStart = cpuSeconds()
        let wallStart = MonotonicClock.nanoseconds()
        loop.run(frames: frames + 1)
        let wall = Double(MonotonicClock.nanoseconds() - wallStart) / 1e9
        let cpu = cpuSeconds() - cpuStart
        let intervals = zip(stamps.dropFirst(), stamps).map { Double($0 - $1) / 1e6 }
        return (
            errors(of: intervals, period: 1000.0 / 60), cpu / wall * 100, source.currentSpin,
            source.interferenceShifts
        )
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

// Rounds alternate FrameLink and the probes, so that both see the same machine; the medians of
// the rounds are compared (the machine is shared and noisy).
var ours: [Double] = []
var hybrids: [Double] = []
var delays: [Double] = []
var cpus: [Double] = []
for round in 1...rounds {
    let (pace, cpu, spinUsed, shifts) = paceOnce()
    ours.append(pace.p99)
    cpus.append(cpu)
    print(
        String(
            format:
                "round %d: FrameLink DeadlineSource 60 Hz, %d frames: |err| p50 %.3f p99 %.3f max %.3f ms; CPU %.1f%%"
                + " (spin %.2f ms; errors over 5 µs: %d, 50 µs: %d, 0.5 ms: %d; grid moved %d×)",
            round, frames, pace.p50, pace.p99, pace.max, cpu, Double(spinUsed.wholeNanoseconds) / 1e6,
            pace.over.0, pace.over.1, pace.over.2, shifts))
    guard let probePath else { continue }
    guard let hybrid = probe(probePath, "hybrid"), let delay = probe(probePath, "sdldelay") else {
        FileHandle.standardError.write(Data("error: could not run the probe at \(probePath)\n".utf8))
        exit(1)
    }
    print("round \(round): probe \(hybrid.line)")
    print("round \(round): probe \(delay.line)")
    hybrids.append(hybrid.p99)
    delays.append(delay.p99)
}
if probePath != nil {
    // The probe prints milliseconds with 3 decimals: compare at that resolution (a value that
    // prints as 0.000 counts as 0.0005 ms, the most it can be).
    let resolution = 0.0005
    let ourMedian = max(median(ours), resolution)
    let ratios = String(
        format:
            "medians of %d rounds: p99 FrameLink %.4f, hybrid %.4f, sdldelay %.3f ms; FrameLink / hybrid = %.2f (target ≤ 1.5); ",
        rounds, median(ours), median(hybrids), median(delays), ourMedian / max(median(hybrids), resolution))
    print(
        ratios
            + String(
                format: "sdldelay / FrameLink = %.1f (target ≥ 20); CPU %.1f%% of one core (target ≤ 5%%)",
                median(delays) / ourMedian, median(cpus)))
}
