/// Game time, apart from real time: a fixed-step accumulator with an interpolation factor, a time
/// scale and a pause of its own, single-stepping while paused, and a resync after long loads.
///
/// Feed it the time each frame will be shown (a display link's `targetTimestamp`: the state you
/// simulate is the one the display will show) and it says how many fixed simulation steps to run
/// this frame, the game time of each, and how far the renderer should interpolate between the
/// last two states — the "fix your timestep" loop, with a cap on steps per frame so a slow frame
/// cannot start a spiral of death. All arithmetic is in integer nanoseconds: the step counts are
/// exact.
///
/// ```swift
/// let clock = GameClock(fixedStep: .milliseconds(10))
/// var position = Interpolated(0.0)               // the previous and the current state
/// DisplayLink(target: world) { world, link in
///     let frame = clock.update(at: link.targetTimestamp)
///     for _ in frame.stepTimes { position.advance(to: position.current + world.speed * 0.010) }
///     world.draw(at: position.value(at: frame.alpha))
/// }.add(to: loop, forMode: .common)
/// ```
///
/// **Game time has its own type.** ``now`` is a ``GameInstant``, not a ``FrameInstant``: a game
/// timer's date is a ``FrameTimer/gameFireDate``, and loop time (`loop.now + .seconds(8)`) cannot
/// be mixed in.
///
/// **The first update counts no time.** Game time starts at zero on the first ``update(at:)``:
/// there is no frame before it to count from, and the first frame shows the game's starting state
/// (no steps). A timer added to the clock before then fires `interval` of game time after the
/// first update — one frame later than the same timer added to the loop at the same moment, which
/// counts from the moment it was added.
///
/// **Timers and animations on game time.** A ``FrameTimer`` added with ``FrameTimer/add(to:)`` and
/// an ``Animator`` made with `Animator(loop:gameClock:)` run on this clock's time: they stop while
/// it is paused, follow its time scale and advance on single steps. ``update(at:)`` fires the
/// timers that are due after it moves game time (in fire-date order); inside a frame of a
/// ``FrameLoop`` each fire is timed on its own, so drop reports and traces name a slow game timer
/// by its ``FrameTimer/label``, not the link that updated the clock. The animator shows the clock's
/// time in the late-update phase of the frame (``LinkPhase/lateUpdate``), after the links that
/// update the clock and simulate. A power-up timer of 8 s stays 8 s of play however long the pause
/// menu was open.
///
/// ```swift
/// let powerUp = FrameTimer(interval: .seconds(8), repeats: false) { _ in player.shrink() }
/// powerUp.add(to: clock)                      // game time: pauses with the game
/// let effects = Animator(loop: loop, gameClock: clock)
/// clock.pause()                               // the timer and every effect stop
/// ```
@MainActor
public final class GameClock {
    /// The fixed simulation step.
    public let fixedStep: Duration

    /// The most steps one frame may run; time beyond it is dropped (the spiral-of-death cap). By
    /// default it follows ``maximumDelta``: as many steps as the longest frame counts (15 for 250 ms
    /// of 1/60 s steps, 30 at 1/120 s), so the only game time a hitch loses is what the delta cap
    /// already drops.
    public let maximumStepsPerFrame: Int

    /// The longest real time one frame may count (250 ms by default): a debugger pause is not
    /// replayed as seconds of simulation.
    public let maximumDelta: Duration

    /// How fast game time runs relative to real time: 1 is normal, 0.5 slow motion, 0 frozen.
    ///
    /// Must be zero to ``maximumTimeScale``: anything else (NaN, infinite, negative, larger) stops
    /// the program with a `FrameLinkError` message.
    public var timeScale: Double = 1 {
        willSet {
            guard newValue.isFinite, newValue >= 0, newValue <= Self.maximumTimeScale else {
                FrameLinkError.trap(
                    .invalidInterval(
                        "time scale \(newValue): must be zero to \(Self.maximumTimeScale) (a fast-forward of at most 1,000×)"
                    ))
            }
        }
    }

    /// The largest ``timeScale``: 1,000, a fast-forward far beyond any a game plays, which keeps a
    /// frame's game time (at most ``maximumDelta`` times it) within the clock's integer nanoseconds.
    public nonisolated static let maximumTimeScale = 1_000.0

    /// Whether game time is paused (real time goes on).
    public private(set) var isPaused = false

    /// The total game time so far.
    public var time: Duration { .nanoseconds(timeNanoseconds) }

    /// The current game time, as an instant: what a game timer's ``FrameTimer/gameFireDate`` and
    /// a game-time animator's begin times are measured in.
    public var now: GameInstant { GameInstant(nanoseconds: timeNanoseconds) }

    private let stepNanoseconds: Int64
    private let maximumDeltaNanoseconds: Int64
    /// Game time in nanoseconds.
    private(set) var timeNanoseconds: Int64 = 0
    /// Timers on game time, by fire date (timers with the same date in the order scheduled).
    private var timers: [FrameTimer] = []
    /// Timers scheduled while timers fire, in the order scheduled: added to ``timers`` once the
    /// outermost pass ends (a fire may update the clock again, which fires in a pass of its own).
    private var scheduledDuringPass: [FrameTimer] = []
    /// How many passes that fire timers are running (more than 1 when a fire updates the clock).
    private var firingPasses = 0
    /// Whether an update ran since the clock was paused: if none did, the time until the resume
    /// is not counted by the next update.
    private var updatedWhilePaused = false

    private var accumulator: Int64 = 0
    private var lastTimestamp: Int64?
    private var pendingSingleSteps = 0

    /// Creates a game clock.
    ///
    /// - Parameters:
    ///   - fixedStep: The simulation step (1/60 s by default).
    ///   - maximumStepsPerFrame: The cap on steps per frame; by default, enough steps for
    ///     `maximumDelta` (rounded up).
    ///   - maximumDelta: The cap on real time per frame (250 ms by default).
    /// - Precondition: Stops the program, with a `FrameLinkError` message, if the step or the delta cap is not positive, or the step cap is
    ///   below 1.
    public convenience init(
        fixedStep: Duration = .nanoseconds(16_666_667), maximumStepsPerFrame: Int? = nil,
        maximumDelta: Duration = .milliseconds(250)
    ) {
        let checked = FrameLinkError.require { () throws(FrameLinkError) in
            try Self.checked(
                fixedStep: fixedStep, maximumStepsPerFrame: maximumStepsPerFrame, maximumDelta: maximumDelta)
        }
        self.init(checked, fixedStep: fixedStep, maximumStepsPerFrame: maximumStepsPerFrame, maximumDelta: maximumDelta)
    }

    /// Creates a game clock from a step and caps read at run time (a settings file).
    ///
    /// - Throws: ``FrameLinkError/invalidInterval(_:)`` if the step or the delta cap is not
    ///   positive; ``FrameLinkError/invalidCount(_:)`` if the step cap is below 1.
    public convenience init(
        validatingFixedStep fixedStep: Duration, maximumStepsPerFrame: Int? = nil,
        maximumDelta: Duration = .milliseconds(250)
    ) throws(FrameLinkError) {
        let checked = try Self.checked(
            fixedStep: fixedStep, maximumStepsPerFrame: maximumStepsPerFrame, maximumDelta: maximumDelta)
        self.init(checked, fixedStep: fixedStep, maximumStepsPerFrame: maximumStepsPerFrame, maximumDelta: maximumDelta)
    }

    /// The step and the delta cap in nanoseconds, checked.
    private static func checked(
        fixedStep: Duration, maximumStepsPerFrame: Int?, maximumDelta: Duration
    ) throws(FrameLinkError) -> (step: Int64, maximumDelta: Int64) {
        let step = try FrameLinkError.checkedNanoseconds(fixedStep, what: "fixed step")
        let delta = try FrameLinkError.checkedNanoseconds(maximumDelta, what: "maximum delta")
        if let maximumStepsPerFrame, maximumStepsPerFrame < 1 {
            throw .invalidCount("maximumStepsPerFrame \(maximumStepsPerFrame): must be at least 1")
        }
        return (step, delta)
    }

    private init(
        _ checked: (step: Int64, maximumDelta: Int64), fixedStep: Duration, maximumStepsPerFrame: Int?,
        maximumDelta: Duration
    ) {
        stepNanoseconds = checked.step
        maximumDeltaNanoseconds = checked.maximumDelta
        self.fixedStep = fixedStep
        self.maximumStepsPerFrame =
            maximumStepsPerFrame
            ?? Int(clamping: (maximumDeltaNanoseconds + stepNanoseconds - 1) / stepNanoseconds)
        self.maximumDelta = maximumDelta
    }

    /// Sets the time scale (``timeScale`` is settable now).
    ///
    /// - Parameter scale: The new time scale, finite and zero or more.
    @available(*, deprecated, renamed: "timeScale", message: "set timeScale instead")
    public func setTimeScale(_ scale: Double) {
        timeScale = scale
    }

    /// Pauses game time.
    public func pause() {
        guard !isPaused else { return }
        isPaused = true
        updatedWhilePaused = false
    }

    /// Resumes game time; the paused stretch is not replayed, even when no update ran during it
    /// (the link that updates the clock was paused too), and single steps asked for during the
    /// pause and not run are forgotten.
    public func resume() {
        guard isPaused else { return }
        isPaused = false
        pendingSingleSteps = 0
        if !updatedWhilePaused { lastTimestamp = nil }
    }

    /// While paused, makes the next ``update(at:)`` run exactly one fixed step (for debugging frame
    /// by frame). Does nothing while running.
    public func step() {
        if isPaused { pendingSingleSteps += 1 }
    }

    /// Forgets the time since the last update (after a long load): the next update counts no real
    /// time, so nothing tries to catch up.
    public func resync() {
        lastTimestamp = nil
    }

    /// Advances the clock to the frame at `timestamp` and returns what to simulate: the steps, the
    /// game time of each, and the interpolation factor. The first update (and the first after
    /// ``resync()``) counts no real time. Fires the game timers that are due.
    public func update(at timestamp: FrameInstant) -> GameFrame {
        let now = timestamp.nanoseconds
        let realDelta = lastTimestamp.map { min(max(0, now - $0), maximumDeltaNanoseconds) } ?? 0
        // A timestamp earlier than the last counts no time, and the next counts from the later one.
        lastTimestamp = max(lastTimestamp ?? now, now)
        return advance(byRealNanoseconds: realDelta)
    }

    /// Advances the clock by the frame `link` is called for and returns what to simulate: the
    /// link's ``DisplayLink/deltaTime`` of real time (clamped to ``maximumDelta``), so game time
    /// follows the loop's own rule for simulation time — including its resyncs: after a load the
    /// game resynced the loop for, or a hidden window shown again, the game moves by one frame,
    /// not by the time it was away. The first update counts no time, as with ``update(at:)``.
    public func update(for link: DisplayLink) -> GameFrame {
        let now = link.targetTimestamp.nanoseconds
        let realDelta =
            lastTimestamp == nil ? 0 : min(max(0, link.deltaTime.wholeNanoseconds), maximumDeltaNanoseconds)
        lastTimestamp = max(lastTimestamp ?? now, now)
        return advance(byRealNanoseconds: realDelta)
    }

    /// Moves game time by `realDelta` nanoseconds of real time (scaled, or a single step while
    /// paused), runs the step accumulator and fires the timers that are due.
    private func advance(byRealNanoseconds realDelta: Int64) -> GameFrame {

        var gameDelta: Int64 = 0
        if isPaused {
            updatedWhilePaused = true
            if pendingSingleSteps > 0 {
                pendingSingleSteps -= 1
                gameDelta = stepNanoseconds
            }
        } else {
            gameDelta = Int64((Double(realDelta) * timeScale).rounded())
        }
        timeNanoseconds += gameDelta
        accumulator += gameDelta

        var steps = 0
        while accumulator >= stepNanoseconds && steps < maximumStepsPerFrame {
            accumulator -= stepNanoseconds
            steps += 1
        }
        var dropped: Int64 = 0
        if accumulator >= stepNanoseconds {
            dropped = accumulator - accumulator % stepNanoseconds
            accumulator %= stepNanoseconds
            timeNanoseconds -= dropped
        }
        fireDueTimers()
        return GameFrame(
            realDelta: .nanoseconds(realDelta), delta: .nanoseconds(gameDelta - dropped), steps: steps,
            alpha: Double(accumulator) / Double(stepNanoseconds), droppedTime: .nanoseconds(dropped),
            time: GameInstant(nanoseconds: timeNanoseconds),
            stepTimes: GameFrame.StepTimes(
                count: steps, stepNanoseconds: stepNanoseconds, last: timeNanoseconds - accumulator))
    }

    // MARK: Timers and animators on game time

    /// Schedules `timer` at its fire date (moving it if it is scheduled already). During a pass
    /// that fires timers, it waits for the pass to end: a timer scheduled by a fire (its own next
    /// date, or one set to the current time) fires from the next update, as on a loop.
    func schedule(_ timer: FrameTimer) {
        unschedule(timer)
        if firingPasses > 0 {
            scheduledDuringPass.append(timer)
            return
        }
        let date = timer.nextFireNanoseconds
        var index = timers.count
        while index > 0 && timers[index - 1].nextFireNanoseconds > date { index -= 1 }
        timers.insert(timer, at: index)
    }

    /// Removes `timer` from the schedule, if it is there.
    func unschedule(_ timer: FrameTimer) {
        if let index = timers.firstIndex(where: { $0 === timer }) { timers.remove(at: index) }
        if let index = scheduledDuringPass.firstIndex(where: { $0 === timer }) { scheduledDuringPass.remove(at: index) }
    }

    /// Fires the timers whose fire date game time has reached, earliest first; a repeating timer
    /// fires once however many of its dates passed, and goes on at its next date on its grid.
    /// Timers scheduled by the fires wait for the next update. Inside a loop's frame, each fire is
    /// timed for the loop's blame and trace (its own time: not that of timers it fired in turn).
    private func fireDueTimers() {
        guard let first = timers.first, first.nextFireNanoseconds <= timeNanoseconds else { return }
        let nested = FrameLoop.current?.nestedCallbacksWhileMeasuring
        firingPasses += 1
        while let timer = timers.first, timer.nextFireNanoseconds <= timeNanoseconds {
            timers.removeFirst()
            let start = nested?.now ?? 0
            nested?.enter()
            // Rescheduled before the call, so that the closure may reschedule or invalidate it.
            if timer.beginFire(now: timeNanoseconds, scheduledFor: timer.nextFireNanoseconds, frameIndex: -1) != nil {
                schedule(timer)
                timer.callFromLoop()
            } else {
                timer.callFromLoop()
                timer.invalidate()
            }
            if let nested { nested.leave(timer, from: start, to: nested.now) }
        }
        firingPasses -= 1
        guard firingPasses == 0, !scheduledDuringPass.isEmpty else { return }
        let waiting = scheduledDuringPass
        scheduledDuringPass.removeAll(keepingCapacity: true)
        for timer in waiting { schedule(timer) }
    }
}
