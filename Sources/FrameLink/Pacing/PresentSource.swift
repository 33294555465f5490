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
/// screen (``reportPresentation(ofFrame:at:)``), those times replace the present returns.
///
/// While pacing is ``Pacing/automatic`` the source keeps checking what present does (windows get
/// moved to another display; the host says when one is hidden, ``isWindowHidden``):
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
/// row start the fit again (``vsyncRelocks``), and it re-locks within about a dozen frames.
///
/// The chosen mode and the reason are in ``mode`` and ``reason``, and in every statistics report.
///
/// **Frame-rate ranges** (``requestFrameRate(in:)``, from ``FrameLoop/preferredFrameRateRange``):
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

    /// The requested pacing. Changing it takes effect at the next frame.
    public var pacing: Pacing {
        didSet { applyRequestedPacing() }
    }

    /// The current mode and why: typed, for a game to switch on (see ``PacingReason``).
    ///
    /// Changes are told to ``onPacingStateChange`` at the next frame boundary.
    public var pacingState: PacingState { machine.state }

    /// The automatic pacing's decisions (a state machine: see ``_PacingMachine``).
    private var machine: _PacingMachine

    /// Called on the main actor when ``pacingState`` has changed, at the start of the first frame
    /// after the change (never from inside the source's own bookkeeping, so the callback may set
    /// ``pacing`` or any other property). A state that changes and changes back within a frame is
    /// not told.
    public var onPacingStateChange: (@MainActor (PacingState) -> Void)?

    /// The state last told to ``onPacingStateChange``.
    private var announcedState: PacingState

    /// The current mode.
    public var mode: Mode { pacingState.mode }

    /// Why the source is in its current mode, in a sentence, such as
    /// `"present returned in 0.05 ms, vsync not honoured"` (rendered from ``pacingState``: read
    /// its ``PacingState/reason`` to decide anything).
    public var reason: String { pacingState.description }

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
            let presentWasSlow = returnsFollowFrames
            returnsFollowFrames = false
            machine.displayChanged()
            pacedReturns.removeAll()
            if presentWasSlow { keepsNoPhase = false }
            // The grid still measures the old display until returns stop fitting it and it
            // re-locks: the rate is judged again from the next fit, not from it. A fit whose rate
            // is not the new display's is dropped at once: returns of a display at half its rate
            // would go on fitting every 2nd line while their phase drifted off it.
            rateVerdict.displayChanged(relocks: grid.relocks)
            if grid.hasGrid && _VsyncRateVerdict.isAnotherDisplay(period: grid.period, reported: displayRefreshRate) {
                grid.relockForAnotherDisplay()
            }
            grid.nominalPeriod = displayRefreshRate.periodNanoseconds
            chainFill.forget()
            measuredRefreshRate = nil
            if mode == .deadline && (!grid.isUsable || presentWasSlow) {
                deadline.refreshRate = displayRefreshRate
            }
            if requestedRange != nil { applyRequestedRange() }
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
    /// paced by deadline at that rate.
    public var capsAtDisplayRefreshRate = false

    /// The refresh rate measured from the vsync grid (to a thousandth of a hertz), once the returns
    /// of blocking presents fit one.
    public private(set) var measuredRefreshRate: FrameRate?

    /// Whether the source halves the frame rate while frames run over budget (off by default).
    public var automaticFrameRate = false {
        didSet {
            if !automaticFrameRate { apply(autoFrameRate.turnOff(), back: "automatic frame rate turned off") }
        }
    }

    /// The vsyncs from one present to the next while frames follow the vsync: 1 (every vsync), the
    /// divisor chosen for a requested frame-rate range (``requestFrameRate(in:)``), doubled while
    /// auto frame rate has halved the rate. In deadline mode, 2 while auto frame rate has halved
    /// the rate, else 1 (a requested range is then in the deadline grid's rate).
    public var presentInterval: Int {
        (mode == .vsync ? rangeInterval : 1) * (halvesRate ? 2 : 1)
    }

    /// The automatic frame rate's state.
    private var autoFrameRate = _AutoFrameRate()

    /// Whether auto frame rate has halved the rate.
    private var halvesRate: Bool { autoFrameRate.isHalved }

    /// The vsyncs per frame chosen for the requested range while frames follow the vsync (1
    /// without one, or while the range is paced directly), for the display's rate (measured when
    /// known). Chosen again only when that rate moves by more than 0.5 % (another display): a
    /// measurement that wobbles in its last digits never changes the cadence.
    private var rangeInterval: Int {
        guard let requestedRange, !pacesRequestedRateDirectly else { return 1 }
        return rangeChoice(requestedRange).interval
    }

    /// The divisor of the display's rate for `range`, and the rate it was chosen for.
    private func rangeChoice(_ range: FrameRateRange) -> (base: FrameRate, interval: Int) {
        let base = measuredRefreshRate ?? displayRefreshRate
        if let cached = rangeIntervalCache, base.isClose(to: cached.base) { return cached }
        let chosen = (base, range.divisor(dividing: base).divisor)
        rangeIntervalCache = chosen
        return chosen
    }
    private var rangeIntervalCache: (base: FrameRate, interval: Int)?

    /// The requested frame-rate range (``requestFrameRate(in:)``).
    private var requestedRange: FrameRateRange?

    /// Whether the window is hidden or minimized, as the host learns from the window system
    /// (SDLHost sets it from SDL's window events): `false` unless told.
    ///
    /// A hidden window's presents show nothing, and how they return says nothing about the
    /// display: under X11 they return at once, which looks like a swap chain with room; under
    /// Wayland they may wait for frame callbacks that stop coming. So while it is hidden the
    /// source does not measure: frames keep the display's rate and phase (the vsync grid's, when
    /// one is known) on a deadline, no drop is counted (nothing was to be shown), and when it is
    /// shown again the swap-chain model starts afresh from the first frame shown.
    public var isWindowHidden = false {
        didSet {
            guard isWindowHidden != oldValue, isWindowHidden, let lastTimestamp else { return }
            if let measuredRefreshRate, grid.isUsable, !vsyncIsFasterThanDisplay, !keepsNoPhase {
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

    /// Whether frames are paced directly at a requested rate: a requested range on a
    /// variable-refresh display, while pacing is automatic or deadline (forced vsync divides the
    /// display's maximum instead; pacing off ignores ranges).
    private var pacesRequestedRateDirectly: Bool {
        requestedRange != nil && variableRefreshRange != nil && (pacing == .automatic || pacing == .deadline)
    }

    /// Whether a requested rate below a variable-refresh display's maximum is paced directly (see
    /// ``variableRefreshRange``): the display then shows each frame as it is presented. (At the
    /// maximum, a frame may wait for the display's next refresh.)
    private var showsFramesWhenPresented: Bool {
        guard pacesRequestedRateDirectly, let display = variableRefreshRange else { return false }
        return deadline.refreshRate < display.upperBound
    }

    /// Whether the frame just presented on a variable-refresh display (``variableRefreshRange``)
    /// came late (``_VariableRefreshModel``), while pacing is automatic and no phase probe runs:
    /// the display shows it when it is presented, and it is not a drop.
    private var isLateOnVariableRefresh: Bool {
        guard let display = variableRefreshRange, pacing == .automatic, machine.phaseProbe == nil,
            let lastTimestamp
        else { return false }
        return _VariableRefreshModel.isLate(
            presentStart: presentStart, lastTimestamp: lastTimestamp,
            pacedPeriod: pacesRequestedRateDirectly ? deadline.refreshRate.periodNanoseconds : currentPeriod,
            interval: Int64(presentInterval), refresh: display)
    }

    /// When the frame presented at the last boundary is shown, on the source's timeline, if known.
    private var knownShownTime: Int64?

    /// When the frame presented at the last boundary reached, or will reach, the screen: the vsync
    /// the swap-chain model (or presentation feedback) puts it on while frames follow the vsync
    /// grid; the moment present returned while a requested rate below a variable-refresh display's
    /// maximum is paced directly; else `nil`.
    public var shownAtLastBoundary: FrameInstant? { knownShownTime.map { FrameInstant(nanoseconds: $0) } }

    /// How long the last present took, in nanoseconds.
    public private(set) var lastPresentDuration: Int64 = 0

    /// The clock the source reads and sleeps on.
    public var clock: any PacingClock { deadline.clock }

    /// The deadline pacer used when vsync is not honoured.
    public let deadline: DeadlineSource

    /// Presents the frame; may block until vsync. Called at every frame boundary, and once before
    /// an idle wait so that a frame drawn while no display link is active still reaches the screen.
    public var present: (@MainActor () -> Void)?

    /// Returns true when input is waiting; checked between idle sleeps so that input wakes the loop.
    public var inputPending: (@MainActor () -> Bool)? {
        get { deadline.inputPending }
        set { deadline.inputPending = newValue }
    }

    /// A note appended to ``pacingDescription``, such as where the nominal rate came from
    /// (`"the display reports no refresh rate, 60 Hz assumed"`).
    public var note: String?
    private var presentDurations = _Ring(capacity: 16)
    private var lastTimestamp: Int64?
    /// The vsync grid fitted to blocking presents' returns (or to presentation feedback).
    private var grid: _VsyncGrid
    /// The grid's relock count when the numbers below were taken: a relock renumbers the grid.
    private var gridGeneration = 0
    /// Where presented frames are shown on the grid, while frames follow it.
    private var swapChain = _SwapChainModel()
    private var knownDrops: Int?
    private var knownTarget: Int64?
    /// Presentation feedback, checked where it enters, not yet taken in.
    private var reports = _PresentationReports()
    /// Reports ignored as implausible (see ``reportPresentation(ofFrame:at:)``).
    var ignoredReports: Int { reports.ignored }
    /// The newest report taken into the grid and not yet placed on it.
    private var newestReport: (frame: Int64, time: Int64)?
    /// The frames presented back to back to see whether present blocks (``_BackToBackFrames``).
    private var backToBack = _BackToBackFrames()
    /// Whether the first frames are still presented back to back.
    private var isProbing: Bool { backToBack.isRunning }
    /// Whether presents that returned at once must have found a FIFO swap chain full: the only
    /// evidence that present does not wait for the vsync.
    private var chainFill = _SwapChainFill()

    /// Whether frames may go back to back to measure again whether present blocks: the last frames
    /// were light (``_BackToBackFrames``), and no cap, requested range or halved rate holds them
    /// (back-to-back frames would exceed it).
    private var mayMeasureAgain: Bool {
        backToBack.framesAreLight(period: displayRefreshRate.periodNanoseconds) && !capsAtDisplayRefreshRate
            && requestedRange == nil && !halvesRate
    }
    /// Whether the last frame's timestamp was the return of a present that blocked (the vsync
    /// that released it).
    private var lastTimestampWasBlockingReturn = false
    /// Whether the returns of blocking presents were found to keep no phase (an emulated vsync),
    /// and have not been judged phase-stable since: such a present never paces frames itself.
    private var keepsNoPhase = false

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

    private var chainDepth: Int64 { Int64(swapChainBuffers - 2) }

    /// The number of times present has been called; a presenter's feedback names frames by it.
    public private(set) var presentCount: Int64 = 0

    /// Whether the presenter has reported when frames reached the screen
    /// (``reportPresentation(ofFrame:at:)``): the grid then follows those times.
    public var receivesPresentationFeedback: Bool { reports.receivesFeedback }

    /// Whether the frame's timestamp is a phase-locked vsync: frames follow the vsync grid, and its
    /// line is pinned within 50 µs in every quarter of the window of returns and the fit is
    /// precise to about 20 µs (a window long enough for its delays), so each `timestamp` is within
    /// a few tens of microseconds of the true vsync. A return the grid cannot explain ends the
    /// lock; so does a frame timed otherwise (a deadline, the phase probe's moved frames, a
    /// hidden window), whatever the grid knows meanwhile.
    public var isPhaseLocked: Bool { grid.isPhaseLocked && swapChain.lastVsyncNumber != nil }

    /// Whether the frame's timestamp is a vsync of a usable grid (the frame follows the grid),
    /// locked or not yet: what the pacing sweep judges against the true vsync.
    package var timestampFollowsVsync: Bool { grid.isUsable && swapChain.lastVsyncNumber != nil }

    /// How many times the vsync grid was fitted again because returns stopped fitting it (a move
    /// to a display with another rate, a hide and show that moved the phase).
    public var vsyncRelocks: Int { grid.relocks }

    /// Creates a source that calls `present` at every frame boundary.
    ///
    /// - Parameters:
    ///   - displayRefreshRate: The display's nominal rate (60 Hz when unknown).
    ///   - pacing: Automatic detection (default), or a forced mode.
    ///   - clock: The clock to read and sleep on (the system's monotonic clock by default; a
    ///     ``VirtualClock`` or a ``DisplayLab`` in tests).
    ///   - present: Presents the frame; may block until vsync (settable later as ``present``).
    public init(
        displayRefreshRate: FrameRate = .hz60, pacing: Pacing = .automatic, clock: (any PacingClock)? = nil,
        present: (@MainActor () -> Void)? = nil
    ) {
        self.displayRefreshRate = displayRefreshRate
        self.pacing = pacing
        self.present = present
        deadline = DeadlineSource(refreshRate: displayRefreshRate, clock: clock)
        grid = _VsyncGrid(nominalPeriod: displayRefreshRate.periodNanoseconds)
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

    /// The effective frame rate: the display's (measured when known) divided by ``presentInterval``
    /// while frames follow the vsync; the deadline grid's rate (a requested range's, when one is
    /// requested) divided by it in deadline mode.
    public var refreshRate: FrameRate {
        let base = mode == .vsync ? (measuredRefreshRate ?? displayRefreshRate) : deadline.refreshRate
        return base.divided(by: presentInterval)
    }

    /// Paces frames at a rate in `range`, or as the display goes again for `nil`
    /// (``FrameLoop/preferredFrameRateRange`` calls it):
    /// - while frames follow a fixed vsync, the present goes out on every k-th vsync, the k that
    ///   puts the display's rate in the range closest to the preferred rate (30 on 60 Hz, 72 on
    ///   144 Hz for 60–90 Hz preferring 72, 48 on 144 Hz for 40–50 Hz);
    /// - on a variable-refresh display (``variableRefreshRange``), frames are paced by deadline at
    ///   the preferred rate (never above the display's maximum), and the display shows each as it
    ///   comes;
    /// - in deadline mode (no vsync honoured), the deadline grid runs at the preferred rate.
    public func requestFrameRate(in range: FrameRateRange?) {
        guard range != requestedRange else { return }
        requestedRange = range
        applyRequestedRange()
    }

    /// The rate chosen for the requested range and why, for the current mode; `nil` while none
    /// is requested, and while pacing is off.
    public var frameRateChoice: FrameRateChoice? {
        guard let requestedRange, mode != .unpaced else { return nil }
        if mode == .vsync && !pacesRequestedRateDirectly {
            return requestedRange.choice(
                dividing: measuredRefreshRate ?? displayRefreshRate, by: rangeChoice(requestedRange).interval)
        }
        return deadline.frameRateChoice
    }

    /// Applies the requested range: the vsync divisor is chosen afresh, and the deadline grid
    /// (see ``applyDeadlineRange()``).
    private func applyRequestedRange() {
        rangeIntervalCache = nil
        if pacesRequestedRateDirectly, let range = requestedRange, let display = variableRefreshRange {
            applyDeadlineRange()
            if pacing == .automatic {
                let choice = deadline.frameRateChoice ?? range.choice(onVariableRefresh: display)
                let before = mode
                machine.rangePacedDirectly(choice)
                if mode != before { modeDidChange(from: before) }
                if let lastTimestamp { deadline.lockGrid(to: FrameInstant(nanoseconds: lastTimestamp)) }
            }
            return
        }
        if pacing == .automatic {
            // No longer paced directly (the range or the variable refresh is gone): measure again.
            machine.rangeNoLongerPacedDirectly()
        }
        applyDeadlineRange()
    }

    /// The deadline grid's rate for the requested range on a fixed display: the same division of
    /// the display's rate as under vsync once a vsync was seen (a hidden window keeps its cadence),
    /// else the preferred rate directly but never above the display's rate.
    private func applyDeadlineRange() {
        guard let range = requestedRange else {
            deadline.apply(nil)
            return
        }
        if pacesRequestedRateDirectly, let display = variableRefreshRange {
            deadline.apply(range.choice(onVariableRefresh: display))
        } else if measuredRefreshRate != nil && grid.isUsable && !keepsNoPhase && !returnsFollowFrames
            && !vsyncIsFasterThanDisplay
        {
            let chosen = rangeChoice(range)
            deadline.apply(range.choice(dividing: chosen.base, by: chosen.interval))
        } else {
            deadline.apply(range.directChoice(atMost: displayRefreshRate))
        }
    }

    /// The time since the source was created.
    public var now: FrameInstant { deadline.now }

    /// What ends the wait and gives the frame its timestamp, decided by ``nextFrameWait()`` or
    /// ``idleWait(until:)`` and carried out by ``beginFrame(at:)``.
    private enum Boundary {
        /// The moment present returned (pacing off, start-up probing).
        case presentEnd
        /// A given moment, where the deadline grid restarts: when present returned, after an
        /// emulated vsync held the frame past its deadline; when a variable-refresh display showed
        /// a late frame.
        case restartingDeadline(at: Int64)
        /// The deadline the loop waited for.
        case deadline
        /// Now, before a vsync grid is fitted (the return of a present that `blocked`, or a sleep
        /// to where the next vsync should be); the deadline grid follows it while still measuring.
        case now(blocked: Bool, locksDeadline: Bool)
        /// Vsync `number` of the grid, for a present called in vsync `called`'s interval.
        case vsync(called: Int64, number: Int64, blocked: Bool, locksDeadline: Bool)
        /// The end of an idle wait.
        case idle
    }

    private var boundary = Boundary.presentEnd
    /// When the last present started and returned, on the source's timeline.
    private var presentStart: Int64 = 0
    private var presentEnd: Int64 = 0

    /// The mode, the rate and the reason, for reports.
    public var pacingDescription: String {
        var text: String
        switch mode {
        case .vsync:
            let rate = measuredRefreshRate.map { "\($0) measured" } ?? "\(displayRefreshRate) nominal"
            let lock = grid.isPhaseLocked ? ", phase-locked" : ""
            let feedback = receivesPresentationFeedback ? ", presentation feedback" : ""
            text = "vsync (\(rate)\(lock)\(feedback)): \(pacingState)"
        case .deadline:
            text = "deadline \(deadline.refreshRate): \(pacingState)"
            if let schedulingNote = deadline.schedulingNote { text += "; \(schedulingNote)" }
        case .unpaced:
            text = "unpaced: \(pacingState)"
        }
        if grid.relocks > 0 {
            text += "; vsync re-locked \(grid.relocks)× after returns stopped fitting the grid"
        }
        if !pacesRequestedRateDirectly, let choice = frameRateChoice {
            text += "; frame-rate range \(choice.range): \(choice.rate), \(choice.reason)"
        }
        if case .halved(let cost, let budget) = autoFrameRate.state {
            text +=
                "; presenting every \(halvedCadence): frame cost \(Milliseconds(cost)) ms over the "
                + "\(Milliseconds(budget)) ms budget"
        }
        if let note { text += " (\(note))" }
        if clock.sleepsInRealTime, let mainQueueNote = MainQueueDrain.note { text += "; \(mainQueueNote)" }
        return text
    }

    /// When the frame being built will be shown, while frames follow the vsync grid.
    public var targetTimestamp: FrameInstant? {
        knownTarget.map { FrameInstant(nanoseconds: $0) }
    }

    /// The refreshes the display missed before the frame just presented, from the swap-chain model,
    /// while frames follow the vsync grid.
    public var droppedFramesAtLastBoundary: Int? { knownDrops }

    /// Tells the source when frame `frame` (counted by ``presentCount``) reached the screen, on the
    /// source's timeline (its ``now``): presentation feedback, as Wayland's presentation-time
    /// `presented` event, `GLX_OML_sync_control`'s UST, or `VK_GOOGLE_display_timing` give it.
    ///
    /// Once feedback arrives, the vsync grid is fitted to these exact times instead of to the
    /// jittery returns of present. A report is data from outside (a compositor, a driver), checked
    /// where it enters, and ignored when it cannot be true: for a frame after the one being
    /// presented, for a frame already reported or out of order, at a time before the source's
    /// start, before the frame's present was called, not after the last report, or more than 1 ms
    /// ahead of now.
    ///
    /// - Parameters:
    ///   - frame: The frame's number: the value of ``presentCount`` after its present.
    ///   - instant: When it reached the screen, on the source's timeline.
    public func reportPresentation(ofFrame frame: Int64, at instant: FrameInstant) {
        _ = reports.accept(frame: frame, at: instant.nanoseconds, now: now.nanoseconds, presentCount: presentCount)
    }

    /// ``reportPresentation(ofFrame:at:)`` with a time on the source's clock (a ``DisplayLab``'s).
    func reportPresentation(ofFrame frame: Int64, atClockNanoseconds time: Int64) {
        reportPresentation(ofFrame: frame, at: FrameInstant(nanoseconds: time - epochNanoseconds))
    }

    // MARK: Present, wait, timestamp

    /// Presents what the last frame drew and times the call. While auto frame rate presents on
    /// every 2nd vsync, the present is held until the vsync in between has passed (a present on a
    /// FIFO swap chain goes out at the first vsync after it is called).
    public func presentFrame() {
        if let lastTimestamp {
            noteFrameCost(now.nanoseconds - frameStart)
            if mode == .vsync && presentInterval > 1 {
                // Out at the first vsync after the call: called in the interval before the k-th.
                let hold = currentPeriod * Int64(presentInterval - 1) + currentPeriod / 2
                clock.sleep(untilNanoseconds: epochNanoseconds + lastTimestamp + hold)
            } else if pacing == .automatic && showsFramesWhenPresented {
                // A requested rate on a variable-refresh display: the display shows the frame when
                // it is presented, so the present (not only the frame's start) is held to the paced
                // time, the frame's target: frames whose work varies are still shown evenly.
                let target = lastTimestamp + deadline.refreshRate.periodNanoseconds * Int64(presentInterval)
                clock.sleep(untilNanoseconds: epochNanoseconds + target)
            }
        }
        presentStart = now.nanoseconds
        // (Reports for this frame may come from inside present: it is frame presentCount + 1.)
        reports.notePresentCall(at: presentStart, ofFrame: presentCount + 1)
        present?()
        presentCount += 1
        presentEnd = now.nanoseconds
        lastPresentDuration = presentEnd - presentStart
    }

    /// Takes in what the present showed (did it block, where is the vsync grid) and decides the
    /// wait: none after a present that blocked until its vsync, a sleep to the grid's next vsync
    /// after one that did not, a deadline in deadline mode.
    public func nextFrameWait() -> FrameWait {
        if isWindowHidden {
            // Nothing is shown: a present's return says nothing (X11's returns at once, Wayland's
            // may wait for frame callbacks that never come), nothing is dropped, and frames keep
            // the display's rate and phase on the deadline grid.
            chainFill.forget()
            backToBack.stop()
            forgetGridPosition()
            knownDrops = 0
            knownTarget = nil
            knownShownTime = nil
            boundary = .deadline
            callWasPaced = true
            return deadline.deadlineWait(framesAfterLast: Int64(presentInterval))
        }
        presentDurations.append(lastPresentDuration)
        // A present blocked when it took a good part of a period, or, once a grid is fitted, when
        // it returned on the vsync after its call (called just before one, it waits a moment:
        // latency mode calls it so, and so do frames that cost about a period).
        let returnedOnVsync = grid.returnsOnVsync(calledAt: presentStart, returnedAt: presentEnd)
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
        let previousShownTime = knownShownTime
        knownDrops = nil
        knownTarget = nil
        knownShownTime = nil
        // A frame late for a variable-refresh display's fastest refresh is shown when it is
        // presented (or as soon as a refresh the display made on its own allows): its return says
        // nothing about a vsync grid.
        let lateOnVariableRefresh = isLateOnVariableRefresh
        // (Read only by a fit from scratch.)
        if !grid.hasGrid { grid.explainedVsyncMultiple = explainedVsyncMultiple }
        let relocks = grid.relocks
        let fits = feedGrid(presentEnd: presentEnd, blocked: blocked && !lateOnVariableRefresh)
        lockLog.noteFrame(
            implausibleFits: grid.implausibleFits, relocksBefore: relocks, relocks: grid.relocks,
            isPhaseLocked: grid.isPhaseLocked, rate: displayRefreshRate, measuredRate: measuredRefreshRate)
        // A present that blocked although the source chose when it was called (after a deadline
        // wait, or held to a cap): its return may only echo that timing (see the phase probe).
        if blocked { pacedReturns.append(callWasPaced) }
        callWasPaced = false
        lastReturnFits = blocked && fits
        returnOffset = presentEnd - frameStart

        if lateOnVariableRefresh, let display = variableRefreshRange, let lastTimestamp {
            // The display waited for the frame: it was not dropped unless the display refreshed on
            // its own meanwhile (its slowest rate ran out). The next frame starts at once, and the
            // display's refreshes take the late frame's phase.
            forgetGridPosition()
            grid.restartPhase()
            let shown = _VariableRefreshModel.showing(
                presentedAt: presentStart, lastShown: previousShownTime ?? lastTimestamp, refresh: display)
            knownDrops = shown.drops
            knownShownTime = shown.time
            machine.frameLateOnVariableRefresh(
                maximum: display.upperBound, pacesRequestedRateDirectly: pacesRequestedRateDirectly)
            // Timed at the refresh that showed it (a present that blocked for it returns a little
            // after), or at the present's return if the frame still waits to be shown.
            boundary = .restartingDeadline(at: min(shown.time, presentEnd))
            return .none
        }
        if pacesRequestedRateDirectly && pacing == .automatic {
            // A requested rate on a variable-refresh display: the deadline grid paces it, and the
            // display shows each frame as it comes.
            if showsFramesWhenPresented { knownShownTime = presentEnd }
            forgetGridPosition()
            boundary = .deadline
            callWasPaced = true
            return deadline.deadlineWait(framesAfterLast: Int64(presentInterval))
        }
        if machine.phaseProbe != nil, pacing == .automatic, mode == .deadline {
            // The phase probe: paced by deadline, off the grid; returns that do not fit are noted.
            machine.phaseProbeFrame(blocked: blocked) {
                // How far from the grid's vsync the present returned (a return just before one,
                // within the line's error, counts as on it).
                let number = grid.number(atOrBefore: presentEnd + _VsyncGrid.earlyTolerance)
                return abs(presentEnd - grid.time(ofNumber: number))
            }
            forgetGridPosition()
            boundary = .deadline
            callWasPaced = true
            return deadline.deadlineWait(framesAfterLast: 1)
        }
        switch mode {
        case .unpaced:
            forgetGridPosition()
            boundary = .presentEnd
            return .none
        case .vsync:
            // One slow return (a long tail of the delay) is a stray for the fit, but its frame is
            // still on the grid: timed by the vsync before it, not by the raw return.
            let slowOnGrid =
                blocked && !fits && swapChain.lastVsyncNumber != nil && grid.isSlowReturnOnTheLine(presentEnd)
            return vsyncWait(blocked: blocked, fits: fits || slowOnGrid, locksDeadline: false)
        case .deadline:
            if pacing == .automatic && blocked && !keepsNoPhase && !vsyncIsFasterThanDisplay {
                // Still measuring: a present that blocks paces the frames itself.
                return vsyncWait(blocked: blocked, fits: fits, locksDeadline: true)
            } else if pacing == .automatic && isProbing {
                // The first frames go back to back: a swap chain with room for queued frames fills,
                // and a present that blocks shows itself; paced by deadline, it never would.
                boundary = .presentEnd
                return .none
            } else if blocked && (vsyncIsFasterThanDisplay || keepsNoPhase), let lastTimestamp,
                presentEnd >= lastTimestamp + deadline.refreshRate.periodNanoseconds
            {
                // An emulated vsync's present held the frame past its deadline: the frame starts
                // now and the grid restarts from it (a cap, not a grid the emulation cannot keep),
                // rather than waiting for the next grid point and dropping a frame that was not late.
                forgetGridPosition()
                boundary = .restartingDeadline(at: presentEnd)
                return .none
            } else {
                forgetGridPosition()
                boundary = .deadline
                callWasPaced = true
                return deadline.deadlineWait(framesAfterLast: Int64(presentInterval))
            }
        }
    }

    /// An idle wait until `deadline` or input.
    public func idleWait(until deadline: FrameInstant?) -> FrameWait {
        boundary = .idle
        return .idle(until: deadline)
    }

    /// The frame's timestamp, now that the wait is over: the vsync of the grid in vsync mode, the
    /// deadline reached in deadline mode.
    public func beginFrame(at instant: FrameInstant) -> FrameInstant {
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
            backToBack.forgetCosts()
            forgetGridPosition()
            knownDrops = nil
            knownTarget = nil
            announcePacingState()
            return woke
        }
        lastTimestamp = timestamp
        switch boundary {
        case .now(let blocked, _), .vsync(_, _, let blocked, _): lastTimestampWasBlockingReturn = blocked
        default: lastTimestampWasBlockingReturn = false
        }
        if pacing == .automatic { detect() }
        announcePacingState()
        return FrameInstant(nanoseconds: timestamp)
    }

    /// Tells ``onPacingStateChange`` of a state that changed since it was last told.
    private func announcePacingState() {
        guard pacingState != announcedState else { return }
        announcedState = pacingState
        onPacingStateChange?(pacingState)
    }

    /// Notes when the frame's work began (after a latency-mode wait): frame costs, for the
    /// automatic frame rate and the phase probe, run from here.
    public func beginWork(at instant: FrameInstant) {
        frameStart = instant.nanoseconds
    }

    /// Remembers the loop (for its deadline pacer).
    public func attach(to loop: FrameLoop) {
        deadline.attach(to: loop)
    }

    /// `frames` vsyncs of the grid after `timestamp` while frames follow it; else `frames` periods
    /// of the effective rate.
    public func expectedTimestamp(frames: Int64, after timestamp: FrameInstant) -> FrameInstant {
        if swapChain.lastVsyncNumber != nil {
            let number = grid.number(atOrBefore: timestamp.nanoseconds + _VsyncGrid.earlyTolerance)
            return FrameInstant(nanoseconds: grid.time(ofNumber: number + frames * Int64(presentInterval)))
        }
        let rate = refreshRate
        return FrameInstant(nanoseconds: timestamp.nanoseconds + rate.offsetNanoseconds(ofFrame: frames))
    }

    // MARK: The vsync grid

    /// The period frames are paced at now: the vsync's in vsync mode, the deadline grid's else.
    private var currentPeriod: Int64 {
        (mode == .vsync ? (measuredRefreshRate ?? displayRefreshRate) : deadline.refreshRate).periodNanoseconds
    }

    /// The clock's reading at the source's time zero (its deadline pacer's).
    public var epochNanoseconds: Int64 { deadline.epochNanoseconds }

    /// Offers the grid what is known of the vsync: reported presentation times, or else the
    /// return of a present that blocked.
    /// Returns whether the present's return fits the grid (true with feedback, which does not
    /// depend on it).
    private func feedGrid(presentEnd: Int64, blocked: Bool) -> Bool {
        var fits = true
        if receivesPresentationFeedback {
            absorbReports()
        } else if blocked {
            fits = grid.add(returnTime: presentEnd)
        }
        if grid.relocks != gridGeneration {
            gridGeneration = grid.relocks
            forgetGridPosition()
        }
        // (Not from the old display's fit after a display change: see _VsyncRateVerdict.)
        if grid.hasGrid && grid.isStable != false && rateVerdict.isCurrentDisplays(relocks: grid.relocks) {
            // (The grid keeps only fits a display can have: see _VsyncGrid.plausiblePeriods.)
            if let rate = grid.measuredRate { measuredRefreshRate = rate }
        }
        if grid.hasGrid {
            rateVerdict.judge(
                period: grid.period, relocks: grid.relocks, reported: displayRefreshRate,
                returnsWerePaced: returnsWerePaced)
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

    /// Takes in the reported presentations: the vsync of the grid each reported frame was shown
    /// on, the newest noted in the swap-chain model (`_SwapChainModel`) to place the frames after it.
    /// (Drops are the model's, counted where it shows each frame: a report corrects where frames
    /// are shown, and a drop is booked at the boundary where the model knows of it, not when the
    /// report arrives a frame or two later, in an interval too short to hold it.)
    private func takeReports() {
        absorbReports()
        guard let newest = newestReport else { return }
        swapChain.noteReport(
            frame: newest.frame, shownOn: grid.number(atOrBefore: newest.time + _VsyncGrid.earlyTolerance))
        newestReport = nil
    }

    /// Fits the grid to the reports that came in, and keeps the newest to place the model's frames.
    private func absorbReports() {
        reports.takePending { frame, time in
            grid.add(returnTime: time)
            newestReport = (frame, time)
        }
    }

    /// The wait while frames follow the grid: none after a present that blocked (the frame's vsync
    /// is the one at or before its return), a sleep to the next vsync after one that did not.
    /// Before a grid is fitted, the return is the best time there is, never sooner than a period
    /// after the last frame.
    private func vsyncWait(blocked: Bool, fits: Bool, locksDeadline: Bool) -> FrameWait {
        // While measuring, a grid fitted to returns of presents whose calls the source timed is
        // not trusted before the phase probe says it is the display's.
        guard grid.isUsable, fits, !(locksDeadline && returnsWerePaced) else {
            // While the grid re-locks after a move the period is not known: a frame a vsync
            // released is not counted as a drop then. (At start-up the nominal period counts them,
            // and so does the old period for the returns before the relock.)
            forgetGridPosition()
            if blocked && grid.relocks > 0 && !grid.hasGrid { knownDrops = 0 }
            boundary = .now(blocked: blocked, locksDeadline: locksDeadline)
            guard let lastTimestamp else { return .none }
            if !blocked {
                return .sleep(until: FrameInstant(nanoseconds: lastTimestamp + currentPeriod * Int64(presentInterval)))
            }
            if locksDeadline && capsAtDisplayRefreshRate {
                // Still measuring, and the present that blocked is not known to be the display's
                // vsync (an emulated one throttles faster: Xvfb's 62.5 Hz on a display that reports
                // none): frames are held to the cap, never faster.
                let earliest = lastTimestamp + displayRefreshRate.periodNanoseconds
                if earliest > now.nanoseconds {
                    callWasPaced = true
                    return .sleep(until: FrameInstant(nanoseconds: earliest))
                }
            }
            return .none
        }
        let called = grid.number(atOrBefore: presentStart)
        var number = grid.number(atOrBefore: now.nanoseconds + (blocked ? _VsyncGrid.earlyTolerance : 0))
        if !blocked { number += 1 }
        if let last = swapChain.lastVsyncNumber, number < last + Int64(presentInterval) {
            number = last + Int64(presentInterval)
        }
        // Coming onto the grid from frames timed otherwise (a deadline grid, the phase probe's
        // shifted frames): never a frame less than half a period after the last one.
        if swapChain.lastVsyncNumber == nil, let lastTimestamp {
            while grid.time(ofNumber: number) < lastTimestamp + currentPeriod / 2 { number += 1 }
        }
        boundary = .vsync(called: called, number: number, blocked: blocked, locksDeadline: locksDeadline)
        let time = grid.time(ofNumber: number)
        return time > now.nanoseconds ? .sleep(until: FrameInstant(nanoseconds: time)) : .none
    }

    /// The frame's timestamp while frames follow the grid: vsync `number` (present was called in
    /// vsync `called`'s interval). Counts the refreshes the display missed from the swap-chain
    /// model, and the target of the next frame.
    private func vsyncTimestamp(called: Int64, number: Int64, blocked: Bool) -> Int64 {
        // Feedback that came in up to now, the wait included: where recent frames were really
        // shown, which places the frames after them.
        if receivesPresentationFeedback { takeReports() }
        let placement = swapChain.place(
            _SwapChainModel.Frame(
                called: called, number: number, blocked: blocked, frame: presentCount,
                interval: Int64(presentInterval), chainDepth: chainDepth, lastBlockingReturn: lastBlockingReturnNumber,
                refreshesEveryVsync: variableRefreshRange == nil))
        knownDrops = placement.drops
        knownShownTime = grid.time(ofNumber: placement.shown)
        knownTarget = grid.time(ofNumber: placement.target)
        return grid.time(ofNumber: number)
    }

    /// The grid number of the last frame's timestamp when that was the return of a present that
    /// blocked, on a vsync of the grid (within a quarter period: while the source still measured,
    /// as when a game that starts with slow frames shows each on every 3rd vsync); `nil` after any
    /// other timestamp (a deadline's, the phase probe's shifted frames, a hidden window's).
    private var lastBlockingReturnNumber: Int64? {
        guard let lastTimestamp, lastTimestampWasBlockingReturn else { return nil }
        let period = Int64(grid.period.rounded())
        let previous = grid.number(atOrBefore: lastTimestamp + period / 4)
        guard abs(lastTimestamp - grid.time(ofNumber: previous)) <= period / 4 else { return nil }
        return previous
    }

    /// Frames no longer follow the grid (deadline pacing, a relock): the next frame on it starts
    /// the swap-chain model afresh.
    private func forgetGridPosition() {
        swapChain.forget()
    }

    // MARK: Detection

    private func applyRequestedPacing() {
        chainFill.forget()
        let before = mode
        machine.pacingRequested(pacing)
        if mode != before { modeDidChange(from: before) }
        // Whether a range is paced directly depends on the pacing asked for.
        if requestedRange != nil { applyRequestedRange() }
    }

    /// Whether the vsync grid is faster than the display can be (see ``_VsyncRateVerdict``).
    private var rateVerdict = _VsyncRateVerdict()

    /// Whether the blocking presents measured so far come faster than the display allows.
    private var vsyncIsFasterThanDisplay: Bool { rateVerdict.isFaster }

    /// The fastest period the display may really have, in nanoseconds.
    private var fastestPlausiblePeriod: Int64 {
        _VsyncRateVerdict.fastestPlausiblePeriod(reported: displayRefreshRate)
    }

    /// Lets the pacing machine decide from what is measured, and does what it says.
    private func detect() {
        let evidence = _PacingMachine.Evidence(
            presentsTimed: presentDurations.count, medianPresent: presentDurations.median,
            displayRate: displayRefreshRate, gridRate: measuredRefreshRate ?? displayRefreshRate,
            gridPeriod: grid.period, gridIsStable: grid.isStable, gridRelocks: grid.relocks,
            lastReturnFits: lastReturnFits, receivesFeedback: receivesPresentationFeedback,
            returnsWerePaced: returnsWerePaced, returnsFollowFrames: returnsFollowFrames,
            vsyncIsFasterThanDisplay: vsyncIsFasterThanDisplay, fasterVerdictDoubted: rateVerdict.isDoubted,
            presentsReturnAtOnceIntoFullChain: chainFill.showsPresentDoesNotBlock, isProbing: isProbing,
            mayMeasureAgain: mayMeasureAgain, pacesRequestedRateDirectly: pacesRequestedRateDirectly)
        let before = mode
        let action = machine.frameBegan(evidence)
        if mode != before { modeDidChange(from: before) }
        switch action {
        case .none:
            break
        case .startPhaseProbe:
            // Frames begin so that, with the last frame's time from its start to its present's
            // return, the returns would land half a period off the grid's vsyncs.
            let start = _PhaseProbe.firstFrameStart(
                vsyncAfterNext: grid.time(ofNumber: grid.number(atOrBefore: now.nanoseconds) + 2),
                period: Int64(grid.period.rounded()), returnOffset: returnOffset, now: now.nanoseconds)
            deadline.lockGrid(to: FrameInstant(nanoseconds: start - deadline.refreshRate.periodNanoseconds))
        case .paceAtDisplayRate:
            deadline.refreshRate = displayRefreshRate
            applyDeadlineRange()
        case .measureAgain:
            startBackToBackFrames()
        case .notePresentFollowsFrames:
            returnsFollowFrames = true
            keepsNoPhase = true
            FrameLinkLogging.logger.debug(
                "pacing: \(pacingState.reason)", metadata: ["refresh": "\(displayRefreshRate)"])
        case .clearDoubtsAboutGrid:
            keepsNoPhase = false
            rateVerdict.clear()
        }
    }

    /// The most vsyncs between two presents' returns that the source's own pacing explains: its
    /// present interval, or, while the last frames cost more than a period, one more than the
    /// whole periods the costliest of them took (a frame of 2.4 periods is shown on the 3rd vsync).
    private var explainedVsyncMultiple: Int64 {
        let period = displayRefreshRate.periodNanoseconds
        return max(Int64(presentInterval), period > 0 ? backToBack.costliestRecentFrame / period + 1 : 1)
    }

    /// Presents the next frames back to back (or until one blocks), and measures again
    /// whether present blocks: the start-up probe, again, once frames are fast enough to fill a
    /// swap chain.
    private func startBackToBackFrames() {
        backToBack.start(afterPresent: presentCount)
        presentDurations.removeAll()
        // A fit from before the slow frames is carried over a gap with no returns: its line may
        // have drifted from the vsync by then. The returns to come fit it afresh.
        if grid.hasGrid { grid.restartPhase() }
        FrameLinkLogging.logger.debug(
            "pacing: frames take under three quarters of a period now; up to \(_BackToBackFrames.limit) go back to back, to see whether present blocks once the swap chain fills (it could not while frames were slower)",
            metadata: ["refresh": "\(displayRefreshRate)"])
    }

    // MARK: The phase probe

    /// Whether frames may begin late (``FrameLoop/minimizesInputLatency``) without disturbing what
    /// the source measures: while pacing is automatic, once frames follow a vsync grid or the source
    /// has decided to pace by deadline; always under forced pacing.
    public var acceptsLateFrames: Bool {
        guard pacing == .automatic else { return true }
        switch mode {
        case .vsync: return grid.isUsable
        case .deadline:
            // Decided: present does not block (a quarter period or more, in the median), or it was
            // found not to be the display's vsync. Until then the source is still measuring.
            guard machine.phaseProbe == nil, !isProbing, presentDurations.count == presentDurations.capacity else {
                return false
            }
            return presentDurations.median * _PacingMachine.blockingMedianFraction
                < displayRefreshRate.periodNanoseconds
                || keepsNoPhase
                || vsyncIsFasterThanDisplay || returnsFollowFrames
        case .unpaced: return true
        }
    }

    /// Whether the source chose when the last present was called (a deadline wait or a hold before
    /// it), and the frames since a present so called blocked (up to the grid's window).
    private var callWasPaced = false
    /// Whether the last present blocked and its return fitted the grid.
    private var lastReturnFits = false
    /// When the last frame's work began (``beginWork(at:)``), and how long after that its present
    /// returned.
    private var frameStart: Int64 = 0
    private var returnOffset: Int64 = 0
    /// For each of the last 96 blocking presents (the grid's stability window), whether the source
    /// timed its call.
    private var pacedReturns = _FlagWindow(capacity: 96)

    /// Whether more than a quarter of the recent blocking presents were called when the source
    /// chose (deadline waits, holds): a grid fitted to them may echo that timing. A few (the first
    /// present after a hidden window is shown again) do not matter.
    private var returnsWerePaced: Bool {
        pacedReturns.marked * 4 > pacedReturns.count
    }

    /// Whether a phase probe found the returns following the frames' own pacing: a present that is
    /// slow (a software renderer drawing in it) or throttled from its last call, not a vsync. Such
    /// a present never paces frames again, until the display changes.
    private var returnsFollowFrames = false

    /// What a change of mode (from `oldMode` to ``mode``) takes besides: the log says so, the
    /// present durations are timed afresh, and in deadline mode the deadline grid keeps the vsync's
    /// rate and phase where they are known (a window hidden, or a swap chain whose presents stopped
    /// blocking, is still best paced on the display's grid).
    private func modeDidChange(from oldMode: Mode) {
        FrameLinkLogging.logger.debug(
            "pacing: \(oldMode) → \(mode): \(pacingState)", metadata: ["refresh": "\(displayRefreshRate)"])
        presentDurations.removeAll()
        if mode == .deadline, let lastTimestamp {
            if let measuredRefreshRate, grid.isUsable { deadline.refreshRate = measuredRefreshRate }
            applyDeadlineRange()
            deadline.lockGrid(to: FrameInstant(nanoseconds: lastTimestamp))
        }
    }

    /// What the log last said about the vsync lock.
    private var lockLog = _VsyncLockLog()
    /// How many vsync fits were discarded for a period no display has (see `_VsyncGrid`).
    var discardedImplausibleFits: Int { grid.implausibleFits }

    private func noteFrameCost(_ cost: Int64) {
        backToBack.noteFrameCost(cost)
        guard automaticFrameRate else { return }
        // The budget of a frame at the rate asked for (every vsync, or a requested range's rate).
        let budget = refreshRate.periodNanoseconds / (halvesRate ? 2 : 1)
        apply(autoFrameRate.noteFrameCost(cost, budget: budget))
    }

    /// What the halved rate presents on: every 2nd deadline of a requested range's rate, or every
    /// 2k-th vsync for a divisor k.
    private var halvedCadence: String {
        mode == .deadline && requestedRange != nil
            ? "2nd deadline" : FrameRateRange.ordinal(rangeInterval * 2) + " vsync"
    }

    /// Logs what the automatic frame rate did (`back` says why it went back to the full rate).
    private func apply(
        _ action: _AutoFrameRate.Action, back: String = "the frame cost is under 70 % of the budget"
    ) {
        switch action {
        case .none:
            break
        case .halve:
            if case .halved(let cost, let budget) = autoFrameRate.state {
                FrameLinkLogging.logger.debug(
                    "automatic frame rate: presenting every \(halvedCadence): frame cost \(Milliseconds(cost)) ms over the \(Milliseconds(budget)) ms budget"
                )
            }
        case .restore:
            FrameLinkLogging.logger.debug("automatic frame rate: back to the full rate: \(back)")
        }
    }
}
