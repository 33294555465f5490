/// A pacer's intervals under one load, and what they add up to.
struct PaceTally {
    /// The thresholds, in milliseconds, that an interval's distance from the period is counted
    /// against.
    static let thresholds = [0.25, 0.5, 1, 2]

    /// Every interval, in milliseconds.
    private(set) var intervals: [Double] = []
    /// The CPU share of each run, in percent of one core, weighted by its intervals.
    private var cpuWeighted = 0.0

    /// Adds a run's intervals and CPU share.
    mutating func add(_ run: (intervals: [Double], cpuPercent: Double)) {
        intervals += run.intervals
        cpuWeighted += run.cpuPercent * Double(run.intervals.count)
    }

    /// The mean CPU share, in percent of one core.
    var cpuPercent: Double { intervals.isEmpty ? 0 : cpuWeighted / Double(intervals.count) }

    /// How many intervals per 10,000 were off the period by more than each of ``thresholds``.
    func missesPer10000(period: Double) -> [Double] {
        let errors = intervals.map { abs($0 - period) }
        return Self.thresholds.map { threshold in
            Double(errors.count { $0 > threshold }) * 10_000 / Double(max(1, errors.count))
        }
    }

    /// The p50, p99 and maximum of |interval − period|, in milliseconds.
    func errorPercentiles(period: Double) -> (p50: Double, p99: Double, max: Double) {
        let sorted = intervals.map { abs($0 - period) }.sorted()
        guard let last = sorted.last else { return (0, 0, 0) }
        return (sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 99 / 100)], last)
    }
}
