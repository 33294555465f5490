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
