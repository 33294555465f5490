import Benchmark
import FrameLink

/// One million frames of CSV frame log (a minute-long stall every 10,000 frames, a 3-period frame
/// every 100th), made in the setup so that the benchmarks measure reading and replaying only.
@MainActor var millionFrameLog = ""

/// A CSV frame log of `frames` frames at 60 Hz with regular drops, as a recording would hold.
@MainActor
func makeFrameLog(frames: Int) throws -> String {
    let period: Int64 = 16_666_667
    var records: [FrameRecord] = []
    records.reserveCapacity(frames)
    var timestamp: Int64 = 0
    for index in 1...Int64(frames) {
        let interval = index % 10_000 == 0 ? 60_000_000_000 : index % 100 == 0 ? 3 * period : period
        timestamp += interval
        var phases = PhaseDurations()
        phases[.presentWait] = .nanoseconds(interval / 2)
        phases[.links] = .nanoseconds(interval / 4)
        records.append(
            FrameRecord(
                index: index, timestamp: FrameInstant(nanoseconds: timestamp), interval: .nanoseconds(interval),
                droppedFrames: FrameRecord.droppedFrames(
                    interval: .nanoseconds(interval), period: .nanoseconds(period)),
                phases: phases))
    }
    let log = FrameLog(records: records, period: .nanoseconds(period))
    try log.validate()
    return log.csv
}

/// Reading and replaying a long recording: the pacing article's record-and-replay section promises that replay is pure virtual time
/// (one million frames in well under 10 s, with nothing waiting in real time).
func replayBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .milliseconds, warmupIterations: 0,
        maxDuration: .seconds(120), maxIterations: 3)
    Benchmark("frame log: read and check 1,000,000 frames of CSV", configuration: configuration) { _ in
        try await MainActor.run {
            let log = try FrameLog(csv: millionFrameLog)
            blackHole(log.records.count)
        }
    } setup: {
        try await MainActor.run { millionFrameLog = try makeFrameLog(frames: 1_000_000) }
    } teardown: {
        await MainActor.run { millionFrameLog = "" }
    }
    Benchmark(
        "replay: 1,000,000 recorded frames on virtual time (read, checked, replayed)", configuration: configuration
    ) {
        _ in
        try await MainActor.run {
            let log = try FrameLog(csv: millionFrameLog)
            let source = try ManualFrameSource(replaying: log)
            let loop = FrameLoop(source: source)  // drains the main queue, as by default
            DisplayLink { _ in }.add(to: loop, forMode: .common)
            source.advance(frames: log.records.count + 1)
            precondition(loop.statistics.report.frames == log.records.count, "the replay reproduces every interval")
            blackHole(loop.statistics.report)
        }
    } setup: {
        try await MainActor.run { millionFrameLog = try makeFrameLog(frames: 1_000_000) }
    } teardown: {
        await MainActor.run { millionFrameLog = "" }
    }
}
