/// A range of acceptable frame rates and the rate preferred within it, for a ``DisplayLink`` or a
/// whole ``FrameLoop``: the FrameLink counterpart of `CAFrameRateRange`.
///
/// On a display with a fixed refresh, only the rates that divide it evenly give evenly spaced
/// frames (30 on 60 Hz is every 2nd refresh; 45 on 60 Hz would alternate 1 and 2 refreshes). So
/// the rate chosen is the refresh rate divided by a whole number — the one inside the range that
/// lies closest to the preferred rate: 30 on 60 Hz, 72 on 144 Hz for a preferred 72, 48 on 144 Hz
/// for 40–50. When no such rate lies inside the range, the one closest to the preferred rate is
/// chosen anyway (a tie goes to the higher rate), and the choice says so. On a display that shows
/// frames whenever they come (variable refresh, or no vsync) the preferred rate is paced directly.
///
/// ```swift
/// link.preferredFrameRateRange = FrameRateRange(minimum: 40, maximum: 50, preferred: 45)
/// let choice = FrameRateRange(minimum: 40, maximum: 50).choice(dividing: .hz144)
/// print(choice.rate, choice.divisor)  // 48 Hz, 3
/// ```
///
/// The rate a loop and its links run at, and why, is in ``FrameStatistics/frameRateChoices``.
public struct FrameRateRange: Hashable, Sendable, CustomStringConvertible {
    /// The lowest acceptable rate.
    public let minimum: FrameRate
    /// The highest acceptable rate.
    public let maximum: FrameRate
    /// The rate wanted most; the chosen rate is the closest one available.
    public let preferred: FrameRate

    /// Creates a range from `minimum` to `maximum`, preferring `preferred` (the maximum unless told).
    ///
    /// For a range written in the program; a range read at run time goes through
    /// ``init(validatingMinimum:maximum:preferred:)``, which throws instead.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidFrameRate` message, if
    ///   `minimum` is above `maximum` or `preferred` lies outside them.
    public init(minimum: FrameRate, maximum: FrameRate, preferred: FrameRate? = nil) {
        self = FrameLinkError.require { () throws(FrameLinkError) in
            try FrameRateRange(validatingMinimum: minimum, maximum: maximum, preferred: preferred)
        }
    }

    /// Creates a range of exactly one rate: the rate closest to it is chosen (``choice(dividing:)``).
    public init(exactly rate: FrameRate) {
        minimum = rate
        maximum = rate
        preferred = rate
    }

    /// Creates a range from rates read at run time (a settings file, a command line).
    ///
    /// - Throws: ``FrameLinkError/invalidFrameRate(_:)`` if `minimum` is above `maximum` or
    ///   `preferred` lies outside them.
    public init(validatingMinimum minimum: FrameRate, maximum: FrameRate, preferred: FrameRate? = nil)
        throws(FrameLinkError)
    {
        guard minimum <= maximum else {
            throw .invalidFrameRate("frame-rate range \(minimum)–\(maximum): the minimum is above the maximum")
        }
        let preferred = preferred ?? maximum
        guard preferred >= minimum && preferred <= maximum else {
            throw .invalidFrameRate(
                "frame-rate range \(minimum)–\(maximum): the preferred \(preferred) lies outside it")
        }
        self.minimum = minimum
        self.maximum = maximum
        self.preferred = preferred
    }

    /// Whether `rate` lies inside the range.
    public func contains(_ rate: FrameRate) -> Bool { rate >= minimum && rate <= maximum }

    /// The range, such as `"40–50 Hz, preferred 45 Hz"` or `"30 Hz"` for a single rate.
    public var description: String {
        if minimum == maximum { return "\(minimum)" }
        let low = minimum.denominator == 1 ? "\(minimum.numerator)" : "\(minimum.framesPerSecond)"
        return "\(low)–\(maximum), preferred \(preferred)"
    }

    /// The rate to run at on a display that refreshes at `refreshRate`: `refreshRate` divided by
    /// the whole number that puts it inside the range and closest to ``preferred`` (see the type's
    /// description), with the reason.
    ///
    /// - Parameter refreshRate: The rate to divide: the display's refresh (or the loop's rate, for a
    ///   link).
    public func choice(dividing refreshRate: FrameRate) -> FrameRateChoice {
        let (divisor, isInside) = divisor(dividing: refreshRate)
        let every = divisor == 1 ? "every frame" : "every \(Self.ordinal(divisor)) frame"
        let why =
            isInside
            ? "\(every) of \(refreshRate): the even rate \(bounds) closest to \(preferred)"
            : "no even rate of \(refreshRate) lies \(bounds): \(every) is the closest to \(preferred)"
        return FrameRateChoice(
            range: self, rate: refreshRate.divided(by: divisor), divisor: divisor, dividedRate: refreshRate,
            isInsideRange: isInside, reason: why)
    }

    /// The whole number ``choice(dividing:)`` divides `refreshRate` by, and whether the rate it
    /// gives lies inside the range (computed exactly, without allocating: the frame path calls it).
    func divisor(dividing refreshRate: FrameRate) -> (divisor: Int, isInside: Bool) {
        // Only the two divisions on either side of the preferred rate can be closest to it: the
        // lowest rate at or above it (divisor q, if q ≥ 1) and the highest below it (q + 1).
        let quotient =
            Int128(refreshRate.numerator) * Int128(preferred.denominator)
            / (Int128(refreshRate.denominator) * Int128(preferred.numerator))
        let below = Int(clamping: quotient + 1)
        let lowRate = refreshRate.divided(by: below)
        guard quotient >= 1 else { return (below, contains(lowRate)) }
        let above = Int(clamping: quotient)
        let highRate = refreshRate.divided(by: above)
        switch (contains(highRate), contains(lowRate)) {
        case (true, false): return (above, true)
        case (false, true): return (below, true)
        case (let inside, _):
            // Both inside or both outside: the closer to the preferred rate (a tie: the higher).
            return Self.isCloser(lowRate, than: highRate, to: preferred) ? (below, inside) : (above, inside)
        }
    }

    /// The rate to pace at directly on a display that shows each frame as it comes (variable
    /// refresh from `display.lowerBound` to `display.upperBound`): the preferred rate, but never
    /// above the display's maximum.
    ///
    /// - Parameter display: The display's variable refresh range.
    public func choice(onVariableRefresh display: ClosedRange<FrameRate>) -> FrameRateChoice {
        let rate = min(preferred, display.upperBound)
        var why = "paced directly at \(rate): a variable-refresh display (\(display.lowerBound.framesPerSecond)–"
        why += "\(display.upperBound)) shows each frame as it comes"
        if rate < preferred { why += "; the preferred \(preferred) is above its maximum" }
        if rate < display.lowerBound { why += "; below its minimum, the display shows each frame more than once" }
        return FrameRateChoice(
            range: self, rate: rate, divisor: nil, dividedRate: nil, isInsideRange: contains(rate), reason: why)
    }

    /// The rate to pace at directly when no display refresh paces frames (no vsync): the preferred
    /// rate.
    public func choiceWithoutVsync() -> FrameRateChoice {
        FrameRateChoice(
            range: self, rate: preferred, divisor: nil, dividedRate: nil, isInsideRange: true,
            reason: "paced directly at \(preferred) by deadline: no vsync paces the frames")
    }

    /// The bounds, as `"in 40–50 Hz"` or `"at exactly 30 Hz"`.
    private var bounds: String {
        if minimum == maximum { return "at exactly \(minimum)" }
        let low = minimum.denominator == 1 ? "\(minimum.numerator)" : "\(minimum.framesPerSecond)"
        return "in \(low)–\(maximum)"
    }

    /// Whether `a` is strictly closer to `target` than `b`, where `a < target <= b` (exact).
    private static func isCloser(_ a: FrameRate, than b: FrameRate, to target: FrameRate) -> Bool {
        // target − a < b − target  ⟺  2·target < a + b, as fractions over a common denominator.
        let sum =
            (Int128(a.numerator) * Int128(b.denominator) + Int128(b.numerator) * Int128(a.denominator))
            * Int128(target.denominator)
        let twice = 2 * Int128(target.numerator) * Int128(a.denominator) * Int128(b.denominator)
        return twice < sum
    }

    static func ordinal(_ number: Int) -> String {
        switch (number % 100, number % 10) {
        case (11...13, _): "\(number)th"
        case (_, 1): "\(number)st"
        case (_, 2): "\(number)nd"
        case (_, 3): "\(number)rd"
        default: "\(number)th"
        }
    }
}
