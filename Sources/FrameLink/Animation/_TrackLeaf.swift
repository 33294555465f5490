/// One animation of a track, with what it needs to be stored in an ``Animator``.
struct _TrackLeaf {
    let key: _AnimationKey?
    weak var target: AnyObject?
    let hasWeakTarget: Bool
    let delay: Double
    let duration: Double
    /// Stores the animation in `animator` with `placement`, starting at `begin`, under `handle`.
    let insert: @MainActor (Animator, _Placement?, Double, AnimationHandle, Bool) -> Void

    init<A: Animation>(
        animation: A, key: _AnimationKey?, target: AnyObject?,
        sink: @escaping @MainActor (A) -> _Sink<A.Value>,
        didInsert: (@MainActor (AnimationHandle) -> Void)? = nil
    ) {
        self.key = key
        self.target = target
        hasWeakTarget = target != nil
        delay = animation.delay
        duration = animation.duration
        insert = { animator, placement, begin, handle, retargets in
            animator.insertLeaf(
                animation, sink: sink(animation), placement: placement, begin: begin, handle: handle,
                retargets: retargets)
            didInsert?(handle)
        }
    }
}
