import CSDL2
import FrameLink

/// The animated sprites: each one follows a Lissajous orbit and spins, as a pure function of time.
///
/// A weak-target ``DisplayLink`` steps the scene to each frame's target timestamp (the time the
/// frame will be shown), so the motion keeps its speed whatever the frame rate, and the link leaves
/// the loop by itself once the scene is gone. Pausing stops the link; time spent paused is taken out
/// of the scene's clock, so the sprites resume where they stopped.
@MainActor
final class Scene {
    /// One sprite's fixed parameters, drawn from the seed.
    struct Sprite {
        var source: SDL_Rect
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

    /// The sprites, in drawing order.
    let sprites: [Sprite]

    /// The link that animates the scene (in `.common`, so sprites keep moving during a drag).
    private(set) var link: DisplayLink?

    /// The scene time of the last step, in seconds.
    private(set) var sceneTime: Double = 0

    private var destinations: [SDL_FRect]
    private var angles: [Double]
    private var pausedTotal: Duration = .zero
    private var pausedAt: FrameInstant?

    /// Creates `count` sprites placed in a `width`×`height` area, deterministically from `seed`.
    init(count: Int, width: Int, height: Int, seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let w = Double(width)
        let h = Double(height)
        sprites = (0..<count).map { _ in
            let size = Float.random(in: 24...48, using: &generator)
            let half = Double(size) / 2
            let amplitudeX = Double.random(in: 10...min(220, max(10, w / 2 - half - 1)), using: &generator)
            let amplitudeY = Double.random(in: 10...min(160, max(10, h / 2 - half - 1)), using: &generator)
            let marginX = amplitudeX + half
            let marginY = amplitudeY + half
            return Sprite(
                source: SpriteAtlas.sourceRect(
                    kind: Int.random(in: 0..<SpriteAtlas.kinds, using: &generator),
                    faded: Int.random(in: 0..<5, using: &generator) == 0),
                centerX: marginX < w - marginX ? Double.random(in: marginX...(w - marginX), using: &generator) : w / 2,
                centerY: marginY < h - marginY ? Double.random(in: marginY...(h - marginY), using: &generator) : h / 2,
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
        destinations = Array(repeating: SDL_FRect(), count: count)
        angles = Array(repeating: 0, count: count)
        place(at: 0)
    }

    /// Adds the scene's display link to `loop`. The link holds the scene weakly.
    func attach(to loop: FrameLoop) {
        let link = DisplayLink(target: self) { scene, link in
            scene.step(to: link.targetTimestamp)
        }
        link.label = "sprites"
        link.add(to: loop, forMode: .common)
        self.link = link
    }

    /// Whether the sprites are paused.
    var isPaused: Bool { link?.isPaused ?? true }

    /// Pauses or resumes the sprites at loop time `now`.
    func togglePause(now: FrameInstant) {
        guard let link else { return }
        if link.isPaused {
            if let pausedAt { pausedTotal += now - pausedAt }
            pausedAt = nil
            link.isPaused = false
        } else {
            pausedAt = now
            link.isPaused = true
        }
    }

    /// Moves every sprite to where it is at loop time `time` (minus the time spent paused).
    func step(to time: FrameInstant) {
        place(at: (time - pausedTotal).seconds)
    }

    /// Computes positions and angles at scene time `t` seconds: a pure function of `t`.
    private func place(at t: Double) {
        sceneTime = t
        sprites.withUnsafeBufferPointer { sprites in
            for index in sprites.indices {
                let sprite = sprites[index]
                let x = sprite.centerX + sprite.amplitudeX * sin(sprite.angularFrequencyX * t + sprite.phaseX)
                let y = sprite.centerY + sprite.amplitudeY * sin(sprite.angularFrequencyY * t + sprite.phaseY)
                let half = Double(sprite.size) / 2
                destinations[index] = SDL_FRect(x: Float(x - half), y: Float(y - half), w: sprite.size, h: sprite.size)
                angles[index] = (sprite.startAngle + sprite.spin * t).truncatingRemainder(dividingBy: 360)
            }
        }
    }

    /// Draws every sprite, rotated, from `atlas` (`SDL_Texture *`).
    func draw(on renderer: OpaquePointer, atlas: OpaquePointer) {
        sprites.withUnsafeBufferPointer { sprites in
            destinations.withUnsafeBufferPointer { destinations in
                for index in sprites.indices {
                    var source = sprites[index].source
                    var destination = destinations[index]
                    SDL_RenderCopyExF(renderer, atlas, &source, &destination, angles[index], nil, SDL_FLIP_NONE)
                }
            }
        }
    }
}
