import Testing

@testable import FrameLink

/// The display's own report in the vsync grid's period: how far a report may be off, and how it is
/// weighed with the window's own period (virtual time, no lab).
@Suite("Vsync grid: the display's report weighs in the period as much as it is known better")
struct VsyncGridReportTests {
    /// Reports and the error of each, in nanoseconds of period.
    static let reports: [(rate: FrameRate, error: Double)] = [
        (FrameRate(numerator: 60), 1e9 / 59 - 1e9 / 60),
        (FrameRate(numerator: 240), 1e9 / 239 - 1e9 / 240),
        (FrameRate(numerator: 11_637, denominator: 100), 1e9 / 116.37 / 10_000),
        (FrameRate.hz59_94, 1e9 * 1_001 / 60_000 / 10_000),
    ]

    @Test(
        "a whole-hertz report is within 1 Hz, a report with a fraction within the clock's 100 ppm", arguments: reports)
    func reportedPeriodError(rate: FrameRate, expected: Double) {
        #expect(abs(_VsyncGrid.reportedPeriodError(of: rate) - expected) < 1e-6)
    }

    /// A grid for a display of `period` reported as `reported` (a report with its own error when
    /// `isReport`), given a return for each of `count` vsyncs from 0, late by delays spread evenly
    /// up to `spread` (a fixed pseudo-random sequence).
    static func grid(period: Int64, reported: Int64, isReport: Bool, count: Int64, spread: Int64) -> _VsyncGrid {
        var grid = _VsyncGrid(nominalPeriod: reported)
        grid.nominalIsDisplaysReport = isReport
        // (A report with a fraction: within the clock's tolerance.)
        grid.reportedPeriodUncertainty = isReport ? Double(reported) / _VsyncGrid.reportedClockTolerance : nil
        var random = SplitMix64(seed: 29)
        for number in 0..<count {
            let unit = Double(random.next() >> 11) / Double(1 << 53)
            grid.add(returnTime: 3_000_000 + number * period + Int64(unit * Double(spread)))
        }
        return grid
    }

    @Test(
        "eight returns late by up to 1.1 ms: a display reported exactly keeps the report's period, one reporting none the returns'"
    )
    func reportWeighsInAShortWindow() {
        let period: Int64 = 8_593_280  // 116.37 Hz
        let reported = Self.grid(period: period, reported: period, isReport: true, count: 8, spread: 1_100_000)
        let unreported = Self.grid(period: period, reported: period, isReport: false, count: 8, spread: 1_100_000)
        #expect(reported.hasGrid && unreported.hasGrid)
        #expect(reported.slopeFit == .reported)
        #expect(abs(reported.period - Double(period)) < 10, "weighed toward the report: \(reported.period)")
        #expect(unreported.slopeFit != .reported)
        #expect(
            abs(unreported.period - Double(period)) > 1_000, "the returns alone pin it far less: \(unreported.period)")
    }

    @Test("a long window that contradicts the report (a display 0.2 % off what it says): the returns' period alone")
    func contradictedReport() {
        let period: Int64 = 8_593_280
        let wrongReport = period + period / 500
        let grid = Self.grid(period: period, reported: wrongReport, isReport: true, count: 200, spread: 100_000)
        #expect(grid.slopeFit != .reported)
        #expect(abs(grid.period - Double(period)) < 100, "\(grid.period)")
    }

    @Test("the weight follows the errors: the report's error against the window's, over the vsyncs it spans")
    func weightsFollowTheErrors() {
        let period: Int64 = 16_666_667
        var short = Self.grid(period: period, reported: period, isReport: true, count: 8, spread: 500_000)
        // A window slope 2 µs off the report: with eight returns its stated error is far above a
        // mode line's 1.7 µs, so the slope stays within a small part of that gap of the report.
        let near = short.reportedSlope(windowPeriod: Double(period) + 2_000)
        #expect(near.map { abs($0 - Double(period)) < 200 } == true, "\(String(describing: near))")
        // No report: nothing weighs in.
        short.reportedPeriodUncertainty = nil
        #expect(short.reportedSlope(windowPeriod: Double(period) + 2_000) == nil)
        // Two hundred returns state the period within a few hundred nanoseconds: a slope 200 ns off
        // the report is weighed mostly toward the window; one 5 µs off contradicts the report (the
        // delays above a line of that slope, tilted a millisecond over the window, widen its
        // statement: 2 µs did not contradict it).
        let long = Self.grid(period: period, reported: period, isReport: true, count: 200, spread: 500_000)
        let weighed = long.reportedSlope(windowPeriod: Double(period) + 200)
        #expect(
            weighed.map { $0 > Double(period) + 100 && $0 < Double(period) + 200 } == true,
            "\(String(describing: weighed))")
        #expect(long.reportedSlope(windowPeriod: Double(period) + 5_000) == nil)
    }

    @Test("the period's error with the report weighed in is the two errors' combination, below either")
    func combinedError() {
        #expect(abs(_VsyncGrid.combinedError(3, 4) - 2.4) < 1e-12)
        #expect(_VsyncGrid.combinedError(145, 503) < 145)
        #expect(_VsyncGrid.combinedError(0, 503) == 0)
        // A grid on the report carries its line with the combined error per vsync, not the window's.
        let period: Int64 = 8_593_280
        let grid = Self.grid(period: period, reported: period, isReport: true, count: 8, spread: 1_100_000)
        let newest = grid.numbers.last!
        let growth = _VsyncGrid.carriedErrorGrowth
        let windowGrowth =
            Double(growth.numerator * grid.errorAtNextVsync) / Double(growth.denominator * Int64(grid.times.count))
        let carried = Double(grid.carriedUncertainty(ofNumber: newest + 100))
        #expect(grid.slopeFit == .reported)
        #expect(carried < windowGrowth * 100 / 10, "carried \(carried) against the window's \(windowGrowth * 100)")
        #expect(grid.periodUncertainty <= Double(period) / _VsyncGrid.reportedClockTolerance)
    }
}
