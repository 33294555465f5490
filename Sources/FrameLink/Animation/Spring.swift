/// A damped spring's physical parameters: mass, stiffness and damping, or the perceptual duration
/// and bounce that SwiftUI uses. A ``SpringAnimation`` moves a value with it.
///
/// The model is the damped harmonic oscillator `m·x″ = −k·(x − target) − c·x′`, solved in closed
/// form (no integration, so no drift and no dependence on the frame rate). Describe a spring the way
/// that suits you:
///
/// ```swift
/// let physical = Spring(mass: 1, stiffness: 170, damping: 26)   // React Spring's "default"
/// let perceptual = Spring(duration: 0.4, bounce: 0.25)          // SwiftUI's form
/// let classic = Spring(response: 0.5, dampingRatio: 0.8)        // SwiftUI's older form
/// let preset = Spring.bouncy
/// ```
///
/// - `bounce` 0 is critically damped (no overshoot), up to 1 (exclusive) is ever bouncier, below 0
///   (down to −1, exclusive) is overdamped and slower to arrive.
/// - `duration` (also called `response`) is the period of the undamped spring: about how long the
///   motion takes to feel finished, independent of mass.
public struct Spring: Sendable, Hashable, CustomStringConvertible {
    /// The mass on the spring (above zero; 1 in the perceptual forms).
    public let mass: Double
    /// The spring constant k, in force per unit of displacement (above zero).
    public let stiffness: Double
    /// The damping coefficient c, in force per unit of velocity (above zero).
    public let damping: Double

    /// Creates a spring from its physical parameters.
    ///
    /// - Parameters:
    ///   - mass: The mass (1 by default); above zero and finite.
    ///   - stiffness: The stiffness; above zero and finite.
    ///   - damping: The damping; above zero and finite (an undamped spring would never settle).
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidValue` message, naming the parameter that is zero, negative, NaN or
    ///   infinite.
    public init(mass: Double = 1, stiffness: Double, damping: Double) {
        self = FrameLinkError.require { () throws(FrameLinkError) in
            try Spring(validatingMass: mass, stiffness: stiffness, damping: damping)
        }
    }

    /// Creates a spring from physical parameters read at run time (a level file, a settings panel).
    ///
    /// - Throws: ``FrameLinkError/invalidValue(_:)`` naming the parameter that is zero, negative,
    ///   NaN or infinite.
    public init(validatingMass mass: Double, stiffness: Double, damping: Double) throws(FrameLinkError) {
        guard mass.isFinite, mass > 0 else {
            throw .invalidValue("spring mass \(mass): must be finite and above zero")
        }
        guard stiffness.isFinite, stiffness > 0 else {
            throw .invalidValue("spring stiffness \(stiffness): must be finite and above zero")
        }
        guard damping.isFinite, damping > 0 else {
            throw .invalidValue("spring damping \(damping): must be finite and above zero (the spring must settle)")
        }
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
    }

    /// Creates a spring from a perceptual duration and a bounce, as SwiftUI's
    /// `Spring(duration:bounce:)` does (mass 1).
    ///
    /// - Parameters:
    ///   - duration: The period of the undamped spring in seconds (0.5 by default); above zero.
    ///   - bounce: 0 for no overshoot (the default), toward 1 for more bounce, toward −1 for an
    ///     overdamped, slower approach; strictly between −1 and 1.
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidInterval` message, for a duration that is not positive and finite;
    ///   `.invalidValue` for a bounce outside −1 < bounce < 1.
    public init(duration: Double = 0.5, bounce: Double = 0) {
        self = FrameLinkError.require { () throws(FrameLinkError) in
            try Spring(validatingDuration: duration, bounce: bounce)
        }
    }

    /// Creates a spring from a duration and a bounce read at run time.
    ///
    /// - Throws: ``FrameLinkError/invalidInterval(_:)`` for a duration that is not positive and
    ///   finite; ``FrameLinkError/invalidValue(_:)`` for a bounce outside −1 < bounce < 1.
    public init(validatingDuration duration: Double, bounce: Double = 0) throws(FrameLinkError) {
        guard duration.isFinite, duration > 0 else {
            throw .invalidInterval("spring duration of \(duration) s: must be finite and above zero")
        }
        guard bounce > -1, bounce < 1 else {
            throw .invalidValue("spring bounce \(bounce): must be between -1 and 1 (exclusive)")
        }
        let ratio = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
        try self.init(validatingResponse: duration, dampingRatio: ratio)
    }

    /// Creates a spring from its response (the undamped period, in seconds) and damping ratio
    /// (1 is critical; below 1 bounces), as SwiftUI's `spring(response:dampingFraction:)` does.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidInterval` message, for a response that is not positive and finite;
    ///   `.invalidValue` for a damping ratio that is not positive and finite.
    public init(response: Double, dampingRatio: Double) {
        self = FrameLinkError.require { () throws(FrameLinkError) in
            try Spring(validatingResponse: response, dampingRatio: dampingRatio)
        }
    }

    /// Creates a spring from a response and a damping ratio read at run time.
    ///
    /// - Throws: ``FrameLinkError/invalidInterval(_:)`` for a response that is not positive and
    ///   finite; ``FrameLinkError/invalidValue(_:)`` for a damping ratio that is not positive and
    ///   finite.
    public init(validatingResponse response: Double, dampingRatio: Double) throws(FrameLinkError) {
        guard response.isFinite, response > 0 else {
            throw .invalidInterval("spring response of \(response) s: must be finite and above zero")
        }
        guard dampingRatio.isFinite, dampingRatio > 0 else {
            throw .invalidValue("spring damping ratio \(dampingRatio): must be finite and above zero")
        }
        let angularFrequency = 2 * Double.pi / response
        self.mass = 1
        self.stiffness = angularFrequency * angularFrequency
        self.damping = 2 * dampingRatio * angularFrequency
    }

    init(uncheckedMass mass: Double, stiffness: Double, damping: Double) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
    }

    /// A smooth spring with no bounce: duration 0.5 s, bounce 0 (SwiftUI's `.smooth`).
    public static let smooth = Spring(response: 0.5, uncheckedBounce: 0)
    /// A snappy spring with a little bounce: duration 0.5 s, bounce 0.15 (SwiftUI's `.snappy`).
    public static let snappy = Spring(response: 0.5, uncheckedBounce: 0.15)
    /// A bouncy spring: duration 0.5 s, bounce 0.3 (SwiftUI's `.bouncy`).
    public static let bouncy = Spring(response: 0.5, uncheckedBounce: 0.3)

    private init(response: Double, uncheckedBounce bounce: Double) {
        let ratio = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
        let angularFrequency = 2 * Double.pi / response
        self.init(
            uncheckedMass: 1, stiffness: angularFrequency * angularFrequency,
            damping: 2 * ratio * angularFrequency)
    }

    /// The undamped angular frequency ω₀ = √(k / m), in radians per second.
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

    /// The damping ratio ζ = c / (2√(k·m)): 1 is critically damped, below 1 bounces, above 1 is
    /// overdamped.
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// The period of the undamped spring, 2π / ω₀, in seconds: SwiftUI's `response`.
    public var response: Double { 2 * Double.pi / naturalFrequency }

    /// The perceptual duration: the same as ``response``.
    public var duration: Double { response }

    /// The bounce: 1 − ζ when ζ ≤ 1, else 1/ζ − 1 (negative when overdamped).
    public var bounce: Double {
        let ratio = dampingRatio
        return ratio <= 1 ? 1 - ratio : 1 / ratio - 1
    }

    /// A description such as `"Spring(mass: 1.0, stiffness: 157.9, damping: 25.1)"`.
    public var description: String {
        "Spring(mass: \(mass), stiffness: \(stiffness), damping: \(damping))"
    }
}
