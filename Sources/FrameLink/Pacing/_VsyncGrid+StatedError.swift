// The vsync grid's stated error: how far its line, and its period, may be from the true vsync at
// the 99th percentile, from the returns it rests on (see `_VsyncGrid`).
extension _VsyncGrid {
    /// The line's error at the vsync after the window's newest return, in mean delays times the
    /// window's length in returns, at the 99th percentile: 48. Measured on this grid fed returns
    /// late by one-sided random delays (600 windows each of 32 to 96 returns, delays spread evenly
    /// up to 1.5 ms, whose density near zero is the lowest for their mean): the error passed
    /// 48 mean delays / n in 1.7 % of the windows at 32 returns, 0.7 % at 96 (32, the ideal
    /// lower-hull fit's 99th percentile, was passed in 7.5 % and 2 %). Exponential delays stay far
    /// inside it. `VsyncGridPrecisionTests` holds the grid to it. (From ``longWindowReturns`` on,
    /// ``longWindowErrorPerMeanDelay``.)
    static let nextVsyncErrorPerMeanDelay: Int64 = 48
    /// The same factor for a window of ``longWindowReturns`` or more: 40. Measured on this grid
    /// (2,000 windows each of 96 to 512 returns with delays spread evenly up to 1.5 ms, 600 with
    /// exponential ones of mean 0.5 ms; the published line's true error, counted with the carried
    /// growth of ``carriedErrorGrowth``): from 160 returns on the 99th percentile of the factor
    /// the error needed was 31–39 at the next vsync, 300 vsyncs on and ten windows on, except ten
    /// windows on from 256 and 512 returns (40.3 and 57; their 98th percentiles 28.5 and 33.7), and
    /// at most 21 for exponential delays; at 96 returns it was 66, and at 128 it was 38.5–42.4.
    /// The quarter lows that pin the hull are what is short in a short window; a long one's lower
    /// hull has more low returns to rest on. With 48 throughout, a window of delays up to 1.5 ms
    /// claimed the vsync only after 360 returns, 1.2 times as many as it needs.
    static let longWindowErrorPerMeanDelay: Int64 = 40
    /// The window length from which ``longWindowErrorPerMeanDelay`` states the error: 160 returns.
    static let longWindowReturns = 160

    /// The factor of the stated error at the next vsync for a window of `count` returns:
    /// ``nextVsyncErrorPerMeanDelay``, or ``longWindowErrorPerMeanDelay`` from
    /// ``longWindowReturns`` on.
    static func errorPerMeanDelay(returns count: Int) -> Int64 {
        count >= longWindowReturns ? longWindowErrorPerMeanDelay : nextVsyncErrorPerMeanDelay
    }
    /// The most vsyncs past the window's newest return that ``uncertainty(ofNumber:)`` counts:
    /// a million (4.6 hours at 60 Hz), which keeps the product inside `Int64`; anything that far is
    /// unknown anyway.
    static let longestExtrapolation: Int64 = 1_000_000

    /// How far the published line may be from the true vsync `number`, at the 99th percentile:
    /// the stated model of the fit's error. Returns reach the line late by one-sided random delays
    /// (never early); a line fitted to n of them, with mean delay d, is off at the vsync after the
    /// newest by up to ``errorPerMeanDelay(returns:)`` × d / n, and its period by up to twice that
    /// over n (the ideal lower-hull fit's 99th-percentile period error was 38–49 × d / n² for
    /// delays spread evenly, 21–25 for exponential ones; this grid's, at 48 returns, needs the
    /// factor 2 to stay inside in 98 % of windows), so the error grows by that much per vsync it is
    /// carried past the newest return (a window kept while presents stopped blocking, a
    /// hidden window). Plus how far the published line still is from the fit (it follows the fit
    /// gradually). `Int64.max` without a grid.
    func uncertainty(ofNumber number: Int64) -> Int64 {
        guard hasGrid, let newest = numbers.last else { return .max }
        // (The lag is read within the distance the statement counts: a time further out than a
        // double converts back from is not a vsync any caller asks about.)
        let near = min(max(number, newest - Self.longestExtrapolation), newest + Self.longestExtrapolation)
        let lag = abs(time(ofNumber: near) - fittedTime(ofNumber: near))
        return errorAtNextVsync + carriedUncertainty(ofNumber: number) + lag
    }

    /// The part of ``uncertainty(ofNumber:)`` that comes from carrying the line from its newest
    /// return to vsync `number` (zero at and before it; `Int64.max` without a grid).
    func carriedUncertainty(ofNumber number: Int64) -> Int64 {
        guard hasGrid, let newest = numbers.last else { return .max }
        let carried = min(max(0, number - newest), Self.longestExtrapolation)
        if slopeFit == .reported, let reportError = reportedPeriodUncertainty {
            // The slope weighs in the report: its error is the two errors' combination.
            let windowGrowth =
                Double(Self.carriedErrorGrowth.numerator * errorAtNextVsync)
                / Double(Self.carriedErrorGrowth.denominator * Int64(times.count))
            return Int64((Self.combinedError(windowGrowth, reportError) * Double(carried)).rounded(.up))
        }
        return Self.carriedErrorGrowth.numerator * errorAtNextVsync * carried
            / (Self.carriedErrorGrowth.denominator * Int64(times.count))
    }

    /// The error of the mean of two estimates weighed by the inverse squares of their errors `a`
    /// and `b` (``reportedSlope(windowPeriod:)``): less than either, 1 / √(1/a² + 1/b²).
    static func combinedError(_ a: Double, _ b: Double) -> Double {
        guard a > 0, b > 0 else { return min(max(a, 0), max(b, 0)) }
        return 1 / (1 / (a * a) + 1 / (b * b)).squareRoot()
    }

    /// How fast the stated error grows while the line is carried past its newest return: this
    /// many times its error at the next vsync per window length of vsyncs (the slope's error is
    /// the line's spread over the window): 3/2. Measured on this grid (400 random windows each of
    /// 48 to 512 returns, carried one, three and ten window lengths): the 99th percentile of the
    /// factor the true error needed was at most 1.47, with delays spread evenly up to 1.5 ms (the
    /// hardest for the model; exponential ones needed at most 0.66). Twice, as before, kept claims
    /// of a drained swap chain's carried line a quarter shorter than its true drift allows.
    /// `VsyncGridPrecisionTests` holds the grid to it, ten windows on.
    static let carriedErrorGrowth: (numerator: Int64, denominator: Int64) = (3, 2)

    /// The line's stated error at the vsync after the window's newest return:
    /// ``errorPerMeanDelay(returns:)`` × mean delay / returns in the window (with a grid, the
    /// window is never empty).
    var errorAtNextVsync: Int64 {
        Self.errorPerMeanDelay(returns: times.count) * meanDelay / Int64(max(1, times.count))
    }

    /// How far the fitted period may be from the true one, at the 99th percentile: the growth of
    /// the line's stated error per vsync it is carried (``carriedErrorGrowth`` times its error at
    /// the next vsync, per window length). Zero without a grid.
    var periodUncertainty: Double {
        guard hasGrid && !times.isEmpty else { return 0 }
        let windowError = statedPeriodError(count: times.count, meanDelay: meanDelay)
        if slopeFit == .reported, let reportError = reportedPeriodUncertainty {
            return Self.combinedError(windowError, reportError)
        }
        return windowError
    }

    /// The period error the window's own fit would state now (``periodUncertainty``'s
    /// statement for `count` returns late by `meanDelay` on average).
    func statedPeriodError(count: Int, meanDelay: Int64) -> Double {
        Double(Self.carriedErrorGrowth.numerator * Self.errorPerMeanDelay(returns: count) * meanDelay)
            / Double(Self.carriedErrorGrowth.denominator * Int64(count) * Int64(count))
    }
}
