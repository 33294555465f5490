/// One scheduled fire of a timer: ordered by deadline, then by scheduling order (first in, first out).
struct _TimerEntry {
    var deadline: Int64
    var sequence: UInt64
    var slot: Int32
    var latest: Int64  // deadline + tolerance, for idle wake-ups

    @inline(__always)
    static func precedes(_ a: _TimerEntry, _ b: _TimerEntry) -> Bool {
        a.deadline < b.deadline || (a.deadline == b.deadline && a.sequence < b.sequence)
    }
}

/// The loop's deadline queue: a sorted run of entries plus an unsorted list of new ones.
///
/// A frame usually fires a prefix of the run and reschedules most of what it fired a little later,
/// so the queue fires the prefix in order, then sorts the few new entries and merges them back in
/// one linear pass. That costs O(n) per frame with no pointer chasing and no allocation in steady
/// state, where a binary heap pays O(log n) per fired timer (measured in Benchmarks/).
/// Entries are invalidated lazily: an entry is live only while its timer's `sequence` matches.
final class _TimerQueue {
    /// Sorted live region is `entries[head...]`.
    @exclusivity(unchecked) private(set) var entries: ContiguousArray<_TimerEntry> = []
    @exclusivity(unchecked) private(set) var head = 0
    @exclusivity(unchecked) private var incoming: ContiguousArray<_TimerEntry> = []
    @exclusivity(unchecked) private var scratch: ContiguousArray<_TimerEntry> = []
    @exclusivity(unchecked) private var nextSequence: UInt64 = 1

    /// The number of entries, live or stale.
    var count: Int { entries.count - head + incoming.count }

    /// Returns a fresh sequence number for an entry about to be inserted.
    func makeSequence() -> UInt64 {
        defer { nextSequence &+= 1 }
        return nextSequence
    }

    /// Adds an entry; it takes part from the next `prepare()`.
    func insert(_ entry: _TimerEntry) {
        incoming.append(entry)
    }

    /// Merges new entries into the sorted run and drops stale ones at the front.
    func prepare(isLive: (_TimerEntry) -> Bool) {
        while head < entries.count, !isLive(entries[head]) { head += 1 }
        guard !incoming.isEmpty else {
            compactIfNeeded()
            return
        }
        if !Self.isSorted(incoming) {
            incoming.sort(by: _TimerEntry.precedes)
        }
        let liveCount = entries.count - head
        if liveCount == 0 {
            // Every entry fired (the steady state of timers due each frame): the new ones are the queue.
            swap(&entries, &incoming)
            head = 0
        } else if incoming.count <= 8 && liveCount > 64 {
            for entry in incoming {
                var low = head
                var high = entries.count
                while low < high {
                    let middle = (low + high) / 2
                    if _TimerEntry.precedes(entries[middle], entry) { low = middle + 1 } else { high = middle }
                }
                if low == head && head > 0 {
                    head -= 1
                    entries[head] = entry
                } else {
                    entries.insert(entry, at: low)
                }
            }
        } else {
            scratch.removeAll(keepingCapacity: true)
            scratch.reserveCapacity(liveCount + incoming.count)
            var i = head
            var j = 0
            while i < entries.count && j < incoming.count {
                if _TimerEntry.precedes(incoming[j], entries[i]) {
                    scratch.append(incoming[j])
                    j += 1
                } else {
                    if isLive(entries[i]) { scratch.append(entries[i]) }
                    i += 1
                }
            }
            while i < entries.count {
                if isLive(entries[i]) { scratch.append(entries[i]) }
                i += 1
            }
            while j < incoming.count {
                scratch.append(incoming[j])
                j += 1
            }
            swap(&entries, &scratch)
            head = 0
        }
        incoming.removeAll(keepingCapacity: true)
    }

    /// Whether the entries are in order. Entries rescheduled by one pass usually are (they are
    /// scheduled in firing order with the same interval), and checking is cheaper than sorting,
    /// which also allocates a buffer.
    private static func isSorted(_ entries: ContiguousArray<_TimerEntry>) -> Bool {
        var index = 1
        while index < entries.count {
            if _TimerEntry.precedes(entries[index], entries[index - 1]) { return false }
            index += 1
        }
        return true
    }

    private func compactIfNeeded() {
        if head > 1024 && head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }

    /// Entries that were due but not fired (their timer is not in the current mode), in order.
    @exclusivity(unchecked) var kept: ContiguousArray<_TimerEntry> = []

    /// After a pass that consumed `entries[head..<end]`, puts the kept entries back, in order, just
    /// before `end`, and makes them the new front of the queue.
    func restoreKept(before end: Int) {
        head = end - kept.count
        for (offset, entry) in kept.enumerated() {
            entries[head + offset] = entry
        }
    }

    /// The earliest time the loop must wake for live entries that pass `isActive`: the smallest
    /// `latest` (deadline plus tolerance) among entries whose deadline comes before it.
    func idleWake(isActive: (_TimerEntry) -> Bool) -> Int64? {
        var wake: Int64?
        for index in head..<entries.count {
            let entry = entries[index]
            if let current = wake, entry.deadline > current { break }
            if isActive(entry) {
                wake = min(wake ?? .max, entry.latest)
            }
        }
        return wake
    }
}
