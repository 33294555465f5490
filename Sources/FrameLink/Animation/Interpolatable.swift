/// A value that animations can move between: a vector space with a length, like SwiftUI's
/// `VectorArithmetic`.
///
/// Animations only ever combine values as `a + (b - a).scaled(by: t)`, take differences, and measure
/// their length (``magnitudeSquared``) to decide when a spring or a decay has come to rest. FrameLink
/// conforms `Double`, `Float` and the `SIMD2`, `SIMD3` and `SIMD4` vectors of `Float` and `Double`
/// (points, sizes, rectangles as `SIMD4`, colors as `SIMD4<Float>`). Conform your own types by
/// treating them as vectors:
///
/// ```swift
/// struct Point: Interpolatable {
///     var x = 0.0, y = 0.0
///     static let zero = Point()
///     static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
///     static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
///     func scaled(by factor: Double) -> Point { Point(x: x * factor, y: y * factor) }
///     var magnitudeSquared: Double { x * x + y * y }
///     var isFinite: Bool { x.isFinite && y.isFinite }
/// }
/// ```
public protocol Interpolatable: Sendable {
    /// The value with no magnitude: the starting point of velocities and offsets.
    static var zero: Self { get }

    /// The sum of two values.
    static func + (lhs: Self, rhs: Self) -> Self

    /// The difference of two values.
    static func - (lhs: Self, rhs: Self) -> Self

    /// The value multiplied by `factor`.
    func scaled(by factor: Double) -> Self

    /// The squared Euclidean length of the value, used to decide when motion has come to rest.
    var magnitudeSquared: Double { get }

    /// Whether every component is finite (neither NaN nor infinite).
    var isFinite: Bool { get }
}

extension Interpolatable {
    /// The value a `fraction` of the way from this value to `other` (0 gives this value, 1 gives
    /// `other`; fractions outside 0...1 extrapolate).
    @inlinable
    public func interpolated(to other: Self, fraction: Double) -> Self {
        self + (other - self).scaled(by: fraction)
    }
}

extension Double: Interpolatable {
    /// The value multiplied by `factor`.
    @inlinable
    public func scaled(by factor: Double) -> Double { self * factor }

    /// The square of the value.
    @inlinable
    public var magnitudeSquared: Double { self * self }
}

extension Float: Interpolatable {
    /// The value multiplied by `factor`, rounded to `Float`.
    @inlinable
    public func scaled(by factor: Double) -> Float { self * Float(factor) }

    /// The square of the value, as a `Double`.
    @inlinable
    public var magnitudeSquared: Double { Double(self) * Double(self) }
}

// The conformance's members, on the conforming vectors only (no extension of every `SIMD` type).
extension SIMD2: Interpolatable where Scalar: BinaryFloatingPoint {
    /// The vector with every component multiplied by `factor`.
    @inlinable
    public func scaled(by factor: Double) -> Self { _SIMDInterpolation.scaled(self, by: factor) }

    /// The sum of the squares of the components, as a `Double`.
    @inlinable
    public var magnitudeSquared: Double { _SIMDInterpolation.magnitudeSquared(self) }

    /// Whether every component is finite.
    @inlinable
    public var isFinite: Bool { _SIMDInterpolation.isFinite(self) }
}

// The conformance's members, on the conforming vectors only (no extension of every `SIMD` type).
extension SIMD3: Interpolatable where Scalar: BinaryFloatingPoint {
    /// The vector with every component multiplied by `factor`.
    @inlinable
    public func scaled(by factor: Double) -> Self { _SIMDInterpolation.scaled(self, by: factor) }

    /// The sum of the squares of the components, as a `Double`.
    @inlinable
    public var magnitudeSquared: Double { _SIMDInterpolation.magnitudeSquared(self) }

    /// Whether every component is finite.
    @inlinable
    public var isFinite: Bool { _SIMDInterpolation.isFinite(self) }
}

// The conformance's members, on the conforming vectors only (no extension of every `SIMD` type).
extension SIMD4: Interpolatable where Scalar: BinaryFloatingPoint {
    /// The vector with every component multiplied by `factor`.
    @inlinable
    public func scaled(by factor: Double) -> Self { _SIMDInterpolation.scaled(self, by: factor) }

    /// The sum of the squares of the components, as a `Double`.
    @inlinable
    public var magnitudeSquared: Double { _SIMDInterpolation.magnitudeSquared(self) }

    /// Whether every component is finite.
    @inlinable
    public var isFinite: Bool { _SIMDInterpolation.isFinite(self) }
}
