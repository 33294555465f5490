/// A per-frame log of a loop: index, timestamp, interval, dropped frames and phase durations of every
/// frame, exportable as CSV or JSON lines and readable back, so that a ``ManualFrameSource`` can
/// replay a recorded session and reproduce its statistics (record/replay for bug reports).
///
/// ```swift
/// loop.frameLog = FrameLog()          // start recording
/// …
/// try loop.frameLog!.csv.write(toFile: "frames.csv", atomically: true, encoding: .utf8)
/// let replay = ManualFrameSource(replaying: try FrameLog(csv: text))
/// ```
@MainActor
public final class FrameLog {
    /// The recorded frames, oldest first.
    public private(set) var records: [FrameRecord] = []

    /// The refresh period the log was recorded at, in nanoseconds (0 if unknown).
    public var periodNanoseconds: Int64

    /// Creates an empty log, reserving room for `capacity` frames.
    public init(periodNanoseconds: Int64 = 0, capacity: Int = 3_600) {
        self.periodNanoseconds = periodNanoseconds
        records.reserveCapacity(capacity)
    }

    /// Creates a log from records.
    public init(records: [FrameRecord], periodNanoseconds: Int64) {
        self.records = records
        self.periodNanoseconds = periodNanoseconds
    }

    /// Appends one frame.
    public func append(_ record: FrameRecord) {
        records.append(record)
    }

    /// The CSV header line.
    public static let csvHeader =
        "index,timestamp_ns,interval_ns,dropped,present_wait_ns,events_ns,timers_ns,links_ns,render_ns,present_ns"

    /// The log as CSV: a header, a `# period_ns=` comment, then one line per frame.
    public var csv: String {
        var text = Self.csvHeader + "\n# period_ns=\(periodNanoseconds)\n"
        for record in records {
            let phases = FramePhase.allCases.map { String(record.phases[$0]) }.joined(separator: ",")
            text += "\(record.index),\(record.timestamp),\(record.interval),\(record.droppedFrames),\(phases)\n"
        }
        return text
    }

    /// The log as JSON lines: one object per frame.
    public var jsonLines: String {
        var text = ""
        for record in records {
            let phases = FramePhase.allCases.map { "\"\($0.jsonKey)\":\(record.phases[$0])" }.joined(separator: ",")
            text +=
                "{\"index\":\(record.index),\"timestamp_ns\":\(record.timestamp),\"interval_ns\":\(record.interval),"
                + "\"dropped\":\(record.droppedFrames),\"period_ns\":\(periodNanoseconds),\(phases)}\n"
        }
        return text
    }

    /// Reads a log written by ``csv``.
    ///
    /// - Throws: `FrameLinkError.invalidCount` naming the first malformed line.
    public convenience init(csv text: String) throws(FrameLinkError) {
        var records: [FrameRecord] = []
        var period: Int64 = 0
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            if line.hasPrefix("index,") { continue }
            if line.hasPrefix("# period_ns=") {
                period = Int64(line.dropFirst("# period_ns=".count)) ?? 0
                continue
            }
            let fields = line.split(separator: ",").map { Int64($0) }
            let expected = 4 + FramePhase.allCases.count
            guard fields.count == expected, fields.allSatisfy({ $0 != nil }) else {
                throw .invalidCount("frame log line \(number + 1) is not \(expected) integers: \(line.prefix(80))")
            }
            let values = fields.map { $0! }
            var phases = PhaseDurations()
            for phase in FramePhase.allCases { phases[phase] = values[4 + phase.rawValue] }
            records.append(
                FrameRecord(
                    index: values[0], timestamp: values[1], interval: values[2], droppedFrames: Int(values[3]),
                    phases: phases))
        }
        self.init(records: records, periodNanoseconds: period)
    }
}

extension FramePhase {
    var jsonKey: String {
        switch self {
        case .presentWait: "present_wait_ns"
        case .events: "events_ns"
        case .timers: "timers_ns"
        case .links: "links_ns"
        case .render: "render_ns"
        case .present: "present_ns"
        }
    }
}
