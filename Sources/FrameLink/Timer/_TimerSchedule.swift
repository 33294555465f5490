/// The timers of one ``FrameLoop``: which timers the loop holds, in which modes, when each is due,
/// and the pass that fires the due ones.
///
/// Each timer the loop holds has a slot: the timer itself (the loop's strong reference), its modes,
/// and the sequence number of its live entry in `queue` (0 while it is not scheduled). The queue
/// (``_TimerQueue``) orders ``_TimerEntry`` values by deadline; rescheduling a timer gives it a new
/// entry and leaves the old one stale, to be dropped when it reaches the front or a merge passes it
/// (or by a sweep when stale entries outnumber live ones).
///
/// The invariants (checked by ``checkInvariants()`` after every fire pass in debug builds and with
/// `FRAMELINK_INTERNAL_CHECKS`):
/// - a slot holds a timer exactly when it is not on the free list, and that timer's `slot` is it;
/// - each slot with a non-zero sequence has one live entry, in the queue or in `pending`;
/// - `scheduledCount` is the number of slots with a non-zero sequence.
@MainActor
final class _TimerSchedule {
    /// One timer the loop holds.
    struct Slot {
        var timer: FrameTimer?
        /// The sequence of the timer's live entry, or 0 while it is not scheduled.
        var sequence: UInt64 = 0
        /// The modes the timer was added for, as the loop's mode bits.
        var modeMask: UInt64 = 0
    }

    private var slots: ContiguousArray<Slot> = []
    private var freeSlots: [Int32] = []
    private var queue = _TimerQueue()
    /// Entries scheduled while a fire pass runs (the pass owns the queue then): they join the queue
    /// when the pass ends and take part from the next frame.
    private var pending: ContiguousArray<_TimerEntry> = []
    private var nextSequence: UInt64 = 1
    private var scheduledCount = 0
    private var isFiring = false
    /// The timers with a weak target, checked once per frame for a target that is gone.
    private var weakTargetTimers: ContiguousArray<FrameTimer> = []

    /// The number of timers held (in any mode, paused or not).
    var count: Int { slots.count - freeSlots.count }

    // MARK: Holding timers

    /// Holds `timer` (giving it a slot on first use) and adds `modeBit` to its modes.
    func register(_ timer: FrameTimer, modeBit: UInt64) {
        if timer.slot < 0 {
            let slot: Int32
            if let free = freeSlots.popLast() {
                slot = free
                slots[Int(slot)] = Slot(timer: timer)
            } else {
                slot = Int32(slots.count)
                slots.append(Slot(timer: timer))
            }
            timer.slot = slot
            if timer.hasWeakTarget { weakTargetTimers.append(timer) }
        }
        slots[Int(timer.slot)].modeMask |= modeBit
    }

    /// Lets go of `timer`: unschedules it and frees its slot. A pass that is calling it keeps its
    /// own reference until the call returns.
    func release(_ timer: FrameTimer) {
        let slot = Int(timer.slot)
        guard slot >= 0 else { return }
        if slots[slot].sequence != 0 { scheduledCount -= 1 }
        slots[slot] = Slot()
        freeSlots.append(Int32(slot))
        timer.slot = -1
    }

    /// Schedules `timer` (which the schedule holds) to fire at `fireDate`, replacing its current
    /// fire date.
    func schedule(_ timer: FrameTimer, fireDate: Int64) {
        let slot = Int(timer.slot)
        guard slot >= 0 else { return }
        let entry = makeEntry(slot: slot, deadline: fireDate, tolerance: timer.toleranceNanoseconds)
        if isFiring {
            pending.append(entry)
        } else {
            queue.insert(entry)
            removeStaleIfPiledUp()
        }
    }

    /// Unschedules `timer`: it stays held but does not fire until scheduled again.
    func unschedule(_ timer: FrameTimer) {
        let slot = Int(timer.slot)
        guard slot >= 0, slots[slot].sequence != 0 else { return }
        slots[slot].sequence = 0
        scheduledCount -= 1
    }

    /// Gives `slot` a new live entry (the old one, if any, becomes stale).
    private func makeEntry(slot: Int, deadline: Int64, tolerance: Int64) -> _TimerEntry {
        let sequence = nextSequence
        nextSequence &+= 1
        if slots[slot].sequence == 0 { scheduledCount += 1 }
        slots[slot].sequence = sequence
        return _TimerEntry(deadline: deadline, sequence: sequence, slot: Int32(slot), latest: deadline &+ tolerance)
    }

    private func isLive(_ entry: _TimerEntry) -> Bool {
        slots[Int(entry.slot)].sequence == entry.sequence
    }

    /// Drops the stale entries when they are more than half of the queue (a timer rescheduled
    /// again and again before it fires, or many invalidated far from their dates).
    private func removeStaleIfPiledUp() {
        guard queue.count > 64 && queue.count > 2 * scheduledCount else { return }
        queue.removeStale(isLive: isLive)
    }

    // MARK: Firing

    /// Fires every timer due by `now` that runs in `mask`, in deadline order, and returns.
    ///
    /// A repeating timer is rescheduled before its closure runs (to the first date on its grid
    /// after `now`, so that missed dates coalesce into this one fire), so the closure may
    /// reschedule or invalidate it. Timers scheduled during the pass fire from the next frame.
    /// Each call is timed for blame when `clock` is given.
    func fireDue(
        by now: Int64, mask: UInt64, frameIndex: Int64, blame: inout _FrameBlame, clock: (any FrameSource)?
    ) {
        // The pass owns the queue: timers scheduled by callbacks wait in `pending`.
        var queue = _TimerQueue()
        swap(&queue, &self.queue)
        isFiring = true
        queue.prepare(isLive: isLive)
        var mark = clock?.now.nanoseconds ?? 0
        while let entry = queue.popDue(by: now) {
            let slot = Int(entry.slot)
            let state = slots[slot]
            guard state.sequence == entry.sequence, let timer = state.timer else { continue }  // stale
            guard state.modeMask & mask != 0 else {
                queue.keep(entry)  // not in this mode: stays due
                continue
            }
            // `timer` is the pass's own reference: the closure may invalidate the timer, which
            // frees the slot.
            if let next = timer.beginFire(now: now, scheduledFor: entry.deadline, frameIndex: frameIndex) {
                // Rescheduled before the call, so that the closure may reschedule or invalidate it.
                let sequence = nextSequence
                nextSequence = sequence &+ 1
                slots[slot].sequence = sequence  // still scheduled: the count does not change
                queue.insert(
                    _TimerEntry(
                        deadline: next, sequence: sequence, slot: entry.slot, latest: next &+ timer.toleranceNanoseconds
                    ))
                timer.callFromLoop()
            } else {
                slots[slot].sequence = 0
                scheduledCount -= 1
                timer.callFromLoop()
                timer.invalidate()
            }
            if let clock {
                let end = clock.now.nanoseconds
                blame.note(.timer(timer), from: mark, to: end)
                mark = end
            }
        }
        queue.endPass()
        isFiring = false
        for entry in pending { queue.insert(entry) }
        pending.removeAll(keepingCapacity: true)
        swap(&queue, &self.queue)
        removeStaleIfPiledUp()
        #if DEBUG || FRAMELINK_INTERNAL_CHECKS
            checkInvariants()
        #endif
    }

    /// The earliest time an idle loop must wake for the timers that run in `mask`: the smallest
    /// deadline-plus-tolerance among them, so that one wake-up can serve several timers.
    func idleWake(mask: UInt64) -> Int64? {
        queue.prepare(isLive: isLive)
        return queue.idleWake { isLive($0) && slots[Int($0.slot)].modeMask & mask != 0 }
    }

    /// The earliest fire date among the scheduled timers that run in `mask`.
    func nextFireDate(mask: UInt64) -> Int64? {
        var earliest: Int64?
        for slot in slots where slot.sequence != 0 && slot.modeMask & mask != 0 {
            if let timer = slot.timer { earliest = min(earliest ?? .max, timer.fireDate.nanoseconds) }
        }
        return earliest
    }

    // MARK: Weak targets

    /// Invalidates the timers whose weak target is gone (see ``_WeakTargetItem``).
    func sweepWeakTargets(frameIndex: Int64) {
        guard !weakTargetTimers.isEmpty else { return }
        var items = ContiguousArray<FrameTimer>()
        swap(&items, &weakTargetTimers)  // taken out: the sweep calls out, and may add items
        FrameTimer.sweep(&items, frameIndex: frameIndex)
        if !weakTargetTimers.isEmpty { items.append(contentsOf: weakTargetTimers) }  // added during the sweep
        swap(&items, &weakTargetTimers)
    }

    // MARK: Invariants

    /// Checks the invariants listed in the type's documentation; traps with what broke. It
    /// allocates nothing, so that debug builds can run it after every pass.
    func checkInvariants() {
        var emptySlots = 0
        var scheduled = 0
        for index in slots.indices {
            guard let timer = slots[index].timer else {
                emptySlots += 1
                precondition(slots[index].sequence == 0, "_TimerSchedule: empty slot \(index) is scheduled")
                continue
            }
            precondition(timer.slot == Int32(index), "_TimerSchedule: slot \(index) and its timer disagree")
            if slots[index].sequence != 0 { scheduled += 1 }
        }
        precondition(
            emptySlots == freeSlots.count, "_TimerSchedule: \(emptySlots) empty slots, \(freeSlots.count) free")
        for slot in freeSlots {
            precondition(slots[Int(slot)].timer == nil, "_TimerSchedule: free slot \(slot) holds a timer")
        }
        precondition(scheduled == scheduledCount, "_TimerSchedule: \(scheduled) scheduled, counted \(scheduledCount)")
        queue._checkInvariants()
        // Each live entry matches its slot's sequence, and sequences are unique to a scheduling, so
        // as many live entries as scheduled slots means one each.
        let live = queue.count(where: isLive)
        precondition(live == scheduledCount, "_TimerSchedule: \(live) live entries for \(scheduledCount) timers")
    }
}
