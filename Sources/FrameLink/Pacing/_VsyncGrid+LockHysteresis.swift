// When the vsync grid may take a phase lock it does not hold (see `_VsyncGrid.judge()`).
extension _VsyncGrid {
    /// Whether a lock that ``judge()`` grants may be taken now. A line already locked keeps it
    /// (``publish()`` drops it when the fit moves on more than ``lockTolerance`` from the line).
    /// An unlocked line takes it only once it is within ``lockPrecision`` of the fit: the lock has
    /// hysteresis, from 20 µs to 50 µs. Without it, a fit hovering near 50 µs from a line that
    /// follows it unlocked by an eighth of the gap per fit was locked by one fit and unlocked by
    /// the next: under a delay floor wandering 0–80 µs the lock turned on and off 106–126 times
    /// in 3,000 frames (review 17).
    ///
    /// A line published as the fit is (the first fit, a kept period's line) has no gap.
    func mayTakeLock(wasLocked: Bool) -> Bool {
        guard !wasLocked, slopeFit != .keptPeriod, let published, let newest = numbers.last else {
            return true
        }
        let fitted = origin + Double(newest) * period
        let line = published.time + Double(newest - published.number) * published.period
        return abs(fitted - line) <= Double(Self.lockPrecision)
    }
}
