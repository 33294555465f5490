extension FrameRate: Comparable {
    /// Whether `lhs` is a lower rate than `rhs`, compared exactly as fractions.
    public static func < (lhs: FrameRate, rhs: FrameRate) -> Bool {
        Int128(lhs.numerator) * Int128(rhs.denominator) < Int128(rhs.numerator) * Int128(lhs.denominator)
    }

    /// The rate `divisor` times lower: every `divisor`-th frame of this rate.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidCount` message, if
    ///   `divisor` is not positive.
    public func divided(by divisor: Int) -> FrameRate {
        guard divisor > 0 else {
            FrameLinkError.trap(.invalidCount("FrameRate.divided(by: \(divisor)): use a positive divisor"))
        }
        if divisor == 1 { return self }
        return FrameRate(numerator: numerator, denominator: denominator * Int64(divisor))
    }
}
