/// A weak reference to an animator on game time, as a ``GameClock`` holds its animators.
struct _WeakAnimator {
    weak var animator: Animator?
}
