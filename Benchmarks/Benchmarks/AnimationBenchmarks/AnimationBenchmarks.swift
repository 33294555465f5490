import Benchmark
import FrameLink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The animation engine's frame path: 100,000 animations advanced by one frame of a 60 Hz loop on
// virtual time, against hand-written loops that compute the same values for 100,000 numbers.
// Compare ratios within one run: the machine is shared and noisy.

let animationCount = 100_000

/// Where animation `index` starts in its timeline, as a fraction of it: spread evenly over 0..<1.
func startOffset(_ index: Int) -> Double {
    Double(index % 997) / 997
}

/// What a workload animates, and where the values go.
enum AnimationKind {
    case none
    /// Tweens writing into `AnimatedValues` (no callback).
    case tweens
    /// Tweens calling a closure each.
    case tweenClosures
    /// Repeating, autoreversing tweens writing into `AnimatedValues`.
    case timedTweens
    /// Tweens writing a property by key path.
    case keyPathTweens
    /// Tweens writing an `@AnimatedProperty` by key path.
    case propertyTweens
    /// Tweens handing their value to a closure with a weakly held target.
    case weakTargetTweens
    /// Springs writing into `AnimatedValues`.
    case springs
    /// Springs calling a closure each.
    case springClosures
}

/// An object animated by key path.
final class Sprite {
    var x = 0.0
}

/// An object with an animated property.
@MainActor
final class AnimatedSprite {
    @AnimatedProperty var x = 0.0
}

/// A 60 Hz loop on virtual time with an animator running `count` animations of `kind`, each
/// writing its value into `values`, or through a closure into `output`, or into a sprite's property
/// (a plain one or an `@AnimatedProperty`).
@MainActor
final class AnimatorWorkload {
    let source = ManualFrameSource(refreshRate: .hz60)
    let loop: FrameLoop
    let animator: Animator
    let output: UnsafeMutableBufferPointer<Double>
    let values: AnimatedValues<Double>
    var sprites: [Sprite] = []
    var animatedSprites: [AnimatedSprite] = []

    init(kind: AnimationKind, count: Int) {
        loop = FrameLoop(source: source)
        loop.drainsMainQueue = false
        loop.measuresCallbacks = false
        animator = Animator(loop: loop)
        output = .allocate(capacity: max(count, 1))
        output.initialize(repeating: 0)
        values = AnimatedValues(repeating: 0, count: count)
        let output = self.output
        let spring = Spring(response: 1, dampingRatio: 0.002)  // rings for minutes: never settles here
        let repeating = AnimationTiming(repeatCount: .infinity, autoreverses: true)
        for index in 0..<count {
            let from = Double(index % 1000)
            let tween = Tween(
                from: from, to: from + 100, duration: 1_000_000 + Double(index % 7), curve: .easeInOut)
            // Each animation starts at its own point of its timeline, so that progress (and the
            // work of the curve solver) spreads over the whole curve, as in a real scene.
            let elapsed = startOffset(index) * 1_000_000
            switch kind {
            case .none:
                break
            case .tweens:
                animator.add(tween, into: values, at: index).seek(to: elapsed)
            case .tweenClosures:
                animator.add(tween) { output[index] = $0 }.seek(to: elapsed)
            case .timedTweens:
                let short = Tween(from: from, to: from + 100, duration: 0.5 + Double(index % 7) * 0.1)
                animator.add(short, timing: repeating, into: values, at: index)
            case .keyPathTweens:
                let sprite = Sprite()
                sprites.append(sprite)
                animator.animate(sprite, \.x, with: tween).seek(to: elapsed)
            case .propertyTweens:
                let sprite = AnimatedSprite()
                animatedSprites.append(sprite)
                animator.animate(sprite, \.$x, with: tween).seek(to: elapsed)
            case .weakTargetTweens:
                let sprite = Sprite()
                sprites.append(sprite)
                animator.add(tween, target: sprite) { sprite, value in sprite.x = value }.seek(to: elapsed)
            case .springs, .springClosures:
                let animation = SpringAnimation(
                    from: from, to: from + 100, initialVelocity: Double(index % 11), spring: spring)
                let handle =
                    kind == .springs
                    ? animator.add(animation, into: values, at: index)
                    : animator.add(animation) { output[index] = $0 }
                handle.seek(to: startOffset(index) * 100)
            }
        }
        // Reach steady state: every buffer grown to its working size.
        for _ in 0..<10 { frame() }
    }

    func frame() {
        source.advance(frames: 1)
    }

    isolated deinit {
        output.deallocate()
    }
}

/// The same eased tween values, by hand: plain arrays and an inlined cubic-Bézier solver.
final class TweenBaseline {
    var begin: [Double]
    var duration: [Double]
    var from: [Double]
    var to: [Double]
    var output: [Double]
    var time = 0.0

    init(count: Int) {
        begin = (0..<count).map { -startOffset($0) * 1_000_000 }
        duration = (0..<count).map { 1_000_000 + Double($0 % 7) }
        from = (0..<count).map { Double($0 % 1000) }
        to = from.map { $0 + 100 }
        output = Array(repeating: 0, count: count)
    }

    /// CSS/Core Animation ease-in-out (0.42, 0, 0.58, 1) at x: Newton's method to 1e-10 in x, with
    /// bisection as the fallback.
    @inline(__always)
    static func easeInOut(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let cx = 3 * 0.42
        let bx = 3 * (0.58 - 0.42) - cx
        let ax = 1 - cx - bx
        let cy = 0.0
        let by = 3.0
        let ay = -2.0
        var t = x
        for _ in 0..<8 {
            let error = ((ax * t + bx) * t + cx) * t - x
            if abs(error) < 1e-10 { return ((ay * t + by) * t + cy) * t }
            let slope = (3 * ax * t + 2 * bx) * t + cx
            if abs(slope) < 1e-7 { break }
            t -= error / slope
        }
        var low = 0.0
        var high = 1.0
        t = x
        for _ in 0..<64 {
            let value = ((ax * t + bx) * t + cx) * t
            if abs(value - x) < 1e-10 { break }
            if value < x { low = t } else { high = t }
            t = (low + high) / 2
        }
        return ((ay * t + by) * t + cy) * t
    }

    func frame() {
        time += 1.0 / 60
        let now = time
        begin.withUnsafeBufferPointer { begin in
            duration.withUnsafeBufferPointer { duration in
                from.withUnsafeBufferPointer { from in
                    to.withUnsafeBufferPointer { to in
                        output.withUnsafeMutableBufferPointer { output in
                            for index in 0..<output.count {
                                let progress = (now - begin[index]) / duration[index]
                                let eased = Self.easeInOut(progress)
                                output[index] = from[index] * (1 - eased) + to[index] * eased
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The tween baseline, with each value handed to its own closure, as the closure form of the engine
/// does.
final class TweenClosureBaseline {
    let tweens: TweenBaseline
    let output: UnsafeMutableBufferPointer<Double>
    let closures: [(Double) -> Void]

    init(count: Int) {
        tweens = TweenBaseline(count: count)
        let output = UnsafeMutableBufferPointer<Double>.allocate(capacity: count)
        output.initialize(repeating: 0)
        self.output = output
        closures = (0..<count).map { index in { output[index] = $0 } }
    }

    deinit {
        output.deallocate()
    }

    func frame() {
        tweens.frame()
        tweens.output.withUnsafeBufferPointer { values in
            closures.withUnsafeBufferPointer { closures in
                for index in 0..<values.count {
                    closures[index](values[index])
                }
            }
        }
    }
}

/// The same spring values, by hand: the underdamped closed form over plain arrays (one start time,
/// decay rate and frequency per spring, as the engine keeps them).
final class SpringBaseline {
    var begin: [Double]
    var decay: [Double]
    var frequency: [Double]
    var target: [Double]
    var cosine: [Double]
    var sine: [Double]
    var output: [Double]
    var time = 0.0

    init(count: Int) {
        let spring = Spring(response: 1, dampingRatio: 0.002)
        let omega = spring.naturalFrequency
        let zeta = spring.dampingRatio
        let decay = zeta * omega
        let frequency = omega * (1 - zeta * zeta).squareRoot()
        begin = (0..<count).map { -startOffset($0) * 100 }
        self.decay = Array(repeating: decay, count: count)
        self.frequency = Array(repeating: frequency, count: count)
        target = (0..<count).map { Double($0 % 1000) + 100 }
        cosine = Array(repeating: -100, count: count)
        sine = (0..<count).map { (Double($0 % 11) + decay * -100) / frequency }
        output = Array(repeating: 0, count: count)
    }

    func frame() {
        time += 1.0 / 60
        let now = time
        begin.withUnsafeBufferPointer { begin in
            decay.withUnsafeBufferPointer { decay in
                frequency.withUnsafeBufferPointer { frequency in
                    target.withUnsafeBufferPointer { target in
                        cosine.withUnsafeBufferPointer { cosine in
                            sine.withUnsafeBufferPointer { sine in
                                output.withUnsafeMutableBufferPointer { output in
                                    for index in 0..<output.count {
                                        let elapsed = now - begin[index]
                                        let envelope = exp(-decay[index] * elapsed)
                                        let angle = frequency[index] * elapsed
                                        output[index] =
                                            target[index] + cosine[index] * envelope * cos(angle)
                                            + sine[index] * envelope * sin(angle)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The spring baseline, with each value handed to its own closure.
final class SpringClosureBaseline {
    let springs: SpringBaseline
    let output: UnsafeMutableBufferPointer<Double>
    let closures: [(Double) -> Void]

    init(count: Int) {
        springs = SpringBaseline(count: count)
        let output = UnsafeMutableBufferPointer<Double>.allocate(capacity: count)
        output.initialize(repeating: 0)
        self.output = output
        closures = (0..<count).map { index in { output[index] = $0 } }
    }

    deinit {
        output.deallocate()
    }

    func frame() {
        springs.frame()
        springs.output.withUnsafeBufferPointer { values in
            closures.withUnsafeBufferPointer { closures in
                for index in 0..<values.count {
                    closures[index](values[index])
                }
            }
        }
    }
}

/// The animator workload of the benchmark being run: made, run and released on the main actor
/// through `MainActor.run` (one hop per sample; the harness baseline on the main actor measures it).
@MainActor var animatorWorkload: AnimatorWorkload?
nonisolated(unsafe) var tweenBaseline: TweenBaseline?
nonisolated(unsafe) var springBaseline: SpringBaseline?
nonisolated(unsafe) var tweenClosureBaseline: TweenClosureBaseline?
nonisolated(unsafe) var springClosureBaseline: SpringClosureBaseline?

var configuration: Benchmark.Configuration {
    .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 5,
        maxDuration: .seconds(3),
        maxIterations: 2_000
    )
}

func animatorBenchmark(_ name: String, kind: AnimationKind) {
    let workloadCount = kind == .none ? 0 : animationCount
    Benchmark(name, configuration: configuration) { benchmark in
        let iterations = benchmark.scaledIterations
        await MainActor.run {
            let work = animatorWorkload!
            for _ in iterations {
                work.frame()
            }
            blackHole(work.output[0])
        }
    } setup: {
        await MainActor.run { animatorWorkload = AnimatorWorkload(kind: kind, count: workloadCount) }
    } teardown: {
        await MainActor.run { animatorWorkload = nil }
    }
}

let benchmarks: @Sendable () -> Void = {
    // The harness's own cost, in time and mallocs: compare every benchmark below with these.
    Benchmark("empty (harness baseline)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(benchmark)
        }
    }
    Benchmark("empty, on the main actor (harness baseline)", configuration: configuration) { benchmark in
        let iterations = benchmark.scaledIterations
        await MainActor.run {
            for _ in iterations {
                blackHole(iterations)
            }
        }
    }
    animatorBenchmark("frame: idle animator", kind: .none)

    // Engine: one frame of a 60 Hz loop whose animator runs 100,000 animations.
    animatorBenchmark("engine: 100,000 Double tweens (easeInOut) into AnimatedValues", kind: .tweens)
    animatorBenchmark("engine: 100,000 Double tweens (easeInOut), a closure each", kind: .tweenClosures)
    animatorBenchmark("engine: 100,000 Double springs into AnimatedValues", kind: .springs)
    animatorBenchmark("engine: 100,000 Double springs, a closure each", kind: .springClosures)
    animatorBenchmark("engine: 100,000 repeating autoreversing tweens into AnimatedValues", kind: .timedTweens)
    animatorBenchmark("engine: 100,000 Double tweens by key path", kind: .keyPathTweens)
    animatorBenchmark("engine: 100,000 Double tweens by key path to an @AnimatedProperty", kind: .propertyTweens)
    animatorBenchmark("engine: 100,000 Double tweens, weak-target closures", kind: .weakTargetTweens)

    // Baselines: the same values for 100,000 numbers in hand-written loops.
    Benchmark("baseline: 100,000 eased values by hand", configuration: configuration) { benchmark in
        let work = tweenBaseline!
        for _ in benchmark.scaledIterations {
            work.frame()
        }
        blackHole(work.output[0])
    } setup: {
        tweenBaseline = TweenBaseline(count: animationCount)
    } teardown: {
        tweenBaseline = nil
    }
    Benchmark("baseline: 100,000 eased values by hand, a closure each", configuration: configuration) { benchmark in
        let work = tweenClosureBaseline!
        for _ in benchmark.scaledIterations {
            work.frame()
        }
        blackHole(work.output[0])
    } setup: {
        tweenClosureBaseline = TweenClosureBaseline(count: animationCount)
    } teardown: {
        tweenClosureBaseline = nil
    }
    Benchmark("baseline: 100,000 spring values by hand", configuration: configuration) { benchmark in
        let work = springBaseline!
        for _ in benchmark.scaledIterations {
            work.frame()
        }
        blackHole(work.output[0])
    } setup: {
        springBaseline = SpringBaseline(count: animationCount)
    } teardown: {
        springBaseline = nil
    }
    Benchmark("baseline: 100,000 spring values by hand, a closure each", configuration: configuration) { benchmark in
        let work = springClosureBaseline!
        for _ in benchmark.scaledIterations {
            work.frame()
        }
        blackHole(work.output[0])
    } setup: {
        springClosureBaseline = SpringClosureBaseline(count: animationCount)
    } teardown: {
        springClosureBaseline = nil
    }
}
