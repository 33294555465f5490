#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value pulled toward a target by a damped ``Spring``, starting with a velocity —
/// `CASpringAnimation` and Pop's `POPSpringAnimation`, solved in closed form.
///
/// The value is the exact solution of `m·x″ = −k·(x − to) − c·x′` with `x(0) = from` and
/// `x′(0) = initialVelocity`, for the underdamped, critically damped and overdamped cases, so the
/// trajectory is a pure function of time. The animation lasts until the motion can no longer be
/// seen: ``duration`` is when the oscillation's envelope falls below ``threshold``; from then on the
/// value is exactly ``to``.
///
/// ```swift
/// let drop = SpringAnimation(from: 0.0, to: 300, initialVelocity: -800, spring: .bouncy)
/// drop.duration          // seconds until it settles within 0.001
/// drop.value(at: 0.1)    // where it is after 0.1 s
/// ```
///
/// When an ``Animator`` retargets a property that is already moving, a spring keeps the velocity it
/// had — the interruption is seamless.
public struct SpringAnimation<Value: Interpolatable>: Animation {
    /// The spring's parameters.
    public let spring: Spring
    /// The value at time 0.
    public let from: Value
    /// The value the spring pulls toward and settles at.
    public let to: Value
    /// The velocity at time 0, in value units per second.
    public let initialVelocity: Value
    /// The distance from ``to`` under which the motion counts as settled (0.001 by default).
    public let threshold: Double
    /// The seconds until the spring has settled within ``threshold``.
    public let duration: Double

    // The displacement from `to` is e^(r1·t)·(c1·cos(r2·t) + c2·sin(r2·t)) when underdamped,
    // e^(r1·t)·(c1 + c2·t) when critically damped, and c1·e^(r1·t) + c2·e^(r2·t) when overdamped.
    @usableFromInline let kind: _SpringKind
    @usableFromInline let r1: Double
    @usableFromInline let r2: Double
    @usableFromInline let c1: Value
    @usableFromInline let c2: Value

    /// Creates a spring animation.
    ///
    /// - Parameters:
    ///   - from: The start value.
    ///   - to: The target value.
    ///   - initialVelocity: The velocity at the start, in value units per second (zero by default).
    ///   - spring: The spring (``Spring/smooth`` by default).
    ///   - threshold: The distance from `to` under which the spring counts as settled, in the
    ///     value's units (0.001 by default; half a pixel is enough for screen positions).
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidValue` message, if a value is NaN or infinite or the threshold is not
    ///   positive and finite.
    public init(
        from: Value, to: Value, initialVelocity: Value = .zero, spring: Spring = .smooth, threshold: Double = 0.001
    ) {
        self = FrameLinkError.require { () throws(FrameLinkError) in
            try SpringAnimation(
                validatingFrom: from, to: to, initialVelocity: initialVelocity, spring: spring, threshold: threshold)
        }
    }

    /// Creates a spring animation from values read at run time.
    ///
    /// - Throws: ``FrameLinkError/invalidValue(_:)`` if a value is NaN or infinite or the threshold
    ///   is not positive and finite.
    public init(
        validatingFrom from: Value, to: Value, initialVelocity: Value = .zero, spring: Spring = .smooth,
        threshold: Double = 0.001
    ) throws(FrameLinkError) {
        guard from.isFinite, to.isFinite, initialVelocity.isFinite else {
            throw .invalidValue(
                "spring from \(from) to \(to) with velocity \(initialVelocity): values must be finite (no NaN or infinity)"
            )
        }
        guard threshold.isFinite, threshold > 0 else {
            throw .invalidValue("spring threshold \(threshold): must be finite and above zero")
        }
        self.init(unchecked: from, to: to, initialVelocity: initialVelocity, spring: spring, threshold: threshold)
    }

    init(unchecked from: Value, to: Value, initialVelocity: Value, spring: Spring, threshold: Double) {
        self.spring = spring
        self.from = from
        self.to = to
        self.initialVelocity = initialVelocity
        self.threshold = threshold
        let omega = spring.naturalFrequency
        let zeta = spring.dampingRatio
        let displacement = from - to
        let velocity = initialVelocity
        // A bound on the distance from the target, decreasing once past its peak.
        let envelope: _SpringEnvelope
        if zeta < 1 {
            let decay = zeta * omega
            let frequency = omega * (1 - zeta * zeta).squareRoot()
            kind = .underdamped
            r1 = -decay
            r2 = frequency
            c1 = displacement
            c2 = (velocity + displacement.scaled(by: decay)).scaled(by: 1 / frequency)
            let amplitude = c1.magnitudeSquared.squareRoot() + c2.magnitudeSquared.squareRoot()
            envelope = _SpringEnvelope(a: amplitude, b: 0, rate1: -decay, rate2: 0, linear: false)
        } else {
            let root = (zeta * zeta - 1).squareRoot()
            let slow = -omega * (zeta - root)
            let fast = -omega * (zeta + root)
            if fast == slow {
                kind = .critical
                r1 = -omega
                r2 = -omega
                c1 = displacement
                c2 = velocity + displacement.scaled(by: omega)
                envelope = _SpringEnvelope(
                    a: c1.magnitudeSquared.squareRoot(), b: c2.magnitudeSquared.squareRoot(), rate1: -omega, rate2: 0,
                    linear: true)
            } else {
                kind = .overdamped
                r1 = slow
                r2 = fast
                c2 = (velocity - displacement.scaled(by: slow)).scaled(by: 1 / (fast - slow))
                c1 = displacement - c2
                envelope = _SpringEnvelope(
                    a: c1.magnitudeSquared.squareRoot(), b: c2.magnitudeSquared.squareRoot(), rate1: slow, rate2: fast,
                    linear: false)
            }
        }
        duration = envelope.settlingTime(below: threshold)
    }

    /// The value at `time` seconds: ``from`` before 0, the exact spring motion, then ``to`` once
    /// settled.
    @inlinable @inline(__always)
    public func value(at time: Double) -> Value {
        guard time < duration else { return to }
        guard time > 0 else { return from }
        switch kind {
        case .underdamped:
            let envelope = exp(r1 * time)
            let (sine, cosine) = _sineAndCosine(r2 * time)
            return to + c1.scaled(by: envelope * cosine) + c2.scaled(by: envelope * sine)
        case .critical:
            let envelope = exp(r1 * time)
            return to + c1.scaled(by: envelope) + c2.scaled(by: time * envelope)
        case .overdamped:
            return to + c1.scaled(by: exp(r1 * time)) + c2.scaled(by: exp(r2 * time))
        }
    }

    /// The exact velocity at `time` seconds, in value units per second (zero once settled).
    public func velocity(at time: Double) -> Value {
        guard time < duration else { return .zero }
        guard time > 0 else { return initialVelocity }
        switch kind {
        case .underdamped:
            let envelope = exp(r1 * time)
            let cosine = cos(r2 * time)
            let sine = sin(r2 * time)
            let a = c1.scaled(by: r1) + c2.scaled(by: r2)
            let b = c2.scaled(by: r1) - c1.scaled(by: r2)
            return a.scaled(by: envelope * cosine) + b.scaled(by: envelope * sine)
        case .critical:
            let envelope = exp(r1 * time)
            return (c2 + c1.scaled(by: r1)).scaled(by: envelope) + c2.scaled(by: r1 * time * envelope)
        case .overdamped:
            return c1.scaled(by: r1 * exp(r1 * time)) + c2.scaled(by: r2 * exp(r2 * time))
        }
    }

    /// The same spring toward the same target, starting from `value` at `velocity`.
    public func retargeted(from value: Value, velocity: Value) -> SpringAnimation {
        SpringAnimation(unchecked: value, to: to, initialVelocity: velocity, spring: spring, threshold: threshold)
    }
}
