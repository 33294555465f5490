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
        let (product, overflow) = denominator.multipliedReportingOverflow(by: Int64(divisor))
        guard !overflow else {
            FrameLinkError.trap(
                .invalidFrameRate("\(self) divided by \(divisor): the fraction does not fit 64 bits; use a larger rate")
            )
        }
        return FrameRate(numerator: numerator, denominator: product)
    }

    /// Whether this rate is within 0.5 % of `other`: a measurement of the same display.
    func isClose(to other: FrameRate) -> Bool {
        let difference = abs(
            Int128(numerator) * Int128(other.denominator) - Int128(other.numerator) * Int128(denominator))
        return difference * 200 <= Int128(other.numerator) * Int128(denominator)
    }

    /// The rate as a number without its unit: `"48"`, `"59.94"`.
    var number: String {
        let text = description
        return text.hasSuffix(" Hz") ? String(text.dropLast(3)) : text
    }
}
