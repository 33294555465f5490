/// What one frame of a ``GameClock`` asks the game to do.
public struct GameFrame: Hashable, Sendable {
    /// Real time since the previous update (clamped to the clock's maximum delta; zero after a
    /// resync).
    public var realDelta: Duration
    /// Game time that passed this frame (scaled, zero while paused).
    public var delta: Duration
    /// The number of fixed steps to simulate.
    public var steps: Int
    /// How far between the previous and the current simulation state to render, in 0..<1.
    public var alpha: Double
    /// Game time dropped by the step cap (the spiral-of-death guard), zero normally.
    public var droppedTime: Duration
}
