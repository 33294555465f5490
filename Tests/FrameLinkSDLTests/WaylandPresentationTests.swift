import CFrameLinkWayland
import CFrameLinkWaylandTesting
import Foundation
import FrameLink
import Testing

@testable import FrameLinkSDL

/// The presentation-time binding against a compositor the tests script (``FakeCompositor``): what
/// happens when a compositor does not answer, offers no presentation-time, names a clock that
/// cannot be read or one other than `CLOCK_MONOTONIC`, sends times that cannot be true, answers
/// for objects that do not exist, or hangs up.
@MainActor
@Suite struct WaylandPresentationTests {
    /// How long a bind waits in these tests: long enough for a loaded machine's thread switch.
    static let timeout: Int32 = 2_000

    /// Connects to `compositor`, runs `body` with the display, and disconnects.
    func connected<Result>(
        to compositor: FakeCompositor, _ body: (OpaquePointer) throws -> Result
    ) throws -> Result {
        defer { compositor.stop() }
        let display = try #require(CFrameLinkWayland_connect(compositor.path), "cannot connect to the fake compositor")
        defer { CFrameLinkWayland_disconnect(display) }
        return try body(OpaquePointer(display))
    }

    /// Binds with a surface, for the feedback path.
    func bound(on display: OpaquePointer) throws -> (_WaylandPresentation, UnsafeMutableRawPointer) {
        let surface = try #require(CFrameLinkWaylandTesting_createSurface(UnsafeMutableRawPointer(display)))
        guard
            case .bound(let presentation) = _WaylandPresentation.open(
                display: display, surface: OpaquePointer(surface), timeoutMilliseconds: Self.timeout)
        else {
            CFrameLinkWaylandTesting_destroySurface(surface)
            throw CocoaError(.featureUnsupported)
        }
        return (presentation, surface)
    }

    /// Collects until `count` reports came, the connection failed, or 10 s passed (a guard
    /// against a hang, not a verdict on time).
    func reports(_ count: Int, from presentation: _WaylandPresentation) -> (
        reports: [PresentationReport], connected: Bool
    ) {
        var reports: [PresentationReport] = []
        let deadline = ContinuousClock.now + .seconds(10)
        var connected = true
        while reports.count < count, connected, ContinuousClock.now < deadline {
            connected = presentation.collect(epochNanoseconds: 0) { reports.append($0) }
            if reports.count < count { usleep(2_000) }
        }
        return (reports, connected)
    }

    @Test func aCompositorThatNeverAnswersIsReportedNotWaitedFor() throws {
        let outcome = try connected(to: FakeCompositor(.init(answers: false))) { display in
            _WaylandPresentation.open(display: display, surface: nil, timeoutMilliseconds: 100)
        }
        guard case .absent(let absence) = outcome else {
            Issue.record("bound to a silent compositor")
            return
        }
        #expect(absence == .compositorDidNotAnswer)
    }

    @Test func aCompositorWithoutPresentationTimeIsSaidSo() throws {
        let outcome = try connected(to: FakeCompositor(.init(offersPresentation: false))) { display in
            _WaylandPresentation.open(display: display, surface: nil, timeoutMilliseconds: Self.timeout)
        }
        guard case .absent(let absence) = outcome else {
            Issue.record("bound without wp_presentation")
            return
        }
        #expect(absence == .compositorOffersNone)
        #expect(PresentationFeedback.none(absence).description.contains("offers no wp_presentation"))
    }

    @Test func aClockThatCannotBeReadHereIsRefused() throws {
        let outcome = try connected(to: FakeCompositor(.init(clockID: 12_345))) { display in
            _WaylandPresentation.open(display: display, surface: nil, timeoutMilliseconds: Self.timeout)
        }
        guard case .absent(let absence) = outcome else {
            Issue.record("bound with an unreadable clock")
            return
        }
        #expect(absence == .unreadableClock(clockID: 12_345))
    }

    @Test func aSocketWithNoCompositorGivesNoConnection() {
        #expect(CFrameLinkWayland_connect("/nonexistent-folder/wayland-0") == nil)
    }

    @Test func eachFrameIsReportedShownDiscardedOrWithAnUnusableTime() throws {
        let script = FakeCompositor.Script(
            feedback: [
                .presented(seconds: 100, nanoseconds: 1, sequence: 10, flags: 3),
                .presented(seconds: 100, nanoseconds: 16_666_668, sequence: 11),
                .discarded,
                .presented(seconds: 100, nanoseconds: 66_666_668, sequence: 14),
                .presented(seconds: 100, nanoseconds: 1_500_000_000, sequence: 15),
                .presented(seconds: UInt64.max, nanoseconds: 0, sequence: 16),
                .presented(seconds: 101, nanoseconds: 0, refresh: 0, sequence: 0),
            ], sendsToUnknownObject: true)
        try connected(to: FakeCompositor(script)) { display in
            let (presentation, surface) = try bound(on: display)
            defer {
                presentation.close()
                CFrameLinkWaylandTesting_destroySurface(surface)
            }
            #expect(presentation.clockID == 1)
            for frame in 1...7 { #expect(presentation.requestFeedback(forFrame: Int64(frame))) }
            let (reports, connected) = reports(7, from: presentation)
            #expect(connected)
            try #require(reports.count == 7)
            #expect(reports.map(\.frame) == Array(1...7))
            #expect(
                reports[0].outcome
                    == .shown(
                        at: FrameInstant(nanoseconds: 100_000_000_001), compositorTime: .nanoseconds(100_000_000_001)))
            #expect(reports[0].flags == [.vsync, .hardwareClock])
            #expect(reports[0].refreshPeriod == .nanoseconds(16_666_667))
            #expect(reports[0].refreshSequence == 10)
            #expect(reports[0].missedRefreshes == nil, "no frame before it to count from")
            #expect(reports[1].missedRefreshes == 0)
            #expect(reports[2].outcome == .discarded)
            #expect(reports[3].missedRefreshes == 2, "sequence 11 to 14: refreshes 12 and 13 showed no new frame")
            #expect(reports[4].outcome == .shownAtUnusableTime, "1.5e9 nanoseconds within a second")
            #expect(reports[5].outcome == .shownAtUnusableTime, "seconds beyond 64-bit nanoseconds")
            #expect(reports[6].refreshSequence == nil && reports[6].refreshPeriod == nil, "0 means unknown")
            #expect(reports[6].missedRefreshes == nil)
            #expect(presentation.unconvertibleReports == 2)
            #expect(presentation.unansweredFrames == 0)
        }
    }

    @Test func aTimeBeforeTheLoopBeganIsUnusableAndAClosingBodyEndsTheHandOver() throws {
        let script = FakeCompositor.Script(
            feedback: [
                .presented(seconds: 5, nanoseconds: 0, sequence: 1),
                .presented(seconds: 6, nanoseconds: 0, sequence: 2),
                .presented(seconds: 7, nanoseconds: 0, sequence: 3),
            ])
        try connected(to: FakeCompositor(script)) { display in
            let (presentation, surface) = try bound(on: display)
            defer {
                presentation.close()
                CFrameLinkWaylandTesting_destroySurface(surface)
            }
            for frame in 1...3 { _ = presentation.requestFeedback(forFrame: Int64(frame)) }
            // Wait until all three have arrived, without taking them.
            let deadline = ContinuousClock.now + .seconds(10)
            while presentation.unansweredFrames > 0, ContinuousClock.now < deadline {
                _ = CFrameLinkWayland_dispatch(presentation.bindingForTesting)
                usleep(2_000)
            }
            var reports: [PresentationReport] = []
            // The loop began at 5.5 s: the first time is before it. The body closes the binding at
            // the second report, as a game closing its host from the handler would.
            _ = presentation.collect(epochNanoseconds: 5_500_000_000) { report in
                reports.append(report)
                if reports.count == 2 { presentation.close() }
            }
            #expect(reports.map(\.frame) == [1, 2], "the hand-over ends when the body closes the binding")
            #expect(reports.first?.outcome == .shownAtUnusableTime)
            #expect(
                reports.last?.outcome == .shown(at: FrameInstant(nanoseconds: 500_000_000), compositorTime: .seconds(6))
            )
        }
    }

    @Test func timesOnAnotherClockAreConvertedToTheMonotonicClock() throws {
        let realTime = _CompositorClock.systemReading(Int32(CLOCK_REALTIME))!
        let seconds = UInt64(realTime / 1_000_000_000)
        let script = FakeCompositor.Script(
            clockID: UInt32(CLOCK_REALTIME), feedback: [.presented(seconds: seconds, nanoseconds: 0, sequence: 1)])
        try connected(to: FakeCompositor(script)) { display in
            let (presentation, surface) = try bound(on: display)
            defer {
                presentation.close()
                CFrameLinkWaylandTesting_destroySurface(surface)
            }
            #expect(presentation.requestFeedback(forFrame: 1))
            let before = offset(of: Int32(CLOCK_REALTIME))
            let (reports, _) = reports(1, from: presentation)
            let after = offset(of: Int32(CLOCK_REALTIME))
            guard case .shown(let instant, let compositorTime)? = reports.first?.outcome else {
                Issue.record("no shown report: \(reports)")
                return
            }
            #expect(compositorTime == .nanoseconds(Int64(seconds) * 1_000_000_000))
            // The offset used lies between the ones read before and after (give or take the
            // reading's own half-interval), unless the clock was set meanwhile.
            let used = Int64(seconds) * 1_000_000_000 - instant.nanoseconds
            #expect(used >= min(before, after) - 1_000_000 && used <= max(before, after) + 1_000_000)
        }
    }

    /// `clock` minus `CLOCK_MONOTONIC`, now.
    func offset(of clock: Int32) -> Int64 {
        _CompositorClock.systemReading(clock)! - _CompositorClock.systemReading(Int32(CLOCK_MONOTONIC))!
    }

    @Test func aCompositorThatHangsUpEndsTheFeedbackWithoutATrap() throws {
        try connected(to: FakeCompositor(.init(hangsUpAfterRequests: 1))) { display in
            let (presentation, surface) = try bound(on: display)
            defer {
                presentation.close()
                CFrameLinkWaylandTesting_destroySurface(surface)
            }
            _ = presentation.requestFeedback(forFrame: 1)
            let (reports, connected) = reports(1, from: presentation)
            #expect(!connected)
            #expect(reports.isEmpty)
        }
    }

    @Test func framesStillWaitingAtCloseAreReportedUnansweredInOrder() throws {
        try connected(to: FakeCompositor(.init())) { display in
            let (presentation, surface) = try bound(on: display)
            defer {
                presentation.close()
                CFrameLinkWaylandTesting_destroySurface(surface)
            }
            for frame in 1...3 { _ = presentation.requestFeedback(forFrame: Int64(frame)) }
            var reports: [PresentationReport] = []
            presentation.abandonPending(epochNanoseconds: 0) { reports.append($0) }
            #expect(reports.map(\.frame) == [1, 2, 3])
            #expect(reports.allSatisfy { $0.outcome == .unanswered })
            #expect(presentation.unansweredFrames == 0)
        }
    }

    @Test func aCompositorThatStopsAnsweringIsNotAskedMore() throws {
        try connected(to: FakeCompositor(.init())) { display in
            let (presentation, surface) = try bound(on: display)
            defer {
                presentation.close()
                CFrameLinkWaylandTesting_destroySurface(surface)
            }
            #expect(_FeedbackRequests.unansweredFrameLimit == Int(CFrameLinkWayland_maximumPending))
            for frame in 1...Int64(CFrameLinkWayland_maximumPending) {
                #expect(presentation.requestFeedback(forFrame: frame))
            }
            #expect(presentation.unansweredFrames == Int(CFrameLinkWayland_maximumPending))
            #expect(!presentation.requestFeedback(forFrame: 65), "a 65th unanswered frame is not asked about")
        }
    }
}

/// Converting a compositor's times: checked where they enter.
@Suite struct CompositorClockTests {
    static let largestSeconds = Int64.max / 1_000_000_000 - 1
    static let times: [(UInt64, UInt32, Int64?)] = [
        (0, 0, 0),
        (1, 999_999_999, 1_999_999_999),
        (1, 1_000_000_000, nil),
        (UInt64(largestSeconds), 0, largestSeconds * 1_000_000_000),
        (UInt64(largestSeconds) + 1, 0, nil),
        (UInt64.max, 0, nil),
    ]

    @Test(arguments: times)
    func timesThatCannotBeTrueAreRefused(seconds: UInt64, nanoseconds: UInt32, expected: Int64?) {
        #expect(_CompositorClock.nanoseconds(seconds: seconds, nanoseconds: nanoseconds) == expected)
    }

    @Test func anotherClockIsConvertedByTheTightestOfThreeOffsetReadings() throws {
        // Three readings of (monotonic, other, monotonic): the second straddles a preemption (a
        // 500 ns window, offset 557,750); the third is the tightest (4 ns, offset 500,000).
        var monotonic: [Int64] = [1, 1_000, 1_010, 2_000, 2_500, 3_000, 3_004]  // (the first for init)
        var other: [Int64] = [1, 501_005, 560_000, 503_002]
        let clock = try #require(
            _CompositorClock(clockID: 4) { id in
                if id == _CompositorClock.monotonic { return monotonic.isEmpty ? nil : monotonic.removeFirst() }
                return other.isEmpty ? nil : other.removeFirst()
            })
        #expect(clock.monotonicNanoseconds(of: 900_000) == 400_000)
        #expect(monotonic.isEmpty && other.isEmpty, "three readings, no more")
    }

    @Test func aMonotonicTimePassesUnchanged() throws {
        let clock = try #require(_CompositorClock(clockID: 1))
        #expect(clock.monotonicNanoseconds(of: 123_456_789) == 123_456_789)
    }

    @Test func aClockThatCannotBeReadIsRefusedAndAConversionBelowZeroIsNil() throws {
        #expect(_CompositorClock(clockID: 99_999) == nil)
        #expect(_CompositorClock(clockID: UInt32.max) == nil)
        let clock = try #require(_CompositorClock(clockID: 4) { $0 == 1 ? 0 : 1_000 })
        #expect(clock.monotonicNanoseconds(of: 10) == nil, "a time before the monotonic clock's zero")
    }
}

/// The host's rule for asking: stop once when the compositor stops answering, resume when every
/// frame waiting is answered.
@Suite struct FeedbackRequestsTests {
    @Test func stopsOnceAtTheLimitAndResumesWhenAllAreAnswered() {
        var requests = _FeedbackRequests()
        let limit = _FeedbackRequests.unansweredFrameLimit
        let steps: [(unanswered: Int, action: _FeedbackRequests.Action, forwards: Bool)] = [
            (0, .ask, true),
            (3, .ask, true),
            (limit - 1, .ask, true),
            (limit, .stop(unansweredFrames: limit), false),
            (limit, .skip, false),
            (limit - 10, .skip, false),
            (1, .skip, false),
            (0, .resumeAndAsk, true),
            (2, .ask, true),
            (limit + 5, .stop(unansweredFrames: limit + 5), false),
        ]
        for (index, step) in steps.enumerated() {
            #expect(requests.presentWillBegin(unansweredFrames: step.unanswered) == step.action, "step \(index)")
            #expect(requests.forwardsToPacing == step.forwards, "step \(index)")
        }
    }
}

/// The host's rule for a compositor whose times cannot be true.
@Suite struct UntrueTimesTests {
    @Test func sixtyFourRefusalsInARowStopTheFeedbackAndOneAcceptedResetsTheCount() {
        var requests = _FeedbackRequests()
        for _ in 1..<_FeedbackRequests.refusedReportLimit {
            let stops = requests.pacingJudged(accepted: false)
            #expect(!stops)
        }
        let stopsOnAccepted = requests.pacingJudged(accepted: true)
        #expect(!stopsOnAccepted, "one taken report resets the count")
        #expect(requests.refusedInARow == 0)
        for index in 1..._FeedbackRequests.refusedReportLimit {
            let stops = requests.pacingJudged(accepted: false)
            #expect(stops == (index == _FeedbackRequests.refusedReportLimit))
        }
    }
}
