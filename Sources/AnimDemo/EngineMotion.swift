import CSDL2
import Foundation
import FrameLink

/// Sprites animated by FrameLink's ``Animator``, in four groups that show the engine's range:
///
/// 1. **Tweens** that sweep across the screen and back forever, each on its own timing curve
///    (ease-in-out, Penner's bounce, elastic and back, cubic Béziers…).
/// 2. **Keyframe paths**: smooth (Catmull-Rom) closed loops.
/// 3. **Springs** that follow the mouse (each to its own offset around it); before the mouse moves —
///    and always when headless — they chase a target that travels a fixed path.
/// 4. **Decays**: a flick (mouse up after a quick drag) throws the nearest sprites with the drag's
///    velocity; they coast to a stop inside the window, then spring home and resume.
///
/// Every position lives in one ``AnimatedValues`` that the animator writes straight into, with no
/// callback per sprite, so thousands of sprites stay cheap. With a window the animator runs on the
/// host's loop in `.common` mode (so sprites move during a drag) and follows the game clock's speed
/// through ``Animator/timeScale``; headless, it runs on virtual time that advances with the scene's
/// fixed-step game time, so frame N is the same picture on every run.
@MainActor
final class EngineMotion: SpriteMotion {
    /// What one sprite does when nothing has thrown it.
    private enum Role {
        /// Back and forth between two points on a curve.
        case tween(from: SIMD2<Double>, to: SIMD2<Double>, duration: Double, curve: TimingCurve, delay: Double)
        /// Round a closed smooth path.
        case path(Keyframes<SIMD2<Double>>)
        /// After the springs' target, at an offset from it.
        case spring(offset: SIMD2<Double>, spring: Spring)

        /// Where the sprite starts, and returns to after a flick.
        var home: SIMD2<Double>? {
            switch self {
            case .tween(let from, _, _, _, _): from
            case .path(let keyframes): keyframes.values[0]
            case .spring: nil
            }
        }
    }

    /// The curves the tweens use, in turn.
    private static let curves: [TimingCurve] = [
        .easeInOut, .easeOutBounce, .easeInOutElastic, .easeInOutBack, .easeInOutSine, .easeOutElastic,
        .cubicBezier(0.68, -0.55, 0.27, 1.55), .linear, .cubicBezier(0.1, 0.7, 0.1, 1), .easeInOutExpo,
    ]

    /// The springs the followers use, in turn: from quick and bouncy to slow and smooth.
    private static let springs: [Spring] = [
        .bouncy, .snappy, .smooth, Spring(response: 0.9, dampingRatio: 0.45), Spring(response: 1.4, dampingRatio: 0.8),
    ]

    /// How often (in game seconds) the springs' target moves along its path without a mouse.
    private static let targetInterval = 0.3
    /// The most sprites one flick throws, and how near the release they must be (in pixels).
    private static let flickCount = 40
    private static let flickRadius = 260.0
    /// The slowest drag (in pixels per second) that counts as a flick.
    private static let flickSpeed = 150.0

    let animator: Animator
    private let width: Double
    private let height: Double
    private let seed: UInt64
    private let virtualSource: ManualFrameSource?
    private var drivenNanoseconds: Int64 = 0

    private var positions = AnimatedValues(repeating: SIMD2<Double>.zero, count: 0)
    private var roles: [Role] = []
    private var halfSizes: [Double] = []
    private var startAngles: [Double] = []
    private var spins: [Double] = []
    private var isThrown: [Bool] = []
    private var springIndices: [Int] = []
    /// Bumped by every resize, so completions of an older set of sprites do nothing.
    private var generation = 0

    private var mouse: SIMD2<Double>?
    private var mouseMoved = false
    private var lastTargetStep = Int.min
    private var isDragging = false
    private var dragVelocity = SIMD2<Double>.zero
    private var lastMotionTimestamp: UInt32 = 0

    /// Creates the motion for a `width`×`height` canvas, drawn from `seed`. With a `loop` the
    /// animator runs on it (in `.common`); with none, on virtual time driven by ``place(at:into:)``.
    init(width: Int, height: Int, seed: UInt64, loop: FrameLoop?) {
        self.width = Double(width)
        self.height = Double(height)
        self.seed = seed
        if let loop {
            virtualSource = nil
            animator = Animator(loop: loop, mode: .common)
        } else {
            let source = ManualFrameSource(refreshRate: .hz60)
            virtualSource = source
            let virtualLoop = FrameLoop(source: source)
            // The host's loop already runs main-queue work; this private loop need not wait for it.
            virtualLoop.drainsMainQueue = false
            animator = Animator(loop: virtualLoop, mode: .common)
        }
    }

    // MARK: SpriteMotion

    /// Starts an animation for each sprite; sprite `i` gets the same role whatever the count.
    func resize(to sizes: [Float]) {
        generation += 1
        animator.cancelAllAnimations()
        var generator = SeededGenerator(seed: seed ^ 0x656E_6769_6E65)  // "engine"
        roles = []
        halfSizes = sizes.map { Double($0) / 2 }
        startAngles = []
        spins = []
        springIndices = []
        roles.reserveCapacity(sizes.count)
        for index in sizes.indices {
            let role = makeRole(index: index, half: halfSizes[index], using: &generator)
            roles.append(role)
            startAngles.append(Double.random(in: 0..<360, using: &generator))
            spins.append(Double.random(in: -120...120, using: &generator))
            if case .spring = role { springIndices.append(index) }
        }
        isThrown = Array(repeating: false, count: sizes.count)
        positions = AnimatedValues(repeating: SIMD2(width / 2, height / 2), count: sizes.count)
        for index in roles.indices {
            positions[index] = roles[index].home ?? springStart(index)
            start(index)
        }
        lastTargetStep = .min
    }

    /// Moves the springs' target if needed, runs the animator (headless), and reads the positions.
    func place(at time: Double, into placements: inout [SpritePlacement]) {
        retargetSprings(at: time)
        if let virtualSource {
            let nanoseconds = Int64((time * 1e9).rounded())
            if nanoseconds > drivenNanoseconds {
                virtualSource.advance(by: .nanoseconds(nanoseconds - drivenNanoseconds))
                drivenNanoseconds = nanoseconds
            }
        }
        let (w, h) = (width, height)
        halfSizes.withUnsafeBufferPointer { halfSizes in
            startAngles.withUnsafeBufferPointer { startAngles in
                spins.withUnsafeBufferPointer { spins in
                    positions.withUnsafeBufferPointer { positions in
                        placements.withUnsafeMutableBufferPointer { placements in
                            for index in 0..<min(positions.count, placements.count) {
                                let half = halfSizes[index]
                                let x = min(max(positions[index].x, half), max(half, w - half))
                                let y = min(max(positions[index].y, half), max(half, h - half))
                                let size = Float(2 * half)
                                placements[index] = SpritePlacement(
                                    destination: SDL_FRect(x: Float(x - half), y: Float(y - half), w: size, h: size),
                                    angle: (startAngles[index] + spins[index] * time)
                                        .truncatingRemainder(dividingBy: 360))
                            }
                        }
                    }
                }
            }
        }
    }

    /// Follows the mouse, and throws sprites on a flick.
    func handle(_ event: SDL_Event) {
        switch event.type {
        case SDL_MOUSEMOTION.rawValue:
            let point = SIMD2(Double(event.motion.x), Double(event.motion.y))
            if isDragging {
                let elapsed = Double(event.motion.timestamp &- lastMotionTimestamp) / 1000
                if elapsed > 0, let mouse {
                    let velocity = (point - mouse) / max(elapsed, 0.004)
                    dragVelocity = dragVelocity * 0.4 + velocity * 0.6
                }
            }
            lastMotionTimestamp = event.motion.timestamp
            mouse = point
            mouseMoved = true
        case SDL_MOUSEBUTTONDOWN.rawValue where event.button.button == UInt8(SDL_BUTTON_LEFT):
            isDragging = true
            dragVelocity = .zero
            lastMotionTimestamp = event.button.timestamp
            mouse = SIMD2(Double(event.button.x), Double(event.button.y))
        case SDL_MOUSEBUTTONUP.rawValue where event.button.button == UInt8(SDL_BUTTON_LEFT):
            guard isDragging else { return }
            isDragging = false
            let point = SIMD2(Double(event.button.x), Double(event.button.y))
            // A drag that stopped before the release is not a flick.
            let sinceMotion = event.button.timestamp &- lastMotionTimestamp
            if sinceMotion < 100, dragVelocity.magnitudeSquared > Self.flickSpeed * Self.flickSpeed {
                flick(at: point, velocity: dragVelocity)
            }
        default:
            break
        }
    }

    /// Runs the animations at the game clock's speed (a windowed run; headless, game time drives them).
    func setTimeScale(_ scale: Double) {
        guard virtualSource == nil else { return }
        animator.timeScale = scale
    }

    /// Cancels every animation.
    func invalidate() {
        generation += 1
        animator.cancelAllAnimations()
    }

    // MARK: Roles and animations

    private func makeRole(index: Int, half: Double, using generator: inout SeededGenerator) -> Role {
        let margin = half + 8
        let (w, h) = (width, height)
        let xs = margin...max(margin, w - margin)
        let ys = margin...max(margin, h - margin)
        switch index % 8 {
        case 0, 1, 2:
            // Across the screen: mostly horizontal sweeps, some vertical, on a curve of their own.
            let horizontal = index % 3 != 2
            let from: SIMD2<Double>
            let to: SIMD2<Double>
            if horizontal {
                let y = Double.random(in: ys, using: &generator)
                from = SIMD2(xs.lowerBound, y)
                to = SIMD2(
                    xs.upperBound, min(max(y + Double.random(in: -120...120, using: &generator), margin), ys.upperBound)
                )
            } else {
                let x = Double.random(in: xs, using: &generator)
                from = SIMD2(x, ys.lowerBound)
                to = SIMD2(
                    min(max(x + Double.random(in: -160...160, using: &generator), margin), xs.upperBound), ys.upperBound
                )
            }
            let flipped = Bool.random(using: &generator)
            return .tween(
                from: flipped ? to : from, to: flipped ? from : to,
                duration: Double.random(in: 1.6...4.5, using: &generator),
                curve: Self.curves[(index / 8 + index) % Self.curves.count],
                delay: Double.random(in: 0...1.5, using: &generator))
        case 3, 4:
            // A closed smooth loop through 4–6 points.
            let count = Int.random(in: 4...6, using: &generator)
            let inset = min(60, w / 4, h / 4)
            let center = SIMD2(
                Double.random(in: (margin + inset)...max(margin + inset, w - margin - inset), using: &generator),
                Double.random(in: (margin + inset)...max(margin + inset, h - margin - inset), using: &generator))
            let radius = SIMD2(
                Double.random(in: 60...260, using: &generator), Double.random(in: 40...180, using: &generator))
            let phase = Double.random(in: 0..<(2 * .pi), using: &generator)
            var points: [SIMD2<Double>] = (0..<count).map { step in
                let angle = phase + 2 * .pi * Double(step) / Double(count)
                let wobble = Double.random(in: 0.6...1.1, using: &generator)
                let point = center + SIMD2(cos(angle), sin(angle)) * radius * wobble
                return SIMD2(
                    min(max(point.x, xs.lowerBound), xs.upperBound), min(max(point.y, ys.lowerBound), ys.upperBound))
            }
            points.append(points[0])
            let duration = Double.random(in: 4...9, using: &generator)
            return .path(Keyframes(values: points, mode: .smooth, duration: duration))
        default:
            let angle = Double.random(in: 0..<(2 * .pi), using: &generator)
            let distance = Double.random(in: 20...220, using: &generator)
            return .spring(
                offset: SIMD2(cos(angle), sin(angle)) * distance,
                spring: Self.springs[(index / 8) % Self.springs.count])
        }
    }

    /// Starts sprite `index` on its role, from where it is now.
    private func start(_ index: Int) {
        let current = positions[index]
        switch roles[index] {
        case .tween(_, let to, let duration, let curve, let delay):
            let tween = Tween(from: current, to: to, duration: duration, curve: curve)
            let timing = AnimationTiming(delay: delay, repeatCount: .infinity, autoreverses: true)
            animator.add(tween, timing: timing, into: positions, at: index)
        case .path(let keyframes):
            animator.add(keyframes, timing: AnimationTiming(repeatCount: .infinity), into: positions, at: index)
        case .spring:
            springTo(index, target: springTarget(index))
        }
    }

    private func springTo(_ index: Int, target: SIMD2<Double>) {
        guard case .spring(_, let spring) = roles[index] else { return }
        let animation = SpringAnimation(from: positions[index], to: target, spring: spring, threshold: 0.5)
        animator.add(animation, into: positions, at: index)
    }

    /// Where the springs head: the mouse once it has moved, else a point on a slow figure-eight.
    private func targetCenter(at time: Double) -> SIMD2<Double> {
        if mouseMoved, let mouse { return mouse }
        return SIMD2(
            width / 2 + width * 0.3 * sin(0.55 * time), height / 2 + height * 0.28 * sin(1.1 * time + 0.6))
    }

    private var currentTarget = SIMD2<Double>.zero

    private func springTarget(_ index: Int) -> SIMD2<Double> {
        guard case .spring(let offset, _) = roles[index] else { return positions[index] }
        return currentTarget + offset
    }

    private func springStart(_ index: Int) -> SIMD2<Double> {
        currentTarget = targetCenter(at: 0)
        return springTarget(index)
    }

    /// Retargets the springs when their target has moved: on every frame after mouse motion, else
    /// every ``targetInterval`` of game time (a pure function of game time).
    private func retargetSprings(at time: Double) {
        let step = Int((time / Self.targetInterval).rounded(.down))
        let target: SIMD2<Double>
        if mouseMoved, let mouse {
            guard mouse != currentTarget else { return }
            target = mouse
        } else {
            guard step != lastTargetStep else { return }
            target = targetCenter(at: Double(step + 1) * Self.targetInterval)
        }
        lastTargetStep = step
        currentTarget = target
        for index in springIndices where !isThrown[index] {
            springTo(index, target: springTarget(index))
        }
    }

    /// Throws the sprites nearest `point` with `velocity`, each coasting to a stop inside the window.
    private func flick(at point: SIMD2<Double>, velocity: SIMD2<Double>) {
        var nearest: [(distance: Double, index: Int)] = []
        positions.withUnsafeBufferPointer { positions in
            for index in 0..<positions.count {
                let distance = (positions[index] - point).magnitudeSquared
                if distance < Self.flickRadius * Self.flickRadius { nearest.append((distance, index)) }
            }
        }
        nearest.sort { $0.distance < $1.distance }
        let constant = DecelerationRate.normal.decayConstant  // negative: velocity keeps e^(k·t)
        let thrownGeneration = generation
        for (_, index) in nearest.prefix(Self.flickCount) {
            let from = positions[index]
            let half = halfSizes[index]
            // Rest = from − v/k; clamping the rest point into the window bounds the whole glide.
            var rest = from - velocity / constant
            rest.x = min(max(rest.x, half), max(half, width - half))
            rest.y = min(max(rest.y, half), max(half, height - half))
            let bounded = (from - rest) * constant
            let decay = DecayAnimation(from: from, initialVelocity: bounded, threshold: 0.5)
            isThrown[index] = true
            animator.add(decay, into: positions, at: index) { [weak self] result in
                guard let self, result == .finished, generation == thrownGeneration else { return }
                returnHome(index)
            }
        }
    }

    /// After a flick: a spring back to the sprite's home, then its role again.
    private func returnHome(_ index: Int) {
        isThrown[index] = false
        guard let home = roles[index].home else {
            springTo(index, target: springTarget(index))
            return
        }
        let homeGeneration = generation
        let spring = SpringAnimation(from: positions[index], to: home, spring: .bouncy, threshold: 0.5)
        animator.add(spring, into: positions, at: index) { [weak self] result in
            guard let self, result == .finished, generation == homeGeneration, !isThrown[index] else { return }
            start(index)
        }
    }
}
