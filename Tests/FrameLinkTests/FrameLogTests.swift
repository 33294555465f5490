import Foundation
import Testing

@testable import FrameLink

@MainActor
@Suite("Frame logs: written with a versioned header, read back with every field checked")
struct FrameLogTests {
    /// A recorded log of 120 frames at 60 Hz with a few slow frames (drops), an idle gap, and input
    /// 2 ms before every 3rd frame.
    static func recordedLog() throws -> FrameLog {
        let source = ManualFrameSource(refreshRate: .hz60)
        let loop = FrameLoop(source: source)
        loop.frameLog = FrameLog(periodNanoseconds: loop.refreshRate.periodNanoseconds)
        var frame = 0
        let link = DisplayLink { _ in
            frame += 1
            if frame % 25 == 0 { source.simulateWork(for: .milliseconds(Int64(frame % 7 * 9 + 20))) }
            if frame % 3 == 0, let loop = FrameLoop.current {
                loop.noteInput(at: FrameInstant(nanoseconds: max(0, loop.timestamp.nanoseconds - 2_000_000)))
            }
        }
        link.add(to: loop, forMode: .common)
        source.advance(frames: 60)
        link.isPaused = true  // idle frames are not recorded: the indices jump
        source.advance(frames: 3)
        link.isPaused = false
        source.advance(frames: 60)
        return try #require(loop.frameLog)
    }

    /// `records` as a version 0 or 1 log reads them: without input.
    static func withoutInput(_ records: [FrameRecord]) -> [FrameRecord] {
        records.map {
            FrameRecord(
                index: $0.index, timestamp: $0.timestamp, interval: $0.interval,
                droppedFrames: $0.droppedFrames, phases: $0.phases)
        }
    }

    /// `csv` (the current version) as version 1 wrote it: the header's version, no input or shown
    /// columns.
    static func versionOne(csv: String) -> String {
        csv.split(separator: "\n").enumerated().map { number, line in
            number == 0
                ? line.replacingOccurrences(of: "version=3", with: "version=1")
                : line.split(separator: ",").dropLast(4).joined(separator: ",")
        }.joined(separator: "\n")
    }

    /// `csv` (the current version) as version 2 wrote it: the header's version, no shown column.
    static func versionTwo(csv: String) -> String {
        csv.split(separator: "\n").enumerated().map { number, line in
            number == 0
                ? line.replacingOccurrences(of: "version=3", with: "version=2")
                : line.split(separator: ",").dropLast(1).joined(separator: ",")
        }.joined(separator: "\n")
    }

    /// The JSON members a version 2 log has no place for.
    static let shownMember = #",\"shown_ns\":-?[0-9]+"#

    /// The problem `body` throws, or nil (and a test failure) if it throws none or another error.
    static func problem(
        _ body: () throws -> Any, sourceLocation: SourceLocation = #_sourceLocation
    ) -> FrameLogProblem? {
        do {
            _ = try body()
            Issue.record("no error was thrown", sourceLocation: sourceLocation)
        } catch FrameLinkError.frameLog(let problem) {
            return problem
        } catch {
            Issue.record("\(error) is not a frame-log error", sourceLocation: sourceLocation)
        }
        return nil
    }

    /// The CSV of `recordedLog()` with line `number` (1-based) replaced by `transform(line)`.
    static func csvEditing(line number: Int, _ transform: (String) -> String) throws -> String {
        var lines = try recordedLog().csv.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[number - 1] = transform(lines[number - 1])
        return lines.joined(separator: "\n")
    }

    /// `line` with field `column` (0-based) set to `value`.
    static func settingField(_ column: Int, to value: String, in line: String) -> String {
        var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[column] = value
        return fields.joined(separator: ",")
    }

    @Test("CSV and JSON lines both round-trip, open with a header naming the format, version and period")
    func roundTrip() throws {
        let log = try Self.recordedLog()
        #expect(log.records.count > 100)
        #expect(log.records.contains { $0.droppedFrames > 0 })
        #expect(log.records.contains { $0.inputEvents == 1 && $0.inputLatencyMeanNanoseconds > 2_000_000 })
        #expect(log.csv.hasPrefix("# framelink-frame-log version=3 period_ns=16666667\n" + FrameLog.csvHeader + "\n"))
        #expect(FrameLog.csvHeader.hasSuffix(",input_events,input_latency_mean_ns,input_latency_max_ns,shown_ns"))
        #expect(log.jsonLines.hasPrefix("{\"format\":\"framelink-frame-log\",\"version\":3,\"period_ns\":16666667}\n"))
        for parsed in [try FrameLog(csv: log.csv), try FrameLog(jsonLines: log.jsonLines)] {
            #expect(parsed.records == log.records)
            #expect(parsed.periodNanoseconds == log.periodNanoseconds)
        }
    }

    @Test("any line ending reads the same: LF, CRLF (Windows) and CR")
    func lineEndings() throws {
        let log = try Self.recordedLog()
        for text in [log.csv, log.jsonLines] {
            for ending in ["\r\n", "\r"] {
                let converted = text.replacingOccurrences(of: "\n", with: ending)
                let parsed =
                    text.hasPrefix("{") ? try FrameLog(jsonLines: converted) : try FrameLog(csv: converted)
                #expect(parsed.records == log.records, "line ending \(ending.debugDescription)")
            }
        }
    }

    @Test("logs written by 0.1.0 (no version) are read as version 0, without input")
    func versionZero() throws {
        let log = try Self.recordedLog()
        let versionOne = Self.versionOne(csv: log.csv)
        let csv =
            versionOne.split(separator: "\n")[1] + "\n# period_ns=16666667\n"
            + versionOne.split(separator: "\n").dropFirst(2).joined(separator: "\n")
        #expect(try FrameLog(csv: csv).records == Self.withoutInput(log.records))
        let json = log.jsonLines.split(separator: "\n").dropFirst().map {
            $0.replacingOccurrences(of: ",\"dropped\"", with: ",\"period_ns\":16666667,\"dropped\"")
                .replacingOccurrences(
                    of: #",\"input_events\":[0-9]+,\"input_latency_mean_ns\":[0-9]+,\"input_latency_max_ns\":[0-9]+"#,
                    with: "", options: .regularExpression
                )
                .replacingOccurrences(of: Self.shownMember, with: "", options: .regularExpression)
        }.joined(separator: "\n")
        #expect(try FrameLog(jsonLines: json).records == Self.withoutInput(log.records))
        // Input columns in a version 0 log are unknown fields.
        let withInput = json.replacingOccurrences(of: ",\"dropped\"", with: ",\"input_events\":0,\"dropped\"")
        #expect(Self.problem { try FrameLog(jsonLines: withInput) }?.field == "input_events")
    }

    @Test(
        "logs written before input latency (version 1) are read without input; version 1 with input columns is refused")
    func versionOne() throws {
        let log = try Self.recordedLog()
        let csv = Self.versionOne(csv: log.csv)
        #expect(try FrameLog(csv: csv).records == Self.withoutInput(log.records))
        let json = log.jsonLines.replacingOccurrences(of: "\"version\":3", with: "\"version\":1")
            .replacingOccurrences(
                of: #",\"input_events\":[0-9]+,\"input_latency_mean_ns\":[0-9]+,\"input_latency_max_ns\":[0-9]+"#,
                with: "", options: .regularExpression
            )
            .replacingOccurrences(of: Self.shownMember, with: "", options: .regularExpression)
        #expect(try FrameLog(jsonLines: json).records == Self.withoutInput(log.records))
        let mixed = log.csv.replacingOccurrences(of: "version=3", with: "version=1")
        #expect(Self.problem { try FrameLog(csv: mixed) }?.line == 2)
    }

    @Test("shown times round-trip (−1 for a frame no feedback reported); version 2 logs read without them")
    func shownTimes() throws {
        let recorded = try Self.recordedLog()
        var records = recorded.records
        for index in records.indices where index % 3 == 0 {
            records[index].shownAt = FrameInstant(nanoseconds: records[index].timestampNanoseconds + 20_000_000)
        }
        let log = FrameLog(records: records, periodNanoseconds: recorded.periodNanoseconds)
        #expect(log.csv.split(separator: "\n")[3].hasSuffix(",-1"), "the second frame has no shown time")
        for parsed in [try FrameLog(csv: log.csv), try FrameLog(jsonLines: log.jsonLines)] {
            #expect(parsed.records == records)
        }
        var unshown = records
        for index in unshown.indices { unshown[index].shownAt = nil }
        #expect(try FrameLog(csv: Self.versionTwo(csv: log.csv)).records == unshown)
        let json = log.jsonLines.replacingOccurrences(of: "\"version\":3", with: "\"version\":2")
            .replacingOccurrences(of: Self.shownMember, with: "", options: .regularExpression)
        #expect(try FrameLog(jsonLines: json).records == unshown)
        // A version 2 log with a shown column is refused; so is a shown time below −1 or past the
        // latest timestamp.
        let mixed = log.csv.replacingOccurrences(of: "version=3", with: "version=2")
        #expect(Self.problem { try FrameLog(csv: mixed) }?.line == 2)
        for value in ["-2", "\(Int64.max)"] {
            let bad = try Self.csvEditing(line: 3) { Self.settingField(13, to: value, in: $0) }
            #expect(Self.problem { try FrameLog(csv: bad) }?.field == "shown_ns", "\(value)")
        }
    }

    @Test("a shown time before its frame's interval, or not after the one before it, is refused")
    func impossibleShownTimes() throws {
        let recorded = try Self.recordedLog()
        var records = recorded.records
        records[3].shownAt = FrameInstant(
            nanoseconds: records[3].timestampNanoseconds - records[3].intervalNanoseconds - 1)
        #expect(
            Self.problem { try FrameLog(records: records, periodNanoseconds: recorded.periodNanoseconds).validate() }?
                .field == "shown_ns")
        records[3].shownAt = FrameInstant(nanoseconds: records[3].timestampNanoseconds + 20_000_000)
        records[4].shownAt = FrameInstant(nanoseconds: records[3].timestampNanoseconds + 20_000_000)  // not after
        let problem = Self.problem {
            try FrameLog(records: records, periodNanoseconds: recorded.periodNanoseconds).validate()
        }
        #expect(problem?.field == "shown_ns" && problem?.description.contains("not after") == true)
        records[4].shownAt = FrameInstant(nanoseconds: records[4].timestampNanoseconds + 20_000_000)
        try FrameLog(records: records, periodNanoseconds: recorded.periodNanoseconds).validate()
    }

    @Test("a report the log could not hold is not filled in, so a log stays writable")
    func reportsThatCannotBeTrueAreNotFilledIn() throws {
        let log = FrameLog(periodNanoseconds: 16_666_667)
        for index in 1...4 {
            let record = FrameRecord(
                index: Int64(index), timestamp: Int64(index) * 16_666_667, interval: 16_666_667, droppedFrames: 0,
                phases: PhaseDurations())
            log.append(record, presentNumber: Int64(index))
        }
        log.noteShown(present: 2, at: FrameInstant(nanoseconds: -200_000_000_000))  // a clock that is off
        log.noteShown(present: 2, at: FrameInstant(nanoseconds: 1))  // before its interval began
        log.noteShown(present: 3, at: FrameInstant(nanoseconds: 60_000_000))
        log.noteShown(present: 2, at: FrameInstant(nanoseconds: 40_000_000))  // before one filled in
        log.noteShown(present: 4, at: FrameInstant(nanoseconds: 60_000_000))  // not after it
        #expect(log.records.map(\.shownAt?.nanoseconds) == [nil, nil, 60_000_000, nil])
        try log.validate()
    }

    @Test("a log's shown times are filled in by present number, as reports arrive, and only there")
    func shownTimesFilledIn() {
        let log = FrameLog(periodNanoseconds: 16_666_667)
        for index in 1...5 {
            let record = FrameRecord(
                index: Int64(index), timestamp: Int64(index) * 16_666_667, interval: 16_666_667, droppedFrames: 0,
                phases: PhaseDurations())
            // Frame 3 made no present (nothing was drawn): it shares frame 2's number.
            log.append(record, presentNumber: Int64(index == 3 ? 2 : index))
        }
        log.noteShown(present: 2, at: FrameInstant(nanoseconds: 50_000_000))
        log.noteShown(present: 9, at: FrameInstant(nanoseconds: 90_000_000))  // never made
        log.noteShown(present: 4, at: FrameInstant(nanoseconds: 80_000_000))
        #expect(log.records.map(\.shownAt?.nanoseconds) == [nil, nil, 50_000_000, 80_000_000, nil])
    }

    @Test("a loop writes each frame's input: count, mean and longest latency to the screen")
    func inputInTheLog() throws {
        let source = ManualFrameSource(refreshRate: .hz60)
        let loop = FrameLoop(source: source)
        loop.frameLog = FrameLog()
        DisplayLink { link in
            // Two events, 1 ms and 5 ms before the frame: shown at its target.
            for ago: Int64 in [1_000_000, 5_000_000] {
                FrameLoop.current?.noteInput(at: FrameInstant(nanoseconds: link.timestamp.nanoseconds - ago))
            }
        }.add(to: loop, forMode: .common)
        source.advance(frames: 10)
        let records = try #require(loop.frameLog?.records)
        #expect(records.count == 9)  // frame 1 begins the first interval: booked from frame 2 on
        for record in records {
            #expect(record.inputEvents == 2)
            // The events of the frame before: its target is this frame's timestamp.
            let previous = record.timestampNanoseconds - record.intervalNanoseconds
            #expect(record.inputLatencyMaxNanoseconds == record.timestampNanoseconds - (previous - 5_000_000))
            #expect(record.inputLatencyMeanNanoseconds == record.timestampNanoseconds - (previous - 3_000_000))
        }
        #expect(loop.statistics.inputEvents == 2 * records.count)
    }

    @Test("an empty field is an error naming the line and the field, not a shifted column")
    func emptyField() throws {
        let text = try Self.csvEditing(line: 5) { Self.settingField(2, to: "", in: $0) }
        let problem = Self.problem { try FrameLog(csv: text, name: "frames.csv") }
        #expect(problem?.source == "frames.csv")
        #expect(problem?.line == 5)
        #expect(problem?.field == "interval_ns")
        #expect(problem?.description.hasPrefix("frames.csv:5: interval_ns: empty") == true)
    }

    @Test("numbers that disagree are rejected, each naming its field")
    func inconsistentNumbers() throws {
        // Line 3 is the first record, line 4 the second; a record's interval is the time since the previous.
        let cases: [(line: Int, column: Int, value: String, field: String)] = [
            (4, 2, "-16666667", "interval_ns"),  // a negative interval
            (4, 2, "16000000", "interval_ns"),  // an interval that does not match the timestamps
            (4, 1, "0", "timestamp_ns"),  // time going backwards
            (4, 0, "1", "index"),  // index not increasing
            (4, 3, "2", "dropped"),  // dropped disagrees with interval and period
            (4, 5, "-1", "events_ns"),  // a negative phase
            (4, 1, "99999999999999999999", "timestamp_ns"),  // out of Int64's range
            (4, 1, "12x", "timestamp_ns"),  // not an integer
            (4, 1, "4611686018427387904", "timestamp_ns"),  // 2^62: past the latest timestamp
            (3, 2, "9999999999999", "interval_ns"),  // the first frame would begin before time zero
            (4, 10, "65", "input_events"),  // more input than a frame notes
            (4, 10, "-1", "input_events"),
            (4, 12, "-1", "input_latency_max_ns"),  // a negative latency
            (4, 11, "99999999", "input_latency_mean_ns"),  // a mean above the longest
            (4, 12, "5", "input_latency_max_ns"),  // latency without input (the second record has none)
        ]
        for item in cases {
            let text = try Self.csvEditing(line: item.line) { Self.settingField(item.column, to: item.value, in: $0) }
            let problem = Self.problem { try FrameLog(csv: text, name: "f.csv") }
            #expect(problem?.line == item.line, "\(item)")
            #expect(problem?.field == item.field, "\(item): \(problem?.description ?? "")")
        }
    }

    @Test("a missing, zero, negative or unreadable period is an error about the log, not about replay")
    func period() throws {
        let log = try Self.recordedLog()
        let body = log.csv.split(separator: "\n").dropFirst().joined(separator: "\n")
        for header in [
            "# framelink-frame-log version=3", "# framelink-frame-log version=3 period_ns=0",
            "# framelink-frame-log version=3 period_ns=-5", "# framelink-frame-log version=3 period_ns=abc",
        ] {
            let problem = Self.problem { try FrameLog(csv: header + "\n" + body, name: "p.csv") }
            #expect(problem?.field == "period_ns", "\(header): \(problem?.description ?? "")")
            #expect(problem?.line == 1)
        }
        // Version 0 without its period line.
        let problem = Self.problem {
            try FrameLog(csv: Self.versionOne(csv: log.csv).split(separator: "\n").dropFirst().joined(separator: "\n"))
        }
        #expect(problem?.field == "period_ns")
        let bad = FrameLog(records: log.records, periodNanoseconds: 0)
        #expect(Self.problem { try ManualFrameSource(replaying: bad) }?.field == "period_ns")
    }

    @Test("a newer version, another format or a damaged header is refused up front")
    func headers() throws {
        let log = try Self.recordedLog()
        let cases: [(String, String?)] = [
            (log.csv.replacingOccurrences(of: "version=3", with: "version=4"), "version"),
            (log.csv.replacingOccurrences(of: " version=3", with: ""), "version"),
            (log.csv.replacingOccurrences(of: "framelink-frame-log", with: "other-log"), nil),
            (log.csv.replacingOccurrences(of: "interval_ns,dropped", with: "interval,dropped"), "interval_ns"),
            ("", nil),
            ("name,age\nbob,3\n", "index"),
        ]
        for (text, field) in cases {
            let problem = Self.problem { try FrameLog(csv: text) }
            #expect(problem != nil && problem?.field == field, "\(problem?.description ?? "no problem")")
        }
        let json = log.jsonLines
        for (text, field) in [
            (json.replacingOccurrences(of: "\"version\":3", with: "\"version\":7"), "version"),
            (json.replacingOccurrences(of: "\"index\":2,", with: ""), "index"),
            (json.replacingOccurrences(of: "\"index\":2,", with: "\"index\":2,\"index\":2,"), "index"),
            (json.replacingOccurrences(of: "\"index\":2,", with: "\"index\":2.5,"), "index"),
            (json.replacingOccurrences(of: "\"index\":2,", with: "\"index\":\"2\","), "index"),
            (json.replacingOccurrences(of: "\"index\":2,", with: "\"idx\":2,"), "idx"),
        ] {
            let problem = Self.problem { try FrameLog(jsonLines: text) }
            #expect(
                problem?.line == (field == "version" ? 1 : 2) && problem?.field == field,
                "\(problem?.description ?? "no problem")")
        }
        for text in ["{", "{\"format\":", "[1,2]", "{} x", "{\"a\\n\":1}"] {
            #expect(Self.problem { try FrameLog(jsonLines: text) }?.line == 1, "\(text)")
        }
    }

    @Test("files: written through a temporary file and renamed; read with the path in every error")
    func files() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("framelog-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = try Self.recordedLog()
        for format in FrameLog.Format.allCases {
            let path = folder + "/frames-\(format)"
            try "previous".write(toFile: path, atomically: false, encoding: .utf8)
            try log.write(toFile: path, format: format)
            let read = try FrameLog(contentsOfFile: path)
            #expect(read.records == log.records && read.periodNanoseconds == log.periodNanoseconds)
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["frames-csv", "frames-jsonLines"])

        let missing = Self.problem { try FrameLog(contentsOfFile: folder + "/none.csv") }
        #expect(missing?.description == "\(folder)/none.csv: cannot read: No such file or directory")
        #expect(Self.problem { try FrameLog(contentsOfFile: folder) }?.detail == "cannot read: it is a folder")
        let fifo = folder + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        // A named pipe with no writer would block a plain open: it is refused at once.
        #expect(Self.problem { try FrameLog(contentsOfFile: fifo) }?.detail == "cannot read: it is not a regular file")
        let unwritable = Self.problem { try log.write(toFile: folder + "/no/such/folder.csv", format: .csv) }
        #expect(unwritable?.detail == "cannot write: No such file or directory")
        #expect(Self.problem { try log.write(toFile: "/dev/full/x.csv", format: .csv) } != nil)
        let damaged = folder + "/damaged.csv"
        try log.csv.replacingOccurrences(of: "\n5,", with: "\n5,,").write(
            toFile: damaged, atomically: true, encoding: .utf8)
        #expect(Self.problem { try FrameLog(contentsOfFile: damaged) }?.source == damaged)
    }

    @Test(
        "a drop a source knew in an interval that rounds to one period (a variable-refresh display's slowest refresh ran out) is written and read back; one more than the interval holds is rejected"
    )
    func knownDropInAShortInterval() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("framelog-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Capped at 48 Hz (20.83 ms) on a display whose slowest refresh is 22.46 ms: the frame took
        // 29.9 ms, and the display showed the old one again in between.
        let period: Int64 = 20_833_333
        var records = [
            FrameRecord(
                index: 1, timestamp: 20_833_333, interval: 20_833_333, droppedFrames: 0, phases: PhaseDurations()),
            FrameRecord(
                index: 2, timestamp: 50_735_333, interval: 29_902_000, droppedFrames: 1, phases: PhaseDurations()),
        ]
        try FrameLog(records: records, periodNanoseconds: period).write(toFile: folder + "/frames.csv", format: .csv)
        #expect(try FrameLog(contentsOfFile: folder + "/frames.csv").records == records)
        records[1].droppedFrames = 2
        let problem = Self.problem {
            try FrameLog(records: records, periodNanoseconds: period).write(toFile: folder + "/bad.csv", format: .csv)
        }
        #expect(problem?.record == 2 && problem?.field == "dropped")
    }

    @Test("a log made without a period takes the loop's; a log that could not be read back is not written")
    func periodAndWriteChecks() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("framelog-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = ManualFrameSource(refreshRate: .hz30)
        let loop = FrameLoop(source: source)
        let log = FrameLog()
        loop.frameLog = log
        DisplayLink { _ in }.add(to: loop, forMode: .common)
        source.advance(frames: 5)
        #expect(log.periodNanoseconds == 33_333_333)
        try log.write(toFile: folder + "/frames.csv", format: .csv)
        #expect(try FrameLog(contentsOfFile: folder + "/frames.csv").records == log.records)

        var records = log.records
        records[2].droppedFrames = 4
        let problem = Self.problem {
            try FrameLog(records: records, periodNanoseconds: log.periodNanoseconds)
                .write(toFile: folder + "/bad.csv", format: .jsonLines)
        }
        #expect(problem?.record == 3 && problem?.field == "dropped")
        #expect(!FileManager.default.fileExists(atPath: folder + "/bad.csv"))
    }

    @Test(
        "a full disk fails the write with the system's reason and leaves the previous file whole",
        .enabled(if: getuid() == 0, "mounts a 64 KiB tmpfs, which needs root (as in CI)"))
    func fullDisk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("framelog-full-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #require(mount("tmpfs", folder, "tmpfs", 0, "size=64k") == 0, "mount: \(String(cString: strerror(errno)))")
        defer { umount(folder) }
        let path = folder + "/frames.csv"
        try "previous".write(toFile: path, atomically: false, encoding: .utf8)
        let period: Int64 = 16_666_667
        let records = (1...5_000).map {
            FrameRecord(
                index: Int64($0), timestamp: Int64($0) * period, interval: period, droppedFrames: 0,
                phases: PhaseDurations())
        }
        let log = FrameLog(records: records, periodNanoseconds: period)
        #expect(log.csv.utf8.count > 64 * 1024)
        let problem = Self.problem { try log.write(toFile: path, format: .csv) }
        #expect(problem?.description == "\(path): cannot write: No space left on device")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "previous")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder) == ["frames.csv"], "no temporary file is left")
    }

    @Test("replaying a log built in code checks it too, naming the record")
    func replayChecks() throws {
        let log = try Self.recordedLog()
        var records = log.records
        records[7].intervalNanoseconds += 1
        let problem = Self.problem {
            try ManualFrameSource(replaying: FrameLog(records: records, periodNanoseconds: 16_666_667))
        }
        #expect(problem?.record == 8 && problem?.field == "interval_ns")
        #expect(problem?.description.hasPrefix("frame log, record 8: interval_ns: ") == true)
    }

    @Test("3,000 random mutations of a valid log: each is read and replayed in full, or refused, and none traps")
    func mutations() throws {
        let log = try Self.recordedLog()
        let originals = [Array(log.csv.utf8), Array(log.jsonLines.utf8)]
        var generator = SplitMix64(seed: 15)
        var refused = 0
        var replayed = 0
        let alphabet = Array("0123456789-,{}\":#\r\n x".utf8)
        for round in 0..<3_000 {
            var bytes = originals[round % 2]
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: bytes[position] = alphabet.randomElement(using: &generator)!
                case 1: bytes.remove(at: position)
                case 2: bytes.insert(alphabet.randomElement(using: &generator)!, at: position)
                default:
                    // A digit run replaced by a huge or negative number.
                    let numbers = ["9223372036854775807", "-9223372036854775808", "4611686018427387903", "-1", "0"]
                    bytes.insert(contentsOf: Array(numbers.randomElement(using: &generator)!.utf8), at: position)
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                let parsed = round % 2 == 0 ? try FrameLog(csv: text) : try FrameLog(jsonLines: text)
                let source = try ManualFrameSource(replaying: parsed)
                let loop = FrameLoop(source: source)
                DisplayLink { _ in }.add(to: loop, forMode: .common)
                source.advance(frames: source.replayFrameCount)
                // Read means replayed in full: every record booked, with its drops.
                #expect(loop.statistics.frames == parsed.records.count, "round \(round)")
                #expect(
                    loop.statistics.droppedFrames == parsed.records.reduce(0) { $0 + $1.droppedFrames },
                    "round \(round)")
                replayed += 1
            } catch {
                refused += 1
            }
        }
        // Both outcomes happen: a mutation that keeps every field valid (a digit for a digit) is
        // read, and most break a field.
        #expect(replayed > 0, "no mutation was read and replayed")
        #expect(refused > 1_000, "most mutations break a field, and are refused")
    }
}
