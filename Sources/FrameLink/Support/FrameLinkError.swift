/// An error thrown by FrameLink when it is handed an invalid parameter.
///
/// FrameLink rejects bad numbers at the point where they enter the API (an interval, a rate, a
/// repeat count) with a thrown error that says what was wrong, instead of accepting them silently or
/// trapping deep inside the frame loop.
public enum FrameLinkError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A timer interval or tolerance that is zero, negative, NaN or infinite.
    case invalidInterval(String)
    /// A frame rate that is zero, negative, NaN or infinite.
    case invalidFrameRate(String)
    /// A repeat count or frame count that is out of range.
    case invalidCount(String)
    /// A value that is NaN, infinite or outside its range (an animated value, a spring's mass, a
    /// speed, a curve's control points).
    case invalidValue(String)
    /// A frame source that cannot run the requested operation.
    case unsupported(String)
    /// A frame log that cannot be read, written or replayed: the problem names the file, the line
    /// and the field.
    case frameLog(FrameLogProblem)

    /// A one-line explanation of the error.
    public var description: String {
        switch self {
        case .invalidInterval(let detail): "invalid interval: \(detail)"
        case .invalidFrameRate(let detail): "invalid frame rate: \(detail)"
        case .invalidCount(let detail): "invalid count: \(detail)"
        case .invalidValue(let detail): "invalid value: \(detail)"
        case .unsupported(let detail): "unsupported: \(detail)"
        case .frameLog(let problem): "frame log: \(problem)"
        }
    }
}

extension FrameLinkError {
    /// Converts a number of seconds to whole nanoseconds, rejecting NaN, infinities and, unless
    /// `allowZero`, values that are not positive.
    static func checkedNanoseconds(
        seconds: Double, what: String, allowZero: Bool = false
    ) throws(FrameLinkError) -> Int64 {
        guard seconds.isFinite else { throw .invalidInterval("\(what) of \(seconds) s: must be finite") }
        guard allowZero ? seconds >= 0 : seconds > 0 else {
            throw .invalidInterval("\(what) of \(seconds) s: must be \(allowZero ? "zero or more" : "above zero")")
        }
        guard seconds < 9.0e9 else { throw .invalidInterval("\(what) of \(seconds) s: too long") }
        let nanoseconds = Int64((seconds * 1e9).rounded())
        guard allowZero || nanoseconds > 0 else {
            throw .invalidInterval("\(what) of \(seconds) s: below one nanosecond")
        }
        return nanoseconds
    }

    /// Validates a duration, rejecting values that are not positive (or negative ones if `allowZero`).
    static func checkedNanoseconds(
        _ duration: Duration, what: String, allowZero: Bool = false
    ) throws(FrameLinkError) -> Int64 {
        let nanoseconds = duration.wholeNanoseconds
        guard allowZero ? nanoseconds >= 0 : nanoseconds > 0 else {
            throw .invalidInterval("\(what) of \(duration): must be \(allowZero ? "zero or more" : "above zero")")
        }
        guard nanoseconds != .max else { throw .invalidInterval("\(what) of \(duration): too long") }
        return nanoseconds
    }
}
