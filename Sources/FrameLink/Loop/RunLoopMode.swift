/// The name of a mode of a ``FrameLoop``, like `RunLoop.Mode`: a loop runs in one mode at a time and
/// calls only the links and timers added for that mode.
///
/// `.common` is not a mode the loop runs in but a set of modes (by default `.default` and
/// `.tracking`): an item added for `.common` runs in every mode of the set. Add your own modes to the
/// set with ``FrameLoop/addCommonMode(_:)``.
///
/// ```swift
/// extension RunLoopMode { static let menu = RunLoopMode("menu") }
/// timer.add(to: loop, forMode: .common)   // keeps firing while the user drags (.tracking)
/// ```
public struct RunLoopMode: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The mode's name.
    public let name: String

    /// Creates a mode with the given name.
    public init(_ name: String) {
        self.name = name
    }

    /// Creates a mode from a string literal.
    public init(stringLiteral name: String) {
        self.name = name
    }

    /// The mode a loop runs in most of the time; ``FrameTimer/scheduledTimer(withTimeInterval:repeats:block:)``
    /// adds timers to it.
    public static let `default` = RunLoopMode("default")

    /// The mode a loop runs in while the user drags or scrolls (FrameLinkSDL switches to it during a
    /// mouse drag); `.default` items pause meanwhile.
    public static let tracking = RunLoopMode("tracking")

    /// The pseudo-mode that stands for every mode in the loop's common set.
    public static let common = RunLoopMode("common")

    /// The mode's name.
    public var description: String { name }
}
