/// A tween: a value moving from one value to another over a duration, along a timing curve —
/// `CABasicAnimation` with a `fromValue` and a `toValue`.
///
/// ```swift
/// let slide = Tween(from: SIMD2<Double>(0, 0), to: SIMD2(300, 120), duration: 0.4, curve: .easeOut)
/// slide.value(at: 0.2)   // part of the way, eased
/// animator.add(slide) { sprite.position = $0 }
/// ```
public struct Tween<Value: Interpolatable>: Animation {
    /// The value at the start.
    public let from: Value
    /// The value at the end.
    public let to: Value
    /// The seconds the change takes, after the ``delay``.
    public let duration: Double
    /// How progress maps to the fraction of the change (``TimingCurve/easeInOut`` by default).
    public let curve: TimingCurve
    /// Seconds to hold ``from`` before the change starts, once (repeats do not wait again).
    public let delay: Double

    /// Creates a tween.
    ///
    /// - Parameters:
    ///   - from: The start value.
    ///   - to: The end value.
    ///   - duration: Seconds the change takes; zero jumps to `to` at once.
    ///   - curve: The timing curve (Core Animation's ease-in-ease-out by default).
    ///   - delay: Seconds to wait before starting (0 by default).
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidInterval` message, for a negative, NaN or infinite duration or
    ///   delay; `.invalidValue` if `from` or `to` is not finite.
    public init(
        from: Value, to: Value, duration: Double, curve: TimingCurve = .easeInOut, delay: Double = 0
    ) {
        self = FrameLinkError.require { () throws(FrameLinkError) in
            try Tween(validatingFrom: from, to: to, duration: duration, curve: curve, delay: delay)
        }
    }

    /// Creates a tween from values read at run time.
    ///
    /// - Throws: ``FrameLinkError/invalidInterval(_:)`` for a negative, NaN or infinite duration or
    ///   delay; ``FrameLinkError/invalidValue(_:)`` if `from` or `to` is not finite.
    public init(
        validatingFrom from: Value, to: Value, duration: Double, curve: TimingCurve = .easeInOut, delay: Double = 0
    ) throws(FrameLinkError) {
        guard duration.isFinite, duration >= 0 else {
            throw .invalidInterval("tween duration of \(duration) s: must be finite and zero or more")
        }
        guard delay.isFinite, delay >= 0 else {
            throw .invalidInterval("tween delay of \(delay) s: must be finite and zero or more")
        }
        guard from.isFinite, to.isFinite else {
            throw .invalidValue("tween from \(from) to \(to): both values must be finite (no NaN or infinity)")
        }
        self.init(unchecked: from, to: to, duration: duration, curve: curve, delay: delay)
    }

    init(unchecked from: Value, to: Value, duration: Double, curve: TimingCurve, delay: Double) {
        self.from = from
        self.to = to
        self.duration = duration
        self.curve = curve
        self.delay = delay
    }

    /// The value at `time` seconds after the change started: ``from`` before 0, ``to`` from
    /// ``duration`` on, and the eased mix in between.
    @inlinable @inline(__always)
    public func value(at time: Double) -> Value {
        let fraction = duration > 0 ? curve.value(at: time / duration) : (time < 0 ? 0 : 1)
        return from.scaled(by: 1 - fraction) + to.scaled(by: fraction)
    }

    /// The rate of change at `time` seconds after the change started, in value units per second:
    /// the change times the curve's slope (``TimingCurve/slope(at:)``, exact for Bézier curves, so
    /// an ease curve starts and ends at rest) over the duration; zero before the start, after the
    /// end, and for a tween that takes no time.
    public func velocity(at time: Double) -> Value {
        guard duration > 0, time >= 0, time <= duration else { return .zero }
        let rate = curve.slope(at: time / duration) / duration
        // (to − from) × rate, written so that neither a huge change nor a huge slope overflows to
        // infinity − infinity: each end scaled on its own.
        return to.scaled(by: rate) - from.scaled(by: rate)
    }

    /// The tween changed to start from `value` (its velocity is not used: a tween's speed comes from
    /// its curve).
    public func retargeted(from value: Value, velocity: Value) -> Tween {
        Tween(unchecked: value, to: to, duration: duration, curve: curve, delay: delay)
    }
}
