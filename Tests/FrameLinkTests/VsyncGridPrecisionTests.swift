import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// The vsync grid's stated model of its own error (`_VsyncGrid.uncertainty(ofNumber:)`), checked
/// against the true vsync on random windows of returns, and the source's claim that rests on it.
@Suite("Vsync grid: the stated precision holds")
struct VsyncGridPrecisionTests {
    /// How present returns are late for their vsync.
    enum Delay: CustomStringConvertible, CaseIterable {
        /// Spread evenly up to 1.5 ms (the widest the pacing sweep draws; the hardest for the model).
        case uniform
        /// Exponential, mean 0.5 ms.
        case exponential

        func draw(_ random: inout SplitMix64) -> Int64 {
            let unit = Double(random.next() >> 11) / Double(1 << 53)
            switch self {
            case .uniform: return Int64(unit * 1_500_000)
            case .exponential: return Int64(-500_000 * log(max(1e-12, 1 - unit)))
            }
        }

        var description: String {
            switch self {
            case .uniform: "uniform up to 1.5 ms"
            case .exponential: "exponential, mean 0.5 ms"
            }
        }
    }

    static let period: Int64 = 16_666_667
    static let phase: Int64 = 3_300_000

    /// A grid fed `count` returns late by `delay`, from vsync 0 on.
    static func grid(count: Int, delay: Delay, seed: UInt64) -> _VsyncGrid {
        var random = SplitMix64(seed: seed)
        var grid = _VsyncGrid(nominalPeriod: period)
        for vsync in 0..<Int64(count) {
            grid.add(returnTime: phase + vsync * period + delay.draw(&random))
        }
        return grid
    }

    /// The published line's distance from the true vsync that `time` is nearest.
    static func error(of grid: _VsyncGrid, atVsync vsync: Int64) -> Int64 {
        let truth = phase + vsync * period
        let number = grid.number(atOrBefore: truth + period / 2)
        return abs(grid.time(ofNumber: number) - truth)
    }

    @Test("exact returns: no uncertainty, however far the line is carried")
    func exactReturns() {
        var grid = _VsyncGrid(nominalPeriod: Self.period)
        for vsync in 0..<Int64(64) { grid.add(returnTime: Self.phase + vsync * Self.period) }
        let newest = grid.number(atOrBefore: Self.phase + 63 * Self.period)
        for ahead: Int64 in [1, 100, 100_000] {
            #expect(grid.uncertainty(ofNumber: newest + ahead) == 0)
            #expect(grid.carriedUncertainty(ofNumber: newest + ahead) == 0)
        }
    }

    @Test("without a grid the line is unknown")
    func noGrid() {
        let grid = _VsyncGrid(nominalPeriod: Self.period)
        #expect(grid.uncertainty(ofNumber: 10) == .max)
        #expect(grid.carriedUncertainty(ofNumber: 10) == .max)
    }

    @Test(
        "table: the stated error falls as the window grows and grows as the line is carried",
        arguments: Delay.allCases)
    func shape(_ delay: Delay) {
        let short = Self.grid(count: 64, delay: delay, seed: 11)
        let long = Self.grid(count: 512, delay: delay, seed: 11)
        let shortNewest = short.number(atOrBefore: Self.phase + 63 * Self.period + 2_000_000)
        let longNewest = long.number(atOrBefore: Self.phase + 511 * Self.period + 2_000_000)
        // (The lag between the published line and the fit is part of the statement; compare the
        // carried part, which is the model's alone, and the whole at the next vsync.)
        #expect(
            long.carriedUncertainty(ofNumber: longNewest + 100) < short.carriedUncertainty(ofNumber: shortNewest + 100))
        #expect(long.carriedUncertainty(ofNumber: longNewest) == 0)
        #expect(
            long.carriedUncertainty(ofNumber: longNewest + 1_000) > long.carriedUncertainty(ofNumber: longNewest + 10))
        #expect(long.uncertainty(ofNumber: longNewest + 1_000) > long.uncertainty(ofNumber: longNewest + 1))
        // Carried a million vsyncs or a billion: the statement stops growing, and never overflows.
        #expect(
            long.carriedUncertainty(ofNumber: longNewest + 1_000_000_000)
                == long.carriedUncertainty(ofNumber: longNewest + _VsyncGrid.longestExtrapolation))
    }

    @Test(
        "table: the factor of the stated error is 48 below 160 returns and 40 from there",
        arguments: [(8, 48), (96, 48), (159, 48), (160, 40), (384, 40), (512, 40)] as [(Int, Int64)])
    func factorByWindowLength(returns: Int, factor: Int64) {
        #expect(_VsyncGrid.errorPerMeanDelay(returns: returns) == factor)
    }

    @Test("delays spread evenly up to 1.5 ms: the line is stated within 0.1 ms after 320 returns in most windows")
    func wideDelaysClaimedAfter320Returns() {
        // 48 mean delays (0.75 ms) / 320 returns would state 112 µs in every window, and the vsync
        // was claimed only after 360 returns; the long window's 40 states about 94 µs, plus the
        // published line's lag behind the fit (73 of these 100 windows are within 0.1 ms).
        var claimed = 0
        let windows = 100
        for seed in 0..<windows {
            let grid = Self.grid(count: 320, delay: .uniform, seed: UInt64(seed) &* 104_729 &+ 5)
            let newest = grid.number(atOrBefore: Self.phase + 319 * Self.period + Self.period / 2)
            if grid.uncertainty(ofNumber: newest + 1) <= _VsyncTracker.vsyncPrecision { claimed += 1 }
        }
        #expect(claimed * 2 >= windows, "stated within 0.1 ms in \(claimed) of \(windows) windows")
    }

    @Test(
        "random windows: the true error is within the stated one at the next vsync, carried 300 vsyncs and carried ten windows, in 98 % or more",
        arguments: Delay.allCases, [48, 96, 160, 384])
    func statedErrorHolds(_ delay: Delay, returns: Int) {
        var within = 0
        var withinCarried = 0
        var withinFar = 0
        let windows = 600
        for seed in 0..<windows {
            let grid = Self.grid(count: returns, delay: delay, seed: UInt64(seed) &* 7919 &+ 1)
            let newestVsync = Int64(returns - 1)
            let newest = grid.number(atOrBefore: Self.phase + newestVsync * Self.period + Self.period / 2)
            if Self.error(of: grid, atVsync: newestVsync + 1) <= grid.uncertainty(ofNumber: newest + 1) {
                within += 1
            }
            if Self.error(of: grid, atVsync: newestVsync + 300) <= grid.uncertainty(ofNumber: newest + 300) {
                withinCarried += 1
            }
            // (A drained swap chain carries the line for thousands of vsyncs without a return.)
            let far = Int64(10 * returns)
            if Self.error(of: grid, atVsync: newestVsync + far) <= grid.uncertainty(ofNumber: newest + far) {
                withinFar += 1
            }
        }
        #expect(within * 100 >= windows * 98, "within the statement at the next vsync: \(within) of \(windows)")
        #expect(withinCarried * 100 >= windows * 98, "within it 300 vsyncs on: \(withinCarried) of \(windows)")
        #expect(withinFar * 100 >= windows * 98, "within it ten windows on: \(withinFar) of \(windows)")
    }
}
