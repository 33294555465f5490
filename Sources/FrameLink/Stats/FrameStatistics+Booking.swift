extension FrameStatistics {
    /// Books the interval from the frame at `previous` to the frame at `now` (nanoseconds on the
    /// source's clock): the last frame's work and culprit from `blame`, and the wait that ended at
    /// `now`, split into present (`presentDuration`) and the wait after it. Returns the record, for
    /// the frame log. `dropped` is the source's own count of the display's missed refreshes, if it
    /// has one (never more than the interval holds); else they are counted from the interval.
    /// A `recorded` interval (a frame log being replayed) is booked with its own phases. Either way
    /// a drop's gap is judged from the record (``_GapRule/gap(of:period:)``), as
    /// ``FrameLog/dropEvents`` judges a log's: the same rule live, in a log and in a replay.
    func book(
        frameIndex: Int64, from previous: Int64, to now: Int64, waitStart: Int64, presentDuration: Int64,
        period: Int64, dropped: Int? = nil, blame: _FrameBlame, recorded: FrameRecord? = nil
    ) -> FrameRecord {
        let interval = now - previous
        let droppedFrames = FrameRecord.droppedFrames(interval: interval, period: period, known: dropped)
        periodNanoseconds = period
        if var record = recorded {
            // A replayed log: the recording's phases, and the boundary from its own grid.
            (record.index, record.timestampNanoseconds, record.intervalNanoseconds, record.droppedFrames) =
                (frameIndex, now, interval, droppedFrames)
            self.record(record, gapDuration: droppedFrames > 0 ? _GapRule.gap(of: record, period: period) : 0)
            return record
        }
        var phases = blame.phases
        let wait = max(0, now - waitStart)
        let present = min(max(0, presentDuration), wait)
        phases[nanoseconds: .present] = present
        phases[nanoseconds: .presentWait] = wait - present
        let record = FrameRecord(
            index: frameIndex, timestamp: now, interval: interval, droppedFrames: droppedFrames, phases: phases)
        if record.droppedFrames > 0 {
            self.record(
                record, culprit: blame.culprit.name, culpritDuration: blame.culpritDuration,
                gapDuration: _GapRule.gap(of: record, period: period))
        } else {
            self.record(record)
        }
        return record
    }
}
