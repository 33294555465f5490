/// What one frame of a ``GameClock`` asks the game to do: how many fixed steps to simulate, the
/// game time each step simulates to, and how far to interpolate when rendering.
///
/// ```swift
/// let frame = clock.update(at: link.targetTimestamp)
/// for stepTime in frame.stepTimes {                  // frame.steps of them, oldest first
///     world.simulate(step: clock.fixedStep)
///     if world.playerWasHit { effects.add(flash, timing: AnimationTiming(beginTime: effects.time(at: stepTime))) { _ in } }
/// }
/// world.render(interpolating: frame.alpha)
/// ```
public struct GameFrame: Hashable, Sendable {
    /// Real time since the previous update (clamped to the clock's maximum delta; zero on the
    /// first update and after a resync).
    public var realDelta: Duration
    /// Game time that passed this frame: scaled real time; while paused, zero, or one fixed step
    /// when ``GameClock/step()`` asked for one.
    public var delta: Duration
    /// The number of fixed steps to simulate.
    public var steps: Int
    /// How far between the previous and the current simulation state to render, in 0..<1.
    public var alpha: Double
    /// Game time dropped by the step cap (the spiral-of-death guard), zero normally.
    public var droppedTime: Duration
    /// The game time after this update (the clock's ``GameClock/now``): the moment the frame
    /// shows, ``alpha`` of a step after the state the last step produces.
    public var time: GameInstant
    /// The game time each of this frame's ``steps`` simulates to, oldest first: the time of the
    /// state the step produces. An effect set off by step `i` begins at `stepTimes[i]`, where a
    /// smooth run would have begun it, however many steps a long frame runs at once.
    public var stepTimes: StepTimes
}
