import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// Review 11 (independent reviewer): scenarios around commits 839b3eb (re-lock of an unjudged grid
/// after a stable one), e13bf1b (a cap paced directly sets the deadline grid's rate) and cf8e057
/// (frames after a late one on a variable-refresh display placed by the model), judged against the
/// display lab's ground truth. Loop frame i's timestamp should be the refresh that showed lab frame
/// i − 1 (presented at the start of loop frame i) when presents block.
@MainActor
enum R11 {
    static let vrr144 = DisplayLab.Refresh.variable(minimum: FrameRate(numerator: 48), maximum: .hz144)

    /// For loop frames `indices`: (index, timestamp − when lab frame index − 1 was shown, ns).
    static func errors(_ run: R6, _ indices: [Int64]) -> [(Int64, Int64)] {
        let byIndex = Dictionary(run.frames.map { ($0.index, $0) }, uniquingKeysWith: { a, _ in a })
        var out: [(Int64, Int64)] = []
        for index in indices {
            guard let frame = byIndex[index], index >= 1, Int(index - 1) < run.lab.frames.count,
                let shown = run.lab.frames[Int(index - 1)].shownAt
            else { continue }
            out.append((index, frame.timestamp - shown.nanoseconds))
        }
        return out
    }

    /// The frames after each late frame `late` (loop index of the overrun) while the grid refits.
    static func afterLate(_ lates: [Int64], through count: Int64 = 8) -> [Int64] {
        lates.flatMap { ($0 + 1)...($0 + count) }
    }

    /// For loop frames `indices`: (index, when the present of lab frame index − 1 returned − when
    /// it was shown): the error of a timestamp at the return (what frames got before cf8e057).
    static func returnErrors(_ run: R6, _ indices: [Int64]) -> [(Int64, Int64)] {
        indices.compactMap { index in
            guard index >= 1, Int(index - 1) < run.lab.frames.count,
                let shown = run.lab.frames[Int(index - 1)].shownAt
            else { return nil }
            return (index, (run.lab.frames[Int(index - 1)].returnedAt - shown).wholeNanoseconds)
        }
    }

    static func describe(_ errors: [(Int64, Int64)]) -> String {
        errors.map { "\($0.0):\(String(format: "%.3f", Double($0.1) / 1e6))" }.joined(separator: " ")
    }

    static func off(_ errors: [(Int64, Int64)], by tolerance: Int64 = 100_000) -> [(Int64, Int64)] {
        errors.filter { abs($0.1) > tolerance }
    }

    static func largest(_ errors: [(Int64, Int64)]) -> Int64 { errors.map { abs($0.1) }.max() ?? 0 }

    /// The loop frames of `indices` whose timestamp is further from the refresh that showed the
    /// frame before than that frame's present returned (by over 1 µs): a timestamp worse than the
    /// raw return. (After the review the frames after a late one are timed by the grid refitted
    /// with its kept period, resting on the returns: never later than they are, and no more than
    /// the least delay so far late.)
    static func worse(_ run: R6, _ indices: [Int64]) -> [(Int64, Int64)] {
        let returns = Dictionary(returnErrors(run, indices).map { ($0.0, $0.1) }, uniquingKeysWith: { a, _ in a })
        return errors(run, indices).filter { index, error in
            guard let atReturn = returns[index] else { return false }
            return abs(error) > abs(atReturn) + 1_000
        }
    }

    /// The shortest span of 60 intervals of loop timestamps from `from` on.
    static func shortest60(_ run: R6, from: Int64) -> Int64 {
        let stamps = run.frames.filter { $0.index >= from }.map(\.timestamp)
        return zip(stamps, stamps.dropFirst(60)).map { $1 - $0 }.min() ?? .max
    }

    /// The largest |deltaTime − the true interval between the refreshes the two frames stand for|
    /// (lab frames i − 2 and i − 1 shown), over loop frames `indices`.
    static func deltaErrors(_ run: R6, _ indices: [Int64]) -> [(Int64, Int64)] {
        let byIndex = Dictionary(run.frames.map { ($0.index, $0) }, uniquingKeysWith: { a, _ in a })
        var out: [(Int64, Int64)] = []
        for index in indices {
            guard let frame = byIndex[index], index >= 2, Int(index - 1) < run.lab.frames.count,
                let a = run.lab.frames[Int(index - 2)].shownAt, let b = run.lab.frames[Int(index - 1)].shownAt
            else { continue }
            out.append((index, frame.delta - (b - a).wholeNanoseconds))
        }
        return out
    }
}

@MainActor
@Suite("Review 11: variable-refresh model placement, caps, re-locks")
struct R11ReviewTests {
    // MARK: cf8e057: frames after a late one placed by the variable-refresh model

    /// Control: the author's scenario shape (2 buffers, 48–144 Hz, exponential 0.5 ms, 3 ms work,
    /// three 8 ms overruns), judged over the 8 frames after each late frame.
    @Test("R11 control: late frames on 48–144 Hz, 2 buffers, the frames after placed on the truth")
    func r11ControlLateFrames() {
        let lates: [Int64] = [300, 600, 900]
        let run = R6(
            R6.Config(
                refresh: R11.vrr144, jitter: .exponential(mean: .microseconds(500)), seed: 5, frames: 1_200,
                work: { lates.contains($0) ? 11_000_000 : 3_000_000 }))
        let errors = R11.errors(run, R11.afterLate(lates))
        print("R11 control: \(R11.describe(errors))")
        #expect(R11.worse(run, R11.afterLate(lates)).isEmpty, "\(R11.describe(R11.worse(run, R11.afterLate(lates))))")
    }

    /// A GPU time of 2 ms (the display shows a frame no sooner than 2 ms after its present call):
    /// the late frame is shown 2 ms after its present, and the model, which places it at the call,
    /// carries that 2 ms error to the next 7 frames (before: stamped at returns, late by the delay).
    @Test("R11 GPU time: frames after a late one on 48–144 Hz with the GPU 2 ms behind the present")
    func r11GpuTimeLateFrames() {
        let lates: [Int64] = [300, 600, 900]
        let run = R6(
            R6.Config(
                refresh: R11.vrr144, jitter: .exponential(mean: .microseconds(500)), seed: 5, frames: 1_200,
                work: { lates.contains($0) ? 11_000_000 : 3_000_000 },
                events: { index, run in if run.lab.gpuTime == .zero { run.lab.gpuTime = .milliseconds(2) } }))
        let errors = R11.errors(run, R11.afterLate(lates))
        print("R11 gpu: \(R11.describe(errors))")
        print("R11 gpu at returns: \(R11.describe(R11.returnErrors(run, R11.afterLate(lates))))")
        let deltas = R11.deltaErrors(run, R11.afterLate(lates, through: 10))
        print("R11 gpu deltas: \(R11.describe(deltas))")
        // The chain after the first late frame (loop frames 302–307): the model's, not the returns'.
        let chain = errors.filter { (302...307).contains($0.0) }
        let atReturns = R11.returnErrors(run, Array(302...307))
        // (After the review: the frames after the late ones are timed by the grid refitted with
        // the period it kept, resting on the returns: no worse than the returns.)
        #expect(
            R11.largest(chain) <= R11.largest(atReturns),
            "chain \(R11.describe(chain)); at returns \(R11.describe(atReturns))")
        withKnownIssue(
            "GPU time 2 ms: the late frames are stamped at their present calls, −2.000 ms (older); from the second the source paces by deadline and the frames after are deadline times, 0.07–2.9 ms off (older); after the first, the refitted grid rests on the returns (0.02–0.68 ms, no worse than they are)"
        ) {
            #expect(R11.off(errors).isEmpty, "\(R11.describe(R11.off(errors)))")
        }
    }

    /// The display's true fastest refresh is 141 Hz, the host reports 48–144 Hz (a range read from
    /// the EDID, a mode a little slower than its nominal rate): the grid fits the true period, but
    /// the model (cf8e057) chained the reported one: −1.034 ms at frame 308.
    @Test("R11 misreported maximum: a 141 Hz display reported as 48–144 Hz, frames after a late one")
    func r11MisreportedMaximumSlower() {
        let lates: [Int64] = [300, 600, 900]
        let run = R6(
            R6.Config(
                refresh: .variable(minimum: FrameRate(numerator: 48), maximum: FrameRate(numerator: 141)),
                jitter: .exponential(mean: .microseconds(500)), seed: 5, frames: 1_200,
                work: { lates.contains($0) ? 11_000_000 : 3_000_000 }), run: false)
        run.source.variableRefreshRange = FrameRate(numerator: 48)...FrameRate.hz144
        run.loop.run(frames: run.config.frames)
        let errors = R11.errors(run, R11.afterLate(lates))
        print("R11 misreported 141/144: \(R11.describe(errors))")
        print("R11 misreported 141/144 at returns: \(R11.describe(R11.returnErrors(run, R11.afterLate(lates))))")
        print(
            "R11 misreported 141/144 deltas: \(R11.describe(R11.deltaErrors(run, R11.afterLate(lates, through: 10))))")
        print(
            "R11 misreported 141/144 follows: \(run.frames.filter { $0.index > 200 && $0.follows }.count) \(run.source.pacingDescription)"
        )
        // (After the review: the grid refitted after a late frame keeps the period it measured,
        // not the reported maximum, and rests on the returns: no worse than they are.)
        #expect(R11.worse(run, R11.afterLate(lates)).isEmpty, "\(R11.describe(R11.worse(run, R11.afterLate(lates))))")
    }

    @Test("R11 misreported maximum: a 143 Hz display reported as 48–144 Hz, frames after a late one")
    func r11MisreportedMaximumSlightly() {
        let lates: [Int64] = [300, 600, 900]
        let run = R6(
            R6.Config(
                refresh: .variable(minimum: FrameRate(numerator: 48), maximum: FrameRate(numerator: 143)),
                jitter: .exponential(mean: .microseconds(500)), seed: 5, frames: 1_200,
                work: { lates.contains($0) ? 11_000_000 : 3_000_000 }), run: false)
        run.source.variableRefreshRange = FrameRate(numerator: 48)...FrameRate.hz144
        run.loop.run(frames: run.config.frames)
        let errors = R11.errors(run, R11.afterLate(lates))
        print("R11 misreported 143/144: \(R11.describe(errors))")
        print("R11 misreported 143/144 at returns: \(R11.describe(R11.returnErrors(run, R11.afterLate(lates))))")
        print(
            "R11 misreported 143/144 deltas: \(R11.describe(R11.deltaErrors(run, R11.afterLate(lates, through: 10))))")
        print(
            "R11 misreported 143/144 follows: \(run.frames.filter { $0.index > 200 && $0.follows }.count) \(run.source.pacingDescription)"
        )
        // (After the review: the grid refitted after a late frame keeps the period it measured,
        // not the reported maximum, and rests on the returns: no worse than they are.)
        #expect(R11.worse(run, R11.afterLate(lates)).isEmpty, "\(R11.describe(R11.worse(run, R11.afterLate(lates))))")
    }

    /// Two late frames 3 frames apart: the second restarts the phase inside the first's chain.
    @Test("R11 back to back: late frames at 300 and 303 on 48–144 Hz")
    func r11BackToBackLateFrames() {
        let lates: [Int64] = [300, 303, 600, 602, 605]
        let run = R6(
            R6.Config(
                refresh: R11.vrr144, jitter: .exponential(mean: .microseconds(500)), seed: 11, frames: 900,
                work: { lates.contains($0) ? 11_000_000 : 3_000_000 }))
        // (Frame 614, the first after the chain of the late frame at 605, is the young grid's: 0.44 ms
        // off, but not claimed as the vsync.)
        let errors = R11.errors(run, R11.afterLate([300, 600], through: 13))
        print(
            "R11 back to back: \(R11.describe(errors)) 614 follows \(run.frames.first { $0.index == 614 }!.follows) \(run.frames.first { $0.index == 614 }!.mode)"
        )
        let judged = R11.afterLate([300, 600], through: 13)
        #expect(R11.worse(run, judged).isEmpty, "\(R11.describe(R11.worse(run, judged)))")
    }

    /// Three buffers: the present that blocks is released by the refresh that shows the frame two
    /// ahead, not its own.
    @Test("R11 three buffers: late frames on 48–144 Hz")
    func r11ThreeBuffersLateFrames() {
        let lates: [Int64] = [300, 600, 900]
        let run = R6(
            R6.Config(
                refresh: R11.vrr144, buffers: 3, jitter: .exponential(mean: .microseconds(500)), seed: 5,
                frames: 1_200, work: { lates.contains($0) ? 11_000_000 : 3_000_000 }))
        let errors = R11.errors(run, R11.afterLate(lates))
        print(
            "R11 3 buffers: \(R11.describe(errors)) follows \(run.frames.filter { $0.index > 200 && $0.follows }.count)"
        )
        let shortest = R11.shortest60(run, from: 130)
        let fastest = FrameRate.hz144.periodNanoseconds
        #expect(shortest >= 60 * fastest - fastest / 4, "60 intervals spanned \(shortest) ns")
    }

    /// Presentation feedback gives the true shown times: the model must not overrule it (GPU time
    /// 2 ms, so the model's placement at the present call is off).
    @Test("R11 feedback + GPU time: frames after a late one on 48–144 Hz")
    func r11FeedbackGpuLateFrames() {
        let lates: [Int64] = [300, 600, 900]
        let run = R6(
            R6.Config(
                refresh: R11.vrr144, jitter: .exponential(mean: .microseconds(500)), seed: 5, feedback: true,
                frames: 1_200, work: { lates.contains($0) ? 11_000_000 : 3_000_000 },
                events: { index, run in if run.lab.gpuTime == .zero { run.lab.gpuTime = .milliseconds(2) } }))
        let errors = R11.errors(run, R11.afterLate(lates))
        print("R11 feedback gpu: \(R11.describe(errors))")
        print("R11 feedback gpu at returns: \(R11.describe(R11.returnErrors(run, R11.afterLate(lates))))")
        print(
            "R11 feedback gpu follows: \(run.frames.filter { $0.index > 295 && $0.index < 312 }.map { "\($0.index):\($0.follows ? 1 : 0)\($0.mode)" })"
        )
        withKnownIssue(
            "feedback on, GPU time 2 ms: the source paces by deadline here (older); the late frames are stamped at their present calls, −2.000 ms (older: the display showed them when the GPU finished); the frames after them are deadline times, 0.07–2.9 ms off the refreshes"
        ) {
            #expect(R11.off(errors).isEmpty, "\(R11.describe(R11.off(errors)))")
        }
    }

    /// Log-normal delays (never near zero): median 0.4 ms, 99th percentile 2 ms.
    @Test("R11 log-normal delays: late frames on 48–144 Hz")
    func r11LognormalLateFrames() {
        let lates: [Int64] = [300, 600, 900]
        let run = R6(
            R6.Config(
                refresh: R11.vrr144,
                jitter: .lognormal(median: .microseconds(400), percentile99: .milliseconds(2)), seed: 5,
                frames: 1_200, work: { lates.contains($0) ? 11_000_000 : 3_000_000 }))
        let errors = R11.errors(run, R11.afterLate(lates))
        print("R11 lognormal: \(R11.describe(errors))")
        let shortest = R11.shortest60(run, from: 130)
        let fastest = FrameRate.hz144.periodNanoseconds
        print("R11 lognormal shortest60 \(shortest) vs \(60 * fastest)")
        #expect(R11.worse(run, R11.afterLate(lates)).isEmpty, "\(R11.describe(R11.worse(run, R11.afterLate(lates))))")
        #expect(shortest >= 60 * fastest - fastest / 4, "60 intervals spanned \(shortest) ns")
    }

    /// A late frame right after a show: the chain starts from the model's first-after-show
    /// placement.
    @Test("R11 late frame after a show on 48–144 Hz")
    func r11LateAfterShow() {
        let run = R6(
            R6.Config(
                refresh: R11.vrr144, jitter: .exponential(mean: .microseconds(500)), seed: 5, frames: 700,
                work: { $0 == 402 ? 11_000_000 : 3_000_000 },
                events: { index, run in
                    if index == 300 { (run.lab.isHidden, run.source.isWindowHidden) = (true, true) }
                    if index == 400 { (run.lab.isHidden, run.source.isWindowHidden) = (false, false) }
                }))
        let errors = R11.errors(run, Array(401...415))
        print("R11 after show: \(R11.describe(errors))")
        #expect(R11.worse(run, Array(403...415)).isEmpty, "\(R11.describe(R11.worse(run, Array(403...415))))")
    }

    // MARK: e13bf1b: a cap paced directly

    /// A cap lowered to 72 Hz, then raised back to the display's maximum: frames outrun it again
    /// and are shown at 144 Hz.
    @Test("R11 cap lowered 144 → 72 then raised back to 144 on 48–144 Hz")
    func r11CapDownAndUp() {
        let run = R6(
            R6.Config(
                refresh: R11.vrr144, jitter: .exponential(mean: .microseconds(150)), seed: 9, frames: 1_000,
                cap: .hz144, work: { _ in 2_000_000 },
                events: { index, run in
                    if index == 300 { run.source.displayRefreshRate = FrameRate(numerator: 72) }
                    if index == 600 { run.source.displayRefreshRate = .hz144 }
                }))
        let fastest = FrameRate.hz144.periodNanoseconds
        let shownLow = run.lab.frames[330..<590].compactMap { $0.shownAt?.nanoseconds }
        let period72 = FrameRate(numerator: 72).periodNanoseconds
        let uneven72 = zip(shownLow, shownLow.dropFirst()).filter { abs($1 - $0 - period72) > 100_000 }.count
        let shownHigh = run.lab.frames[650..<990].compactMap { $0.shownAt?.nanoseconds }
        let uneven144 = zip(shownHigh, shownHigh.dropFirst()).filter { abs($1 - $0 - fastest) > 100_000 }.count
        print(
            "R11 cap down/up: uneven72 \(uneven72)/\(shownLow.count - 1) uneven144 \(uneven144)/\(shownHigh.count - 1) \(run.source.pacingDescription)"
        )
        #expect(uneven72 == 0)
        #expect(uneven144 == 0)
    }

    /// A cap of 72 Hz with a requested range of 30–60 Hz: frames at 60 Hz, evenly.
    @Test("R11 cap 72 Hz with a requested range 30–60 Hz on 48–144 Hz")
    func r11CapWithRange() {
        let run = R6(
            R6.Config(
                refresh: R11.vrr144, jitter: .exponential(mean: .microseconds(150)), seed: 9, frames: 800,
                cap: .hz144, work: { _ in 2_000_000 },
                events: { index, run in
                    if index == 300 { run.source.displayRefreshRate = FrameRate(numerator: 72) }
                    if index == 400 { run.loop.preferredFrameRateRange = FrameRateRange(minimum: 30, maximum: 60) }
                }))
        let shown = run.lab.frames[430..<790].compactMap { $0.shownAt?.nanoseconds }
        let period = FrameRate.hz60.periodNanoseconds
        let uneven = zip(shown, shown.dropFirst()).filter { abs($1 - $0 - period) > 100_000 }.count
        print("R11 cap+range: uneven60 \(uneven)/\(shown.count - 1) \(run.source.pacingDescription)")
        #expect(uneven == 0)
    }

    // MARK: 839b3eb: re-locks after a stable grid

    /// A move from a fixed 60 Hz display (judged stable) to an emulated vsync (a timer whose phase
    /// wanders: uniform jitter up to 4 ms): frames claiming to follow the vsync there, and how far
    /// their timestamps are from the emulated ticks that showed the frames.
    @Test("R11 move from a fixed display to an emulated vsync")
    func r11MoveToEmulated() {
        let run = R6(
            R6.Config(
                refresh: .fixed(.hz60), jitter: .uniform(upTo: .milliseconds(4)), seed: 4, frames: 900,
                work: { _ in 4_000_000 },
                events: { index, run in
                    if index == 300 { run.lab.changeRefresh(to: .emulated(.hz60)) }
                }))
        let claimed = run.frames.filter { $0.index > 302 && $0.follows }
        let errors = R11.errors(run, claimed.map(\.index))
        print(
            "R11 emulated: claimed \(claimed.count) first \(claimed.first?.index ?? -1) last \(claimed.last?.index ?? -1) off \(R11.off(errors).count) largest \(R11.largest(errors)) \(R11.describe(Array(R11.off(errors).prefix(10))))"
        )
        #expect(R11.off(errors).isEmpty)
    }

    /// The same move without hitches (is the drift the move's, or the hitches'?).
    @Test("R11 move 60 → 59.94 Hz, no hitches")
    func r11MoveNearRate() {
        let run = R6(
            R6.Config(
                refresh: .fixed(.hz60), jitter: .exponential(mean: .microseconds(300)), seed: 6, frames: 1_200,
                work: { _ in 5_000_000 },
                events: { index, run in
                    if index == 300 {
                        run.lab.changeRefresh(to: .fixed(FrameRate(numerator: 60_000, denominator: 1_001)))
                        run.source.displayRefreshRate = FrameRate(numerator: 60_000, denominator: 1_001)
                    }
                }))
        let verdict = run.judge(300, 1_180)
        let offFrames = verdict.tsOff.map(\.0)
        print(
            "R11 near move no hitch: \(verdict) first off \(offFrames.first ?? -1) last off \(offFrames.last ?? -1) largest \(verdict.tsOff.map(\.1).max() ?? 0) \(run.source.pacingDescription)"
        )
        // Was a known issue: the 60 Hz grid was kept (a close rate was not "another display"), and
        // frames claimed the vsync while drifting 16.7 µs a frame: 132 frames (308–439) off by
        // 0.11–2.29 ms, 133 targets off; inside the sweep's 144-frame relearning allowance, so the
        // sweep did not see it. Fixed: a changed report is another display, learned afresh.
        #expect(verdict.tsOff.isEmpty)
    }

    /// A display whose true fastest refresh is 147 Hz, reported as 48–144 Hz: the model places
    /// refreshes later than the truth.
    @Test("R11 misreported maximum: a 147 Hz display reported as 48–144 Hz")
    func r11MisreportedMaximumFaster() {
        let lates: [Int64] = [300, 600, 900]
        let run = R6(
            R6.Config(
                refresh: .variable(minimum: FrameRate(numerator: 48), maximum: FrameRate(numerator: 147)),
                jitter: .exponential(mean: .microseconds(500)), seed: 5, frames: 1_200,
                work: { lates.contains($0) ? 11_000_000 : 3_000_000 }), run: false)
        run.source.variableRefreshRange = FrameRate(numerator: 48)...FrameRate.hz144
        run.loop.run(frames: run.config.frames)
        let errors = R11.errors(run, R11.afterLate(lates))
        print("R11 misreported 147/144: \(R11.describe(errors))")
        print("R11 misreported 147/144 at returns: \(R11.describe(R11.returnErrors(run, R11.afterLate(lates))))")
        // (After the review: the grid refitted after a late frame keeps the period it measured,
        // not the reported maximum, and rests on the returns: no worse than they are.)
        #expect(R11.worse(run, R11.afterLate(lates)).isEmpty, "\(R11.describe(R11.worse(run, R11.afterLate(lates))))")
    }

    // MARK: the re-lock count on the grid itself

    /// Returns of a 60 Hz vsync, late by under 0.1 ms, at vsyncs `numbers` from `phase`.
    static func r11Offer(_ numbers: ClosedRange<Int64>, period: Int64, phase: Int64, to grid: inout _VsyncGrid) {
        for number in numbers { grid.add(returnTime: phase + number * period + (number * 37 % 90) * 1_000) }
    }

    /// A grid judged stable early (24 clean returns) does not reset the count of re-locks that
    /// marks a wandering phase: two re-locks on a real display (hitches), an early judgement,
    /// then a move whose first fit is off and re-locks once: the display is marked wandering and
    /// waits for a full window of 512 returns.
    @Test("R11 grid: an early stable judgement, then a move whose first fit re-locks once")
    func r11EarlyJudgementDoesNotResetRelockCount() {
        let period: Int64 = 16_666_667
        var grid = _VsyncGrid(nominalPeriod: period)
        var phase: Int64 = 1_000_000_000
        R11ReviewTests.r11Offer(0...29, period: period, phase: phase, to: &grid)
        #expect(grid.isStable == true, "judged stable early")
        // Two re-locks (the phase jumps by 3 ms twice: a compositor restart, a mode change).
        for _ in 1...2 {
            phase += 40 * period + 3_000_000
            R11ReviewTests.r11Offer(0...9, period: period, phase: phase, to: &grid)
            #expect(grid.isUsable)
        }
        // Judged stable again, early.
        phase += 12 * period
        R11ReviewTests.r11Offer(0...29, period: period, phase: phase, to: &grid)
        #expect(grid.isStable == true, "judged stable early again")
        let relocksBefore = grid.relocks
        // A move to a 75 Hz display: its first fit is used, but off; the grid re-locks once.
        grid.relockForAnotherDisplay()
        let moved: Int64 = 13_333_333
        phase += 100 * period
        R11ReviewTests.r11Offer(0...7, period: moved, phase: phase, to: &grid)
        #expect(grid.isUsable, "the first fit after the move is used")
        phase += 30 * moved + 1_700_000
        R11ReviewTests.r11Offer(0...9, period: moved, phase: phase, to: &grid)
        print(
            "R11 grid relocks \(grid.relocks - relocksBefore) usable \(grid.isUsable) stable \(String(describing: grid.isStable))"
        )
        withKnownIssue(
            "an early stability judgement (24 returns) does not reset relocksWhileUnjudged, and a move does not either: 2 re-locks, an early judgement, a move and 1 re-lock mark the display wandering (isStable false, wasStable false, 512 returns required: 8.5 s at 60 Hz timed by no grid)"
        ) {
            #expect(grid.isUsable, "one re-lock after a move, the display judged stable twice before")
        }
    }

    /// A cap raised above a variable display's maximum (240 Hz on 48–144 Hz) after one at 72 Hz:
    /// frames at the display's fastest, never faster.
    @Test("R11 cap 72 Hz raised to 240 Hz on 48–144 Hz")
    func r11CapAboveMaximum() {
        let run = R6(
            R6.Config(
                refresh: R11.vrr144, jitter: .exponential(mean: .microseconds(150)), seed: 9, frames: 900,
                cap: FrameRate(numerator: 72), work: { _ in 2_000_000 },
                events: { index, run in
                    if index == 400 { run.source.displayRefreshRate = FrameRate(numerator: 240) }
                }))
        let fastest = FrameRate.hz144.periodNanoseconds
        let shown = run.lab.frames[450..<890].compactMap { $0.shownAt?.nanoseconds }
        let uneven = zip(shown, shown.dropFirst()).filter { abs($1 - $0 - fastest) > 100_000 }.count
        print("R11 cap above: uneven144 \(uneven)/\(shown.count - 1) \(run.source.pacingDescription)")
        #expect(uneven == 0)
    }

    /// A move from 60 Hz to 144 Hz through a 300 ms blank (a modeset), delays spread evenly up to
    /// 1.5 ms: the first fits after the move may be off and re-lock; a re-locked fit is now used
    /// at once. Frames claiming the vsync after the move, and how far they are from it.
    @Test("R11 move 60 → 144 Hz through a blank, wide delays")
    func r11MoveThroughBlank() {
        let run = R6(
            R6.Config(
                refresh: .fixed(.hz60), jitter: .uniform(upTo: .microseconds(1_500)), seed: 12, frames: 1_400,
                work: { _ in 3_000_000 },
                events: { index, run in
                    if index == 300 {
                        run.lab.changeRefresh(to: .fixed(.hz144), blankingFor: .milliseconds(300))
                        run.source.displayRefreshRate = .hz144
                    }
                }))
        let verdict = run.judge(303, 1_380)
        let offFrames = verdict.tsOff.map(\.0)
        let firstClaim = run.frames.first { $0.index > 300 && $0.follows }?.index ?? -1
        print(
            "R11 blank move: first claim \(firstClaim) \(verdict) off frames \(offFrames.prefix(20)) largest \(verdict.tsOff.map(\.1).max() ?? 0)"
        )
        #expect(verdict.tsOff.filter { $0.1 > 1_000_000 }.isEmpty)
        #expect(verdict.booked == verdict.missed)
    }
}
