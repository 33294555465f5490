/// A per-frame log of a loop: index, timestamp, interval, dropped frames and phase durations of every
/// frame, written as CSV or JSON lines and read back with every field checked, so that a
/// ``ManualFrameSource`` can replay a recorded session and reproduce its statistics (record/replay
/// for bug reports).
///
/// ```swift
/// loop.frameLog = FrameLog(period: loop.refreshRate.period)  // start recording
/// // … run the game …
/// try loop.frameLog?.write(toFile: "frames.csv", format: .csv)
///
/// let replay = try ManualFrameSource(replaying: try FrameLog(contentsOfFile: "frames.csv"))
/// ```
///
/// Both formats open with a header that names the format, its version and the refresh period;
/// see ``Format``. A log is data from outside the program: reading one checks every field and
/// throws ``FrameLinkError/frameLog(_:)`` naming the file, the line and the field of the first
/// problem, and replaying one checks it again (``validate()``).
@MainActor
public final class FrameLog {
    /// The recorded frames, oldest first.
    public private(set) var records: [FrameRecord] = []

    /// The refresh period the log was recorded at (zero if unknown: a loop recording into the log
    /// sets it at its first frame; a log needs a positive period to be written or replayed).
    public var period: Duration {
        get { .nanoseconds(periodNanoseconds) }
        set { periodNanoseconds = newValue.wholeNanoseconds }
    }

    /// ``period`` in nanoseconds.
    package var periodNanoseconds: Int64

    /// Whether a loop recording into this log also keeps a ``CallbackSlice`` for every labelled
    /// callback it times (``FrameLoop/measuresCallbacks``): the labelled display links and timers
    /// and the event and render handlers. Off by default; ``chromeTrace(drops:)`` shows them on a
    /// track of their own. They are kept in memory only (CSV and JSON lines hold frames).
    public var recordsCallbacks = false

    /// The labelled callbacks' runs, oldest first, when ``recordsCallbacks`` is on.
    public private(set) var callbackSlices: [CallbackSlice] = []

    /// For each record, the number of the present its frame made (the source's `presentCount`
    /// after it), or −1 when unknown: where a presentation report is filled in (``noteShown(present:at:)``).
    private var presentNumbers: [Int64] = []

    /// The record last filled in by ``noteShown(present:at:)``, and its shown time.
    private var latestShown: (index: Int, time: Int64)?

    /// How far back a presentation report is looked for: 256 records, over four seconds at 60 Hz
    /// (a compositor answers within a few frames, or has stopped answering).
    static let reportLookback = 256

    /// Creates an empty log at the refresh `period` (zero: the recording loop's), reserving room
    /// for `capacity` frames.
    public convenience init(period: Duration = .zero, capacity: Int = 3_600) {
        self.init(periodNanoseconds: period.wholeNanoseconds, capacity: capacity)
    }

    /// Creates a log from records at the refresh `period` (not checked until it is written,
    /// validated or replayed).
    public convenience init(records: [FrameRecord], period: Duration) {
        self.init(records: records, periodNanoseconds: period.wholeNanoseconds)
    }

    /// Creates an empty log, reserving room for `capacity` frames, from nanoseconds.
    package init(periodNanoseconds: Int64, capacity: Int = 3_600) {
        self.periodNanoseconds = periodNanoseconds
        records.reserveCapacity(capacity)
        presentNumbers.reserveCapacity(capacity)
    }

    /// Creates a log from records, from nanoseconds.
    package init(records: [FrameRecord], periodNanoseconds: Int64) {
        self.records = records
        self.periodNanoseconds = periodNanoseconds
        presentNumbers = Array(repeating: -1, count: records.count)
    }

    /// Appends one frame.
    public func append(_ record: FrameRecord) {
        append(record, presentNumber: nil)
    }

    /// Appends one frame whose present was number `presentNumber` (a `PresentSource`'s
    /// `presentCount` after it), so that its presentation report can be filled in later.
    func append(_ record: FrameRecord, presentNumber: Int64?) {
        records.append(record)
        presentNumbers.append(presentNumber ?? -1)
    }

    /// Fills in when present number `present` reached the screen (a presentation report), on the
    /// record whose frame made that present, among the last ``reportLookback`` records. A report
    /// for a present no record made, or one the log could not hold (shown before its frame's
    /// interval began, for a frame before the last one filled in, or not after its shown time: see
    /// ``validate()``), is ignored, so a compositor's report never makes a log unwritable.
    package func noteShown(present: Int64, at instant: FrameInstant) {
        var index = records.count - 1
        while index >= 0, index >= records.count - Self.reportLookback {
            if presentNumbers[index] == present {
                let record = records[index]
                guard instant.nanoseconds >= record.timestampNanoseconds &- record.intervalNanoseconds,
                    latestShown.map({ index > $0.index && instant.nanoseconds > $0.time }) ?? true
                else { return }
                records[index].shownAt = instant
                latestShown = (index, instant.nanoseconds)
                return
            }
            if presentNumbers[index] >= 0 && presentNumbers[index] < present { return }
            index -= 1
        }
    }

    /// Appends one run of a labelled callback.
    ///
    /// - Parameter slice: The callback's label, start and duration.
    public func append(_ slice: CallbackSlice) {
        callbackSlices.append(slice)
    }

    // MARK: Writing

    /// The `shown_ns` of a frame that no presentation feedback reported: −1.
    public nonisolated static let notShown: Int64 = -1

    /// The format version that ``csv`` and ``jsonLines`` write.
    public static let formatVersion = Int(_FrameLogReader.version)

    /// The CSV column line: the names of a record's fields, in order.
    public static let csvHeader = _FrameLogReader.columns.joined(separator: ",")

    /// The log as CSV: the header comment `# framelink-frame-log version=3 period_ns=…`, the column
    /// line (``csvHeader``), then one line per frame, each ending in `\n`.
    public var csv: String {
        var text = "# \(_FrameLogReader.formatName) version=\(Self.formatVersion) period_ns=\(periodNanoseconds)\n"
        text += Self.csvHeader + "\n"
        for record in records {
            text +=
                "\(record.index),\(record.timestampNanoseconds),\(record.intervalNanoseconds),\(record.droppedFrames)"
            for phase in FramePhase.allCases { text += ",\(record.phases[nanoseconds: phase])" }
            text += ",\(record.inputEvents),\(record.inputLatencyMeanNanoseconds),\(record.inputLatencyMaxNanoseconds)"
            text += ",\(record.shownAt?.nanoseconds ?? Self.notShown)\n"
        }
        return text
    }

    /// The log as JSON lines: a header object
    /// (`{"format":"framelink-frame-log","version":3,"period_ns":…}`), then one object per frame
    /// whose keys are the CSV column names.
    public var jsonLines: String {
        var text =
            "{\"format\":\"\(_FrameLogReader.formatName)\",\"version\":\(Self.formatVersion),"
            + "\"period_ns\":\(periodNanoseconds)}\n"
        for record in records {
            text +=
                "{\"index\":\(record.index),\"timestamp_ns\":\(record.timestampNanoseconds),\"interval_ns\":\(record.intervalNanoseconds),"
                + "\"dropped\":\(record.droppedFrames)"
            for phase in FramePhase.allCases { text += ",\"\(phase.columnName)\":\(record.phases[nanoseconds: phase])" }
            text +=
                ",\"input_events\":\(record.inputEvents),\"input_latency_mean_ns\":\(record.inputLatencyMeanNanoseconds),"
                + "\"input_latency_max_ns\":\(record.inputLatencyMaxNanoseconds),"
                + "\"shown_ns\":\(record.shownAt?.nanoseconds ?? Self.notShown)}\n"
        }
        return text
    }

    /// Writes the log to `path` safely: into a temporary file in the same folder, flushed to disk,
    /// then renamed over `path`, so a failed write (a full disk) leaves the previous file, or none.
    ///
    /// The log is checked first (``validate()``): a log that could not be read back is not written.
    ///
    /// - Throws: ``FrameLinkError/frameLog(_:)`` naming the first wrong record, or the path and the
    ///   system's reason.
    public func write(toFile path: String, format: Format) throws(FrameLinkError) {
        try validate()
        let text = format == .csv ? csv : jsonLines
        try _FrameLogFile.writeBytes(Array(text.utf8), toFile: path)
    }

    // MARK: Reading

    /// Reads a log written by ``csv`` (lines may end in `\n`, `\r\n` or `\r`), checking every field.
    ///
    /// - Parameters:
    ///   - text: The CSV text.
    ///   - name: What to call the text in errors, such as its file name.
    /// - Throws: ``FrameLinkError/frameLog(_:)`` naming the line and field of the first problem.
    public convenience init(csv text: String, name: String = "frame log") throws(FrameLinkError) {
        var reader = _FrameLogReader(bytes: Array(text.utf8), source: name)
        let (records, period) = try reader.readCSV()
        self.init(records: records, periodNanoseconds: period)
    }

    /// Reads a log written by ``jsonLines`` (lines may end in `\n`, `\r\n` or `\r`), checking every
    /// field.
    ///
    /// - Parameters:
    ///   - text: The JSON-lines text.
    ///   - name: What to call the text in errors, such as its file name.
    /// - Throws: ``FrameLinkError/frameLog(_:)`` naming the line and field of the first problem.
    public convenience init(jsonLines text: String, name: String = "frame log") throws(FrameLinkError) {
        var reader = _FrameLogReader(bytes: Array(text.utf8), source: name)
        let (records, period) = try reader.readJSONLines()
        self.init(records: records, periodNanoseconds: period)
    }

    /// Reads the log in the file at `path`, CSV or JSON lines (told apart by the first character:
    /// `{` starts JSON lines), checking every field.
    ///
    /// - Throws: ``FrameLinkError/frameLog(_:)`` naming the file, and the line and field of the
    ///   first problem; or why the file cannot be read (missing, a folder, not a regular file,
    ///   over 1 GiB).
    public convenience init(contentsOfFile path: String) throws(FrameLinkError) {
        let bytes = try _FrameLogFile.readBytes(path)
        var reader = _FrameLogReader(bytes: bytes, source: path)
        let (records, period) =
            _FrameLogReader.looksLikeJSONLines(bytes) ? try reader.readJSONLines() : try reader.readCSV()
        self.init(records: records, periodNanoseconds: period)
    }

    /// Checks the log as reading would: the period is positive, and every record's numbers are in
    /// range and agree with each other and with the period.
    ///
    /// - Throws: ``FrameLinkError/frameLog(_:)`` naming the first wrong record (counted from 1)
    ///   and field.
    public func validate() throws(FrameLinkError) {
        var validator = try _FrameLogValidator(
            period: periodNanoseconds, location: _FrameLogLocation(source: "frame log"))
        for (position, record) in records.enumerated() {
            try validator.check(record, location: _FrameLogLocation(source: "frame log", record: position + 1))
        }
    }
}

extension FramePhase {
    /// The phase's column in a frame log (`present_wait_ns`).
    var columnName: String {
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
