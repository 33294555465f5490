import FrameLink
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tweens, keyframes, decays and the interpolatable values, as pure functions of time.
@Suite("Animation: values")
struct AnimationValueTests {
    @Test("a tween starts and ends exactly at its values and follows its curve")
    func tween() throws {
        let tween = Tween(from: 0.1, to: 0.3, duration: 2, curve: .easeOutQuad)
        #expect(tween.value(at: -1) == 0.1)
        #expect(tween.value(at: 0) == 0.1)
        #expect(tween.value(at: 2) == 0.3)
        #expect(tween.value(at: 9) == 0.3)
        #expect(abs(tween.value(at: 1) - (0.1 + 0.2 * 0.75)) < 1e-15)
        #expect(tween.curve == .easeOutQuad)
        let vector = Tween(from: SIMD3<Float>(0, 0, 0), to: SIMD3(2, 4, 8), duration: 1, curve: .linear)
        #expect(vector.value(at: 0.25) == SIMD3(0.5, 1, 2))
        #expect(abs(vector.velocity(at: 0.5).z - 8) < 1e-3)
    }

    @Test("retargeting a tween moves its start only")
    func tweenRetarget() throws {
        let tween = Tween(from: 0.0, to: 10, duration: 1)
        let moved = tween.retargeted(from: 4, velocity: 100)
        #expect(moved.from == 4 && moved.to == 10 && moved.duration == 1)
    }

    @Test("linear keyframes pass through every value at its key time, with per-segment curves")
    func linearKeyframes() throws {
        let frames = Keyframes(
            values: [0.0, 10, 5, 5, 20], keyTimes: [0, 0.1, 0.5, 0.6, 1],
            curves: [.linear, .easeInQuad, .linear, .linear],
            duration: 2)
        for (time, value) in zip([0, 0.2, 1, 1.2, 2], [0.0, 10, 5, 5, 20]) {
            #expect(abs(frames.value(at: time) - value) < 1e-12, "at \(time)")
        }
        #expect(abs(frames.value(at: 0.1) - 5) < 1e-12)
        // Second segment (0.2 s … 1 s) eased in: a quarter of the way in time is 1/16 of the way.
        #expect(abs(frames.value(at: 0.4) - (10 - 5.0 / 16)) < 1e-12)
        #expect(frames.value(at: -1) == 0 && frames.value(at: 3) == 20)
        let even = Keyframes(values: [0.0, 1, 0], duration: 1)
        #expect(even.keyTimes == [0, 0.5, 1])
        #expect(Keyframes(values: [7.0], duration: 1).value(at: 0.5) == 7)
    }

    @Test("discrete keyframes hold each value until the next key time")
    func discreteKeyframes() throws {
        let frames = Keyframes(values: [1.0, 2, 3], keyTimes: [0, 0.25, 0.75], mode: .discrete, duration: 4)
        #expect([0, 0.99, 1, 2.9, 3, 4].map(frames.value(at:)) == [1, 1, 2, 2, 3, 3])
    }

    @Test("paced keyframes move at constant speed, ignoring key times")
    func pacedKeyframes() throws {
        let frames = Keyframes(
            values: [SIMD2<Double>(0, 0), SIMD2(30, 0), SIMD2(30, 10)], keyTimes: [0, 0.9, 1], mode: .paced, duration: 4
        )
        #expect(frames.keyTimes == [0, 0.75, 1])
        for step in 1..<40 {
            let t = Double(step) * 0.1
            let speed = (frames.value(at: t + 0.001) - frames.value(at: t)).magnitudeSquared.squareRoot() / 0.001
            #expect(abs(speed - 10) < 1e-6, "at \(t)")
        }
    }

    @Test("smooth keyframes pass through every value with a continuous velocity")
    func smoothKeyframes() throws {
        let values = [0.0, 10, -5, 20, 0]
        let frames = Keyframes(values: values, keyTimes: [0, 0.2, 0.5, 0.7, 1], mode: .smooth, duration: 1)
        for (time, value) in zip(frames.keyTimes, values) {
            #expect(abs(frames.value(at: time) - value) < 1e-12)
        }
        for time in [0.2, 0.5, 0.7] {
            let before = (frames.value(at: time) - frames.value(at: time - 1e-6)) / 1e-6
            let after = (frames.value(at: time + 1e-6) - frames.value(at: time)) / 1e-6
            #expect(abs(before - after) < 1e-2 * max(1, abs(before)), "velocity jumps at \(time)")
        }
        // Catmull-Rom: the tangent at an inner key is the slope between its neighbours.
        let slope = (frames.value(at: 0.5 + 1e-7) - frames.value(at: 0.5 - 1e-7)) / 2e-7
        #expect(abs(slope - (20 - 10) / (0.7 - 0.2)) < 1e-4)
    }

    @Test("a decay coasts to its resting value with exponentially falling velocity")
    func decay() throws {
        let fling = DecayAnimation(from: 100.0, initialVelocity: 2000, decelerationRate: .normal)
        let k = 1000 * log(0.998)
        #expect(abs(fling.restingValue - (100 - 2000 / k)) < 1e-9)
        #expect(abs(fling.velocity(at: 0.5) - 2000 * pow(0.998, 500)) < 1e-6)
        let expected: Double = 100 + 2000 * (exp(k * 0.5) - 1) / k
        #expect(abs(fling.value(at: 0.5) - expected) < 1e-9)
        #expect(fling.value(at: fling.duration) == fling.restingValue)
        #expect(abs(fling.value(at: fling.duration * 0.999_999) - fling.restingValue) < 0.0011)
        #expect(fling.value(at: 0) == 100)
        let fast = DecayAnimation(from: 0.0, initialVelocity: 1000, decelerationRate: .fast)
        #expect(fast.restingValue < fling.restingValue - 100)
        let planar = DecayAnimation(from: SIMD2<Double>(0, 0), initialVelocity: SIMD2(300, -400))
        #expect(abs(planar.restingValue.x / planar.restingValue.y + 0.75) < 1e-12)
    }

    @Test("a bounded decay reaches its bound and springs back onto it; one that starts outside returns")
    func boundedDecay() throws {
        let fling = DecayAnimation(from: 100.0, initialVelocity: 3000, bounds: 0...500)
        let samples = stride(from: 0.0, through: fling.duration, by: 0.001).map(fling.value(at:))
        #expect(samples.max()! > 500, "rubber-bands past the bound")
        #expect(samples.max()! < 700)
        #expect(fling.value(at: fling.duration) == 500)
        let stops = DecayAnimation(from: 100.0, initialVelocity: 3000, bounds: 0...500, bounce: nil)
        #expect(stride(from: 0.0, through: stops.duration + 1, by: 0.001).map(stops.value(at:)).max()! == 500)
        let inside = DecayAnimation(from: 100.0, initialVelocity: 100, bounds: 0...500)
        #expect(inside.duration == (DecayAnimation(from: 100.0, initialVelocity: 100)).duration)
        let outside = DecayAnimation(from: -80.0, initialVelocity: 0, bounds: 0...500)
        #expect(outside.value(at: 0) == -80)
        #expect(outside.value(at: outside.duration) == 0)
        #expect(outside.value(at: 0.1) > -80)
        let retargeted = fling.retargeted(from: 450, velocity: 0)
        #expect(retargeted.value(at: retargeted.duration) == 500)
    }

    @Test("Double, Float and SIMD vectors interpolate component-wise")
    func interpolatable() {
        #expect(2.0.interpolated(to: 4, fraction: 0.25) == 2.5)
        #expect(Float(2).interpolated(to: 4, fraction: 0.5) == 3)
        #expect(SIMD2<Double>(0, 10).interpolated(to: SIMD2(10, 0), fraction: 0.5) == SIMD2(5, 5))
        #expect(SIMD4<Float>(1, 1, 1, 1).scaled(by: 0.5) == SIMD4(0.5, 0.5, 0.5, 0.5))
        #expect(SIMD3<Double>(1, 2, 2).magnitudeSquared == 9)
        #expect(!SIMD2<Double>(1, .nan).isFinite && SIMD2<Double>(1, 2).isFinite)
        #expect(!SIMD4<Float>(1, 2, 3, .infinity).isFinite)
        #expect(Float(3).magnitudeSquared == 9)
    }

    @Test("a type of your own animates once it conforms to Interpolatable")
    func customType() throws {
        let tween = Tween(
            from: AnimationPoint(x: 0, y: 0), to: AnimationPoint(x: 10, y: 20), duration: 1, curve: .linear)
        #expect(tween.value(at: 0.5) == AnimationPoint(x: 5, y: 10))
        let spring = SpringAnimation(from: AnimationPoint(x: 0, y: 0), to: AnimationPoint(x: 1, y: 1))
        #expect(spring.value(at: spring.duration) == AnimationPoint(x: 1, y: 1))
    }
}

/// A user type made animatable.
struct AnimationPoint: Interpolatable, Equatable {
    var x: Double
    var y: Double
    static let zero = AnimationPoint(x: 0, y: 0)
    static func + (lhs: AnimationPoint, rhs: AnimationPoint) -> AnimationPoint {
        AnimationPoint(x: lhs.x + rhs.x, y: lhs.y + rhs.y)
    }
    static func - (lhs: AnimationPoint, rhs: AnimationPoint) -> AnimationPoint {
        AnimationPoint(x: lhs.x - rhs.x, y: lhs.y - rhs.y)
    }
    func scaled(by factor: Double) -> AnimationPoint { AnimationPoint(x: x * factor, y: y * factor) }
    var magnitudeSquared: Double { x * x + y * y }
    var isFinite: Bool { x.isFinite && y.isFinite }
}
