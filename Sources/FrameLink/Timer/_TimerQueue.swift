/// A loop's deadline queue: a sorted run of entries, plus an unsorted list of new ones merged into
/// it at the start of each pass.
///
/// A frame usually fires a prefix of the run and reschedules most of what it fired a little later,
/// so the queue hands out the prefix in order, then sorts the few new entries (usually already in
/// order: checked, not sorted) and merges them back in one linear pass. That is O(n) per frame,
/// about O(1) per fired timer, with no pointer chasing and no allocation in steady state, where a
/// heap pays O(log n) per fired timer: the `timer queue:` benchmarks in `Benchmarks/` compare it
/// with swift-collections' `Heap` at 100 and 1,000 timers that are all due on every frame.
///
/// Entries are invalidated lazily: the owner says which are live (`isLive`), and stale entries
/// are dropped when they reach the front or when a merge passes them.
///
/// Invariants (checked by ``_checkInvariants()`` in debug builds and with
/// `FRAMELINK_INTERNAL_CHECKS`): `entries[head...]` is sorted; `head` is within `entries`; `kept`
/// is empty outside a pass.
///
/// Public only to FrameLink's benchmarks (`@_spi(Benchmarks)`).
@_spi(Benchmarks)
public struct _TimerQueue: Sendable {
    /// The sorted run is `entries[head...]`.
    private var entries: ContiguousArray<_TimerEntry> = []
    private var head = 0
    /// Entries inserted since the last `prepare`, in any order.
    private var incoming: ContiguousArray<_TimerEntry> = []
    private var scratch: ContiguousArray<_TimerEntry> = []
    /// Entries handed out by the pass under way that stay due (their timer is not in the mode).
    private var kept: ContiguousArray<_TimerEntry> = []

    /// Creates an empty queue.
    public init() {}

    /// The number of entries, live or stale.
    public var count: Int { entries.count - head + incoming.count }

    /// Adds an entry; it takes part from the next ``prepare(isLive:)``.
    public mutating func insert(_ entry: _TimerEntry) {
        incoming.append(entry)
    }

    /// Merges the new entries into the sorted run and drops stale ones at its front.
    public mutating func prepare(isLive: (_TimerEntry) -> Bool) {
        while head < entries.count, !isLive(entries[head]) { head += 1 }
        guard !incoming.isEmpty else {
            compactIfNeeded()
            return
        }
        if !Self.isSorted(incoming) { sortIncoming() }
        let liveCount = entries.count - head
        if liveCount == 0 {
            // Every entry fired (the steady state of timers due each frame): the new ones are the queue.
            swap(&entries, &incoming)
            head = 0
        } else if incoming.count <= 8 && liveCount > 64 {
            for entry in incoming { insertIntoRun(entry) }
        } else {
            merge(isLive: isLive)
        }
        incoming.removeAll(keepingCapacity: true)
        #if DEBUG || FRAMELINK_INTERNAL_CHECKS
            _checkInvariants()
        #endif
    }

    /// Inserts one entry into the sorted run by binary search (few new entries, a long run).
    private mutating func insertIntoRun(_ entry: _TimerEntry) {
        var low = head
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle] < entry { low = middle + 1 } else { high = middle }
        }
        if low == head && head > 0 {
            head -= 1
            entries[head] = entry
        } else {
            entries.insert(entry, at: low)
        }
    }

    /// Merges the sorted `incoming` with the live part of the run, through `scratch`.
    private mutating func merge(isLive: (_TimerEntry) -> Bool) {
        scratch.removeAll(keepingCapacity: true)
        scratch.reserveCapacity(entries.count - head + incoming.count)
        var i = head
        var j = 0
        while i < entries.count && j < incoming.count {
            if incoming[j] < entries[i] {
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

    /// Sorts `incoming` by merging its sorted runs pairwise through `scratch` until one run is
    /// left: the new entries of a pass are a few interleaved runs (timers on different grids), so
    /// this takes a few linear rounds, and it allocates nothing once `scratch` has grown (the
    /// standard library's sort allocates a buffer on every call).
    private mutating func sortIncoming() {
        while true {
            scratch.removeAll(keepingCapacity: true)
            scratch.reserveCapacity(incoming.count)
            var runs = 0
            var start = 0
            while start < incoming.count {
                let middle = endOfRun(from: start)
                let end = middle < incoming.count ? endOfRun(from: middle) : middle
                var i = start
                var j = middle
                while i < middle && j < end {
                    if incoming[j] < incoming[i] {
                        scratch.append(incoming[j])
                        j += 1
                    } else {
                        scratch.append(incoming[i])
                        i += 1
                    }
                }
                while i < middle {
                    scratch.append(incoming[i])
                    i += 1
                }
                while j < end {
                    scratch.append(incoming[j])
                    j += 1
                }
                runs += 1
                start = end
            }
            swap(&incoming, &scratch)
            if runs <= 1 { return }
        }
    }

    /// The end of the sorted run of `incoming` that starts at `start`.
    private func endOfRun(from start: Int) -> Int {
        var end = start + 1
        while end < incoming.count && !(incoming[end] < incoming[end - 1]) { end += 1 }
        return end
    }

    /// Whether the entries are in order. Entries rescheduled by one pass usually are (they are
    /// scheduled in firing order with the same interval), and checking is cheaper than sorting,
    /// which also allocates a buffer.
    private static func isSorted(_ entries: ContiguousArray<_TimerEntry>) -> Bool {
        var index = 1
        while index < entries.count {
            if entries[index] < entries[index - 1] { return false }
            index += 1
        }
        return true
    }

    private mutating func compactIfNeeded() {
        if head > 1024 && head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }

    /// Drops every stale entry (for when stale entries pile up behind live ones).
    public mutating func removeStale(isLive: (_TimerEntry) -> Bool) {
        entries.removeFirst(head)
        head = 0
        entries.removeAll { !isLive($0) }
        incoming.removeAll { !isLive($0) }
    }

    // MARK: A pass

    /// The next entry of the run if it is due by `now`, removed from the run; nil when none is.
    /// Call ``prepare(isLive:)`` before a pass and ``endPass()`` after it.
    public mutating func popDue(by now: Int64) -> _TimerEntry? {
        guard head < entries.count, entries[head].deadline <= now else { return nil }
        head += 1
        return entries[head - 1]
    }

    /// Puts an entry handed out by ``popDue(by:)`` back for later (it stays due): it returns to
    /// the front of the run, in order, at ``endPass()``.
    public mutating func keep(_ entry: _TimerEntry) {
        kept.append(entry)
    }

    /// Ends a pass: the kept entries go back to the front of the run, in the order they came out.
    public mutating func endPass() {
        guard !kept.isEmpty else { return }
        // They came out of `entries[..<head]` in order, so they fit back just before `head`.
        head -= kept.count
        for (offset, entry) in kept.enumerated() { entries[head + offset] = entry }
        kept.removeAll(keepingCapacity: true)
    }

    /// The earliest time an idle loop must wake for the entries that pass `isActive`: the smallest
    /// `latest` (deadline plus tolerance) among them. Call after ``prepare(isLive:)``.
    public func idleWake(isActive: (_TimerEntry) -> Bool) -> Int64? {
        var wake: Int64?
        for index in head..<entries.count {
            let entry = entries[index]
            if let current = wake, entry.deadline > current { break }  // later entries wake later
            if isActive(entry) { wake = min(wake ?? .max, entry.latest) }
        }
        return wake
    }

    /// The number of entries, in the run and new, that pass `isLive`.
    public func count(where isLive: (_TimerEntry) -> Bool) -> Int {
        var live = 0
        for index in head..<entries.count where isLive(entries[index]) { live += 1 }
        for entry in incoming where isLive(entry) { live += 1 }
        return live
    }

    /// Traps, saying what broke, if an invariant of the type does not hold.
    public func _checkInvariants() {
        precondition(head >= 0 && head <= entries.count, "_TimerQueue: head \(head) outside 0...\(entries.count)")
        var index = head + 1
        while index < entries.count {
            precondition(!(entries[index] < entries[index - 1]), "_TimerQueue: the run is out of order at \(index)")
            index += 1
        }
        precondition(kept.isEmpty, "_TimerQueue: kept entries outside a pass")
    }
}
