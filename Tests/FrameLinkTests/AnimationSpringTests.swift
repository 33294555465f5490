import FrameLink
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Springs: the closed forms against a fine numerical integration, settling, and the
/// duration/bounce parameterization.
@Suite("Animation: springs")
struct AnimationSpringTests {
    /// Integrates m·x″ = −k·(x − target) − c·x′ with fourth-order Runge-Kutta at `step` seconds and
    /// returns (position, velocity) at each multiple of `sample`.
    static func integrate(
        spring: Spring, from: Double, to target: Double, velocity: Double, until end: Double, sample: Double,
        step: Double = 1e-5
    ) -> [(time: Double, position: Double, velocity: Double)] {
        func acceleration(_ x: Double, _ v: Double) -> Double {
            (-spring.stiffness * (x - target) - spring.damping * v) / spring.mass
        }
        var x = from
        var v = velocity
        var results: [(Double, Double, Double)] = [(0, x, v)]
        let stepsPerSample = Int((sample / step).rounded())
        let samples = Int((end / sample).rounded())
        for index in 1...samples {
            for _ in 0..<stepsPerSample {
                let k1x = v
                let k1v = acceleration(x, v)
                let k2x = v + step / 2 * k1v
                let k2v = acceleration(x + step / 2 * k1x, v + step / 2 * k1v)
                let k3x = v + step / 2 * k2v
                let k3v = acceleration(x + step / 2 * k2x, v + step / 2 * k2v)
                let k4x = v + step * k3v
                let k4v = acceleration(x + step * k3x, v + step * k3v)
                x += step / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
                v += step / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            }
            results.append((Double(index) * sample, x, v))
        }
        return results
    }

    static let springs: [(String, Spring)] = [
        ("underdamped, bounce 0.3", .bouncy),
        ("lightly damped (ratio 0.1)", Spring(response: 0.4, dampingRatio: 0.1)),
        ("critically damped", Spring(mass: 1, stiffness: 100, damping: 20)),
        ("overdamped (ratio 2.5)", Spring(mass: 2, stiffness: 50, damping: 50)),
        ("barely overdamped (ratio 1.0001)", Spring(mass: 1, stiffness: 100, damping: 20.002)),
        ("heavy (mass 5)", Spring(mass: 5, stiffness: 300, damping: 12)),
    ]

    @Test("the closed form matches RK4 integration to 1e-6 in position and velocity", arguments: 0..<6)
    func closedFormMatchesIntegration(index: Int) throws {
        let (name, spring) = Self.springs[index]
        for (from, to, velocity) in [(0.0, 1.0, 0.0), (10.0, -4.0, 35.0), (2.0, 2.0, -8.0)] {
            let animation = SpringAnimation(
                from: from, to: to, initialVelocity: velocity, spring: spring, threshold: 1e-9)
            let samples = Self.integrate(
                spring: spring, from: from, to: to, velocity: velocity, until: 1.5, sample: 0.05)
            for sample in samples where sample.time < animation.duration {
                let position = animation.value(at: sample.time)
                let speed = animation.velocity(at: sample.time)
                #expect(abs(position - sample.position) < 1e-6, "\(name) from \(from): x(\(sample.time))")
                #expect(
                    abs(speed - sample.velocity) < 1e-6 * max(1, abs(sample.velocity)), "\(name): v(\(sample.time))")
            }
        }
    }

    @Test("vector springs move each component as a scalar spring would")
    func vectorSpring() throws {
        let spring = Spring(duration: 0.6, bounce: 0.2)
        let vector = SpringAnimation(
            from: SIMD2<Double>(0, 50), to: SIMD2(100, -20), initialVelocity: SIMD2(300, 0), spring: spring)
        let x = SpringAnimation(from: 0.0, to: 100, initialVelocity: 300, spring: spring)
        let y = SpringAnimation(from: 50.0, to: -20, initialVelocity: 0, spring: spring)
        for step in 0..<40 {
            let t = Double(step) * 0.025
            guard t < min(x.duration, y.duration) else { break }
            #expect(abs(vector.value(at: t).x - x.value(at: t)) < 1e-9)
            #expect(abs(vector.value(at: t).y - y.value(at: t)) < 1e-9)
        }
    }

    @Test("a spring settles: within the threshold from its duration on, exactly at the target after")
    func settles() throws {
        for (name, spring) in Self.springs {
            let animation = SpringAnimation(
                from: 0.0, to: 100, initialVelocity: 50, spring: spring, threshold: 0.01)
            #expect(animation.duration > 0 && animation.duration < 30, "\(name)")
            #expect(animation.value(at: animation.duration) == 100)
            #expect(animation.value(at: animation.duration + 5) == 100)
            #expect(animation.velocity(at: animation.duration) == 0)
            // The envelope bound: after the settling time the motion never leaves the threshold.
            let integration = Self.integrate(
                spring: spring, from: 0, to: 100, velocity: 50, until: animation.duration + 1, sample: 0.01, step: 1e-4)
            for sample in integration where sample.time >= animation.duration {
                #expect(abs(sample.position - 100) < 0.01, "\(name) at \(sample.time)")
            }
        }
        let still = SpringAnimation(from: 3.0, to: 3.0)
        #expect(still.duration == 0)
        #expect(still.value(at: 0.1) == 3)
    }

    @Test("duration and bounce map to stiffness and damping as SwiftUI's springs do")
    func durationAndBounce() throws {
        let spring = Spring(duration: 0.5, bounce: 0.3)
        #expect(spring.mass == 1)
        #expect(abs(spring.stiffness - (2 * .pi / 0.5) * (2 * .pi / 0.5)) < 1e-9)
        #expect(abs(spring.dampingRatio - 0.7) < 1e-12)
        #expect(abs(spring.response - 0.5) < 1e-12)
        #expect(abs(spring.bounce - 0.3) < 1e-12)
        #expect(abs(spring.duration - 0.5) < 1e-12)
        let overdamped = Spring(duration: 1, bounce: -0.5)
        #expect(abs(overdamped.dampingRatio - 2) < 1e-12)
        #expect(abs(overdamped.bounce + 0.5) < 1e-12)
        #expect(abs(Spring.smooth.dampingRatio - 1) < 1e-12)
        #expect(abs(Spring.snappy.bounce - 0.15) < 1e-12)
        #expect(abs(Spring.bouncy.bounce - 0.3) < 1e-12)
        let physical = Spring(mass: 2, stiffness: 200, damping: 8)
        #expect(abs(physical.naturalFrequency - 10) < 1e-12)
        #expect(abs(physical.dampingRatio - 0.2) < 1e-12)
    }

    @Test("a bouncier spring overshoots more; bounce 0 does not overshoot")
    func overshoot() throws {
        func peak(_ spring: Spring) throws -> Double {
            let animation = SpringAnimation(from: 0.0, to: 1, spring: spring)
            return stride(from: 0, through: animation.duration, by: 0.001).map(animation.value(at:)).max()!
        }
        #expect(try peak(.smooth) <= 1)
        #expect(try peak(Spring(duration: 0.5, bounce: -0.4)) <= 1)
        let snappy = try peak(.snappy)
        let bouncy = try peak(.bouncy)
        #expect(snappy > 1 && bouncy > snappy)
    }

    @Test("retargeting keeps the velocity and changes the start")
    func retargeted() throws {
        let spring = SpringAnimation(from: 0.0, to: 10, spring: .bouncy)
        let moved = spring.retargeted(from: 4, velocity: 25)
        #expect(moved.from == 4 && moved.initialVelocity == 25 && moved.to == 10)
        #expect(moved.value(at: 0) == 4)
        #expect(abs(moved.velocity(at: 1e-9) - 25) < 1e-3)
    }

    @Test("the underdamped closed form agrees with the libm formula to 1e-12, at angles up to 1e6 rad (seeded)")
    func underdampedMatchesLibm() throws {
        var random = AnimationRandom(seed: 23)
        for _ in 0..<200 {
            let omega = 1 + random.unit() * 400
            let zeta = random.unit() * 0.5e-3
            let spring = Spring(mass: 1, stiffness: omega * omega, damping: 2 * zeta * omega)
            let from = random.unit() * 200 - 100
            let velocity = random.unit() * 2000 - 1000
            let animation = SpringAnimation(
                from: from, to: 0, initialVelocity: velocity, spring: spring, threshold: 1e-300)
            let decay = zeta * omega
            let frequency = omega * (1 - zeta * zeta).squareRoot()
            let c2 = (velocity + decay * from) / frequency
            for _ in 0..<100 {
                let time = random.unit() * (random.unit() < 0.5 ? 1 : 2_500)
                let envelope = exp(-decay * time)
                let expected = envelope * (from * cos(frequency * time) + c2 * sin(frequency * time))
                let scale = envelope * (abs(from) + abs(c2))
                #expect(
                    abs(animation.value(at: time) - expected) <= 1e-12 * max(scale, 1e-300), "ω \(omega) at \(time)")
            }
        }
    }
}
