/// What ends a ``PresentSource``'s wait and gives the frame its timestamp, decided by
/// `nextFrameWait()` or `idleWait(until:)` and carried out by `beginFrame(at:)`.
enum _FrameBoundary: Equatable {
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
    /// Vsync `number` of the grid, for a present called in vsync `called`'s interval, released by
    /// vsync `released` if it `blocked` (`number`, unless coming onto the grid moved the frame past
    /// it).
    case vsync(called: Int64, number: Int64, blocked: Bool, released: Int64, locksDeadline: Bool)
    /// The end of an idle wait.
    case idle

    /// Whether the frame's timestamp is the return of a present that blocked (the vsync that
    /// released it).
    var isBlockingReturn: Bool {
        switch self {
        case .now(let blocked, _): blocked
        case .vsync(_, let number, let blocked, let released, _): blocked && released == number
        default: false
        }
    }
}
