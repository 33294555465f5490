/// Watches a stable vsync grid for a vsync that moved by more than the present delays: returns,
/// ``_VsyncGrid/relockRun`` in a row, each later above the line than any delay the window had
/// seen before the run began. Such returns still fit the grid (it allows twice the largest delay),
/// so the grid took them and its line tilted toward them, for hundreds of returns, until the
/// window's quarters disagreed and its phase was judged to wander. They come from a display whose
/// vsync is elsewhere: a move to another display of the same rate (the host reports no change), a
/// modeset that kept the rate. **Returns all later than any before, three in a row, are a moved
/// vsync**: the grid starts its window again from them (a stable grid's next fit is used at once).
///
/// Random delays seldom do this by chance: after a full stability window of 96 returns, a return
/// beyond all of them comes one time in 97, three in a row one time in about 900,000. A window
/// whose delays are all tiny (presentation feedback's shown times, a display with no delay) is
/// watched from ``_VsyncGrid/stabilityTolerance`` up, the least delay any window allows: shown
/// times a nanosecond apart from their line's rounding are no move (counted from the window's
/// largest alone, they restarted feedback windows every few hundred frames and lost drops in 7
/// sweep scenarios of 10,000).
struct _VsyncShiftWatch {
    /// Returns the window must hold before a run is watched: ``_VsyncGrid/stabilityWindow``.
    static let leastWindow = _VsyncGrid.stabilityWindow

    /// The returns of the current run, oldest first.
    private(set) var run: [Int64] = []
    /// The largest delay the window had seen when the run began, or
    /// ``_VsyncGrid/stabilityTolerance`` if that is larger.
    private var threshold: Int64 = 0

    init() {
        run.reserveCapacity(_VsyncGrid.relockRun)
    }

    /// Notes a return the grid took, `delay` above its line, while its window of `windowCount`
    /// returns has seen delays up to `largestDelay` and is judged `stable` (or not). Returns
    /// whether the run is complete: the vsync moved.
    mutating func noteTaken(_ time: Int64, delay: Int64, largestDelay: Int64, windowCount: Int, stable: Bool) -> Bool {
        guard stable, windowCount >= Self.leastWindow else {
            forget()
            return false
        }
        if run.isEmpty { threshold = max(largestDelay, _VsyncGrid.stabilityTolerance) }
        guard delay > threshold else {
            forget()
            return false
        }
        run.append(time)
        return run.count >= _VsyncGrid.relockRun
    }

    /// Forgets the run.
    mutating func forget() {
        run.removeAll(keepingCapacity: true)
    }
}
