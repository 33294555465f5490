// Stand-ins for the game types that the documentation's snippets use but FrameLink does not have.
// scripts/check-snippets.py compiles them next to the snippets; they are not part of FrameLink.
import FrameLink

/// A sprite with an animatable position.
@MainActor final class Sprite {
    var position = SIMD2<Double>(0, 0)
}

/// A heads-up display with an animatable opacity.
@MainActor final class HUD {
    var alpha = 0.0
}

/// The testing article's game: a display link and an autosave timer every 2 s.
@MainActor final class Game {
    var saves = 0
    private let autosave: FrameTimer

    init(loop: FrameLoop) {
        autosave = FrameTimer(interval: .seconds(2), repeats: true) { _ in }
        autosave.add(to: loop, forMode: .default)
        DisplayLink { _ in }.add(to: loop, forMode: .common)
    }
}

/// A player that simulates in fixed steps and can be animated.
@MainActor final class Player {
    var scale = 1.0
    func simulate(step: Duration) {}
    func shrink() { scale = 1 }
}
