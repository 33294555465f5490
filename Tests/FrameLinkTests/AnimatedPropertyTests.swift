import FrameLink
import Testing

/// `@AnimatedProperty`: the key-path form that writes straight into storage. It must give exactly
/// the values a key-path animation gives, retarget the same way, and keep the key path's promise
/// that an object's death ends its animations.
@MainActor
@Suite("Animation: animated properties")
struct AnimatedPropertyTests {
    /// The same two values, one as ordinary stored properties, one as animated properties.
    final class Plain {
        var scale = 1.0
        var offset = SIMD2<Double>(0, 0)
    }

    @MainActor final class Board {
        @AnimatedProperty var scale = 1.0
        @AnimatedProperty var offset = SIMD2<Double>(0, 0)
    }

    @Test(
        "tweens, springs and retargeting springs give the key path's values on every frame, for Double and SIMD2"
    )
    func sameValuesAsKeyPaths() {
        let (source, loop) = makeLoop()
        let animator = Animator(loop: loop)
        let plain = Plain()
        let board = Board()
        animator.animate(plain, \.scale, to: 3, duration: 0.5, curve: .easeOutBack)
        animator.animate(board, \.$scale, to: 3, duration: 0.5, curve: .easeOutBack)
        animator.animate(plain, \.offset, to: SIMD2(40, -20), spring: .bouncy)
        animator.animate(board, \.$offset, to: SIMD2(40, -20), spring: .bouncy)
        // Frames on which each value moved: equal values prove something only while they change.
        var scaleMoved = 0
        var offsetMoved = 0
        for frame in 0..<120 {
            if frame == 20 {
                // Interrupt both springs mid-flight: each keeps its value and velocity.
                animator.animate(plain, \.offset, to: SIMD2(-10, 5), spring: .smooth)
                animator.animate(board, \.$offset, to: SIMD2(-10, 5), spring: .smooth)
            }
            if frame == 40 {
                animator.animate(plain, \.scale, with: Tween(from: 2.0, to: 0.5, duration: 0.25))
                animator.animate(board, \.$scale, with: Tween(from: 2.0, to: 0.5, duration: 0.25))
            }
            let before = (plain.scale, plain.offset)
            source.advance(frames: 1)
            #expect(board.scale == plain.scale, "frame \(frame)")
            #expect(board.offset == plain.offset, "frame \(frame)")
            if plain.scale != before.0 { scaleMoved += 1 }
            if plain.offset != before.1 { offsetMoved += 1 }
        }
        #expect(scaleMoved >= 40, "the scale moved on \(scaleMoved) of the 120 frames compared")
        #expect(offsetMoved >= 60, "the offset moved on \(offsetMoved) of the 120 frames compared")
        #expect(board.scale == 0.5)
        #expect(board.offset == SIMD2(-10, 5))
        #expect(animator.animationCount == 0)
    }

    @Test("a value set while an animation runs is overwritten by its next frame; once it has ended, it stays")
    func settingTheValue() {
        let (source, loop) = makeLoop()
        let animator = Animator(loop: loop)
        let board = Board()
        animator.animate(board, \.$scale, with: Tween(from: 0.0, to: 1, duration: 1, curve: .linear))
        source.advance(frames: 30)
        board.scale = 42
        #expect(board.scale == 42)
        source.advance(frames: 1)
        // The 31st frame shows the tween at its target time, the 32nd sixtieth of a second.
        #expect(abs(board.scale - 32.0 / 60) < 1e-9)
        source.advance(frames: 40)
        #expect(board.scale == 1)
        board.scale = 7
        source.advance(frames: 5)
        #expect(board.scale == 7)
    }

    @Test("the handle, animation(of:), the property's animation, cancelAnimation(of:) and cancelAnimations(of:)")
    func findingAndCancelling() {
        let (source, loop) = makeLoop()
        let animator = Animator(loop: loop)
        let board = Board()
        var results: [AnimationResult] = []
        let handle = animator.animate(board, \.$scale, to: 2, duration: 1) { results.append($0) }
        #expect(animator.animation(of: board, \.$scale) === handle)
        #expect(board.$scale.animation === handle)
        #expect(animator.animation(of: board, \.$offset) == nil)
        #expect(board.$offset.animation == nil)
        source.advance(frames: 10)
        animator.cancelAnimation(of: board, \.$scale)
        #expect(results == [.cancelled])
        #expect(animator.animation(of: board, \.$scale) == nil)
        #expect(board.$scale.animation == nil)
        let kept = board.scale
        source.advance(frames: 10)
        #expect(board.scale == kept, "a cancelled animation leaves the value where it was")

        animator.animate(board, \.$scale, to: 0, duration: 1) { results.append($0) }
        animator.animate(board, \.$offset, to: SIMD2(1, 1), duration: 1) { results.append($0) }
        source.advance(frames: 2)
        animator.cancelAnimations(of: board)
        #expect(results == [.cancelled, .cancelled, .cancelled])
        source.advance(frames: 1)
        #expect(animator.animationCount == 0 && animator.isIdle)
    }

    @Test(
        "an object with animated properties released mid-animation deinitializes with them; its animations end (cancelled) at the next frame, a repeating one too, and the animator holds nothing"
    )
    func objectReleased() {
        let (source, loop) = makeLoop()
        let animator = Animator(loop: loop)
        var results: [AnimationResult] = []
        weak var probe: Board?
        weak var property: AnimatedProperty<Double>?
        do {
            let board = Board()
            probe = board
            property = board.$scale
            animator.animate(board, \.$scale, to: 100, spring: .bouncy) { results.append($0) }
            animator.animate(
                board, \.$offset, with: Tween(from: SIMD2(0.0, 0), to: SIMD2(1, 1), duration: 0.5),
                timing: AnimationTiming(repeatCount: .infinity, autoreverses: true)
            ) { results.append($0) }
            source.advance(frames: 5)
            #expect(board.scale > 1)
        }
        #expect(probe == nil, "the animator holds the object weakly")
        #expect(property == nil, "and not the property")
        #expect(results.isEmpty)
        #expect(animator.animationCount == 2)
        source.advance(frames: 1)
        #expect(results == [.cancelled, .cancelled])
        #expect(animator.animationCount == 0)
        #expect(animator.isIdle)
    }

    @Test("as a part of a group: the part ends (cancelled) when its object goes, the group with its timeline")
    func partOfAGroup() {
        let (source, loop) = makeLoop()
        let animator = Animator(loop: loop)
        var results: [AnimationResult] = []
        let survivor = Board()
        weak var probe: Board?
        do {
            let board = Board()
            probe = board
            animator.add(
                AnimationSequence(
                    AnimationTrack(survivor, \.$scale, with: Tween(from: 1.0, to: 2, duration: 0.25)),
                    AnimationTrack(
                        AnimationGroup(
                            AnimationTrack(board, \.$scale, with: Tween(from: 0.0, to: 1, duration: 5)),
                            AnimationTrack(
                                survivor, \.$offset, with: Tween(from: SIMD2(0.0, 0), to: SIMD2(3, 4), duration: 0.5))))
                )
            ) { results.append($0) }
            #expect(animator.animation(of: board, \.$scale) != nil)
            #expect(board.$scale.animation === animator.animation(of: survivor, \.$offset))
            source.advance(frames: 30)
            #expect(survivor.scale == 2)
            #expect(board.scale > 0)
        }
        #expect(probe == nil)
        source.advance(frames: 1)
        #expect(results.isEmpty, "the group runs on for its other parts")
        source.advance(frames: 400)
        #expect(results == [.cancelled])
        #expect(survivor.offset == SIMD2(3, 4))
        #expect(animator.animationCount == 0 && animator.isIdle)
    }

    @Test(
        "a paused animation whose object goes ends (cancelled) at the next frame; the animator goes idle, and a new animation still runs to its end"
    )
    func pausedWhenObjectGoes() {
        let (source, loop) = makeLoop()
        let animator = Animator(loop: loop)
        var results: [AnimationResult] = []
        do {
            let board = Board()
            let handle = animator.animate(board, \.$scale, to: 2, duration: 1) { results.append($0) }
            source.advance(frames: 3)
            handle.pause()
            source.advance(frames: 2)
            #expect(animator.isIdle, "only a paused animation: the animator sleeps")
        }
        source.advance(frames: 1)
        #expect(results == [.cancelled])
        #expect(animator.animationCount == 0)
        #expect(animator.isIdle)
        let other = Board()
        animator.animate(other, \.$scale, to: 5, duration: 0.25) { results.append($0) }
        source.advance(frames: 30)
        #expect(other.scale == 5, "the animator did not stop after one frame")
        #expect(results == [.cancelled, .finished])
    }

    @Test("pausing an animation after its object has gone, before the next frame, ends it the same way")
    func pausedAfterObjectGoes() {
        let (source, loop) = makeLoop()
        let animator = Animator(loop: loop)
        var results: [AnimationResult] = []
        var handle: AnimationHandle?
        do {
            let board = Board()
            handle = animator.animate(board, \.$scale, to: 2, duration: 1) { results.append($0) }
            source.advance(frames: 3)
        }
        handle?.pause()
        source.advance(frames: 1)
        #expect(results == [.cancelled])
        #expect(animator.animationCount == 0 && animator.isIdle)
        let other = Board()
        animator.animate(other, \.$scale, to: 5, duration: 0.25)
        source.advance(frames: 30)
        #expect(other.scale == 5)
    }

    @Test(
        "an object freed while the animator compacts (the last reference was a finished closure's) still ends its repeating animation"
    )
    func objectFreedDuringCompaction() {
        let (source, loop) = makeLoop()
        let animator = Animator(loop: loop)
        var results: [AnimationResult] = []
        weak var probe: Board?
        do {
            let board = Board()
            probe = board
            // Same animation type, so both live in one store: the closure leaves it after 0.1 s,
            // and with it the last reference to the board.
            animator.add(Tween(from: 0.0, to: 1, duration: 0.1)) { [board] value in board.offset.x = value }
            animator.animate(
                board, \.$scale, with: Tween(from: 0.0, to: 1, duration: 1),
                timing: AnimationTiming(repeatCount: .infinity)
            ) { results.append($0) }
        }
        #expect(probe != nil)
        source.advance(frames: 8)
        #expect(probe == nil)
        source.advance(frames: 2)
        #expect(results == [.cancelled])
        #expect(animator.animationCount == 0 && animator.isIdle)
    }

    @Test(
        "a track does not keep its property alive: kept past its object it ends when added (cancelled), and a repeating one ends when its object goes"
    )
    func tracksKeptPastTheirObject() {
        let (source, loop) = makeLoop()
        let animator = Animator(loop: loop)
        var results: [AnimationResult] = []
        weak var probe: AnimatedProperty<Double>?
        var pulse: AnimationTrack?
        do {
            let board = Board()
            probe = board.$scale
            pulse = AnimationTrack(board, \.$scale, with: Tween(from: 1.0, to: 1.2, duration: 0.5))
        }
        #expect(probe == nil, "the track holds neither the object nor the property")
        if let pulse {
            animator.add(AnimationGroup(pulse)) { results.append($0) }
        }
        source.advance(frames: 1)
        #expect(results == [.cancelled])
        #expect(animator.animationCount == 0 && animator.isIdle)

        do {
            let board = Board()
            animator.add(
                AnimationGroup(AnimationTrack(board, \.$scale, with: Tween(from: 1.0, to: 1.2, duration: 0.5))),
                timing: AnimationTiming(repeatCount: .infinity, autoreverses: true)
            ) { results.append($0) }
            source.advance(frames: 100)
            #expect(board.scale > 1)
        }
        source.advance(frames: 1)
        #expect(results == [.cancelled, .cancelled])
        #expect(animator.animationCount == 0 && animator.isIdle)
    }
}
