/// A problem FrameLink found in a value it was given: thrown for data from outside the program, the
/// message of a stopped program for a programmer error.
///
/// FrameLink's error policy, the standard library's:
/// - **A programmer error in an argument stops the program** where the value enters the API, with
///   this error's message saying what was wrong and what to pass instead: a negative interval, a NaN
///   duration, a spring with zero mass, an index outside the animated values. Such values are bugs
///   in the calling code, so constants need no `try` (`FrameTimer(interval: .seconds(1), …)`,
///   `Tween(from: 0, to: 1, duration: 0.3)`, `GameClock()`).
/// - **Data from outside the program is validated by throwing**: a frame log read from a file
///   (``frameLog(_:)``), and numbers a program reads at run time through the `validating`
///   initializers such as ``FrameRate/init(validating:)``.
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
    /// Stops the program for a programmer error, printing `FrameLink: ` and the error's message.
    static func trap(_ error: FrameLinkError, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("FrameLink: \(error.description)", file: file, line: line)
    }

    /// Returns the result of `check`, or stops the program with the message of the error it threw.
    static func require<Value>(
        file: StaticString = #fileID, line: UInt = #line, _ check: () throws(FrameLinkError) -> Value
    ) -> Value {
        do {
            return try check()
        } catch {
            trap(error, file: file, line: line)
        }
    }

    /// Converts a number of seconds to whole nanoseconds, stopping the program for NaN, infinities
    /// and, unless `allowZero`, values that are not positive.
    static func requiredNanoseconds(seconds: Double, what: String, allowZero: Bool = false) -> Int64 {
        require { () throws(FrameLinkError) in
            try checkedNanoseconds(seconds: seconds, what: what, allowZero: allowZero)
        }
    }

    /// Validates a duration, stopping the program for values that are not positive (or negative
    /// ones if `allowZero`).
    static func requiredNanoseconds(_ duration: Duration, what: String, allowZero: Bool = false) -> Int64 {
        require { () throws(FrameLinkError) in try checkedNanoseconds(duration, what: what, allowZero: allowZero) }
    }

    /// Converts a number of seconds to whole nanoseconds, rejecting NaN, infinities and, unless
    /// `allowZero`, values that are not positive.
    package static func checkedNanoseconds(
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
    package static func checkedNanoseconds(
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
