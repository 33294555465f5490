/// Where a record or header was found: the text's name and the line, or a record's position in a
/// log built in memory.
struct _FrameLogLocation {
    var source: String
    var line: Int?
    var record: Int?

    /// The error for a problem here.
    func problem(field: String?, _ detail: String) -> FrameLinkError {
        .frameLog(FrameLogProblem(source: source, line: line, record: record, field: field, detail: detail))
    }
}
