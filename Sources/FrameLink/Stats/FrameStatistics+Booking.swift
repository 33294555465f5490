extension FrameStatistics {
    /// Books the interval from the frame at `previous` to the frame at `now` (nanoseconds on the
    /// source's clock): the last frame's work and culprit from `blame`, and the wait that ended at
    /// `now`, split into present (`presentDuration`) and the wait after it. Returns the record, for
    /// the frame log. `dropped` is the source's own count of the display's missed refreshes, if it
    /// has one (never more than the interval holds); else they are counted from the interval.
    /// A `recorded` interval (a frame log being replayed) is booked with its own phases, and its
    /// gap is judged from them (``_GapRule/gap(of:period:)``), as ``FrameLog/dropEvents`` does.
    func book(
        frameIndex: Int64, from previous: Int64, to now: Int64, waitStart: Int64, presentDuration: Int64,
        period: Int64, dropped: Int? = nil, blame: _FrameBlame, recorded: FrameRecord? = nil
    ) -> FrameRecord {
        let interval = now - previous
        let droppedFrames = FrameRecord.droppedFrames(interval: interval, period: period, known: dropped)
        periodNanoseconds = period
        if var record = recorded {
            // A replayed log: the recording's phases, and the boundary from its own grid.
            (record.index, record.timestamp, record.interval, record.droppedFrames) =
                (frameIndex, now, interval, droppedFrames)
            self.record(record, gapDuration: droppedFrames > 0 ? _GapRule.gap(of: record, period: period) : 0)
            return record
        }
        var phases = blame.phases
        let wait = max(0, now - waitStart)
        let present = min(max(0, presentDuration), wait)
        phases[.present] = present
        phases[.presentWait] = wait - present
        let record = FrameRecord(
            index: frameIndex, timestamp: now, interval: interval, droppedFrames: droppedFrames, phases: phases)
        if record.droppedFrames > 0 {
            self.record(
                record, culprit: blame.culprit.name, culpritDuration: blame.culpritDuration,
                gapDuration: gap(waitStart: waitStart, wake: now, period: period, phases: phases))
        } else {
            self.record(record)
        }
        return record
    }

    /// How long the process did not run in a dropping interval (see ``_GapRule``): the boundary
    /// the wait was for comes from the source.
    private func gap(waitStart: Int64, wake: Int64, period: Int64, phases: PhaseDurations) -> Int64 {
        guard let source, period > 0 else { return 0 }
        let boundary = source.expectedTimestamp(frames: 1, after: FrameInstant(nanoseconds: waitStart)).nanoseconds
        let (late, overflow) = wake.subtractingReportingOverflow(boundary)
        guard !overflow else { return 0 }
        return _GapRule.gap(late: late, period: period, phases: phases)
    }
}
