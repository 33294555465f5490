#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value that coasts from an initial velocity and slows to a stop — a fling, as a scroll view
/// decelerates after the finger lifts (Pop's `POPDecayAnimation`).
///
/// The velocity decays exponentially, keeping ``decelerationRate`` of itself per millisecond, so
/// the value approaches ``restingValue`` = `from − v₀ / k` where `k` is the rate's
/// ``DecelerationRate/decayConstant``. The animation ends when the remaining distance is below
/// ``threshold``.
///
/// With bounds (for `Double` and `Float`), a fling that would pass a bound instead reaches it, then
/// rubber-bands back onto it with a spring, as a scroll view's content does at its edge; a value that
/// starts outside the bounds springs back at once.
///
/// ```swift
/// let fling = DecayAnimation(from: offset, initialVelocity: -2400, bounds: 0...maxOffset)
/// animator.add(fling) { list.offset = $0 }
/// ```
public struct DecayAnimation<Value: Interpolatable>: Animation {
    /// The value at time 0.
    public let from: Value
    /// The velocity at time 0, in value units per second.
    public let initialVelocity: Value
    /// The fraction of velocity kept per millisecond.
    public let decelerationRate: DecelerationRate
    /// The remaining distance under which the motion counts as stopped (0.001 by default).
    public let threshold: Double
    /// The seconds until the value stops (or, with bounds, until the spring back settles).
    public let duration: Double
    /// Where the value would come to rest without bounds.
    public let restingValue: Value

    @usableFromInline let decayConstant: Double
    @usableFromInline let offset: Value
    @usableFromInline let boundary: _DecayBoundary<Value>?
    private let makeBoundary: (@Sendable (Value, Value, Double, Double) -> _DecayBoundary<Value>?)?

    /// Creates an unbounded decay.
    ///
    /// - Parameters:
    ///   - from: The start value.
    ///   - initialVelocity: The velocity at the start, in value units per second.
    ///   - decelerationRate: The fraction of velocity kept per millisecond (``DecelerationRate/normal``
    ///     by default).
    ///   - threshold: The remaining distance under which the motion stops (0.001 by default).
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidValue` message, if a value is NaN or infinite or the threshold is not
    ///   positive and finite.
    public init(
        from: Value, initialVelocity: Value, decelerationRate: DecelerationRate = .normal, threshold: Double = 0.001
    ) {
        self = FrameLinkError.require { () throws(FrameLinkError) in
            try DecayAnimation(
                validatingFrom: from, initialVelocity: initialVelocity, decelerationRate: decelerationRate,
                threshold: threshold)
        }
    }

    /// Creates an unbounded decay from values read at run time.
    ///
    /// - Throws: ``FrameLinkError/invalidValue(_:)`` if a value is NaN or infinite or the threshold
    ///   is not positive and finite.
    public init(
        validatingFrom from: Value, initialVelocity: Value, decelerationRate: DecelerationRate = .normal,
        threshold: Double = 0.001
    ) throws(FrameLinkError) {
        try Self.validate(from: from, velocity: initialVelocity, threshold: threshold)
        self.init(
            unchecked: from, velocity: initialVelocity, rate: decelerationRate, threshold: threshold,
            makeBoundary: nil)
    }

    init(
        unchecked from: Value, velocity: Value, rate: DecelerationRate, threshold: Double,
        makeBoundary: (@Sendable (Value, Value, Double, Double) -> _DecayBoundary<Value>?)?
    ) {
        self.from = from
        self.initialVelocity = velocity
        self.decelerationRate = rate
        self.threshold = threshold
        self.makeBoundary = makeBoundary
        let constant = rate.decayConstant
        decayConstant = constant
        // value(t) = rest + offset·e^(k·t), where offset = from − rest = v₀ / k.
        let offset = velocity.scaled(by: 1 / constant)
        self.offset = offset
        restingValue = from - offset
        let distance = offset.magnitudeSquared.squareRoot()
        let coastTime = distance > threshold ? log(threshold / distance) / constant : 0
        let boundary = makeBoundary?(from, velocity, constant, threshold)
        self.boundary = boundary
        if let boundary {
            duration = boundary.time + (boundary.bounce?.duration ?? 0)
        } else {
            duration = coastTime
        }
    }

    static func validate(from: Value, velocity: Value, threshold: Double) throws(FrameLinkError) {
        guard from.isFinite, velocity.isFinite else {
            throw .invalidValue("decay from \(from) at \(velocity): values must be finite (no NaN or infinity)")
        }
        guard threshold.isFinite, threshold > 0 else {
            throw .invalidValue("decay threshold \(threshold): must be finite and above zero")
        }
    }

    /// The value at `time` seconds: ``from`` before 0, coasting, and at rest from ``duration`` on.
    @inlinable @inline(__always)
    public func value(at time: Double) -> Value {
        guard time > 0 else { return from }
        if let boundary, time >= boundary.time {
            guard let bounce = boundary.bounce else { return boundary.bound }
            return bounce.value(at: time - boundary.time)
        }
        guard time < duration else { return restingValue }
        return restingValue + offset.scaled(by: exp(decayConstant * time))
    }

    /// The exact velocity at `time` seconds, in value units per second.
    public func velocity(at time: Double) -> Value {
        guard time > 0 else { return initialVelocity }
        if let boundary, time >= boundary.time {
            return boundary.bounce?.velocity(at: time - boundary.time) ?? .zero
        }
        guard time < duration else { return .zero }
        return initialVelocity.scaled(by: exp(decayConstant * time))
    }

    /// The same fling (same velocity, rate and bounds) starting from `value`; the velocity of the
    /// animation it replaces is not used, since a fling's velocity comes from the gesture.
    public func retargeted(from value: Value, velocity: Value) -> DecayAnimation {
        DecayAnimation(
            unchecked: value, velocity: initialVelocity, rate: decelerationRate, threshold: threshold,
            makeBoundary: makeBoundary)
    }
}

extension DecayAnimation where Value: BinaryFloatingPoint {
    /// Creates a decay that stays within `bounds`: a fling that would pass a bound reaches it and
    /// rubber-bands back with `bounce`, as a scroll view does at its edges; a start outside the
    /// bounds springs back at once.
    ///
    /// - Parameters:
    ///   - from: The start value.
    ///   - initialVelocity: The velocity at the start, in value units per second.
    ///   - decelerationRate: The fraction of velocity kept per millisecond.
    ///   - bounds: The range the value ends in.
    ///   - bounce: The spring that pulls the value back onto a bound it reaches (``Spring/smooth``
    ///     by default); `nil` stops the value dead at the bound.
    ///   - threshold: The remaining distance under which the motion stops (0.001 by default).
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidValue` message, for non-finite values, bounds or threshold.
    public init(
        from: Value, initialVelocity: Value, decelerationRate: DecelerationRate = .normal,
        bounds: ClosedRange<Value>, bounce: Spring? = .smooth, threshold: Double = 0.001
    ) {
        self = FrameLinkError.require { () throws(FrameLinkError) in
            try DecayAnimation(
                validatingFrom: from, initialVelocity: initialVelocity, decelerationRate: decelerationRate,
                bounds: bounds, bounce: bounce, threshold: threshold)
        }
    }

    /// Creates a bounded decay from values read at run time.
    ///
    /// - Throws: ``FrameLinkError/invalidValue(_:)`` for non-finite values, bounds or threshold.
    public init(
        validatingFrom from: Value, initialVelocity: Value, decelerationRate: DecelerationRate = .normal,
        bounds: ClosedRange<Value>, bounce: Spring? = .smooth, threshold: Double = 0.001
    ) throws(FrameLinkError) {
        try Self.validate(from: from, velocity: initialVelocity, threshold: threshold)
        guard bounds.lowerBound.isFinite, bounds.upperBound.isFinite else {
            throw .invalidValue("decay bounds \(bounds): must be finite")
        }
        let lower = bounds.lowerBound
        let upper = bounds.upperBound
        self.init(
            unchecked: from, velocity: initialVelocity, rate: decelerationRate, threshold: threshold,
            makeBoundary: { from, velocity, constant, threshold in
                Self.boundary(
                    from: from, velocity: velocity, constant: constant, lower: lower, upper: upper, bounce: bounce,
                    threshold: threshold)
            })
    }

    private static func boundary(
        from: Value, velocity: Value, constant: Double, lower: Value, upper: Value, bounce: Spring?,
        threshold: Double
    ) -> _DecayBoundary<Value>? {
        func springBack(from start: Value, to bound: Value, velocity: Value, at time: Double) -> _DecayBoundary<Value> {
            let spring = bounce.map {
                SpringAnimation(
                    unchecked: start, to: bound, initialVelocity: velocity, spring: $0, threshold: threshold)
            }
            return _DecayBoundary(time: time, bound: bound, bounce: spring)
        }
        if from < lower { return springBack(from: from, to: lower, velocity: velocity, at: 0) }
        if from > upper { return springBack(from: from, to: upper, velocity: velocity, at: 0) }
        let x0 = Double(from)
        let v0 = Double(velocity)
        let rest = x0 - v0 / constant
        let bound: Double
        if rest < Double(lower) {
            bound = Double(lower)
        } else if rest > Double(upper) {
            bound = Double(upper)
        } else {
            return nil
        }
        // x(t) = x0 + v0·(e^(k·t) − 1)/k reaches the bound when e^(k·t) = 1 + (bound − x0)·k/v0.
        let factor = 1 + (bound - x0) * constant / v0
        let time = factor > 0 ? log(factor) / constant : 0
        let speed = v0 * max(factor, 0)
        return springBack(from: Value(bound), to: Value(bound), velocity: Value(speed), at: max(time, 0))
    }
}
