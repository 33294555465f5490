// The display's own report as the vsync grid's slope, while the window's returns pin the period
// less well than the report does (see `_VsyncGrid.fit()`).
extension _VsyncGrid {
    /// How far a display's report of `rate` may be from its true rate, as a period in nanoseconds.
    /// **A report in whole hertz is a rounding**: SDL 2 reports whole hertz, and a 59.94 Hz display
    /// comes as 59 or 60, so it is within ``wholeHertzReportError``. **A report with a fraction is
    /// the mode's own** (a mode line, a compositor's millihertz), within the display clock's
    /// tolerance (``reportedClockTolerance``).
    static func reportedPeriodError(of rate: FrameRate) -> Double {
        let hertz = Double(rate.numerator) / Double(rate.denominator)
        let period = 1e9 / hertz
        guard rate.denominator == 1 else { return period / reportedClockTolerance }
        // (A period of (rate − 1) Hz is the furthest a whole-hertz report is off.)
        return hertz > wholeHertzReportError ? 1e9 / (hertz - wholeHertzReportError) - period : period
    }

    /// How far a report in whole hertz may be from the display's rate: 1 Hz.
    static let wholeHertzReportError = 1.0

    /// The tolerance of a display's clock, as the divisor of its period: 10,000 (100 ppm, a
    /// crystal's; a mode's rate is what its clock divides down to, within that).
    static let reportedClockTolerance = 10_000.0

    /// The line's slope from the display's reported period and the window's own (`windowPeriod`:
    /// the hull's, or the low-quantile line's), or `nil` for the window's alone.
    ///
    /// **The report weighs in as much as it is known better**: the slope is the mean of the two
    /// periods, each weighed by the inverse square of its error, while the window does not
    /// contradict the report (they differ by no more than both errors; then the window's alone,
    /// as for a display that reports no rate of its own). The window's error is its stated
    /// one (``statedPeriodError(count:meanDelay:)``, for the mean delay above the window's own line)
    /// over the vsyncs its returns really span: the first eight returns of frames that seldom
    /// block may lie hundreds of vsyncs apart, and pin the period that much better. (Taken from
    /// its first eight returns alone, a fit 0.14 % off a 116.37 Hz display reported exactly paced
    /// frames at 116.21 Hz; presents with room in a chain of three buffers never blocked again to
    /// correct it, and the display repeated a frame every 700; a fit 0.14 % off a 190.65 Hz
    /// display drifted a millisecond from the vsync in 120 frames, and a present that returned at
    /// once was taken for one a vsync released: found by the sweep. Handed over whole once the
    /// window's statement was the smaller, a hull 680 ns off, above its own statement, under
    /// log-normal delays, took timestamps from 98 to 155 µs off the vsync.)
    func reportedSlope(windowPeriod: Double) -> Double? {
        guard let reportError = reportedPeriodUncertainty, times.count >= 2 else { return nil }
        // The delays above the lowest line of the window's slope.
        var lowest = Double.infinity
        var total = 0.0
        for index in times.indices {
            let residual = Double(times[index] - times[0]) - Double(numbers[index] - numbers[0]) * windowPeriod
            lowest = min(lowest, residual)
            total += residual
        }
        let meanWindowDelay = Int64(max(0, total / Double(times.count) - lowest))
        let returns = Double(times.count - 1)
        let span = max(Double(numbers[times.count - 1] - numbers[0]), returns)
        let windowError = statedPeriodError(count: times.count, meanDelay: max(meanWindowDelay, 1)) * returns / span
        let report = Double(nominalPeriod)
        guard abs(windowPeriod - report) <= windowError + reportError else { return nil }
        // Each weighed by the inverse square of its error (the statements are the same percentile
        // of each one's spread).
        let (windowWeight, reportWeight) = (1 / (windowError * windowError), 1 / (reportError * reportError))
        return (windowPeriod * windowWeight + report * reportWeight) / (windowWeight + reportWeight)
    }
}
