/// How a ``PresentSource`` paces frames, and why: its ``PresentSource/mode`` and a typed
/// ``PacingReason``.
///
/// Read it as ``PresentSource/pacingState``, or be told when it changes with
/// ``PresentSource/onPacingStateChange``:
///
/// ```swift
/// source.onPacingStateChange = { state in
///     print("pacing: \(state.mode): \(state)")
/// }
/// ```
public struct PacingState: Sendable, Hashable, CustomStringConvertible {
    /// How frames are paced.
    public var mode: PresentSource.Mode
    /// Why.
    public var reason: PacingReason

    /// Creates a state of `mode` for `reason`.
    public init(mode: PresentSource.Mode, reason: PacingReason) {
        self.mode = mode
        self.reason = reason
    }

    /// The reason in a sentence; a requested pacing says which (`"vsync requested"`).
    public var description: String {
        guard case .requested = reason else { return reason.description }
        switch mode {
        case .vsync: return "vsync requested"
        case .deadline: return "deadline pacing requested"
        case .unpaced: return "pacing off requested"
        }
    }
}
