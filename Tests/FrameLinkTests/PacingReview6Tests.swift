import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// Review 6 (of 2b003bb, by an independent reviewer with scenarios of its own), judged against the
/// display lab's truth with the reviewer's harness (`R6`). Each test failed at 2b003bb with the
/// figures in its comment.
@MainActor
struct PacingReview6Tests {
    /// The grid rate a vsync state names, if it names one.
    static func gridRate(_ state: PacingState) -> FrameRate? {
        if case .presentBlocks(_, let grid) = state.reason { return grid }
        return nil
    }

    /// 59.94 Hz, as a 59.94 Hz display is.
    static let ntsc = FrameRate(numerator: 60_000, denominator: 1_001)

    /// After a move to another display, the state names the new display's grid, and the game is
    /// told. (Was: "vsync grid at 60.0 Hz" to the end on a 144 Hz display, with the callback told
    /// once, of the old rate; timestamps followed the new display all along.)
    @Test(arguments: [(60, 144), (60, 120), (120, 60), (144, 60)])
    func stateAfterMove(from: Int64, to: Int64) {
        var told: [PacingState] = []
        var config = R6.Config(refresh: .fixed(FrameRate(numerator: from), phase: .milliseconds(1)), frames: 1_500)
        config.work = { _ in 3_000_000 }
        config.events = { index, run in
            if index == 1 { run.source.onPacingStateChange = { told.append($0) } }
            if index == 400 {
                run.lab.changeRefresh(to: .fixed(FrameRate(numerator: to)))
                run.source.displayRefreshRate = FrameRate(numerator: to)
            }
        }
        let run = R6(config)
        let verdict = run.judge(900, 1_490)
        #expect(verdict.followed == verdict.judged && verdict.tsOff.isEmpty, "\(verdict)")
        // (Stated from the new grid's first measured rate, as at start: within 0.1 Hz.)
        let stated = Self.gridRate(run.source.pacingState)
        #expect(stated.map { abs($0.framesPerSecond - Double(to)) < 0.1 } == true, "\(run.source.pacingState)")
        let toldRates = told.compactMap { Self.gridRate($0) }
        #expect(toldRates.count == 2, "told \(told)")
        #expect(toldRates.last.map { abs($0.framesPerSecond - Double(to)) < 0.1 } == true, "told \(told)")
    }

    /// A 59.94 Hz display the host reports as 59 Hz (SDL's whole hertz) through the setter, before
    /// the first frame or after a move: its rate is measured. (Was: `measuredRefreshRate` nil for
    /// good, 100,000 frames on, `refreshRate` 59 Hz and every link's duration 16.949 ms against a
    /// true 16.683 ms; made with a nominal 59 Hz, or reported as 60, it was measured.)
    @Test(arguments: [false, true])
    func reportedAs59(afterMove: Bool) {
        var config = R6.Config(
            refresh: .fixed(afterMove ? .hz60 : Self.ntsc, phase: .milliseconds(7)), frames: 2_000)
        config.work = { _ in 5_000_000 }
        config.events = { index, run in
            if afterMove && index == 400 {
                run.lab.changeRefresh(to: .fixed(Self.ntsc))
                run.source.displayRefreshRate = FrameRate(numerator: 59)
            }
        }
        let run = R6(config, run: false)
        if !afterMove { run.source.displayRefreshRate = FrameRate(numerator: 59) }
        run.loop.run(frames: config.frames)
        let verdict = run.judge(1_200, 1_990)
        #expect(verdict.booked == verdict.missed && verdict.tsOff.isEmpty, "\(verdict)")
        #expect(run.source.measuredRefreshRate.map { abs($0.framesPerSecond - 59.94) < 0.01 } == true)
        #expect(abs(run.source.refreshRate.framesPerSecond - 59.94) < 0.01, "\(run.source.refreshRate)")
    }

    /// Vsync asked for, 3 buffers on a 60 Hz display, frames alternating 90 % and 110 % of a period:
    /// the rate stays the display's, and the frames keep up with it. (Was: 9 of 600 presents
    /// blocked, a grid fitted to them measured 2.86 Hz and paced the frames 350 ms apart, 155.8 s
    /// for 600 frames, with 8,524 missed refreshes and none booked; with the rate right, frames
    /// planned a period from each start ran at 95 % of the display's rate: 37 missed, 13 booked.)
    /// A display whose presents seldom block reveals little of its vsync: as in the sweep, the
    /// drops booked may lag the truth by less than the chain holds, never exceed it.
    @Test(arguments: [(3, 90, 110), (3, 100, 100), (3, 40, 140), (2, 90, 110)])
    func vsyncAskedFor(buffers: Int, low: Int64, high: Int64) {
        let period = FrameRate.hz60.periodNanoseconds
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(2)), buffers: buffers, frames: 600)
        config.pacing = .vsync
        config.work = { index in index % 2 == 0 ? period * low / 100 : period * high / 100 }
        let run = R6(config)
        let verdict = run.judge(100, 590)
        #expect(run.source.refreshRate.framesPerSecond > 59, "\(run.source.refreshRate), \(run.source.pacingState)")
        #expect(verdict.booked <= verdict.missed && verdict.missed - verdict.booked < buffers, "\(verdict)")
        #expect(verdict.fastest60 >= period - 25_000, "\(verdict)")
    }

    /// 4 ms frames on a 60 Hz display (2 buffers), drawn for 20 ms after each present from loop
    /// frame `first` on, run for `frames` frames.
    static func boundByItsGPU(from first: Int64, frames: Int) -> R6 {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(2)), frames: frames)
        config.work = { _ in 4_000_000 }
        config.events = { index, run in if index == first { run.lab.gpuTime = .milliseconds(20) } }
        return R6(config)
    }

    /// A game bound by its GPU (4 ms of work, 20 ms of drawing after each present) on a 60 Hz
    /// display reported as 60, 2 buffers, from the start: the grid is the display's and each
    /// frame's missed refresh is booked. (Was: measured 30 Hz, 890 missed refreshes, none booked.)
    @Test func boundByItsGPUFromTheStart() {
        let run = Self.boundByItsGPU(from: 1, frames: 1_200)
        let verdict = run.judge(300, 1_190)
        #expect(verdict.booked == verdict.missed, "\(verdict)")
        #expect(verdict.missed > 800)
        #expect(run.source.measuredRefreshRate.map { abs($0.framesPerSecond - 60) < 0.1 } == true)
    }

    /// Reports each shown frame from the lab's truth, as a compositor would.
    @MainActor final class Reporter {
        var next = 0
        /// Reports every frame shown so far.
        func flush(_ run: R6) {
            while next < run.lab.frames.count, let shown = run.lab.frames[next].shownAt {
                _ = run.source.acceptPresentation(
                    ofFrame: run.lab.frames[next].number,
                    at: FrameInstant(nanoseconds: shown.nanoseconds - run.source.epochNanoseconds))
                next += 1
            }
        }
    }

    /// Presentation feedback that stops with the host's notice at frame 400 and comes again at 800
    /// (60 Hz, 2 buffers, a log-normal present delay with a 99th percentile of 2 ms, a 30 ms frame
    /// every 97th): frames claimed on the vsync are on it. (Was: 157 frames from 913 on claimed
    /// the vsync 100–137 µs off it: the grid's window held returns and shown times together.)
    @Test func feedbackStopsAndComesAgain() {
        let reporter = Reporter()
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(5)), frames: 2_000)
        config.jitter = .lognormal(median: .microseconds(400), percentile99: .milliseconds(2))
        config.work = { index in index % 97 == 0 ? 30_000_000 : 6_000_000 }
        config.events = { index, run in
            if index < 400 || index >= 800 {
                reporter.flush(run)
            } else {
                if index == 400 { run.source.presentationFeedbackStopped() }
                reporter.next = run.lab.frames.count
            }
        }
        let run = R6(config)
        let verdict = run.judge(800, 1_990)
        #expect(verdict.tsOff.isEmpty && verdict.targetOff.isEmpty, "\(verdict)")
        #expect(verdict.followed * 10 >= verdict.judged * 9, "\(verdict)")
        #expect(verdict.booked == verdict.missed, "\(verdict)")
    }

    /// Automatic pacing, 3 buffers on a 60 Hz display, frames alternating 40 and 140 % of a period
    /// (90 % on average): the source should reach a verdict and miss no more refreshes than a
    /// forced vsync. Open (at 7090112): "measuring" for all 1,500 frames, paced by deadline, 595
    /// missed refreshes (all booked); 90/110 %: 23 missed against 6 with vsync forced. The same
    /// frames presented back to back into the chain miss none. A light-cost rule that depends on
    /// the chain's depth (28/30 of a period for 3 buffers) and a run that ends on the mean cost
    /// start the run again, but its first blocking present ends it, and frames paced a period
    /// apart then drain the chain before a grid fits: the run would have to last until one does.
    @Test(
        .disabled(
            "open: after the first blocking present ends the back-to-back run, frames paced a period apart drain the chain, and no grid fits"
        ),
        arguments: [(4, 14), (9, 11), (5, 12)])
    func threeBuffersAlternatingCosts(low: Int64, high: Int64) {
        let period = FrameRate.hz60.periodNanoseconds
        func run(_ pacing: PresentSource.Pacing) -> R6 {
            var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(2)), buffers: 3, frames: 1_500)
            config.pacing = pacing
            config.work = { index in index % 2 == 0 ? period * low / 10 : period * high / 10 }
            return R6(config)
        }
        let automatic = run(.automatic)
        let vsync = run(.vsync)
        let judged = automatic.judge(300, 1_490)
        let forced = vsync.judge(300, 1_490)
        #expect(!automatic.source.pacingState.reason.isMeasuring, "\(automatic.source.pacingState)")
        #expect(judged.missed <= forced.missed, "automatic \(judged); vsync \(forced)")
        #expect(judged.booked == judged.missed, "\(judged)")
    }

    /// A game locked at 60 Hz whose drawing grows to 20 ms after each present at frame 600
    /// (2 buffers): from then on each frame is shown a refresh later than its call explains, and
    /// its target says so. (Was: the drops were booked right, 790 of 790, but all 791 judged frames
    /// claimed the vsync with a target 16.666 ms before the frame was shown.)
    @Test func boundByItsGPUMidGame() {
        let run = Self.boundByItsGPU(from: 600, frames: 1_500)
        let before = run.judge(200, 595)
        let after = run.judge(700, 1_490)
        #expect(before.targetOff.isEmpty && before.booked == before.missed, "\(before)")
        #expect(after.booked == after.missed, "\(after)")
        #expect(after.followed * 10 >= after.judged * 9, "\(after)")
        #expect(after.targetOff.isEmpty, "\(after)")
    }
}
