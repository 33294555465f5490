import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// Review 15 (of 8e39e75: the display's report weighs in the vsync period; the first frame on the
/// grid after deadline frames has the drops its interval holds), by an independent reviewer with
/// scenarios of its own, judged against the display lab's truth (`R15`, on the review-6 harness).
/// Defects stay `withKnownIssue`, with the figures measured at 8e39e75 and at 209b273.
@MainActor
struct Review15Tests {
    static func rate(_ hertz: Double) -> FrameRate {
        FrameRate(numerator: Int64((hertz * 1_000).rounded()), denominator: 1_000)
    }

    // MARK: A report with a fraction, off by more than the clock's 100 ppm

    /// A display whose true rate is off its fractional report by more than 100 ppm (a 1000/1001
    /// mode line of 143.856 Hz on a panel that runs at 144.0; a clock 150–500 ppm off its mode),
    /// 3 buffers, 75 % of a period of work, present delays exponential with a 0.5 ms mean (presents
    /// have room and seldom block). The report's stated error is 0.69 µs; the grid should give up
    /// the report once the display contradicts it, and the loop should book the refreshes the
    /// display repeats.
    ///
    /// Measured at 8e39e75 (`SlopeFit.reported` on every fit of the run, the fitted period the
    /// report's to the end):
    /// - 144.0 as 143.856, 3,000 frames: period +6,922 ns off for good; 3 repeated refreshes
    ///   (frames 297, 1300, 2303: one per 1,000 frames), none booked.
    /// - 143.878 as 143.856 (150 ppm), 6,000 frames: +1,054 ns for good; 1 repeated, none booked.
    /// - 143.899 (300 ppm): +2,065 ns, 2 repeated, none booked; 143.928 (500 ppm): +3,460 ns, 3, none.
    ///
    /// At 209b273 (the window's own period) the same runs ended 1,343 ns (1000 ppm case) and 847 ns
    /// (the others) below the truth, with no refresh repeated and none booked.
    ///
    /// Cause (a guess): the contradiction check needs returns, and a period held slow by the report
    /// drains the chain, so presents never block again and no return comes to contradict it; the
    /// eight returns of the start (late by a mean 0.5 ms) state an error hundreds of times the
    /// report's, so the report carries the whole weight. The drift shows only as a refresh repeated
    /// every 1/(ppm) frames, which the loop's interval count (on the same wrong period) cannot see.
    @Test(
        "a fractional report off by over 100 ppm, presents with room: the report is held for good",
        arguments: [(144.0, 143.856, 3_000), (143.856 * 1.000_15, 143.856, 6_000), (143.856 * 1.000_5, 143.856, 6_000)])
    func fractionalReportOffPresentsWithRoom(truthHertz: Double, reportHertz: Double, frames: Int) {
        let (truth, report) = (Self.rate(truthHertz), Self.rate(reportHertz))
        let p = truth.periodNanoseconds
        let (run, probe) = R15.run(
            truth: truth, report: report, buffers: 3, frames: frames, jitter: .exponential(mean: .microseconds(500)),
            seed: 11
        ) { _ in p * 3 / 4 }
        let last = Int64(frames - 10)
        let booked = run.frames.last!.dropped
        let missed = run.lab.missedRefreshes
        let endError = probe.period[last]! - R15.period(of: truth)
        let reportedFits = R15.reportedFits(probe, 0, last)
        print(
            "R15 fractionalReportOff \(truth) as \(report): missed \(missed) booked \(booked) period − truth at the end "
                + "\(Int(endError)) ns, reported fits \(reportedFits)")
        withKnownIssue("a fractional report off by over 100 ppm is never contradicted while presents have room") {
            // Within the clock tolerance the report claims, by the run's end.
            #expect(abs(endError) <= R15.period(of: truth) / 10_000, "\(endError)")
            // At 209b273: none.
            #expect(missed == 0, "\(missed) refreshes repeated")
        }
        withKnownIssue("the refreshes the display repeats under the report's period are not booked") {
            #expect(booked == missed, "booked \(booked), missed \(missed)")
        }
    }

    /// As above, but the report's period is the shorter one (the display 300 ppm slower than it
    /// says): frames outrun the display, the chain fills, and nothing is repeated. Holds (the
    /// period stays the report's, 2,028 ns off, but no refresh is lost in 6,000 frames).
    @Test("a fractional report 300 ppm fast, presents with room: nothing repeated, nothing booked")
    func fractionalReportFast() {
        let (truth, report) = (Self.rate(143.856 * 0.999_7), Self.rate(143.856))
        let p = truth.periodNanoseconds
        let (run, _) = R15.run(
            truth: truth, report: report, buffers: 3, frames: 6_000, jitter: .exponential(mean: .microseconds(500)),
            seed: 11
        ) { _ in p * 3 / 4 }
        #expect(run.lab.missedRefreshes == 0)
        #expect(run.frames.last!.dropped == 0)
    }

    // MARK: Reports that hold

    /// Whole-hertz reports up to 1 Hz off (SDL 2's rounding) and a fractional report 183 ppm off
    /// with presents that block every frame: the window takes over (the 1 Hz report's error is
    /// hundreds of µs), the period ends within 50 ns of the truth, no timestamp or target is over
    /// 100 µs off from frame 100, and nothing is repeated or booked. Held at 8e39e75 (as at 209b273)
    /// for 2 and 3 buffers, work 45–79 % of a period, uniform (1.2 ms) and exponential (0.5 ms)
    /// delays; one configuration each is kept here.
    @Test(
        "wrong reports the returns overrule",
        arguments: [
            (FrameRate.hz59_94, FrameRate.hz60, 2), (.hz59_94, FrameRate(numerator: 59), 3),
            (FrameRate(numerator: 74_970, denominator: 1_000), .hz75, 3),
            (FrameRate(numerator: 120_000, denominator: 1_001), .hz120, 3),
            (.hz59_94, FrameRate(numerator: 59_951, denominator: 1_000), 2),
        ])
    func reportsTheReturnsOverrule(truth: FrameRate, report: FrameRate, buffers: Int) {
        let p = truth.periodNanoseconds
        let (run, probe) = R15.run(
            truth: truth, report: report, buffers: buffers, frames: 2_400, jitter: .uniform(upTo: .microseconds(300))
        ) { _ in p * 45 / 100 }
        let v = run.judge(100, 2_390)
        #expect(
            abs(probe.period[2_390]! - R15.period(of: truth)) < 50,
            "\(R15.summary(run, probe, truth: truth, 20, 2_390))")
        #expect(v.tsOff.isEmpty && v.targetOff.isEmpty, "\(v)")
        #expect(run.lab.missedRefreshes == 0 && run.frames.last!.dropped == 0, "\(v)")
    }

    // MARK: Drops coming onto the grid

    /// Frames of 78 % of a 240 Hz period with delays up to 1.5 ms, 2 and 3 buffers, and 85 % of
    /// 144 Hz with log-normal delays: the start paces by deadline, then vsync. Over 30 seeds of
    /// 400 frames each, booked drops equal the lab's missed refreshes in every run at 8e39e75
    /// (at 209b273, 12 of 30 runs at 240 Hz with 2 buffers were off, e.g. 140 against 143, and
    /// 1 of 30 at 144 Hz, 13 against 14, and 1 of 30 at 60 Hz, 72 against 73): no double count, no
    /// drop booked on a frame that was not late.
    @Test(
        "drops coming onto the grid after deadline frames: booked as the display missed them",
        arguments: [
            (FrameRate(numerator: 240), 2, 78, PresentJitter.uniform(upTo: .microseconds(1_500))),
            (FrameRate(numerator: 240), 3, 78, .uniform(upTo: .microseconds(1_500))),
            (.hz144, 2, 85, .lognormal(median: .microseconds(300), percentile99: .microseconds(1_200))),
            (.hz60, 2, 95, .uniform(upTo: .microseconds(1_000))),
        ])
    func dropsComingOntoTheGrid(rate: FrameRate, buffers: Int, workPercent: Int64, jitter: PresentJitter) {
        let p = rate.periodNanoseconds
        var off: [String] = []
        for seed in UInt64(1)...30 {
            let (run, _) = R15.run(truth: rate, report: rate, buffers: buffers, frames: 400, jitter: jitter, seed: seed)
            {
                _ in p * workPercent / 100
            }
            let booked = run.frames.last!.dropped
            let missed = run.missed(0, run.frames.last!.index)
            if booked != missed {
                off.append("seed \(seed): booked \(booked) missed \(missed) \(run.departures(from: 1))")
            }
        }
        #expect(off.isEmpty, "\(off)")
    }

    // MARK: Transitions between deadline frames and the grid

    /// How the pacing moves off and back onto the grid in `transitions`.
    enum R15Transition: String, CaseIterable, Sendable {
        /// `pacing = .deadline` at frame 300, `.vsync` at 400.
        case deadlineThenVsync
        /// `pacing = .unpaced` at 300, `.automatic` at 400.
        case unpacedThenAutomatic
        /// The window hidden at 300 and shown at 340 (the host says so).
        case hiddenAndShown
        /// A 200 ms hitch at frame 300.
        case hitch
        /// `pacing = .deadline` at 300, `.automatic` at 400.
        case deadlineThenAutomatic
    }

    /// Runs `transition` on `rate` with `buffers` buffers, seeds 1–`seeds`, work 30/70/90 % of a period,
    /// delays up to 0.8 ms; returns the runs whose booked drops over frames 250–690 are not the
    /// lab's missed refreshes.
    static func transitionRuns(_ transition: R15Transition, rate: FrameRate, buffers: Int, seeds: UInt64 = 10)
        -> [String]
    {
        let p = rate.periodNanoseconds
        var off: [String] = []
        for seed in UInt64(1)...seeds {
            for work in [Int64(30), 70, 90] {
                let (run, _) = R15.run(
                    truth: rate, report: rate, buffers: buffers, frames: 700,
                    jitter: .uniform(upTo: .microseconds(800)),
                    seed: seed
                ) { index in
                    transition == .hitch && index == 300 ? 200_000_000 : p * work / 100
                } events: { index, run in
                    switch transition {
                    case .deadlineThenVsync, .deadlineThenAutomatic, .unpacedThenAutomatic:
                        if index == 300 {
                            run.source.pacing = transition == .unpacedThenAutomatic ? .unpaced : .deadline
                        }
                        if index == 400 { run.source.pacing = transition == .deadlineThenVsync ? .vsync : .automatic }
                    case .hiddenAndShown:
                        if index == 300 { (run.lab.isHidden, run.source.isWindowHidden) = (true, true) }
                        if index == 340 { (run.lab.isHidden, run.source.isWindowHidden) = (false, false) }
                    case .hitch: break
                    }
                }
                let (booked, missed) = (run.booked(250, 690), run.missed(250, 690))
                if booked != missed {
                    off.append(
                        "seed \(seed) work \(work) %: booked \(booked) missed \(missed) \(run.departures(from: 250, limit: 2))"
                    )
                }
            }
        }
        return off
    }

    nonisolated static let transitionDisplays: [(FrameRate, Int)] = [
        (.hz60, 2), (.hz60, 3), (.hz144, 2), (.hz144, 3), (FrameRate(numerator: 240), 2),
    ]

    /// Off the grid and back: deadline → vsync, unpaced → automatic, a hidden window, a hitch. The
    /// drops booked over frames 250–690 are the display's missed refreshes in all 15 runs of each
    /// (no interval count added on top of the model's, none after the hidden window). Held at
    /// 8e39e75 (also with seeds 1–10); at 209b273 one hitch run at 144 Hz with 3 buffers (seed 4,
    /// work 70 %) booked 28 against 27.
    @Test(
        "off the grid and back: drops booked as the display missed them",
        arguments: [R15Transition.deadlineThenVsync, .unpacedThenAutomatic, .hiddenAndShown, .hitch],
        0..<5)
    func transitions(transition: R15Transition, display: Int) {
        let (rate, buffers) = Self.transitionDisplays[display]
        let off = Self.transitionRuns(transition, rate: rate, buffers: buffers, seeds: 5)
        #expect(off.isEmpty, "\(off.count)/15 off: \(off.prefix(3))")
    }

    /// `pacing = .deadline` for 100 frames, then `.automatic`: the source probes the display's phase
    /// by moving a frame's start, the loop's interval there is just over 1.5 periods, and a drop is
    /// booked that the display did not miss. 60 Hz, 2 buffers, seed 4, work 30 %: frame 402's
    /// interval 25,070,124 ns (1.504 periods), booked 1; the lab's frames 401–402 shown one refresh
    /// apart, missed 0. Runs off (of 30) at 8e39e75: 12 at 60 Hz/2 buffers (258 booked against 246
    /// missed), 12 at 60/3 (17 against 0), 12 at 144/2, 10 at 144/3 (13 against 0), 11 at 240/2.
    /// At 209b273 the same, but 144/3: 12 (15 against 0). Older than this change.
    @Test("back to automatic after deadline frames: the phase probe's long interval is booked as a drop")
    func deadlineThenAutomatic() {
        var off: [String] = []
        var offWithThreeBuffers: [String] = []
        for (rate, buffers) in Self.transitionDisplays {
            let runs = Self.transitionRuns(.deadlineThenAutomatic, rate: rate, buffers: buffers).map {
                "\(rate)/\(buffers): \($0)"
            }
            if buffers == 3 { offWithThreeBuffers += runs } else { off += runs }
        }
        // (Fixed after review: the probe's delay is taken off the interval that counts the drops.
        // With two buffers every run is exact now.)
        #expect(off.isEmpty, "\(off.count)/90 off: \(off.prefix(3))")
        // With three, a drop was still booked where the frames come onto the grid after the probe
        // (frame 414, vsync mode, the display missed none): 7 of 30 runs at 60 Hz, 4 of 30 at
        // 144 Hz after that fix (12 and 10 before it). Coming onto the grid, the frame's start
        // was moved a vsync past the one that released its present, and the model placed the
        // frame by its start. Fixed: the release places it (`_SwapChainModel.Frame.released`).
        #expect(offWithThreeBuffers.isEmpty, "\(offWithThreeBuffers.count)/60 off: \(offWithThreeBuffers.prefix(3))")
    }

    // MARK: Moves and emulated vsync

    /// A move from a 59.94 Hz display (reported exactly) to one that runs at 60.05 Hz and reports
    /// 60 (SDL 2's whole hertz), at frame 600, 3 buffers, 12 ms of work, delays up to 0.3 ms. The
    /// rates were too close for "another display", so the grid kept the old display's returns; with
    /// room in the chain no present blocked again, and the period stayed the old display's: 25,169 ns
    /// above the new one's at frame 700 and 18,559 at 2,990; the display repeated 4 refreshes after
    /// the move, none booked. (With 2 buffers the grid converged by frame 1,500, all drops booked.)
    /// The same at 209b273. Fixed after review: a changed report is another display, whose vsync is
    /// learned afresh; the period is then within 100 ns of the new one's and no refresh is missed.
    /// The report's error was also kept from the old display (`reportedPeriodUncertainty` was set
    /// only before a fit from scratch): 1,668 ns, a fractional report's, for the new whole-hertz
    /// report whose error is 282 µs; fixed.
    @Test("a move to a close rate with room in the chain: the new display's period is learned")
    func moveToACloseRate() {
        let (old, new) = (FrameRate.hz59_94, Self.rate(60.05))
        let (run, probe) = R15.run(truth: old, report: old, buffers: 3, frames: 3_000, seed: 5) { _ in
            12_000_000
        } events: {
            index, run in
            if index == 600 {
                run.lab.changeRefresh(to: .fixed(new, phase: .milliseconds(1)))
                run.source.displayRefreshRate = .hz60
            }
        }
        let endError = probe.period[2_990]! - R15.period(of: new)
        let (booked, missed) = (run.booked(600, 2_990), run.missed(600, 2_990))
        // (Fixed: a changed report is another display, whose vsync is learned afresh.)
        #expect(abs(endError) < 100, "\(endError)")
        #expect(missed == 0 && booked == missed, "booked \(booked) missed \(missed)")
        // (Fixed after review: the report's error was the old display's, read only by a fit from
        // scratch.)
        let kept = run.source.pacer.tracker.grid.reportedPeriodUncertainty ?? 0
        #expect(kept == _VsyncGrid.reportedPeriodError(of: .hz60), "\(kept)")
    }

    /// An emulated vsync (a throttle at 62.5 Hz) on a display whose report of 60 Hz is taken for its
    /// own (not a cap): the report's 1 Hz error does not hold the window's period back. The source
    /// says the vsync is faster than the display by frame 8 (as at 209b273), and no interval after
    /// frame 20 is shorter than 60 Hz's period by more than 0.3 ms.
    @Test("an emulated 62.5 Hz vsync reported as a 60 Hz display: found faster by frame 8", arguments: [2, 3])
    func emulatedVsyncReportedAsTheDisplays(buffers: Int) {
        let hz62_5 = FrameRate(numerator: 125, denominator: 2)
        var firstFaster: Int64?
        let (run, _) = R15.run(
            truth: hz62_5, report: .hz60, buffers: buffers, frames: 600, jitter: .uniform(upTo: .milliseconds(1)),
            refresh: .emulated(hz62_5)
        ) { _ in
            6_000_000
        } events: { index, run in
            if firstFaster == nil && run.source.pacingState.reason.isFasterThanDisplay { firstFaster = index }
        }
        let p60 = FrameRate.hz60.periodNanoseconds
        #expect(firstFaster.map { $0 <= 8 } == true, "\(String(describing: firstFaster))")
        #expect(run.frames.filter { $0.index > 20 && $0.delta < p60 - 300_000 }.isEmpty)
    }
}
