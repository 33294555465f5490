#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How quickly a ``DecayAnimation`` slows down: the fraction of its velocity kept after each
/// millisecond, as `UIScrollView.DecelerationRate`.
///
/// ```swift
/// let fling = DecayAnimation(from: 0.0, initialVelocity: 1500, decelerationRate: .fast)
/// let custom = DecelerationRate(0.995)
/// ```
public struct DecelerationRate: Sendable, Hashable, CustomStringConvertible {
    /// The fraction of velocity kept per millisecond, strictly between 0 and 1.
    public let rawValue: Double

    /// Keeps 99.8 % of the velocity per millisecond: a scroll view's normal deceleration.
    public static let normal = DecelerationRate(unchecked: 0.998)

    /// Keeps 99 % per millisecond: a paging scroll view's quick stop.
    public static let fast = DecelerationRate(unchecked: 0.99)

    /// Creates a rate that keeps `rawValue` of the velocity per millisecond.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidValue` message, unless 0 < `rawValue` < 1.
    public init(_ rawValue: Double) {
        self = FrameLinkError.require { () throws(FrameLinkError) in
            try DecelerationRate(validating: rawValue)
        }
    }

    /// Creates a rate read at run time.
    ///
    /// - Throws: ``FrameLinkError/invalidValue(_:)`` unless 0 < `rawValue` < 1.
    public init(validating rawValue: Double) throws(FrameLinkError) {
        guard rawValue > 0, rawValue < 1 else {
            throw .invalidValue("deceleration rate \(rawValue): must be between 0 and 1 (exclusive), such as 0.998")
        }
        self.rawValue = rawValue
    }

    private init(unchecked rawValue: Double) {
        self.rawValue = rawValue
    }

    /// The exponential decay constant in 1/s (negative): velocity(t) = v₀·e^(constant·t).
    public var decayConstant: Double { 1000 * log(rawValue) }

    /// A description such as `"0.998 per ms"`.
    public var description: String { "\(rawValue) per ms" }
}
