@_spi(Benchmarks) import FrameLink
import Testing

/// The loop's timer queue against a plain sorted-array model: whatever is inserted, in any order,
/// comes out in deadline order, and kept entries come back in front.
@Suite("Timer queue")
struct TimerQueueTests {
    @Test("200 seeded rounds of random inserts, stale entries, passes and kept entries match a sorted model")
    func matchesModel() {
        var random = SplitMix64(seed: 42)  // seeded, so that a failure reproduces
        var queue = _TimerQueue()
        var model: [_TimerEntry] = []
        var stale = Set<UInt64>()
        var sequence: UInt64 = 0
        var now: Int64 = 0
        for _ in 0..<200 {
            // New entries: several interleaved runs (timers on different grids), sometimes random.
            for _ in 0..<Int.random(in: 0...60, using: &random) {
                sequence += 1
                let deadline = now + Int64.random(in: 1...50, using: &random) * 1_000
                let entry = _TimerEntry(deadline: deadline, sequence: sequence, slot: 0, latest: deadline)
                queue.insert(entry)
                model.append(entry)
            }
            // Some become stale (their timer was rescheduled or invalidated).
            for entry in model where Int.random(in: 0..<10, using: &random) == 0 { stale.insert(entry.sequence) }
            model.removeAll { stale.contains($0.sequence) }
            model.sort()
            now += Int64.random(in: 0...20, using: &random) * 1_000
            queue.prepare { !stale.contains($0.sequence) }
            // A pass: every live entry due by `now` comes out in order; some are kept.
            var out: [_TimerEntry] = []
            var kept: [_TimerEntry] = []
            while let entry = queue.popDue(by: now) {
                guard !stale.contains(entry.sequence) else { continue }
                out.append(entry)
                if Int.random(in: 0..<4, using: &random) == 0 {
                    queue.keep(entry)
                    kept.append(entry)
                }
            }
            queue.endPass()
            let due = model.prefix { $0.deadline <= now }
            #expect(out == Array(due))
            model.removeFirst(due.count)
            model.insert(contentsOf: kept, at: 0)
            queue._checkInvariants()
            #expect(queue.count(where: { !stale.contains($0.sequence) }) == model.count)
        }
    }
}
