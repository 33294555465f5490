/// An animation bound to what it animates — a closure, a weakly held target, a key path, or an
/// ``AnimatedProperty`` — as a part of an ``AnimationGroup`` or an ``AnimationSequence``.
///
/// Tracks nest: a group of sequences, a sequence of groups, and pauses made with ``wait(_:)``. Like
/// SpriteKit's `SKAction.group` and `.sequence`, but every part is a pure function of time: the
/// whole timeline is laid out when it is added, so parts start on time whatever the frame rate.
///
/// ```swift
/// let enter = AnimationSequence(
///     AnimationTrack(card, \.position, with: Tween(from: offscreen, to: center, duration: 0.4)),
///     .wait(0.1),
///     AnimationGroup(
///         AnimationTrack(card, \.scale, with: SpringAnimation(from: 1.0, to: 1.2, spring: .bouncy)),
///         AnimationTrack(card, \.alpha, with: Tween(from: 0.5, to: 1.0, duration: 0.3))))
/// animator.add(enter) { result in print(result) }
/// ```
public struct AnimationTrack {
    enum Node {
        case leaf(_TrackLeaf)
        case group([AnimationTrack])
        case sequence([AnimationTrack])
        case wait
    }

    let node: Node

    /// The seconds the track takes, from its start to the end of its last part.
    public let duration: Double

    /// Creates a track that hands each value to `update`.
    @MainActor
    public init<A: Animation>(_ animation: A, update: @escaping @MainActor (A.Value) -> Void) {
        node = .leaf(
            _TrackLeaf(animation: animation, key: nil, target: nil) { _ in _Sink(update: update) })
        duration = animation.delay + animation.duration
    }

    /// Creates a track that hands each value and `target` to `update`, holding `target` weakly: the
    /// track ends (cancelled) once `target` is deallocated.
    @MainActor
    public init<A: Animation, Target: AnyObject>(
        _ animation: A, target: Target, update: @escaping @MainActor (Target, A.Value) -> Void
    ) {
        node = .leaf(
            _TrackLeaf(animation: animation, key: nil, target: target) { _ in
                _Sink(
                    weakTarget: { [weak target] value in
                        guard let target else { return false }
                        update(target, value)
                        return true
                    })
            })
        duration = animation.delay + animation.duration
    }

    /// Creates a track that animates `object[keyPath: keyPath]`, holding `object` weakly: the track
    /// ends (cancelled) once `object` is deallocated.
    @MainActor
    public init<A: Animation, Object: AnyObject>(
        _ object: Object, _ keyPath: ReferenceWritableKeyPath<Object, A.Value>, with animation: A
    ) {
        let key = _AnimationKey.property(ObjectIdentifier(object), keyPath)
        node = .leaf(
            _TrackLeaf(animation: animation, key: key, target: object) { _ in
                _Sink(
                    weakTarget: { [weak object] value in
                        guard let object else { return false }
                        object[keyPath: keyPath] = value
                        return true
                    })
            })
        duration = animation.delay + animation.duration
    }

    /// Creates a track that animates the ``AnimatedProperty`` at `property` of `object`, writing
    /// straight into its storage (no allocation per frame), holding `object` weakly: the track
    /// ends (cancelled) once `object` is deallocated.
    @MainActor
    public init<A: Animation, Object: AnyObject>(
        _ object: Object, _ property: KeyPath<Object, AnimatedProperty<A.Value>>, with animation: A
    ) {
        // The track holds the property's storage, not the property: a track kept after its object
        // has gone must not keep the property alive, and ends (cancelled) when added.
        let property = object[keyPath: property]
        let storage = property.storage
        node = .leaf(
            _TrackLeaf(
                animation: animation, key: property.animationKey, target: object,
                sink: { _ in storage.makeSink() },
                didInsert: { [weak property] handle in
                    if let property {
                        property.addWriter(handle)
                    } else {
                        handle.targetWasDeallocated()
                    }
                }))
        duration = animation.delay + animation.duration
    }

    /// Creates a track that plays the parts of `group` together.
    public init(_ group: AnimationGroup) {
        node = .group(group.tracks)
        duration = group.duration
    }

    /// Creates a track that plays the parts of `sequence` one after another.
    public init(_ sequence: AnimationSequence) {
        node = .sequence(sequence.tracks)
        duration = sequence.duration
    }

    private init(waiting seconds: Double) {
        node = .wait
        duration = seconds
    }

    /// A track that does nothing for `seconds`: a pause in a sequence.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidInterval` message, for a negative, NaN or infinite time.
    public static func wait(_ seconds: Double) -> AnimationTrack {
        guard seconds.isFinite, seconds >= 0 else {
            FrameLinkError.trap(.invalidInterval("wait of \(seconds) s: must be finite and zero or more"))
        }
        return AnimationTrack(waiting: seconds)
    }

    /// Appends the leaves of this track, starting `offset` seconds into the timeline, to `leaves`.
    func flatten(at offset: Double, into leaves: inout [_FlatLeaf]) {
        switch node {
        case .leaf(let leaf):
            leaves.append(_FlatLeaf(leaf: leaf, start: offset + leaf.delay))
        case .group(let tracks):
            for track in tracks { track.flatten(at: offset, into: &leaves) }
        case .sequence(let tracks):
            var start = offset
            for track in tracks {
                track.flatten(at: start, into: &leaves)
                start += track.duration
            }
        case .wait:
            break
        }
    }
}
