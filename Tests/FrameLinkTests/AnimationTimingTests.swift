import FrameLink
import Testing

/// Timing math (delay, speed, repeat, autoreverse, fill) as seeded property-based tests against a
/// straightforward reference that walks the cycles one by one.
@Suite("Animation: timing")
struct AnimationTimingTests {
    /// A random timing and duration.
    static func randomCase(_ random: inout AnimationRandom) throws -> (AnimationTiming, Double) {
        let repeats: [Double] = [1, 2, 3, 0.5, 1.5, 2.25, .infinity]
        let fills: [AnimationTiming.Fill] = [.forwards, .removed, .backwards, .both]
        let timing = AnimationTiming(
            delay: random.unit() < 0.3 ? 0 : random.unit() * 2,
            speed: [1, 0.5, 2, 0.25 + random.unit() * 3][Int(random.next() % 4)],
            repeatCount: repeats[Int(random.next() % UInt64(repeats.count))],
            autoreverses: random.next() % 2 == 0,
            fill: fills[Int(random.next() % 4)])
        let duration = [1, 0.3, 2.5, 0.05 + random.unit() * 3][Int(random.next() % 4)]
        return (timing, duration)
    }

    /// Walks forward and backward passes until `elapsed` is reached: no modulo, no floor.
    static func reference(
        _ timing: AnimationTiming, duration: Double, elapsed: Double
    ) -> (time: Double, phase: AnimationTiming.Phase, reversed: Bool) {
        var remaining = (elapsed - timing.delay) * timing.speed
        if remaining < 0 { return (0, .waiting, false) }
        let passesPerCycle = timing.autoreverses ? 2.0 : 1.0
        let totalPasses = passesPerCycle * timing.repeatCount
        var pass = 0.0
        while true {
            let reversed = timing.autoreverses && Int(pass) % 2 == 1
            let passesLeft = totalPasses - pass
            let passLength = min(1, passesLeft) * duration
            if remaining < passLength {
                return (reversed ? duration - remaining : remaining, .active, reversed)
            }
            if passesLeft <= 1 {
                return (reversed ? duration - passLength : passLength, .finished, reversed)
            }
            remaining -= duration
            pass += 1
        }
    }

    @Test("local time matches the reference walk for 20,000 random timings and times (seeded)")
    func matchesReference() throws {
        var random = AnimationRandom(seed: 7)
        for _ in 0..<2_000 {
            let (timing, duration) = try Self.randomCase(&random)
            let horizon = min(timing.totalDuration(forDuration: duration), 40) + 1
            for _ in 0..<10 {
                let elapsed = random.unit() * horizon - 0.5
                let local = timing.localTime(at: elapsed, duration: duration)
                let expected = Self.reference(timing, duration: duration, elapsed: elapsed)
                #expect(local.phase == expected.phase, "\(timing) d=\(duration) at \(elapsed)")
                #expect(abs(local.time - expected.time) < 1e-9, "\(timing) d=\(duration) at \(elapsed)")
                if local.phase == .active { #expect(local.isReversed == expected.reversed) }
                #expect(local.time >= 0 && local.time <= duration)
            }
        }
    }

    @Test("delay only shifts time, and speed only scales it (seeded)")
    func delayAndSpeed() throws {
        var random = AnimationRandom(seed: 11)
        for _ in 0..<2_000 {
            let (timing, duration) = try Self.randomCase(&random)
            let plain = AnimationTiming(
                delay: 0, speed: 1, repeatCount: timing.repeatCount, autoreverses: timing.autoreverses,
                fill: timing.fill)
            let active = random.unit() * 10
            let shifted = timing.localTime(at: timing.delay + active / timing.speed, duration: duration)
            let reference = plain.localTime(at: active, duration: duration)
            #expect(shifted.phase == reference.phase)
            #expect(abs(shifted.time - reference.time) < 1e-9)
        }
    }

    @Test("an autoreversing cycle is symmetric: time t and time 2d − t show the same point (seeded)")
    func autoreverseSymmetry() throws {
        var random = AnimationRandom(seed: 13)
        for _ in 0..<2_000 {
            let duration = 0.1 + random.unit() * 3
            let timing = AnimationTiming(repeatCount: 3, autoreverses: true)
            let t = random.unit() * duration
            let cycle = Double(random.next() % 3) * 2 * duration
            let forward = timing.localTime(at: cycle + t, duration: duration)
            let backward = timing.localTime(at: cycle + 2 * duration - t, duration: duration)
            #expect(abs(forward.time - backward.time) < 1e-9)
            #expect(!forward.isReversed)
            #expect(backward.isReversed || backward.time == duration)
        }
    }

    @Test("whole repeats end at the end, or at the start when autoreversing; fractions end midway")
    func endPositions() throws {
        let d = 2.0
        #expect(AnimationTiming(repeatCount: 3).localTime(at: 100, duration: d).time == d)
        #expect(AnimationTiming(repeatCount: 3, autoreverses: true).localTime(at: 100, duration: d).time == 0)
        #expect(AnimationTiming(repeatCount: 1.5).localTime(at: 100, duration: d).time == 1)
        #expect(AnimationTiming(repeatCount: 1.25, autoreverses: true).localTime(at: 100, duration: d).time == 1)
        #expect(AnimationTiming(repeatCount: .infinity).localTime(at: 1e9 + 0.5, duration: d).phase == .active)
        #expect(AnimationTiming(repeatCount: .infinity).totalDuration(forDuration: d) == .infinity)
        #expect(
            AnimationTiming(delay: 1, speed: 2, repeatCount: 3, autoreverses: true).totalDuration(forDuration: d)
                == 7)
    }

    @Test("fill decides what shows during the delay and after the end (seeded)")
    func fill() throws {
        let tween = Tween(from: 10.0, to: 20, duration: 1, curve: .linear)
        var random = AnimationRandom(seed: 17)
        for _ in 0..<500 {
            let delay = 0.5 + random.unit()
            let waiting = random.unit() * delay * 0.99
            let after = delay + 1 + random.unit() * 5
            for (fill, before, end) in [
                (AnimationTiming.Fill.forwards, nil, 20.0), (.removed, nil, 10), (.backwards, 10, 10), (.both, 10, 20),
            ] as [(AnimationTiming.Fill, Double?, Double)] {
                let timing = AnimationTiming(delay: delay, fill: fill)
                #expect(timing.value(of: tween, at: waiting) == before, "\(fill) while waiting")
                #expect(timing.value(of: tween, at: after) == end, "\(fill) after the end")
            }
        }
    }

    @Test("an animation's own delay adds to the timing's delay, once")
    func animationDelay() throws {
        let tween = Tween(from: 0.0, to: 1, duration: 1, curve: .linear, delay: 0.5)
        let timing = AnimationTiming(delay: 0.25, repeatCount: 2)
        #expect(timing.value(of: tween, at: 0.7) == nil)
        #expect(timing.value(of: tween, at: 1.25) == 0.5)
        #expect(timing.value(of: tween, at: 2.25) == 0.5)  // the second repeat does not wait again
    }

    @Test("zero-length animations finish at once")
    func zeroDuration() throws {
        let local = AnimationTiming.default.localTime(at: 0, duration: 0)
        #expect(local.phase == .finished && local.time == 0)
        let jump = Tween(from: 1.0, to: 5, duration: 0)
        #expect(AnimationTiming.default.value(of: jump, at: 0) == 5)
    }
}
