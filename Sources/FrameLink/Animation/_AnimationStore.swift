/// The store of animations of type `A`.
@MainActor
final class _AnimationStore<A: Animation>: _AnimationStoreBase {
    private var animations: ContiguousArray<A> = []
    private var clocks: ContiguousArray<_Clock> = []
    /// The value computed for each entry this frame (not kept for direct entries).
    private var values: ContiguousArray<A.Value> = []
    /// Where a direct entry writes its value, or nil.
    private var destinations: ContiguousArray<UnsafeMutablePointer<A.Value>?> = []
    private var sinks: ContiguousArray<_Sink<A.Value>> = []
    private var handles: ContiguousArray<AnimationHandle> = []
    private var placements: ContiguousArray<_Placement> = []
    private var callbackCount = 0
    /// The sinks of entries removed by a compaction, released only once the arrays agree again:
    /// releasing a sink can deinitialize what its closure captured, and that code may call back
    /// into the animator.
    private var retiredSinks: ContiguousArray<_Sink<A.Value>> = []
    private var freePlacements: [Int32] = []

    override var count: Int { clocks.count }

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
        sinks.append(sink)
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
        // `count` and run from the next frame; cancellations are seen through the state bits.
        // Compaction waits until after this pass, so positions do not move under it.
        for index in 0..<count {
            if clocks[index].state & _ClockState.skipDelivery != 0 { continue }
            let delivered = sinks[index].send(values[index])
            if !delivered {
                clocks[index].state |= _ClockState.done | _ClockState.cancelled
                needsCompaction = true
            }
        }
    }

    /// Pass 1: computes every entry's value for animator time `now` over raw buffers; returns
    /// whether any finished. Nothing here calls out of the store, so nothing can change the arrays
    /// while their buffers are borrowed.
    private func computeValues(at now: Double) -> Bool {
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
    private static func computeValues(
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

    private static func evaluate(
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
                retiredSinks.append(sinks[index])
                handle.leafDidLeaveStore(cancelled: clock.state & _ClockState.cancelled != 0)
                finished.append(handle)
                if clock.placement >= 0 { freePlacements.append(clock.placement) }
                if clock.state & _ClockState.direct == 0 { callbackCount -= 1 }
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
        retiredSinks.removeAll(keepingCapacity: true)
    }

    override func isDone(_ slot: Int) -> Bool {
        clocks[slot].state & _ClockState.done != 0
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
            if !sinks[slot].send(value) { markCancelled(slot) }
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
