/// What a ``PresentSource`` knows of the display's vsync, and where the frames that follow it are
/// shown: one part with one job, between what present and presentation feedback tell and the
/// frame's timestamp.
///
/// It keeps the grid fitted to the returns of blocking presents or to reported presentation times
/// (``_VsyncGrid``), the verdict on that grid's rate (``_VsyncRateVerdict``), what the returns are
/// worth (called when the source chose, keeping no phase, following the frames' own timing), the
/// feedback not yet taken in (``_PresentationReports``), and the swap-chain model
/// (``_SwapChainModel``) that places each frame following the grid on a vsync: the frame's
/// timestamp, when it is shown, the next frame's target and the refreshes missed before it.
///
/// The source decides whether frames follow the grid (its pacing machine and mode); the tracker
/// says, for a frame that does, what it waits for (``vsyncWait(for:)``) and where it lands
/// (``placeFrame(called:number:blocked:releaseIsUnknown:frame:interval:chainDepth:lastBlockingReturn:variableRefresh:)``).
struct _VsyncTracker {
    /// How close to the true vsync the grid's line must be known (its stated 99th-percentile error,
    /// `_VsyncGrid.uncertainty(ofNumber:)`) for a timestamp to be called a vsync: 100 µs, the
    /// precision the pacing sweep holds such timestamps to. A line less precise still times the
    /// frames (it is the best estimate there is), but the source does not claim it.
    static let vsyncPrecision: Int64 = 100_000

    /// Coming onto the grid from frames timed otherwise, a frame is never less than a period divided
    /// by this after the last one: half a period (frames never come faster than the display).
    static let comingOntoGridFraction: Int64 = 2

    /// The last frame's timestamp is a blocking return on the grid when it is within a period
    /// divided by this of a vsync: a quarter (a return is late by its delay, never by half a period).
    static let blockingReturnOnGridFraction: Int64 = 4

    /// More than a period divided by this of the recent blocking presents having been called when
    /// the source chose means a grid of them may echo that timing: more than a quarter (a few, as
    /// the first present after a hidden window is shown again, do not matter).
    static let pacedReturnsShare = 4

    /// The vsync grid fitted to blocking presents' returns (or to presentation feedback).
    var grid: _VsyncGrid
    /// The grid's numbering (``_VsyncGrid/numberings``) when the swap-chain model's numbers and
    /// the last report were taken: a window started again renumbers the grid.
    private var gridGeneration = 0
    /// Presents measured since the last blocking return offered to the grid that did not block
    /// (each was shown on a vsync of its own: the grid's first fit reads it).
    private var presentsSinceOfferedReturn = 0
    /// Whether presentation feedback came at the last present (its shown times are in the grid's
    /// window).
    private var windowHoldsShownTimes = false
    /// When the last frame paced off the grid (a present that did not block, no usable grid) was
    /// planned to begin; `nil` after any other frame.
    private var plannedOffGrid: Int64?
    /// Where presented frames are shown on the grid, while frames follow it.
    private(set) var swapChain = _SwapChainModel()
    /// Presentation feedback, checked where it enters, not yet taken in.
    var reports = _PresentationReports()
    /// The newest report fitted into the grid and not yet placed on it.
    private var newestReport: (frame: Int64, time: Int64)?
    /// When the last reported frame was shown (presentation feedback), on the source's timeline.
    private var previousReportedShowTime: Int64?
    /// Whether presentation feedback said a variable-refresh display showed a frame as its present
    /// was called (see ``absorbReports(variableRefresh:)``), not yet acted on: the grid starts again.
    private var displayWaitedForFrame = false
    /// Whether the vsync grid is faster than the display can be (see ``_VsyncRateVerdict``).
    var rateVerdict = _VsyncRateVerdict()
    /// The refresh rate measured from the grid (to a thousandth of a hertz), once the returns fit
    /// one; `nil` again for another display.
    private(set) var measuredRefreshRate: FrameRate?
    /// Whether the returns of blocking presents were found to keep no phase (an emulated vsync),
    /// and have not been judged phase-stable since: such a present never paces frames itself.
    var keepsNoPhase = false
    /// Whether a phase probe found the returns following the frames' own pacing: a present that is
    /// slow (a software renderer drawing in it) or throttled from its last call, not a vsync. Such
    /// a present never paces frames again, until the display changes.
    var returnsFollowFrames = false
    /// For each of the last 96 blocking presents (the grid's stability window), whether the source
    /// timed its call.
    private var pacedReturns = _FlagWindow(capacity: _VsyncGrid.stabilityWindow)

    /// When the last present returned, if it blocked (`nil` if it did not, or was not measured).
    private var lastBlockingReturn: Int64?
    /// When the present before it returned, if it blocked: the vsync that released it is where its
    /// frame went, which places the frame after it when frames come onto the grid.
    private(set) var blockingReturnBeforeLast: Int64?

    /// The refreshes the display missed before the frame presented at the last boundary, where
    /// known (the swap-chain model's, a variable-refresh display's, a hidden window's none).
    var knownDrops: Int?
    /// Whether the drops before the frame at the last boundary are the interval's to count, beyond
    /// the `knownDrops` booked ahead (``_SwapChainModel/Placement/dropsBeforeAreUnknown``).
    var dropsBeforeAreUnknown = false
    /// When the frame being built will be shown, while frames follow the grid.
    var knownTarget: Int64?
    /// When the frame presented at the last boundary is shown, if known.
    var knownShownTime: Int64?

    /// A tracker for a display of nominal period `nominalPeriod` (nanoseconds).
    init(nominalPeriod: Int64) {
        grid = _VsyncGrid(nominalPeriod: nominalPeriod)
    }

    // MARK: What is known

    /// Whether the presenter has reported when frames reached the screen.
    var receivesFeedback: Bool { reports.receivesFeedback }

    /// Whether frames follow the grid now (the last frame was placed on it).
    var followsGrid: Bool { swapChain.lastVsyncNumber != nil }

    /// Whether the last frame's timestamp is a vsync of a usable grid whose line is known within
    /// ``vsyncPrecision`` there, locked or not yet: what the pacing sweep judges against the true
    /// vsync.
    var timestampFollowsVsync: Bool {
        guard grid.isUsable, let number = swapChain.lastVsyncNumber else { return false }
        return grid.uncertainty(ofNumber: number) <= Self.vsyncPrecision
    }

    /// Whether the last frame's timestamp is a phase-locked vsync: the grid is locked and the
    /// timestamp follows it within ``vsyncPrecision``.
    var isPhaseLocked: Bool { grid.isPhaseLocked && timestampFollowsVsync }

    /// Whether more than a quarter of the recent blocking presents were called when the source
    /// chose (deadline waits, holds): a grid fitted to them may echo that timing. A few (the first
    /// present after a hidden window is shown again) do not matter.
    var returnsWerePaced: Bool {
        pacedReturns.marked * Self.pacedReturnsShare > pacedReturns.count
    }

    /// Whether a blocking return that did not fit the grid is still on it: one slow return (a long
    /// tail of the delay) is a stray for the fit, but while frames follow the grid its frame is
    /// timed by the vsync that released it, not by the raw return
    /// (`_VsyncGrid.isSlowReturnOnTheLine(calledAt:returnedAt:)`).
    func isSlowReturnOnGrid(presentStart: Int64, presentEnd: Int64, blocked: Bool, fits: Bool) -> Bool {
        blocked && !fits && followsGrid && grid.isSlowReturnOnTheLine(calledAt: presentStart, returnedAt: presentEnd)
    }

    /// Whether a present called at `calledAt` found room in a swap chain that queues `chainDepth`
    /// frames, as the model places the frames (``_SwapChainModel/hadRoom(forFrameCalledIn:chainDepth:)``):
    /// only while frames follow the grid.
    func chainHadRoom(forPresentCalledAt calledAt: Int64, chainDepth: Int64) -> Bool {
        grid.isUsable
            && swapChain.hadRoom(forFrameCalledIn: grid.number(atOrBefore: calledAt), chainDepth: chainDepth)
    }

    /// The grid number of the last frame's timestamp when that was the return of a present that
    /// blocked, on a vsync of the grid (within a quarter period: while the source still measured,
    /// as when a game that starts with slow frames shows each on every 3rd vsync); `nil` after any
    /// other timestamp (a deadline's, the phase probe's shifted frames, a hidden window's).
    func blockingReturnNumber(lastTimestamp: Int64?, wasBlockingReturn: Bool) -> Int64? {
        guard let lastTimestamp, wasBlockingReturn else { return nil }
        let period = Int64(grid.period.rounded())
        let slack = period / Self.blockingReturnOnGridFraction
        let previous = grid.number(atOrBefore: lastTimestamp + slack)
        guard abs(lastTimestamp - grid.time(ofNumber: previous)) <= slack else { return nil }
        return previous
    }

    // MARK: Events

    /// Frames no longer follow the grid (deadline pacing, a relock, a late frame on a
    /// variable-refresh display): the next frame on it starts the swap-chain model afresh.
    mutating func forgetPosition() {
        swapChain.forget()
    }

    /// Notes when the last present returned (`end`) if it blocked, `nil` if it did not or nothing
    /// was measured (a hidden window, an idle wait): the one before it moves back.
    mutating func noteReturn(blockedUntil end: Int64?) {
        blockingReturnBeforeLast = lastBlockingReturn
        lastBlockingReturn = end
    }

    /// Forgets when presents returned (after an idle wait, frames start afresh).
    mutating func forgetReturns() {
        lastBlockingReturn = nil
        blockingReturnBeforeLast = nil
    }

    /// Notes a present that blocked, and whether the source chose when it was called (after a
    /// deadline wait, or held to a cap): its return may only echo that timing (see the phase probe).
    mutating func noteBlockingPresent(callWasPaced: Bool) {
        pacedReturns.append(callWasPaced)
    }

    /// Forgets which presents the source timed: the grid is fitted afresh from returns to come.
    mutating func forgetPacedReturns() {
        pacedReturns.removeAll()
    }

    /// Another display, of nominal rate `rate`: what was found about the old one's presents no
    /// longer holds. Returns whether its presents were found to follow the frames (a slow present).
    ///
    /// **A changed report is another display, and its vsync is learned afresh**: the fit is
    /// dropped at once, whatever the two rates. The host reports a rate when the window moves to
    /// another display or the display's mode changes, and either way the old grid's phase says
    /// nothing of the new vsync (a modeset starts the scanout again). Its period says too little:
    /// returns of a display at half its rate would go on fitting every 2nd line while their phase
    /// drifted off it, and a close rate's drift is too slow for returns to leave the line, or there
    /// are none to (a chain with room). The rate is judged again from the next fit.
    /// (Kept for a close rate, a move from 59.94 Hz to 60.05 Hz with room in the chain kept the old
    /// period for good, and the display repeated 4 refreshes in 2,400 frames, none booked; a move
    /// from 60 Hz to 59.94 Hz had 132 frames claim the vsync while 0.11–2.29 ms off it: reviews
    /// 15 and 11.)
    mutating func displayChanged(to rate: FrameRate) -> Bool {
        let presentWasSlow = returnsFollowFrames
        returnsFollowFrames = false
        pacedReturns.removeAll()
        if presentWasSlow { keepsNoPhase = false }
        rateVerdict.displayChanged(at: grid.currentFit)
        // (Returns still waiting for a first fit are the old display's too. Kept, a window of 7
        // returns from a variable-refresh display at 150 Hz and one from the fixed 87.8 Hz display
        // it moved to were fitted as a 150 Hz grid.)
        grid.relockForAnotherDisplay()
        grid.nominalPeriod = rate.periodNanoseconds
        measuredRefreshRate = nil
        return presentWasSlow
    }

    /// Offers the grid what is known of the vsync: reported presentation times, or else the return
    /// at `presentEnd` of a present that `blocked`; then the measured rate, the rate verdict and
    /// whether the returns keep a phase follow the grid. Returns whether the present's return fits
    /// the grid (true with feedback, which does not depend on it).
    mutating func take(
        presentEnd: Int64, blocked: Bool, variableRefresh: ClosedRange<FrameRate>?, reported: FrameRate
    ) -> Bool {
        var fits = true
        if receivesFeedback && !windowHoldsShownTimes {
            // **Shown times start a window of their own**: returns of blocking presents come later
            // by the present's delay, and a line resting on both was off by 100–137 µs for 157
            // frames while it claimed the vsync once feedback came again (found by review). Feedback
            // that stops needs no new window: its exact times stay the window's lowest, the line
            // rests on them while returns come, and moves to the returns' as they leave it.
            // (Starting one then too, feedback that stopped and came again every 60 frames left
            // frames off the vsync half the time, while returns pinned a new line: found by review.)
            if grid.hasGrid { grid.restartPhase() } else { grid.reset() }
            forgetPosition()
        }
        windowHoldsShownTimes = receivesFeedback
        if receivesFeedback {
            absorbReports(variableRefresh: variableRefresh)
            if displayWaitedForFrame {
                // A variable-refresh display showed a reported frame as it came: its refreshes
                // take the frame's phase, as after a late frame.
                displayWaitedForFrame = false
                forgetPosition()
                grid.restartPhaseKeepingPeriod()
            }
        } else if blocked {
            // (On a variable-refresh display frames late for its fastest refresh are shown as they
            // come, off any grid: the presents between say nothing of its vsyncs.)
            fits = grid.add(
                returnTime: presentEnd, presents: variableRefresh == nil ? presentsSinceOfferedReturn + 1 : 1)
            presentsSinceOfferedReturn = 0
        } else {
            presentsSinceOfferedReturn += 1
        }
        if grid.numberings != gridGeneration {
            gridGeneration = grid.numberings
            forgetPosition()
            swapChain.forgetReport()
        }
        // (Not from the old display's fit after a display change: see _VsyncRateVerdict.)
        if grid.hasGrid && grid.isStable != false && rateVerdict.isCurrentDisplays(grid.currentFit) {
            // (The grid keeps only fits a display can have: see _VsyncGrid.plausiblePeriods.)
            if let rate = grid.measuredRate { measuredRefreshRate = rate }
        }
        if grid.hasGrid {
            rateVerdict.judge(
                period: grid.period, fit: grid.currentFit, reported: reported, returnsWerePaced: returnsWerePaced)
        }
        if grid.isStable == false {
            keepsNoPhase = true
        } else if grid.isStable == true && !returnsFollowFrames && !returnsWerePaced {
            // (A stable grid of returns whose calls the source timed may echo that timing: the
            // phase probe decides.)
            keepsNoPhase = false
        }
        return fits
    }

    /// Fits the grid to the reports that came in, and keeps the newest to place the model's frames.
    /// On a variable-refresh display a frame shown as its present was called, later than the
    /// display's fastest cadence allows after the frame before, was waited for
    /// (`_VariableRefreshModel.displayWaited(forFrameShownAt:calledAt:previousShownAt:fastestPeriod:)`):
    /// its time is the frame's own, not a refresh of a grid, so it is not fitted, and the grid
    /// starts again at the next frame boundary.
    mutating func absorbReports(variableRefresh: ClosedRange<FrameRate>?) {
        for index in 0..<reports.pendingCount {
            let (frame, time, calledAt) = reports.pending(at: index)
            let previous = previousReportedShowTime
            previousReportedShowTime = time
            if let display = variableRefresh, let calledAt,
                _VariableRefreshModel.displayWaited(
                    forFrameShownAt: time, calledAt: calledAt, previousShownAt: previous,
                    fastestPeriod: display.upperBound.periodNanoseconds)
            {
                displayWaitedForFrame = true
                continue
            }
            grid.add(returnTime: time)
            newestReport = (frame, time)
        }
        reports.forgetPending()
    }

    /// What a frame that follows the grid waits for, and what gives it its timestamp.
    struct Wait: Equatable {
        /// The wait.
        var wait: FrameWait
        /// What ends it.
        var boundary: _FrameBoundary
        /// Whether the frame is held to a cap (the source then chose when the next present is
        /// called).
        var heldToCap: Bool = false
    }

    /// A frame boundary while frames follow the grid, as its wait is decided.
    struct Boundary {
        /// Whether the present blocked.
        var blocked: Bool
        /// Whether its return fitted the grid (or was a slow return still on it).
        var fits: Bool
        /// Whether the deadline grid follows the frame (the source is still measuring).
        var locksDeadline: Bool
        /// When the present was called.
        var presentStart: Int64
        /// Now.
        var now: Int64
        /// The last frame's timestamp (`nil` before the first and after an idle wait).
        var lastTimestamp: Int64?
        /// The period frames are paced at, in nanoseconds.
        var period: Int64
        /// The vsyncs from one present to the next.
        var interval: Int64
        /// The display's period when frames are held to it while the source measures (a cap:
        /// `PresentSource.capsAtDisplayRefreshRate`); `nil` when they are not.
        var capPeriod: Int64?
        /// Whether the model knows the chain had room for the present
        /// (``chainHadRoom(forPresentCalledAt:chainDepth:)``, read before the frame was placed).
        var chainHadRoom = false
    }

    /// The wait while frames follow the grid: none after a present that blocked (the frame's vsync
    /// is the one at or before its return), a sleep to the next vsync after one that did not.
    /// Before a grid is fitted, the return is the best time there is, never sooner than a period
    /// after the last frame.
    mutating func vsyncWait(for frame: Boundary) -> Wait {
        // While measuring, a grid fitted to returns of presents whose calls the source timed is
        // not trusted before the phase probe says it is the display's.
        let planned = plannedOffGrid
        plannedOffGrid = nil
        guard grid.isUsable, frame.fits, !(frame.locksDeadline && returnsWerePaced) else {
            // While the grid re-locks after a move the period is not known: a frame a vsync
            // released is not counted as a drop then. (At start-up the nominal period counts them,
            // and so does the old period for the returns before the relock.)
            forgetPosition()
            if frame.blocked && grid.relocks > 0 && !grid.hasGrid { knownDrops = 0 }
            let boundary = _FrameBoundary.now(blocked: frame.blocked, locksDeadline: frame.locksDeadline)
            guard let lastTimestamp = frame.lastTimestamp else { return Wait(wait: .none, boundary: boundary) }
            if !frame.blocked {
                // **Off the grid, frames a little late keep their plan**: a period after the last
                // frame's planned start when it began less than a quarter period after it (as the
                // deadline grid does), else after its start. A chain with room absorbs a frame that
                // ran a little long only if the next may catch up: planned from each start, frames
                // alternating 90 and 110 % of a period ran at 95 % of the display's rate, and the
                // display repeated one frame in twenty (found by review).
                // (In vsync mode only: while the source still measures, the frames between these
                // are paced by the deadline grid, which keeps a plan of its own; measuring frames
                // keep their old timing, a period from the last start.)
                var base = lastTimestamp
                if !frame.locksDeadline, let planned, lastTimestamp >= planned,
                    lastTimestamp - planned < frame.period / DeadlineSource.lateFrameFraction
                {
                    base = planned
                }
                let next = base + frame.period * frame.interval
                plannedOffGrid = next
                let wait = next > frame.now ? FrameWait.sleep(until: FrameInstant(nanoseconds: next)) : .none
                return Wait(wait: wait, boundary: boundary)
            }
            if frame.locksDeadline, let capPeriod = frame.capPeriod {
                // Still measuring, and the present that blocked is not known to be the display's
                // vsync (an emulated one throttles faster: Xvfb's 62.5 Hz on a display that reports
                // none): frames are held to the cap, never faster.
                let earliest = lastTimestamp + capPeriod
                if earliest > frame.now {
                    let wait = FrameWait.sleep(until: FrameInstant(nanoseconds: earliest))
                    return Wait(wait: wait, boundary: boundary, heldToCap: true)
                }
            }
            return Wait(wait: .none, boundary: boundary)
        }
        let called = grid.number(atOrBefore: frame.presentStart)
        // Blocked: the vsync that released it. Not blocked, into a chain the model knows had room:
        // the first vsync after the call, which shows the frame; if that has passed already (a
        // return that came just after it), the next frame begins at once, on it. Not blocked
        // otherwise: the next vsync after the return.
        var number: Int64
        if frame.blocked {
            number = grid.number(atOrBefore: frame.now + _VsyncGrid.earlyTolerance)
        } else if frame.chainHadRoom {
            number = called + 1
        } else {
            number = grid.number(atOrBefore: frame.now) + 1
        }
        if let last = swapChain.lastVsyncNumber, number < last + frame.interval {
            number = last + frame.interval
        }
        // Coming onto the grid from frames timed otherwise (a deadline grid, the phase probe's
        // shifted frames): never a frame less than half a period after the last one. (The frame
        // then begins after the vsync that released its present, which still places it.)
        let released = number
        if swapChain.lastVsyncNumber == nil, let lastTimestamp = frame.lastTimestamp {
            while grid.time(ofNumber: number) < lastTimestamp + frame.period / Self.comingOntoGridFraction {
                number += 1
            }
        }
        let boundary = _FrameBoundary.vsync(
            called: called, number: number, blocked: frame.blocked, released: released,
            locksDeadline: frame.locksDeadline)
        let time = grid.time(ofNumber: number)
        let wait = time > frame.now ? FrameWait.sleep(until: FrameInstant(nanoseconds: time)) : .none
        return Wait(wait: wait, boundary: boundary)
    }

    /// Places a frame that follows the grid and returns its timestamp: vsync `number` (present was
    /// called in vsync `called`'s interval, and released by vsync `released` if it blocked). Takes in the feedback that came in up to now (where
    /// recent frames were really shown, which places the frames after them), and keeps the
    /// swap-chain model's drops, shown time and the next frame's target.
    ///
    /// - Parameters:
    ///   - frame: The frame's number (the source's count of presents).
    ///   - interval: The vsyncs from one present to the next.
    ///   - chainDepth: The frames a full chain holds ahead of a new one.
    ///   - lastBlockingReturn: ``blockingReturnNumber(lastTimestamp:wasBlockingReturn:)``.
    ///   - variableRefresh: The display's variable-refresh range, if it has one.
    mutating func placeFrame(
        called: Int64, number: Int64, blocked: Bool, released: Int64? = nil, releaseIsUnknown: Bool = false,
        frame: Int64, interval: Int64, chainDepth: Int64, lastBlockingReturn: Int64?,
        variableRefresh: ClosedRange<FrameRate>?
    ) -> Int64 {
        if receivesFeedback { takeReports(variableRefresh: variableRefresh) }
        let placement = swapChain.place(
            _SwapChainModel.Frame(
                called: called, number: number, blocked: blocked, released: released == number ? nil : released,
                releaseIsUnknown: releaseIsUnknown, frame: frame,
                interval: interval, chainDepth: chainDepth, lastBlockingReturn: lastBlockingReturn,
                refreshesEveryVsync: variableRefresh == nil))
        knownDrops = placement.drops
        dropsBeforeAreUnknown = placement.dropsBeforeAreUnknown
        knownShownTime = grid.time(ofNumber: placement.shown)
        knownTarget = grid.time(ofNumber: placement.target)
        return grid.time(ofNumber: number)
    }

    /// Takes in the reported presentations: the vsync of the grid each reported frame was shown
    /// on, the newest noted in the swap-chain model to place the frames after it. (Drops are the
    /// model's, counted where it shows each frame: a report corrects where frames are shown, and a
    /// drop is booked at the boundary where the model knows of it, not when the report arrives a
    /// frame or two later, in an interval too short to hold it.)
    private mutating func takeReports(variableRefresh: ClosedRange<FrameRate>?) {
        absorbReports(variableRefresh: variableRefresh)
        guard let newest = newestReport else { return }
        swapChain.noteReport(
            frame: newest.frame, shownOn: grid.number(atOrBefore: newest.time + _VsyncGrid.earlyTolerance))
        newestReport = nil
    }
}
