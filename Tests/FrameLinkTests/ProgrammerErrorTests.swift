import Foundation
import FrameLink
import Testing

/// A programmer error in an argument stops the program where the value enters the API, with a
/// message that says what was wrong: every check of the public API, each run in a child process.
@Suite("Programmer errors stop the program with a message")
struct ProgrammerErrorTests {
    /// A call with a bad argument and the words its message must contain.
    struct Case: Sendable, CustomTestStringConvertible {
        let call: String
        let message: String
        let body: @MainActor @Sendable () -> Void

        var testDescription: String { call }

        init(_ call: String, _ message: String, _ body: @escaping @MainActor @Sendable () -> Void) {
            self.call = call
            self.message = message
            self.body = body
        }
    }

    @Test(
        "the call stops the program, and standard error says why",
        arguments: zip(Self.cases.indices, Self.cases))
    func stops(index: Int, entry: Case) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [index] in
            await MainActor.run { Self.cases[index].body() }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("FrameLink: "), "\(entry.call): \(output)")
        #expect(output.contains(entry.message), "\(entry.call): \(output)")
    }

    @Test("valid calls next to the bad ones do not stop the program")
    @MainActor
    func validNeighbours() {
        // Each value just inside a limit the catalogue below crosses is made, and keeps what it was given.
        let keyframes = Keyframes(values: [0.0, 1, 2], keyTimes: [0, 0.5, 0.5], duration: 1)
        #expect(keyframes.keyTimes == [0, 0.5, 0.5])
        #expect(abs(Spring(duration: 0.5, bounce: -0.99).bounce + 0.99) < 1e-9)
        let timing = AnimationTiming(delay: 0, speed: 0.001, repeatCount: 0.5)
        #expect(timing.speed == 0.001 && timing.repeatCount == 0.5)
        #expect(FrameTimer(timeInterval: 1e-9, repeats: true) { _ in }.interval == .nanoseconds(1))
        #expect(QueueTimer(interval: .nanoseconds(1), leeway: .zero) { _ in }.interval == .nanoseconds(1))
        let clock = GameClock(fixedStep: .nanoseconds(1), maximumStepsPerFrame: 1)
        #expect(clock.fixedStep == .nanoseconds(1) && clock.maximumStepsPerFrame == 1)
        let lab = DisplayLab(refresh: .fixed(.hz60, phase: .nanoseconds(16_666_666)), buffers: 8)
        #expect(lab.buffers == 8)
        lab.latchDeadline = .nanoseconds(999_999_999)
        lab.gpuTime = .nanoseconds(999_999_999)
        lab.hiddenPresent = .waitsForFrameCallbacks(timeout: .seconds(10))
        lab.changeRefresh(to: .fixed(.hz75), blankingFor: .seconds(2))
        #expect(lab.latchDeadline == .nanoseconds(999_999_999) && lab.gpuTime == .nanoseconds(999_999_999))
        let lognormal = PresentJitter.lognormal(median: .milliseconds(500), percentile99: .milliseconds(500))
        #expect(lognormal == .lognormal(median: .milliseconds(500), percentile99: .milliseconds(500)))
        let sampled = PresentJitter.sampled(Array(repeating: .seconds(10), count: 100_000))
        #expect(sampled.description == "sampled from 100000 delays, mean 10000.0 ms")
        let values = AnimatedValues(repeating: 0.0, count: 0)
        #expect(values.count == 0)
    }

    // The catalogue: each check of the public API once (the value classes each check covers are
    // tested without a child process in `ValidatingTests`).
    nonisolated static let cases: [Case] = timers + rates + clocks + lab + animation

    nonisolated static let timers: [Case] = [
        Case("FrameTimer(timeInterval: .nan)", "timer interval of nan s: must be finite") {
            _ = FrameTimer(timeInterval: .nan, repeats: true) { _ in }
        },
        Case("FrameTimer(timeInterval: 0)", "timer interval of 0.0 s: must be above zero") {
            _ = FrameTimer(timeInterval: 0, repeats: true) { _ in }
        },
        Case("FrameTimer(timeInterval: 1e-12)", "below one nanosecond") {
            _ = FrameTimer(timeInterval: 1e-12, repeats: true) { _ in }
        },
        Case("FrameTimer(timeInterval: 1e300)", "too long") {
            _ = FrameTimer(timeInterval: 1e300, repeats: true) { _ in }
        },
        Case("FrameTimer(interval: -1 s)", "timer interval of -1.0 seconds: must be above zero") {
            _ = FrameTimer(interval: .seconds(-1), repeats: true) { _ in }
        },
        Case("FrameTimer(target:interval: .zero)", "timer interval") {
            _ = FrameTimer(target: Owner(), interval: .zero) { _, _ in }
        },
        Case("FrameTimer(repeatCount: 0)", "repeatCount 0: must be at least 1") {
            _ = FrameTimer(interval: .seconds(1), repeats: true, repeatCount: 0) { _ in }
        },
        Case("FrameTimer.scheduledTimer without a loop", "scheduledTimer needs a FrameLoop") {
            _ = FrameTimer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in }
        },
        Case("FrameTimer.tolerance = -1 ms", "FrameTimer.tolerance -0.001 seconds: must be zero or more") {
            FrameTimer(interval: .seconds(1), repeats: true) { _ in }.tolerance = .milliseconds(-1)
        },
        Case("QueueTimer(interval: .zero)", "queue timer interval of 0.0 seconds: must be above zero") {
            _ = QueueTimer(interval: .zero) { _ in }
        },
        Case("QueueTimer(leeway: -1 ms)", "leeway of -0.001 seconds: must be zero or more") {
            _ = QueueTimer(interval: .seconds(1), leeway: .milliseconds(-1)) { _ in }
        },
        Case("QueueTimer(repeatCount: 0)", "repeatCount 0") {
            _ = QueueTimer(interval: .seconds(1), repeatCount: 0) { _ in }
        },
        Case("QueueTimer.countdown(from: 0)", "countdown from 0: must be at least 1") {
            _ = QueueTimer.countdown(from: 0, interval: .seconds(1), tick: { _ in }, completion: {})
        },
        Case("QueueTimer.setInterval(.zero)", "queue timer interval") {
            QueueTimer(interval: .seconds(1)) { _ in }.setInterval(.zero)
        },
    ]

    nonisolated static let rates: [Case] = [
        Case("FrameRate(numerator: 0)", "0/1 frames per second: both parts must be positive") {
            _ = FrameRate(numerator: 0)
        },
        Case("FrameRate(numerator: 60, denominator: -1)", "both parts must be positive") {
            _ = FrameRate(numerator: 60, denominator: -1)
        },
        Case("FrameRate(period: .zero)", "a frame period of 0.0 seconds: must be positive") {
            _ = FrameRate(period: .zero)
        },
        Case("FrameRate(framesPerSecond: .nan)", "nan frames per second: must be finite") {
            _ = FrameRate(framesPerSecond: .nan)
        },
        Case("FrameRate literal 0", "use a positive literal") {
            let rate: FrameRate = 0
            _ = rate
        },
        Case("ManualFrameSource(period: -1 s)", "a frame period of -1.0 seconds") {
            _ = ManualFrameSource(period: .seconds(-1))
        },
    ]

    nonisolated static let clocks: [Case] = [
        Case("GameClock(fixedStep: .zero)", "fixed step of 0.0 seconds: must be above zero") {
            _ = GameClock(fixedStep: .zero)
        },
        Case("GameClock(maximumDelta: .zero)", "maximum delta") {
            _ = GameClock(maximumDelta: .zero)
        },
        Case("GameClock(maximumStepsPerFrame: 0)", "maximumStepsPerFrame 0: must be at least 1") {
            _ = GameClock(maximumStepsPerFrame: 0)
        },
        Case("GameClock.timeScale = -0.5", "time scale -0.5: must be zero to 1000.0") {
            GameClock().timeScale = -0.5
        },
        Case("Animator.timeScale = .nan", "Animator.timeScale nan") {
            Animator(loop: FrameLoop(source: ManualFrameSource())).timeScale = .nan
        },
        Case("a timer with a loop fireDate added to a GameClock", "set gameFireDate (clock.now + delay) instead") {
            let timer = FrameTimer(interval: .seconds(8), repeats: false) { _ in }
            timer.fireDate = FrameInstant(nanoseconds: 0) + .seconds(8)
            timer.add(to: GameClock())
        },
        Case("a timer with a gameFireDate added to a loop", "add it to a GameClock with add(to:)") {
            let timer = FrameTimer(fireAt: GameInstant.zero + .seconds(8), interval: .seconds(8), repeats: false) { _ in
            }
            timer.add(to: FrameLoop(source: ManualFrameSource()), forMode: .default)
        },
        Case("fireDate of a timer on a GameClock", "the timer runs on a GameClock; use gameFireDate") {
            let timer = FrameTimer(interval: .seconds(8), repeats: false) { _ in }
            let clock = GameClock()
            timer.add(to: clock)
            _ = withExtendedLifetime(clock) { timer.fireDate }
        },
        Case("gameFireDate of a timer on a loop", "the timer runs on a FrameLoop; use fireDate") {
            let timer = FrameTimer(interval: .seconds(8), repeats: false) { _ in }
            let loop = FrameLoop(source: ManualFrameSource())
            timer.add(to: loop, forMode: .default)
            withExtendedLifetime(loop) { timer.gameFireDate = .zero }
        },
        Case("Animator(loop:).time(at: GameInstant)", "this animator runs on loop time; pass a FrameInstant") {
            _ = Animator(loop: FrameLoop(source: ManualFrameSource())).time(at: GameInstant.zero)
        },
        Case("Animator(loop:gameClock:).time(at: FrameInstant)", "pass a GameInstant") {
            _ = Animator(loop: FrameLoop(source: ManualFrameSource()), gameClock: GameClock()).time(
                at: FrameInstant.zero)
        },
        Case("GameClock.timeScale = 1e11", "time scale 100000000000.0: must be zero to 1000.0") {
            GameClock().timeScale = 1e11
        },
        Case("fireDate read after gameFireDate was set", "the timer's date was set as game time") {
            let timer = FrameTimer(fireAt: GameInstant.zero + .seconds(1), interval: .seconds(1), repeats: false) { _ in
            }
            _ = timer.fireDate
        },
        Case("Interpolated.value(at: .nan)", "pass a GameFrame's alpha") {
            _ = Interpolated(1.0).value(at: .nan)
        },
        Case("GameFrame.stepTimes[1] of a one-step frame", "the frame has 1 steps, at indices 0..<1") {
            let clock = GameClock(fixedStep: .milliseconds(10))
            _ = clock.update(at: .zero)
            _ = clock.update(at: FrameInstant(nanoseconds: 10_000_000)).stepTimes[1]
        },
    ]

    // (ManualFrameSource never traps for time asked to go backwards: it does nothing, see
    // ManualClockDirectionTests.)

    nonisolated static let lab: [Case] = [
        Case("DisplayLab(buffers: 0)", "DisplayLab: 0 buffers; a swap chain has 2 (double buffering) to 8") {
            _ = DisplayLab(refresh: .fixed(.hz60), buffers: 0)
        },
        Case("PresentJitter.uniform(upTo: -1 µs)", "PresentJitter.uniform(upTo:)") {
            _ = PresentJitter.uniform(upTo: .microseconds(-1))
        },
        Case("PresentJitter.exponential(mean: 1 s)", "is longer than") {
            _ = PresentJitter.exponential(mean: .seconds(1))
        },
        Case("DisplayLab phase of 17 ms at 60 Hz", "must be at least zero and under one period") {
            _ = DisplayLab(refresh: .fixed(.hz60, phase: .milliseconds(17)))
        },
        Case("DisplayLab variable 120…60 Hz", "minimum 120 Hz is above maximum 60 Hz") {
            _ = DisplayLab(refresh: .variable(minimum: .hz120, maximum: .hz60))
        },
        Case("DisplayLab.changeRefresh(to: 120…60 Hz)", "is above maximum") {
            DisplayLab(refresh: .fixed(.hz60)).changeRefresh(to: .variable(minimum: .hz120, maximum: .hz60))
        },
        Case("FrameRateRange(minimum: 60, maximum: 30)", "the minimum is above the maximum") {
            _ = FrameRateRange(minimum: 60, maximum: 30)
        },
        Case("FrameRateRange(minimum: 30, maximum: 60, preferred: 90)", "the preferred 90 Hz lies outside it") {
            _ = FrameRateRange(minimum: 30, maximum: 60, preferred: 90)
        },
        Case("FrameRate.divided(by: 0)", "use a positive divisor") {
            _ = FrameRate.hz60.divided(by: 0)
        },
        Case("DisplayLab.work(for: -1 ms)", "work takes time") {
            DisplayLab(refresh: .fixed(.hz60)).work(for: .milliseconds(-1))
        },
        Case("DisplayLab.presentCost = 2 s", "DisplayLab.presentCost") {
            DisplayLab(refresh: .fixed(.hz60)).presentCost = .seconds(2)
        },
        Case("PresentJitter.lognormal(median: .zero)", "a wake-up is never instant") {
            _ = PresentJitter.lognormal(median: .zero, percentile99: .milliseconds(1))
        },
        Case("PresentJitter.lognormal(percentile99: below the median)", "is below the median") {
            _ = PresentJitter.lognormal(median: .milliseconds(1), percentile99: .microseconds(500))
        },
        Case(
            "PresentJitter.lognormal(percentile99: 1 s)", "lognormal(median:percentile99:): 1.0 seconds is longer than"
        ) {
            _ = PresentJitter.lognormal(median: .milliseconds(1), percentile99: .seconds(1))
        },
        Case("PresentJitter.sampled([])", "PresentJitter.sampled: no delays") { _ = PresentJitter.sampled([]) },
        Case("PresentJitter.sampled(100,001 delays)", "100001 delays; pass at most 100000") {
            _ = PresentJitter.sampled(Array(repeating: .zero, count: 100_001))
        },
        Case(
            "PresentJitter.sampled([-1 µs])",
            "PresentJitter.sampled: -1e-06 seconds is negative; a present cannot return early"
        ) {
            _ = PresentJitter.sampled([.zero, .microseconds(-1)])
        },
        Case("PresentJitter.sampled([11 s])", "PresentJitter.sampled: 11.0 seconds is longer than") {
            _ = PresentJitter.sampled([.seconds(11)])
        },
        Case(
            "DisplayLab.latchDeadline = 1 s",
            "DisplayLab.latchDeadline 1.0 seconds: must be from zero to under a second"
        ) {
            DisplayLab(refresh: .fixed(.hz60)).latchDeadline = .seconds(1)
        },
        Case("DisplayLab.gpuTime = -1 µs", "DisplayLab.gpuTime") {
            DisplayLab(refresh: .fixed(.hz60)).gpuTime = .microseconds(-1)
        },
        Case("DisplayLab.changeRefresh(blankingFor: 3 s)", "the gap must be from zero to 2.0 seconds") {
            DisplayLab(refresh: .fixed(.hz60)).changeRefresh(to: .fixed(.hz75), blankingFor: .seconds(3))
        },
        Case("DisplayLab.hiddenPresent timeout .zero", "the timeout must be above zero and at most 10.0 seconds") {
            DisplayLab(refresh: .fixed(.hz60)).hiddenPresent = .waitsForFrameCallbacks(timeout: .zero)
        },
        Case("DisplayLab.hiddenPresent timeout 11 s", "waitsForFrameCallbacks(timeout: 11.0 seconds)") {
            DisplayLab(refresh: .fixed(.hz60)).hiddenPresent = .waitsForFrameCallbacks(timeout: .seconds(11))
        },
    ]

    nonisolated static let animation: [Case] = [
        Case("Tween(duration: -1)", "tween duration of -1.0 s") { _ = Tween(from: 0.0, to: 1, duration: -1) },
        Case("Tween(delay: .nan)", "tween delay of nan s") { _ = Tween(from: 0.0, to: 1, duration: 1, delay: .nan) },
        Case("Tween(from: .infinity)", "both values must be finite") {
            _ = Tween(from: .infinity, to: 1.0, duration: 1)
        },
        Case("Tween of a SIMD2 with NaN", "both values must be finite") {
            _ = Tween(from: SIMD2(0, Double.nan), to: SIMD2(1, 1), duration: 1)
        },
        Case("Keyframes([])", "keyframes need at least one value") { _ = Keyframes(values: [Double](), duration: 1) },
        Case("Keyframes(duration: .nan)", "keyframes duration of nan s") {
            _ = Keyframes(values: [0.0, 1], duration: .nan)
        },
        Case("Keyframes with a NaN value", "keyframe value 1 is nan") {
            _ = Keyframes(values: [0, .nan, 1], duration: 1)
        },
        Case("Keyframes key times out of order", "key times must ascend") {
            _ = Keyframes(values: [0.0, 1, 2, 3], keyTimes: [0, 0.6, 0.4, 1], duration: 1)
        },
        Case("Keyframes key time 1.2", "key time 1 is 1.2: key times are fractions in 0...1") {
            _ = Keyframes(values: [0.0, 1], keyTimes: [0, 1.2], duration: 1)
        },
        Case("Keyframes key time NaN", "key time 1 is nan") {
            _ = Keyframes(values: [0.0, 1], keyTimes: [0, .nan], duration: 1)
        },
        Case("Keyframes with 2 key times for 3 values", "2 key times for 3 values") {
            _ = Keyframes(values: [0.0, 1, 2], keyTimes: [0, 1], duration: 1)
        },
        Case("Keyframes with 3 curves for 2 segments", "3 curves for 2 segments") {
            _ = Keyframes(values: [0.0, 1, 2], curves: [.linear, .linear, .linear], duration: 1)
        },
        Case("Spring(mass: 0)", "spring mass 0.0") { _ = Spring(mass: 0, stiffness: 100, damping: 10) },
        Case("Spring(stiffness: -1)", "spring stiffness -1.0") { _ = Spring(mass: 1, stiffness: -1, damping: 10) },
        Case("Spring(damping: .nan)", "spring damping nan") { _ = Spring(mass: 1, stiffness: 100, damping: .nan) },
        Case("Spring(duration: 0)", "spring duration of 0.0 s") { _ = Spring(duration: 0) },
        Case("Spring(bounce: 1)", "spring bounce 1.0: must be between -1 and 1") { _ = Spring(duration: 1, bounce: 1) },
        Case("Spring(response: .infinity)", "spring response of inf s") {
            _ = Spring(response: .infinity, dampingRatio: 1)
        },
        Case("Spring(dampingRatio: 0)", "spring damping ratio 0.0") { _ = Spring(response: 0.5, dampingRatio: 0) },
        Case("SpringAnimation(to: .nan)", "values must be finite") { _ = SpringAnimation(from: 0, to: Double.nan) },
        Case("SpringAnimation(threshold: 0)", "spring threshold 0.0") {
            _ = SpringAnimation(from: 0.0, to: 1, threshold: 0)
        },
        Case("DecayAnimation(from: .nan)", "values must be finite") {
            _ = DecayAnimation(from: Double.nan, initialVelocity: 1)
        },
        Case("DecayAnimation(threshold: -1)", "decay threshold -1.0") {
            _ = DecayAnimation(from: 0.0, initialVelocity: 1, threshold: -1)
        },
        Case("DecayAnimation(bounds: 0...inf)", "decay bounds") {
            _ = DecayAnimation(from: 0.0, initialVelocity: 1, bounds: 0...Double.infinity)
        },
        Case("DecelerationRate(1)", "deceleration rate 1.0: must be between 0 and 1") { _ = DecelerationRate(1) },
        Case("TimingCurve(controlPoints: NaN)", "must be finite") { _ = TimingCurve(controlPoints: .nan, 0, 1, 1) },
        Case("TimingCurve(controlPoints: x1 1.5)", "x1 and x2 must be within 0...1") {
            _ = TimingCurve(controlPoints: 1.5, 0, 0.5, 1)
        },
        Case("TimingCurve.steps(0)", "steps(0): a step curve needs at least 1 step") { _ = TimingCurve.steps(0) },
        Case("AnimationTiming(delay: -1)", "animation delay of -1.0 s") { _ = AnimationTiming(delay: -1) },
        Case("AnimationTiming(beginTime: .infinity)", "animation beginTime of inf s: must be finite") {
            _ = AnimationTiming(beginTime: .infinity)
        },
        Case("AnimationTiming(speed: 0)", "animation speed 0.0") { _ = AnimationTiming(speed: 0) },
        Case("AnimationTiming(repeatCount: .nan)", "animation repeatCount nan") {
            _ = AnimationTiming(repeatCount: .nan)
        },
        Case("AnimationTrack.wait(-1)", "wait of -1.0 s") { _ = AnimationTrack.wait(-1) },
        Case("AnimationHandle.seek(to: -1)", "seek(to: -1.0)") {
            let animator = Animator(loop: FrameLoop(source: ManualFrameSource()))
            animator.add(Tween(from: 0.0, to: 1, duration: 1)) { _ in }.seek(to: -1)
        },
        Case("Animator.add(into: at: 2) of 2 values", "index 2 is outside the 2 animated values") {
            let animator = Animator(loop: FrameLoop(source: ManualFrameSource()))
            let values = AnimatedValues(repeating: 0.0, count: 2)
            animator.add(Tween(from: 0.0, to: 1, duration: 1), into: values, at: 2)
        },
        Case("AnimatedValues[-1]", "AnimatedValues index -1 is outside 0..<2") {
            _ = AnimatedValues(repeating: 0.0, count: 2)[-1]
        },
        Case("AnimatedValues(count: -1)", "count must be zero or more") {
            _ = AnimatedValues(repeating: 0.0, count: -1)
        },
    ]
}
