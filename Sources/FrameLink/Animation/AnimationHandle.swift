/// A running animation, as an ``Animator`` returns it: pause, resume, seek or cancel it, and see
/// how far along it is.
///
/// For a group or a sequence, the handle controls every part at once. You need not keep the handle:
/// the animator runs the animation to its end either way, and releases everything it holds for it
/// then.
///
/// ```swift
/// let handle = animator.animate(door, \.angle, with: Tween(from: 0.0, to: 90, duration: 2))
/// handle.pause()
/// handle.seek(to: 1.5)   // scrub: shows the value at 1.5 s at once
/// handle.resume()
/// ```
@MainActor
public final class AnimationHandle {
    /// The life cycle of an animation.
    public enum State: Sendable, Hashable {
        /// Running (possibly still in its delay).
        case running
        /// Frozen by ``AnimationHandle/pause()``.
        case paused
        /// Ran to its end.
        case finished
        /// Cancelled, replaced, or ended because its object was deallocated.
        case cancelled
    }

    /// Where the animation is in its life cycle.
    public private(set) var state: State = .running

    /// The key the animation was added with, if any.
    public let key: String?

    /// The elapsed time from the start (delay included) to the end of the last repeat, in the
    /// animator's seconds; `.infinity` if it repeats forever.
    public let duration: Double

    /// Whether the animation is paused.
    public var isPaused: Bool { state == .paused }

    /// Whether the animation is still running or paused (not finished or cancelled).
    public var isActive: Bool { state == .running || state == .paused }

    /// The seconds since the animation was added (delay included) in the animator's time, frozen
    /// while paused; ``duration`` once it has finished.
    public var elapsedTime: Double {
        if let leaf = firstLeafInStore, let store = leaf.store, let animator {
            return store.elapsed(leaf.slot, at: animator.currentTime)
        }
        return duration
    }

    // Internals: a handle is a leaf (one stored animation) or a group of leaves.
    weak var animator: Animator?
    // Weak: the store holds its handles, and a released animator releases its stores.
    weak var store: _AnimationStoreBase?
    var slot = -1
    var animationKey: _AnimationKey?
    weak var target: AnyObject?
    var hasWeakTarget = false
    var parent: AnimationHandle?
    var children: [AnimationHandle] = []
    private var remaining = 0
    private var anyCancelled = false
    private let isGroup: Bool
    private var completion: (@MainActor (AnimationResult) -> Void)?

    init(
        animator: Animator, key: String?, duration: Double, isGroup: Bool,
        completion: (@MainActor (AnimationResult) -> Void)?
    ) {
        self.animator = animator
        self.key = key
        self.duration = duration
        self.isGroup = isGroup
        self.completion = completion
    }

    /// The handle the user holds: the group for a part of a group, else this one.
    var root: AnimationHandle { parent ?? self }

    private var firstLeafInStore: AnimationHandle? {
        if !isGroup { return store == nil ? nil : self }
        for child in children where child.store != nil { return child }
        return nil
    }

    // MARK: Control

    /// Freezes the animation where it is; the property keeps its current value. Does nothing unless
    /// the animation is running.
    public func pause() {
        guard state == .running, let animator else { return }
        state = .paused
        if isGroup {
            for child in children { child.pause() }
        } else if let store {
            store.pause(slot, at: animator.currentTime)
            animator.leafDidPause()
        }
    }

    /// Continues a paused animation from where it was frozen. Does nothing unless it is paused.
    public func resume() {
        guard state == .paused, let animator else { return }
        state = .running
        if isGroup {
            for child in children { child.resume() }
        } else if let store {
            store.resume(slot, at: animator.currentTime)
            animator.leafDidResume()
        }
    }

    /// Jumps to `elapsed` seconds after the start (delay included), in the animator's time. A paused
    /// animation shows the value there at once and stays paused (scrubbing); a running one continues
    /// from there on the next frame.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidInterval` message, if `elapsed` is negative, NaN or infinite.
    public func seek(to elapsed: Double) {
        guard elapsed.isFinite, elapsed >= 0 else {
            FrameLinkError.trap(.invalidInterval("seek(to: \(elapsed)): the time must be finite and zero or more"))
        }
        guard isActive, let animator else { return }
        if isGroup {
            for child in children { child.seek(to: elapsed) }
        } else if let store {
            store.seek(slot, to: elapsed, at: animator.currentTime)
        }
    }

    /// Stops the animation where it is and calls its completion with ``AnimationResult/cancelled``
    /// at once. The property keeps its current value. Calling it again does nothing.
    public func cancel() {
        guard isActive else { return }
        if isGroup {
            for child in children { child.cancel() }
        } else {
            if let store {
                store.markCancelled(slot)
                animator?.storeNeedsCompaction()
            }
            finishLeaf(.cancelled)
        }
    }

    // MARK: Ending (called by the animator and its stores)

    /// Ends a leaf whose target was deallocated: at the start of the animator's next frame it is
    /// marked cancelled, and it leaves, with its completion, at the end of that frame. (The mark
    /// waits for the frame because a deallocation can happen anywhere, even while a store is
    /// being compacted.)
    func targetWasDeallocated() {
        guard isActive, !isGroup else { return }
        animator?.leafTargetWasDeallocated(self)
    }

    /// Marks the leaf cancelled in its store, unless it has left it or already ended there.
    func markTargetGone() {
        guard isActive, let store, !store.isDone(slot) else { return }
        store.markCancelled(slot)
    }

    func leafDidLeaveStore(cancelled: Bool) {
        store = nil
        slot = -1
        leftWhilePaused = state == .paused
        if isActive { state = cancelled ? .cancelled : .finished }
        // The completion is delivered by `finishLeafIfNeeded` once every store is compacted.
        pendingResult = cancelled ? .cancelled : .finished
    }

    private var pendingResult: AnimationResult?

    /// Whether the leaf was paused when it left its store (its state says how it ended by then):
    /// a paused leaf whose target goes, or that was paused after being marked cancelled, still
    /// counts as paused until it ends.
    private var leftWhilePaused = false

    /// Completes a leaf that left its store this frame, unless it was completed already.
    func finishLeafIfNeeded() {
        guard let result = pendingResult else { return }
        pendingResult = nil
        guard !didComplete else { return }
        finishLeaf(result)
    }

    private var didComplete = false

    private func finishLeaf(_ result: AnimationResult) {
        guard !didComplete else { return }
        let wasPaused = state == .paused || leftWhilePaused
        didComplete = true
        state = result == .finished ? .finished : .cancelled
        animator?.leafDidEnd(self, wasPaused: wasPaused)
        if let parent {
            parent.childDidEnd(result)
        } else {
            complete(result)
        }
    }

    func addChild(_ child: AnimationHandle) {
        child.parent = self
        children.append(child)
        remaining += 1
    }

    private func childDidEnd(_ result: AnimationResult) {
        if result == .cancelled { anyCancelled = true }
        remaining -= 1
        if remaining == 0 {
            state = anyCancelled ? .cancelled : .finished
            children = []
            complete(anyCancelled ? .cancelled : .finished)
        }
    }

    /// Completes a top-level animation: calls the completion once and releases it.
    func complete(_ result: AnimationResult) {
        didComplete = true
        if state == .running || state == .paused { state = result == .finished ? .finished : .cancelled }
        animator?.animationDidEnd()
        let completion = self.completion
        self.completion = nil
        completion?(result)
    }
}
