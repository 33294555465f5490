import Benchmark
@_spi(FrameSourceImplementation) import FrameLink

/// A frame source that never waits, yet whose clock reads the real monotonic clock, as
/// DeadlineSource's and PresentSource's do, so that the per-callback timing for blame costs what it
/// costs in a game. Each frame also moves the clock one 100 Hz period ahead, so that 10 ms timers
/// are due on every frame.
@MainActor
final class RealClockSource: FrameSource {
    let refreshRate = FrameRate(numerator: 100)
    let clock: any PacingClock = SkippingClock()
    let epochNanoseconds: Int64 = 0
    var pacingDescription: String { "benchmark: no waiting, real clock" }

    func nextFrameWait() -> FrameWait {
        .sleep(until: FrameInstant(nanoseconds: clock.nanoseconds() + refreshRate.periodNanoseconds))
    }

    func beginFrame(at instant: FrameInstant) -> FrameInstant { instant }

    func expectedTimestamp(frames: Int64, after timestamp: FrameInstant) -> FrameInstant {
        FrameInstant(nanoseconds: timestamp.nanoseconds + frames * refreshRate.periodNanoseconds)
    }
}

/// A frame loop with `links` display links and `timers` repeating timers that are all due on every
/// frame (100 Hz display, 10 ms timers), on virtual time (ManualFrameSource) unless `realClock`.
///
/// The callbacks only count their calls, in storage without run-time exclusivity checks and through
/// a strong capture, so that the figures are FrameLink's dispatch cost rather than the callbacks'
/// (a `var` of a class, which Swift checks dynamically, or an `unowned` capture would each add
/// about 10 ns per call).
@MainActor
final class Workload {
    let source: any FrameSource
    let manualSource: ManualFrameSource?
    let loop: FrameLoop
    let counter = Target()
    var calls: Int { counter.calls }

    final class Target {
        @exclusivity(unchecked) var calls = 0
    }
    var targets: [Target] = []

    init(
        links: Int, timers: Int, weakTargets: Bool = false, realClock: Bool = false, measuresCallbacks: Bool = true,
        frameRateRanges: Bool = false
    ) {
        if realClock {
            source = RealClockSource()
            manualSource = nil
        } else {
            let manual = ManualFrameSource(refreshRate: FrameRate(numerator: 100))
            source = manual
            manualSource = manual
        }
        loop = FrameLoop(source: source)
        loop.drainsMainQueue = false
        loop.measuresCallbacks = measuresCallbacks
        // With ranges: the loop at 50 Hz (every 2nd refresh of the 100 Hz display) and its links
        // at every 1st, 2nd and 5th of its frames.
        let ranges: [FrameRateRange?] = [nil, FrameRateRange(exactly: 25), FrameRateRange(minimum: 8, maximum: 12)]
        if frameRateRanges { loop.preferredFrameRateRange = FrameRateRange(minimum: 40, maximum: 60, preferred: 50) }
        for index in 0..<links {
            if weakTargets {
                let target = Target()
                targets.append(target)
                DisplayLink(target: target) { target, _ in target.calls &+= 1 }.add(to: loop, forMode: .common)
            } else {
                let link = DisplayLink { [counter] _ in counter.calls &+= 1 }
                if frameRateRanges { link.preferredFrameRateRange = ranges[index % ranges.count] }
                link.add(to: loop, forMode: .common)
            }
        }
        for _ in 0..<timers {
            if weakTargets {
                let target = Target()
                targets.append(target)
                FrameTimer(target: target, interval: .milliseconds(10)) { target, _ in target.calls &+= 1 }
                    .add(to: loop, forMode: .common)
            } else {
                FrameTimer(interval: .milliseconds(10), repeats: true) { [counter] _ in counter.calls &+= 1 }
                    .add(to: loop, forMode: .common)
            }
        }
        // Reach steady state: buffers grown to their working size.
        for _ in 0..<10 { frame() }
    }

    func frame() {
        if let manualSource {
            manualSource.advance(frames: 1)
        } else {
            loop.runFrame()
        }
    }
}

/// The workload of the benchmark being run. Benchmarks run off the main thread, so the workload
/// is made, run and released on the main actor through `MainActor.run` (one hop per sample, which
/// the empty-loop benchmark's figures include too).
@MainActor var workload: Workload?

/// Per-frame metrics (mallocs included): each sample runs 1,000 frames and the figures are per
/// frame, so the harness's own cost per sample (the hop to the main actor, about 15–20 µs, and its
/// 16–20 mallocs) is spread over 1,000 frames, and an allocation on the frame path shows as at
/// least 1 malloc per frame. Up to 3 s or 1,000 samples per benchmark.
var frameConfiguration: Benchmark.Configuration {
    .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        timeUnits: .microseconds,
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 1_000
    )
}

func frameBenchmark(
    _ name: String, links: Int, timers: Int, weakTargets: Bool = false, drainsMainQueue: Bool = false,
    realClock: Bool = false, measuresCallbacks: Bool = true, frameRateRanges: Bool = false
) {
    Benchmark(
        name,
        configuration: frameConfiguration
    ) { benchmark in
        let iterations = benchmark.scaledIterations
        await MainActor.run {
            let work = workload!
            for _ in iterations {
                work.frame()
            }
            blackHole(work.calls)
        }
    } setup: {
        await MainActor.run {
            let work = Workload(
                links: links, timers: timers, weakTargets: weakTargets, realClock: realClock,
                measuresCallbacks: measuresCallbacks, frameRateRanges: frameRateRanges)
            work.loop.drainsMainQueue = drainsMainQueue
            workload = work
        }
    } teardown: {
        await MainActor.run { workload = nil }
    }
}

/// A virtual clock with a 30 µs interruption every 997 µs: its phase drifts across a 60 Hz grid's
/// deadlines, so DeadlineSource keeps seeing interruptions in its spin, logging them, and moving
/// its grid (at most once every 120 frames).
@MainActor
final class BurstingClock: PacingClock {
    private var now: Int64 = 0
    private var nextBurst: Int64 = 987_000
    private let every: Int64 = 997_000
    private let length: Int64 = 30_000

    func nanoseconds() -> Int64 { now }
    var sleepsInRealTime: Bool { false }

    func sleep(untilNanoseconds deadline: Int64) {
        var target = max(now, deadline)
        while nextBurst <= target {
            target = max(target, nextBurst + length)
            nextBurst += every
        }
        now = target
    }
}

@MainActor var pacedLoop: (loop: FrameLoop, source: DeadlineSource)?

/// One DeadlineSource frame (a sleep to 300 µs before the deadline, then to the deadline) on a
/// `BurstingClock`: the pacer's own work.
func deadlineBenchmark() {
    Benchmark(
        "frame: DeadlineSource wait, virtual clock with drifting interruptions",
        configuration: frameConfiguration
    ) { benchmark in
        let iterations = benchmark.scaledIterations
        await MainActor.run {
            let (loop, source) = pacedLoop!
            for _ in iterations {
                loop.runFrame()
            }
            blackHole(loop.waiter.currentSpin)
            blackHole(source)
        }
    } setup: {
        await MainActor.run {
            let source = DeadlineSource(refreshRate: .hz60, clock: BurstingClock())
            let loop = FrameLoop(source: source)
            loop.waiter.spin = .microseconds(300)
            loop.drainsMainQueue = false
            // A link keeps the loop pacing frames (an empty loop waits idle, without a spin).
            DisplayLink { _ in }.add(to: loop, forMode: .common)
            // Reach steady state.
            for _ in 0..<1_000 { loop.runFrame() }
            pacedLoop = (loop, source)
        }
    } teardown: {
        await MainActor.run { pacedLoop = nil }
    }
}

let benchmarks: @Sendable () -> Void = {
    // The harness's own cost: compare the frames below with it.
    frameBenchmark("frame: empty loop", links: 0, timers: 0)
    // Game scale: every link called and every timer due on every frame, on the real clock, with
    // each callback timed for blame (one clock read per callback) and without.
    for (count, written) in [(50, "50"), (500, "500"), (1_000, "1,000"), (10_000, "10,000")] {
        let name = "frame: \(written) links + \(written) due timers, real clock"
        frameBenchmark(name + ", timed", links: count, timers: count, realClock: true)
        frameBenchmark(name + ", not timed", links: count, timers: count, realClock: true, measuresCallbacks: false)
    }
    // On virtual time (no clock reads at all), and the two halves apart.
    frameBenchmark("frame: 10,000 links + 10,000 due timers", links: 10_000, timers: 10_000)
    frameBenchmark("frame: 10,000 links", links: 10_000, timers: 0)
    frameBenchmark("frame: 10,000 due timers", links: 0, timers: 10_000)
    // Frame-rate ranges: a loop at half the display's rate, links at three rates of it.
    frameBenchmark(
        "frame: 10,000 links with frame-rate ranges, loop at 50 of 100 Hz", links: 10_000, timers: 0,
        frameRateRanges: true)
    frameBenchmark(
        "frame: 10,000 weak-target links + 10,000 weak-target timers", links: 10_000, timers: 10_000, weakTargets: true)
    // The deadline pacer's own work per frame, interruption watching included.
    deadlineBenchmark()
    // PresentSource's own work per frame, on a fixed vsync and on variable refresh.
    presentSourceBenchmarks()
    // The timer queue alone, against a heap.
    timerQueueBenchmarks()
    // Reading and replaying a long recording.
    replayBenchmarks()
}
