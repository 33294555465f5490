/// A range of acceptable frame rates and the rate preferred within it, for a ``DisplayLink`` or a
/// whole ``FrameLoop``: the FrameLink counterpart of `CAFrameRateRange`.
///
/// On a display with a fixed refresh, only the rates that divide it evenly give evenly spaced
/// frames (30 on 60 Hz is every 2nd refresh; 45 on 60 Hz would alternate 1 and 2 refreshes). So
/// the rate chosen is the refresh rate divided by a whole number — the one inside the range that
/// lies closest to the preferred rate: 30 on 60 Hz, 72 on 144 Hz for a preferred 72, 48 on 144 Hz
/// for 40–50. When no such rate lies inside the range, the one closest to the preferred rate is
/// chosen anyway (a tie goes to the higher rate), and the choice says so. A rate within 0.5 % of a
/// bound counts as inside it, so a display measured a little off its nominal rate (60.001 Hz, or
/// 29.97 Hz, half of NTSC's 59.94, for "exactly 30") chooses as the nominal rate would
/// (``FrameRateChoice/isInsideRange`` says so, where ``contains(_:)`` is exact). On a display that shows
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
            throw .invalidFrameRate("frame-rate range \(minimum.number)–\(maximum): the minimum is above the maximum")
        }
        let preferred = preferred ?? maximum
        guard preferred >= minimum && preferred <= maximum else {
            throw .invalidFrameRate(
                "frame-rate range \(minimum.number)–\(maximum): the preferred \(preferred) lies outside it")
        }
        self.minimum = minimum
        self.maximum = maximum
        self.preferred = preferred
    }

    /// Whether `rate` lies inside the range, exactly.
    public func contains(_ rate: FrameRate) -> Bool { rate >= minimum && rate <= maximum }

    /// Whether `rate` lies inside the range or within 0.5 % of it: a display measured at
    /// 60.001 Hz, or NTSC's 29.97 Hz for a range of exactly 30, counts as inside.
    func nearlyContains(_ rate: FrameRate) -> Bool {
        // rate ≥ 0.995 × minimum and rate ≤ 1.005 × maximum, as exact fractions.
        let value = Int128(rate.numerator)
        let scale = Int128(rate.denominator)
        let low = value * 1000 * Int128(minimum.denominator) >= 995 * Int128(minimum.numerator) * scale
        let high = value * 1000 * Int128(maximum.denominator) <= 1005 * Int128(maximum.numerator) * scale
        return low && high
    }

    /// The range, such as `"40–50 Hz, preferred 45 Hz"` or `"30 Hz"` for a single rate.
    public var description: String {
        if minimum == maximum { return "\(minimum)" }
        return "\(minimum.number)–\(maximum), preferred \(preferred)"
    }

    /// The rate to run at on a display that refreshes at `refreshRate`: `refreshRate` divided by
    /// the whole number that puts it inside the range and closest to ``preferred`` (see the type's
    /// description), with the reason. A rate within 0.5 % of a bound counts as inside it (a
    /// display measured at 60.001 Hz is inside 30–60 Hz; NTSC's 29.97 Hz is "exactly 30").
    ///
    /// - Parameter refreshRate: The rate to divide: the display's refresh (or the loop's rate, for a
    ///   link).
    public func choice(dividing refreshRate: FrameRate) -> FrameRateChoice {
        let (divisor, isInside) = divisor(dividing: refreshRate)
        return choice(dividing: refreshRate, by: divisor, isInside: isInside)
    }

    /// The choice of `divisor` for `refreshRate` (chosen earlier, for a rate within 0.5 % of it),
    /// with its reason.
    func choice(dividing refreshRate: FrameRate, by divisor: Int, isInside: Bool? = nil) -> FrameRateChoice {
        let isInside = isInside ?? nearlyContains(refreshRate.divided(by: divisor))
        let every = divisor == 1 ? "every frame" : "every \(Self.ordinal(divisor)) frame"
        let why =
            isInside
            ? "\(every) of \(refreshRate): the even rate \(bounds) closest to \(preferred)"
            : "no even rate of \(refreshRate) lies \(bounds): \(every) is the closest to \(preferred)"
        return FrameRateChoice(
            range: self, rate: refreshRate.divided(by: divisor), divisor: divisor, dividedRate: refreshRate,
            isInsideRange: isInside, reason: why)
    }

    /// The most a rate is divided: a preferred rate a million times below the refresh is a
    /// million times below it (and no fraction overflows).
    static let largestDivisor: Int128 = 1_000_000

    /// The whole number ``choice(dividing:)`` divides `refreshRate` by, and whether the rate it
    /// gives lies inside the range (without allocating: the frame path calls it).
    func divisor(dividing refreshRate: FrameRate) -> (divisor: Int, isInside: Bool) {
        // Only the two divisions on either side of the preferred rate can be closest to it: the
        // lowest rate at or above it (divisor q, if q ≥ 1) and the highest below it (q + 1).
        let quotient = min(
            Int128(refreshRate.numerator) * Int128(preferred.denominator)
                / (Int128(refreshRate.denominator) * Int128(preferred.numerator)), Self.largestDivisor)
        let below = Int(quotient + 1)
        let lowRate = refreshRate.divided(by: below)
        guard quotient >= 1 else { return (below, nearlyContains(lowRate)) }
        let above = Int(quotient)
        let highRate = refreshRate.divided(by: above)
        switch (nearlyContains(highRate), nearlyContains(lowRate)) {
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
        choice(onVariableRefresh: display, cappedAt: nil)
    }

    /// ``choice(onVariableRefresh:)``, never above `cap` either (a rate the game asked the host to
    /// keep frames under: a cap holds over a faster range, as its documentation says).
    func choice(onVariableRefresh display: ClosedRange<FrameRate>, cappedAt cap: FrameRate?) -> FrameRateChoice {
        let capped = cap.map { min($0, display.upperBound) } ?? display.upperBound
        let rate = min(preferred, capped)
        var why = "paced directly at \(rate): a variable-refresh display (\(display.lowerBound.number)–"
        why += "\(display.upperBound)) shows each frame as it comes"
        if rate < preferred {
            why +=
                capped < display.upperBound
                ? "; the preferred \(preferred) is above the cap of \(capped)"
                : "; the preferred \(preferred) is above its maximum"
        }
        if rate < display.lowerBound { why += "; below its minimum, the display shows each frame more than once" }
        return FrameRateChoice(
            range: self, rate: rate, divisor: nil, dividedRate: nil, isInsideRange: nearlyContains(rate), reason: why)
    }

    /// The rate to pace at directly by deadline when no vsync paces frames: the preferred rate, or
    /// `maximum` if that is lower (the display's rate, which frames never exceed).
    ///
    /// - Parameter maximum: The highest rate allowed, or `nil` for none.
    public func directChoice(atMost maximum: FrameRate? = nil) -> FrameRateChoice {
        let rate = maximum.map { min(preferred, $0) } ?? preferred
        var why = "paced directly at \(rate) by deadline: no vsync paces the frames"
        if rate < preferred { why += "; the preferred \(preferred) is above the display's \(rate)" }
        return FrameRateChoice(
            range: self, rate: rate, divisor: nil, dividedRate: nil, isInsideRange: nearlyContains(rate), reason: why)
    }

    /// The bounds, as `"in 40–50 Hz"` or `"at exactly 30 Hz"`.
    private var bounds: String {
        if minimum == maximum { return "at exactly \(minimum)" }
        return "in \(minimum.number)–\(maximum)"
    }

    /// Whether `a` is strictly closer to `target` than `b`, where `a < target <= b`: exact for
    /// any fractions whose products fit 128 bits (every rate built from frames per second or a
    /// period), else in floating point.
    private static func isCloser(_ a: FrameRate, than b: FrameRate, to target: FrameRate) -> Bool {
        // target − a < b − target  ⟺  2·target < a + b, as fractions over a common denominator.
        func product(_ values: Int128...) -> Int128? {
            var result: Int128 = 1
            for value in values {
                let (next, overflow) = result.multipliedReportingOverflow(by: value)
                if overflow { return nil }
                result = next
            }
            return result
        }
        if let left = product(Int128(a.numerator), Int128(b.denominator), Int128(target.denominator)),
            let right = product(Int128(b.numerator), Int128(a.denominator), Int128(target.denominator)),
            let twice = product(2, Int128(target.numerator), Int128(a.denominator), Int128(b.denominator)),
            case (let sum, false) = left.addingReportingOverflow(right)
        {
            return twice < sum
        }
        return 2 * target.framesPerSecond < a.framesPerSecond + b.framesPerSecond
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
