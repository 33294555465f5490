/// The animations of one concrete type in an ``Animator``: homogeneous arrays, stepped in two
/// tight passes per frame (compute every value, then deliver), so the frame path has no
/// per-animation existential or allocation.
@MainActor
class _AnimationStoreBase {
    /// Whether some entry finished or was cancelled and awaits removal.
    final var needsCompaction = false

    /// The number of entries, including those awaiting removal.
    var count: Int { 0 }

    /// Computes this frame's values at animator time `now`, then delivers them.
    func step(at now: Double) {}

    /// Removes finished and cancelled entries, appending their handles to `finished`.
    func compact(into finished: inout ContiguousArray<AnimationHandle>) {}

    /// Marks entry `slot` cancelled; it receives no more values and leaves at the next compaction.
    func markCancelled(_ slot: Int) {}

    /// Whether entry `slot` has finished or been cancelled (it leaves at the next compaction).
    func isDone(_ slot: Int) -> Bool { true }

    /// Freezes entry `slot` at animator time `now`.
    func pause(_ slot: Int, at now: Double) {}

    /// Unfreezes entry `slot` at animator time `now`, continuing where it was frozen.
    func resume(_ slot: Int, at now: Double) {}

    /// Moves entry `slot` to `elapsed` seconds after its start (delivering the value at once if paused).
    func seek(_ slot: Int, to elapsed: Double, at now: Double) {}

    /// The seconds since entry `slot` started, at animator time `now` (frozen while paused).
    func elapsed(_ slot: Int, at now: Double) -> Double { 0 }

    /// The elapsed time at which entry `slot` ends (`.infinity` if it repeats forever).
    func totalDuration(_ slot: Int) -> Double { 0 }

    /// The value and velocity entry `slot` shows at animator time `now`, boxed, or `nil` if it
    /// writes nothing then.
    func presentation(_ slot: Int, at now: Double) -> (value: Any, velocity: Any)? { nil }

    /// Whether entry `slot` has a weak target that is gone.
    func targetIsGone(_ slot: Int) -> Bool { false }

    /// Calls `body` with the handle of every entry that is still active.
    func forEachHandle(_ body: (AnimationHandle) -> Void) {}
}
