extension FrameStatistics {
    /// Books the interval from the frame at `previous` to the frame at `now` (nanoseconds on the
    /// source's clock): the last frame's work and culprit from `blame`, and the wait that ended at
    /// `now`, split into present (`presentDuration`) and the wait after it. Returns the record, for
    /// the frame log.
    func book(
        frameIndex: Int64, from previous: Int64, to now: Int64, waitStart: Int64, presentDuration: Int64,
        period: Int64, blame: _FrameBlame
    ) -> FrameRecord {
        var phases = blame.phases
        let wait = max(0, now - waitStart)
        let present = min(max(0, presentDuration), wait)
        phases[.present] = present
        phases[.presentWait] = wait - present
        let interval = now - previous
        let record = FrameRecord(
            index: frameIndex, timestamp: now, interval: interval,
            droppedFrames: FrameRecord.droppedFrames(interval: interval, period: period), phases: phases)
        periodNanoseconds = period
        if record.droppedFrames > 0 {
            self.record(record, culprit: blame.culprit.name, culpritDuration: blame.culpritDuration)
        } else {
            self.record(record)
        }
        return record
    }
}
