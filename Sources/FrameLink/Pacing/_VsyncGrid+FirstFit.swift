// The vsync grid's first fit: the rules that turn the intervals between the first returns into a
// vsync period, pure functions of what the window holds (see `_VsyncGrid.fitFromScratch()`).
extension _VsyncGrid {
    /// Whether a first fit of `period` is one a fixed display reported at `nominalPeriod` can
    /// have: within a quarter of the report's period (``firstFitReportFraction``: a first fit rests
    /// on 8 returns, and delays of a third of a period move it by several percent), or a whole
    /// multiple of it up to ``largestVsyncMultiple`` (frames shown on every k-th vsync), within
    /// ``nominalMultipleTolerance``. (Returns of a window hidden before the first fit, whose
    /// presents waited for frame callbacks until a 50 ms timeout, were fitted as an 18.18 Hz
    /// display reported at 60: with three buffers its frames were paced 55 ms apart for good, no
    /// present blocked again to say otherwise, and 1,127 missed refreshes went unbooked: found by
    /// review.)
    static func fitsReport(period: Int64, nominalPeriod: Int64) -> Bool {
        guard period > 0, nominalPeriod > 0 else { return false }
        if abs(period - nominalPeriod) * firstFitReportFraction <= nominalPeriod { return true }
        let multiple = (period + nominalPeriod / 2) / nominalPeriod
        return multiple >= 2 && multiple <= largestVsyncMultiple
            && abs(period - multiple * nominalPeriod) * nominalMultipleTolerance <= multiple * nominalPeriod
    }

    /// Whether a first fit of `period` is a cadence a variable-refresh display of fastest period
    /// `fastestPeriod` blocks presents at: within ``firstFitReportFraction`` of that period. Such a
    /// display shows a frame as it comes, so presents wait for its refreshes only while frames
    /// outrun its fastest one; returns of presents that blocked now and then at any other cadence
    /// (a full chain behind a late frame) are no vsync's. (Eight such returns over 350 frames of a
    /// 42–151 Hz display were fitted as a 29.4 Hz grid, slower than the display ever refreshes, and
    /// frames were paced 34 ms apart for good, each shown twice and none booked: found by review.)
    static func fitsVariableRefresh(period: Int64, fastestPeriod: Int64) -> Bool {
        fastestPeriod > 0 && abs(period - fastestPeriod) * firstFitReportFraction <= fastestPeriod
    }

    /// How far a first fit may be from a display's own report, as a fraction of its period: a
    /// quarter.
    static let firstFitReportFraction: Int64 = 4

    /// A first fit's period may be at most this many times the time per present: 3/2 (delays and
    /// missed refreshes lengthen it; a period longer is no vsync's).
    static let longestPeriodPerPresent = 1.5

    /// The vsync interval of a first fit: `candidate` (from the intervals between returns), unless
    /// it is longer than ``longestPeriodPerPresent`` times the median time per present: a FIFO swap
    /// chain shows every present on a vsync of its own, so returns some presents apart are at
    /// least that many vsyncs apart. Then the nominal period, if the time per present allows it,
    /// else the time per present. (Presents that seldom blocked, 9 of 600 with 3 buffers and frames
    /// of about a period, returned 21 periods apart: a 2.86 Hz fit paced frames at that rate.)
    static func vsyncInterval(candidate: Int64, timePerPresent: Double?, nominalPeriod: Int64) -> Int64 {
        guard let timePerPresent, Double(candidate) > timePerPresent * longestPeriodPerPresent else {
            return candidate
        }
        return Double(nominalPeriod) <= timePerPresent * longestPeriodPerPresent
            ? nominalPeriod : Int64(timePerPresent)
    }

    /// A first fit that does not hold starts over from the newest of its returns: the window
    /// divided by this, a half (the older returns are the likelier to come from before a change).
    static let restartKeepsDivisor = 2

    /// A first fit holds when no return lies more than a period divided by this above its line:
    /// half a period (a vsync grid numbers a return within half a period; one further off was
    /// numbered by a median interval that was not one vsync).
    static let firstFitLargestDelayFraction: Int64 = 2

    /// The most vsyncs a median interval is ever taken to span.
    static let largestVsyncMultiple: Int64 = 8

    /// How close an interval between returns must be to a whole number of nominal periods to be
    /// taken as that many vsyncs: 2 % (a display reported in whole hertz runs within 1.7 % of its
    /// report at 59 Hz; an emulated throttle, 4 % off at 62.5 Hz for a 60 Hz report, is not one).
    static let nominalMultipleTolerance: Int64 = 50

    /// The vsync interval the first returns share when their intervals are whole numbers of nominal
    /// periods with no common divisor above one (3, 4, 5 and 7 periods apart, as when only some
    /// presents of frames that hover at a period block): then the display refreshes every nominal
    /// period, whatever the median interval; measured as the intervals' sum over the periods they
    /// span (not the nominal period, which may be a little wrong). `nil` otherwise (a common
    /// divisor above one, as a slower display than reported gives, or intervals that are not
    /// whole numbers of nominal periods): the median decides.
    static func commonVsyncInterval(of intervals: [Int64], nominalPeriod: Int64) -> Int64? {
        guard nominalPeriod > 0, !intervals.isEmpty else { return nil }
        var divisor: Int64 = 0
        var total: Int64 = 0
        var periods: Int64 = 0
        for interval in intervals {
            let multiple = (interval + nominalPeriod / 2) / nominalPeriod
            guard multiple >= 1, multiple <= largestVsyncMultiple,
                abs(interval - multiple * nominalPeriod) * nominalMultipleTolerance <= multiple * nominalPeriod
            else { return nil }
            divisor = greatestCommonDivisor(divisor, multiple)
            total += interval
            periods += multiple
        }
        // (All one period apart: the median says the same.)
        guard divisor == 1, periods > Int64(intervals.count) else { return nil }
        return total / periods
    }

    /// The greatest common divisor of two non-negative numbers.
    static func greatestCommonDivisor(_ a: Int64, _ b: Int64) -> Int64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }

    /// A median interval stands for k vsyncs when it is within k nominal periods divided by this:
    /// 2 % (a display's rate is reported within about 1 Hz of the truth: 59.94 Hz as 59 is 1.6 %
    /// off; a 30 Hz mode reported as 60 is 100 % off, and is not a multiple).
    static let multipleToleranceDivisor: Int64 = 50

    /// The interval between vsyncs that a median interval between returns stands for: the median
    /// itself, or a k-th of it when it is within 2 % of k nominal periods and the source's pacing
    /// explains k vsyncs between returns (k from 2 to `largestMultiple`). Frames that take longer
    /// than a period (a game loading, compiling shaders) present on every k-th vsync, and their
    /// returns are on the display's grid, k vsyncs apart: fitted as such, the grid is the
    /// display's from the start, and stays so when frames get faster. Light frames whose returns
    /// come k nominal periods apart are on a slower display than reported (a 30 Hz mode reported
    /// as 60): their median is the vsync's. The k-th of the measured median, not the nominal
    /// period, is the first estimate, so a rate reported a little wrong (59.94 Hz reported as 59)
    /// does not matter.
    static func vsyncInterval(fromMedian median: Int64, nominalPeriod: Int64, largestMultiple: Int64) -> Int64 {
        guard nominalPeriod > 0, largestMultiple >= 2 else { return median }
        let multiple = (Double(median) / Double(nominalPeriod)).rounded()
        guard multiple >= 2, multiple <= Double(largestMultiple) else { return median }
        let k = Int64(multiple)
        guard abs(median - k * nominalPeriod) * multipleToleranceDivisor <= k * nominalPeriod else { return median }
        return median / k
    }
}
