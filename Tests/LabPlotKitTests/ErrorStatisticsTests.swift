import LabPlotKit
import Testing

/// The error statistics: nearest-rank percentiles of the errors' magnitudes.
@Suite("Error statistics")
struct ErrorStatisticsTests {
    @Test("no errors, no statistics")
    func empty() {
        #expect(ErrorStatistics(errors: []) == nil)
    }

    @Test("percentiles are nearest-rank over the magnitudes, signs ignored")
    func percentiles() throws {
        let statistics = try #require(ErrorStatistics(errors: (1...100).map { $0 % 2 == 0 ? Int64($0) : -Int64($0) }))
        #expect(statistics.count == 100)
        #expect(statistics.median == 50)
        #expect(statistics.percentile99 == 99)
        #expect(statistics.maximum == 100)
        let one = try #require(ErrorStatistics(errors: [-7_250]))
        #expect(one.median == 7_250 && one.percentile99 == 7_250 && one.maximum == 7_250)
        #expect(one.description == "p50 7.3 µs, p99 7.3 µs, max 7.3 µs")
    }

    @Test("the most negative error does not overflow")
    func extremes() throws {
        let statistics = try #require(ErrorStatistics(errors: [.min, 0]))
        #expect(statistics.maximum == .max)
    }
}
