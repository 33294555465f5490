import CSDL2
import Foundation

/// Where one sprite is drawn in a frame: its rectangle on the canvas and its rotation in degrees.
struct SpritePlacement {
    var destination = SDL_FRect()
    var angle: Double = 0
}

/// How the sprites move: the scene owns the sprites' looks (atlas cell and size) and its game clock,
/// and asks its motion, once per frame, where every sprite is at the current game time.
///
/// ``EngineMotion`` (FrameLink's animation engine: tweens, keyframe paths, springs that follow the
/// mouse, flicks that decay) is the demo's default; ``OrbitMotion`` (`--motion orbit`) is a pure
/// function of time. A scene starts on orbits and takes another motion with `scene.motion = …`;
/// input reaches it through ``handle(_:)``.
@MainActor
protocol SpriteMotion: AnyObject {
    /// Prepares for sprites of the given sizes (in pixels), at the start and whenever the count
    /// changes. Sprite `i` keeps its motion when the count grows or shrinks.
    func resize(to sizes: [Float])

    /// Writes the placement of every sprite at `time` seconds of game time into `placements`
    /// (which has one element per sprite).
    func place(at time: Double, into placements: inout [SpritePlacement])

    /// Sees every SDL event before the scene does, for motion that reacts to input.
    func handle(_ event: SDL_Event)

    /// Follows the game clock's speed: `scale` is 0 while paused, below 1 in slow motion.
    func setTimeScale(_ scale: Double)

    /// Stops for good, at the end of the run: lets go of anything the motion keeps running.
    func invalidate()
}

extension SpriteMotion {
    /// A motion computed from game time needs nothing more than the time it is given.
    func setTimeScale(_ scale: Double) {}

    /// A motion computed from game time keeps nothing running.
    func invalidate() {}
}

/// Every sprite on its own Lissajous orbit, spinning: a pure function of game time, so motion keeps
/// its speed whatever the frame rate, and frame N shows the same picture on every run.
@MainActor
final class OrbitMotion: SpriteMotion {
    /// One sprite's orbit.
    private struct Orbit {
        var centerX: Double
        var centerY: Double
        var amplitudeX: Double
        var amplitudeY: Double
        var angularFrequencyX: Double
        var angularFrequencyY: Double
        var phaseX: Double
        var phaseY: Double
        var startAngle: Double
        var spin: Double  // degrees per second
        var size: Float
    }

    private let width: Double
    private let height: Double
    private let seed: UInt64
    private var orbits: [Orbit] = []

    /// Creates orbits inside a `width`×`height` canvas, drawn from `seed`.
    init(width: Int, height: Int, seed: UInt64) {
        self.width = Double(width)
        self.height = Double(height)
        self.seed = seed
    }

    /// Draws orbits for `sizes.count` sprites; the sequence is fixed by the seed, so the first ones
    /// are the same whatever the count.
    func resize(to sizes: [Float]) {
        var generator = SeededGenerator(seed: seed ^ 0x6F72_6269_7473)  // "orbits"
        let (w, h) = (width, height)
        orbits = sizes.map { size in
            let half = Double(size) / 2
            let amplitudeX = Double.random(in: 10...min(220, max(10, w / 2 - half - 1)), using: &generator)
            let amplitudeY = Double.random(in: 10...min(160, max(10, h / 2 - half - 1)), using: &generator)
            let marginX = amplitudeX + half
            let marginY = amplitudeY + half
            let centerX = Double.random(in: 0...1, using: &generator)
            let centerY = Double.random(in: 0...1, using: &generator)
            return Orbit(
                centerX: marginX < w - marginX ? marginX + centerX * (w - 2 * marginX) : w / 2,
                centerY: marginY < h - marginY ? marginY + centerY * (h - 2 * marginY) : h / 2,
                amplitudeX: amplitudeX,
                amplitudeY: amplitudeY,
                angularFrequencyX: 2 * .pi * Double.random(in: 0.05...0.45, using: &generator),
                angularFrequencyY: 2 * .pi * Double.random(in: 0.05...0.45, using: &generator),
                phaseX: Double.random(in: 0..<(2 * .pi), using: &generator),
                phaseY: Double.random(in: 0..<(2 * .pi), using: &generator),
                startAngle: Double.random(in: 0..<360, using: &generator),
                spin: Double.random(in: -180...180, using: &generator),
                size: size)
        }
    }

    /// Computes positions and angles at `time`: a pure function of `time`.
    func place(at time: Double, into placements: inout [SpritePlacement]) {
        orbits.withUnsafeBufferPointer { orbits in
            placements.withUnsafeMutableBufferPointer { placements in
                for index in 0..<min(orbits.count, placements.count) {
                    let orbit = orbits[index]
                    let x = orbit.centerX + orbit.amplitudeX * sin(orbit.angularFrequencyX * time + orbit.phaseX)
                    let y = orbit.centerY + orbit.amplitudeY * sin(orbit.angularFrequencyY * time + orbit.phaseY)
                    let half = Double(orbit.size) / 2
                    placements[index] = SpritePlacement(
                        destination: SDL_FRect(x: Float(x - half), y: Float(y - half), w: orbit.size, h: orbit.size),
                        angle: (orbit.startAngle + orbit.spin * time).truncatingRemainder(dividingBy: 360))
                }
            }
        }
    }

    /// Orbits ignore input.
    func handle(_ event: SDL_Event) {}
}
