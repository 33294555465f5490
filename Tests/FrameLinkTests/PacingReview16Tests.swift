import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// Review 16 (of c14af4b: a frame coming onto the grid is placed by the vsync that released its
/// present; a changed display report is another display), by an independent reviewer with scenarios
/// of its own, judged against the display lab's truth (`R16`, on the review-6 harness). Defects stay
/// `withKnownIssue`, with the figures measured at c14af4b and at ea6b97f (before both changes).
@MainActor
struct Review16Tests {
    /// A reported move: from one fixed rate to another, with `buffers` and work in percent of the
    /// old period.
    struct R16Move: Sendable, CustomStringConvertible {
        var from: FrameRate
        var to: FrameRate
        var buffers: Int
        var workPercent: Int64
        var description: String { "\(from) → \(to), \(buffers) buffers, \(workPercent) %" }
    }

    // MARK: Hosts that set the report often

    /// The same rate set every frame (a host that copies SDL's mode into the source each frame):
    /// nothing changes. Every timestamp, target and drop is the run's without it (2 and 3 buffers).
    @Test("the same report set every frame changes nothing", arguments: [2, 3])
    func sameReportEveryFrame(buffers: Int) {
        var scenario = R16.Scenario(refresh: .fixed(.hz59_94, phase: .milliseconds(3)), report: .hz59_94)
        scenario.buffers = buffers
        scenario.frames = 600
        let control = R16.run(scenario)
        scenario.events = { _, run in run.source.displayRefreshRate = .hz59_94 }
        let run = R16.run(scenario)
        #expect(run.frames.map(\.timestamp) == control.frames.map(\.timestamp))
        #expect(run.frames.map(\.target) == control.frames.map(\.target))
        #expect(run.frames.map(\.dropped) == control.frames.map(\.dropped))
        #expect(run.source.vsyncRelocks == 0)
    }

    /// A 59.94 Hz display whose report wobbles between 59.94 and 60 Hz from frame 300 (every frame,
    /// every 10th, every 100th), 2 buffers, 30 % of a period of work, delays up to 0.8 ms, seeds 1–2.
    /// Judged over frames 300–1,190. Drops hold (none missed, none booked) and frames never come
    /// faster than the display, but every change drops the fit, and the timestamps are the raw
    /// returns again. At c14af4b (every frame / 10th / 100th): timestamps over 100 µs off the true
    /// vsync 776 / 640 / 115 of 891 (worst 0.80 ms), `deltaTime`s over 100 µs off a whole number of
    /// periods 682 / 563 / 57, frames claimed as the vsync 2 / 11 / 1 (891 without the wobble,
    /// none off). At ea6b97f (a fit within the report's plausible range was kept): none off, all
    /// claimed. Documented ("set it when the display changes, not every frame"), but a host that
    /// re-reads a mode that rounds differently now costs its players smooth `deltaTime`s: a
    /// regression of c14af4b for such hosts.
    @Test("a report that wobbles 59.94 ↔ 60 Hz", arguments: [Int64(1), 10, 100])
    func wobblingReport(every period: Int64) {
        for seed: UInt64 in [1, 2] {
            var scenario = R16.Scenario(refresh: .fixed(.hz59_94, phase: .milliseconds(3)), report: .hz59_94)
            scenario.seed = seed
            scenario.jitter = .uniform(upTo: .microseconds(800))
            scenario.work = { _ in 5_000_000 }
            scenario.events = { index, run in
                if index >= 300 { run.source.displayRefreshRate = (index / period) % 2 == 0 ? .hz59_94 : .hz60 }
            }
            let run = R16.run(scenario)
            let figures = R16.figures(run, 300, 1_190)
            print("R16 wobblingReport every \(period) seed \(seed): \(figures)")
            #expect(figures.booked == figures.missed && figures.missed == 0, "\(figures)")
            // (Raw returns jitter the 60-frame mean by up to 0.8 ms / 60.)
            #expect(figures.fastest60 >= FrameRate.hz59_94.periodNanoseconds - 20_000, "\(figures)")
            withKnownIssue("each change of the report drops the vsync fit: timestamps are the raw returns") {
                #expect(figures.anyOff == 0 && figures.deltasOff == 0, "\(figures)")
            }
        }
    }

    // MARK: Moves and modesets

    /// A reported move at frame 400 (a 30 ms blank), 1,500 frames, seeds 1–2, with and without
    /// presentation feedback: from frame 600 every drop is the display's, no timestamp claimed off
    /// the vsync, no target off; over the whole run booked = missed (none). Held at c14af4b; at
    /// ea6b97f the moves 60 → 59.94 Hz (kept as one display) booked 2 drops (1 with feedback and
    /// 3 buffers) the display never made, in every run.
    @Test(
        "reported moves: the new display's vsync is learned",
        arguments: [
            R16Move(from: .hz60, to: .hz59_94, buffers: 3, workPercent: 75),
            R16Move(from: .hz60, to: .hz59_94, buffers: 2, workPercent: 30),
            R16Move(from: .hz60, to: .hz120, buffers: 2, workPercent: 30),
            R16Move(from: .hz120, to: .hz60, buffers: 3, workPercent: 30),
            R16Move(from: .hz60, to: .hz120, buffers: 3, workPercent: 30),
        ], [false, true])
    func reportedMoves(move: R16Move, feedback: Bool) {
        let (from, to, buffers, workPercent) = (move.from, move.to, move.buffers, move.workPercent)
        for seed: UInt64 in [1, 2] {
            var scenario = R16.Scenario(refresh: .fixed(from, phase: .milliseconds(3)), report: from)
            (scenario.buffers, scenario.feedback, scenario.seed, scenario.frames) = (buffers, feedback, seed, 1_500)
            let work = from.periodNanoseconds * workPercent / 100
            scenario.work = { _ in work }
            scenario.events = { index, run in
                if index == 400 {
                    run.lab.changeRefresh(to: .fixed(to), blankingFor: .milliseconds(30))
                    run.source.displayRefreshRate = to
                }
            }
            let run = R16.run(scenario)
            let all = R16.figures(run, 395, 1_490)
            let settled = R16.figures(run, 600, 1_490)
            #expect(all.booked == all.missed, "\(all)")
            #expect(
                settled.timestampsOff == 0 && settled.targetsOff == 0 && settled.followed == settled.judged,
                "\(settled)")
        }
    }

    /// Moves every 50 frames (60 → 75 → 59.94 → 144 → 60 → 120 → 75 Hz, 10 ms blanks), 2 and 3
    /// buffers; a variable-refresh display (48–144 Hz) to a fixed 60 Hz one; a cap of 60 Hz on a
    /// 144 Hz display lifted (the display's own report again). Booked = missed over the run, and
    /// from 200 frames after the last change every frame is claimed on the vsync, none off. Held at
    /// c14af4b and at ea6b97f.
    @Test("moves in quick succession, variable to fixed, a cap lifted", arguments: 0..<4)
    func quickMoves(variant: Int) {
        var scenario = R16.Scenario(refresh: .fixed(.hz60, phase: .milliseconds(3)), report: .hz60)
        (scenario.frames, scenario.buffers) = (1_500, variant == 1 ? 3 : 2)
        var settledFrom: Int64 = 800
        switch variant {
        case 0, 1:
            let rates: [FrameRate] = [.hz75, .hz59_94, .hz144, .hz60, .hz120, .hz75]
            scenario.events = { index, run in
                guard index >= 300 && index < 600 && index % 50 == 0 else { return }
                let rate = rates[Int((index - 300) / 50)]
                run.lab.changeRefresh(to: .fixed(rate), blankingFor: .milliseconds(10))
                run.source.displayRefreshRate = rate
            }
        case 2:
            scenario.refresh = .variable(minimum: FrameRate(numerator: 48), maximum: .hz144)
            scenario.report = .hz144
            scenario.buffers = 3
            scenario.events = { index, run in
                guard index == 400 else { return }
                run.lab.changeRefresh(to: .fixed(.hz60), blankingFor: .milliseconds(20))
                run.source.variableRefreshRange = nil
                run.source.displayRefreshRate = .hz60
            }
            settledFrom = 600
        default:
            scenario.refresh = .fixed(.hz144, phase: .milliseconds(3))
            (scenario.caps, scenario.work) = (true, { _ in 3_000_000 })
            scenario.events = { index, run in
                guard index == 400 else { return }
                run.source.displayRefreshRate = .hz144
                run.source.capsAtDisplayRefreshRate = false
            }
            settledFrom = 600
        }
        let run = R16.run(scenario)
        let settled = R16.figures(run, settledFrom, 1_490)
        let all = R16.figures(run, 395, 1_490)
        print("R16 quickMoves \(variant): all \(all); settled \(settled)")
        #expect(settled.booked == settled.missed && settled.timestampsOff == 0 && settled.targetsOff == 0, "\(settled)")
        #expect(settled.followed == settled.judged && settled.anyOff == 0, "\(settled)")
        if variant != 3 { #expect(all.booked == all.missed, "\(all)") }
    }

    /// A modeset at the same rate (60 Hz, a 58.3 ms blank, so a new phase 8.3 ms off the old) at
    /// frame 400, which the host cannot report (the same rate set again changes nothing), 2 and 3
    /// buffers, 30 % of a period of work, seeds 1–3. The lab counts no refresh of a blank display
    /// as missed. At c14af4b: 4 drops booked in each run against none missed (2–4 with 3 buffers),
    /// a target 58.3 ms early; with presentation feedback, 5 booked and a timestamp claimed as the
    /// vsync 8.3 ms off it. The same at ea6b97f.
    @Test("an unreported modeset at the same rate: its blank booked as drops", arguments: [2, 3], [false, true])
    func sameRateModeset(buffers: Int, feedback: Bool) {
        for seed: UInt64 in [1, 2, 3] {
            var scenario = R16.Scenario(refresh: .fixed(.hz60, phase: .milliseconds(3)), report: .hz60)
            (scenario.buffers, scenario.feedback, scenario.seed, scenario.frames) = (buffers, feedback, seed, 900)
            scenario.events = { index, run in
                if index == 400 { run.lab.changeRefresh(to: .fixed(.hz60), blankingFor: .microseconds(58_300)) }
            }
            let run = R16.run(scenario)
            let all = R16.figures(run, 395, 890)
            print("R16 sameRateModeset \(buffers) buffers feedback \(feedback) seed \(seed): \(all)")
            withKnownIssue("a blank display repeats nothing, but its gap is booked as drops") {
                #expect(all.booked == all.missed, "\(all)")
                // (With feedback, a timestamp claimed as the vsync 8.3 ms off it.)
                #expect(all.timestampsOff == 0, "\(all)")
            }
            #expect(R16.figures(run, 600, 890).timestampsOff == 0)
        }
    }

    /// The window hidden at frame 300, moved to a 59.94 Hz display while hidden (reported, a 20 ms
    /// blank) at 320, shown at 400; 3 buffers, 8 ms of work, delays up to 0.3 ms, seeds 1–2. From
    /// frame 600 the source paces by vsync with a grid of 60.02 Hz (the display runs at 59.94):
    /// at c14af4b all 591 timestamps are over 100 µs off the true vsync (worst 4.63 ms), none is
    /// claimed as the vsync. No drop, booked or missed. With 2 buffers, or without the move, the
    /// same run ends on the vsync (59.94 Hz grid, every frame claimed, none off). At ea6b97f the
    /// grid was 59.94 Hz, but 17 and 22 frames of 591 were claimed as the vsync up to 8.29 ms off it
    /// (targets as far off), and 67–76 not claimed. Fixed after review: another display whose
    /// presents find room is measured afresh (by deadline, back to back once frames are light), and
    /// the old display's present durations are forgotten; every settled frame is now claimed and
    /// on the vsync.
    @Test("a move while hidden, 3 buffers: the new display's vsync is learned once shown")
    func moveWhileHidden() {
        for seed: UInt64 in [1, 2] {
            var scenario = R16.Scenario(refresh: .fixed(.hz60, phase: .milliseconds(3)), report: .hz60)
            (scenario.buffers, scenario.seed, scenario.frames) = (3, seed, 1_200)
            scenario.work = { _ in 8_000_000 }
            scenario.events = { index, run in
                if index == 300 { (run.lab.isHidden, run.source.isWindowHidden) = (true, true) }
                if index == 320 {
                    run.lab.changeRefresh(to: .fixed(.hz59_94), blankingFor: .milliseconds(20))
                    run.source.displayRefreshRate = .hz59_94
                }
                if index == 400 { (run.lab.isHidden, run.source.isWindowHidden) = (false, false) }
            }
            let run = R16.run(scenario)
            let settled = R16.figures(run, 600, 1_190)
            print("R16 moveWhileHidden seed \(seed): \(settled) \(run.source.pacingState)")
            #expect(R16.figures(run, 295, 1_190).booked == R16.figures(run, 295, 1_190).missed)
            #expect(settled.anyOff == 0 && settled.followed == settled.judged, "\(settled)")
        }
    }

    /// `pacing = .deadline` at frame 300, a reported move at 350 (to 75 Hz with a 20 ms blank, or to
    /// 59.94 Hz with none), `.automatic` at 400; 3 buffers, 8 ms of work, seeds 1–2. At c14af4b, to
    /// 75 Hz: the source never paces by vsync again ("measuring whether present blocks on vsync"
    /// to frame 1,190; 591 of 591 timestamps from frame 600 over 100 µs off the vsync, worst
    /// 6.66 ms), and 2 drops are booked at frame 351 that the display (blank) never made. To 59.94
    /// Hz: back on the vsync (timestamps within 50 µs) but none of 591 frames claimed as the vsync.
    /// With 2 buffers both end on the vsync, every frame claimed. At ea6b97f, to 75 Hz the same; to
    /// 59.94 Hz worse: 1 drop booked against none, and 252–253 of 591 settled frames claimed as the
    /// vsync while up to 8.3 ms off it (targets up to 15.6 ms off). Fixed after review for 75 Hz:
    /// the grid fitted by the back-to-back frames went to the phase probe because the deadline
    /// frames' presents were still counted as timed by the source, and the probe, with three
    /// buffers and light frames, drained the chain and ended without a verdict, over and over; the
    /// back-to-back frames now forget them, and the source paces by vsync from frame 439 with
    /// every settled frame claimed and on the vsync. Still known: the 2 drops in the blank (75 Hz),
    /// and no frame claimed at 59.94 Hz.
    @Test("deadline, a move, automatic again: 3 buffers", arguments: [true, false])
    func moveWhileDeadline(toSeventyFive: Bool) {
        for seed: UInt64 in [1, 2] {
            var scenario = R16.Scenario(refresh: .fixed(.hz60, phase: .milliseconds(3)), report: .hz60)
            (scenario.buffers, scenario.seed, scenario.frames) = (3, seed, 1_200)
            scenario.work = { _ in 8_000_000 }
            let rate = toSeventyFive ? FrameRate.hz75 : .hz59_94
            scenario.events = { index, run in
                if index == 300 { run.source.pacing = .deadline }
                if index == 350 {
                    run.lab.changeRefresh(to: .fixed(rate), blankingFor: .milliseconds(toSeventyFive ? 20 : 0))
                    run.source.displayRefreshRate = rate
                }
                if index == 400 { run.source.pacing = .automatic }
            }
            let run = R16.run(scenario)
            let settled = R16.figures(run, 600, 1_190)
            let all = R16.figures(run, 295, 1_190)
            print(
                "R16 moveWhileDeadline \(rate) seed \(seed): all \(all); settled \(settled) \(run.source.pacingState)")
            // (Fixed after review: back-to-back frames forget which presents the source timed.)
            #expect(settled.vsyncFrames == settled.judged, "\(settled)")
            #expect(settled.anyOff == 0, "\(settled)")
            if toSeventyFive {
                #expect(settled.followed == settled.judged, "\(settled)")
                withKnownIssue("two drops booked in the move's blank, which repeats nothing") {
                    #expect(all.booked == all.missed, "\(all)")
                }
            } else {
                #expect(all.booked == all.missed, "\(all)")
                withKnownIssue("on the vsync again, but not claimed") {
                    #expect(settled.followed == settled.judged, "\(settled)")
                }
            }
        }
    }

    // MARK: Coming onto the grid

    /// Deadline (or unpaced) frames 300–399, then automatic (or vsync) again, judged over frames
    /// 250–690 against the lab's missed refreshes: 4 buffers and 3 buffers with work at 49–51 % of
    /// a period (the half-period rule), 144 Hz with log-normal delays (3 buffers), 30 Hz, and 30 fps
    /// on 60 Hz with 3 buffers (drops at the divisor); seeds 1–4, 3–5 work levels each. Held at
    /// c14af4b (with 8 seeds) in every run. At ea6b97f, back to automatic, a drop the display never
    /// made was booked in 1 run of 12 with 4 buffers (work 49 %), 1 of 12 with 3 (49 %), 1 of 16 at
    /// 144 Hz, and 4 of 16 at 30 Hz (work 30 %, every seed).
    @Test(
        "off the grid and back: drops booked as the display missed them",
        arguments: [0, 1, 2, 3, 4], [true, false])
    func comingOntoTheGrid(display: Int, toAutomatic: Bool) {
        let (rate, buffers, works, jitter, range): (FrameRate, Int, [Int64], PresentJitter, FrameRateRange?) =
            switch display {
            case 0: (.hz60, 4, [49, 50, 51], .uniform(upTo: .microseconds(800)), nil)
            case 1: (.hz60, 3, [49, 50, 51], .uniform(upTo: .microseconds(800)), nil)
            case 2:
                (
                    .hz144, 3, [30, 50, 70, 90],
                    .lognormal(median: .microseconds(300), percentile99: .microseconds(1_200)), nil
                )
            case 3: (FrameRate(numerator: 30), 3, [30, 50, 70, 90], .uniform(upTo: .microseconds(800)), nil)
            default:
                (.hz60, 3, [30, 60, 90, 120, 150], .uniform(upTo: .microseconds(800)), FrameRateRange(exactly: 30))
            }
        let off = Self.transitionRuns(
            rate: rate, buffers: buffers, works: works, jitter: jitter, range: range,
            to: toAutomatic ? .automatic : .vsync, seeds: 1...4)
        #expect(off.isEmpty, "\(off.count) off: \(off.prefix(3))")
    }

    /// Runs deadline frames 300–399 then `to`, for each seed and work (percent of a period), and
    /// returns the runs whose drops booked over frames 250–690 are not the lab's (at the divisor,
    /// if a range is asked for).
    static func transitionRuns(
        rate: FrameRate, buffers: Int, works: [Int64], jitter: PresentJitter, range: FrameRateRange?,
        to pacing: PresentSource.Pacing, seeds: ClosedRange<UInt64>
    ) -> [String] {
        var off: [String] = []
        for seed in seeds {
            for work in works {
                var scenario = R16.Scenario(refresh: .fixed(rate, phase: .milliseconds(3)), report: rate)
                (scenario.buffers, scenario.jitter, scenario.seed) = (buffers, jitter, seed)
                (scenario.frames, scenario.range) = (700, range)
                let nanoseconds = rate.periodNanoseconds * work / 100
                scenario.work = { _ in nanoseconds }
                scenario.events = { index, run in
                    if index == 300 { run.source.pacing = .deadline }
                    if index == 400 { run.source.pacing = pacing }
                }
                let run = R16.run(scenario)
                let booked = run.booked(250, 690)
                let missed = range == nil ? run.missed(250, 690) : run.missedAtDivisor(250, 690, k: 2)
                if booked != missed {
                    off.append("seed \(seed) work \(work) %: booked \(booked) missed \(missed)")
                }
            }
        }
        return off
    }

    /// 30 fps on a 60 Hz display (a divisor of 2) with 2 buffers, deadline frames 300–399, then
    /// automatic; seeds 1–8, work 30–150 % of a 60 Hz period. At c14af4b 16 of 40 runs are off
    /// (62 booked against 60 missed at the divisor): e.g. seed 2, work 30 %: the first frame on the
    /// grid after the phase probe (413) is held 25 ms and shown 4 refreshes after the one before (a
    /// dropped 30 fps frame, its target 7.8 ms early), booked none; seed 1, work 120 %: one booked
    /// that the display did not miss. With 3 buffers, or back to `.vsync`, every run is exact. The
    /// same at ea6b97f (16 of 40).
    @Test("30 fps on 60 Hz, 2 buffers, deadline then automatic: drops off by one")
    func divisorBackToAutomatic() {
        let off = Self.transitionRuns(
            rate: .hz60, buffers: 2, works: [30, 60, 90, 120, 150], jitter: .uniform(upTo: .microseconds(800)),
            range: FrameRateRange(exactly: 30), to: .automatic, seeds: 1...8)
        print("R16 divisorBackToAutomatic: \(off.count)/40 off \(off.prefix(6))")
        withKnownIssue("coming onto the grid under a divisor after the phase probe, drops are a frame off") {
            #expect(off.isEmpty, "\(off.count)/40 off: \(off.prefix(3))")
        }
    }

    /// A 240 Hz display with 4 buffers, present delays exponential (mean 0.4 ms), light frames
    /// (30–90 % of a period), `pacing = .deadline` at frame 300 and back to automatic at 400, seeds
    /// 1–8. At c14af4b 9 of 32 runs book a drop the display never made (11 booked, none missed):
    /// the first deadline frame (302) begins two periods after the last vsync frame, and its
    /// interval is counted as a drop although four buffers kept the display fed (frame 301 was
    /// shown at 1,257.2 ms; its target said 1,248.9). The same at ea6b97f (9 of 32).
    @Test("a deep swap chain paced by deadline: the switch's long interval booked as a drop")
    func deepChainToDeadline() {
        let off = Self.transitionRuns(
            rate: FrameRate(numerator: 240), buffers: 4, works: [30, 50, 70, 90],
            jitter: .exponential(mean: .microseconds(400)), range: nil, to: .automatic, seeds: 1...8)
        print("R16 deepChainToDeadline: \(off.count)/32 off \(off.prefix(6))")
        withKnownIssue("with 4 buffers, the switch to deadline pacing books a drop the display never made") {
            #expect(off.isEmpty, "\(off.count)/32 off: \(off.prefix(3))")
        }
    }
}
