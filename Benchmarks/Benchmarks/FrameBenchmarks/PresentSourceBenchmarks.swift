import Benchmark
import FrameLink

/// A clock that only moves when told to: sleeps jump to their deadline at once.
@MainActor
final class VirtualClock: PacingClock {
    var now: Int64 = 0
    var sleepsInRealTime: Bool { false }
    func nanoseconds() -> Int64 { now }
    func sleep(untilNanoseconds deadline: Int64) { now = max(now, deadline) }
}

/// The loops of the PresentSource benchmarks, by name, made in their setup.
@MainActor var presentLoops: [String: FrameLoop] = [:]

/// A loop on a `PresentSource` on virtual time, one empty display link, its frame's work `work`
/// nanoseconds: on a fixed 60 Hz display whose present blocks until the next vsync and returns
/// 50 µs after it (vsync pacing, phase-locked), or on a 48–144 Hz variable-refresh display whose
/// present returns at once (every frame later than its maximum, shown as it comes).
@MainActor
func makePresentLoop(variable: Bool, work: Int64) -> FrameLoop {
    let clock = VirtualClock()
    let period = FrameRate.hz60.periodNanoseconds
    let source = PresentSource(displayRefreshRate: variable ? .hz144 : .hz60, clock: clock) {
        if !variable { clock.now = (clock.now / period + 1) * period + 50_000 }
    }
    if variable { source.variableRefreshRange = FrameRate.hz48...FrameRate.hz144 }
    let loop = FrameLoop(source: source)
    loop.drainsMainQueue = false
    DisplayLink { _ in clock.now += work }.add(to: loop, forMode: .common)
    // Reach steady state: the grid fitted and locked, every buffer at its working size.
    for _ in 0..<3_000 { loop.runFrame() }
    let expected = variable ? "variable refresh" : "vsync (60 Hz measured, phase-locked)"
    precondition(
        source.pacingDescription.contains(expected),
        "benchmark setup: expected \(expected), got \(source.pacingDescription)")
    return loop
}

/// PresentSource's own work per frame: taking in the present's return, the vsync grid, the
/// swap-chain model and the drops, or the variable-refresh model.
func presentSourceBenchmarks() {
    presentSourceBenchmark(
        "frame: PresentSource, 60 Hz vsync, present blocking, virtual clock", variable: false, work: 2_000_000)
    presentSourceBenchmark(
        "frame: PresentSource, 48–144 Hz variable refresh, 10 ms frames shown as they come, virtual clock",
        variable: true, work: 10_000_000)
}

/// One benchmark of `makePresentLoop(variable:work:)`'s loop.
func presentSourceBenchmark(_ name: String, variable: Bool, work: Int64) {
    Benchmark(name, configuration: frameConfiguration) { benchmark in
        let iterations = benchmark.scaledIterations
        await MainActor.run {
            let loop = presentLoops[name]!
            for _ in iterations { loop.runFrame() }
            blackHole(loop.statistics.droppedFrames)
        }
    } setup: {
        await MainActor.run { presentLoops[name] = makePresentLoop(variable: variable, work: work) }
    } teardown: {
        await MainActor.run { presentLoops[name] = nil }
    }
}
