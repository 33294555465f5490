/// What is wrong with a frame log, and where: the file (or text), the line, the field.
///
/// A frame log comes from outside the program, so ``FrameLog`` checks every field it reads and
/// every record it replays, and describes the first problem it finds as one of these, thrown as
/// ``FrameLinkError/frameLog(_:)``. The description reads like a compiler's diagnostic:
///
/// ```text
/// frames.csv:7: interval_ns: 16000000 does not match the timestamps (16666667 ns apart)
/// ```
public struct FrameLogProblem: Hashable, Sendable, CustomStringConvertible {
    /// The file's path, or the name given to text that was read (`"frame log"` by default).
    public var source: String
    /// The line, counted from 1, for problems found while reading text.
    public var line: Int?
    /// The record, counted from 1, for problems found in a log that was not read from text.
    public var record: Int?
    /// The field, by its column name (`interval_ns`), when one field is wrong.
    public var field: String?
    /// What is wrong, in a few words.
    public var detail: String

    /// Creates a description of a problem.
    public init(source: String, line: Int? = nil, record: Int? = nil, field: String? = nil, detail: String) {
        self.source = source
        self.line = line
        self.record = record
        self.field = field
        self.detail = detail
    }

    /// `source:line: field: detail`, leaving out what is unknown.
    public var description: String {
        var text = source
        if let line { text += ":\(line)" }
        if let record { text += ", record \(record)" }
        if let field { text += ": \(field)" }
        return text + ": " + detail
    }
}
