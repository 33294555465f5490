import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// The low-quantile line that checks the vsync grid's lower hull (`_LowQuantileLine`), and the
/// grid's choice between them (`_VsyncGrid.slopeFit`), on random windows of returns.
@Suite("Vsync grid: the low-quantile line")
struct LowQuantileLineTests {
    static let period: Int64 = 8_333_333
    static let phase: Int64 = 1_700_000

    /// How returns are late for their vsync.
    enum Delay: CustomStringConvertible, CaseIterable {
        /// Log-normal, median 0.3 ms, 99th percentile 0.8 ms: seldom near its least value.
        case logNormal
        /// Spread evenly up to 1 ms: often near zero.
        case uniform

        func draw(_ random: inout SplitMix64) -> Int64 {
            let unit = max(1e-12, Double(random.next() >> 11) / Double(1 << 53))
            switch self {
            case .logNormal:
                // Box–Muller for a standard normal, then the log-normal with that median and spread.
                let other = Double(random.next() >> 11) / Double(1 << 53)
                let normal = (-2 * log(unit)).squareRoot() * cos(2 * Double.pi * other)
                let sigma = log(800_000.0 / 300_000.0) / 2.326
                return Int64(300_000 * exp(sigma * normal))
            case .uniform:
                return Int64(unit * 1_000_000)
            }
        }

        var description: String {
            switch self {
            case .logNormal: "log-normal, median 0.3 ms, 99th percentile 0.8 ms"
            case .uniform: "uniform up to 1 ms"
            }
        }
    }

    /// A window of `count` returns late by `delay` from vsync 0 on, and the least delay drawn.
    static func window(count: Int, delay: Delay, seed: UInt64) -> (times: [Int64], least: Int64) {
        var random = SplitMix64(seed: seed)
        var times: [Int64] = []
        var least = Int64.max
        for vsync in 0..<Int64(count) {
            let late = delay.draw(&random)
            least = min(least, late)
            times.append(phase + vsync * period + late)
        }
        return (times, least)
    }

    /// The slope of the lower hull's edge spanning the middle of the window (what the grid's fit
    /// starts from), by Andrew's monotone chain.
    static func hullSlope(_ times: [Int64]) -> Double {
        var hull: [Int] = []
        for index in times.indices {
            while hull.count >= 2 {
                let (a, b) = (hull[hull.count - 2], hull[hull.count - 1])
                let cross =
                    Double(b - a) * Double(times[index] - times[a]) - Double(times[b] - times[a]) * Double(index - a)
                if cross <= 0 { hull.removeLast() } else { break }
            }
            hull.append(index)
        }
        let middle = Double(times.count - 1) / 2
        var edge = 0
        while edge + 2 < hull.count && Double(hull[edge + 1]) <= middle { edge += 1 }
        let (a, b) = (hull[edge], hull[edge + 1])
        return Double(times[b] - times[a]) / Double(b - a)
    }

    @Test("select finds the k-th smallest, duplicates and all", arguments: [1, 2, 7, 48, 512])
    func select(count: Int) {
        var random = SplitMix64(seed: UInt64(count))
        let values = (0..<count).map { _ in Double(random.next() % 17) }
        let sorted = values.sorted()
        for k in [0, count / 20, count / 2, count - 1] {
            var scratch = values
            #expect(_LowQuantileLine.select(&scratch, k) == sorted[k])
        }
    }

    /// Value orders a fit's residuals take: delays that rise then fall across the window (organ
    /// pipe), a parabola, sorted either way, random, all equal; and one built to defeat the pivot.
    enum Order: String, CaseIterable, CustomStringConvertible {
        case riseThenFall, fallThenRise, parabola, ascending, descending, random, equal
        var description: String { rawValue }

        func values(count: Int) -> [Double] {
            var random = SplitMix64(seed: 5)
            return (0..<count).map { index in
                let x = Double(index) / Double(count - 1)
                switch self {
                case .riseThenFall: return 500_000 * (1 - abs(2 * x - 1))
                case .fallThenRise: return 500_000 * abs(2 * x - 1)
                case .parabola: return 500_000 * (2 * x - 1) * (2 * x - 1)
                case .ascending: return x
                case .descending: return -x
                case .random: return Double(random.next() % 1_000_000)
                case .equal: return 7
                }
            }
        }
    }

    @Test(
        "table: select stays linear on the orders a fit's residuals take (Hoare's middle pivot took 130 comparisons per value on a rise and fall)",
        arguments: Order.allCases)
    func selectCost(order: Order) {
        let count = 512
        let values = order.values(count: count)
        let sorted = values.sorted()
        for k in [0, count / 20, count / 2, count - 1] {
            var scratch = values
            var comparisons = 0
            #expect(_LowQuantileLine.select(&scratch, k, comparisons: &comparisons) == sorted[k])
            #expect(comparisons <= 8 * count, "\(order), k = \(k): \(comparisons) comparisons")
        }
    }

    @Test("select on any order: bounded by its passes and a heap sort, and right (every order of 8 values)")
    func selectBoundedOnEveryOrder() {
        // Every permutation of 8 distinct values, every k: right, and never over the bound of the
        // passes (each scans the range once) plus a heap sort.
        var permutation = Array(0..<8).map(Double.init)
        let count = permutation.count
        let bound =
            _LowQuantileLine.mostSelectionPasses(count: count) * (count + 6) + 4 * count * 3
        var worst = 0
        func visit(_ depth: Int) {
            if depth == count {
                for k in 0..<count {
                    var scratch = permutation
                    var comparisons = 0
                    let value = _LowQuantileLine.select(&scratch, k, comparisons: &comparisons)
                    if value != Double(k) { Issue.record("\(permutation), k = \(k): \(value)") }
                    worst = max(worst, comparisons)
                }
                return
            }
            for index in depth..<count {
                permutation.swapAt(depth, index)
                visit(depth + 1)
                permutation.swapAt(depth, index)
            }
        }
        visit(0)
        #expect(worst <= bound, "worst \(worst) comparisons, bound \(bound)")
    }

    @Test("the heap sort select falls back on sorts a range in place, the rest untouched")
    func heapSortRange() {
        var random = SplitMix64(seed: 9)
        let values = (0..<100).map { _ in Double(random.next() % 50) }
        var scratch = values
        var comparisons = 0
        _LowQuantileLine.heapSort(&scratch, 10...89, comparisons: &comparisons)
        #expect(Array(scratch[10...89]) == values[10...89].sorted())
        #expect(Array(scratch[0..<10]) == Array(values[0..<10]))
        #expect(Array(scratch[90...]) == Array(values[90...]))
        #expect(comparisons > 0 && comparisons <= 2 * 80 * 7)
    }

    @Test("returns on a line exactly: the quantile line agrees with it")
    func exactLine() {
        let times = (0..<Int64(64)).map { Self.phase + $0 * Self.period }
        let numbers = Array(0..<Int64(64))
        var line = _LowQuantileLine(capacity: 64)
        let slope = line.slope(
            times: times, numbers: numbers, hullSlope: Double(Self.period), margin: 1, reach: 1_000)
        #expect(slope == nil)
        // Asked about a hull 1 µs per vsync off, it finds the true slope within its resolution.
        let corrected = line.slope(
            times: times, numbers: numbers, hullSlope: Double(Self.period) + 1_000, margin: 1, reach: 5_000)
        #expect(abs((corrected ?? 0) - Double(Self.period)) * 63 <= _LowQuantileLine.resolution)
    }

    @Test("the quantile line beyond the reach: no slope (the search's edge is not a minimum)")
    func beyondReach() {
        let times = (0..<Int64(64)).map { Self.phase + $0 * Self.period }
        let numbers = Array(0..<Int64(64))
        var line = _LowQuantileLine(capacity: 64)
        // A hull 3 µs per vsync off, searched only 2 µs per vsync either way: the check loss falls
        // all the way to the edge; that edge is no line (before, it came back as the slope).
        for offset in [3_000.0, -3_000.0] {
            #expect(
                line.slope(
                    times: times, numbers: numbers, hullSlope: Double(Self.period) + offset, margin: 1, reach: 2_000)
                    == nil)
        }
    }

    @Test("two modes with the quantile in the gap between them: not resolved, no slope")
    func quantileInAGap() {
        // 200 returns, every 20th prompt (a twentieth of them), the rest 1.0-1.06 ms late: the
        // quantile's rank is the lowest late return, a millisecond above the prompt ones.
        let numbers = Array(0..<Int64(200))
        let times = numbers.map { Self.phase + $0 * Self.period + ($0 % 20 == 0 ? 0 : 1_000_000 + ($0 % 7) * 10_000) }
        var line = _LowQuantileLine(capacity: 200)
        let spread = line.quantileSpread(times: times, numbers: numbers, slope: Double(Self.period))
        #expect(spread >= 900_000, "\(spread) ns")
        // Asked about a hull 1 µs per vsync off, the quantile line is not taken.
        #expect(
            line.slope(
                times: times, numbers: numbers, hullSlope: Double(Self.period) + 1_000, margin: 100,
                reach: 5_000) == nil)
        // Delays spread evenly and densely: the returns about the quantile lie close together.
        let even = numbers.map { Self.phase + $0 * Self.period + ($0 * 7_919) % 1_000_000 }
        #expect(line.quantileSpread(times: even, numbers: numbers, slope: Double(Self.period)) <= 50_000)
    }

    @Test("no room between the margin and the reach: no search")
    func noRoom() {
        let times = (0..<Int64(64)).map { Self.phase + $0 * Self.period + ($0 % 3) * 100_000 }
        var line = _LowQuantileLine(capacity: 64)
        #expect(
            line.slope(
                times: times, numbers: Array(0..<64), hullSlope: Double(Self.period) + 50_000, margin: 10,
                reach: 10) == nil)
    }

    @Test("table: the share of windows whose slope the quantile line takes over", arguments: Delay.allCases)
    func choice(delay: Delay) {
        var quantile = 0
        let windows = 200
        for seed in 0..<windows {
            let (times, _) = Self.window(count: 256, delay: delay, seed: UInt64(seed) &* 104_729 &+ 3)
            var grid = _VsyncGrid(nominalPeriod: Self.period)
            for time in times { grid.add(returnTime: time) }
            if grid.slopeFit == .lowQuantile { quantile += 1 }
        }
        switch delay {
        case .uniform:
            // Delays often near zero: the hull's two returns pin the line; the quantile line agrees
            // within the hull's stated error in nearly every window.
            #expect(quantile * 50 <= windows, "\(quantile) of \(windows) windows took the quantile line")
        case .logNormal:
            // The windows whose lowest returns were stray: 12 of 200 (their hull was off by up
            // to 96 µs at the window's ends; see logNormalSlope).
            #expect(quantile * 25 >= windows, "\(quantile) of \(windows) windows took the quantile line")
        }
    }

    @Test("log-normal delays: the grid's line is nearer the truth than the hull's alone where the hull is off")
    func logNormalSlope() {
        var gridErrors: [Double] = []
        var hullErrors: [Double] = []
        for seed in 0..<200 {
            let (times, _) = Self.window(count: 256, delay: .logNormal, seed: UInt64(seed) &* 7_919 &+ 5)
            var grid = _VsyncGrid(nominalPeriod: Self.period)
            for time in times { grid.add(returnTime: time) }
            // The line's error at the window's ends from its slope alone: half the window times the
            // slope's error.
            gridErrors.append(abs(grid.period - Double(Self.period)) * 128)
            hullErrors.append(abs(Self.hullSlope(times) - Double(Self.period)) * 128)
        }
        gridErrors.sort()
        hullErrors.sort()
        // (Measured: medians 14.8 and 16.8 µs, 98th percentiles 44 and 76 µs, the largest 57 and
        // 96 µs: the quantile line takes over in the windows whose hull rested on stray returns.)
        #expect(
            gridErrors[100] <= hullErrors[100],
            "median end error: grid \(gridErrors[100]) ns, hull \(hullErrors[100]) ns")
        #expect(
            gridErrors[196] < hullErrors[196] * 0.75,
            "98th percentile end error: grid \(gridErrors[196]) ns, hull \(hullErrors[196]) ns")
    }
}
