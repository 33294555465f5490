/// What the log says about the vsync lock: changes, never per frame.
///
/// A re-lock is logged at once; a phase lock gained when the log last said none; a lock lost for
/// ``lockLossFrames`` frames in a row; a fit discarded for a period no display has once at notice
/// (something outside is wrong: the clock, the compositor, the load), then at debug. It adds
/// entries to the pacer's log (``_PacingLogEntry``), which the source writes.
struct _VsyncLockLog {
    /// Frames a phase lock must stay lost before the loss is logged: 60, a second at 60 Hz. A
    /// single return the grid cannot explain (a compositor hiccup) ends the lock until the next
    /// returns fit again, a few frames later; logging each would be noise, not a change.
    static let lockLossFrames = 60

    /// Whether the log last said the vsync is phase-locked.
    private var loggedLock = false
    /// The frames the lock has been lost since the log last said it was locked.
    private var framesWithoutLock = 0
    /// The grid's discarded implausible fits the log has told of.
    private var loggedImplausibleFits = 0

    /// Notes in `log` what changed in a frame: the grid's discarded fits so far (`implausibleFits`),
    /// its re-locks before and after the frame, whether it is phase-locked, at the display's `rate`
    /// (nominal) or `measuredRate`.
    mutating func noteFrame(
        implausibleFits: Int, relocksBefore: Int, relocks: Int, isPhaseLocked: Bool, rate: FrameRate,
        measuredRate: FrameRate?, into log: inout [_PacingLogEntry]
    ) {
        if implausibleFits != loggedImplausibleFits {
            log.append(.implausibleFit(count: implausibleFits, first: loggedImplausibleFits == 0, rate: rate))
            loggedImplausibleFits = implausibleFits
        }
        if relocks != relocksBefore { log.append(.relocked(count: relocks, rate: rate)) }
        if isPhaseLocked {
            framesWithoutLock = 0
            guard !loggedLock else { return }
            loggedLock = true
            log.append(.phaseLocked(rate: measuredRate ?? rate))
        } else if loggedLock {
            framesWithoutLock += 1
            guard framesWithoutLock >= Self.lockLossFrames else { return }
            loggedLock = false
            log.append(.lockLost)
        }
    }
}
