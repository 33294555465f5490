import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// From an independent review of the low-quantile line (302d7c1): delays with a prompt mode (a
/// compositor that now and then lets a present through at once among late ones), judged against
/// the true vsync. Both defects are disabled with their figures until fixed.
@Suite("Pacing review 4: delays with a prompt mode")
struct PacingReview4Tests {
    static let period: Int64 = 16_666_667
    static let phase: Int64 = 2_345_678

    /// A grid fed `count` returns, `share` of them late by under 10 µs and the rest by 1.0–1.2 ms;
    /// the first 8 of either kind at even odds, so the first fit sees both (seeded).
    static func promptModeGrid(share: Double, count: Int, seed: UInt64) -> _VsyncGrid {
        var random = SplitMix64(seed: seed)
        func unit() -> Double { max(1e-12, Double(random.next() >> 11) / Double(1 << 53)) }
        var grid = _VsyncGrid(nominalPeriod: period)
        for vsync in Int64(0)..<Int64(count) {
            let prompt = vsync < 8 ? random.next() % 2 == 0 : unit() < share
            let delay = prompt ? Int64(unit() * 10_000) : 1_000_000 + Int64(unit() * 200_000)
            grid.add(returnTime: phase + vsync * period + delay)
        }
        return grid
    }

    /// Whether the grid's line is within its stated error at the vsync after `count` returns.
    static func withinStatement(_ grid: _VsyncGrid, count: Int) -> (within: Bool, error: Int64, stated: Int64) {
        let truth = phase + Int64(count) * period
        let number = grid.number(atOrBefore: truth + period / 2)
        let error = abs(grid.time(ofNumber: number) - truth)
        let stated = grid.uncertainty(ofNumber: number)
        return (error <= stated, error, stated)
    }

    @Test(
        "a prompt mode of 5-10 %: the line within its statement in 98 % of 512-return windows",
        .disabled(
            "defect (found in review; worse before 302d7c1): with 5, 7 and 10 % prompt returns, 121, 89 and 102 of 150 windows are within the statement at the next vsync (110, 79 and 100 before a quantile in a gap was refused; 5, 11 and 36 before the quantile line). The quantile line, where the prompt share of a half of the window dips under 5 %, sits in the gap between the modes and tilts the line by up to a millisecond; the tilted line then rejects prompt returns at one end as early, which feeds the tilt (seed 17 at 10 %: 1.14 ms off, 0.24 ms stated). Bounding the search by the quantile's height above the hull broke the single-mode case and left the grid on the late mode (6/12/36 of 150)."
        ),
        arguments: [0.05, 0.07, 0.10])
    func promptModeWithinStatement(share: Double) {
        var within = 0
        let windows = 150
        for seed in 0..<windows {
            let grid = Self.promptModeGrid(share: share, count: 512, seed: UInt64(seed) &* 7_919 &+ 17)
            if Self.withinStatement(grid, count: 512).within { within += 1 }
        }
        #expect(within * 100 >= windows * 98, "within the statement: \(within) of \(windows)")
    }

    /// A sampled delay: `prompt` of 100 draws under 10 µs, the rest 1.0–1.2 ms.
    static func promptMode(_ prompt: Int) -> PresentJitter {
        var random = SplitMix64(seed: 42)
        func unit() -> Double { max(1e-12, Double(random.next() >> 11) / Double(1 << 53)) }
        return .sampled(
            (0..<100).map {
                $0 < prompt ? .nanoseconds(Int64(unit() * 10_000)) : .nanoseconds(1_000_000 + Int64(unit() * 200_000))
            })
    }

    @MainActor
    @Test(
        "lab: 3-10 % prompt returns at 60 Hz: no claimed timestamp more than 100 µs off the true vsync",
        .disabled(
            "defect (pre-existing, identical at e4f39b4): a sampled delay with 5 of 100 draws under 10 µs and the rest 1.0-1.2 ms, 60 Hz, 2 buffers, 4 ms of work, 1,500 frames: every claimed timestamp is about 1 ms late on seeds 1-4 (1,305, 1,028, 1,313 and 1,309 claims; at 3 %: all 1,341 on seed 1; at 50 %: none). The grid starts on the late mode; a prompt return is then a millisecond before its line, a stray, and three in a row are needed to restart. Taking three lone early returns that agree into the window (31fd5bf) fixed it but was reverted: from return times alone it cannot tell prompt vsyncs from presents that did not wait returning at a steady point before the vsync, which it then put the line on (a second review: every claim 300-700 µs off at 30, 60 and 240 Hz), nor, as written, from returns over half a period late (the line 6.7 ms off)."
        ),
        arguments: [3, 5, 10])
    func promptModeInTheLab(prompt: Int) throws {
        for seed: UInt64 in [1, 2, 3, 4] {
            var scenario = LabScenario(name: "prompt mode", refresh: .fixed(.hz60))
            scenario.jitter = Self.promptMode(prompt)
            scenario.seed = seed
            scenario.frames = 1_500
            scenario.work = .milliseconds(4)
            let run = try LabRun(scenario)
            var claimed = 0
            var off = 0
            for frame in run.frames where frame.index >= 120 && frame.followsVsync {
                claimed += 1
                if run.vsyncError(frame) > 100_000 { off += 1 }
            }
            // (Claims there are: 89 to 1,029 of the 1,380 judged frames, fewer with fewer prompt returns.)
            #expect(claimed > 0, "\(prompt) %, seed \(seed): nothing claimed")
            #expect(off == 0, "\(prompt) %, seed \(seed): \(off) of \(claimed) claimed timestamps more than 100 µs off")
        }
    }
}
