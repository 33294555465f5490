// Where the vsync grid's slope comes from (see `_VsyncGrid.fit()`).
extension _VsyncGrid {
    /// Where the line's slope comes from.
    enum SlopeFit: Equatable {
        /// The edge of the returns' lower hull (see the type's description).
        case lowerHull
        /// The low-quantile regression line (`_LowQuantileLine`): the hull's two returns lay
        /// further from it than the hull's stated error allows.
        case lowQuantile
        /// The period kept across a phase restart (``_VsyncGrid/restartPhaseKeepingPeriod()``),
        /// while the window's own is less certain.
        case keptPeriod
        /// The display's own report weighed with the window's slope, while the window does not
        /// contradict it (``_VsyncGrid/reportedSlope(windowPeriod:)``).
        case reported
    }
}
