import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// Review 7 (of the review-6 fixes, 7090112–2a58513, by an independent reviewer with scenarios of
/// its own), judged against the display lab's truth with the review-6 harness (`R6`). Each test
/// failed at 2a58513 with the figures in its comment.
@MainActor
struct PacingReview7Tests {
    /// Presentation feedback reported for 60 frames, stopped (with the host's notice) for 60, and
    /// so on; 60 Hz, a log-normal present delay: frames follow the vsync. (Was: 573 of 1,291
    /// frames with 2 buffers, 566 with 3, against all at 2b003bb: a new window for the returns each
    /// time the feedback stopped needed about 190 of them before the line was known within
    /// 100 µs. Now 1,088 and over 1,162: each time feedback comes again its shown times start a
    /// window of their own, and frames follow once it is fitted; 2b003bb followed throughout, on a
    /// line that could rest on returns and shown times at once.)
    @Test(arguments: [2, 3])
    func feedbackStopsAndComesAgainOften(buffers: Int) {
        let reporter = PacingReview6Tests.Reporter()
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(5)), buffers: buffers, frames: 1_500)
        config.jitter = .lognormal(median: .microseconds(400), percentile99: .milliseconds(2))
        config.work = { index in index % 97 == 0 ? 30_000_000 : 6_000_000 }
        config.events = { index, run in
            if (index / 60) % 2 == 0 {
                reporter.flush(run)
            } else {
                if index % 60 == 0 { run.source.presentationFeedbackStopped() }
                reporter.next = run.lab.frames.count
            }
        }
        let run = R6(config)
        let verdict = run.judge(200, 1_490)
        #expect(verdict.tsOff.isEmpty && verdict.targetOff.isEmpty, "\(verdict)")
        #expect(verdict.booked == verdict.missed, "\(verdict)")
        #expect(verdict.followed * 10 >= verdict.judged * 8, "\(verdict)")
    }

    /// A lateness learned while the GPU drew for 20 ms (60 Hz, 2 buffers), then a move to a
    /// variable-refresh display with the GPU time gone: targets are where frames are shown.
    /// (Was: all 791 judged frames shown 6.95 ms, one 144 Hz period, before their targets.)
    @Test func latenessForgottenOnVariableRefresh() {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(2)), frames: 1_500)
        config.work = { _ in 4_000_000 }
        config.events = { index, run in
            if index == 100 { run.lab.gpuTime = .milliseconds(20) }
            if index == 500 {
                run.lab.gpuTime = .zero
                let range = FrameRate(numerator: 48)...FrameRate(numerator: 144)
                run.lab.changeRefresh(to: .variable(minimum: range.lowerBound, maximum: range.upperBound))
                run.source.variableRefreshRange = range
                run.source.displayRefreshRate = range.upperBound
            }
        }
        let run = R6(config)
        let before = run.judge(300, 495)
        let after = run.judge(700, 1_490, fixed: false)
        #expect(before.targetOff.isEmpty && before.booked == before.missed, "\(before)")
        #expect(after.targetOff.isEmpty, "\(after)")
    }

    /// A window hidden before the first fit (from frame 3 to 200; present waits 50 ms for frame
    /// callbacks; the host not told), 60 Hz, 5 ms frames: once shown, the display's rate is
    /// measured and frames follow it. (Was: a grid of the hidden presents' returns, 18.18 Hz, kept
    /// for good with 3 buffers, frames paced 55 ms apart, 1,127 missed refreshes unbooked, 442 of
    /// 491 timestamps off; with 2 buffers the state said "vsync grid at 18.18 Hz" to the end.)
    @Test(arguments: [2, 3])
    func hiddenBeforeTheFirstFit(buffers: Int) {
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(2)), buffers: buffers, frames: 900)
        config.work = { _ in 5_000_000 }
        config.events = { index, run in
            if index == 1 { run.lab.hiddenPresent = .waitsForFrameCallbacks(timeout: .milliseconds(50)) }
            if index == 3 { run.lab.isHidden = true }
            if index == 200 { run.lab.isHidden = false }
        }
        let run = R6(config)
        let verdict = run.judge(400, 890)
        // (Three buffers: frames paced by deadline after the show never fill the chain, and the
        // source stays "measuring" without a rate, as it did at 2b003bb whether the host was told
        // of the hide or not: review 7's 4th finding, open.)
        withKnownIssue("3 buffers hidden before the first fit stay measuring (open)") {
            #expect(run.source.measuredRefreshRate.map { abs($0.framesPerSecond - 60) < 0.1 } == true)
        } when: {
            buffers == 3
        }
        #expect(verdict.tsOff.isEmpty && verdict.booked == verdict.missed, "\(verdict)")
        #expect(verdict.fastest60 >= FrameRate.hz60.periodNanoseconds - 25_000, "\(verdict)")
        #expect(
            PacingReview6Tests.gridRate(run.source.pacingState).map { abs($0.framesPerSecond - 60) < 0.1 } ?? true,
            "\(run.source.pacingState)")
    }

    /// A game bound by its GPU (4 ms of work, 20 ms of drawing after each present; 60 Hz, 2
    /// buffers, a log-normal present delay), moved to a 120 Hz display at frame 400: its frames
    /// should follow the vsync before and after the move, and the state name the new display.
    /// Open (at a7b8c40): the drops are the truth's (195 and 1,229), but no frame follows the vsync:
    /// each present blocks 29 ms, longer than the chain explains, and is taken for no vsync's
    /// return; the state names 60 Hz to the end, told once. Allowing the 4 vsyncs a frame may come
    /// late (`_ShownLateness.mostVsyncs`) made them follow (168 of 196, 591 of 591, the state told
    /// of 120 Hz), but let a hidden window's 50 ms frame-callback timeouts, the host not told, be
    /// taken for returns again (`PacingReview2Tests`: 318 claims off, 340 drops against 1).
    @Test(.disabled("open: a GPU-bound present blocks longer than the chain explains"))
    func boundByItsGPUAndMoved() {
        var told: [PacingState] = []
        var config = R6.Config(refresh: .fixed(.hz60, phase: .milliseconds(1)), frames: 1_500)
        config.jitter = .lognormal(median: .microseconds(400), percentile99: .milliseconds(2))
        config.work = { _ in 4_000_000 }
        config.events = { index, run in
            if index == 1 {
                run.source.onPacingStateChange = { told.append($0) }
                run.lab.gpuTime = .milliseconds(20)
            }
            if index == 400 {
                run.lab.changeRefresh(to: .fixed(FrameRate(numerator: 120)))
                run.source.displayRefreshRate = FrameRate(numerator: 120)
            }
        }
        let run = R6(config)
        let before = run.judge(300, 395)
        let after = run.judge(900, 1_490)
        // (Timestamps late by the delay's unseen floor, and targets a refresh off where 20 ms of
        // drawing is 2.4 periods of the new display, are not what this test holds.)
        #expect(before.booked == before.missed && after.booked == after.missed, "\(before); \(after)")
        #expect(
            before.followed * 10 >= before.judged * 9 && after.followed * 10 >= after.judged * 9, "\(before); \(after)")
        let stated = PacingReview6Tests.gridRate(run.source.pacingState)
        #expect(stated.map { abs($0.framesPerSecond - 120) < 0.1 } == true, "\(run.source.pacingState)")
        #expect(told.count == 2, "told \(told)")
    }
}
