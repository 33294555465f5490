import FrameLink
import Testing

/// Bad input gets a clear `FrameLinkError` where it enters the API, never a crash deep inside.
@MainActor
@Suite("Animation: bad input")
struct AnimationBadInputTests {
    /// The `FrameLinkError` that `body` throws, if any (any other error fails the test).
    func error(_ body: () throws -> Void) -> FrameLinkError? {
        do {
            try body()
            return nil
        } catch let error as FrameLinkError {
            #expect(!error.description.isEmpty)
            return error
        } catch {
            Issue.record("expected a FrameLinkError, got \(error)")
            return nil
        }
    }

    @Test("negative, NaN and infinite durations are rejected", arguments: [-1, -0.001, .nan, .infinity] as [Double])
    func badDurations(duration: Double) {
        let tween = error { _ = try Tween(from: 0.0, to: 1, duration: duration) }
        guard case .invalidInterval(let message)? = tween else {
            Issue.record("expected invalidInterval, got \(String(describing: tween))")
            return
        }
        #expect(message.contains("tween duration"))
        #expect(error { _ = try Tween(from: 0.0, to: 1, duration: 1, delay: duration) } != nil)
        #expect(error { _ = try Keyframes(values: [0.0, 1], duration: duration) } != nil)
        #expect(error { _ = try Spring(duration: duration) } != nil)
        #expect(error { _ = try Spring(response: duration, dampingRatio: 1) } != nil)
        #expect(error { _ = try AnimationTiming(delay: duration) } != nil)
        #expect(error { _ = try AnimationTrack.wait(duration) } != nil)
    }

    @Test("NaN and infinite values are rejected", arguments: [.nan, .infinity, -.infinity] as [Double])
    func badValues(value: Double) {
        let tween = error { _ = try Tween(from: value, to: 1, duration: 1) }
        guard case .invalidValue(let message)? = tween else {
            Issue.record("expected invalidValue, got \(String(describing: tween))")
            return
        }
        #expect(message.contains("finite"))
        #expect(error { _ = try Tween(from: SIMD2(0, value), to: SIMD2(1, 1), duration: 1) } != nil)
        #expect(error { _ = try SpringAnimation(from: 0, to: value) } != nil)
        #expect(error { _ = try SpringAnimation(from: 0, to: 1, initialVelocity: value) } != nil)
        #expect(error { _ = try DecayAnimation(from: value, initialVelocity: 1) } != nil)
        #expect(
            error { _ = try DecayAnimation(from: SIMD2<Float>(0, 0), initialVelocity: SIMD2<Float>(Float(value), 0)) }
                != nil)
        #expect(error { _ = try DecayAnimation(from: 0.0, initialVelocity: 1, bounds: 0...Double.infinity) } != nil)
        #expect(error { _ = try Keyframes(values: [0, value, 1], duration: 1) } != nil)
        #expect(error { _ = try TimingCurve(controlPoints: value, 0, 1, 1) } != nil)
        #expect(error { _ = try TimingCurve(controlPoints: 0, value, 1, 1) } != nil)
    }

    @Test("a zero, negative or NaN mass, stiffness or damping is rejected")
    func badSprings() {
        for bad in [0, -1, Double.nan, .infinity] {
            let mass = error { _ = try Spring(mass: bad, stiffness: 100, damping: 10) }
            guard case .invalidValue(let message)? = mass else {
                Issue.record("expected invalidValue for mass \(bad)")
                continue
            }
            #expect(message.contains("spring mass"))
            #expect(error { _ = try Spring(mass: 1, stiffness: bad, damping: 10) } != nil)
            #expect(error { _ = try Spring(mass: 1, stiffness: 100, damping: bad) } != nil)
            #expect(error { _ = try Spring(response: 0.5, dampingRatio: bad) } != nil)
            #expect(error { _ = try SpringAnimation(from: 0.0, to: 1, threshold: bad) } != nil)
        }
        for bounce in [1, -1, 2, Double.nan] {
            #expect(error { _ = try Spring(duration: 0.5, bounce: bounce) } != nil, "bounce \(bounce)")
        }
    }

    @Test("key times that do not ascend or leave 0...1 are rejected")
    func badKeyTimes() {
        let descending = error { _ = try Keyframes(values: [0.0, 1, 2, 3], keyTimes: [0, 0.6, 0.4, 1], duration: 1) }
        guard case .invalidInterval(let message)? = descending else {
            Issue.record("expected invalidInterval, got \(String(describing: descending))")
            return
        }
        #expect(message.contains("ascend"))
        #expect(error { _ = try Keyframes(values: [0.0, 1], keyTimes: [0, 1.2], duration: 1) } != nil)
        #expect(error { _ = try Keyframes(values: [0.0, 1], keyTimes: [-0.1, 1], duration: 1) } != nil)
        #expect(error { _ = try Keyframes(values: [0.0, 1], keyTimes: [0, .nan], duration: 1) } != nil)
        #expect(error { _ = try Keyframes(values: [0.0, 1, 2], keyTimes: [0, 0.5, 0.5], duration: 1) } == nil)
    }

    @Test("mismatched counts are rejected")
    func badCounts() {
        let keyTimes = error { _ = try Keyframes(values: [0.0, 1, 2], keyTimes: [0, 1], duration: 1) }
        guard case .invalidCount(let message)? = keyTimes else {
            Issue.record("expected invalidCount, got \(String(describing: keyTimes))")
            return
        }
        #expect(message.contains("2 key times for 3 values"))
        #expect(
            error { _ = try Keyframes(values: [0.0, 1, 2], curves: [.linear, .linear, .linear], duration: 1) } != nil)
        #expect(error { _ = try Keyframes(values: [Double](), duration: 1) } != nil)
        #expect(error { _ = try TimingCurve.steps(0) } != nil)
        #expect(error { _ = try AnimationTiming(repeatCount: 0) } != nil)
        #expect(error { _ = try AnimationTiming(repeatCount: -2) } != nil)
        #expect(error { _ = try AnimationTiming(repeatCount: .nan) } != nil)
    }

    @Test("other out-of-range parameters are rejected")
    func otherParameters() throws {
        #expect(error { _ = try TimingCurve(controlPoints: 1.5, 0, 0.5, 1) } != nil)
        #expect(error { _ = try TimingCurve(controlPoints: 0.5, 0, -0.1, 1) } != nil)
        for speed in [0, -1, Double.nan, .infinity] {
            #expect(error { _ = try AnimationTiming(speed: speed) } != nil)
        }
        for rate in [0, 1, 1.5, -0.5, Double.nan] {
            #expect(error { _ = try DecelerationRate(rate) } != nil)
        }
        let (_, loop) = makeLoop()
        let animator = Animator(loop: loop)
        let handle = animator.add(try Tween(from: 0.0, to: 1, duration: 1)) { _ in }
        for elapsed in [-1, Double.nan, .infinity] {
            #expect(error { try handle.seek(to: elapsed) } != nil)
        }
    }
}
