// FramePace: measures FrameLink's deadline pacing against the C probes (`make pace`).
//
// Paces 600 frames at 60 Hz through a FrameLoop with a DeadlineSource and one empty display link
// (nothing drawn), prints p50/p99/max of |interval − period| and the CPU time used, then runs
// ../shared/probes/vs (hybrid and sdldelay) if its path is given and prints the ratios. The ratio
// compares like with like: vs.c reports the p99 of one 300-frame run, so FrameLink's 600 frames are
// also scored as two 300-frame windows, the same way, and hybrid runs twice per round.
// `--intervals FILE` writes every interval, for a closer look at the late ones.

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

/// CPU time (user + system) used by this process, or by its finished children.
func cpuSeconds(children: Bool = false) -> Double {
    var usage = rusage()
    getrusage((children ? RUSAGE_CHILDREN : RUSAGE_SELF).rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
        + Double(usage.ru_stime.tv_usec) / 1e6
}

/// Runs the probe in `mode` and returns its output line, its |err| p99 in ms parsed from that line,
/// and the share of a core it used (its CPU time over its run time).
func probe(_ path: String, _ mode: String) -> (line: String, p99: Double, cpuPercent: Double)? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = [mode]
    let pipe = Pipe()
    process.standardOutput = pipe
    let cpuStart = cpuSeconds(children: true)
    let wallStart = MonotonicClock.nanoseconds()
    do { try process.run() } catch { return nil }
    process.waitUntilExit()
    let wall = Double(MonotonicClock.nanoseconds() - wallStart) / 1e9
    let cpu = cpuSeconds(children: true) - cpuStart
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    guard let line = text.split(separator: "\n").last.map(String.init),
        let range = line.range(of: "p99 ")
    else { return nil }
    let value = line[range.upperBound...].split(separator: " ").first.flatMap { Double($0) }
    return value.map { (line, $0, cpu / wall * 100) }
}

let arguments = CommandLine.arguments.dropFirst()
var frames = 600
var rounds = 1
var probePath: String?
var spin: Duration?
var intervalsPath: String?
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
    case "--intervals":
        guard let value = iterator.next() else { fail("--intervals needs a file path") }
        intervalsPath = value
    case "--probe":
        guard let value = iterator.next() else { fail("--probe needs the path of the vs probe binary") }
        probePath = value
    default:
        fail("unknown argument '\(argument)' (use --frames N, --rounds N, --spin MS, --probe PATH, --intervals FILE)")
    }
}

/// Paces `frames` frames through a FrameLoop on a DeadlineSource; returns the intervals in ms and
/// the CPU share.
func paceOnce() -> (intervals: [Double], cpuPercent: Double, spin: Duration, shifts: Int) {
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
        return (intervals, cpu / wall * 100, source.currentSpin, source.interferenceShifts)
    }
}

/// Appends `intervals` to the file at `path` (one "round frame interval-ms" line each).
func record(_ intervals: [Double], round: Int, to path: String) {
    guard let handle = FileHandle(forWritingAtPath: path) else { fail("cannot write \(path)") }
    let lines = intervals.enumerated().map { "\(round) \($0.offset + 1) \(String(format: "%.4f", $0.element))\n" }
    handle.seekToEndOfFile()
    handle.write(Data(lines.joined().utf8))
    handle.closeFile()
}

/// "; p99 per 300 frames: 0.000, 0.012", or nothing when the run was shorter than a window.
func windowSummary(_ windows: [Double]) -> String {
    if windows.isEmpty { return "" }
    return "; p99 per \(probeWindow) frames: " + windows.map { String(format: "%.3f", $0) }.joined(separator: ", ")
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

/// vs.c paces 300 frames per run and takes as its p99 the error at index 297 once sorted. The
/// comparison with it uses the same window and the same index on FrameLink's intervals.
let probeWindow = 300

// Rounds alternate FrameLink and the probes, so that both see the same machine. In each round the
// probe's hybrid runs as many times as it takes to pace as many frames as FrameLink did (twice for
// 600 frames), so both are exposed to the machine for as long; sdldelay runs once.
var ours: [Double] = []
var ourWindows: [Double] = []
var hybrids: [Double] = []
var delays: [Double] = []
var cpus: [Double] = []
var hybridCPUs: [Double] = []
// Start the intervals file empty, and fail now rather than after the first round if it cannot be written.
if let intervalsPath, !FileManager.default.createFile(atPath: intervalsPath, contents: nil) {
    fail("cannot create \(intervalsPath)")
}
for round in 1...rounds {
    let (intervals, cpu, spinUsed, shifts) = paceOnce()
    if let intervalsPath { record(intervals, round: round, to: intervalsPath) }
    let pace = errors(of: intervals, period: 1000.0 / 60)
    ours.append(pace.p99)
    cpus.append(cpu)
    var windows: [Double] = []
    var start = 0
    while start + probeWindow <= intervals.count {
        windows.append(errors(of: Array(intervals[start..<start + probeWindow]), period: 1000.0 / 60).p99)
        start += probeWindow
    }
    ourWindows += windows
    print(
        String(
            format:
                "round %d: FrameLink DeadlineSource 60 Hz, %d frames: |err| p50 %.3f p99 %.3f max %.3f ms; CPU %.1f%%"
                + " (spin %.2f ms; errors over 5 µs: %d, 50 µs: %d, 0.5 ms: %d; grid moved %d×)",
            round, frames, pace.p50, pace.p99, pace.max, cpu, Double(spinUsed.wholeNanoseconds) / 1e6,
            pace.over.0, pace.over.1, pace.over.2, shifts)
            + windowSummary(windows))
    guard let probePath else { continue }
    for _ in 0..<max(1, frames / probeWindow) {
        guard let hybrid = probe(probePath, "hybrid") else { fail("could not run the probe at \(probePath)") }
        print("round \(round): probe \(hybrid.line) CPU \(String(format: "%.1f", hybrid.cpuPercent))%")
        hybrids.append(hybrid.p99)
        hybridCPUs.append(hybrid.cpuPercent)
    }
    guard let delay = probe(probePath, "sdldelay") else { fail("could not run the probe at \(probePath)") }
    print("round \(round): probe \(delay.line)")
    delays.append(delay.p99)
}
if probePath != nil {
    // The probe prints milliseconds with 3 decimals: compare at that resolution (a value that
    // prints as 0.000 counts as 0.0005 ms, the most it can be).
    let resolution = 0.0005
    let ourMedian = max(median(ourWindows.isEmpty ? ours : ourWindows), resolution)
    let hybridMedian = max(median(hybrids), resolution)
    print(
        String(
            format: "FrameLink over %d frames: median p99 %.4f ms, median CPU %.1f%% of one core",
            frames, median(ours), median(cpus)))
    print(
        String(
            format:
                "p99 per %d-frame run, as vs.c computes it: median of %d FrameLink windows %.4f ms, of %d hybrid runs %.4f ms,"
                + " of %d sdldelay runs %.3f ms; hybrid CPU %.1f%%",
            probeWindow, ourWindows.count, median(ourWindows.isEmpty ? ours : ourWindows), hybrids.count,
            median(hybrids), delays.count, median(delays), median(hybridCPUs)))
    print(
        String(
            format:
                "FrameLink / hybrid = %.2f (target ≤ 1.5); sdldelay / FrameLink = %.1f (target ≥ 20);"
                + " CPU %.1f%% of one core (target ≤ 5%%)",
            ourMedian / hybridMedian, median(delays) / ourMedian, median(cpus)))
}
