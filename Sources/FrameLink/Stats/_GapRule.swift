/// The rule that tells a gap (the process did not run) from a slow phase of work, for a dropping
/// interval: the one rule of the live loop, of a replayed frame log and of ``FrameLog/dropEvents``.
///
/// A wait that ends more than ``latePeriods`` periods after the frame boundary it waited for, and
/// later than the longest phase of work took, did not end late because of anything the process
/// did: a sleep, or a present with a swap chain three deep, never ends later than that on its own.
/// The process was stopped, suspended or starved of CPU; the time it ended late is the gap.
///
/// A frame log keeps one period: a log recorded across a frame-rate change (a range, the automatic
/// frame rate) is judged with its own period, the loop with the period of the moment, so the two can
/// differ there.
enum _GapRule {
    /// How many periods after its boundary a wait must end to be a gap: more than 2 (a swap chain
    /// three deep can hold a present for two periods).
    static let latePeriods: Int64 = 2

    /// The gap of an interval whose wait ended `late` nanoseconds after its boundary, at a refresh
    /// `period`, after a frame whose work took `phases`: `late`, or 0 when the interval is not a gap.
    static func gap(late: Int64, period: Int64, phases: PhaseDurations) -> Int64 {
        guard period > 0, late / latePeriods > period, late >= phases[nanoseconds: phases.longestWorkPhase] else {
            return 0
        }
        return late
    }

    /// The gap of an interval from its record alone (the live loop's booking and a frame log's
    /// record alike, so that both blame a drop the same way): its wait began when its present did
    /// (the timestamp less the present and the wait after it), and its boundary is the first time
    /// after that on the grid of `period` through the previous frame (where a deadline pacer's
    /// grid is, and a vsync's when the previous frame was on it). Any record is accepted: nothing overflows, and a record whose
    /// phases do not fit its interval has no gap.
    static func gap(of record: FrameRecord, period: Int64) -> Int64 {
        guard period > 0, record.intervalNanoseconds > 0 else { return 0 }
        let waited = record.phases[nanoseconds: .present].addingReportingOverflow(
            record.phases[nanoseconds: .presentWait])
        guard !waited.overflow, waited.partialValue >= 0, waited.partialValue <= record.intervalNanoseconds else {
            return 0
        }
        // The wait began within the interval (checked above); its boundary may lie beyond what
        // 64 bits count only when it also lies after the timestamp: then the wait was not late.
        let waitStartAfterPrevious = record.intervalNanoseconds - waited.partialValue
        let (boundaryAfterPrevious, overflow) =
            (waitStartAfterPrevious - waitStartAfterPrevious % period).addingReportingOverflow(period)
        guard !overflow else { return 0 }
        return gap(late: record.intervalNanoseconds - boundaryAfterPrevious, period: period, phases: record.phases)
    }
}
