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
/// let drop = try SpringAnimation(from: 0.0, to: 300, initialVelocity: -800, spring: .bouncy)
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
    /// - Throws: `FrameLinkError.invalidValue` if a value is NaN or infinite or the threshold is not
    ///   positive and finite.
    public init(
        from: Value, to: Value, initialVelocity: Value = .zero, spring: Spring = .smooth, threshold: Double = 0.001
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

/// The sine and cosine of `angle` together, about twice as fast as separate `sin` and `cos` calls
/// and as accurate (within a few ulp), so that 100,000 springs fit in a frame.
///
/// fdlibm's method: Cody-Waite reduction by π/2 in three 33-bit parts (exact products for
/// |angle| < 2²⁰·π/2), then its minimax kernels on [−π/4, π/4]. Larger or non-finite angles go to
/// libm.
@usableFromInline @inline(__always)
func _sineAndCosine(_ angle: Double) -> (sine: Double, cosine: Double) {
    guard abs(angle) < 1e5 else { return (sin(angle), cos(angle)) }
    let quadrant = (angle * (2 / Double.pi)).rounded()
    let reduced =
        ((angle - quadrant * 1.570_796_326_734_125_614_17e+00) - quadrant * 6.077_100_506_303_965_976_60e-11)
        - quadrant * 2.022_266_248_711_166_455_80e-21
    let z = reduced * reduced
    let sineTail =
        -1.666_666_666_666_663_243_48e-01
        + z
        * (8.333_333_333_322_489_461_24e-03
            + z
            * (-1.984_126_982_985_794_931_34e-04
                + z
                * (2.755_731_370_707_006_767_89e-06
                    + z * (-2.505_076_025_340_686_341_95e-08 + z * 1.589_690_995_211_550_102_21e-10))))
    let sine = reduced + reduced * z * sineTail
    let cosineTail =
        4.166_666_666_666_660_190_37e-02
        + z
        * (-1.388_888_888_887_410_957_49e-03
            + z
            * (2.480_158_728_947_672_941_78e-05
                + z
                * (-2.755_731_435_139_066_330_35e-07
                    + z * (2.087_572_321_298_174_827_90e-09 + z * -1.135_964_755_778_819_482_65e-11))))
    let cosine = 1 - 0.5 * z + z * z * cosineTail
    switch Int(quadrant) & 3 {
    case 0: return (sine, cosine)
    case 1: return (cosine, -sine)
    case 2: return (-sine, -cosine)
    default: return (-cosine, sine)
    }
}

/// A bound on a spring's distance from its target: a·e^(rate1·t) + b·e^(rate2·t), or
/// (a + b·t)·e^(rate1·t) when `linear` (critical damping).
struct _SpringEnvelope {
    let a: Double
    let b: Double
    let rate1: Double
    let rate2: Double
    let linear: Bool

    func callAsFunction(_ time: Double) -> Double {
        linear ? (a + b * time) * exp(rate1 * time) : a * exp(rate1 * time) + b * exp(rate2 * time)
    }

    /// Where the bound starts to decrease for good.
    var decreasingFrom: Double {
        linear && b > 0 ? max(0, -1 / rate1 - a / b) : 0
    }

    /// The first time from which the bound stays below `threshold`, to within 0.1 µs.
    func settlingTime(below threshold: Double) -> Double {
        let start = decreasingFrom
        var low: Double
        var high: Double
        if self(start) < threshold {
            guard start > 0 else { return 0 }
            (low, high) = (0, start)
        } else {
            low = start
            high = max(start, 0.001) * 2
            while self(high) >= threshold && high < 1e9 { high *= 2 }
        }
        while high - low > 1e-7 {
            let middle = (low + high) / 2
            if self(middle) >= threshold { low = middle } else { high = middle }
        }
        return high
    }
}

/// Which closed form a ``SpringAnimation`` uses.
@usableFromInline
enum _SpringKind: UInt8, Sendable {
    case underdamped, critical, overdamped
}
