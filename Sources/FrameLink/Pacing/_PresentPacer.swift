/// What a ``PresentSource`` decides and measures: the parts that pace frames after a present
/// (``_PacingMachine``, ``_FrameRule``, ``_VsyncTracker``, ``_SwapChainFill``,
/// ``_BackToBackFrames``, ``_FrameRateCadence``, a ``DeadlineSource``) and the frame-to-frame
/// facts they are fed. The source is its public face: it keeps the host's closures, calls present,
/// and tells the game of a changed state; everything between one present and the next frame's
/// timestamp happens here, in an object the source owns.
///
/// **An object, not a value.** Held as a value, the pacer was under one exclusive access for each
/// whole call, and host code that runs inside its work — the clock the source reads (a
/// ``PacingClock`` a host writes may read the source: a profiler tagging its samples with the
/// pacing state) — trapped with a fatal access conflict on any read of the source (found by
/// review). As an object, each part is accessed on its own, as the source's properties were.
/// (Log lines are still written after the work: see ``_PacingLogEntry``.)
///
/// The settings a host or game changes (``pacing``, ``displayRefreshRate`` and the rest) are kept
/// here too, and a change takes effect through them (the `didSet` of each).
@MainActor
final class _PresentPacer {
    /// The presents whose durations the reasons quote the median of: 16.
    nonisolated static let presentDurationsWindow = 16

    /// The buffers of double buffering (a front and a back buffer): a chain's depth is what it has
    /// beyond them.
    static let doubleBuffering = 2

    /// A present that blocked longer than the chain explains by more than a period divided by
    /// this returned at no vsync: half a period (a return is late by its delay, which a vsync
    /// grid numbers within half a period).
    static let longestBlockSlackFraction: Int64 = 2

    /// **A swap-chain count needs an interval a period divided by this over one period**: a
    /// quarter. Frames on the vsync are whole periods apart, and a drop makes two; a count the
    /// model got wrong in an interval a few nanoseconds over one period is no drop (found by
    /// review once the statistics took a known drop in anything over one period, as a
    /// variable-refresh display's own drops need: 1.1 periods at a cap just above its minimum).
    nonisolated static let swapChainDropSlackFraction: Int64 = 4

    /// The most drops the swap-chain model may book in an interval of frames on the vsync: none
    /// up to ``swapChainDropSlackFraction`` of a period over one period, then one more per period.
    nonisolated static func mostSwapChainDrops(interval: Int64, period: Int64) -> Int {
        guard period > 0 else { return 0 }
        let slack = period / swapChainDropSlackFraction
        guard interval > period, interval - period > slack else { return 0 }
        return Int((interval - period - slack - 1) / period) + 1
    }

    /// A present held for a divisor or a halved rate goes out this fraction of a period into the
    /// interval before its vsync: halfway, as far from both vsyncs as it can be.
    static let holdFraction: Int64 = 2

    // MARK: Settings (``PresentSource``'s, which documents each)

    /// The requested pacing.
    var pacing: PresentSource.Pacing {
        didSet { applyRequestedPacing() }
    }

    /// The display's nominal refresh rate.
    var displayRefreshRate: FrameRate {
        didSet {
            guard displayRefreshRate != oldValue else { return }
            // Another display: what was found about the old one's presents no longer holds.
            machine.displayChanged()
            let presentWasSlow = tracker.displayChanged(to: displayRefreshRate)
            chainFill.forget()
            // (The old display's presents say nothing of whether the new one's block: 3.9 ms at
            // 144 Hz is a present that blocks, not at 60 Hz.)
            presentDurations.removeAll()
            presentsBlocked.removeAll()
            if mode == .deadline && (!tracker.grid.isUsable || presentWasSlow) {
                deadline.refreshRate = displayRefreshRate
            }
            if requestedRange != nil || capsAtDisplayRefreshRate { applyRequestedRange() }
        }
    }

    /// Whether ``displayRefreshRate`` is a cap that frames never exceed.
    var capsAtDisplayRefreshRate = false {
        didSet { if capsAtDisplayRefreshRate != oldValue && variableRefreshRange != nil { applyRequestedRange() } }
    }

    /// Whether the rate is halved while frames run over budget.
    var automaticFrameRate = false {
        didSet {
            if !automaticFrameRate {
                let action = cadence.turnOffAutomaticFrameRate()
                apply(action, turnedOff: true)
            }
        }
    }

    /// Whether the window is hidden or minimized, as the host learns from the window system.
    var isWindowHidden = false {
        didSet {
            guard isWindowHidden != oldValue else { return }
            if !isWindowHidden {
                // Shown again: a variable-refresh display refreshed on its own meanwhile and shows
                // the next frame as it comes, so its refreshes take that frame's phase, as after a
                // late frame (no fixed grid's phase carried across the window): that frame is
                // taken as a late one, shown as the display's own refreshes allow, and the next
                // starts at once.
                if variableRefreshRange != nil {
                    tracker.forgetPosition()
                    // (Not keeping the period: where a swap chain of three buffers refills after
                    // the window, frames placed by a line resting on its first returns were put a
                    // refresh late, in 14 of review 5's 120 shows. The grid is refitted from eight.)
                    tracker.grid.restartPhase()
                    firstFrameAfterShow = true
                }
                return
            }
            // (A frame still queued to be shown is discarded with the window: the last refresh
            // that showed a frame of ours has passed.)
            lastShownBeforeHiding = tracker.knownShownTime.flatMap { $0 <= now.nanoseconds ? $0 : nil } ?? lastTimestamp
            guard let lastTimestamp else { return }
            if let measuredRefreshRate, tracker.grid.isUsable, !vsyncIsFasterThanDisplay, !tracker.keepsNoPhase {
                deadline.refreshRate = measuredRefreshRate
            }
            applyDeadlineRange()
            deadline.lockGrid(to: FrameInstant(nanoseconds: lastTimestamp))
        }
    }

    /// The range of a variable-refresh display, if the host knows it.
    var variableRefreshRange: ClosedRange<FrameRate>? {
        didSet { if variableRefreshRange != oldValue { applyRequestedRange() } }
    }

    /// The buffers of the presenter's swap chain (2…8, checked by the source).
    var swapChainBuffers = 2

    // MARK: Parts

    /// The deadline pacer used when vsync is not honoured (shared with the source).
    let deadline: DeadlineSource
    /// The automatic pacing's decisions.
    var machine: _PacingMachine
    /// The requested frame-rate range and the automatic frame rate.
    var cadence = _FrameRateCadence()
    /// What is known of the vsync, and where frames that follow it are shown.
    var tracker: _VsyncTracker
    /// The frames presented back to back to see whether present blocks.
    var backToBack = _BackToBackFrames()
    /// Whether presents that returned at once must have found a FIFO swap chain full: the only
    /// evidence that present does not wait for the vsync.
    var chainFill = _SwapChainFill()
    /// What the log last said about the vsync lock.
    var lockLog = _VsyncLockLog()
    /// What the pacer decided that the log should say, not yet written: the source writes it once
    /// the pacer's work for the call is done (see ``_PacingLogEntry``).
    var log: [_PacingLogEntry] = []

    // MARK: Frame to frame

    /// How long the last presents took (16: the window whose median the reasons quote).
    var presentDurations = _Ring(capacity: _PresentPacer.presentDurationsWindow)
    /// Which of those presents blocked (the same window).
    var presentsBlocked = _FlagWindow(capacity: _PresentPacer.presentDurationsWindow)
    /// The last frame's timestamp, on the source's timeline (`nil` before the first and after an
    /// idle wait).
    var lastTimestamp: Int64?
    /// Whether the last frame's timestamp was the return of a present that blocked (the vsync
    /// that released it).
    var lastTimestampWasBlockingReturn = false
    /// The number of times present has been called; a presenter's feedback names frames by it.
    var presentCount: Int64 = 0
    /// How long the last present took, in nanoseconds.
    var lastPresentDuration: Int64 = 0
    /// What ends the current wait and gives the next frame its timestamp.
    var boundary = _FrameBoundary.presentEnd
    /// The rule that paced the frame after the last present (see ``_FrameRule``).
    var frameRule = _FrameRule.deadline
    /// When the present before the last one started (`nil` before the second present): on a
    /// variable-refresh display paced by deadline, when its frame was shown (the display shows a
    /// frame as it comes; the frame's timestamp, a deadline, says nothing of that).
    var previousPresentStart: Int64?
    /// When the last present started and returned, on the source's timeline.
    var presentStart: Int64 = 0
    var presentEnd: Int64 = 0
    /// Whether the source chose when the last present was called (a deadline wait or a hold before
    /// it), and the frames since a present so called blocked (up to the grid's window).
    var callWasPaced = false
    /// Whether the last present blocked and its return fitted the grid.
    var lastReturnFits = false
    /// Whether the last present blocked longer than the chain explains and returned off the grid's
    /// vsyncs (beyond the delays the grid has seen): late by a compositor's stall, its return says
    /// nothing of the vsync that released it. (One on a vsync was released by it: a frame the GPU
    /// was still drawing, shown there.)
    var lastReleaseIsUnknown = false
    /// When the last frame's work began (`beginWork(at:)`), and how long after that its present
    /// returned.
    var frameStart: Int64 = 0
    var returnOffset: Int64 = 0
    /// Whether the next frame presented is the first after a variable-refresh display's window was
    /// shown again: the display refreshed on its own meanwhile, and shows that frame as it comes
    /// (or a fastest period after its own last refresh), so it is taken as a late one. Following
    /// the vsync grid instead, each frame waited for the grid's next vsync after a present with
    /// room in the chain, so the chain never filled again; the display showed each frame as its
    /// present came, a frame's work after the grid's vsync, and every target was off by that work
    /// (found by the sweep: 5 of 6,000 scenarios).
    var firstFrameAfterShow = false
    /// Whether the loop counted the last frame's drops from its interval (the source knew none:
    /// frames paced by deadline on a fixed display), read by the first frame on the grid after them.
    var lastDropsCountedByInterval = false
    /// How much later than a period after the last frame the phase probe starts its first frame
    /// (``_PhaseProbe/firstFrameStart(vsyncAfterNext:period:returnOffset:now:)``), until the next
    /// frame begins: taken off its interval when its drops are counted.
    var probeDelay: Int64?
    /// When the display last showed a frame of ours before the window was hidden (the frame
    /// presented last, if it was shown by then, else the last frame's timestamp): a variable-refresh
    /// display refreshes on its own every slowest period from there, which places the first frame
    /// after the show (taken as shown when presented, it was up to a fastest period early: found
    /// by review).
    var lastShownBeforeHiding: Int64?
    /// Whether the current frame's work cost was noted (by `presentWait()` or `willPresent()`).
    var workCostNoted = false

    /// A pacer for a display of `displayRefreshRate`, paced as `pacing` asks, on `deadline`'s
    /// clock.
    init(displayRefreshRate: FrameRate, pacing: PresentSource.Pacing, deadline: DeadlineSource) {
        self.displayRefreshRate = displayRefreshRate
        self.pacing = pacing
        self.deadline = deadline
        tracker = _VsyncTracker(nominalPeriod: displayRefreshRate.periodNanoseconds)
        let state =
            switch pacing {
            case .vsync: PacingState(mode: .vsync, reason: .requested)
            case .deadline: PacingState(mode: .deadline, reason: .requested)
            case .unpaced: PacingState(mode: .unpaced, reason: .requested)
            case .automatic: PacingState(mode: .deadline, reason: .measuring)
            }
        machine = _PacingMachine(state: state)
    }

    /// The time since the source was created.
    var now: FrameInstant { deadline.now }
    /// The current mode and why.
    var pacingState: PacingState { machine.state }
    /// The current mode.
    var mode: PresentSource.Mode { machine.state.mode }
    /// The refresh rate measured from the vsync grid, once the returns fit one.
    var measuredRefreshRate: FrameRate? { tracker.measuredRefreshRate }
    /// The swap chain's depth beyond double buffering.
    var chainDepth: Int64 { Int64(swapChainBuffers - Self.doubleBuffering) }
    /// Reports ignored as implausible (see `PresentSource.reportPresentation(ofFrame:at:)`).
    var ignoredReports: Int { tracker.reports.ignored }
    /// How many vsync fits were discarded for a period no display has (see `_VsyncGrid`).
    var discardedImplausibleFits: Int { tracker.grid.implausibleFits }

    /// The period frames are paced at now: the vsync's in vsync mode, the deadline grid's else.
    var currentPeriod: Int64 {
        (mode == .vsync ? (measuredRefreshRate ?? displayRefreshRate) : deadline.refreshRate).periodNanoseconds
    }
}
