/// Where a leaf animation sits in its timeline, for entries off the fast path (a timing other than
/// the default, a part of a group or sequence, or a paused animation).
struct _Placement {
    /// The timing of the timeline (the group's timing for a part of a group).
    var timing: AnimationTiming
    /// The length of one cycle of the timeline: the animation's duration, or the group's.
    var cycle: Double
    /// Where the animation starts within a cycle (its offset in a sequence, plus its own delay).
    var start: Double
    /// The part of a cycle in which this animation writes its property: from `windowStart`
    /// (−∞ for the first animation of its key in the group) to `windowEnd` (+∞ for the last).
    var windowStart: Double
    var windowEnd: Double
    /// The elapsed time at which the animation is frozen, or NaN while it runs.
    var pausedElapsed: Double

    static func standalone(timing: AnimationTiming, delay: Double, duration: Double) -> _Placement {
        let shifted = AnimationTiming(
            uncheckedDelay: timing.delay + delay, speed: timing.speed, repeatCount: timing.repeatCount,
            autoreverses: timing.autoreverses, fill: timing.fill)
        return _Placement(
            timing: shifted, cycle: duration, start: 0, windowStart: -.infinity, windowEnd: .infinity,
            pausedElapsed: .nan)
    }
}

/// The per-frame state of one stored animation.
struct _Clock {
    /// The animator time at which the animation's timeline starts (before any delay).
    var begin: Double
    /// The index of the entry's `_Placement`, or −1 on the fast path.
    var placement: Int32
    /// `_ClockState` bits; 0 on the fast path while running.
    var state: UInt32
}

/// The bits of `_Clock.state`.
enum _ClockState {
    /// Uses a `_Placement` (timing, group window or pause).
    static let complex: UInt32 = 1
    /// Frozen by `AnimationHandle.pause()`.
    static let paused: UInt32 = 2
    /// Writes nothing this frame (waiting, or outside its window in a group).
    static let silent: UInt32 = 4
    /// Finished or cancelled; removed at the end of the frame.
    static let done: UInt32 = 8
    /// Cancelled, replaced, or its target is gone.
    static let cancelled: UInt32 = 16
    /// Writes straight into ``AnimatedValues`` storage in the first pass: no callback.
    static let direct: UInt32 = 32

    /// Entries that receive no callback this frame.
    static let skipDelivery: UInt32 = paused | silent | cancelled | direct
}

/// Where an animation's values go.
///
/// The frame path calls a sink through `Unmanaged._withUnsafeGuaranteedRef`, so that neither the
/// sink nor its closure is retained per call: the store's array keeps every sink alive until
/// compaction, which never happens during a pass. The closures are main-actor closures kept as
/// plain function values (the same representation), so that this borrowing call, made from a
/// `@Sendable` closure, needs no per-call isolation check; the store only calls them on the main
/// actor.
final class _Sink<Value>: @unchecked Sendable {
    typealias Update = (Value) -> Void
    typealias Write = (Value) -> Bool

    // Same-layout wrappers: casting them (not the closures themselves) strips the isolation from
    // the type without reabstraction thunks.
    private struct IsolatedUpdate {
        let body: @MainActor (Value) -> Void
    }
    private struct PlainUpdate {
        let body: Update
    }
    private struct IsolatedWrite {
        let body: @MainActor (Value) -> Bool
    }
    private struct PlainWrite {
        let body: Write
    }

    /// Where the values go without a callback (``AnimatedValues`` storage), or nil.
    let destination: UnsafeMutablePointer<Value>?
    /// Keeps the storage of `destination` alive.
    private let storage: AnyObject?

    /// Called with every value, unless the sink writes to a weak target.
    private let update: Update
    /// Writes to a weakly held target and returns false once it is gone.
    private let write: Write
    private let writesToWeakTarget: Bool

    /// A sink that calls `update` with every value.
    @MainActor
    init(update: @escaping @MainActor (Value) -> Void) {
        self.update = unsafeBitCast(IsolatedUpdate(body: update), to: PlainUpdate.self).body
        write = { _ in true }
        writesToWeakTarget = false
        destination = nil
        storage = nil
    }

    /// A sink that writes straight into `destination`, kept alive by `storage`.
    @MainActor
    init(destination: UnsafeMutablePointer<Value>, storage: AnyObject) {
        update = { _ in }
        write = { _ in true }
        writesToWeakTarget = false
        self.destination = destination
        self.storage = storage
    }

    /// A sink whose `write` reports whether its weakly held target still exists.
    @MainActor
    init(weakTarget write: @escaping @MainActor (Value) -> Bool) {
        update = { _ in }
        self.write = unsafeBitCast(IsolatedWrite(body: write), to: PlainWrite.self).body
        writesToWeakTarget = true
        destination = nil
        storage = nil
    }

    /// Hands `value` over; returns false once a weakly held target is gone. Call it on the main
    /// actor only.
    @inline(__always)
    func send(_ value: Value) -> Bool {
        // Non-optional `let` closures of a borrowed sink are called without a retain.
        if writesToWeakTarget { return write(value) }
        update(value)
        return true
    }
}

/// The animations of one concrete type in an ``Animator``: homogeneous arrays, stepped in two
/// tight passes per frame (compute every value, then deliver), so the frame path has no
/// per-animation existential or allocation.
@MainActor
class _AnimationStoreBase {
    /// Whether some entry finished or was cancelled and awaits removal.
    @exclusivity(unchecked) final var needsCompaction = false

    /// The number of entries, including those awaiting removal.
    var count: Int { 0 }

    /// Computes this frame's values at animator time `now`, then delivers them.
    func step(at now: Double) {}

    /// Removes finished and cancelled entries, appending their handles to `finished`.
    func compact(into finished: inout ContiguousArray<AnimationHandle>) {}

    /// Marks entry `slot` cancelled; it receives no more values and leaves at the next compaction.
    func markCancelled(_ slot: Int) {}

    /// Freezes entry `slot` at animator time `now`.
    func pause(_ slot: Int, at now: Double) {}

    /// Unfreezes entry `slot` at animator time `now`, continuing where it was frozen.
    func resume(_ slot: Int, at now: Double) {}

    /// Moves entry `slot` to `elapsed` seconds after its start (delivering the value at once if paused).
    func seek(_ slot: Int, to elapsed: Double, at now: Double) {}

    /// The seconds since entry `slot` started, at animator time `now` (frozen while paused).
    func elapsed(_ slot: Int, at now: Double) -> Double { 0 }

    /// The elapsed time at which entry `slot` ends (`.infinity` if it repeats forever).
    func totalDuration(_ slot: Int) -> Double { 0 }

    /// The value and velocity entry `slot` shows at animator time `now`, boxed, or `nil` if it
    /// writes nothing then.
    func presentation(_ slot: Int, at now: Double) -> (value: Any, velocity: Any)? { nil }

    /// Whether entry `slot` has a weak target that is gone.
    func targetIsGone(_ slot: Int) -> Bool { false }

    /// Calls `body` with the handle of every entry that is still active.
    func forEachHandle(_ body: (AnimationHandle) -> Void) {}
}

/// The store of animations of type `A`.
@MainActor
final class _AnimationStore<A: Animation>: _AnimationStoreBase {
    @exclusivity(unchecked) nonisolated(unsafe) private var animations: ContiguousArray<A> = []
    @exclusivity(unchecked) nonisolated(unsafe) private var clocks: ContiguousArray<_Clock> = []
    /// The value computed for each entry this frame (not kept for direct entries).
    @exclusivity(unchecked) nonisolated(unsafe) private var values: ContiguousArray<A.Value> = []
    /// Where a direct entry writes its value, or nil.
    @exclusivity(unchecked) nonisolated(unsafe) private var destinations:
        ContiguousArray<UnsafeMutablePointer<A.Value>?> = []
    @exclusivity(unchecked) private var sinks: ContiguousArray<Unmanaged<_Sink<A.Value>>> = []
    @exclusivity(unchecked) private var handles: ContiguousArray<AnimationHandle> = []
    @exclusivity(unchecked) nonisolated(unsafe) private var placements: ContiguousArray<_Placement> = []
    @exclusivity(unchecked) private var callbackCount = 0
    private var freePlacements: [Int32] = []

    override var count: Int { clocks.count }

    isolated deinit {
        for sink in sinks { sink.release() }
    }

    /// Adds an entry; returns its slot.
    func insert(
        _ animation: A, sink: _Sink<A.Value>, placement: _Placement?, begin: Double, handle: AnimationHandle
    ) -> Int {
        var clock = _Clock(begin: begin, placement: -1, state: 0)
        if let placement {
            clock.placement = allocatePlacement(placement)
            clock.state = _ClockState.complex
        }
        let destination = sink.destination
        if destination != nil {
            clock.state |= _ClockState.direct
        } else {
            callbackCount += 1
        }
        animations.append(animation)
        clocks.append(clock)
        values.append(animation.value(at: 0))
        destinations.append(destination)
        sinks.append(.passRetained(sink))
        handles.append(handle)
        return clocks.count - 1
    }

    private func allocatePlacement(_ placement: _Placement) -> Int32 {
        if let free = freePlacements.popLast() {
            placements[Int(free)] = placement
            return free
        }
        placements.append(placement)
        return Int32(placements.count - 1)
    }

    // MARK: The frame path

    @_specialize(where A == Tween<Double>)
    @_specialize(where A == Tween<Float>)
    @_specialize(where A == Tween<SIMD2<Double>>)
    @_specialize(where A == Tween<SIMD3<Double>>)
    @_specialize(where A == Tween<SIMD4<Double>>)
    @_specialize(where A == Tween<SIMD2<Float>>)
    @_specialize(where A == Tween<SIMD3<Float>>)
    @_specialize(where A == Tween<SIMD4<Float>>)
    @_specialize(where A == SpringAnimation<Double>)
    @_specialize(where A == SpringAnimation<Float>)
    @_specialize(where A == SpringAnimation<SIMD2<Double>>)
    @_specialize(where A == SpringAnimation<SIMD3<Double>>)
    @_specialize(where A == SpringAnimation<SIMD4<Double>>)
    @_specialize(where A == SpringAnimation<SIMD2<Float>>)
    @_specialize(where A == SpringAnimation<SIMD3<Float>>)
    @_specialize(where A == SpringAnimation<SIMD4<Float>>)
    @_specialize(where A == DecayAnimation<Double>)
    @_specialize(where A == DecayAnimation<Float>)
    @_specialize(where A == DecayAnimation<SIMD2<Double>>)
    @_specialize(where A == DecayAnimation<SIMD2<Float>>)
    @_specialize(where A == Keyframes<Double>)
    @_specialize(where A == Keyframes<Float>)
    @_specialize(where A == Keyframes<SIMD2<Double>>)
    @_specialize(where A == Keyframes<SIMD2<Float>>)
    @_specialize(where A == Keyframes<SIMD4<Float>>)
    override func step(at now: Double) {
        let count = clocks.count
        guard count > 0 else { return }
        if computeValues(at: now) { needsCompaction = true }
        guard callbackCount > 0 else { return }
        // Pass 2: callbacks. A callback may add, cancel or pause animations: additions land past
        // `count` and run from the next frame; cancellations are seen through the state bits. The
        // array keeps every sink alive until compaction, after this pass, so sinks are borrowed.
        for index in 0..<count {
            if clocks[index].state & _ClockState.skipDelivery != 0 { continue }
            let value = values[index]
            let delivered = sinks[index]._withUnsafeGuaranteedRef { @Sendable sink in sink.send(value) }
            if !delivered {
                clocks[index].state |= _ClockState.done | _ClockState.cancelled
                needsCompaction = true
            }
        }
    }

    /// Pass 1: computes every entry's value for animator time `now` over raw buffers; returns
    /// whether any finished. Nothing here calls out of the store, so nothing can change the arrays
    /// while their buffers are borrowed. Nonisolated (the store is only used on the main actor) so
    /// that the buffer closures carry no run-time isolation check.
    @inline(__always)
    private nonisolated func computeValues(at now: Double) -> Bool {
        animations.withUnsafeBufferPointer { animations in
            clocks.withUnsafeMutableBufferPointer { clocks in
                values.withUnsafeMutableBufferPointer { values in
                    destinations.withUnsafeBufferPointer { destinations in
                        placements.withUnsafeBufferPointer { placements in
                            Self.computeValues(
                                animations: animations, clocks: clocks, values: values, destinations: destinations,
                                placements: placements, now: now)
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    private nonisolated static func computeValues(
        animations: UnsafeBufferPointer<A>, clocks: UnsafeMutableBufferPointer<_Clock>,
        values: UnsafeMutableBufferPointer<A.Value>, destinations: UnsafeBufferPointer<UnsafeMutablePointer<A.Value>?>,
        placements: UnsafeBufferPointer<_Placement>, now: Double
    ) -> Bool {
        // `step(at:)` is reached through a class override, where `@_specialize` does not apply:
        // route the common concrete types to their own specialized copies by hand.
        if A.self == Tween<SIMD2<Double>>.self {
            return _computeRebound(Tween<SIMD2<Double>>.self, animations, clocks, values, destinations, placements, now)
        }
        if A.self == SpringAnimation<SIMD2<Double>>.self {
            return _computeRebound(
                SpringAnimation<SIMD2<Double>>.self, animations, clocks, values, destinations, placements, now)
        }
        if A.self == Keyframes<SIMD2<Double>>.self {
            return _computeRebound(
                Keyframes<SIMD2<Double>>.self, animations, clocks, values, destinations, placements, now)
        }
        if A.self == DecayAnimation<SIMD2<Double>>.self {
            return _computeRebound(
                DecayAnimation<SIMD2<Double>>.self, animations, clocks, values, destinations, placements, now)
        }
        if A.self == Tween<Double>.self {
            return _computeRebound(Tween<Double>.self, animations, clocks, values, destinations, placements, now)
        }
        if A.self == SpringAnimation<Double>.self {
            return _computeRebound(
                SpringAnimation<Double>.self, animations, clocks, values, destinations, placements, now)
        }
        return _computeAnimationValues(
            animations: animations, clocks: clocks, values: values, destinations: destinations, placements: placements,
            now: now)
    }

    private nonisolated static func evaluate(
        _ animation: A, _ placement: _Placement, elapsed: Double
    ) -> (time: Double?, isFinished: Bool, velocityFactor: Double) {
        _evaluateAnimation(animation, placement, elapsed: elapsed)
    }

    // MARK: Removal

    override func compact(into finished: inout ContiguousArray<AnimationHandle>) {
        guard needsCompaction else { return }
        needsCompaction = false
        let count = clocks.count
        var kept = 0
        for index in 0..<count {
            let clock = clocks[index]
            if clock.state & _ClockState.done != 0 {
                let handle = handles[index]
                handle.leafDidLeaveStore(cancelled: clock.state & _ClockState.cancelled != 0)
                finished.append(handle)
                if clock.placement >= 0 { freePlacements.append(clock.placement) }
                if clock.state & _ClockState.direct == 0 { callbackCount -= 1 }
                sinks[index].release()
            } else {
                if kept != index {
                    animations[kept] = animations[index]
                    clocks[kept] = clock
                    values[kept] = values[index]
                    destinations[kept] = destinations[index]
                    sinks[kept] = sinks[index]
                    handles[kept] = handles[index]
                    handles[kept].slot = kept
                }
                kept += 1
            }
        }
        let removed = count - kept
        guard removed > 0 else { return }
        animations.removeLast(removed)
        clocks.removeLast(removed)
        values.removeLast(removed)
        destinations.removeLast(removed)
        sinks.removeLast(removed)
        handles.removeLast(removed)
    }

    override func markCancelled(_ slot: Int) {
        clocks[slot].state |= _ClockState.done | _ClockState.cancelled
        needsCompaction = true
    }

    // MARK: Control

    /// Moves a fast-path entry to a placement so that it can be paused or sought.
    private func ensurePlacement(_ slot: Int) -> Int {
        if clocks[slot].placement < 0 {
            let animation = animations[slot]
            clocks[slot].placement = allocatePlacement(
                .standalone(timing: .default, delay: animation.delay, duration: animation.duration))
            clocks[slot].state |= _ClockState.complex
        }
        return Int(clocks[slot].placement)
    }

    override func pause(_ slot: Int, at now: Double) {
        guard clocks[slot].state & (_ClockState.paused | _ClockState.done) == 0 else { return }
        let index = ensurePlacement(slot)
        placements[index].pausedElapsed = now - clocks[slot].begin
        clocks[slot].state |= _ClockState.paused
    }

    override func resume(_ slot: Int, at now: Double) {
        guard clocks[slot].state & _ClockState.paused != 0 else { return }
        let index = Int(clocks[slot].placement)
        clocks[slot].begin = now - placements[index].pausedElapsed
        placements[index].pausedElapsed = .nan
        clocks[slot].state &= ~_ClockState.paused
    }

    override func seek(_ slot: Int, to elapsed: Double, at now: Double) {
        guard clocks[slot].state & _ClockState.done == 0 else { return }
        clocks[slot].begin = now - elapsed
        guard clocks[slot].state & _ClockState.paused != 0 else { return }
        let index = Int(clocks[slot].placement)
        placements[index].pausedElapsed = elapsed
        // A paused animation shows the new position at once (scrubbing).
        let evaluation = Self.evaluate(animations[slot], placements[index], elapsed: elapsed)
        guard let time = evaluation.time else { return }
        let value = animations[slot].value(at: time)
        if let destination = destinations[slot] {
            destination.pointee = value
        } else {
            values[slot] = value
            if !sinks[slot].takeUnretainedValue().send(value) { markCancelled(slot) }
        }
    }

    override func elapsed(_ slot: Int, at now: Double) -> Double {
        let clock = clocks[slot]
        if clock.state & _ClockState.paused != 0 { return placements[Int(clock.placement)].pausedElapsed }
        return now - clock.begin
    }

    override func totalDuration(_ slot: Int) -> Double {
        let clock = clocks[slot]
        if clock.placement < 0 { return animations[slot].delay + animations[slot].duration }
        let placement = placements[Int(clock.placement)]
        return placement.timing.totalDuration(forDuration: placement.cycle)
    }

    override func presentation(_ slot: Int, at now: Double) -> (value: Any, velocity: Any)? {
        let clock = clocks[slot]
        guard clock.state & _ClockState.done == 0 else { return nil }
        let animation = animations[slot]
        let isPaused = clock.state & _ClockState.paused != 0
        let placement =
            clock.placement >= 0
            ? placements[Int(clock.placement)]
            : .standalone(timing: .default, delay: animation.delay, duration: animation.duration)
        let elapsed = isPaused ? placement.pausedElapsed : now - clock.begin
        let evaluation = Self.evaluate(animation, placement, elapsed: elapsed)
        guard let time = evaluation.time else { return nil }
        let factor = isPaused ? 0 : evaluation.velocityFactor
        let velocity = factor == 0 ? A.Value.zero : animation.velocity(at: time).scaled(by: factor)
        return (animation.value(at: time), velocity)
    }

    override func targetIsGone(_ slot: Int) -> Bool {
        handles[slot].hasWeakTarget && handles[slot].target == nil
    }

    override func forEachHandle(_ body: (AnimationHandle) -> Void) {
        for index in 0..<clocks.count where clocks[index].state & _ClockState.done == 0 {
            body(handles[index])
        }
    }
}

/// Steps the animations of a store whose type `A` is known to be `B`, with the buffers rebound to
/// `B`, so that `_computeAnimationValues` is called with a concrete type and specialized for it.
@inline(__always)
private func _computeRebound<A: Animation, B: Animation>(
    _ type: B.Type, _ animations: UnsafeBufferPointer<A>, _ clocks: UnsafeMutableBufferPointer<_Clock>,
    _ values: UnsafeMutableBufferPointer<A.Value>, _ destinations: UnsafeBufferPointer<UnsafeMutablePointer<A.Value>?>,
    _ placements: UnsafeBufferPointer<_Placement>, _ now: Double
) -> Bool {
    _computeAnimationValues(
        animations: UnsafeBufferPointer(
            start: UnsafeRawPointer(animations.baseAddress)?.assumingMemoryBound(to: B.self), count: animations.count),
        clocks: clocks,
        values: UnsafeMutableBufferPointer(
            start: UnsafeMutableRawPointer(values.baseAddress)?.assumingMemoryBound(to: B.Value.self),
            count: values.count),
        destinations: UnsafeBufferPointer(
            start: UnsafeRawPointer(destinations.baseAddress)?.assumingMemoryBound(
                to: UnsafeMutablePointer<B.Value>?.self),
            count: destinations.count),
        placements: placements, now: now)
}

/// Pass 1 of a store's frame (see `_AnimationStore.computeValues(at:)`): a free function, so that
/// each concrete animation type gets its own specialized copy.
func _computeAnimationValues<A: Animation>(
    animations: UnsafeBufferPointer<A>, clocks: UnsafeMutableBufferPointer<_Clock>,
    values: UnsafeMutableBufferPointer<A.Value>, destinations: UnsafeBufferPointer<UnsafeMutablePointer<A.Value>?>,
    placements: UnsafeBufferPointer<_Placement>, now: Double
) -> Bool {
    var finishedAny = false
    for index in 0..<clocks.count {
        let state = clocks[index].state
        if state & ~_ClockState.direct == 0 {
            // The fast path: default timing, running.
            let elapsed = now - clocks[index].begin
            let duration = animations[index].duration
            let value: A.Value
            if elapsed < duration {
                value = animations[index].value(at: elapsed)
            } else {
                value = animations[index].value(at: duration)
                clocks[index].state = state | _ClockState.done
                finishedAny = true
            }
            if let destination = destinations[index] {
                destination.pointee = value
            } else {
                values[index] = value
            }
        } else if state & (_ClockState.paused | _ClockState.done) == 0 {
            let placement = placements[Int(clocks[index].placement)]
            let evaluation = _evaluateAnimation(animations[index], placement, elapsed: now - clocks[index].begin)
            var newState = state
            if let time = evaluation.time {
                let value = animations[index].value(at: time)
                if let destination = destinations[index] {
                    destination.pointee = value
                } else {
                    values[index] = value
                }
                newState &= ~_ClockState.silent
            } else {
                newState |= _ClockState.silent
            }
            if evaluation.isFinished {
                newState |= _ClockState.done
                finishedAny = true
            }
            clocks[index].state = newState
        }
    }
    return finishedAny
}

/// The animation time to show at `elapsed` under `placement` (nil to write nothing), whether
/// the timeline has ended, and the factor from animation velocity to animator velocity.
func _evaluateAnimation<A: Animation>(
    _ animation: A, _ placement: _Placement, elapsed: Double
) -> (time: Double?, isFinished: Bool, velocityFactor: Double) {
    let timing = placement.timing
    let local = timing.localTime(at: elapsed, duration: placement.cycle)
    var position = local.time
    var isFinished = false
    var writes = true
    switch local.phase {
    case .waiting:
        writes = timing.fill.fillsBackwards && placement.windowStart == -.infinity
        position = 0
    case .active:
        break
    case .finished:
        isFinished = true
        if !timing.fill.fillsForwards { position = 0 }
    }
    if writes {
        if position < placement.windowStart || position >= placement.windowEnd {
            writes = false
        } else if placement.windowStart == -.infinity && local.activeTime < placement.start
            && !timing.fill.fillsBackwards
        {
            writes = false  // the timeline has not reached this animation yet
        }
    }
    guard writes else { return (nil, isFinished, 0) }
    let duration = animation.duration
    let time = min(max(position - placement.start, 0), duration)
    let moving = local.phase == .active && time > 0 && time < duration
    let factor = moving ? timing.speed * (local.isReversed ? -1 : 1) : 0
    return (time, isFinished, factor)
}
