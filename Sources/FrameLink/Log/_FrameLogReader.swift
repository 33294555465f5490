/// Reads frame-log text (CSV or JSON lines, as bytes) into checked records.
///
/// Lines may end in `\n`, `\r\n` or `\r`; blank lines are skipped. Every field is parsed strictly
/// (an integer is an optional `-` and digits, in `Int64`'s range; an empty field is an error, never
/// skipped) and every record passes through ``_FrameLogValidator``. The first problem ends the read
/// with an error that names the source, the line and the field.
struct _FrameLogReader {
    /// The word that opens a frame log's header, in both formats.
    static let formatName = "framelink-frame-log"
    /// The format version this FrameLink writes (versions 2, 1 and 0 — 0.1.0's logs, without a
    /// version — are read too).
    static let version: Int64 = 3
    /// The columns of a record, in order: index, timestamp, interval, dropped, the phases, the
    /// input shown (version 2), then when the frame's present reached the screen (version 3).
    static let columns = inputColumns + ["shown_ns"]
    /// The columns of version 2: no shown time.
    static let inputColumns = legacyColumns + ["input_events", "input_latency_mean_ns", "input_latency_max_ns"]
    /// The columns of versions 0 and 1: no input.
    static let legacyColumns =
        ["index", "timestamp_ns", "interval_ns", "dropped"] + FramePhase.allCases.map(\.columnName)

    /// The columns of the log being read: the header's version says which.
    private var expectedColumns = Self.columns

    private let bytes: [UInt8]
    private let source: String
    private var position = 0
    private var lineNumber = 0

    /// Prepares to read `bytes`, naming them `source` in errors.
    init(bytes: [UInt8], source: String) {
        self.bytes = bytes
        self.source = source
    }

    /// Whether `bytes` look like JSON lines (their first non-blank byte is `{`) rather than CSV.
    static func looksLikeJSONLines(_ bytes: [UInt8]) -> Bool {
        bytes.first { !Self.isBlank($0) && $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
            == UInt8(ascii: "{")
    }

    // MARK: Lines

    /// The next line that is not blank, as a range of `bytes`, or nil at the end.
    private mutating func nextLine() -> Range<Int>? {
        while position < bytes.count {
            let start = position
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n"), bytes[end] != UInt8(ascii: "\r") { end += 1 }
            position = end
            if position < bytes.count {
                let isCRLF =
                    bytes[position] == UInt8(ascii: "\r") && position + 1 < bytes.count
                    && bytes[position + 1] == UInt8(ascii: "\n")
                position += isCRLF ? 2 : 1
            }
            lineNumber += 1
            let line = Self.trimmed(start..<end, in: bytes)
            if !line.isEmpty { return line }
        }
        return nil
    }

    private var here: _FrameLogLocation { _FrameLogLocation(source: source, line: lineNumber) }

    private func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    /// `range` as text for an error: at most 40 characters, control characters shown as `?`.
    private func quoted(_ range: Range<Int>) -> String {
        let text = self.text(range).unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) }
        return "`" + String(text.prefix(40)) + (text.count > 40 ? "…" : "") + "`"
    }

    // MARK: CSV

    /// Reads CSV: the header comment (`# framelink-frame-log version=3 period_ns=…`), the column
    /// line, then one line of integers per frame. Version 0 (the column line first, then a
    /// `# period_ns=` line) is read too.
    mutating func readCSV() throws(FrameLinkError) -> (records: [FrameRecord], period: Int64) {
        guard let first = nextLine() else {
            throw here.problem(
                field: nil, "empty: a frame log starts with `# \(Self.formatName) version=\(Self.version) period_ns=…`")
        }
        var validator: _FrameLogValidator?
        if bytes[first.lowerBound] == UInt8(ascii: "#") {
            validator = try readCSVHeaderComment(first)
            guard let columns = nextLine() else {
                throw here.problem(field: nil, "the column line is missing after the header")
            }
            try checkColumnLine(columns)
        } else {
            // Version 0: the column line first, and the period in a comment before the first frame.
            expectedColumns = Self.legacyColumns
            try checkColumnLine(first)
        }
        var records: [FrameRecord] = []
        var values: [Int64] = []
        values.reserveCapacity(expectedColumns.count)
        while let line = nextLine() {
            if bytes[line.lowerBound] == UInt8(ascii: "#") {
                let legacyPrefix = Array("# period_ns=".utf8)
                if validator == nil, bytes[line].starts(with: legacyPrefix) {
                    let value = (line.lowerBound + legacyPrefix.count)..<line.upperBound
                    validator = try _FrameLogValidator(
                        period: try integer(value, field: "period_ns"), location: here)
                }
                continue  // a comment
            }
            guard var checker = validator else {
                throw here.problem(
                    field: "period_ns", "missing: the refresh period must come before the first frame")
            }
            try csvIntegers(line, into: &values)
            let record = Self.record(values)
            try checker.check(record, location: here)
            validator = checker
            records.append(record)
        }
        guard let validator else {
            throw here.problem(field: "period_ns", "missing: the log never says its refresh period")
        }
        return (records, validator.period)
    }

    /// Reads `# framelink-frame-log version=3 period_ns=…` and returns the checked period.
    private mutating func readCSVHeaderComment(_ line: Range<Int>) throws(FrameLinkError) -> _FrameLogValidator {
        let words = bytes[line].dropFirst().split(whereSeparator: Self.isBlank).map {
            ($0.startIndex..<$0.endIndex)
        }
        guard let name = words.first, text(name) == Self.formatName else {
            throw here.problem(
                field: nil, "not a FrameLink frame log: it starts with \(quoted(line)), not `# \(Self.formatName)`")
        }
        var version: Int64?
        var period: Int64?
        for word in words.dropFirst() {
            guard let equals = bytes[word].firstIndex(of: UInt8(ascii: "=")) else {
                throw here.problem(field: nil, "\(quoted(word)) in the header is not `key=value`")
            }
            let key = text(word.lowerBound..<equals)
            let value = (equals + 1)..<word.upperBound
            switch key {
            case "version": version = try integer(value, field: "version")
            case "period_ns": period = try integer(value, field: "period_ns")
            default: throw here.problem(field: String(key.prefix(40)), "unknown header field")
            }
        }
        try checkVersion(version)
        guard let period else { throw here.problem(field: "period_ns", "missing from the header") }
        return try _FrameLogValidator(period: period, location: here)
    }

    /// Checks that `version` is present and one this FrameLink reads (1 to 3), and expects its columns.
    private mutating func checkVersion(_ version: Int64?) throws(FrameLinkError) {
        guard let version else { throw here.problem(field: "version", "missing from the header") }
        guard (1...Self.version).contains(version) else {
            throw here.problem(
                field: "version", "\(version) is not a version this FrameLink reads (it reads 1 to \(Self.version))")
        }
        expectedColumns = [Self.legacyColumns, Self.inputColumns, Self.columns][Int(version) - 1]
    }

    /// Checks the column line against ``columns``.
    private func checkColumnLine(_ line: Range<Int>) throws(FrameLinkError) {
        let names = bytes[line].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
            text(Self.trimmed($0.startIndex..<$0.endIndex, in: bytes))
        }
        for (column, expected) in expectedColumns.enumerated() {
            guard column < names.count else {
                throw here.problem(field: expected, "column \(column + 1) is missing from the column line")
            }
            guard names[column] == expected else {
                throw here.problem(
                    field: expected,
                    "column \(column + 1) is `\(names[column].prefix(40))` where `\(expected)` was expected "
                        + "(is this a FrameLink frame log?)")
            }
        }
        guard names.count == expectedColumns.count else {
            throw here.problem(
                field: nil, "the column line has \(names.count) columns, not \(expectedColumns.count)")
        }
    }

    /// The integers of one CSV record line, into `values` (emptied first; reused, so a line
    /// allocates nothing).
    private func csvIntegers(_ line: Range<Int>, into values: inout [Int64]) throws(FrameLinkError) {
        values.removeAll(keepingCapacity: true)
        var start = line.lowerBound
        while true {
            var end = start
            while end < line.upperBound, bytes[end] != UInt8(ascii: ",") { end += 1 }
            guard values.count < expectedColumns.count else {
                throw here.problem(field: nil, "more than \(expectedColumns.count) fields")
            }
            values.append(try integer(start..<end, field: expectedColumns[values.count]))
            if end == line.upperBound { break }
            start = end + 1
        }
        guard values.count == expectedColumns.count else {
            throw here.problem(
                field: expectedColumns[values.count],
                "missing: the line has \(values.count) of \(expectedColumns.count) fields")
        }
    }

    // MARK: JSON lines

    /// Reads JSON lines: a header object (`{"format":"framelink-frame-log","version":3,"period_ns":…}`),
    /// then one flat object of integers per frame. Version 0 (no header, `period_ns` in every
    /// record) is read too.
    mutating func readJSONLines() throws(FrameLinkError) -> (records: [FrameRecord], period: Int64) {
        guard var line = nextLine() else {
            throw here.problem(field: nil, "empty: a frame log starts with a header object")
        }
        var members = try jsonObject(line)
        var validator: _FrameLogValidator
        var legacyPeriod: Int64?
        if members.contains(where: { $0.key == "format" }) {
            var version: Int64?
            var period: Int64?
            for member in members {
                switch (member.key, member.value) {
                case ("format", .string(let name)):
                    guard name == Self.formatName else {
                        throw here.problem(field: "format", "`\(name.prefix(40))` is not `\(Self.formatName)`")
                    }
                case ("version", .integer(let value)): version = value
                case ("period_ns", .integer(let value)): period = value
                case ("format", _), ("version", _), ("period_ns", _):
                    throw here.problem(field: member.key, "has the wrong type")
                default: throw here.problem(field: String(member.key.prefix(40)), "unknown header field")
                }
            }
            try checkVersion(version)
            guard let period else { throw here.problem(field: "period_ns", "missing from the header") }
            validator = try _FrameLogValidator(period: period, location: here)
            guard let next = nextLine() else { return ([], validator.period) }
            line = next
            members = try jsonObject(line)
        } else {
            // Version 0: no header; every record carries the period.
            guard let member = members.first(where: { $0.key == "period_ns" }) else {
                throw here.problem(field: "format", "missing: the first line is not a frame log header")
            }
            guard case .integer(let period) = member.value else {
                throw here.problem(field: "period_ns", "is not an integer")
            }
            validator = try _FrameLogValidator(period: period, location: here)
            legacyPeriod = period
            expectedColumns = Self.legacyColumns
        }
        var records: [FrameRecord] = []
        while true {
            let record = try jsonRecord(members, legacyPeriod: legacyPeriod)
            try validator.check(record, location: here)
            records.append(record)
            guard let next = nextLine() else { break }
            line = next
            members = try jsonObject(line)
        }
        return (records, validator.period)
    }

    /// A record from the members of a JSON object: every column once, integers only.
    private func jsonRecord(
        _ members: [(key: String, value: JSONValue)], legacyPeriod: Int64?
    ) throws(FrameLinkError) -> FrameRecord {
        var values = [Int64?](repeating: nil, count: expectedColumns.count)
        for member in members {
            if let legacyPeriod, member.key == "period_ns" {
                guard case .integer(let period) = member.value, period == legacyPeriod else {
                    throw here.problem(field: "period_ns", "differs from the first line's \(legacyPeriod)")
                }
                continue
            }
            guard let column = expectedColumns.firstIndex(of: member.key) else {
                throw here.problem(field: String(member.key.prefix(40)), "unknown field")
            }
            guard case .integer(let value) = member.value else {
                throw here.problem(field: member.key, "is not an integer")
            }
            values[column] = value
        }
        var integers: [Int64] = []
        integers.reserveCapacity(values.count)
        for (column, value) in values.enumerated() {
            guard let value else { throw here.problem(field: expectedColumns[column], "missing") }
            integers.append(value)
        }
        return Self.record(integers)
    }

    /// A value in a frame log's JSON object.
    enum JSONValue {
        case integer(Int64)
        case string(String)
    }

    /// Parses one line as a flat JSON object whose values are integers or plain strings; a key that
    /// appears twice is an error.
    private func jsonObject(_ line: Range<Int>) throws(FrameLinkError) -> [(key: String, value: JSONValue)] {
        var index = line.lowerBound
        var members: [(key: String, value: JSONValue)] = []
        func skipBlanks() { while index < line.upperBound, Self.isBlank(bytes[index]) { index += 1 } }
        func expect(_ byte: UInt8, _ what: String) throws(FrameLinkError) {
            skipBlanks()
            guard index < line.upperBound, bytes[index] == byte else {
                let found =
                    index < line.upperBound ? quoted(index..<min(index + 10, line.upperBound)) : "the end of the line"
                throw here.problem(
                    field: nil,
                    "not a JSON object: expected \(what) at column \(index - line.lowerBound + 1), found \(found)")
            }
            index += 1
        }
        func string() throws(FrameLinkError) -> String {
            try expect(UInt8(ascii: "\""), "`\"`")
            let start = index
            while index < line.upperBound, bytes[index] != UInt8(ascii: "\"") {
                guard bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 else {
                    throw here.problem(
                        field: nil, "a string holds an escape or a control character (frame logs use none)")
                }
                index += 1
            }
            let value = text(start..<index)
            try expect(UInt8(ascii: "\""), "the closing `\"`")
            return value
        }
        try expect(UInt8(ascii: "{"), "`{`")
        skipBlanks()
        if index < line.upperBound, bytes[index] == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                let key = try string()
                try expect(UInt8(ascii: ":"), "`:`")
                skipBlanks()
                let value: JSONValue
                if index < line.upperBound, bytes[index] == UInt8(ascii: "\"") {
                    value = .string(try string())
                } else {
                    let start = index
                    while index < line.upperBound, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: "}")
                    {
                        index += 1
                    }
                    value = .integer(try integer(start..<index, field: String(key.prefix(40))))
                }
                guard !members.contains(where: { $0.key == key }) else {
                    throw here.problem(field: String(key.prefix(40)), "appears twice")
                }
                members.append((key, value))
                skipBlanks()
                if index < line.upperBound, bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "}"), "`,` or `}`")
                break
            }
        }
        skipBlanks()
        guard index == line.upperBound else {
            throw here.problem(field: nil, "text after the JSON object: \(quoted(index..<line.upperBound))")
        }
        return members
    }

    // MARK: Numbers

    /// Parses `range` (blanks around it allowed) as an `Int64`: an optional `-` and decimal digits.
    private func integer(_ range: Range<Int>, field: String) throws(FrameLinkError) -> Int64 {
        let digits = Self.trimmed(range, in: bytes)
        guard !digits.isEmpty else { throw here.problem(field: field, "empty: an integer was expected") }
        var index = digits.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < digits.upperBound else { throw here.problem(field: field, "\(quoted(digits)) is not an integer") }
        var value: Int64 = 0
        while index < digits.upperBound {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                throw here.problem(field: field, "\(quoted(digits)) is not an integer")
            }
            // Accumulate negatively, so that Int64.min parses too.
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.subtractingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else {
                throw here.problem(field: field, "\(quoted(digits)) is out of range for a 64-bit integer")
            }
            value = next
            index += 1
        }
        if negative { return value }
        guard value != .min else {
            throw here.problem(field: field, "\(quoted(digits)) is out of range for a 64-bit integer")
        }
        return -value
    }

    // MARK: Helpers

    /// A record from its columns' values, in ``columns`` order (without the input columns for
    /// versions 0 and 1, without the shown time for version 2). A count that does not fit an `Int`
    /// is clamped, and a shown time below −1 is kept (the validator rejects both).
    private static func record(_ values: [Int64]) -> FrameRecord {
        var phases = PhaseDurations()
        for phase in FramePhase.allCases { phases[nanoseconds: phase] = values[4 + phase.rawValue] }
        var record = FrameRecord(
            index: values[0], timestamp: values[1], interval: values[2], droppedFrames: Int(clamping: values[3]),
            phases: phases)
        let input = legacyColumns.count
        if values.count >= input + 3 {
            record.inputEvents = Int(clamping: values[input])
            record.inputLatencyMeanNanoseconds = values[input + 1]
            record.inputLatencyMaxNanoseconds = values[input + 2]
        }
        if values.count >= input + 4, values[input + 3] != FrameLog.notShown {
            record.shownAt = FrameInstant(nanoseconds: values[input + 3])
        }
        return record
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// `range` without the blanks around it.
    private static func trimmed(_ range: Range<Int>, in bytes: [UInt8]) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, isBlank(bytes[lower]) { lower += 1 }
        while upper > lower, isBlank(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }
}
