import Testing

@testable import FrameLink

/// The rule that a present which returned at once is evidence against vsync only when a FIFO swap
/// chain must have been full at its call.
@Suite("_SwapChainFill: evidence that present does not wait for vsync")
struct SwapChainFillTests {
    static let period: Int64 = 16_666_667

    /// Notes `presents` presents called `spacing` periods apart, none blocking.
    func evidence(spacing: Double, presents: Int, buffers: Int = 2) -> _SwapChainFill {
        var fill = _SwapChainFill()
        for index in 0..<presents {
            let time = Int64(Double(index) * spacing * Double(Self.period))
            fill.note(calledAt: time, blocked: false, fastestPeriod: Self.period, buffers: buffers)
        }
        return fill
    }

    @Test(
        "light frames back to back give the evidence within a few presents; frames of a period or more never",
        arguments: [
            (spacing: 0.0, presents: 3, shows: false), (spacing: 0.0, presents: 4, shows: true),
            (spacing: 0.1, presents: 5, shows: true), (spacing: 0.5, presents: 8, shows: true),
            (spacing: 0.9, presents: 60, shows: true), (spacing: 1.0, presents: 1_000, shows: false),
            (spacing: 1.5, presents: 1_000, shows: false),
        ])
    func backToBack(spacing: Double, presents: Int, shows: Bool) {
        #expect(evidence(spacing: spacing, presents: presents).showsPresentDoesNotBlock == shows)
    }

    @Test("a chain declared deeper needs more presents; fewer than three buffers are never assumed")
    func deeperChains() {
        #expect(!evidence(spacing: 0, presents: 4, buffers: 4).showsPresentDoesNotBlock)
        #expect(evidence(spacing: 0, presents: 5, buffers: 4).showsPresentDoesNotBlock)
        #expect(
            evidence(spacing: 0, presents: 5, buffers: 2).unblockedWhileFull
                == evidence(spacing: 0, presents: 5, buffers: 3).unblockedWhileFull)
    }

    @Test("a present that blocks starts the count again: a vsync called just before a refresh is not evidence")
    func blockingResets() {
        var fill = evidence(spacing: 0, presents: 3)
        #expect(fill.unblockedWhileFull == 1)
        fill.note(calledAt: 0, blocked: true, fastestPeriod: Self.period, buffers: 2)
        #expect(fill.unblockedWhileFull == 0)
        fill.note(calledAt: 1, blocked: false, fastestPeriod: Self.period, buffers: 2)
        #expect(!fill.showsPresentDoesNotBlock)
    }

    @Test("a period that is no period gives no evidence")
    func zeroPeriod() {
        var fill = _SwapChainFill()
        for _ in 0..<10 { fill.note(calledAt: 0, blocked: false, fastestPeriod: 0, buffers: 2) }
        #expect(!fill.showsPresentDoesNotBlock)
    }
}
