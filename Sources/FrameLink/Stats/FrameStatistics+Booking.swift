extension FrameStatistics {
    /// Books the interval from the frame at `previous` to the frame at `now` (nanoseconds on the
    /// source's clock): the last frame's work and culprit from `blame`, and the wait that ended at
    /// `now`, split into present (`presentDuration`) and the wait after it. Returns the record, for
    /// the frame log. `dropped` is the source's own count of the display's missed refreshes, if it
    /// has one (never more than the interval holds); else they are counted from the interval.
    func book(
        frameIndex: Int64, from previous: Int64, to now: Int64, waitStart: Int64, presentDuration: Int64,
        period: Int64, dropped: Int? = nil, blame: _FrameBlame
    ) -> FrameRecord {
        var phases = blame.phases
        let wait = max(0, now - waitStart)
        let present = min(max(0, presentDuration), wait)
        phases[.present] = present
        phases[.presentWait] = wait - present
        let interval = now - previous
        let record = FrameRecord(
            index: frameIndex, timestamp: now, interval: interval,
            droppedFrames: FrameRecord.droppedFrames(interval: interval, period: period, known: dropped),
            phases: phases)
        periodNanoseconds = period
        if record.droppedFrames > 0 {
            self.record(
                record, culprit: blame.culprit.name, culpritDuration: blame.culpritDuration,
                gapDuration: gap(waitStart: waitStart, wake: now, period: period, phases: phases))
        } else {
            self.record(record)
        }
        return record
    }

    /// How long the process did not run in a dropping interval: the time by which the wait ended
    /// after the frame boundary it waited for, when that is over two periods (a sleep, or present
    /// with a swap chain three deep, never ends later than that on its own) and longer than any
    /// phase of work. Such an interval is a gap (the process was stopped, suspended or starved of
    /// CPU), not a slow phase. Zero otherwise.
    private func gap(waitStart: Int64, wake: Int64, period: Int64, phases: PhaseDurations) -> Int64 {
        guard let source, period > 0 else { return 0 }
        let boundary = source.expectedTimestamp(frames: 1, after: FrameInstant(nanoseconds: waitStart)).nanoseconds
        let (late, overflow) = wake.subtractingReportingOverflow(boundary)
        guard !overflow, late / 2 > period, late >= phases[phases.longestWorkPhase] else { return 0 }
        return late
    }
}
