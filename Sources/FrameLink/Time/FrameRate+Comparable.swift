extension FrameRate: Comparable {
    /// Whether `lhs` is a lower rate than `rhs`, compared exactly as fractions.
    public static func < (lhs: FrameRate, rhs: FrameRate) -> Bool {
        Int128(lhs.numerator) * Int128(rhs.denominator) < Int128(rhs.numerator) * Int128(lhs.denominator)
    }
}
