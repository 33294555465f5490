// The periods a vsync grid may fit: those a display can have (see `_VsyncGrid`).
extension _VsyncGrid {
    /// The periods a display can have: 1 ms to 1 s (1 to 1,000 Hz; panels run from 24 to 500 Hz,
    /// variable-refresh ones down to 1 Hz). A fit outside is not a display's vsync but returns
    /// numbered wrongly: the window starts again and the last plausible fit stays the measurement.
    /// (Fits of a few microseconds passed a trapping rate initializer in games under load.)
    static let plausiblePeriods: ClosedRange<Int64> = 1_000_000...1_000_000_000

    /// The nearest period a display can have (see ``plausiblePeriods``).
    static func plausible(_ period: Int64) -> Int64 {
        min(max(period, plausiblePeriods.lowerBound), plausiblePeriods.upperBound)
    }

    /// Whether a fitted period is one a display can have (see ``plausiblePeriods``).
    static func isPlausible(period: Double) -> Bool {
        period.isFinite && period >= Double(plausiblePeriods.lowerBound)
            && period <= Double(plausiblePeriods.upperBound)
    }
}
