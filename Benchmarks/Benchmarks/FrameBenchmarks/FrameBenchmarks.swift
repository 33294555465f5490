import Benchmark
import FrameLink

/// A frame loop on virtual time with `links` display links and `timers` repeating timers that are
/// all due on every frame (100 Hz display, 10 ms timers).
@MainActor
final class Workload {
    let source = ManualFrameSource(refreshRate: try! FrameRate(numerator: 100))
    let loop: FrameLoop
    var calls = 0

    final class Target {
        var calls = 0
    }
    var targets: [Target] = []

    init(links: Int, timers: Int, weakTargets: Bool = false) {
        loop = FrameLoop(source: source)
        loop.drainsMainQueue = false
        for _ in 0..<links {
            if weakTargets {
                let target = Target()
                targets.append(target)
                DisplayLink(target: target) { target, _ in target.calls &+= 1 }.add(to: loop, forMode: .common)
            } else {
                DisplayLink { [unowned self] _ in self.calls &+= 1 }.add(to: loop, forMode: .common)
            }
        }
        for _ in 0..<timers {
            if weakTargets {
                let target = Target()
                targets.append(target)
                try! FrameTimer(target: target, interval: .milliseconds(10)) { target, _ in target.calls &+= 1 }
                    .add(to: loop, forMode: .common)
            } else {
                try! FrameTimer(interval: .milliseconds(10), repeats: true) { [unowned self] _ in self.calls &+= 1 }
                    .add(to: loop, forMode: .common)
            }
        }
        // Reach steady state: buffers grown to their working size.
        for _ in 0..<10 { try! source.advance(frames: 1) }
    }

    func frame() {
        try! source.advance(frames: 1)
    }
}

nonisolated(unsafe) var workload: Workload?

/// Runs main-actor code on the benchmark's thread. package-benchmark runs benchmarks off the main
/// thread; the workload is touched by this thread only, so skipping the isolation check is safe here
/// (and only here: FrameLink's own code never does this).
func onBenchmarkThread(_ body: @MainActor () -> Void) {
    typealias Plain = () -> Void
    withoutActuallyEscaping(body) { body in
        unsafeBitCast(body, to: Plain.self)()
    }
}

func frameBenchmark(_ name: String, links: Int, timers: Int, weakTargets: Bool = false, drainsMainQueue: Bool = false) {
    Benchmark(
        name,
        configuration: .init(
            metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
            timeUnits: .microseconds,
            maxDuration: .seconds(3),
            maxIterations: 100_000
        )
    ) { benchmark in
        let iterations = benchmark.scaledIterations
        onBenchmarkThread {
            let work = workload!
            for _ in iterations {
                work.frame()
            }
            blackHole(work.calls)
        }
    } setup: {
        onBenchmarkThread {
            let work = Workload(links: links, timers: timers, weakTargets: weakTargets)
            work.loop.drainsMainQueue = drainsMainQueue
            workload = work
        }
    } teardown: {
        workload = nil
    }
}

let benchmarks: @Sendable () -> Void = {
    // The harness's own cost: compare the frames below with it.
    frameBenchmark("frame: empty loop", links: 0, timers: 0)
    frameBenchmark("frame: 10,000 links + 10,000 due timers", links: 10_000, timers: 10_000)
    frameBenchmark("frame: 10,000 links", links: 10_000, timers: 0)
    frameBenchmark("frame: 10,000 due timers", links: 0, timers: 10_000)
    frameBenchmark(
        "frame: 10,000 weak-target links + 10,000 weak-target timers", links: 10_000, timers: 10_000, weakTargets: true)
}
