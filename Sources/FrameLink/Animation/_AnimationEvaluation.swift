/// Steps the animations of a store whose type `A` is known to be `B`, with the buffers rebound to
/// `B`, so that `_computeAnimationValues` is called with a concrete type and specialized for it.
@inline(__always)
func _computeRebound<A: Animation, B: Animation>(
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
