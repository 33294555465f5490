import FrameLink
import Testing

/// The Animator on virtual time: one link paused when idle, closures and key paths, retargeting,
/// handles, keys, groups and sequences, time scale.
@MainActor
@Suite("Animation: animator")
struct AnimationAnimatorTests {
    /// An object animated by key path.
    final class Sprite {
        var x = 0.0
        var alpha = 1.0
        var position = SIMD2<Double>(0, 0)
    }

    func makeAnimator(rate: FrameRate = .hz60) -> (ManualFrameSource, FrameLoop, Animator) {
        let (source, loop) = makeLoop(rate: rate)
        loop.drainsMainQueue = false
        return (source, loop, Animator(loop: loop))
    }

    @Test("one display link, paused while no animation runs")
    func linkPausedWhenIdle() throws {
        let (source, loop, animator) = makeAnimator()
        #expect(loop.linkCount == 1)
        #expect(animator.isIdle)
        var results: [AnimationResult] = []
        animator.add(Tween(from: 0.0, to: 1, duration: 0.1)) { _ in
        } completion: {
            results.append($0)
        }
        #expect(!animator.isIdle)
        #expect(animator.animationCount == 1)
        source.advance(frames: 10)
        #expect(results == [.finished])
        #expect(animator.isIdle)
        #expect(animator.animationCount == 0)
        #expect(loop.linkCount == 1)
    }

    @Test("a closure gets the value at each frame's target timestamp and the exact end value")
    func closureValues() throws {
        let (source, _, animator) = makeAnimator()
        let tween = Tween(from: 10.0, to: 20, duration: 0.25, curve: .easeInQuad)
        let seen = Recorder<(FrameInstant, Double)>()
        animator.add(tween) { seen.append((animator.targetTimestamp, $0)) }
        source.advance(frames: 20)
        #expect(seen.values.count == 14)  // targets 33 ms … 250 ms, the last one on the end value
        for (time, value) in seen.values.dropLast() {
            #expect(abs(value - tween.value(at: time.seconds)) < 1e-9)
        }
        #expect(seen.values.last?.1 == 20)
    }

    @Test("a key-path animation writes the property; animate(to:) starts from its current value")
    func keyPathAnimation() throws {
        let (source, _, animator) = makeAnimator()
        let sprite = Sprite()
        sprite.x = 40
        let handle = animator.animate(sprite, \.x, to: 100, duration: 0.5, curve: .linear)
        #expect(animator.animation(of: sprite, \.x) === handle)
        source.advance(frames: 14)  // target 0.25 s
        #expect(abs(sprite.x - 70) < 1e-9)
        source.advance(frames: 20)
        #expect(sprite.x == 100)
        #expect(handle.state == .finished)
        #expect(animator.animation(of: sprite, \.x) == nil)
    }

    @Test("retargeting a spring keeps its value and velocity; the first completes cancelled")
    func springRetargetKeepsVelocity() throws {
        let (source, loop, animator) = makeAnimator()
        let sprite = Sprite()
        var first: AnimationResult?
        animator.animate(sprite, \.x, to: 100, spring: .bouncy) { first = $0 }
        source.advance(frames: 12)  // now = 0.2 s
        let switchTime = loop.now.seconds
        let original = SpringAnimation(from: 0.0, to: 100, spring: .bouncy)
        animator.animate(sprite, \.x, to: -50, spring: .snappy)
        #expect(first == .cancelled)
        let continued = SpringAnimation(
            from: original.value(at: switchTime), to: -50, initialVelocity: original.velocity(at: switchTime),
            spring: .snappy)
        for _ in 0..<30 {
            source.advance(frames: 1)
            let elapsed = animator.targetTimestamp.seconds - switchTime
            #expect(abs(sprite.x - continued.value(at: elapsed)) < 1e-9)
        }
        #expect(animator.animationCount == 1)
    }

    @Test("retargeting a tween continues from the current value, and a closure key retargets too")
    func tweenRetarget() throws {
        let (source, loop, animator) = makeAnimator()
        let seen = Recorder<Double>()
        let first = Tween(from: 0.0, to: 100, duration: 1, curve: .linear)
        animator.add(first, forKey: "slide") { seen.append($0) }
        source.advance(frames: 30)  // now = 0.5 s
        let start = first.value(at: loop.now.seconds)
        let handle = animator.add(Tween(from: 999.0, to: 0, duration: 1, curve: .linear), forKey: "slide") {
            seen.append($0)
        }
        #expect(animator.animation(forKey: "slide") === handle)
        source.advance(frames: 1)
        let elapsed = animator.targetTimestamp.seconds - loop.now.seconds + (1.0 / 60)
        #expect(abs(seen.values.last! - start * (1 - elapsed)) < 1e-6)
        #expect(animator.animationCount == 1)
    }

    @Test("pause freezes, resume continues where it stopped, seek while paused shows the value at once")
    func pauseResumeSeek() throws {
        let (source, _, animator) = makeAnimator()
        let sprite = Sprite()
        let handle = animator.animate(sprite, \.x, with: Tween(from: 0.0, to: 100, duration: 2, curve: .linear))
        source.advance(frames: 29)  // target 0.5 s
        #expect(abs(sprite.x - 25) < 1e-9)
        handle.pause()
        #expect(handle.isPaused && handle.state == .paused)
        let frozen = handle.elapsedTime
        source.advance(frames: 60)
        #expect(abs(sprite.x - 25) < 1e-9)
        #expect(handle.elapsedTime == frozen)
        #expect(animator.isIdle, "a paused animation needs no frames")
        handle.seek(to: 1.5)
        #expect(abs(sprite.x - 75) < 1e-9)
        handle.resume()
        source.advance(frames: 1)
        #expect(sprite.x > 75 && sprite.x < 78)
        source.advance(frames: 60)
        #expect(sprite.x == 100)
        #expect(handle.state == .finished)
    }

    @Test("cancel stops at once with a cancelled completion; cancelling by key works too")
    func cancel() throws {
        let (source, _, animator) = makeAnimator()
        var results: [String: AnimationResult] = [:]
        var calls = 0
        let handle = animator.add(Tween(from: 0.0, to: 1, duration: 1), forKey: "a") { _ in
            calls += 1
        } completion: {
            results["a"] = $0
        }
        animator.add(Tween(from: 0.0, to: 1, duration: 1), forKey: "b") { _ in
        } completion: {
            results["b"] = $0
        }
        source.advance(frames: 3)
        handle.cancel()
        #expect(results["a"] == .cancelled)
        #expect(handle.state == .cancelled)
        handle.cancel()  // twice is fine
        animator.cancelAnimation(forKey: "b")
        #expect(results["b"] == .cancelled)
        let before = calls
        source.advance(frames: 3)
        #expect(calls == before)
        #expect(animator.animationCount == 0)
        #expect(animator.isIdle)
        #expect(animator.animation(forKey: "a") == nil)
    }

    @Test("timeScale 0.5 plays at half speed from the moment it is set; 0 freezes")
    func timeScale() throws {
        let (source, _, animator) = makeAnimator()
        let sprite = Sprite()
        animator.animate(sprite, \.x, with: Tween(from: 0.0, to: 100, duration: 1, curve: .linear))
        source.advance(frames: 30)  // now 0.5 s
        animator.timeScale = 0.5
        source.advance(frames: 29)  // target 1.0 s: 0.5 s of real time → 0.25 s of animation time
        #expect(abs(sprite.x - 75) < 1e-9)
        // Frozen at the loop's current time, a frame before the target last shown (as Core
        // Animation's speed = 0 freezes at the current media time).
        animator.timeScale = 0
        source.advance(frames: 30)
        #expect(abs(sprite.x - (75 - 100.0 / 120)) < 1e-6)
        animator.timeScale = 1
        source.advance(frames: 30)
        #expect(sprite.x == 100)
    }

    @Test("a group runs its parts together and completes once; its timing applies to the whole")
    func group() throws {
        let (source, _, animator) = makeAnimator()
        let sprite = Sprite()
        var results: [AnimationResult] = []
        let group = AnimationGroup(
            AnimationTrack(sprite, \.x, with: Tween(from: 0.0, to: 10, duration: 1, curve: .linear)),
            AnimationTrack(sprite, \.alpha, with: Tween(from: 1.0, to: 0, duration: 0.5, curve: .linear)))
        #expect(group.duration == 1)
        let handle = animator.add(group, timing: AnimationTiming(autoreverses: true)) { results.append($0) }
        #expect(handle.duration == 2)
        source.advance(frames: 29)  // 0.5 s
        #expect(abs(sprite.x - 5) < 1e-9 && sprite.alpha == 0)
        source.advance(frames: 45)  // 1.25 s: on the way back
        #expect(abs(sprite.x - 7.5) < 1e-9 && sprite.alpha == 0)
        source.advance(frames: 45)  // 2 s: back at the start
        #expect(sprite.x == 0 && sprite.alpha == 1)
        source.advance(frames: 2)
        #expect(results == [.finished])
        #expect(animator.animationCount == 0 && animator.isIdle)
    }

    @Test("a sequence plays its parts in order; parts on the same property take turns")
    func sequence() throws {
        let (source, _, animator) = makeAnimator()
        let sprite = Sprite()
        let order = Recorder<String>()
        var result: AnimationResult?
        let sequence = AnimationSequence(
            AnimationTrack(sprite, \.x, with: Tween(from: 0.0, to: 10, duration: 0.5, curve: .linear)),
            AnimationTrack(Tween(from: 0.0, to: 1, duration: 0.25)) { _ in
                if order.values.last != "middle" { order.append("middle") }
            },
            AnimationTrack(sprite, \.x, with: Tween(from: 10.0, to: 30, duration: 0.5, curve: .linear)))
        #expect(sequence.duration == 1.25)
        animator.add(sequence) { result = $0 }
        source.advance(frames: 17)  // 0.3 s
        #expect(abs(sprite.x - 6) < 1e-9 && order.values.isEmpty)
        source.advance(frames: 18)  // 0.6 s: the middle part runs, x holds 10
        #expect(sprite.x == 10 && order.values == ["middle"])
        source.advance(frames: 24)  // 1.0 s: the last part, halfway
        #expect(abs(sprite.x - 20) < 1e-9)
        source.advance(frames: 20)
        #expect(sprite.x == 30 && result == .finished)
    }

    @Test("callbacks may cancel and add animations; additions run from the next frame")
    func reentrancy() throws {
        let (source, _, animator) = makeAnimator()
        var other: AnimationHandle?
        var otherCalls = 0
        var added = 0
        animator.add(Tween(from: 0.0, to: 1, duration: 1)) { _ in
            other?.cancel()
            if added < 3 {
                added += 1
                animator.add(Tween(from: 0.0, to: 1, duration: 0.1)) { _ in }
            }
        }
        other = animator.add(Tween(from: 0.0, to: 1, duration: 1)) { _ in otherCalls += 1 }
        source.advance(frames: 5)
        #expect(otherCalls == 0)
        #expect(other?.state == .cancelled)
        source.advance(frames: 60)
        #expect(animator.animationCount == 0)
    }

    @Test("cancelAnimations(of:) and cancelAllAnimations() end what they should")
    func cancelByObject() throws {
        let (source, _, animator) = makeAnimator()
        let a = Sprite()
        let b = Sprite()
        var ended: [AnimationResult] = []
        animator.animate(a, \.x, to: 5, duration: 1) { ended.append($0) }
        animator.animate(a, \.alpha, to: 0, duration: 1) { ended.append($0) }
        animator.add(Tween(from: 0.0, to: 1, duration: 1), target: a) { sprite, value in
            sprite.x = value
        } completion: {
            ended.append($0)
        }
        animator.animate(b, \.x, to: 5, duration: 1)
        source.advance(frames: 2)
        animator.cancelAnimations(of: a)
        #expect(ended == [.cancelled, .cancelled, .cancelled])
        #expect(animator.animationCount == 1)
        animator.cancelAllAnimations()
        #expect(animator.animationCount == 0)
    }

    @Test("the animator keeps running in the tracking mode and honours a preferred frame rate")
    func modesAndRate() throws {
        let (source, loop, animator) = makeAnimator()
        animator.preferredFrameRate = .hz30
        var calls = 0
        animator.add(Tween(from: 0.0, to: 1, duration: 10)) { _ in calls += 1 }
        loop.currentMode = .tracking
        source.advance(frames: 60)
        #expect(calls == 30)
    }
}

/// AnimatedValues: the animator writes values straight into storage, with no callback.
@MainActor
@Suite("Animation: animated values")
struct AnimationAnimatedValuesTests {
    @Test("values are written straight into storage; a slot animated again retargets")
    func directWrites() throws {
        let (source, loop) = makeLoop()
        let animator = Animator(loop: loop)
        let values = AnimatedValues(repeating: 0.0, count: 3)
        var results: [AnimationResult] = []
        for index in 0..<3 {
            animator.add(
                Tween(from: 0.0, to: Double(index + 1) * 10, duration: 1, curve: .linear), into: values, at: index
            ) { results.append($0) }
        }
        source.advance(frames: 29)  // 0.5 s
        #expect(values.withUnsafeBufferPointer { Array($0) }.map { ($0 * 1e6).rounded() / 1e6 } == [5, 10, 15])
        let spring = SpringAnimation(from: 0.0, to: 100, spring: .snappy)
        animator.add(spring, into: values, at: 1)
        #expect(results == [.cancelled])
        source.advance(frames: 1)
        #expect(values[1] > 10 && values[1] < 30, "continues from 10, not from the spring's 0")
        source.advance(frames: 120)
        #expect(values[0] == 10 && values[1] == 100 && values[2] == 30)
        #expect(results == [.cancelled, .finished, .finished])
        #expect(animator.isIdle)
    }

    @Test("storage stays alive while an animation writes into it, and is released after")
    func storageLifetime() throws {
        let (source, loop) = makeLoop()
        let animator = Animator(loop: loop)
        weak var probe: AnimatedValues<Double>?
        do {
            let values = AnimatedValues(repeating: 0.0, count: 1)
            probe = values
            animator.add(Tween(from: 0.0, to: 1, duration: 0.1), into: values, at: 0)
        }
        #expect(probe != nil)
        source.advance(frames: 10)
        #expect(probe == nil)
    }

    @Test("paused direct animations show a sought value at once")
    func seekDirect() throws {
        let (source, loop) = makeLoop()
        let animator = Animator(loop: loop)
        let values = AnimatedValues(repeating: 0.0, count: 1)
        let handle = animator.add(Tween(from: 0.0, to: 100, duration: 1, curve: .linear), into: values, at: 0)
        source.advance(frames: 2)
        handle.pause()
        handle.seek(to: 0.25)
        #expect(values[0] == 25)
    }
}
