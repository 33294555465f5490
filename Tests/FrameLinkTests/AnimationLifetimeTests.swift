import FrameLink
import Testing

/// Leak-freedom: objects animated by key path or as weak targets deinitialize mid-animation, and
/// the animator lets go of everything within a frame.
@MainActor
@Suite("Animation: lifetimes")
struct AnimationLifetimeTests {
    final class Sprite {
        var x = 0.0
        var y = 0.0
    }

    @Test(
        "an object animated by key path is released mid-animation: it deinitializes, the animator holds nothing after one frame, completion says cancelled"
    )
    func keyPathObjectReleased() throws {
        let (source, loop) = makeLoop()
        let animator = Animator(loop: loop)
        var result: AnimationResult?
        weak var probe: Sprite?
        do {
            let sprite = Sprite()
            probe = sprite
            animator.animate(sprite, \.x, to: 100, spring: .bouncy) { result = $0 }
            source.advance(frames: 5)
            #expect(sprite.x > 0)
        }
        #expect(probe == nil, "the animator holds the object weakly")
        #expect(result == nil)
        source.advance(frames: 1)
        #expect(result == .cancelled)
        #expect(animator.animationCount == 0)
        #expect(animator.isIdle)
    }

    @Test("the same for a weak target closure and for a part of a group")
    func weakTargetAndGroup() throws {
        let (source, loop) = makeLoop()
        let animator = Animator(loop: loop)
        var results: [AnimationResult] = []
        weak var probe: Sprite?
        let survivor = Sprite()
        do {
            let sprite = Sprite()
            probe = sprite
            animator.add(Tween(from: 0.0, to: 1, duration: 5), target: sprite) { sprite, value in
                sprite.y = value
            } completion: {
                results.append($0)
            }
            animator.add(
                AnimationGroup(
                    AnimationTrack(sprite, \.x, with: Tween(from: 0.0, to: 1, duration: 5)),
                    AnimationTrack(survivor, \.x, with: Tween(from: 0.0, to: 1, duration: 0.5)))
            ) { results.append($0) }
            source.advance(frames: 3)
        }
        #expect(probe == nil)
        source.advance(frames: 1)
        #expect(results == [.cancelled])
        source.advance(frames: 300)
        #expect(results == [.cancelled, .cancelled], "the group ends, cancelled, with its timeline (5 s)")
        #expect(survivor.x == 1)
        #expect(animator.animationCount == 0 && animator.isIdle)
    }

    @Test("a closure that captures an object keeps it only until the animation ends")
    func closureReleasedAtEnd() throws {
        let (source, loop) = makeLoop()
        let animator = Animator(loop: loop)
        weak var probe: Sprite?
        do {
            let sprite = Sprite()
            probe = sprite
            animator.add(Tween(from: 0.0, to: 1, duration: 0.2)) { sprite.x = $0 }
        }
        #expect(probe != nil, "by design: the animator keeps the closure until the animation ends")
        source.advance(frames: 20)
        #expect(probe == nil)
    }

    @Test("a cancelled animation's closure is released by the next frame")
    func closureReleasedAfterCancel() throws {
        let (source, loop) = makeLoop()
        let animator = Animator(loop: loop)
        weak var probe: Sprite?
        var handle: AnimationHandle?
        do {
            let sprite = Sprite()
            probe = sprite
            handle = animator.add(Tween(from: 0.0, to: 1, duration: 10)) { sprite.x = $0 }
        }
        source.advance(frames: 2)
        handle?.cancel()
        source.advance(frames: 1)
        #expect(probe == nil)
        #expect(animator.isIdle)
    }

    @Test("a released animator leaves the loop and releases its animations")
    func animatorReleased() throws {
        let (source, loop) = makeLoop()
        weak var probe: Sprite?
        weak var weakAnimator: Animator?
        do {
            let animator = Animator(loop: loop)
            weakAnimator = animator
            let sprite = Sprite()
            probe = sprite
            animator.add(Tween(from: 0.0, to: 1, duration: 10)) { sprite.x = $0 }
            source.advance(frames: 2)
        }
        #expect(weakAnimator == nil)
        #expect(probe == nil)
        source.advance(frames: 1)
        #expect(loop.linkCount == 0)
    }

    /// Cancels an animation when it is deinitialized.
    @MainActor final class Canceller {
        var victim: AnimationHandle?
        isolated deinit { victim?.cancel() }
    }

    @Test(
        "code run by a finished closure's release (a deinit that cancels another animation of the same store) sees the store whole: the cancelled animation gets no more values"
    )
    func deinitDuringCompaction() {
        let (source, loop) = makeLoop()
        let animator = Animator(loop: loop)
        var victimCalls = 0
        let victim: AnimationHandle
        do {
            let canceller = Canceller()
            // Added before the victim, so that the store moves the victim down when this leaves.
            animator.add(Tween(from: 0.0, to: 1, duration: 0.1)) { [canceller] _ in _ = canceller }
            victim = animator.add(Tween(from: 0.0, to: 1, duration: 10)) { _ in victimCalls += 1 }
            canceller.victim = victim
        }
        source.advance(frames: 8)
        #expect(victim.state == .cancelled)
        let callsAtCancel = victimCalls
        let other = Sprite()
        animator.animate(other, \.x, to: 5, duration: 0.25)
        source.advance(frames: 30)
        #expect(other.x == 5)
        #expect(victimCalls == callsAtCancel, "a cancelled animation is not called again")
        #expect(animator.animationCount == 0 && animator.isIdle)
    }
}
