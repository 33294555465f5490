import FrameLink
import Testing

/// Values a game loads from a file (a level, a settings panel) go through the validating
/// initializers: they throw the error the trapping ones print, and make the same value when good.
@Suite("Validating initializers throw what the traps print")
struct ValidatingInitializerTests {
    /// A value made from data that cannot be right, and the start of the message its error gives.
    struct Case: Sendable, CustomTestStringConvertible {
        let call: String
        let message: String
        let make: @Sendable () throws -> Void
        var testDescription: String { call }

        init(_ call: String, _ message: String, _ make: @escaping @Sendable () throws -> Void) {
            self.call = call
            self.message = message
            self.make = make
        }
    }

    static let cases: [Case] = [
        Case("control points with NaN", "invalid value: cubic Bézier control points") {
            _ = try TimingCurve(validatingControlPoints: 0.2, .nan, 0.8, 1)
        },
        Case("control point x outside 0...1", "x1 and x2 must be within 0...1") {
            _ = try TimingCurve(validatingControlPoints: 1.5, 0, 0.8, 1)
        },
        Case("steps(0)", "invalid count: steps(0)") { _ = try TimingCurve.steps(validatingCount: 0) },
        Case("spring mass 0", "invalid value: spring mass 0.0") {
            _ = try Spring(validatingMass: 0, stiffness: 100, damping: 10)
        },
        Case("spring damping NaN", "spring damping nan") {
            _ = try Spring(validatingMass: 1, stiffness: 100, damping: .nan)
        },
        Case("spring duration −1", "invalid interval: spring duration of -1.0 s") {
            _ = try Spring(validatingDuration: -1, bounce: 0)
        },
        Case("spring bounce 1", "spring bounce 1.0") { _ = try Spring(validatingDuration: 0.5, bounce: 1) },
        Case("spring response ∞", "spring response of inf s") {
            _ = try Spring(validatingResponse: .infinity, dampingRatio: 1)
        },
        Case("spring damping ratio 0", "spring damping ratio 0.0") {
            _ = try Spring(validatingResponse: 0.5, dampingRatio: 0)
        },
        Case("tween duration NaN", "invalid interval: tween duration of nan s") {
            _ = try Tween(validatingFrom: 0.0, to: 1, duration: .nan)
        },
        Case("tween delay −1", "tween delay of -1.0 s") {
            _ = try Tween(validatingFrom: 0.0, to: 1, duration: 1, delay: -1)
        },
        Case("tween to ∞", "invalid value: tween from 0.0 to inf") {
            _ = try Tween(validatingFrom: 0.0, to: .infinity, duration: 1)
        },
        Case("keyframes without values", "invalid count: keyframes need at least one value") {
            _ = try Keyframes<Double>(validatingValues: [], duration: 1)
        },
        Case("keyframes with descending key times", "key times must ascend") {
            _ = try Keyframes(validatingValues: [0.0, 1, 2], keyTimes: [0, 0.6, 0.5], duration: 1)
        },
        Case("keyframes with a NaN value", "keyframe value 1 is nan") {
            _ = try Keyframes(validatingValues: [0.0, .nan], duration: 1)
        },
        Case("keyframes with two curves for three segments", "2 curves for 3 segments") {
            _ = try Keyframes(validatingValues: [0.0, 1, 2, 3], curves: [.linear, .easeIn], duration: 1)
        },
        Case("spring animation threshold 0", "spring threshold 0.0") {
            _ = try SpringAnimation(validatingFrom: 0.0, to: 1, threshold: 0)
        },
        Case("spring animation from NaN", "spring from nan to 1.0") {
            _ = try SpringAnimation(validatingFrom: Double.nan, to: 1)
        },
        Case("decay velocity ∞", "decay from 0.0 at inf") {
            _ = try DecayAnimation(validatingFrom: 0.0, initialVelocity: .infinity)
        },
        Case("decay bounds to ∞", "decay bounds") {
            _ = try DecayAnimation(validatingFrom: 0.0, initialVelocity: 10, bounds: 0...Double.infinity)
        },
        Case("deceleration rate 1", "deceleration rate 1.0") { _ = try DecelerationRate(validating: 1) },
        Case("timing speed 0", "invalid value: animation speed 0.0") {
            _ = try AnimationTiming(validatingBeginTime: nil, speed: 0)
        },
        Case("timing begin time NaN", "animation beginTime of nan s") {
            _ = try AnimationTiming(validatingBeginTime: .nan)
        },
        Case("timing repeat count NaN", "animation repeatCount nan") {
            _ = try AnimationTiming(validatingBeginTime: nil, repeatCount: .nan)
        },
        Case("timer interval 0", "invalid interval: timer interval of 0") {
            try FrameTimer.validate(interval: .zero)
        },
        Case("timer repeat count 0", "invalid count: repeatCount 0") {
            try FrameTimer.validate(interval: .seconds(1), repeatCount: 0)
        },
        Case("queue timer leeway −1 ms", "invalid interval: leeway of -0.001 seconds") {
            try QueueTimer.validate(interval: .seconds(1), leeway: .milliseconds(-1))
        },
        Case("queue timer interval −1 s", "queue timer interval of -1.0 seconds") {
            try QueueTimer.validate(interval: .seconds(-1))
        },
    ]

    @Test("each throws, with the message the trap prints", arguments: cases)
    func throwsWhatTheTrapPrints(_ entry: Case) {
        do {
            try entry.make()
            Issue.record("\(entry.call) did not throw")
        } catch let error as FrameLinkError {
            #expect(error.description.contains(entry.message), "\(entry.call): \(error)")
        } catch {
            Issue.record("\(entry.call) threw \(error), not a FrameLinkError")
        }
    }

    @Test("a game clock from a settings file: bad steps and caps throw, good ones make the clock")
    @MainActor
    func gameClock() throws {
        #expect(throws: FrameLinkError.invalidInterval("fixed step of 0.0 seconds: must be above zero")) {
            try GameClock(validatingFixedStep: .zero)
        }
        #expect(throws: FrameLinkError.invalidCount("maximumStepsPerFrame 0: must be at least 1")) {
            try GameClock(validatingFixedStep: .milliseconds(10), maximumStepsPerFrame: 0)
        }
        let clock = try GameClock(validatingFixedStep: .milliseconds(10), maximumDelta: .milliseconds(100))
        #expect(clock.fixedStep == .milliseconds(10) && clock.maximumStepsPerFrame == 10)
        try FrameTimer.validate(interval: .milliseconds(5), repeatCount: 3)
        try QueueTimer.validate(interval: .nanoseconds(1))
    }

    @Test("good data makes the value the trapping initializer makes")
    func goodDataMakesTheSameValue() throws {
        #expect(
            try TimingCurve(validatingControlPoints: 0.34, 1.56, 0.64, 1)
                == TimingCurve(controlPoints: 0.34, 1.56, 0.64, 1))
        #expect(try TimingCurve.steps(validatingCount: 4, position: .start) == .steps(4, position: .start))
        #expect(try Spring(validatingMass: 2, stiffness: 50, damping: 3) == Spring(mass: 2, stiffness: 50, damping: 3))
        #expect(try Spring(validatingDuration: 0.4, bounce: 0.2) == Spring(duration: 0.4, bounce: 0.2))
        #expect(try Spring(validatingResponse: 0.3, dampingRatio: 0.8) == Spring(response: 0.3, dampingRatio: 0.8))
        let tween = try Tween(validatingFrom: 1.0, to: 5, duration: 2, curve: .easeOut, delay: 0.5)
        #expect(tween.value(at: 1) == Tween(from: 1.0, to: 5, duration: 2, curve: .easeOut, delay: 0.5).value(at: 1))
        #expect(tween.delay == 0.5)
        let keyframes = try Keyframes(validatingValues: [0.0, 1, 3], keyTimes: [0, 0.25, 1], duration: 2)
        #expect(keyframes.keyTimes == [0, 0.25, 1] && keyframes.duration == 2)
        let spring = try SpringAnimation(validatingFrom: 0.0, to: 10, initialVelocity: 3, threshold: 0.01)
        #expect(
            spring.value(at: 0.2)
                == SpringAnimation(from: 0.0, to: 10, initialVelocity: 3, threshold: 0.01).value(at: 0.2))
        let decay = try DecayAnimation(validatingFrom: 0.0, initialVelocity: 500, bounds: -10...100)
        #expect(
            decay.value(at: 0.3) == DecayAnimation(from: 0.0, initialVelocity: 500, bounds: -10...100).value(at: 0.3))
        #expect(try DecelerationRate(validating: 0.99) == .fast)
        let timing = try AnimationTiming(validatingBeginTime: 4, delay: 1, speed: 2, repeatCount: 3, autoreverses: true)
        #expect(timing == AnimationTiming(beginTime: 4, delay: 1, speed: 2, repeatCount: 3, autoreverses: true))
    }
}
