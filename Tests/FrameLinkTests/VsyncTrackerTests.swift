import Testing

@testable import FrameLink

/// The vsync tracker on its own: what a frame that follows the grid waits for, where it lands, what
/// another display forgets, and how feedback from a variable-refresh display is taken in. Virtual
/// numbers only: a 60 Hz display whose vsync n is at n × period.
@Suite("_VsyncTracker: the wait and the placement of frames that follow the vsync")
struct VsyncTrackerTests {
    /// 60 Hz, in nanoseconds (rounded down, as the grid's nominal period).
    static let period: Int64 = 16_666_666

    /// A tracker whose grid was fitted to `returns` exact blocking returns at vsyncs 1…returns.
    static func fitted(returns: Int64 = 48) -> _VsyncTracker {
        var tracker = _VsyncTracker(nominalPeriod: period)
        for number in 1...returns {
            _ = tracker.take(
                presentEnd: tracker.grid.hasGrid ? tracker.grid.time(ofNumber: number) : number * period,
                blocked: true, variableRefresh: nil, reported: .hz60)
        }
        return tracker
    }

    /// A boundary at `now` for a present called at `presentStart`.
    static func boundary(
        blocked: Bool, fits: Bool = true, locksDeadline: Bool = false, presentStart: Int64, now: Int64,
        lastTimestamp: Int64?, interval: Int64 = 1, capPeriod: Int64? = nil, room: Bool = false
    ) -> _VsyncTracker.Boundary {
        _VsyncTracker.Boundary(
            blocked: blocked, fits: fits, locksDeadline: locksDeadline, presentStart: presentStart, now: now,
            lastTimestamp: lastTimestamp, period: period, interval: interval, capPeriod: capPeriod,
            chainHadRoom: room)
    }

    @Test("exact returns: the grid is usable, the rate is measured, and the returns keep a phase")
    func exactReturnsFit() {
        let tracker = Self.fitted()
        #expect(tracker.grid.isUsable)
        #expect(tracker.measuredRefreshRate != nil)
        #expect(!tracker.keepsNoPhase)
        #expect(!tracker.returnsWerePaced)
        #expect(!tracker.followsGrid, "no frame was placed yet")
    }

    /// One row: a present called, returning (or not) at a moment, and the vsync the frame gets.
    struct Row: Sendable, CustomTestStringConvertible {
        var what: String
        var blocked: Bool
        /// Call and now, as vsync 60 plus these nanoseconds.
        var calledAfter: Int64
        var nowAfter: Int64
        /// The vsync number expected, and whether the wait sleeps to it.
        var number: Int64
        var sleeps: Bool
        /// Whether the model knew the chain had room for the present.
        var room = false
        var testDescription: String { what }
    }

    @Test(
        "a frame on a usable grid: the vsync at or before a blocking return, the next one after a present that returned at once",
        arguments: [
            Row(
                what: "blocked, returned 300 µs after vsync 61", blocked: true, calledAfter: 2_000_000,
                nowAfter: period + 300_000, number: 61, sleeps: false),
            Row(
                what: "blocked, returned 100 µs before vsync 61 (the line's error): waits those 100 µs",
                blocked: true, calledAfter: 2_000_000, nowAfter: period - 100_000, number: 61, sleeps: true),
            Row(
                what: "returned at once mid-interval: sleeps to vsync 61", blocked: false, calledAfter: 5_000_000,
                nowAfter: 5_050_000, number: 61, sleeps: true),
            Row(
                what: "returned at once just after vsync 61: sleeps to 62", blocked: false,
                calledAfter: period + 10_000, nowAfter: period + 60_000, number: 62, sleeps: true),
            Row(
                what: "called 20 µs before vsync 61 into a chain with room, returned 30 µs after it: vsync 61, no wait",
                blocked: false, calledAfter: period - 20_000, nowAfter: period + 30_000, number: 61, sleeps: false,
                room: true),
            Row(
                what: "the same, room not known (two buffers, or no frame placed): the vsync after the return",
                blocked: false, calledAfter: period - 20_000, nowAfter: period + 30_000, number: 62, sleeps: true),
        ])
    func followingTheGrid(row: Row) {
        var tracker = Self.fitted()
        let vsync60 = tracker.grid.time(ofNumber: 60)
        let decided = tracker.vsyncWait(
            for: Self.boundary(
                blocked: row.blocked, presentStart: vsync60 + row.calledAfter, now: vsync60 + row.nowAfter,
                lastTimestamp: vsync60, room: row.room))
        guard case .vsync(let called, let number, let blocked, _, _) = decided.boundary else {
            Issue.record("expected a vsync boundary, got \(decided.boundary)")
            return
        }
        #expect(number == row.number)
        #expect(called == tracker.grid.number(atOrBefore: vsync60 + row.calledAfter))
        #expect(blocked == row.blocked)
        #expect(!decided.heldToCap)
        let time = tracker.grid.time(ofNumber: row.number)
        #expect(decided.wait == (row.sleeps ? .sleep(until: FrameInstant(nanoseconds: time)) : .none))
    }

    @Test("frames that follow the grid never share a vsync: the next is at least the interval after the last")
    func neverTheSameVsyncTwice() {
        var tracker = Self.fitted()
        let vsync60 = tracker.grid.time(ofNumber: 60)
        let first = tracker.vsyncWait(
            for: Self.boundary(
                blocked: true, presentStart: vsync60 - 2_000_000, now: vsync60 + 200_000,
                lastTimestamp: vsync60 - Self.period))
        guard case .vsync(let called, let number, _, _, _) = first.boundary else { return #expect(Bool(false)) }
        _ = tracker.placeFrame(
            called: called, number: number, blocked: true, frame: 1, interval: 2, chainDepth: 0,
            lastBlockingReturn: nil, variableRefresh: nil)
        #expect(tracker.followsGrid)
        // A second blocking return on the same vsync (a present that did not wait) under a divisor
        // of 2 goes two vsyncs on.
        let second = tracker.vsyncWait(
            for: Self.boundary(
                blocked: true, presentStart: vsync60 + 300_000, now: vsync60 + 400_000,
                lastTimestamp: vsync60, interval: 2))
        guard case .vsync(_, let next, _, _, _) = second.boundary else { return #expect(Bool(false)) }
        #expect(next == number + 2)
    }

    @Test("coming onto the grid from frames timed otherwise: never less than half a period after the last")
    func comingOntoTheGrid() {
        var tracker = Self.fitted()
        let vsync60 = tracker.grid.time(ofNumber: 60)
        // The last frame was a deadline just before vsync 61; a present returning at once there
        // would take vsync 61, a few microseconds later: the next one is taken instead.
        let last = vsync60 + Self.period - 50_000
        let decided = tracker.vsyncWait(
            for: Self.boundary(blocked: false, presentStart: last + 10_000, now: last + 20_000, lastTimestamp: last))
        guard case .vsync(_, let number, _, _, _) = decided.boundary else { return #expect(Bool(false)) }
        #expect(number == 62)
    }

    /// One row before a usable grid: what the wait is.
    struct EarlyRow: Sendable, CustomTestStringConvertible {
        var what: String
        var blocked: Bool
        var locksDeadline: Bool
        var capped: Bool
        /// Now, after the last timestamp (at 0).
        var now: Int64
        /// The sleep expected (nil: no wait), and whether it holds to the cap.
        var sleepsUntil: Int64?
        var heldToCap: Bool
        var testDescription: String { what }
    }

    @Test(
        "before a usable grid: a blocking return is the time; a present that returned at once sleeps a period; a cap holds",
        arguments: [
            EarlyRow(
                what: "blocked: no wait", blocked: true, locksDeadline: true, capped: false, now: 10_000_000,
                sleepsUntil: nil, heldToCap: false),
            EarlyRow(
                what: "returned at once: a period after the last frame", blocked: false, locksDeadline: true,
                capped: false, now: 1_000_000, sleepsUntil: period, heldToCap: false),
            EarlyRow(
                what: "blocked under a cap, early: held to the cap", blocked: true, locksDeadline: true,
                capped: true, now: 15_000_000, sleepsUntil: 16_000_000, heldToCap: true),
            EarlyRow(
                what: "blocked under a cap, already past it: no wait", blocked: true, locksDeadline: true,
                capped: true, now: 17_000_000, sleepsUntil: nil, heldToCap: false),
            EarlyRow(
                what: "blocked under a cap, not measuring: no hold", blocked: true, locksDeadline: false,
                capped: true, now: 15_000_000, sleepsUntil: nil, heldToCap: false),
        ])
    func beforeAGrid(row: EarlyRow) {
        var tracker = _VsyncTracker(nominalPeriod: Self.period)
        let decided = tracker.vsyncWait(
            for: Self.boundary(
                blocked: row.blocked, locksDeadline: row.locksDeadline, presentStart: row.now - 100_000, now: row.now,
                lastTimestamp: 0, capPeriod: row.capped ? 16_000_000 : nil))
        #expect(decided.boundary == .now(blocked: row.blocked, locksDeadline: row.locksDeadline))
        #expect(decided.wait == (row.sleepsUntil.map { .sleep(until: FrameInstant(nanoseconds: $0)) } ?? .none))
        #expect(decided.heldToCap == row.heldToCap)
    }

    @Test("a return that did not fit is off the grid: the frame is timed now, and frames no longer follow the grid")
    func strayReturn() {
        var tracker = Self.fitted()
        let vsync60 = tracker.grid.time(ofNumber: 60)
        _ = tracker.placeFrame(
            called: 59, number: 60, blocked: true, frame: 1, interval: 1, chainDepth: 0, lastBlockingReturn: nil,
            variableRefresh: nil)
        let decided = tracker.vsyncWait(
            for: Self.boundary(
                blocked: true, fits: false, presentStart: vsync60 + 1_000_000,
                now: vsync60 + 9_000_000, lastTimestamp: vsync60))
        #expect(decided.boundary == .now(blocked: true, locksDeadline: false))
        #expect(!tracker.followsGrid)
    }

    @Test("placing a frame: its timestamp is its vsync; shown time, target and drops are the swap-chain model's")
    func placement() {
        var tracker = Self.fitted()
        let timestamp = tracker.placeFrame(
            called: 59, number: 60, blocked: true, frame: 1, interval: 1, chainDepth: 1, lastBlockingReturn: nil,
            variableRefresh: nil)
        #expect(timestamp == tracker.grid.time(ofNumber: 60))
        // Triple buffering: a present that blocked waits behind one queued frame.
        #expect(tracker.knownShownTime == tracker.grid.time(ofNumber: 61))
        #expect(tracker.knownTarget == tracker.grid.time(ofNumber: 62))
        #expect(tracker.knownDrops == 0)
        #expect(tracker.timestampFollowsVsync, "exact returns: the line is known within 100 µs")
    }

    /// One row: the last timestamp's offset from vsync 60, and the number expected.
    @Test(
        "a blocking return within a quarter period of a vsync is on it; further off, or not a blocking return, it is not",
        arguments: [
            (offset: Int64(0), blocking: true, expected: Int64?.some(60)),
            (offset: 3_000_000, blocking: true, expected: 60),
            (offset: -3_000_000, blocking: true, expected: 60),
            (offset: 6_000_000, blocking: true, expected: nil),
            (offset: 0, blocking: false, expected: nil),
        ] as [(offset: Int64, blocking: Bool, expected: Int64?)])
    func blockingReturnNumber(offset: Int64, blocking: Bool, expected: Int64?) {
        let tracker = Self.fitted()
        let time = tracker.grid.time(ofNumber: 60) + offset
        #expect(tracker.blockingReturnNumber(lastTimestamp: time, wasBlockingReturn: blocking) == expected)
        #expect(tracker.blockingReturnNumber(lastTimestamp: nil, wasBlockingReturn: true) == nil)
    }

    @Test(
        "another display: the measured rate is forgotten, a slow present's verdict too, and the grid relocks whatever the rates"
    )
    func anotherDisplay() {
        var tracker = Self.fitted()
        tracker.returnsFollowFrames = true
        tracker.keepsNoPhase = true
        let relocks = tracker.grid.relocks
        let presentWasSlow = tracker.displayChanged(to: 120)
        #expect(presentWasSlow, "present had been found slow")
        #expect(!tracker.returnsFollowFrames)
        #expect(!tracker.keepsNoPhase)
        #expect(tracker.measuredRefreshRate == nil)
        #expect(tracker.grid.relocks == relocks + 1, "a 60 Hz grid is not a 120 Hz display's")
        // A close rate (59.94 Hz for a 60 Hz grid) is another display too: its phase is not the
        // old grid's, and its period drifts off it.
        var close = Self.fitted()
        let closeWasSlow = close.displayChanged(to: .hz59_94)
        #expect(!closeWasSlow)
        #expect(close.grid.relocks == 1 && !close.grid.hasGrid, "a close rate's display is learned afresh")
    }

    @Test("half the recent blocking presents called when the source chose: the returns count as paced")
    func pacedReturns() {
        var tracker = _VsyncTracker(nominalPeriod: Self.period)
        for index in 0..<8 { tracker.noteBlockingPresent(callWasPaced: index % 4 == 0) }
        #expect(!tracker.returnsWerePaced, "a quarter is not more than a quarter")
        tracker.noteBlockingPresent(callWasPaced: true)
        #expect(tracker.returnsWerePaced)
    }

    @Test(
        "feedback from a variable-refresh display that waited for a frame: not fitted, and the grid restarts its phase")
    func variableRefreshWaited() {
        var tracker = _VsyncTracker(nominalPeriod: 6_944_444)  // 144 Hz maximum
        let display = FrameRate.hz48...FrameRate.hz144
        // Frames at 100 Hz, each shown as its present was called (the display waited for them).
        var presented: Int64 = 0
        for frame in Int64(1)...20 {
            let called = frame * 10_000_000
            tracker.reports.notePresentCall(at: called, ofFrame: frame)
            let accepted = tracker.reports.accept(
                frame: frame, at: called + 50_000, now: called + 60_000, presentCount: frame)
            #expect(accepted)
            _ = tracker.take(presentEnd: called + 60_000, blocked: true, variableRefresh: display, reported: .hz144)
            presented = frame
        }
        #expect(presented == 20)
        #expect(!tracker.grid.hasGrid, "times of frames the display waited for are not a grid's refreshes")
        // The same reports from a fixed display are fitted.
        var fixed = _VsyncTracker(nominalPeriod: 10_000_000)
        for frame in Int64(1)...20 {
            let called = frame * 10_000_000 - 3_000_000
            fixed.reports.notePresentCall(at: called, ofFrame: frame)
            _ = fixed.reports.accept(frame: frame, at: frame * 10_000_000, now: frame * 10_000_000, presentCount: frame)
            _ = fixed.take(presentEnd: frame * 10_000_000, blocked: true, variableRefresh: nil, reported: 100)
        }
        #expect(fixed.grid.hasGrid)
    }

    @Test(
        "the return before the last is kept when that present blocked, and forgotten when it did not or after an idle wait"
    )
    func returnBeforeLast() {
        var tracker = _VsyncTracker(nominalPeriod: Self.period)
        tracker.noteReturn(blockedUntil: 1_000)
        #expect(tracker.blockingReturnBeforeLast == nil)
        tracker.noteReturn(blockedUntil: nil)
        #expect(tracker.blockingReturnBeforeLast == 1_000)
        tracker.noteReturn(blockedUntil: 3_000)
        #expect(tracker.blockingReturnBeforeLast == nil, "the present before did not block")
        tracker.noteReturn(blockedUntil: 4_000)
        #expect(tracker.blockingReturnBeforeLast == 3_000)
        tracker.forgetReturns()
        #expect(tracker.blockingReturnBeforeLast == nil)
    }
}
