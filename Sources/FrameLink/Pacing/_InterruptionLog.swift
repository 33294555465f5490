/// The last 128 interruptions of the deadline pacer's spins, each as its frame index and its start
/// and end offsets from that frame's deadline (negative before it); a fixed ring, so logging one
/// allocates nothing.
struct _InterruptionLog {
    /// One interruption of a spin.
    struct Entry {
        var frame: Int64
        var start: Int64
        var end: Int64
    }

    private var entries = _Ring(capacity: 128, filler: Entry(frame: .min, start: 0, end: 0))

    /// An interruption that ends less than this before its deadline (30 µs), or after it, is a
    /// near miss.
    static let nearMissMargin: Int64 = 30_000

    mutating func append(frame: Int64, start: Int64, end: Int64) {
        entries.append(Entry(frame: frame, start: start, end: end))
    }

    /// The latest interruption, if any.
    var last: (frame: Int64, start: Int64, end: Int64)? {
        entries.last.map { ($0.frame, $0.start, $0.end) }
    }

    /// Whether an interruption in one of `frames` started within `tolerance` of `offset` and ended
    /// less than 30 µs before its deadline (or after it).
    func hasNearMiss(startingAt offset: Int64, within tolerance: Int64, in range: Range<Int64>) -> Bool {
        for age in 0..<entries.count {
            let entry = entries[age: age]
            if range.contains(entry.frame) && entry.end > -Self.nearMissMargin
                && abs(entry.start - offset) <= tolerance
            {
                return true
            }
        }
        return false
    }

    /// How much earlier a deadline should move, between 50 µs and `window` − 50 µs in 10 µs
    /// steps, so that it falls clearest of the interruptions logged for `range`: the fewest of
    /// them within 10 µs before their start to 30 µs after their end, then the farthest from any
    /// of them and from the window's start (what lies before it was not watched). `nil` if the
    /// window is too short to choose in.
    func clearestOffset(window: Int64, frames range: ClosedRange<Int64>) -> Int64? {
        var best: (move: Int64, hits: Int, clearance: Int64)?
        var move: Int64 = 50_000
        while move <= window - 50_000 {
            let deadline = -move
            var hits = 0
            var clearance = deadline + window
            for age in 0..<entries.count {
                let entry = entries[age: age]
                guard range.contains(entry.frame) else { continue }
                let low = entry.start - 10_000
                let high = entry.end + 30_000
                if deadline >= low && deadline <= high {
                    hits += 1
                } else {
                    clearance = min(clearance, deadline < low ? low - deadline : deadline - high)
                }
            }
            let isBetter = best.map { hits < $0.hits || (hits == $0.hits && clearance > $0.clearance) } ?? true
            if isBetter { best = (move, hits, clearance) }
            move += 10_000
        }
        return best?.move
    }

    mutating func removeAll() {
        entries.removeAll()
    }
}
