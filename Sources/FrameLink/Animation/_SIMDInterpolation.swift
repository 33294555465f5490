/// The ``Interpolatable`` arithmetic of floating-point SIMD vectors, written once for the
/// conformances of `SIMD2`, `SIMD3` and `SIMD4` (which must each declare the members).
@usableFromInline
enum _SIMDInterpolation {
    /// `vector` with every component multiplied by `factor`.
    @inlinable
    static func scaled<Vector: SIMD>(_ vector: Vector, by factor: Double) -> Vector
    where Vector.Scalar: BinaryFloatingPoint {
        vector * Vector.Scalar(factor)
    }

    /// The sum of the squares of the components, as a `Double`.
    @inlinable
    static func magnitudeSquared<Vector: SIMD>(_ vector: Vector) -> Double where Vector.Scalar: BinaryFloatingPoint {
        Double((vector * vector).sum())
    }

    /// Whether every component is finite: x − x is 0 for every finite x, and NaN for NaN and the
    /// infinities.
    @inlinable
    static func isFinite<Vector: SIMD>(_ vector: Vector) -> Bool where Vector.Scalar: BinaryFloatingPoint {
        vector - vector == Vector()
    }
}
