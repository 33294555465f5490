import FrameLink
import Testing

/// The same animations stepped at 60 Hz, at 30 Hz, and with random dropped frames give identical
/// values at the timestamps they share: every value is a pure function of the frame's time.
@MainActor
@Suite("Animation: determinism across frame rates")
struct AnimationDeterminismTests {
    /// A model object animated through key paths.
    final class Body {
        var height = 0.0
        var position = SIMD2<Double>(0, 0)
    }

    /// Values recorded per frame (the animator's target timestamp) and per animation name.
    final class Samples {
        var values: [Int64: [String: [Double]]] = [:]
        func record(_ name: String, _ time: FrameInstant, _ components: [Double]) {
            values[time.nanoseconds, default: [:]][name] = components
        }
    }

    /// Runs the scene for 4 s of virtual time at `rate`; with `dropSeed`, random stretches of
    /// frames are dropped (single long frames), except around 1 s where the scene changes.
    static func run(rate: FrameRate, dropSeed: UInt64?) throws -> Samples {
        let (source, loop) = makeLoop(rate: rate)
        loop.drainsMainQueue = false
        let animator = Animator(loop: loop)
        let samples = Samples()
        let body = Body()

        let tween = Tween(from: 0.0, to: 100, duration: 0.8, curve: .easeInOut)
        let tweenTiming = AnimationTiming(delay: 0.2, speed: 1.3, repeatCount: 2.5, autoreverses: true)
        animator.add(tween, timing: tweenTiming) { samples.record("tween", animator.targetTimestamp, [$0]) }
        let spring = SpringAnimation(
            from: SIMD2<Double>(0, 0), to: SIMD2(300, -40), initialVelocity: SIMD2(-500, 900), spring: .bouncy)
        animator.add(spring) { samples.record("spring", animator.targetTimestamp, [$0.x, $0.y]) }
        let decay = DecayAnimation(from: 50.0, initialVelocity: 2500, bounds: 0...400)
        animator.add(decay) { samples.record("decay", animator.targetTimestamp, [$0]) }
        let path = Keyframes(
            values: [SIMD2<Float>(0, 0), SIMD2(10, 40), SIMD2(-20, 10), SIMD2(5, 5)], curves: [.easeOutBack],
            mode: .smooth, duration: 1.7)
        animator.add(path, timing: AnimationTiming(repeatCount: .infinity)) {
            samples.record("keyframes", animator.targetTimestamp, [Double($0.x), Double($0.y)])
        }
        let jump = Tween(from: 0.0, to: 200, duration: 0.6, curve: .easeOutBounce)
        let fall = SpringAnimation(from: 200.0, to: 0, spring: .snappy)
        animator.add(
            AnimationSequence(
                AnimationTrack(body, \.height, with: jump), .wait(0.15), AnimationTrack(body, \.height, with: fall)),
            timing: AnimationTiming(repeatCount: 2))
        loop.renderHandler = { _ in samples.record("sequence", animator.targetTimestamp, [body.height]) }

        // At exactly 1 s: slow motion, and a spring on a property that is already animating.
        let change = FrameTimer(fireAt: .seconds(1), interval: .seconds(1), repeats: false) { _ in
            animator.timeScale = 0.5
            _ = animator.animate(body, \.position, to: SIMD2(80, 80), duration: 2)
        }
        change.add(to: loop, forMode: .common)
        let retarget = FrameTimer(fireAt: .seconds(1.5), interval: .seconds(1), repeats: false) { _ in
            _ = animator.animate(body, \.position, to: SIMD2(-30, 10), spring: .bouncy)
        }
        retarget.add(to: loop, forMode: .common)
        let watcher = DisplayLink { _ in
            samples.record("position", animator.targetTimestamp, [body.position.x, body.position.y])
        }
        watcher.add(to: loop, forMode: .common)

        var random = dropSeed.map(AnimationRandom.init(seed:))
        let period = rate.periodNanoseconds
        while source.now < .seconds(4) {
            let now = source.now.nanoseconds
            let nearChange =
                (850_000_000...1_100_000_000).contains(now) || (1_350_000_000...1_600_000_000).contains(now)
            if var generator = random, !nearChange, generator.next() % 3 == 0 {
                let skipped = Int64(2 + generator.next() % 6)
                random = generator
                source.advance(by: .nanoseconds(skipped * period))
            } else {
                if var generator = random {
                    _ = generator.next()
                    random = generator
                }
                source.advance(frames: 1)
            }
        }
        return samples
    }

    @Test(
        "60 Hz, 30 Hz and 60 Hz with random drops agree exactly at shared timestamps", arguments: [1, 2, 3] as [UInt64])
    func sharedTimestampsAgree(seed: UInt64) throws {
        let at60 = try Self.run(rate: .hz60, dropSeed: nil)
        let at30 = try Self.run(rate: .hz30, dropSeed: nil)
        let dropped = try Self.run(rate: .hz60, dropSeed: seed)
        var compared = 0
        for (other, label) in [(at30, "30 Hz"), (dropped, "drops")] {
            let shared = Set(at60.values.keys).intersection(other.values.keys)
            #expect(shared.count > 40, "\(label): \(shared.count) shared timestamps")
            for time in shared.sorted() {
                let reference = at60.values[time]!
                let values = other.values[time]!
                for (name, components) in values {
                    guard let expected = reference[name] else { continue }
                    #expect(components == expected, "\(label) \(name) at \(FrameInstant(nanoseconds: time))")
                    compared += 1
                }
            }
        }
        #expect(compared > 500)
    }

    @Test("what the animator writes is the pure timing function at the frame's target time")
    func animatorMatchesPureFunction() throws {
        let samples = try Self.run(rate: .hz60, dropSeed: 9)
        let tween = Tween(from: 0.0, to: 100, duration: 0.8, curve: .easeInOut)
        let timing = AnimationTiming(delay: 0.2, speed: 1.3, repeatCount: 2.5, autoreverses: true)
        var checked = 0
        for (time, values) in samples.values where time < 1_000_000_000 {
            guard let recorded = values["tween"]?.first else { continue }
            let expected = timing.value(of: tween, at: Double(time) * 1e-9)
            #expect(expected.map { abs($0 - recorded) < 1e-9 } == true, "at \(time)")
            checked += 1
        }
        #expect(checked > 10)
    }
}
