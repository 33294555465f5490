/// A point in time on a frame source's clock, in whole nanoseconds since the source's epoch.
///
/// FrameLink keeps time as integer nanoseconds so that schedules computed from it never drift;
/// `Duration` and seconds appear only at the edges of the API.
///
/// ```swift
/// let start = FrameInstant(nanoseconds: 0)
/// let later = start + .milliseconds(16)
/// print(later.seconds)  // 0.016
/// ```
public struct FrameInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number of nanoseconds since the clock's epoch.
    public let nanoseconds: Int64

    /// Creates an instant the given number of nanoseconds after the clock's epoch.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The epoch of the clock: time zero.
    public static let zero = FrameInstant(nanoseconds: 0)

    /// An instant so far ahead (about 73 years) that nothing scheduled for it ever comes; set a
    /// timer's `fireDate` to it to park the timer, as with `Date.distantFuture`.
    public static let distantFuture = FrameInstant(nanoseconds: Int64.max / 4)

    /// The instant in seconds since the clock's epoch, for display and for animation math.
    public var seconds: Double { Double(nanoseconds) / 1_000_000_000 }

    /// The time elapsed from this instant to `other` (negative if `other` is earlier).
    public func duration(to other: FrameInstant) -> Duration {
        .nanoseconds(other.nanoseconds - nanoseconds)
    }

    /// A textual form in seconds with nanosecond precision, such as `"8.500000000 s"`.
    public var description: String {
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = nanoseconds.magnitude
        let fraction = String(magnitude % 1_000_000_000)
        let padded = String(repeating: "0", count: 9 - fraction.count) + fraction
        return "\(sign)\(magnitude / 1_000_000_000).\(padded) s"
    }

    /// Orders instants by time.
    public static func < (lhs: FrameInstant, rhs: FrameInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// The instant a duration after `lhs`.
    public static func + (lhs: FrameInstant, rhs: Duration) -> FrameInstant {
        FrameInstant(nanoseconds: lhs.nanoseconds + rhs.wholeNanoseconds)
    }

    /// The instant a duration before `lhs`.
    public static func - (lhs: FrameInstant, rhs: Duration) -> FrameInstant {
        FrameInstant(nanoseconds: lhs.nanoseconds - rhs.wholeNanoseconds)
    }

    /// The duration between two instants.
    public static func - (lhs: FrameInstant, rhs: FrameInstant) -> Duration {
        .nanoseconds(lhs.nanoseconds - rhs.nanoseconds)
    }
}

// FrameLink's own conversions, for its modules only: a library adds nothing to a standard-library
// type's public face. (A game converts with `duration / .seconds(1)` and `duration.components`.)
extension Duration {
    /// The duration in whole nanoseconds, rounded toward zero (saturating at the bounds of `Int64`).
    package var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow2 { return seconds < 0 ? .min : .max }
        return sum
    }

    /// The duration in seconds, as a floating-point number.
    package var secondsValue: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
