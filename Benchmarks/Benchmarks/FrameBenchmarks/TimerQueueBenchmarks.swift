import Benchmark
@_spi(Benchmarks) import FrameLink
import HeapModule

/// The loop's timer queue against swift-collections' `Heap`, on the workload of a frame whose
/// timers are all due: every entry comes out in order and goes back one interval later.
///
/// FrameLink keeps its own queue (a sorted run plus a merge of the few new entries) rather than a
/// heap because of this comparison: see `_TimerQueue`.
struct TimerQueueWorkload {
    let interval: Int64 = 10_000_000
    var now: Int64 = 0
    var sequence: UInt64 = 0
    var queue = _TimerQueue()
    var heap = Heap<_TimerEntry>()

    init(timers: Int) {
        for slot in 0..<timers {
            let entry = makeEntry(deadline: interval, slot: Int32(slot))
            queue.insert(entry)
            heap.insert(entry)
        }
    }

    mutating func makeEntry(deadline: Int64, slot: Int32) -> _TimerEntry {
        sequence += 1
        return _TimerEntry(deadline: deadline, sequence: sequence, slot: slot, latest: deadline)
    }

    /// One frame on FrameLink's queue; returns how many entries fired.
    mutating func queueFrame() -> Int {
        now += interval
        var fired = 0
        queue.prepare { _ in true }
        while let entry = queue.popDue(by: now) {
            queue.insert(makeEntry(deadline: entry.deadline + interval, slot: entry.slot))
            fired += 1
        }
        queue.endPass()
        return fired
    }

    /// One frame on the heap; returns how many entries fired.
    mutating func heapFrame() -> Int {
        now += interval
        var fired = 0
        while let entry = heap.min, entry.deadline <= now {
            heap.replaceMin(with: makeEntry(deadline: entry.deadline + interval, slot: entry.slot))
            fired += 1
        }
        return fired
    }
}

/// As ``frameConfiguration``, in nanoseconds: a frame of the queue alone takes a few microseconds.
var queueConfiguration: Benchmark.Configuration {
    var configuration = frameConfiguration
    configuration.timeUnits = .nanoseconds
    return configuration
}

func timerQueueBenchmarks() {
    for (count, written) in [(100, "100"), (1_000, "1,000")] {
        Benchmark("timer queue: \(written) timers all due, FrameLink's queue", configuration: queueConfiguration) {
            benchmark in
            var work = TimerQueueWorkload(timers: count)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(work.queueFrame()) }
        }
        Benchmark("timer queue: \(written) timers all due, swift-collections Heap", configuration: queueConfiguration) {
            benchmark in
            var work = TimerQueueWorkload(timers: count)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(work.heapFrame()) }
        }
    }
}
