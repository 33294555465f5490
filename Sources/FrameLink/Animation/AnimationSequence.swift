/// Animations that play one after another — SpriteKit's `SKAction.sequence`.
///
/// Each part starts when the one before it ends (its ``AnimationTrack/duration`` after it
/// started). When several parts animate the same property, each takes over from the one before at
/// its start; in between, the property keeps the last part's end value. Timing given when the
/// sequence is added applies to the sequence as a whole: an autoreversing sequence plays its parts
/// backward in reverse order.
///
/// ```swift
/// animator.add(AnimationSequence(
///     AnimationTrack(ball, \.y, with: Tween(from: 0.0, to: 300, duration: 0.5, curve: .easeInQuad)),
///     AnimationTrack(ball, \.y, with: Tween(from: 300.0, to: 0, duration: 0.5, curve: .easeOutQuad))),
///     timing: AnimationTiming(repeatCount: .infinity))
/// ```
public struct AnimationSequence {
    /// The parts, in order.
    public let tracks: [AnimationTrack]

    /// The seconds all parts take together.
    public var duration: Double { tracks.reduce(0) { $0 + $1.duration } }

    /// Creates a sequence of `tracks`.
    public init(_ tracks: [AnimationTrack]) {
        self.tracks = tracks
    }

    /// Creates a sequence of `tracks`.
    public init(_ tracks: AnimationTrack...) {
        self.tracks = tracks
    }
}
