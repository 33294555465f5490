/// A rate of frames per second, kept as an exact fraction so that frame grids never drift.
///
/// 60 Hz is exactly `60/1`; NTSC's 59.94 Hz is `60000/1001` (``hz59_94``). The nanosecond time of
/// frame `k` on a grid is computed from the fraction in one step (`k × 1e9 × denominator /
/// numerator`), never by adding a rounded period `k` times.
///
/// Whole rates are written as integer literals or named constants; a rate read at run time goes
/// through ``init(validating:)``, which throws for zero, negative, NaN and absurd values:
///
/// ```swift
/// let display = FrameRate.hz60
/// let physics: FrameRate = 50
/// let ntsc = FrameRate.hz59_94
/// print(ntsc.period)  // 0.016683333 seconds
/// let typed = FrameRate(framesPerSecond: 59.94)  // 2997/50, 16683350 ns
/// let fromSettings = try FrameRate(validating: settings.hertz)  // throws for 0, -1, NaN
/// ```
public struct FrameRate: Hashable, Sendable, CustomStringConvertible {
    /// The numerator of frames per second.
    public let numerator: Int64
    /// The denominator of frames per second.
    public let denominator: Int64

    /// Creates a rate of `numerator / denominator` frames per second.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidFrameRate` message, if either part is not positive.
    public init(numerator: Int64, denominator: Int64 = 1) {
        guard numerator > 0, denominator > 0 else {
            FrameLinkError.trap(
                .invalidFrameRate("\(numerator)/\(denominator) frames per second: both parts must be positive"))
        }
        let divisor = Self.greatestCommonDivisor(numerator, denominator)
        self.numerator = numerator / divisor
        self.denominator = denominator / divisor
    }

    /// Creates a rate from a number of frames per second, exact to a thousandth of a hertz.
    ///
    /// For a rate written in the program. A rate read at run time (a command line, a settings
    /// file) goes through ``init(validating:)``, which throws instead.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidFrameRate` message, for
    ///   zero, negative, NaN, infinite or absurd (over 100,000 Hz) rates.
    public init(framesPerSecond: Double) {
        self = FrameLinkError.require { () throws(FrameLinkError) in try FrameRate(validating: framesPerSecond) }
    }

    /// Creates a rate from a number of frames per second read at run time, exact to a thousandth of
    /// a hertz.
    ///
    /// - Throws: ``FrameLinkError/invalidFrameRate(_:)`` for zero, negative, NaN, infinite or absurd
    ///   (over 100,000 Hz) rates.
    public init(validating framesPerSecond: Double) throws(FrameLinkError) {
        guard framesPerSecond.isFinite, framesPerSecond > 0, framesPerSecond <= 100_000 else {
            throw .invalidFrameRate("\(framesPerSecond) frames per second: must be finite, above 0 and at most 100000")
        }
        let milli = (framesPerSecond * 1000).rounded()
        guard milli >= 1 else {
            throw .invalidFrameRate("\(framesPerSecond) frames per second: below the resolution of 0.001 Hz")
        }
        self.init(numerator: Int64(milli), denominator: 1000)
    }

    /// Creates a rate whose frames are `period` apart.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidFrameRate` message, if the period is zero or negative.
    public init(period: Duration) {
        let nanoseconds = period.wholeNanoseconds
        guard nanoseconds > 0 else {
            FrameLinkError.trap(.invalidFrameRate("a frame period of \(period): must be positive"))
        }
        self.init(numerator: 1_000_000_000, denominator: nanoseconds)
    }

    /// Exactly 60 frames per second.
    public static let hz60 = FrameRate(unchecked: 60)
    /// Exactly 30 frames per second.
    public static let hz30 = FrameRate(unchecked: 30)
    /// Exactly 120 frames per second.
    public static let hz120 = FrameRate(unchecked: 120)

    init(unchecked whole: Int64) {
        numerator = whole
        denominator = 1
    }

    /// A rate from a fraction already in lowest terms with positive parts (for constants).
    init(lowestTerms numerator: Int64, over denominator: Int64) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The rate as a floating-point number of frames per second.
    public var framesPerSecond: Double { Double(numerator) / Double(denominator) }

    /// The time between two frames, rounded to the nanosecond.
    public var period: Duration { .nanoseconds(periodNanoseconds) }

    /// The time between two frames in nanoseconds, rounded to the nearest nanosecond.
    public var periodNanoseconds: Int64 {
        let exact = Int128(1_000_000_000) * Int128(denominator)
        return Int64((exact + Int128(numerator / 2)) / Int128(numerator))
    }

    /// The offset in nanoseconds of frame `index` from the start of a grid at this rate,
    /// rounded down; exact for any index, with no accumulated error.
    public func offsetNanoseconds(ofFrame index: Int64) -> Int64 {
        Int64(Int128(index) * 1_000_000_000 * Int128(denominator) / Int128(numerator))
    }

    /// The number of the first frame whose offset is at or after `nanoseconds` from the grid start.
    public func frameIndex(atOrAfter nanoseconds: Int64) -> Int64 {
        let scale = Int128(1_000_000_000) * Int128(denominator)
        let value = Int128(nanoseconds) * Int128(numerator)
        // ceil(value / scale) for any sign.
        let quotient = value / scale
        let adjusted = (value % scale > 0) ? quotient + 1 : quotient
        // Offsets are floored, so the frame found might start one nanosecond early: correct for it.
        var index = Int64(adjusted)
        while offsetNanoseconds(ofFrame: index) < nanoseconds { index += 1 }
        while index > Int64.min, offsetNanoseconds(ofFrame: index - 1) >= nanoseconds { index -= 1 }
        return index
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

    /// A textual form such as `"60 Hz"` or `"59.94 Hz"`.
    public var description: String {
        if denominator == 1 { return "\(numerator) Hz" }
        let hundredths = (Double(numerator) / Double(denominator) * 100).rounded() / 100
        return "\(hundredths) Hz"
    }

    private static func greatestCommonDivisor(_ a: Int64, _ b: Int64) -> Int64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }
}
