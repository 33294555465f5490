extension FrameLog {
    /// The recording's drop events, blamed from its own columns by the rule the live loop uses: the
    /// longest phase of work before each dropping interval, or a gap when the wait ended more than
    /// two periods after its boundary and later than any phase took (see ``FrameDrop/gapDuration``).
    ///
    /// A log keeps phases, not callbacks, so no event names a ``FrameDrop/culprit``. `framelink
    /// summary` prints these; `framelink replay` checks that a loop replaying the log books the same.
    public var dropEvents: [FrameDrop] {
        records.compactMap { record in
            guard record.droppedFrames > 0 else { return nil }
            let phase = record.phases.longestWorkPhase
            return FrameDrop(
                frameIndex: record.index, timestamp: record.timestampNanoseconds, interval: record.intervalNanoseconds,
                droppedFrames: record.droppedFrames, phase: phase, phaseDuration: record.phases[nanoseconds: phase],
                culprit: nil,
                culpritDuration: 0, gapDuration: _GapRule.gap(of: record, period: periodNanoseconds))
        }
    }
}
