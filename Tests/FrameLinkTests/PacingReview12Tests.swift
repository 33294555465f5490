import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// Review 12 (independent reviewer): scenarios around commit 63a1937 (a late frame on a
/// variable-refresh display restarts the grid's phase but keeps its period), judged against the
/// display lab's ground truth. Loop frame i's timestamp should be the refresh that showed lab
/// frame i − 1 when presents block.
@MainActor
enum R12 {
    static let vrr144 = DisplayLab.Refresh.variable(minimum: FrameRate(numerator: 48), maximum: .hz144)

    /// Loop frames in `range` that claim the vsync, with their error against the refresh that
    /// showed lab frame index − 1.
    static func claimed(_ run: R6, _ range: ClosedRange<Int64>) -> [(Int64, Int64)] {
        let indices = run.frames.filter { range.contains($0.index) && $0.follows }.map(\.index)
        return R11.errors(run, indices)
    }

    /// All frames in `range` (claimed or not), with their error.
    static func all(_ run: R6, _ range: ClosedRange<Int64>) -> [(Int64, Int64)] {
        R11.errors(run, Array(range))
    }

    static func summary(_ name: String, _ run: R6, _ range: ClosedRange<Int64>) -> String {
        let claims = claimed(run, range)
        let every = all(run, range)
        let off = R11.off(claims)
        let fastest = FrameRate.hz144.periodNanoseconds
        let shortest = R11.shortest60(run, from: range.lowerBound)
        return
            "\(name): claimed \(claims.count)/\(range.count) off \(off.count) largest claimed \(R11.largest(claims)) "
            + "largest any \(R11.largest(every)) worse-than-return \(R11.worse(run, Array(range)).count) "
            + "booked \(run.booked(range.lowerBound, range.upperBound)) missed \(run.missed(range.lowerBound, range.upperBound)) "
            + "shortest60 \(shortest) vs \(60 * fastest) first off \(R11.describe(Array(off.prefix(8)))) "
            + "\(run.source.pacingDescription)"
    }

    /// The frames `count` after each of `lates`.
    static func after(_ lates: [Int64], _ count: Int64) -> [Int64] { lates.flatMap { ($0 + 1)...($0 + count) } }
}

extension R12 {
    /// The start of the shortest 60-interval window from `from`, and its span.
    static func shortest60At(_ run: R6, from: Int64) -> (Int64, Int64) {
        let sel = run.frames.filter { $0.index >= from }
        var best: (Int64, Int64) = (-1, .max)
        for s in 0..<(sel.count - 60) where sel[s + 60].timestamp - sel[s].timestamp < best.1 {
            best = (sel[s].index, sel[s + 60].timestamp - sel[s].timestamp)
        }
        return best
    }

    /// The sweep's limit: 60 fastest periods less a quarter.
    static let limit60 = 60 * FrameRate.hz144.periodNanoseconds - FrameRate.hz144.periodNanoseconds / 4
}

@MainActor
@Suite("Review 12: kept period after late frames on variable refresh")
struct R12ReviewTests {
    // MARK: Defects

    /// Exponential delays of mean 0.5 ms, late frames every 73 frames: the first return after a
    /// late frame is late by 3.533 ms; the kept-period line, resting on that one return, is
    /// published as it is (no smoothing), then drops to the next returns: deltaTime 10.477,
    /// 5.333, 5.111 ms where the display showed 6.944 ms each; 60 intervals from frame
    /// 440 span 413.17 ms, less than the display's fastest 60 periods less a quarter (414.93 ms).
    @Test("R12 first return after a late frame late by 3.5 ms: deltaTime and 60 intervals")
    func r12FirstReturnAfterLate() {
        let run = R6(
            R6.Config(
                refresh: R12.vrr144, jitter: .exponential(mean: .microseconds(500)), seed: 2, frames: 700,
                work: { $0 >= 300 && $0 % 73 == 0 ? 11_000_000 : 3_000_000 }))
        let deltas = R11.deltaErrors(run, Array(439...445))
        let shortest = R12.shortest60At(run, from: 320)
        print(
            "R12 first return: deltas \(R11.describe(deltas)) errors \(R11.describe(R12.all(run, 439...445))) shortest \(shortest)"
        )
        withKnownIssue(
            "63a1937: the kept-period line rests on the one return after a late frame (3.533 ms late) and is published unsmoothed: deltaTime +3.53, −1.61, −1.83 ms off at frames 440–442 (10.48, 5.33, 5.11 ms where the display showed 6.94 each; 5.1 ms is under its fastest period), 60 intervals from 440 span 413.17 ms < 414.93 ms (sweep 'faster than the display'); 4 of 8 seeds with late frames every 73, 0 of 8 without"
        ) {
            #expect(R11.largest(deltas) <= 1_000_000, "\(R11.describe(deltas))")
            #expect(shortest.1 >= R12.limit60, "60 intervals from \(shortest.0) span \(shortest.1)")
        }
    }

    /// The same over 8 seeds, with and without late frames (exponential 0.5 ms, late every 73).
    @Test("R12 faster than the display over 8 seeds: late frames every 73 vs none")
    func r12FasterOverSeeds() {
        var fails: [Bool: Int] = [:]
        for late in [true, false] {
            for seed in UInt64(1)...8 {
                let run = R6(
                    R6.Config(
                        refresh: R12.vrr144, jitter: .exponential(mean: .microseconds(500)), seed: seed, frames: 1_500,
                        work: { late && $0 >= 300 && $0 % 73 == 0 ? 11_000_000 : 3_000_000 }))
                if R12.shortest60At(run, from: 320).1 < R12.limit60 { fails[late, default: 0] += 1 }
            }
        }
        print("R12 faster over seeds: with late frames \(fails[true] ?? 0)/8, without \(fails[false] ?? 0)/8")
        #expect((fails[false] ?? 0) == 0)
        withKnownIssue(
            "63a1937: 4 of 8 seeds with late frames every 73 are faster than the display over 60 intervals (the line resting on the first return after each)"
        ) {
            #expect((fails[true] ?? 0) == 0)
        }
    }

    /// Grid level: a kept period that no longer matches the display (its true fastest period
    /// moved by 7 µs, 144 → 143.856 Hz, unreported), phase restarts every 60 or 150 returns. At
    /// 63a1937 every window kept it (150: judged unstable under the kept slope, an emulated vsync,
    /// yet passing it on); now a window that contradicts it measures its own.
    @Test("R12 grid: a wrong kept period is passed on across restarts and never re-measured", arguments: [60, 150])
    func r12WrongKeptPeriod(every: Int) {
        var grid = _VsyncGrid(nominalPeriod: FrameRate.hz144.periodNanoseconds)
        grid.variableRefreshFastestPeriod = FrameRate.hz144.periodNanoseconds
        var state: UInt64 = 12345
        func delay() -> Int64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let u = Double(state >> 11) / Double(1 << 53)
            return Int64(-log(max(1e-12, 1 - u)) * 300_000)
        }
        var t: Int64 = 1_000_000_000
        let before = 6_944_444.0
        for k in 0..<600 { grid.add(returnTime: t + Int64(Double(k) * before) + delay()) }
        #expect(grid.isStable == true)
        t += Int64(600 * before) + 11_000_000
        let truePeriod = 6_951_398.0
        var lines: [String] = []
        var worstLine: Int64 = 0
        for cycle in 0..<8 {
            grid.restartPhaseKeepingPeriod()
            for k in 0..<every {
                let vsync = t + Int64(Double(k) * truePeriod)
                grid.add(returnTime: vsync + delay())
                if k >= every / 2 {
                    worstLine = max(
                        worstLine, abs(grid.time(ofNumber: grid.number(atOrBefore: vsync + 1_000_000)) - vsync))
                }
            }
            t += Int64(Double(every) * truePeriod) + 11_000_000
            lines.append(
                "\(cycle): \(String(format: "%.1f", grid.period)) \(grid.slopeFit) stable \(String(describing: grid.isStable)) usable \(grid.isUsable)"
            )
        }
        print(
            "R12 wrong kept period every \(every): \(lines.joined(separator: "; ")) worst line \(worstLine) relocks \(grid.relocks)"
        )
        // (After review 12: a window's own slope replaces the kept one once it contradicts it,
        // beyond both statements, and a window judged unstable passes no period on. Windows of 150
        // returns measure the true period again; windows of 60 cannot tell 7 µs from their own
        // stated error, and keep it.)
        withKnownIssue(
            "restarts every \(every) returns (fewer than a window needs to contradict a kept period 7 µs off): 6,944,449.5 ns kept for 8 cycles against a true 6,951,398 ns; the line up to 0.4 ms off, not claimed"
        ) {
            #expect(abs(grid.period - truePeriod) < 1_000, "period \(grid.period)")
        } when: {
            every < _VsyncGrid.stabilityWindow
        }
    }

    // MARK: Controls (fine)

    /// Late frames every 20 frames for 2,400 frames (a game hitching steadily).
    @Test("R12 late frames every 20 frames on 48–144 Hz")
    func r12FrequentLateFrames() {
        let run = R6(
            R6.Config(
                refresh: R12.vrr144, jitter: .exponential(mean: .microseconds(300)), seed: 7, frames: 2_400,
                work: { $0 >= 200 && $0 % 20 == 0 ? 11_000_000 : 3_000_000 }))
        print(R12.summary("R12 frequent", run, 220...2_390))
        #expect(R11.off(R12.claimed(run, 220...2_390)).isEmpty)
        #expect(run.booked(220, 2_390) == run.missed(220, 2_390))
        #expect(R12.shortest60At(run, from: 220).1 >= R12.limit60)
    }

    /// Feedback on, late frames every 50.
    @Test("R12 feedback, late frames every 50 on 48–144 Hz")
    func r12FeedbackLate() {
        let run = R6(
            R6.Config(
                refresh: R12.vrr144, jitter: .exponential(mean: .microseconds(300)), seed: 7, feedback: true,
                frames: 2_000, work: { $0 >= 300 && $0 % 50 == 0 ? 11_000_000 : 3_000_000 }))
        print(R12.summary("R12 feedback", run, 320...1_990))
        #expect(R11.off(R12.claimed(run, 320...1_990)).isEmpty)
        #expect(run.booked(320, 1_990) == run.missed(320, 1_990))
    }

    /// Small delays (claims come early), late frames every 40.
    @Test("R12 small delays, late frames every 40")
    func r12SmallDelays() {
        let run = R6(
            R6.Config(
                refresh: R12.vrr144, jitter: .exponential(mean: .microseconds(40)), seed: 7, frames: 2_400,
                work: { $0 >= 300 && $0 % 40 == 0 ? 11_000_000 : 3_000_000 }))
        print(R12.summary("R12 small delays", run, 320...2_390))
        #expect(R11.off(R12.claimed(run, 320...2_390)).isEmpty)
    }

    /// Three buffers, late frames of 40 ms every 97 (judged by the nearest refresh: a 3-buffer
    /// frame's timestamp is the refresh that showed the frame two before).
    @Test("R12 three buffers, late frames of 40 ms")
    func r12ThreeBuffers() {
        let run = R6(
            R6.Config(
                refresh: R12.vrr144, buffers: 3, jitter: .exponential(mean: .microseconds(200)), seed: 2,
                frames: 1_500, work: { $0 >= 300 && $0 % 97 == 0 ? 40_000_000 : 3_000_000 }))
        let verdict = run.judge(320, 1_490)
        print("R12 three buffers: \(verdict)")
        #expect(verdict.tsOff.isEmpty && verdict.targetOff.isEmpty && verdict.booked == verdict.missed)
    }

    /// A cap of 120 Hz on 48–144 Hz (e13bf1b), late frames every 100.
    @Test("R12 cap 120 Hz, late frames every 100")
    func r12CapLate() {
        let run = R6(
            R6.Config(
                refresh: R12.vrr144, jitter: .exponential(mean: .microseconds(150)), seed: 7, frames: 1_600,
                cap: .hz144, work: { $0 >= 300 && $0 % 100 == 0 ? 13_000_000 : 2_000_000 },
                events: { index, run in
                    if index == 200 { run.source.displayRefreshRate = FrameRate(numerator: 120) }
                }))
        let shown = run.lab.frames[320..<1_590].compactMap { $0.shownAt?.nanoseconds }
        let period = FrameRate(numerator: 120).periodNanoseconds
        let short = zip(shown, shown.dropFirst()).filter { $1 - $0 < period - 100_000 }.count
        print("R12 cap120: short intervals \(short) " + R12.summary("cap", run, 320...1_590))
        #expect(short == 0)
        #expect(run.booked(320, 1_590) == run.missed(320, 1_590))
    }

    /// An unreported change of a VRR display's fastest refresh, 144 → 143.856 Hz, without late
    /// frames: the old grid claims the vsync while it drifts (older: the VRR form of review 11's
    /// 60 → 59.94 Hz known issue), then the source calls the display an emulated vsync.
    @Test("R12 unreported 144 → 143.856 Hz on VRR, no late frames (older)")
    func r12UnreportedSmallChange() {
        let run = R6(
            R6.Config(
                refresh: R12.vrr144, jitter: .exponential(mean: .microseconds(300)), seed: 7, frames: 1_200,
                work: { _ in 3_000_000 },
                events: { index, run in
                    if index == 410 {
                        run.lab.changeRefresh(
                            to: .variable(
                                minimum: FrameRate(numerator: 48),
                                maximum: FrameRate(numerator: 143_856, denominator: 1_000)))
                    }
                }))
        let off = R11.off(R12.claimed(run, 420...1_190))
        print("R12 unreported small: " + R12.summary("small", run, 420...1_190))
        withKnownIssue(
            "older: 183 of 189 claimed frames (426 on) off the vsync by up to 1.27 ms while the 144 Hz grid drifts 7 µs a frame; then deadline pacing ('returns keep no phase')"
        ) {
            #expect(off.isEmpty, "\(off.count) off, largest \(R11.largest(off))")
        }
    }
}
