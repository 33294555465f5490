/// The rate chosen for a ``FrameRateRange``, and why: what ``FrameRateRange/choice(dividing:)``
/// gives, and what ``FrameStatistics/frameRateChoices`` lists for a loop and its links.
public struct FrameRateChoice: Hashable, Sendable, CustomStringConvertible {
    /// The range asked for.
    public var range: FrameRateRange
    /// The rate chosen.
    public var rate: FrameRate
    /// The whole number the refresh rate was divided by, or `nil` when the rate is paced directly
    /// (a variable-refresh display, no vsync).
    public var divisor: Int?
    /// The rate that was divided (the display's refresh, or the loop's rate for a link), if one was.
    public var dividedRate: FrameRate?
    /// Whether the chosen rate lies inside the range, or within 0.5 % of it (false when no even
    /// rate does); ``FrameRateRange/contains(_:)`` is exact.
    public var isInsideRange: Bool
    /// Why this rate, such as `"every 2nd frame of 144 Hz: the even rate in 60–90 Hz closest to
    /// 72 Hz"`.
    public var reason: String
    /// Who asked: `"loop"`, or the link's label (`"link"` without one). Empty from
    /// ``FrameRateRange``'s own functions.
    public var subject = ""

    /// The subject, the rate and the reason: `"loop: 72 Hz (every 2nd frame of 144 Hz: …)"`.
    public var description: String {
        subject.isEmpty ? "\(rate) (\(reason))" : "\(subject): \(rate) (\(reason))"
    }
}
