import Logging

/// A pacing decision worth a log line: kept by the pacer (``_PresentPacer/log``) as it decides, and
/// written by ``PresentSource`` once the pacer's work for the call is done.
///
/// **No log line is written from inside the pacer.** A game's log handler may read the source
/// (its mode, its description) and change it (hide it, switch its pacing) for each line; written
/// from inside the pacer's work, a change lands in the middle of a decision (a hide there reached
/// a rule that holds only for shown windows, and trapped), and, while the pacer was a value, a mere
/// read overlapped its exclusive access. Kept as typed values, the entries cost no string until
/// they are written, and nothing at all while no decision changes.
enum _PacingLogEntry: Equatable {
    /// The present returns fitted a period no display has; `count` so far (`first`: the log's
    /// first word of it, at notice).
    case implausibleFit(count: Int, first: Bool, rate: FrameRate)
    /// The grid was fitted again because returns stopped fitting it; `count` re-locks so far.
    case relocked(count: Int, rate: FrameRate)
    /// The vsync is phase-locked (the log last said it was not).
    case phaseLocked(rate: FrameRate)
    /// The lock has been lost for ``_VsyncLockLog/lockLossFrames`` frames.
    case lockLost
    /// The mode changed from `from` to `to`'s.
    case modeChanged(from: PresentSource.Mode, to: PacingState, rate: FrameRate)
    /// The phase probe found the returns following the frames' own timing.
    case presentFollowsFrames(PacingReason, rate: FrameRate)
    /// Frames are light enough again to go back to back and measure whether present blocks.
    case measuringAgain(rate: FrameRate)
    /// The automatic frame rate halved the rate: presenting on every `every`-th deadline (or
    /// vsync), the frame's cost over the budget.
    case frameRateHalved(every: Int, ofDeadlines: Bool, cost: Int64, budget: Int64)
    /// The automatic frame rate went back to the full rate, because it was turned off or (else)
    /// frames are under budget again.
    case frameRateRestored(turnedOff: Bool)

    /// What a halved rate presents on, in words: "2nd deadline", "4th vsync".
    static func cadence(every: Int, ofDeadlines: Bool) -> String {
        FrameRateRange.ordinal(every) + (ofDeadlines ? " deadline" : " vsync")
    }

    /// Writes the entry to FrameLink's logger.
    @MainActor func write() {
        let logger = FrameLinkLogging.logger
        switch self {
        case .implausibleFit(let count, let first, let rate):
            let message: Logger.Message =
                "vsync: the present returns fitted a period no display has (outside 1 ms to 1 s); the fit was discarded and the grid is measured again (\(count) so far)"
            logger.log(level: first ? .notice : .debug, message, metadata: ["refresh": "\(rate)"])
        case .relocked(let count, let rate):
            logger.trace(
                "vsync: re-locked to the presents' returns (\(count) re-locks so far)", metadata: ["refresh": "\(rate)"]
            )
        case .phaseLocked(let rate):
            logger.debug("vsync: phase-locked; timestamps are the fitted vsync", metadata: ["refresh": "\(rate)"])
        case .lockLost:
            logger.trace("vsync: phase lock lost for \(_VsyncLockLog.lockLossFrames) frames")
        case .modeChanged(let from, let state, let rate):
            logger.debug("pacing: \(from) → \(state.mode): \(state)", metadata: ["refresh": "\(rate)"])
        case .presentFollowsFrames(let reason, let rate):
            logger.debug("pacing: \(reason)", metadata: ["refresh": "\(rate)"])
        case .measuringAgain(let rate):
            logger.debug(
                "pacing: frames take under three quarters of a period now; up to \(_BackToBackFrames.limit) go back to back, to see whether present blocks once the swap chain fills (it could not while frames were slower)",
                metadata: ["refresh": "\(rate)"])
        case .frameRateHalved(let every, let ofDeadlines, let cost, let budget):
            logger.debug(
                "automatic frame rate: presenting every \(Self.cadence(every: every, ofDeadlines: ofDeadlines)): frame cost \(Milliseconds(cost)) ms over the \(Milliseconds(budget)) ms budget"
            )
        case .frameRateRestored(let turnedOff):
            let because =
                turnedOff
                ? "automatic frame rate turned off"
                : "the frame cost is under \(_AutoFrameRate.restoringPercent) % of the budget"
            logger.debug("automatic frame rate: back to the full rate: \(because)")
        }
    }
}
