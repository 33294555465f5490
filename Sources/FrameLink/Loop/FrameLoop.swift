/// A main-thread frame loop with run-loop modes: the FrameLink counterpart of the main `RunLoop`
/// driving `CADisplayLink`s and `Timer`s.
///
/// Each iteration (``runFrame()``) reads top to bottom: its ``FrameSource`` presents the last
/// frame; the loop's ``waiter`` waits as the source's pacer says; the source gives the frame's
/// timestamp; then, in order: the event handler and input links, the timers that are due in the
/// current mode, update and late-update links, render links and the render handler; last, work
/// queued for the main actor. While no display link is active the wait lasts until the next timer
/// deadline instead (or until input), so an idle loop uses no CPU.
///
/// The loop keeps every link and timer added to it until it is invalidated, as a run loop keeps its
/// timers, so you need not hold on to them yourself. Links and timers made with a weak target
/// invalidate themselves when the target is gone, so forgetting `invalidate()` never leaks.
///
/// ```swift
/// let loop = FrameLoop(source: DeadlineSource(refreshRate: .hz60))
/// let link = DisplayLink(target: scene) { scene, link in scene.step(to: link.targetTimestamp) }
/// link.add(to: loop, forMode: .common)
/// loop.run()   // until loop.stop()
/// ```
@MainActor
public final class FrameLoop {
    /// The source of frame boundaries and of time: it presents, and its pacer says how long to wait.
    public let source: any FrameSource

    /// The wait between frames: how the loop sleeps and spins to its source's deadlines, serves
    /// main-queue work meanwhile, and asks for real-time priority (its options are here).
    public let waiter = FrameWaiter()

    /// The mode the loop runs in; only items added for this mode (or for `.common`, when this mode
    /// is in ``commonModes``) are called. Changes take effect at the next phase of the frame.
    public var currentMode: RunLoopMode = .default {
        didSet { updateActiveMask() }
    }

    /// The modes that `.common` stands for: `.default` and `.tracking` unless you add more.
    public private(set) var commonModes: Set<RunLoopMode> = [.default, .tracking]

    /// The number of frames the loop has run; the index of the current frame while one runs.
    public private(set) var frameIndex: Int64 = 0

    /// The timestamp of the current (or last) frame, from the frame source.
    public private(set) var timestamp: FrameInstant = .zero

    /// The time the frame being built is expected to reach the screen: where the source knows it
    /// (a vsync-locked ``PresentSource`` models its swap chain), else the next point of the
    /// source's frame grid. Never before the frame's ``timestamp``: a source's target is measured
    /// data (its swap-chain model rests on a fitted vsync grid), and one before the timestamp is
    /// replaced by the grid's next point, or one period on.
    public var targetTimestamp: FrameInstant {
        if let target = source.targetTimestamp, target >= timestamp { return target }
        let next = source.expectedTimestamp(frames: 1, after: timestamp)
        return next > timestamp ? next : timestamp + source.refreshRate.period
    }

    /// Whether ``run()`` (or another `run` variant) is executing.
    public private(set) var isRunning = false

    /// Whether the loop runs work queued for the main thread, so that `DispatchQueue.main` blocks
    /// and `Task { @MainActor in … }` work keep running (true by default): once per frame, during
    /// the deadline pacer's waits (as the work arrives), and while idle. `Foundation.Timer`s on the
    /// main run loop fire in the frame they fall due; other run-loop sources are served every 60th
    /// frame. It has an effect only on the process main thread.
    public var drainsMainQueue = true

    /// Frame-pacing statistics: dropped frames, hitches, percentiles and blame.
    public let statistics: FrameStatistics

    /// Whether nothing the loop draws can be seen: the window is hidden or minimized (`SDLHost`
    /// sets it from the window system's events; false unless told).
    ///
    /// While it is, the loop runs no frames, as a display link in an app sent to the background
    /// does not fire: display links and render handlers wait, nothing is drawn or presented, and
    /// the loop idles until a timer falls due or input arrives (timers and the event handler go
    /// on, so the event that shows the window again is read). When it is shown again the loop
    /// starts over (``resync()``): the first frame books no interval, so the time hidden is
    /// neither a drop nor a hitch, and display links get one period as their deltaTime.
    public var isOutputHidden = false {
        didSet { if oldValue && !isOutputHidden { resync() } }
    }

    /// Whether each display-link and timer callback is timed, so that a drop report can name the
    /// slowest one (true by default).
    ///
    /// It costs one clock read per callback (about 20–25 ns with the system clock on a typical x86
    /// virtual machine). Turn it off when a frame dispatches many thousands of callbacks; phases are
    /// still timed and drops still name the phase.
    public var measuresCallbacks = true

    /// A log of every frame, if set: assign a ``FrameLog`` to start recording. A log without a
    /// period takes the loop's refresh period at its first frame.
    public var frameLog: FrameLog?

    /// The longest time step handed to game logic in ``DisplayLink/deltaTime``: after a stall (a
    /// debugger pause, a slow load) the delta is clamped to it so that simulations do not explode
    /// (250 ms by default).
    public var maximumFrameDelta: Duration = .milliseconds(250) {
        didSet {
            precondition(maximumFrameDelta > .zero, "FrameLoop.maximumFrameDelta must be positive")
            maximumFrameDeltaNanoseconds = maximumFrameDelta.wholeNanoseconds
        }
    }

    /// Called at the start of every frame, before input links and timers: handle input here. A
    /// host's own event pump (FrameLinkSDL's window host) runs before it and is not replaced by
    /// setting it.
    public var eventHandler: (@MainActor (FrameLoop) -> Void)?

    /// Called at the end of every frame, after display links (render links included): draw here. A host's own render hook
    /// (FrameLinkSDL's window host, which calls its own draw handlers and marks the frame for
    /// presenting) runs after it and is not replaced by setting it.
    public var renderHandler: (@MainActor (FrameLoop) -> Void)?

    /// Whether frames begin as late as they can and still make their vsync, so that input is read
    /// late and reaches the screen sooner (latency mode; off by default).
    ///
    /// Normally a frame begins at its boundary (right after the vsync), reads input, works and
    /// presents, and its image waits in the swap chain for the next vsync: with a 3 ms frame at
    /// 60 Hz, input read at the start waits about 13 ms more than it needs to. In latency mode the
    /// loop waits, after the frame's timestamp, until the frame's target (``targetTimestamp``)
    /// minus the predicted frame cost (the 99th percentile of the last 120 frames' costs) minus a
    /// safety margin, then reads input and runs the frame. The margin adapts: a frame that runs
    /// past its target widens it at once; 300 frames in a row with room to spare narrow it by a
    /// tenth. It works on any source that has a target: vsync and deadline pacing, virtual time.
    ///
    /// The trade: input reaches the screen up to a frame sooner, at the risk of a missed vsync when
    /// a frame costs far more than the recent ones (one spike costs at most one drop; the margin
    /// then covers it). Timestamps do not change: a frame's ``timestamp`` is still its boundary.
    public var minimizesInputLatency = false {
        didSet { if minimizesInputLatency != oldValue { latency.reset() } }
    }

    /// The rates the loop wants to run at, or `nil` (the default) for the source's own rate (every
    /// refresh of the display).
    ///
    /// The source chooses the rate (`FrameSource.requestFrameRate(in:)`): on a display with a
    /// fixed refresh, the even rate inside the range closest to its preferred rate, presenting on
    /// every k-th vsync (30 on 60 Hz; 72 on 144 Hz for 60–90 Hz preferring 72; 48 on 144 Hz for
    /// 40–50 Hz); on a variable-refresh display (``PresentSource/variableRefreshRange``) or with no
    /// vsync, the preferred rate itself, paced by deadline: a frame cap. A cap just under a
    /// variable-refresh display's maximum (141 on 144 Hz) keeps the swap chain from filling, so
    /// each frame is shown as it comes and input reaches the screen sooner.
    ///
    /// The loop's ``refreshRate`` becomes the chosen rate (statistics count drops against it), and
    /// links divide it further by their own ``DisplayLink/preferredFrameRateRange``. What was
    /// chosen, and why, is in ``FrameStatistics/frameRateChoices``.
    public var preferredFrameRateRange: FrameRateRange? {
        didSet {
            guard preferredFrameRateRange != oldValue else { return }
            source.requestFrameRate(in: preferredFrameRateRange)
            if let range = preferredFrameRateRange, source.frameRateChoice == nil {
                FrameLinkLogging.logger.warning(
                    "FrameLoop.preferredFrameRateRange \(range): \(type(of: source)) chose no rate (it takes no frame-rate requests, or paces none now); frames stay at \(source.refreshRate)"
                )
            }
        }
    }

    /// The rate chosen for the loop's ``preferredFrameRateRange`` (subject `"loop"`) and for each
    /// link with a ``DisplayLink/preferredFrameRateRange`` (subject: its label), and why.
    var frameRateChoices: [FrameRateChoice] {
        var choices: [FrameRateChoice] = []
        if var choice = source.frameRateChoice {
            choice.subject = "loop"
            choices.append(choice)
        }
        for link in links.members {
            if let choice = link.frameRateChoice { choices.append(choice) }
        }
        return choices
    }

    /// Latency mode's safety margin now (see ``minimizesInputLatency``).
    public var inputLatencyMargin: Duration { .nanoseconds(latency.margin) }

    /// Tells the loop that input which happened at `instant` is read in the current frame, so that
    /// its latency to the screen is measured (``FrameStatistics/inputLatency(atPercentile:)``): from
    /// `instant` to when the frame is shown (its ``targetTimestamp``, later by the refreshes the
    /// display missed if it was late). Call it from the event handler or an input link, with the
    /// event's own time (or the time it was pumped). A host calls it for its input events.
    ///
    /// Input is measured in frames that follow a frame: input read in an idle frame (no display
    /// link active: the key press that wakes the loop) or in the frame before a ``resync()`` is
    /// not, and calls outside a frame, or past 64 in one frame, are ignored.
    public func noteInput(at instant: FrameInstant) {
        guard isInFrame, frameInputs.count < frameInputs.capacity else { return }
        frameInputs.append(max(0, instant.nanoseconds))
    }

    /// The host's event pump, run at the start of every frame before ``eventHandler``.
    package var hostEventHandler: (@MainActor (FrameLoop) -> Void)?

    /// The host's render hook, run at the end of every frame after ``renderHandler``.
    package var hostRenderHandler: (@MainActor (FrameLoop) -> Void)?

    /// The display links, one list per phase, and their passes.
    let links = _LinkPhases()
    /// The timers, their schedule, and their pass.
    let timers = _TimerSchedule()

    private var modeBits = _ModeBits()
    /// Latency mode's controller.
    private var latency = _LatencyPacer()
    /// Input noted in the current frame, and in the frame before with its target (its latency is
    /// booked with the interval that ends at the next frame, when a late frame is known).
    private var frameInputs = _Ring(capacity: FrameLoop.mostInputEventsPerFrame)
    private var shownInputs = _Ring(capacity: FrameLoop.mostInputEventsPerFrame)
    /// The input events a frame notes at most (``noteInput(at:)``); a frame log's records hold no more.
    nonisolated static let mostInputEventsPerFrame = 64
    /// In latency mode, a frame shown later than its target by more than a period divided by this
    /// missed its vsync (a quarter: a vsync timestamp is within tens of microseconds of the truth,
    /// a missed vsync a whole period off), and widens the margin as a predicted overrun does.
    static let lateShowFraction: Int64 = 4
    private var shownInputsTarget: Int64 = 0
    /// What runs in ``currentMode``, as mode bits.
    private var activeMask: UInt64 = 1 | 2
    private var maximumFrameDeltaNanoseconds: Int64 = 250_000_000
    /// The blame of the last frame's work, booked with the interval that ends at the next frame.
    private var lastFrameBlame = _FrameBlame()
    private var previousWasFrame = false
    private var isResynchronizing = false
    private var nextFrameWaiters: [CheckedContinuation<FrameSnapshot, Never>] = []
    private var stopRequested = false
    private var isInFrame = false
    /// Game-clock timers fired inside this frame's callbacks, timed for blame (see
    /// ``nestedCallbacksWhileMeasuring``).
    private lazy var nestedCallbacks = _NestedCallbacks(source: source)

    private static weak var lastCreated: FrameLoop?
    /// The loops running a frame or a `run` variant, innermost last.
    private static var activeLoops: [FrameLoop] = []

    /// Creates a loop driven by `source`.
    public init(source: any FrameSource) {
        self.source = source
        statistics = FrameStatistics(period: source.refreshRate.period)
        statistics.source = source
        statistics.frameRateChoicesProvider = { [weak self] in self?.frameRateChoices ?? [] }
        source.attach(to: self)
        Self.lastCreated = self
    }

    /// The loop that ``FrameTimer/scheduledTimer(withTimeInterval:repeats:block:)`` schedules on:
    /// the innermost loop whose frame is running (under ``run()`` or ``runFrame()``) or that is
    /// inside a `run` variant, else the most recently created loop that still exists.
    public static var current: FrameLoop? {
        activeLoops.last ?? lastCreated
    }

    /// The refresh rate of the source.
    public var refreshRate: FrameRate { source.refreshRate }

    /// The current time on the source's clock.
    public var now: FrameInstant { source.now }

    // MARK: Modes

    /// Adds `mode` to the set that `.common` stands for: items added for `.common` now run in it too.
    public func addCommonMode(_ mode: RunLoopMode) {
        precondition(mode != .common, "addCommonMode(.common): .common is the set itself, not a mode to add")
        commonModes.insert(mode)
        updateActiveMask()
    }

    /// The bit that stands for `mode` in link and timer mode masks (given out on first use).
    func bit(for mode: RunLoopMode) -> UInt64 {
        modeBits.bit(for: mode)
    }

    private func updateActiveMask() {
        activeMask = modeBits.activeMask(in: currentMode, commonModes: commonModes)
    }

    // MARK: Running

    /// Runs frames until ``stop()`` is called.
    public func run() {
        run(while: { _ in true })
    }

    /// Runs frames until the source's clock reaches `deadline` or ``stop()`` is called.
    public func run(until deadline: FrameInstant) {
        run(while: { $0.source.now < deadline })
    }

    /// Runs `frames` frames, or fewer if ``stop()`` is called.
    public func run(frames: Int) {
        var remaining = frames
        run(while: { _ in
            remaining -= 1
            return remaining >= 0
        })
    }

    /// Runs frames while `condition` returns true (checked before each frame) and ``stop()`` has
    /// not been called.
    public func run(while condition: (FrameLoop) -> Bool) {
        stopRequested = false
        isRunning = true
        Self.activeLoops.append(self)
        defer {
            isRunning = false
            Self.leaveActiveLoops(self)
        }
        while !stopRequested && condition(self) {
            runFrame()
        }
    }

    /// Makes the running ``run()`` return after the current frame.
    public func stop() {
        stopRequested = true
    }

    private static func leaveActiveLoops(_ loop: FrameLoop) {
        if let index = activeLoops.lastIndex(where: { $0 === loop }) { activeLoops.remove(at: index) }
    }

    // MARK: The frame

    /// Books the latency of the input read in the last frame, shown at `shown`, in the statistics
    /// and in `record` (its count, mean and longest latency; a negative latency, from an input
    /// time after the frame was shown, is not booked).
    private func bookInput(shownAt shown: Int64, into record: inout FrameRecord) {
        var count = 0
        var total: Int128 = 0
        var longest: Int64 = 0
        for age in 0..<shownInputs.count {
            let latency = shown &- shownInputs[age: age]
            guard latency >= 0 else { continue }
            statistics.recordInputLatency(latency)
            count += 1
            total += Int128(latency)
            longest = max(longest, latency)
        }
        guard count > 0 else { return }
        record.inputEvents = count
        record.inputLatencyMeanNanoseconds = Int64(total / Int128(count))
        record.inputLatencyMaxNanoseconds = longest
    }

    /// A source's timestamp for the next frame, never before the last frame's: a timestamp is
    /// measured data (a vsync grid refitted to bad presentation feedback can move its line back),
    /// and frames stay in order whatever a source says. Such a timestamp is taken as the last one
    /// (the frame's `deltaTime` is zero), and the first is logged as a notice.
    private func inOrder(_ frameTime: FrameInstant) -> FrameInstant {
        guard frameTime < timestamp else { return frameTime }
        if !loggedTimestampOutOfOrder {
            loggedTimestampOutOfOrder = true
            FrameLinkLogging.logger.notice(
                "\(type(of: source)) gave a frame timestamp \(timestamp - frameTime) before the last frame's; frames stay in order (said once)"
            )
        }
        return timestamp
    }

    /// Whether a timestamp out of order was logged (see ``inOrder(_:)``).
    private var loggedTimestampOutOfOrder = false

    /// Runs one iteration of the loop: present, wait (for the frame boundary, or, with no active
    /// link, until the next timer or input), timestamp, then events and input links, timers, update
    /// and late-update links, render links and the render handler (see ``LinkPhase``).
    ///
    /// Call it from your own game loop to embed FrameLink without giving up your `while` loop.
    /// While it runs, ``current`` is this loop.
    public func runFrame() {
        precondition(!isInFrame, "FrameLoop.runFrame() was called from inside a frame callback; it is not re-entrant")
        isInFrame = true
        Self.activeLoops.append(self)
        defer {
            isInFrame = false
            Self.leaveActiveLoops(self)
        }

        // Present: what the last frame drew goes to the screen (a present may block on vsync, and
        // may be held first to go out on a later vsync); nothing is presented while nothing can be
        // seen.
        let presentStart = source.now.nanoseconds
        if !isOutputHidden {
            let hold = source.presentWait()
            if hold != .none {
                _ = waiter.wait(
                    hold, on: source, servesMainQueue: drainsMainQueue,
                    periodNanoseconds: source.refreshRate.periodNanoseconds, drainMainQueue: drainMainQueue)
            }
            source.presentFrame()
        }

        // Wait: for the next frame (the source's pacer says until when), or idle until a timer
        // falls due or input arrives while no display link needs frames or nothing can be seen.
        let isHidden = isOutputHidden
        let isFrame = !isHidden && (!nextFrameWaiters.isEmpty || links.hasActiveLink(mask: activeMask))
        let wait =
            isFrame
            ? source.nextFrameWait()
            : source.idleWait(until: timers.idleWake(mask: activeMask).map(FrameInstant.init(nanoseconds:)))
        let waitEnd = waiter.wait(
            wait, on: source, servesMainQueue: drainsMainQueue, periodNanoseconds: source.refreshRate.periodNanoseconds,
            drainMainQueue: drainMainQueue)

        // Timestamp: the pacer's time for the frame (the vsync it went out on, the deadline
        // reached, the grid point); the interval that ended is booked with the last frame's blame.
        let frameTime = inOrder(source.beginFrame(at: waitEnd))
        frameIndex += 1
        let previous = timestamp
        timestamp = frameTime
        // Game timers run between frames (by a task on the main queue) delayed this boundary: they
        // are the last frame's work.
        if measuresCallbacks && !nestedCallbacks.isEmpty { lastFrameBlame.noteRuns(of: nestedCallbacks) }
        if isFrame && previousWasFrame {
            var record = statistics.book(
                frameIndex: frameIndex, from: previous.nanoseconds, to: frameTime.nanoseconds, waitStart: presentStart,
                presentDuration: source.lastPresentDuration, period: source.refreshRate.periodNanoseconds,
                dropped: source.droppedFramesAtLastBoundary, blame: lastFrameBlame,
                recorded: (source as? ManualFrameSource)?.recordAtLastBoundary)
            // When the last frame reached the screen, where the source knows it (its swap-chain
            // model, presentation feedback, a variable-refresh display showing it as presented);
            // else its target, later by the frames dropped.
            let period = source.refreshRate.periodNanoseconds
            let knownShown = source.shownAtLastBoundary?.nanoseconds
            // A frame that really missed its vsync (the present's own cost, work after the render
            // phase) widens latency mode's margin as a predicted overrun does: a drop, or a frame
            // shown a refresh late under a frame-rate divisor.
            if minimizesInputLatency
                && (record.droppedFrames > 0
                    || knownShown.map { $0 > shownInputsTarget + period / Self.lateShowFraction } == true)
            {
                latency.noteMiss(period: period)
            }
            if shownInputs.count > 0 {
                bookInput(
                    shownAt: knownShown ?? shownInputsTarget + Int64(record.droppedFrames) * period, into: &record)
            }
            if let frameLog {
                if frameLog.periodNanoseconds == 0 { frameLog.periodNanoseconds = source.refreshRate.periodNanoseconds }
                // A log has one period: a frame booked at another rate (a frame-rate range or the
                // automatic frame rate changed the loop's) keeps at most the drops it allows.
                record.droppedFrames = FrameRecord.droppedFrames(
                    interval: record.intervalNanoseconds, period: frameLog.periodNanoseconds,
                    known: record.droppedFrames)
                frameLog.append(record, presentNumber: (source as? PresentSource)?.presentCount)
            }
        }
        shownInputs.removeAll()
        previousWasFrame = isFrame

        // Latency mode: the frame begins as late as it can and still make its target.
        let target = targetTimestamp.nanoseconds
        if isFrame && minimizesInputLatency && source.acceptsLateFrames,
            let latest = latency.latestStart(target: target),
            latest > source.now.nanoseconds
        {
            _ = waiter.wait(
                .deadline(FrameInstant(nanoseconds: latest)), on: source, servesMainQueue: drainsMainQueue,
                periodNanoseconds: source.refreshRate.periodNanoseconds, drainMainQueue: drainMainQueue)
        }

        // The frame's work, phase by phase (each timed for blame).
        var blame = _FrameBlame()
        if let frameLog, frameLog.recordsCallbacks, measuresCallbacks { blame.callbackLog = frameLog }
        // (Runs noted since the last frame were booked with it above.)
        if measuresCallbacks { blame.nested = nestedCallbacks }
        let clock: (any FrameSource)? = measuresCallbacks ? source : nil
        let linkFrame = _LinkFrame(
            index: frameIndex, timestamp: frameTime, targetTimestamp: FrameInstant(nanoseconds: target),
            refreshRate: refreshRate,
            periodNanoseconds: refreshRate.periodNanoseconds, maximumDeltaNanoseconds: maximumFrameDeltaNanoseconds,
            resynchronizes: isResynchronizing)
        let workStart = source.now.nanoseconds
        source.beginWork(at: FrameInstant(nanoseconds: workStart))
        var mark = workStart

        // Events: the host's pump, the event handler, input links.
        if hostEventHandler != nil || eventHandler != nil {
            hostEventHandler?(self)
            eventHandler?(self)
            mark = endPhase(.events, startedAt: mark, blame: &blame, culprit: .handler("event handler"))
        }
        if !isHidden {
            mark = deliverLinks(.input, linkFrame, accountedAs: .events, startedAt: mark, blame: &blame, clock: clock)
        }

        // Timers that are due in the current mode.
        timers.fireDue(
            by: frameTime.nanoseconds, mask: activeMask, frameIndex: frameIndex, blame: &blame, clock: clock)
        mark = endPhase(.timers, startedAt: mark, blame: &blame, culprit: nil)

        // Links: update, then late update (the animator); none while nothing can be seen.
        if !isHidden {
            links[.update].deliver(linkFrame, mask: activeMask, source: source, blame: &blame, clock: clock)
            links[.lateUpdate].deliver(linkFrame, mask: activeMask, source: source, blame: &blame, clock: clock)
        }
        mark = endPhase(.links, startedAt: mark, blame: &blame, culprit: nil)

        // Render: render links, the render handler, the host's render hook (nothing is drawn while
        // nothing can be seen).
        if !isHidden {
            mark = deliverLinks(.render, linkFrame, accountedAs: .render, startedAt: mark, blame: &blame, clock: clock)
        }
        if !isHidden && (renderHandler != nil || hostRenderHandler != nil) {
            renderHandler?(self)
            hostRenderHandler?(self)
            let start = mark
            mark = source.now.nanoseconds
            blame.phases[nanoseconds: .render] += mark - start
            if measuresCallbacks { blame.note(.handler("render handler"), from: start, to: mark) }
        }
        lastFrameBlame = blame
        if isFrame && minimizesInputLatency {
            latency.noteFrame(
                start: workStart, target: target, cost: mark - workStart, period: source.refreshRate.periodNanoseconds)
        }
        // This frame's input, measured when the next frame knows whether it was shown on time.
        swap(&frameInputs, &shownInputs)
        frameInputs.removeAll()
        shownInputsTarget = target

        // Housekeeping: weak targets that are gone, async waiters, main-queue work.
        links.sweepWeakTargets(frameIndex: frameIndex)
        timers.sweepWeakTargets(frameIndex: frameIndex)
        isResynchronizing = false
        if !nextFrameWaiters.isEmpty { resumeNextFrameWaiters(previous: previous) }
        drainMainQueue()
    }

    /// Where a callback notes the callbacks it runs itself (a ``GameClock``'s timers), so that
    /// blame and traces name them: inside a frame, with the callback that ran them; between frames
    /// (a task awaiting ``nextFrame()`` that updates a clock), with the last frame's work, booked
    /// with the interval they delayed. Nil when callbacks are not measured.
    var nestedCallbacksWhileMeasuring: _NestedCallbacks? {
        measuresCallbacks ? nestedCallbacks : nil
    }

    /// Starts over after a long pause (a level load, a modal dialog): the next frame is not counted
    /// as a hitch, display links get one period as their ``DisplayLink/deltaTime``, and timers
    /// coalesce what they missed, so nothing tries to catch up.
    public func resync() {
        previousWasFrame = false
        isResynchronizing = true
    }

    /// Waits for the next frame of the loop and returns its timing. While a task waits, the loop
    /// runs frames at the display's rate even if no display link is active.
    public func nextFrame() async -> FrameSnapshot {
        await withCheckedContinuation { continuation in
            nextFrameWaiters.append(continuation)
        }
    }

    private func resumeNextFrameWaiters(previous: FrameInstant) {
        let snapshot = FrameSnapshot(
            frameIndex: frameIndex, timestamp: timestamp, targetTimestamp: targetTimestamp,
            duration: source.refreshRate.period,
            deltaTime: .nanoseconds(min(timestamp.nanoseconds - previous.nanoseconds, maximumFrameDeltaNanoseconds)))
        let waiters = nextFrameWaiters
        nextFrameWaiters.removeAll()
        for waiter in waiters { waiter.resume(returning: snapshot) }
    }

    /// Ends `phase` now, books its duration (and, for a handler, notes it as a possible culprit),
    /// and returns the time, so the next phase starts there.
    /// Calls the links of `phase` and adds their time to the statistics' `accounted` phase.
    private func deliverLinks(
        _ phase: LinkPhase, _ frame: _LinkFrame, accountedAs accounted: FramePhase, startedAt start: Int64,
        blame: inout _FrameBlame, clock: (any FrameSource)?
    ) -> Int64 {
        let list = links[phase]
        guard list.hasLinks else { return start }
        list.deliver(frame, mask: activeMask, source: source, blame: &blame, clock: clock)
        let end = source.now.nanoseconds
        blame.phases[nanoseconds: accounted] += end - start
        return end
    }

    private func endPhase(
        _ phase: FramePhase, startedAt start: Int64, blame: inout _FrameBlame, culprit: _Culprit?
    ) -> Int64 {
        let end = source.now.nanoseconds
        blame.phases[nanoseconds: phase] = end - start
        if let culprit, measuresCallbacks { blame.note(culprit, from: start, to: end) }
        return end
    }

    private func drainMainQueue() {
        if drainsMainQueue { MainQueueDrain.drainIfOnMainThread() }
    }

    // MARK: Inspection

    /// The earliest fire date among the timers that would fire in the current mode, if any.
    public var nextTimerFireDate: FrameInstant? {
        timers.nextFireDate(mask: activeMask).map(FrameInstant.init(nanoseconds:))
    }

    /// The number of display links the loop holds (in any mode, paused or not).
    public var linkCount: Int { links.count }

    /// The number of timers the loop holds (in any mode, paused or not).
    public var timerCount: Int { timers.count }
}
