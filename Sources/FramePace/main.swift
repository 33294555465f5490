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
}

func errors(of intervals: [Double], period: Double) -> PaceResult {
    let sorted = intervals.map { abs($0 - period) }.sorted()
    return PaceResult(
        p50: sorted[sorted.count / 2], p99: sorted[min(sorted.count - 1, sorted.count * 99 / 100)],
        max: sorted.last ?? 0)
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
var probePath: String?
var iterator = arguments.makeIterator()
while let argument = iterator.next() {
    switch argument {
    case "--frames":
        guard let value = iterator.next().flatMap(Int.init), (2...100_000).contains(value) else {
            FileHandle.standardError.write(Data("error: --frames needs a count in 2...100000\n".utf8))
            exit(2)
        }
        frames = value
    case "--probe":
        guard let value = iterator.next() else {
            FileHandle.standardError.write(Data("error: --probe needs the path of the vs probe binary\n".utf8))
            exit(2)
        }
        probePath = value
    default:
        FileHandle.standardError.write(
            Data("error: unknown argument '\(argument)' (use --frames N, --probe PATH)\n".utf8))
        exit(2)
    }
}

let result: (PaceResult, Double, Double) = MainActor.assumeIsolated {
    let source = DeadlineSource(refreshRate: .hz60)
    let loop = FrameLoop(source: source)
    loop.drainsMainQueue = ProcessInfo.processInfo.environment["FRAMEPACE_NO_DRAIN"] == nil
    var stamps: [Int64] = []
    stamps.reserveCapacity(frames + 1)
    DisplayLink { link in stamps.append(link.timestamp.nanoseconds) }.add(to: loop, forMode: .common)
    let cpuStart = cpuSeconds()
    let wallStart = MonotonicClock.nanoseconds()
    loop.run(frames: frames + 1)
    let wall = Double(MonotonicClock.nanoseconds() - wallStart) / 1e9
    let cpu = cpuSeconds() - cpuStart
    let intervals = zip(stamps.dropFirst(), stamps).map { Double($0 - $1) / 1e6 }
    return (errors(of: intervals, period: 1000.0 / 60), cpu, wall)
}
let (pace, cpu, wall) = result
print(
    String(
        format:
            "FrameLink DeadlineSource 60 Hz, %d frames: |err| p50 %.3f p99 %.3f max %.3f ms; CPU %.2f s of %.2f s (%.1f%% of one core)",
        frames, pace.p50, pace.p99, pace.max, cpu, wall, cpu / wall * 100))

if let probePath {
    guard let hybrid = probe(probePath, "hybrid"), let delay = probe(probePath, "sdldelay") else {
        FileHandle.standardError.write(Data("error: could not run the probe at \(probePath)\n".utf8))
        exit(1)
    }
    print("probe \(hybrid.line)")
    print("probe \(delay.line)")
    // The probe prints milliseconds with 3 decimals: compare at that resolution (a value that
    // prints as 0.000 counts as 0.0005 ms, the most it can be).
    let resolution = 0.0005
    let ours = max(pace.p99, resolution)
    let ratios = String(
        format: "ratios: FrameLink p99 / hybrid p99 = %.2f (target ≤ 1.5); sdldelay p99 / FrameLink p99 = %.1f",
        ours / max(hybrid.p99, resolution), delay.p99 / ours)
    print(ratios + String(format: " (target ≥ 20); CPU %.1f%% of one core (target ≤ 5%%)", cpu / wall * 100))
}
