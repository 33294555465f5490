/// A frame source whose frame boundary is a present function that may block on vsync — an SDL
/// renderer's present, a GL swap, a Vulkan queue present — with a precise deadline fallback.
///
/// **Phase-locked vsync.** A blocking present returns at a vsync plus a delay that jitters (the
/// compositor, the scheduler). The source fits the vsync grid — period and phase — to the returns,
/// and a frame's `timestamp` is the vsync itself, not the moment present returned, so present
/// jitter never reaches `timestamp`, `targetTimestamp`, `deltaTime` or the statistics. A present
/// that did not block (a swap chain with room, a hidden window) is followed by a wait for the next
/// vsync of the grid, so frames never come faster than the display. A swap-chain model places each
/// frame on the vsync that shows it: ``targetTimestamp`` is when the frame being built will be
/// shown, and a drop is counted only when the display really showed an old frame again. When the
/// presenter reports when frames reached the screen (`reportPresentation(ofFrame:at:)`), those
/// times replace the present returns.
///
/// While pacing is ``Pacing/automatic`` the source keeps checking what present does: **vsync**
/// when presents block and their returns fit a phase-stable grid (the period measured from the
/// grid, so a 59.94 Hz display that SDL reports as 59 Hz is paced at 59.94 Hz); **deadline** when
/// present does not wait for the vsync (presents that returned at once although a FIFO swap chain
/// must have been full), or blocks but its returns keep no phase (an emulated vsync, as under
/// Xvfb), or a phase probe finds that a slow present (a software renderer drawing in it) moves
/// with the frames' own timing. Jitter alone never demotes a real vsync. The chosen mode and the
/// reason are in ``pacingState`` (typed) and in every statistics report.
///
/// **Frame-rate ranges** (`requestFrameRate(in:)`, from ``FrameLoop/preferredFrameRateRange``)
/// present on every k-th vsync of a fixed display, or pace the preferred rate directly on a
/// variable-refresh one. **Auto frame rate** (opt-in, like Android's Swappy) presents on every 2nd
/// vsync while the frame's work runs over budget. The DocC article "Pacing and dropped frames"
/// says how each decision is made, from what evidence, and what it costs.
///
/// The source is a shell: what it decides and measures is one object (`_PresentPacer`) of small
/// parts with one job each; the source keeps the host's closures, calls present, and tells the game
/// when the pacing state changed.
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
    nonisolated static let presentDurationsWindow = _PresentPacer.presentDurationsWindow

    /// What the source decides and measures.
    let pacer: _PresentPacer

    /// The state last told to ``onPacingStateChange``.
    private var announcedState: PacingState

    /// The requested pacing. Changing it takes effect at the next frame.
    public var pacing: Pacing {
        get { pacer.pacing }
        set { withPacer { $0.pacing = newValue } }
    }

    /// The current mode and why: typed, for a game to switch on (see ``PacingReason``).
    ///
    /// Changes are told to ``onPacingStateChange`` at the next frame boundary.
    public var pacingState: PacingState { pacer.pacingState }

    /// Called on the main actor when ``pacingState`` has changed, at the start of the first frame
    /// after the change (never from inside the source's own bookkeeping, so the callback may set
    /// ``pacing`` or any other property). A state that changes and changes back within a frame is
    /// not told.
    public var onPacingStateChange: (@MainActor (PacingState) -> Void)?

    /// The display's nominal refresh rate (what the display mode reports, or 60 Hz when unknown).
    ///
    /// Frames never come faster than this rate allows: a blocking present measured faster than it
    /// (by more than 1 Hz, for displays reported in whole hertz, and 0.5 %) is not the display's
    /// vsync (an emulated one, such as Xvfb's 62.5 Hz throttle on a display that reports no rate,
    /// or a rate the caller capped), and frames are paced by deadline at this rate instead; while
    /// the vsync is still being measured, frames are never closer together than its period. A
    /// host whose window moves to another display sets the new display's rate here.
    ///
    /// A change is taken as another display (a move or a modeset), whose vsync is learned afresh
    /// whatever the two rates: set it when the display changes, not every frame from a value that
    /// wobbles. Setting the same rate again changes nothing.
    public var displayRefreshRate: FrameRate {
        get { pacer.displayRefreshRate }
        set { withPacer { $0.displayRefreshRate = newValue } }
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
    /// present held to its paced time, so frames are shown evenly at the cap. A requested range
    /// (``FrameLoop/preferredFrameRateRange``) faster than the cap is paced at the cap.
    @_spi(FrameSourceImplementation) public var capsAtDisplayRefreshRate: Bool {
        get { pacer.capsAtDisplayRefreshRate }
        set { withPacer { $0.capsAtDisplayRefreshRate = newValue } }
    }

    /// The refresh rate measured from the vsync grid (to a thousandth of a hertz), once the returns
    /// of blocking presents fit one.
    public var measuredRefreshRate: FrameRate? { pacer.measuredRefreshRate }

    /// Whether the source halves the frame rate while frames run over budget (off by default).
    public var automaticFrameRate: Bool {
        get { pacer.automaticFrameRate }
        set { withPacer { $0.automaticFrameRate = newValue } }
    }

    /// Whether the window is hidden or minimized, as the host learns from the window system
    /// (SDLHost sets it from SDL's window events): `false` unless told.
    ///
    /// A hidden window's presents show nothing, and how they return says nothing about the
    /// display: under X11 they return at once, which looks like a swap chain with room; under
    /// Wayland they may wait for frame callbacks that stop coming. So while it is hidden the
    /// source does not measure: frames keep the display's rate and phase (the vsync grid's, when
    /// one is known) on a deadline, no drop is counted (nothing was to be shown), and when it is
    /// shown again the swap-chain model starts afresh from the first frame shown.
    @_spi(FrameSourceImplementation) public var isWindowHidden: Bool {
        get { pacer.isWindowHidden }
        set { withPacer { $0.isWindowHidden = newValue } }
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
        get { pacer.variableRefreshRange }
        set { withPacer { $0.variableRefreshRange = newValue } }
    }

    /// The buffers of the presenter's swap chain, if known: 2 (double buffering) unless told. A
    /// present that blocks found the chain full, so its frame is shown `swapChainBuffers - 2`
    /// vsyncs after the one that released it; the swap-chain model needs this to know when a
    /// queued frame covered for a late one. Timing alone cannot tell 2 buffers from 3 (both block
    /// once per vsync); presentation feedback, when reported, overrides it.
    ///
    /// A count outside 2…8 is a programmer error and traps.
    public var swapChainBuffers: Int {
        get { pacer.swapChainBuffers }
        set {
            precondition(
                (2...8).contains(newValue),
                "PresentSource.swapChainBuffers must be 2 (double buffering) to 8, not \(newValue)")
            pacer.swapChainBuffers = newValue
        }
    }

    /// How long the last present took, in nanoseconds.
    @_spi(FrameSourceImplementation) public var lastPresentDuration: Int64 { pacer.lastPresentDuration }

    /// The number of times present has been called; a presenter's feedback names frames by it.
    @_spi(FrameSourceImplementation) public var presentCount: Int64 { pacer.presentCount }

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
        self.present = present
        deadline = DeadlineSource(refreshRate: displayRefreshRate, clock: clock)
        pacer = _PresentPacer(displayRefreshRate: displayRefreshRate, pacing: pacing, deadline: deadline)
        announcedState = pacer.pacingState
    }

    /// The time since the source was created.
    public var now: FrameInstant { deadline.now }

    /// The current mode.
    public var mode: Mode { pacingState.mode }

    /// Why the source is in its current mode, in a sentence, such as
    /// `"present returned in 0.05 ms, vsync not honoured"` (rendered from ``pacingState``: read
    /// its ``PacingState/reason`` to decide anything).
    public var reason: String { pacingState.description }

    /// The mode, the rate and the reason, for reports.
    public var pacingDescription: String { pacer.describe(note: note) }

    // MARK: The frame path (see FrameSource)

    /// The wait before the present, carried out by the loop's waiter as any wait is (the main queue
    /// served while it sleeps; real-time priority for a deadline's last stretch): while frames go
    /// out on every k-th vsync (a range's divisor, the automatic frame rate's halving), until the
    /// interval before the k-th vsync (a present on a FIFO swap chain goes out at the first vsync
    /// after it is called); while a requested rate is paced directly on a variable-refresh display,
    /// until the frame's paced time, precisely (the display shows the frame when it is presented,
    /// so the present, not only the frame's start, is held to it). Else none.
    @_spi(FrameSourceImplementation) public func presentWait() -> FrameWait { withPacer { $0.presentWait() } }

    /// Presents what the last frame drew and times the call (after `presentWait()`'s wait).
    @_spi(FrameSourceImplementation) public func presentFrame() {
        withPacer { $0.willPresent() }
        present?()
        pacer.didPresent()
    }

    /// Takes in what the present showed (did it block, where is the vsync grid) and decides the
    /// wait: none after a present that blocked until its vsync, a sleep to the grid's next vsync
    /// after one that did not, a deadline in deadline mode.
    @_spi(FrameSourceImplementation) public func nextFrameWait() -> FrameWait { withPacer { $0.nextFrameWait() } }

    /// An idle wait until `deadline` or input.
    @_spi(FrameSourceImplementation) public func idleWait(until deadline: FrameInstant?) -> FrameWait {
        pacer.idleWait(until: deadline)
    }

    /// The frame's timestamp, now that the wait is over: the vsync of the grid in vsync mode, the
    /// deadline reached in deadline mode. A changed ``pacingState`` is told here.
    @_spi(FrameSourceImplementation) public func beginFrame(at instant: FrameInstant) -> FrameInstant {
        let timestamp = withPacer { $0.beginFrame(at: instant) }
        if pacingState != announcedState {
            announcedState = pacingState
            onPacingStateChange?(pacingState)
        }
        return timestamp
    }

    /// Notes when the frame's work began (after a latency-mode wait): frame costs, for the
    /// automatic frame rate and the phase probe, run from here.
    @_spi(FrameSourceImplementation) public func beginWork(at instant: FrameInstant) { pacer.beginWork(at: instant) }

    /// Remembers the loop (for its deadline pacer).
    @_spi(FrameSourceImplementation) public func attach(to loop: FrameLoop) { deadline.attach(to: loop) }

    /// `frames` vsyncs of the grid after `timestamp` while frames follow it; else `frames` periods
    /// of the effective rate.
    @_spi(FrameSourceImplementation) public func expectedTimestamp(frames: Int64, after timestamp: FrameInstant)
        -> FrameInstant
    {
        pacer.expectedTimestamp(frames: frames, after: timestamp)
    }

    /// Whether frames may begin late (``FrameLoop/minimizesInputLatency``) without disturbing what
    /// the source measures: while pacing is automatic, once frames follow a vsync grid or the source
    /// has decided to pace by deadline; always under forced pacing.
    @_spi(FrameSourceImplementation) public var acceptsLateFrames: Bool { pacer.acceptsLateFrames }
}

extension PresentSource: _IdleInputWatching {}

extension PresentSource {
    /// Runs `body` on the pacer, then writes what it noted for the log: never from inside the
    /// pacer's work, so a log handler may read and change the source (see ``_PacingLogEntry``).
    func withPacer<Result>(_ body: (_PresentPacer) -> Result) -> Result {
        let result = body(pacer)
        while !pacer.log.isEmpty {
            let entry = pacer.log.removeFirst()
            entry.write()
        }
        return result
    }
}
