/// A point in game time: whole nanoseconds of a ``GameClock``'s time since the game began.
///
/// Game time is not loop time: it stops while the clock is paused, runs slower under a time scale
/// and moves by single steps. The two have different types, so the old mistake of scheduling a
/// game timer at loop time (`loop.now + .seconds(8)`) does not compile:
///
/// ```swift
/// let powerUp = FrameTimer(interval: .seconds(8), repeats: false) { _ in player.shrink() }
/// powerUp.gameFireDate = clock.now + .seconds(8)    // game time: 8 s of play from now
/// powerUp.add(to: clock)
/// ```
public struct GameInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number of nanoseconds of game time since the clock's first update.
    public let nanoseconds: Int64

    /// Creates the instant the given number of nanoseconds of game time after the game began (to
    /// restore a saved game's time, for example).
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The beginning of game time.
    public static let zero = GameInstant(nanoseconds: 0)

    /// The instant in seconds of game time, for display and for animation math.
    public var seconds: Double { Double(nanoseconds) / 1_000_000_000 }

    /// The game time elapsed from this instant to `other` (negative if `other` is earlier).
    public func duration(to other: GameInstant) -> Duration {
        .nanoseconds(other.nanoseconds - nanoseconds)
    }

    /// A textual form in seconds with nanosecond precision, such as `"game 8.500000000 s"`.
    public var description: String {
        "game " + FrameInstant(nanoseconds: nanoseconds).description
    }

    /// Orders instants by game time.
    public static func < (lhs: GameInstant, rhs: GameInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// The instant a duration of game time after `lhs`.
    public static func + (lhs: GameInstant, rhs: Duration) -> GameInstant {
        GameInstant(nanoseconds: lhs.nanoseconds + rhs.wholeNanoseconds)
    }

    /// The instant a duration of game time before `lhs`.
    public static func - (lhs: GameInstant, rhs: Duration) -> GameInstant {
        GameInstant(nanoseconds: lhs.nanoseconds - rhs.wholeNanoseconds)
    }

    /// The game time between two instants.
    public static func - (lhs: GameInstant, rhs: GameInstant) -> Duration {
        .nanoseconds(lhs.nanoseconds - rhs.nanoseconds)
    }
}
