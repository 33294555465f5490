/// A frame source whose frame boundary is a present function that may block on vsync — an SDL
/// renderer's present, a GL swap, a Vulkan queue present — with a precise deadline fallback.
///
/// **Phase-locked vsync.** A blocking present returns at a vsync plus a delay that jitters (the
/// compositor, the scheduler). The source fits the vsync grid — period and phase — to the returns
/// (the highest line below all of them, over the last 512: see the DocC article on pacing), and a
/// frame's `timestamp` is the vsync itself, not the moment present returned, so present jitter never
/// reaches `timestamp`, `targetTimestamp`, `deltaTime` or the statistics. A present that did not
/// block (a swap chain with room, a hidden window) is followed by a wait for the next vsync of the
/// grid, so frames never come faster than the display. The source models the swap chain from the
/// grid: a frame is shown at the first vsync after its present (and after the frame before it), so
/// ``targetTimestamp`` is when the frame being built will be shown and a drop is counted only when
/// the display really showed an old frame again. When the presenter reports when frames reached the
/// screen (`reportPresentation(ofFrame:at:)`), those times replace the present returns.
///
/// While pacing is ``Pacing/automatic`` the source keeps checking what present does (windows get
/// moved to another display; the host says when one is hidden, `isWindowHidden`):
/// - **vsync** when presents block and their returns fit a phase-stable grid (judged from 24 clean
///   returns, or 96), the last present having returned on it; the period is measured from the
///   grid, so a 59.94 Hz display that SDL reports as 59 Hz (or that an override calls 75 Hz) is
///   paced and counted at 59.94 Hz;
/// - **deadline** when present does not wait for the vsync: presents that returned at once
///   although a FIFO swap chain must have been full (more frames presented, back to back, than the
///   display can have shown plus what a chain of three buffers holds: see the DocC article).
///   A present that returns at once into a chain with room says nothing against vsync, so the
///   first frames go back to back until one blocks or that evidence is in (4 light frames), and a
///   verdict never rests on frames too slow to fill a chain. Deadline pacing also when present
///   blocks but its returns keep no phase (an emulated vsync, as under Xvfb, throttles each
///   present from the last): frames are then paced by a ``DeadlineSource``. Jitter alone never
///   demotes a real vsync. While the source is still measuring, a present that blocks paces the
///   frames itself, so start-up never runs faster than the display.
///
/// **A slow present is not a vsync.** A present that takes a while (a software renderer drawing
/// in it, as llvmpipe under Xvfb does for 6–10 ms) looks like one that blocks, and while the
/// source times the calls (deadline pacing, a hold to a cap) its returns keep the phase of those
/// calls. So a grid fitted mostly to such returns is checked before frames follow it: for 12
/// frames (the phase probe) frames move half a period; a vsync's presents still return on its
/// grid, a slow present's move with the calls, and the source then paces by deadline for good
/// (until the display changes), saying why.
///
/// After a move to another display or a hide and show, returns stop fitting the grid; three in a
/// row start the fit again (`vsyncRelocks`), and it re-locks within about a dozen frames.
///
/// The chosen mode and the reason are in ``mode`` and ``reason``, and in every statistics report.
///
/// **Frame-rate ranges** (`requestFrameRate(in:)`, from ``FrameLoop/preferredFrameRateRange``):
/// under a fixed vsync the present goes out on every k-th vsync, k chosen once for the display's
/// rate (``FrameRateRange/choice(dividing:)``); in deadline mode the grid keeps that division of the
/// display's grid once a vsync was seen, else paces the preferred rate directly, never above
/// ``displayRefreshRate``; on a variable-refresh display (``variableRefreshRange``) the preferred
/// rate is paced directly, and each frame is shown as it comes.
///
/// **Auto frame rate** (opt-in, like Android's Swappy): when the frame's work costs more than the
/// budget on average over 10 frames, the source presents on every 2nd vsync, evenly, and returns to
/// every vsync after 30 frames comfortably under budget. Timestamps stay real, so time-based
/// animation keeps its speed; ``refreshRate`` becomes the effective rate, so statistics do not count
/// the halved rate as drops.
@MainActor
public final class PresentSource: FrameSource {
    /// How the source is asked to pace.
    public enum Pacing: Sendable, Equatable {
        /// Detect whether present blocks on vsync and choose (the default).
        case automatic
        /// Trust present to block on vsync.
        case vsync
        /// Always pace by deadline after presenting.
        case deadline
        /// No pacing: present and start the next frame at once, to measure what a frame costs.
        case unpaced
    }

    /// How the source is pacing now.
    public enum Mode: String, Sendable, Equatable {
        /// Present blocks on vsync; the timestamp is the vsync of the fitted grid.
        case vsync
        /// Present returns at once; the source sleeps and spins to a deadline grid.
        case deadline
        /// Frames follow one another as fast as they are made (pacing off).
        case unpaced
    }

    /// The presents whose durations the reasons quote the median of: 16.
    nonisolated static let presentDurationsWindow = 16

    /// The buffers of double buffering (a front and a back buffer): a chain's depth is what it has
    /// beyond them.
    static let doubleBuffering = 2

    /// A present that blocked longer than the chain explains by more than a period divided by
    /// this returned at no vsync: half a period (a return is late by its delay, which a vsync
    /// grid numbers within half a period).
    static let longestBlockSlackFraction: Int64 = 2

    /// A present held for a divisor or a halved rate goes out this fraction of a period into the
    /// interval before its vsync: halfway, as far from both vsyncs as it can be.
    static let holdFraction: Int64 = 2

    /// The requested pacing. Changing it takes effect at the next frame.
    public var pacing: Pacing {
        didSet { applyRequestedPacing() }
    }

    /// The current mode and why: typed, for a game to switch on (see ``PacingReason``).
    ///
    /// Changes are told to ``onPacingStateChange`` at the next frame boundary.
    public var pacingState: PacingState { machine.state }

    /// The automatic pacing's decisions (a state machine: see ``_PacingMachine``).
    var machine: _PacingMachine

    /// Called on the main actor when ``pacingState`` has changed, at the start of the first frame
    /// after the change (never from inside the source's own bookkeeping, so the callback may set
    /// ``pacing`` or any other property). A state that changes and changes back within a frame is
    /// not told.
    public var onPacingStateChange: (@MainActor (PacingState) -> Void)?

    /// The state last told to ``onPacingStateChange``.
    var announcedState: PacingState

    /// The display's nominal refresh rate (what the display mode reports, or 60 Hz when unknown).
    ///
    /// Frames never come faster than this rate allows: a blocking present measured faster than it
    /// (by more than 1 Hz, for displays reported in whole hertz, and 0.5 %) is not the display's
    /// vsync (an emulated one, such as Xvfb's 62.5 Hz throttle on a display that reports no rate,
    /// or a rate the caller capped), and frames are paced by deadline at this rate instead; while
    /// the vsync is still being measured, frames are never closer together than its period. A
    /// host whose window moves to another display sets the new display's rate here.
    public var displayRefreshRate: FrameRate {
        didSet {
            guard displayRefreshRate != oldValue else { return }
            // Another display: what was found about the old one's presents no longer holds.
            machine.displayChanged()
            let presentWasSlow = tracker.displayChanged(to: displayRefreshRate)
            chainFill.forget()
            if mode == .deadline && (!tracker.grid.isUsable || presentWasSlow) {
                deadline.refreshRate = displayRefreshRate
            }
            if requestedRange != nil || capsAtDisplayRefreshRate { applyRequestedRange() }
        }
    }

    /// Whether ``displayRefreshRate`` is a cap that frames never exceed, from the very first frame:
    /// true when it is a rate the caller asked for (an override) or an assumption (the display
    /// reports no rate, 60 Hz assumed); false (the default) when it is the display's own report,
    /// which a real vsync may exceed by up to 1 Hz (59.94 Hz reported as 59).
    ///
    /// A cap matters at start-up: while the source still measures whether a blocking present is
    /// the display's vsync (about a dozen frames), frames follow present. Under a cap they are held
    /// to it meanwhile, so an emulated vsync that throttles faster (Xvfb's 62.5 Hz) never shows
    /// more than 60 fps. Without one, holding frames would disturb a real display's swap chain, so
    /// they are not held. Either way, once measured, a vsync faster than the display's rate is
    /// paced by deadline at that rate. On a variable-refresh display (``variableRefreshRange``), a
    /// cap below its maximum is a rate asked for, paced directly as a requested range is: each
    /// present held to its paced time, so frames are shown evenly at the cap.
    @_spi(FrameSourceImplementation) public var capsAtDisplayRefreshRate = false {
        didSet { if capsAtDisplayRefreshRate != oldValue && variableRefreshRange != nil { applyRequestedRange() } }
    }

    /// The refresh rate measured from the vsync grid (to a thousandth of a hertz), once the returns
    /// of blocking presents fit one.
    public var measuredRefreshRate: FrameRate? { tracker.measuredRefreshRate }

    /// Whether the source halves the frame rate while frames run over budget (off by default).
    public var automaticFrameRate = false {
        didSet {
            if !automaticFrameRate {
                apply(cadence.turnOffAutomaticFrameRate(), back: "automatic frame rate turned off")
            }
        }
    }

    /// The requested frame-rate range and the automatic frame rate (see ``_FrameRateCadence``).
    var cadence = _FrameRateCadence()

    /// The requested frame-rate range (`requestFrameRate(in:)`).
    var requestedRange: FrameRateRange? { cadence.requestedRange }

    /// Whether the window is hidden or minimized, as the host learns from the window system
    /// (SDLHost sets it from SDL's window events): `false` unless told.
    ///
    /// A hidden window's presents show nothing, and how they return says nothing about the
    /// display: under X11 they return at once, which looks like a swap chain with room; under
    /// Wayland they may wait for frame callbacks that stop coming. So while it is hidden the
    /// source does not measure: frames keep the display's rate and phase (the vsync grid's, when
    /// one is known) on a deadline, no drop is counted (nothing was to be shown), and when it is
    /// shown again the swap-chain model starts afresh from the first frame shown.
    @_spi(FrameSourceImplementation) public var isWindowHidden = false {
        didSet {
            guard isWindowHidden != oldValue else { return }
            if !isWindowHidden {
                // Shown again: a variable-refresh display refreshed on its own meanwhile and shows
                // the next frame as it comes, so its refreshes take that frame's phase, as after a
                // late frame (no fixed grid's phase carried across the window).
                if variableRefreshRange != nil {
                    tracker.forgetPosition()
                    tracker.grid.restartPhase()
                }
                return
            }
            guard let lastTimestamp else { return }
            if let measuredRefreshRate, tracker.grid.isUsable, !vsyncIsFasterThanDisplay, !tracker.keepsNoPhase {
                deadline.refreshRate = measuredRefreshRate
            }
            applyDeadlineRange()
            deadline.lockGrid(to: FrameInstant(nanoseconds: lastTimestamp))
        }
    }

    /// The range of a variable-refresh display (VRR: FreeSync, G-Sync, HDMI VRR), if the host knows
    /// it: `nil` (the default) for a fixed refresh.
    ///
    /// It matters with a requested frame-rate range (``FrameLoop/preferredFrameRateRange``): a
    /// variable-refresh display shows each frame as soon as it is presented, so the source paces
    /// the preferred rate directly, by deadline, instead of following the vsync (and a cap just
    /// under the display's maximum, 141 on 144 Hz, keeps the swap chain from filling: each frame
    /// is shown as it comes). Without a requested range, present's own blocking paces the frames
    /// as on any display. A ``DisplayLab`` sets it for its variable displays; SDL 2 does not report
    /// it, so a host that knows sets it.
    public var variableRefreshRange: ClosedRange<FrameRate>? {
        didSet { if variableRefreshRange != oldValue { applyRequestedRange() } }
    }

    /// How long the last present took, in nanoseconds.
    @_spi(FrameSourceImplementation) public private(set) var lastPresentDuration: Int64 = 0

    /// The clock the source reads and sleeps on.
    public var clock: any PacingClock { deadline.clock }

    /// The deadline pacer used when vsync is not honoured.
    @_spi(FrameSourceImplementation) public let deadline: DeadlineSource

    /// Presents the frame; may block until vsync. Called at every frame boundary, and once before
    /// an idle wait so that a frame drawn while no display link is active still reaches the screen.
    @_spi(FrameSourceImplementation) public var present: (@MainActor () -> Void)?

    /// Returns true when input is waiting; checked between idle sleeps so that input wakes the loop.
    @_spi(FrameSourceImplementation) public var inputPending: (@MainActor () -> Bool)? {
        get { deadline.inputPending }
        set { deadline.inputPending = newValue }
    }

    /// How the host's input can wake an idle loop (`SDLHost` sets it); `nil`: polled.
    package var idleInput: (@MainActor () -> _IdleInput)? {
        get { deadline.idleInput }
        set { deadline.idleInput = newValue }
    }

    /// A note appended to ``pacingDescription``, such as where the nominal rate came from
    /// (`"the display reports no refresh rate, 60 Hz assumed"`).
    @_spi(FrameSourceImplementation) public var note: String?
    /// How long the last presents took (16: the window whose median the reasons quote).
    var presentDurations = _Ring(capacity: PresentSource.presentDurationsWindow)
    /// The last frame's timestamp, on the source's timeline (`nil` before the first and after an
    /// idle wait).
    var lastTimestamp: Int64?
    /// What is known of the vsync, and where frames that follow it are shown.
    var tracker: _VsyncTracker
    /// The frames presented back to back to see whether present blocks (``_BackToBackFrames``).
    var backToBack = _BackToBackFrames()
    /// Whether presents that returned at once must have found a FIFO swap chain full: the only
    /// evidence that present does not wait for the vsync.
    var chainFill = _SwapChainFill()

    /// Whether the last frame's timestamp was the return of a present that blocked (the vsync
    /// that released it).
    var lastTimestampWasBlockingReturn = false
    /// The buffers of the presenter's swap chain, if known: 2 (double buffering) unless told. A
    /// present that blocks found the chain full, so its frame is shown `swapChainBuffers - 2`
    /// vsyncs after the one that released it; the swap-chain model needs this to know when a
    /// queued frame covered for a late one. Timing alone cannot tell 2 buffers from 3 (both block
    /// once per vsync); presentation feedback, when reported, overrides it.
    ///
    /// A count outside 2…8 is a programmer error and traps.
    public var swapChainBuffers = 2 {
        didSet {
            precondition(
                (2...8).contains(swapChainBuffers),
                "PresentSource.swapChainBuffers must be 2 (double buffering) to 8, not \(swapChainBuffers)")
        }
    }

    /// The number of times present has been called; a presenter's feedback names frames by it.
    @_spi(FrameSourceImplementation) public private(set) var presentCount: Int64 = 0

    /// Creates a source that calls `present` at every frame boundary.
    ///
    /// - Parameters:
    ///   - displayRefreshRate: The display's nominal rate (60 Hz when unknown).
    ///   - pacing: Automatic detection (default), or a forced mode.
    ///   - clock: The clock to read and sleep on (the system's monotonic clock by default; a
    ///     ``VirtualClock`` or a ``DisplayLab`` in tests).
    ///   - present: Presents the frame; may block until vsync (settable later as `present`).
    public init(
        displayRefreshRate: FrameRate = .hz60, pacing: Pacing = .automatic, clock: (any PacingClock)? = nil,
        present: (@MainActor () -> Void)? = nil
    ) {
        self.displayRefreshRate = displayRefreshRate
        self.pacing = pacing
        self.present = present
        deadline = DeadlineSource(refreshRate: displayRefreshRate, clock: clock)
        tracker = _VsyncTracker(nominalPeriod: displayRefreshRate.periodNanoseconds)
        let state =
            switch pacing {
            case .vsync: PacingState(mode: .vsync, reason: .requested)
            case .deadline: PacingState(mode: .deadline, reason: .requested)
            case .unpaced: PacingState(mode: .unpaced, reason: .requested)
            case .automatic: PacingState(mode: .deadline, reason: .measuring)
            }
        machine = _PacingMachine(state: state)
        announcedState = state
    }

    /// The time since the source was created.
    public var now: FrameInstant { deadline.now }

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

    /// The wait before the present, carried out by the loop's waiter as any wait is (the main queue
    /// served while it sleeps; real-time priority for a deadline's last stretch): while frames go
    /// out on every k-th vsync (a range's divisor, the automatic frame rate's halving), until the
    /// interval before the k-th vsync (a
    /// present on a FIFO swap chain goes out at the first vsync after it is called); while a
    /// requested rate is paced directly on a variable-refresh display, until the frame's paced
    /// time, precisely (the display shows the frame when it is presented, so the present, not only
    /// the frame's start, is held to it: frames whose work varies are still shown evenly). Else
    /// none. Notes what the frame's work cost first (the automatic frame rate may change the
    /// interval).
    @_spi(FrameSourceImplementation) public func presentWait() -> FrameWait {
        guard let lastTimestamp else { return .none }
        noteWorkEnded()
        if mode == .vsync && presentInterval > 1 {
            // Out at the first vsync after the call: called in the interval before the k-th.
            let hold = currentPeriod * Int64(presentInterval - 1) + currentPeriod / Self.holdFraction
            return .sleep(until: FrameInstant(nanoseconds: lastTimestamp + hold))
        } else if pacing == .automatic && showsFramesWhenPresented {
            let target = lastTimestamp + deadline.refreshRate.periodNanoseconds * Int64(presentInterval)
            return .deadline(FrameInstant(nanoseconds: target))
        }
        return .none
    }

    /// Notes what the frame's work cost, once per frame: from its start to now.
    func noteWorkEnded() {
        guard !workCostNoted, lastTimestamp != nil else { return }
        workCostNoted = true
        noteFrameCost(now.nanoseconds - frameStart)
    }

    /// Presents what the last frame drew and times the call (after `presentWait()`'s wait).
    @_spi(FrameSourceImplementation) public func presentFrame() {
        noteWorkEnded()
        previousPresentStart = presentCount > 0 ? presentStart : nil
        presentStart = now.nanoseconds
        // (Reports for this frame may come from inside present: it is frame presentCount + 1.)
        tracker.reports.notePresentCall(at: presentStart, ofFrame: presentCount + 1)
        present?()
        presentCount += 1
        presentEnd = now.nanoseconds
        lastPresentDuration = presentEnd - presentStart
    }

    /// Takes in what the present showed (did it block, where is the vsync grid) and decides the
    /// wait: none after a present that blocked until its vsync, a sleep to the grid's next vsync
    /// after one that did not, a deadline in deadline mode.
    @_spi(FrameSourceImplementation) public func nextFrameWait() -> FrameWait {
        let present = isWindowHidden ? nil : measurePresent()
        let rule = _FrameRule.choose(
            _FrameRule.Facts(
                windowHidden: isWindowHidden, lateOnVariableRefresh: present?.lateOnVariableRefresh ?? false,
                automatic: pacing == .automatic, pacesRequestedRateDirectly: pacesRequestedRateDirectly,
                phaseProbeRuns: machine.phaseProbe != nil, mode: mode, blocked: present?.blocked ?? false,
                keepsNoPhase: tracker.keepsNoPhase, vsyncIsFasterThanDisplay: vsyncIsFasterThanDisplay,
                isProbing: isProbing,
                returnedPastDeadline: lastTimestamp.map { presentEnd >= $0 + deadline.refreshRate.periodNanoseconds }
                    ?? false))
        frameRule = rule
        guard let present else {
            // Hidden: no drop (nothing was to be shown), no measurement, the deadline grid.
            tracker.noteReturn(blockedUntil: nil)
            chainFill.forget()
            backToBack.stop()
            tracker.knownDrops = 0
            tracker.knownTarget = nil
            tracker.knownShownTime = nil
            return pacedByDeadline(framesAfterLast: Int64(presentInterval))
        }
        return wait(following: rule, after: present)
    }

    /// Takes in what the last present showed: whether it blocked, what that says of the swap
    /// chain and the back-to-back frames, and what it (or presentation feedback) tells the vsync
    /// tracker.
    func measurePresent() -> _MeasuredPresent {
        presentDurations.append(lastPresentDuration)
        // A present blocked when it took a good part of a period, or, once a grid is fitted, when
        // it returned on the vsync after its call (called just before one, it waits a moment:
        // latency mode calls it so, and so do frames that cost about a period).
        // **A present with room in the chain did not wait**: one called just before a vsync whose
        // return came just after it (its own cost, a scheduler's delay) was not released by that
        // vsync when the frame before was already shown (a chain of three buffers with room).
        let chainHadRoom = tracker.chainHadRoom(forPresentCalledAt: presentStart, chainDepth: chainDepth)
        let returnedOnVsync =
            tracker.grid.returnsOnVsync(calledAt: presentStart, returnedAt: presentEnd) && !chainHadRoom
        let blocked = _BlockingPresent.blocked(
            duration: lastPresentDuration, period: currentPeriod, returnedOnVsync: returnedOnVsync)
        chainFill.note(
            calledAt: presentStart, blocked: blocked, fastestPeriod: fastestPlausiblePeriod, buffers: swapChainBuffers)
        if let end = backToBack.endsWith(
            present: presentCount, blocked: blocked, chainShowsNoBlock: chainFill.showsPresentDoesNotBlock,
            capped: capsAtDisplayRefreshRate, fastestPeriod: fastestPlausiblePeriod)
        {
            // Frames too slow to fill a chain (or to show it ignores vsync) before the limit:
            // measured again once they are light enough to.
            machine.backToBackFramesEnded(inconclusive: end == .inconclusive)
        }
        let previousShownTime = tracker.knownShownTime
        tracker.knownDrops = nil
        tracker.knownTarget = nil
        tracker.knownShownTime = nil
        // A frame late for a variable-refresh display's fastest refresh is shown when it is
        // presented (or as soon as a refresh the display made on its own allows): its return says
        // nothing about a vsync grid.
        let lateOnVariableRefresh = isLateOnVariableRefresh(previousShownTime: previousShownTime)
        // **A block longer than the chain explains is no vsync's**: a present waits at most for
        // the frames queued ahead of it and its own vsync (the chain's depth plus the present
        // interval, in periods) and a delay; one that blocked longer (a compositor's
        // frame-callback timeout for a hidden window the host was not told of, a modeset's
        // blank) returned at no vsync.
        let longestBlock = (chainDepth + Int64(presentInterval)) * currentPeriod
        let blockIsTheChains =
            !tracker.grid.isUsable
            || lastPresentDuration <= longestBlock + currentPeriod / Self.longestBlockSlackFraction
        // (Read only by a fit from scratch.)
        if !tracker.grid.hasGrid { tracker.grid.explainedVsyncMultiple = explainedVsyncMultiple }
        let relocks = tracker.grid.relocks
        // (Such a return is not offered to the grid, and does not fit it: its frame is timed as a
        // stray's.)
        let fits =
            tracker.take(
                presentEnd: presentEnd, blocked: blocked && !lateOnVariableRefresh && blockIsTheChains,
                variableRefresh: variableRefreshRange, reported: displayRefreshRate)
            && (blockIsTheChains || !blocked)
        lockLog.noteFrame(
            implausibleFits: tracker.grid.implausibleFits, relocksBefore: relocks, relocks: tracker.grid.relocks,
            isPhaseLocked: isPhaseLocked, rate: displayRefreshRate, measuredRate: measuredRefreshRate)
        // A present that blocked although the source chose when it was called (after a deadline
        // wait, or held to a cap): its return may only echo that timing (see the phase probe).
        if blocked { tracker.noteBlockingPresent(callWasPaced: callWasPaced) }
        tracker.noteReturn(blockedUntil: blocked ? presentEnd : nil)
        callWasPaced = false
        lastReturnFits = blocked && fits
        returnOffset = presentEnd - frameStart
        return _MeasuredPresent(
            blocked: blocked, fits: fits, lateOnVariableRefresh: lateOnVariableRefresh,
            previousShownTime: previousShownTime, chainHadRoom: chainHadRoom)
    }

    /// Carries out `rule` (see ``_FrameRule``) for the frame after `present`: the wait, what ends
    /// it, and the drops and shown time known at this boundary.
    func wait(following rule: _FrameRule, after present: _MeasuredPresent) -> FrameWait {
        // The drops of a frame paced by deadline below a variable-refresh display's maximum (`nil`
        // elsewhere: the interval counts them).
        let dropsIfShownAsPresented = dropsShownAsPresented(
            lastShown: present.previousShownTime ?? previousPresentStart)
        switch rule {
        case .hiddenWindow:
            preconditionFailure("a hidden window's frames are paced before any present is measured")
        case .lateOnVariableRefresh:
            guard let display = variableRefreshRange, let lastTimestamp else { return .none }
            tracker.forgetPosition()
            tracker.grid.restartPhase()
            let shown = _VariableRefreshModel.showing(
                presentedAt: presentStart,
                lastShown: present.previousShownTime
                    ?? (mode == .vsync ? lastTimestamp : previousPresentStart ?? lastTimestamp),
                refresh: display)
            tracker.knownDrops = shown.drops
            tracker.knownShownTime = shown.time
            machine.frameLateOnVariableRefresh(
                maximum: display.upperBound, pacesRequestedRateDirectly: pacesRequestedRateDirectly)
            // Timed at the refresh that showed it (a present that blocked for it returns a little
            // after), or at the present's return if the frame still waits to be shown.
            boundary = .restartingDeadline(at: min(shown.time, presentEnd))
            return .none
        case .requestedRateOnVariableRefresh:
            if showsFramesWhenPresented { tracker.knownShownTime = presentEnd }
            tracker.knownDrops = dropsIfShownAsPresented
            return pacedByDeadline(framesAfterLast: Int64(presentInterval))
        case .phaseProbe:
            machine.phaseProbeFrame(blocked: present.blocked) {
                // How far from the grid's vsync the present returned (a return just before one,
                // within the line's error, counts as on it).
                let number = tracker.grid.number(atOrBefore: presentEnd + _VsyncGrid.earlyTolerance)
                return abs(presentEnd - tracker.grid.time(ofNumber: number))
            }
            tracker.knownDrops = dropsIfShownAsPresented
            return pacedByDeadline(framesAfterLast: 1)
        case .unpaced:
            tracker.forgetPosition()
            boundary = .presentEnd
            return .none
        case .backToBack:
            boundary = .presentEnd
            return .none
        case .followVsync:
            let slowOnGrid = tracker.isSlowReturnOnGrid(
                presentStart: presentStart, presentEnd: presentEnd, blocked: present.blocked, fits: present.fits)
            return vsyncWait(
                blocked: present.blocked, fits: present.fits || slowOnGrid, locksDeadline: false,
                chainHadRoom: present.chainHadRoom)
        case .measuringBlockingPresent:
            return vsyncWait(
                blocked: present.blocked, fits: present.fits, locksDeadline: true, chainHadRoom: present.chainHadRoom)
        case .heldPastDeadline:
            tracker.forgetPosition()
            boundary = .restartingDeadline(at: presentEnd)
            return .none
        case .deadline:
            tracker.knownDrops = dropsIfShownAsPresented
            return pacedByDeadline(framesAfterLast: Int64(presentInterval))
        }
    }

    /// Frames paced by the deadline grid, `framesAfterLast` of its points after the last frame: off
    /// the vsync grid, the call timed by the source.
    func pacedByDeadline(framesAfterLast frames: Int64) -> FrameWait {
        tracker.forgetPosition()
        boundary = .deadline
        callWasPaced = true
        return deadline.deadlineWait(framesAfterLast: frames)
    }

    /// An idle wait until `deadline` or input.
    @_spi(FrameSourceImplementation) public func idleWait(until deadline: FrameInstant?) -> FrameWait {
        boundary = .idle
        return .idle(until: deadline)
    }

    /// The frame's timestamp, now that the wait is over: the vsync of the grid in vsync mode, the
    /// deadline reached in deadline mode.
    @_spi(FrameSourceImplementation) public func beginFrame(at instant: FrameInstant) -> FrameInstant {
        let timestamp: Int64
        switch boundary {
        case .presentEnd:
            timestamp = presentEnd
        case .restartingDeadline(let time):
            timestamp = time
            deadline.lockGrid(to: FrameInstant(nanoseconds: time))
        case .deadline:
            timestamp = instant.nanoseconds
        case .now(_, let locksDeadline):
            timestamp = instant.nanoseconds
            if locksDeadline { deadline.lockGrid(to: FrameInstant(nanoseconds: timestamp)) }
        case .vsync(let called, let number, let blocked, let locksDeadline):
            timestamp = vsyncTimestamp(called: called, number: number, blocked: blocked)
            if locksDeadline { deadline.lockGrid(to: FrameInstant(nanoseconds: timestamp)) }
        case .idle:
            let woke = instant
            deadline.noteIdleEnded(at: woke)
            lastTimestamp = nil
            lastTimestampWasBlockingReturn = false
            tracker.forgetReturns()
            backToBack.forgetCosts()
            tracker.forgetPosition()
            tracker.knownDrops = nil
            tracker.knownTarget = nil
            announcePacingState()
            return woke
        }
        lastTimestamp = timestamp
        lastTimestampWasBlockingReturn = boundary.isBlockingReturn
        if pacing == .automatic { detect() }
        announcePacingState()
        return FrameInstant(nanoseconds: timestamp)
    }

    /// Notes when the frame's work began (after a latency-mode wait): frame costs, for the
    /// automatic frame rate and the phase probe, run from here.
    @_spi(FrameSourceImplementation) public func beginWork(at instant: FrameInstant) {
        frameStart = instant.nanoseconds
        workCostNoted = false
    }

    /// Remembers the loop (for its deadline pacer).
    @_spi(FrameSourceImplementation) public func attach(to loop: FrameLoop) {
        deadline.attach(to: loop)
    }

    /// `frames` vsyncs of the grid after `timestamp` while frames follow it; else `frames` periods
    /// of the effective rate.
    @_spi(FrameSourceImplementation) public func expectedTimestamp(frames: Int64, after timestamp: FrameInstant)
        -> FrameInstant
    {
        if tracker.followsGrid {
            let number = tracker.grid.number(atOrBefore: timestamp.nanoseconds + _VsyncGrid.earlyTolerance)
            return FrameInstant(nanoseconds: tracker.grid.time(ofNumber: number + frames * Int64(presentInterval)))
        }
        let rate = refreshRate
        return FrameInstant(nanoseconds: timestamp.nanoseconds + rate.offsetNanoseconds(ofFrame: frames))
    }

    /// Whether the source chose when the last present was called (a deadline wait or a hold before
    /// it), and the frames since a present so called blocked (up to the grid's window).
    var callWasPaced = false
    /// Whether the last present blocked and its return fitted the grid.
    var lastReturnFits = false
    /// When the last frame's work began (`beginWork(at:)`), and how long after that its present
    /// returned.
    var frameStart: Int64 = 0
    /// Whether the current frame's work cost was noted (by `presentWait()` or `presentFrame()`).
    var workCostNoted = false
    var returnOffset: Int64 = 0
    /// What the log last said about the vsync lock.
    var lockLog = _VsyncLockLog()
}

extension PresentSource: _IdleInputWatching {}
