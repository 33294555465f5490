/// Animations that play together, each on its own property or closure — `CAAnimationGroup`, or
/// SpriteKit's `SKAction.group`.
///
/// A group lasts as long as its longest part. Timing given when the group is added (repeat,
/// autoreverse, speed, delay, fill) applies to the group as a whole, and its completion handler is
/// called once, when every part has ended: ``AnimationResult/finished`` if all of them finished.
///
/// ```swift
/// animator.add(AnimationGroup(
///     AnimationTrack(ship, \.position, with: Tween(from: start, to: end, duration: 1)),
///     AnimationTrack(ship, \.angle, with: SpringAnimation(from: 0.0, to: .pi / 4, spring: .snappy))))
/// ```
public struct AnimationGroup {
    /// The parts, started together.
    public let tracks: [AnimationTrack]

    /// The seconds the longest part takes.
    public var duration: Double { tracks.reduce(0) { max($0, $1.duration) } }

    /// Creates a group of `tracks`.
    public init(_ tracks: [AnimationTrack]) {
        self.tracks = tracks
    }

    /// Creates a group of `tracks`.
    public init(_ tracks: AnimationTrack...) {
        self.tracks = tracks
    }
}
