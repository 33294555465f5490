import CSDL2
import FrameLink

/// The animated sprites: their looks, a game clock (pause, slow motion), and a ``SpriteMotion``
/// that says where each sprite is at each moment of game time.
///
/// A weak-target ``DisplayLink`` (in `.common`, so sprites keep moving during a drag) advances the
/// ``GameClock`` to each frame's target timestamp and places the sprites there; the link leaves the
/// loop by itself once the scene is gone. With a ``Timeline/fixedStep(_:)`` timeline (headless runs)
/// game time advances one nominal period per call instead, so frame N draws the same picture on
/// every run, stalls or not.
@MainActor
final class Scene {
    /// Which time drives the game clock.
    enum Timeline {
        /// The frames' target timestamps: real time, as a game runs.
        case realTime
        /// One step per call of the link: deterministic pictures for tests and screenshots.
        case fixedStep(Duration)
    }

    /// How a sprite looks: its atlas cell and its size on screen (24–40 px: a mean area of about
    /// 32×32, the same pixel load per sprite as `probes/spr.c`, so their frame costs compare).
    struct Look {
        var source: SDL_Rect
        var size: Float
    }

    /// The time scale of slow motion (`T`).
    static let slowMotionScale = 0.25

    /// The sprites' looks, in drawing order.
    private(set) var looks: [Look] = []

    /// The motion that places the sprites; replacing it re-places the current sprites.
    var motion: any SpriteMotion {
        didSet {
            oldValue.invalidate()
            motion.resize(to: looks.map(\.size))
            motion.setTimeScale(currentTimeScale)
        }
    }

    /// The game clock: paused by `space`, slowed by `T`.
    let clock: GameClock

    /// The link that animates the scene, labelled `"sprites"`.
    private(set) var link: DisplayLink?

    private let seed: UInt64
    private let timeline: Timeline
    private var placements: [SpritePlacement] = []

    /// Creates `count` sprites for a `width`×`height` canvas, deterministically from `seed`, moving on
    /// orbits.
    init(count: Int, width: Int, height: Int, seed: UInt64, timeline: Timeline) {
        self.seed = seed
        self.timeline = timeline
        // GameClock's defaults (a 1/60 s step, a 250 ms delta cap) are valid: it cannot throw here.
        clock = GameClock()
        motion = OrbitMotion(width: width, height: height, seed: seed)
        setCount(count)
    }

    /// The number of sprites.
    var count: Int { looks.count }

    /// Changes the number of sprites: the first ones keep their looks and motion.
    func setCount(_ newCount: Int) {
        var generator = SeededGenerator(seed: seed)
        looks = (0..<max(0, newCount)).map { _ in
            Look(
                source: SpriteAtlas.sourceRect(
                    kind: Int.random(in: 0..<SpriteAtlas.kinds, using: &generator),
                    faded: Int.random(in: 0..<5, using: &generator) == 0),
                size: Float.random(in: 24...40, using: &generator))
        }
        motion.resize(to: looks.map(\.size))
        placements = Array(repeating: SpritePlacement(), count: looks.count)
        motion.place(at: (clock.time / .seconds(1)), into: &placements)
    }

    /// Adds the scene's display link to `loop`. The link holds the scene weakly.
    func attach(to loop: FrameLoop) {
        let link = DisplayLink(target: self) { scene, link in
            scene.step(link)
        }
        link.label = "sprites"
        link.add(to: loop, forMode: .common)
        self.link = link
    }

    /// Whether game time is paused.
    var isPaused: Bool { clock.isPaused }

    /// Pauses or resumes game time; the sprites stay where they are meanwhile.
    func togglePause() {
        if clock.isPaused { clock.resume() } else { clock.pause() }
        motion.setTimeScale(currentTimeScale)
    }

    /// Switches between normal speed and slow motion.
    func toggleSlowMotion() {
        clock.timeScale = clock.timeScale == 1 ? Self.slowMotionScale : 1
        motion.setTimeScale(currentTimeScale)
    }

    /// How fast game time runs now: 0 while paused, else the clock's time scale.
    private var currentTimeScale: Double {
        clock.isPaused ? 0 : clock.timeScale
    }

    /// Advances the game clock to the link's frame and places the sprites.
    private func step(_ link: DisplayLink) {
        let frameTime: FrameInstant
        switch timeline {
        case .realTime:
            frameTime = link.targetTimestamp
        case .fixedStep(let step):
            frameTime = FrameInstant.zero + step * link.callCount
        }
        _ = clock.update(at: frameTime)
        motion.place(at: (clock.time / .seconds(1)), into: &placements)
    }

    /// Draws every sprite, rotated, from `atlas` (`SDL_Texture *`).
    func draw(on renderer: OpaquePointer, atlas: OpaquePointer) {
        looks.withUnsafeBufferPointer { looks in
            placements.withUnsafeBufferPointer { placements in
                for index in 0..<min(looks.count, placements.count) {
                    var source = looks[index].source
                    var destination = placements[index].destination
                    SDL_RenderCopyExF(
                        renderer, atlas, &source, &destination, placements[index].angle, nil, SDL_FLIP_NONE)
                }
            }
        }
    }
}
