/// Which time a ``FrameTimer`` runs on: its loop's, or a game clock's.
enum _TimerTime {
    /// A ``FrameLoop``'s time: ``FrameTimer/fireDate``.
    case loop
    /// A ``GameClock``'s time: ``FrameTimer/gameFireDate``.
    case game
}
