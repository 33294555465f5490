import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// The vsync grid's fit and numbering rules, each on returns built for it (virtual time, no lab).
@Suite("Vsync grid: the fit rests on all returns, a blocked present's vsync is the first after its call")
struct VsyncGridFitTests {
    static let period: Int64 = 12_263_000
    static let phase: Int64 = 4_100_000

    /// The true time of vsync `number`.
    static func vsync(_ number: Int64) -> Int64 { phase + number * period }

    @Test(
        "returns spread unevenly (two from before a long gap): the line is fitted at the returns' mean number",
        arguments: 0..<16)
    @MainActor
    func unevenlySpreadReturns(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed) &* 104_729 &+ 3)
        var grid = _VsyncGrid(nominalPeriod: Self.period)
        func delay() -> Int64 {
            let unit = Double(random.next() >> 11) / Double(1 << 53)
            return Int64(-300_000 * log(max(1e-12, 1 - unit)))
        }
        // Returns up to vsync 99, none for 900 vsyncs (a hidden window), then returns from vsync
        // 1000 on until the window holds only two from before the gap: vsyncs 98 and 99.
        for number in 0..<Int64(98) { grid.add(returnTime: Self.vsync(number) + delay()) }
        grid.add(returnTime: Self.vsync(98) + 250_000)
        grid.add(returnTime: Self.vsync(99) + 550_000)
        let first: Int64 = 1_000
        let last = first + Int64(_VsyncGrid.capacity) - 3
        for number in first...last { grid.add(returnTime: Self.vsync(number) + delay()) }
        // (The middle of the numbers' range lies in the gap: the edge spanning it ran from one of
        // the two old returns to a low one just after the gap, and their delays alone set the
        // period: carried over the returns after the gap, it was off by more than 100 µs.)
        #expect(grid.relocks == 0, "the returns after the gap fitted the line before it")
        let drift = abs(grid.period - Double(Self.period)) * Double(last - first)
        #expect(drift <= Double(_VsyncTracker.vsyncPrecision), "the period drifts \(drift) ns over the returns")
    }

    /// A grid fitted to 96 returns late by at most 0.1 ms, vsyncs 0 to 95.
    static func fittedGrid() -> _VsyncGrid {
        var grid = _VsyncGrid(nominalPeriod: period)
        for number in 0..<Int64(96) { grid.add(returnTime: vsync(number) + (number * 37 % 100) * 1_000) }
        return grid
    }

    @Test("a return later than half a period is its vsync's when that vsync is the first after the call")
    func slowReturnAfterOneVsyncSinceTheCall() {
        let grid = Self.fittedGrid()
        // Called 2 ms after vsync 100, released by vsync 101, returned 7 ms after it (past half a
        // period, which the numbering alone cannot place).
        let call = Self.vsync(100) + 2_000_000
        let late = Self.vsync(101) + 7_000_000
        #expect(grid.isSlowReturnOnTheLine(calledAt: call, returnedAt: late))
        // Within half a period: on the line, as before.
        #expect(grid.isSlowReturnOnTheLine(calledAt: call, returnedAt: Self.vsync(101) + 1_000_000))
    }

    @Test("a return past half a period with two vsyncs since the call, or at the second, is not placed")
    func slowReturnAfterTwoVsyncsSinceTheCall() {
        let grid = Self.fittedGrid()
        // Called before vsync 100: vsyncs 100 and 101 both came before the return.
        let early = Self.vsync(99) + 11_000_000
        #expect(!grid.isSlowReturnOnTheLine(calledAt: early, returnedAt: Self.vsync(101) + 7_000_000))
        // A return within the early tolerance of the second vsync after the call is numbered by it.
        let call = Self.vsync(100) + 2_000_000
        #expect(
            !grid.isSlowReturnOnTheLine(
                calledAt: call, returnedAt: Self.vsync(102) - _VsyncGrid.earlyTolerance / 2))
    }
}

/// Lone returns early for the line, by the same amount: taken into the window (`_VsyncGrid.agreeingEarlyReturns`).
@Suite("Vsync grid: lone early returns")
struct VsyncGridEarlyReturnTests {
    static let period: Int64 = 16_666_667
    static let phase: Int64 = 3_300_000

    /// A grid fed 200 returns 1.0-1.1 ms late, then `extra` returns, each 1 ms late or at `early(k)`
    /// when that gives a time.
    static func grid(seed: UInt64, extra: Int, early: (Int64, inout SplitMix64) -> Int64?) -> _VsyncGrid {
        var random = SplitMix64(seed: seed)
        var grid = _VsyncGrid(nominalPeriod: period)
        for vsync in Int64(0)..<Int64(200 + extra) {
            let late = phase + vsync * period + 1_000_000 + Int64(random.next() % 100_000)
            if vsync >= 200, let time = early(vsync, &random) {
                grid.add(returnTime: time)
            } else {
                grid.add(returnTime: late)
            }
        }
        return grid
    }

    /// How far the line is from the true vsync after the window's returns.
    static func lineError(_ grid: _VsyncGrid, vsync: Int64) -> Int64 {
        let truth = phase + vsync * period
        return grid.time(ofNumber: grid.number(atOrBefore: truth + period / 2)) - truth
    }

    @Test(
        "table: a window begun on late returns learns the vsync from lone prompt ones once three agree",
        arguments: [1, 2, 3] as [UInt64])
    func agreeingPromptReturns(seed: UInt64) {
        // Before: the line stayed on the late returns, 1 ms after the vsync.
        let before = Self.grid(seed: seed, extra: 0) { _, _ in nil }
        #expect(Self.lineError(before, vsync: 200) >= 900_000)
        // Every 10th vsync from 200 on returns at once (under 10 µs): after three, the line is on them.
        let after = Self.grid(seed: seed, extra: 40) { vsync, random in
            vsync % 10 == 5 ? Self.phase + vsync * Self.period + Int64(random.next() % 10_000) : nil
        }
        #expect(abs(Self.lineError(after, vsync: 240)) <= 20_000, "\(Self.lineError(after, vsync: 240)) ns")
        // Two are not enough.
        let two = Self.grid(seed: seed, extra: 20) { vsync, random in
            vsync % 10 == 5 ? Self.phase + vsync * Self.period + Int64(random.next() % 10_000) : nil
        }
        #expect(Self.lineError(two, vsync: 220) >= 900_000)
    }

    @Test("lone early returns that disagree (presents that did not wait) stay out of the window")
    func disagreeingEarlyReturns() {
        // Every 10th return anywhere 0.5 to 4.5 ms before the line, 30 of them: no three within 50 µs.
        let grid = Self.grid(seed: 4, extra: 300) { vsync, random in
            vsync % 10 == 5
                ? Self.phase + vsync * Self.period + 1_000_000 - 500_000 - Int64(random.next() % 4_000_000) : nil
        }
        #expect(Self.lineError(grid, vsync: 500) >= 900_000)
    }

    @Test("early returns in a row (another display's phase) restart the window, not join it")
    func earlyReturnsInARow() {
        // From vsync 200 on, every return 3 ms earlier than before: the window restarts on them.
        let grid = Self.grid(seed: 5, extra: 60) { vsync, random in
            Self.phase + vsync * Self.period - 2_000_000 + Int64(random.next() % 100_000)
        }
        #expect(grid.relocks == 1)
        // (The new line follows the new phase: 2 ms before the old vsync.)
        #expect(abs(Self.lineError(grid, vsync: 260) + 2_000_000) <= 100_000, "\(Self.lineError(grid, vsync: 260)) ns")
    }
}
