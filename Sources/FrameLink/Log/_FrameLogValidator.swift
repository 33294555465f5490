/// Checks a frame log's period and records, one record at a time, as they are read or replayed.
///
/// A record is accepted when every number is in range and agrees with the others: indices and
/// timestamps move forward, an interval matches the timestamps (equals their difference when the
/// indices are consecutive, fits in it when frames in between were idle and not recorded),
/// `dropped` is at most what the interval drops at the period (fewer when the source knew a queued
/// frame covered part of it), phase durations are not negative and add up without overflow, and a
/// shown time (version 3) is no earlier than the start of its frame's interval (a frame is not
/// shown before its present) and later than the shown time before it. Timestamps stay below 2⁶² ns (146 years), so no sum of intervals and no
/// later grid point can overflow during replay.
struct _FrameLogValidator {
    /// The latest timestamp a log may hold: 2⁶² − 1 ns, about 146 years of uptime.
    static let latestTimestamp: Int64 = (1 << 62) - 1
    /// The longest refresh period a log may hold: one frame a minute.
    static let longestPeriod: Int64 = 60_000_000_000

    /// The log's refresh period in nanoseconds, checked.
    let period: Int64
    private var previous: FrameRecord?
    /// The latest shown time so far.
    private var previousShown: Int64?

    /// Checks `period`; `location` says where the period was read, for the error.
    init(period: Int64, location: _FrameLogLocation) throws(FrameLinkError) {
        guard (1...Self.longestPeriod).contains(period) else {
            throw location.problem(
                field: "period_ns", "\(period) is not a refresh period (use 1 ns to 60 s, such as 16666667)")
        }
        self.period = period
    }

    /// The most input events one frame can note (``FrameLoop/noteInput(at:)`` keeps 64).
    static let mostInputEvents = FrameLoop.mostInputEventsPerFrame

    /// Checks a record's input: a count of 0…64, latencies not negative, the mean at most the
    /// longest, and both zero without input.
    private func checkInput(_ record: FrameRecord, location: _FrameLogLocation) throws(FrameLinkError) {
        guard (0...Self.mostInputEvents).contains(record.inputEvents) else {
            throw location.problem(
                field: "input_events", "\(record.inputEvents) is outside 0...\(Self.mostInputEvents)")
        }
        guard record.inputLatencyMaxNanoseconds >= 0 else {
            throw location.problem(field: "input_latency_max_ns", "\(record.inputLatencyMaxNanoseconds) is negative")
        }
        guard
            record.inputLatencyMeanNanoseconds >= 0
                && record.inputLatencyMeanNanoseconds <= record.inputLatencyMaxNanoseconds
        else {
            throw location.problem(
                field: "input_latency_mean_ns",
                "\(record.inputLatencyMeanNanoseconds) is not from zero to the longest latency (\(record.inputLatencyMaxNanoseconds))"
            )
        }
        guard record.inputEvents > 0 || record.inputLatencyMaxNanoseconds == 0 else {
            throw location.problem(
                field: "input_latency_max_ns", "\(record.inputLatencyMaxNanoseconds) with no input events")
        }
    }

    /// Checks `record` against the period and the record before it; `location` says where it was read.
    mutating func check(_ record: FrameRecord, location: _FrameLogLocation) throws(FrameLinkError) {
        guard record.index >= 0 else { throw location.problem(field: "index", "\(record.index) is negative") }
        if let shown = record.shownAt?.nanoseconds {
            guard (0...Self.latestTimestamp).contains(shown) else {
                throw location.problem(
                    field: "shown_ns",
                    "\(shown) is outside 0...\(Self.latestTimestamp) (−1 is a frame no feedback reported)")
            }
            guard shown >= record.timestampNanoseconds &- record.intervalNanoseconds else {
                throw location.problem(
                    field: "shown_ns",
                    "\(shown) is before the frame's interval began (\(record.timestampNanoseconds &- record.intervalNanoseconds)): a frame is "
                        + "not shown before its present")
            }
            if let previousShown, shown <= previousShown {
                throw location.problem(
                    field: "shown_ns", "\(shown) is not after the shown time before it (\(previousShown))")
            }
            previousShown = shown
        }
        guard (0...Self.latestTimestamp).contains(record.timestampNanoseconds) else {
            throw location.problem(
                field: "timestamp_ns",
                "\(record.timestampNanoseconds) is outside 0...\(Self.latestTimestamp) (146 years)")
        }
        guard record.intervalNanoseconds >= 0 else {
            throw location.problem(field: "interval_ns", "\(record.intervalNanoseconds) is negative")
        }
        if let previous {
            guard record.index > previous.index else {
                throw location.problem(
                    field: "index", "\(record.index) does not come after the previous frame's \(previous.index)")
            }
            guard record.timestampNanoseconds >= previous.timestampNanoseconds else {
                throw location.problem(
                    field: "timestamp_ns",
                    "\(record.timestampNanoseconds) is before the previous frame's \(previous.timestamp): time went backwards"
                )
            }
            // Both timestamps are in 0...2⁶², so the difference cannot overflow.
            let apart = record.timestampNanoseconds - previous.timestampNanoseconds
            if record.index == previous.index + 1 {
                guard record.intervalNanoseconds == apart else {
                    throw location.problem(
                        field: "interval_ns",
                        "\(record.intervalNanoseconds) does not match the timestamps (\(apart) ns apart)")
                }
            } else {
                guard record.intervalNanoseconds <= apart else {
                    throw location.problem(
                        field: "interval_ns",
                        "\(record.intervalNanoseconds) is longer than the time since the previous recorded frame (\(apart) ns)"
                    )
                }
            }
        } else {
            guard record.intervalNanoseconds <= record.timestampNanoseconds else {
                throw location.problem(
                    field: "interval_ns",
                    "\(record.intervalNanoseconds) would begin the first frame before time zero (timestamp_ns \(record.timestampNanoseconds))"
                )
            }
        }
        let dropped = FrameRecord.mostDroppedFrames(interval: record.intervalNanoseconds, period: period)
        guard record.droppedFrames >= 0 && record.droppedFrames <= dropped else {
            throw location.problem(
                field: "dropped",
                "\(record.droppedFrames) disagrees with the interval: \(record.intervalNanoseconds) ns at a period of "
                    + "\(period) ns drops at most \(dropped)")
        }
        var total: Int64 = 0
        for phase in FramePhase.allCases {
            let duration = record.phases[nanoseconds: phase]
            guard duration >= 0 else { throw location.problem(field: phase.columnName, "\(duration) is negative") }
            let (sum, overflow) = total.addingReportingOverflow(duration)
            guard !overflow else {
                throw location.problem(field: phase.columnName, "\(duration) makes the phases add up past Int64.max")
            }
            total = sum
        }
        try checkInput(record, location: location)
        previous = record
    }
}
