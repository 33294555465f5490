/// How an animation ended, as its completion handler reports it.
public enum AnimationResult: Sendable, Hashable, CustomStringConvertible {
    /// The animation ran to its end (for a group or sequence: every part did).
    case finished
    /// The animation was cancelled, replaced by another animation of the same property or key, or
    /// ended because the object it animated was deallocated.
    case cancelled

    /// `"finished"` or `"cancelled"`.
    public var description: String {
        switch self {
        case .finished: "finished"
        case .cancelled: "cancelled"
        }
    }
}
