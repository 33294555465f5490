/// The size of a set of errors: the median, the 99th percentile and the largest of their
/// magnitudes, in nanoseconds (nearest-rank percentiles).
package struct ErrorStatistics: Sendable, Equatable, CustomStringConvertible {
    /// How many errors there were.
    package let count: Int
    /// The median magnitude, in nanoseconds.
    package let median: Int64
    /// The 99th-percentile magnitude, in nanoseconds.
    package let percentile99: Int64
    /// The largest magnitude, in nanoseconds.
    package let maximum: Int64

    /// Creates the statistics of `errors` (signed nanoseconds; their magnitudes are ranked), or
    /// `nil` if there are none.
    ///
    /// - Parameter errors: The errors, in nanoseconds.
    package init?(errors: [Int64]) {
        guard !errors.isEmpty else { return nil }
        let magnitudes = errors.map { $0 == .min ? Int64.max : abs($0) }.sorted()
        count = magnitudes.count
        median = Self.rank(0.5, in: magnitudes)
        percentile99 = Self.rank(0.99, in: magnitudes)
        maximum = magnitudes[magnitudes.count - 1]
    }

    /// The figures in microseconds: `"p50 1.2 µs, p99 8.0 µs, max 9.7 µs"`.
    package var description: String {
        "p50 \(_NumberText.microseconds(median)) µs, p99 \(_NumberText.microseconds(percentile99)) µs, "
            + "max \(_NumberText.microseconds(maximum)) µs"
    }

    /// The nearest-rank `fraction` quantile of sorted, non-empty `values`: the smallest value with
    /// at least that fraction of the values at or below it.
    private static func rank(_ fraction: Double, in values: [Int64]) -> Int64 {
        let position = Int((fraction * Double(values.count)).rounded(.up))
        return values[min(max(position, 1), values.count) - 1]
    }
}
