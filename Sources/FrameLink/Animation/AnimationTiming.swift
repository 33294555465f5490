/// When and how often an animation plays: delay, speed, repeat count, autoreverse and fill — the
/// `CAMediaTiming` properties, as one value.
///
/// The timing maps the time since an animation was added (*elapsed* time, in the animator's
/// seconds) to the animation's own time (*local* time, 0 to its duration):
///
/// - nothing happens for ``delay`` seconds;
/// - then local time runs ``speed`` times as fast as elapsed time;
/// - one *cycle* plays the animation once, or forward then backward if ``autoreverses``;
/// - the animation plays ``repeatCount`` cycles (fractions allowed; `.infinity` repeats forever);
/// - ``fill`` says what is shown before the delay ends and after the last cycle.
///
/// ```swift
/// // Pulse forever: 0.4 s out, 0.4 s back, starting after half a second.
/// let pulse = AnimationTiming(delay: 0.5, repeatCount: .infinity, autoreverses: true)
/// animator.add(Tween(from: 1.0, to: 1.2, duration: 0.4), timing: pulse) { sprite.scale = $0 }
/// ```
///
/// An animation begins when it is added, unless ``beginTime`` says when: an effect triggered by a
/// physics step inside a long frame can begin at that step's time, in the past, and show what a
/// smooth run would have shown from then on.
///
/// ``localTime(at:duration:)`` and ``value(of:at:)`` are pure functions: the animator uses exactly
/// these, so you can test timing without a loop.
public struct AnimationTiming: Sendable, Hashable {
    /// What an animation shows outside its active time, as `CAMediaTimingFillMode`.
    public enum Fill: Sendable, Hashable {
        /// After the last cycle, keep the end value (the default).
        case forwards
        /// After the last cycle, return to the start value (the value at local time 0).
        case removed
        /// During the delay, show the start value; after the last cycle, return to it.
        case backwards
        /// During the delay, show the start value; after the last cycle, keep the end value.
        case both

        var fillsBackwards: Bool { self == .backwards || self == .both }
        var fillsForwards: Bool { self == .forwards || self == .both }
    }

    /// Where elapsed time falls in an animation's timeline.
    public enum Phase: Sendable, Hashable {
        /// Still in the delay.
        case waiting
        /// Playing.
        case active
        /// Past the last cycle.
        case finished
    }

    /// An animation's local time at some elapsed time, from ``AnimationTiming/localTime(at:duration:)``.
    public struct LocalTime: Sendable, Hashable {
        /// The animation's own time, in 0...duration.
        public var time: Double
        /// Whether the time is in the delay, playing, or past the end.
        public var phase: Phase
        /// Whether the animation is playing backward (the second half of an autoreversing cycle).
        public var isReversed: Bool
        /// The time since the delay ended, multiplied by the speed, before cycles are folded in:
        /// negative during the delay.
        public var activeTime: Double
    }

    /// The animator time (in seconds, as ``Animator/currentTime``) at which the animation begins,
    /// or `nil` to begin when it is added. A time in the past (even earlier in the current frame)
    /// starts the animation part-way through, exactly where it would be had it been added then; a
    /// time in the future waits like a delay. The ``delay`` counts from this time.
    public let beginTime: Double?
    /// Seconds (elapsed time) before the animation starts; zero or more.
    public let delay: Double
    /// How many times faster than elapsed time the animation plays; above zero.
    public let speed: Double
    /// The number of cycles to play: 1 by default, fractions allowed, `.infinity` for forever.
    public let repeatCount: Double
    /// Whether each cycle plays forward, then backward.
    public let autoreverses: Bool
    /// What is shown before the delay ends and after the last cycle.
    public let fill: Fill

    /// Plays once, at once, at normal speed, and keeps the end value.
    public static let `default` = AnimationTiming(
        uncheckedDelay: 0, speed: 1, repeatCount: 1, autoreverses: false, fill: .forwards)

    /// Creates a timing.
    ///
    /// - Parameters:
    ///   - beginTime: The animator time at which the animation begins (`nil`, the default: when
    ///     it is added), in the past or in the future.
    ///   - delay: Seconds before the animation starts (0 by default).
    ///   - speed: How fast local time runs against elapsed time (1 by default; 2 plays twice as fast).
    ///   - repeatCount: Cycles to play (1 by default; `.infinity` repeats forever).
    ///   - autoreverses: Whether each cycle plays forward, then backward.
    ///   - fill: What is shown during the delay and after the end (``Fill/forwards`` by default).
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidInterval` message, for a NaN or
    ///   infinite begin time or a negative, NaN or infinite delay;
    ///   `.invalidValue` for a speed that is not positive and finite; `.invalidCount` for a repeat
    ///   count that is NaN, zero or negative.
    public init(
        beginTime: Double? = nil, delay: Double = 0, speed: Double = 1, repeatCount: Double = 1,
        autoreverses: Bool = false, fill: Fill = .forwards
    ) {
        self = FrameLinkError.require { () throws(FrameLinkError) in
            try AnimationTiming(
                validatingBeginTime: beginTime, delay: delay, speed: speed, repeatCount: repeatCount,
                autoreverses: autoreverses, fill: fill)
        }
    }

    /// Creates a timing from values read at run time.
    ///
    /// - Throws: ``FrameLinkError/invalidInterval(_:)`` for a NaN or infinite begin time or a
    ///   negative, NaN or infinite delay; ``FrameLinkError/invalidValue(_:)`` for a speed that is not
    ///   positive and finite; ``FrameLinkError/invalidCount(_:)`` for a repeat count that is NaN, zero
    ///   or negative.
    public init(
        validatingBeginTime beginTime: Double?, delay: Double = 0, speed: Double = 1, repeatCount: Double = 1,
        autoreverses: Bool = false, fill: Fill = .forwards
    ) throws(FrameLinkError) {
        if let beginTime, !beginTime.isFinite {
            throw .invalidInterval("animation beginTime of \(beginTime) s: must be finite")
        }
        guard delay.isFinite, delay >= 0 else {
            throw .invalidInterval("animation delay of \(delay) s: must be finite and zero or more")
        }
        guard speed.isFinite, speed > 0 else {
            throw .invalidValue("animation speed \(speed): must be finite and above zero")
        }
        guard repeatCount > 0 else {
            throw .invalidCount("animation repeatCount \(repeatCount): must be above zero (.infinity repeats forever)")
        }
        self.init(
            uncheckedDelay: delay, speed: speed, repeatCount: repeatCount, autoreverses: autoreverses, fill: fill,
            beginTime: beginTime)
    }

    init(
        uncheckedDelay delay: Double, speed: Double, repeatCount: Double, autoreverses: Bool, fill: Fill,
        beginTime: Double? = nil
    ) {
        self.beginTime = beginTime
        self.delay = delay
        self.speed = speed
        self.repeatCount = repeatCount
        self.autoreverses = autoreverses
        self.fill = fill
    }

    /// Whether this is the ``default`` timing.
    public var isDefault: Bool { self == .default }

    /// The elapsed time from the start of the delay to the end of the last cycle, for an animation
    /// of `duration` seconds: `.infinity` if it repeats forever.
    public func totalDuration(forDuration duration: Double) -> Double {
        guard duration > 0 else { return delay }
        let cycle = autoreverses ? 2 * duration : duration
        return delay + cycle * repeatCount / speed
    }

    /// The local time of an animation of `duration` seconds at `elapsed` seconds after it was added.
    public func localTime(at elapsed: Double, duration: Double) -> LocalTime {
        let active = (elapsed - delay) * speed
        guard active >= 0 else {
            return LocalTime(time: 0, phase: .waiting, isReversed: false, activeTime: active)
        }
        guard duration > 0 else {
            // A zero-length animation ends at once, where it started if it autoreverses.
            return LocalTime(time: 0, phase: .finished, isReversed: autoreverses, activeTime: active)
        }
        let cycle = autoreverses ? 2 * duration : duration
        let total = cycle * repeatCount
        let position: Double
        let phase: Phase
        if active >= total {
            phase = .finished
            let whole = repeatCount.rounded(.down)
            position = repeatCount == whole ? cycle : (repeatCount - whole) * cycle
        } else {
            phase = .active
            position = min(max(active - (active / cycle).rounded(.down) * cycle, 0), cycle)
        }
        if autoreverses && position > duration {
            return LocalTime(time: max(2 * duration - position, 0), phase: phase, isReversed: true, activeTime: active)
        }
        return LocalTime(time: min(position, duration), phase: phase, isReversed: false, activeTime: active)
    }

    /// The value `animation` shows at `elapsed` seconds after it was added, under this timing, or
    /// `nil` while it is waiting without a backward fill (nothing is written then).
    ///
    /// This is what an ``Animator`` writes on each frame, as a pure function of time. The animation's
    /// own ``Animation/delay`` adds to this timing's ``delay``.
    public func value<A: Animation>(of animation: A, at elapsed: Double) -> A.Value? {
        let local = localTime(at: elapsed - animation.delay, duration: animation.duration)
        switch local.phase {
        case .waiting:
            return fill.fillsBackwards ? animation.value(at: 0) : nil
        case .active:
            return animation.value(at: local.time)
        case .finished:
            return animation.value(at: fill.fillsForwards ? local.time : 0)
        }
    }
}
