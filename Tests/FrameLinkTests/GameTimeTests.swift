import FrameLink
import Testing

/// Pausing timers, and timers and animations on a game clock's time: pause, time scale and single
/// steps apply to them; all on virtual time.
@MainActor
@Suite("Game time: pausing timers, timers and animators on a GameClock")
struct GameTimeTests {
    /// A sprite with an animatable position.
    final class Sprite {
        var x = 0.0
    }

    /// A 100 Hz loop whose link updates a 10 ms game clock at each frame's target timestamp.
    func makeGame() -> (ManualFrameSource, FrameLoop, GameClock) {
        let (source, loop) = makeLoop(rate: 100)
        let clock = GameClock(fixedStep: .milliseconds(10))
        DisplayLink { link in _ = clock.update(at: link.targetTimestamp) }.add(to: loop, forMode: .common)
        return (source, loop, clock)
    }

    @Test("an 8 s one-shot paused from 1 s to 6 s fires at 13 s, not at 8 s")
    func oneShotPostponedByThePause() {
        let (source, loop) = makeLoop()
        let fires = Recorder<FrameInstant>()
        let timer = FrameTimer(interval: .seconds(8), repeats: false) { _ in fires.append(loop.timestamp) }
        timer.add(to: loop, forMode: .default)
        source.advance(to: .seconds(1))
        timer.isPaused = true
        source.advance(to: .seconds(6))
        timer.isPaused = false
        #expect(timer.fireDate == .seconds(13))
        source.advance(to: .seconds(12.9))
        #expect(fires.values.isEmpty)
        source.advance(to: .seconds(14))
        #expect(fires.values == [.seconds(13)])
        #expect(!timer.isValid)
    }

    @Test("a 2 s one-shot paused at 1 s and resumed at 4 s fires at 5 s: its remaining second, once")
    func oneShotPausedAcrossItsFireDate() {
        let (source, loop) = makeLoop()
        let fires = Recorder<FrameInstant>()
        let timer = FrameTimer(interval: .seconds(2), repeats: false) { _ in fires.append(loop.timestamp) }
        timer.add(to: loop, forMode: .default)
        source.advance(to: .seconds(1))
        timer.isPaused = true
        source.advance(to: .seconds(4))
        timer.isPaused = false
        source.advance(to: .seconds(10))
        #expect(fires.values == [.seconds(5)])
    }

    @Test("a one-shot paused before it is added counts its pause from the add")
    func pausedBeforeAdding() {
        let (source, loop) = makeLoop()
        source.advance(to: .seconds(1))
        let fires = Recorder<FrameInstant>()
        let timer = FrameTimer(interval: .seconds(2), repeats: false) { _ in fires.append(loop.timestamp) }
        timer.isPaused = true
        timer.add(to: loop, forMode: .default)  // fire date 3 s, paused from 1 s
        source.advance(to: .seconds(2))
        timer.isPaused = false  // 1 s of pause: fires at 4 s
        source.advance(to: .seconds(6))
        #expect(fires.values == [.seconds(4)])
    }

    @Test("a repeating timer paused across fire dates resumes on its grid, without catch-up fires")
    func repeatingStaysOnItsGrid() {
        let (source, loop) = makeLoop()
        let fires = Recorder<FrameInstant>()
        let timer = FrameTimer(interval: .seconds(1), repeats: true) { _ in fires.append(loop.timestamp) }
        timer.add(to: loop, forMode: .default)
        source.advance(to: .seconds(1.5))
        timer.isPaused = true
        source.advance(to: .seconds(4.25))
        timer.isPaused = false
        source.advance(to: .seconds(6.5))
        #expect(fires.values == [.seconds(1), .seconds(5), .seconds(6)])
    }

    @Test("a timer on game time stops while the clock is paused: 5 s of pause, 5 s later than the loop's")
    func gameTimerPausesWithTheClock() throws {
        let (source, loop, clock) = makeGame()
        var realFire: FrameInstant?
        var gameFire: FrameInstant?
        var gameTimeAtFire: Duration?
        let onLoop = FrameTimer(interval: .seconds(8), repeats: false) { _ in realFire = loop.timestamp }
        onLoop.add(to: loop, forMode: .default)
        let onClock = FrameTimer(interval: .seconds(8), repeats: false) { _ in
            gameFire = loop.timestamp
            gameTimeAtFire = clock.time
        }
        onClock.add(to: clock)
        #expect(onClock.gameClock === clock)
        source.advance(to: .seconds(2))
        clock.pause()
        source.advance(to: .seconds(7))
        clock.resume()
        source.advance(to: .seconds(20))
        let real = try #require(realFire)
        let game = try #require(gameFire)
        #expect(real == .seconds(8))
        // The clock's first update counts no time (one 10 ms frame), and the pause adds 5 s.
        #expect(game == .seconds(13.01) || game == .seconds(13.02))
        #expect(gameTimeAtFire == .seconds(8))
        #expect(!onClock.isValid)
    }

    @Test("a time scale of 0.5 makes a 1 s game timer fire every 2 s of real time")
    func gameTimerFollowsTheTimeScale() {
        let (source, loop, clock) = makeGame()
        let fires = Recorder<FrameInstant>()
        FrameTimer(interval: .seconds(1), repeats: true) { _ in fires.append(loop.timestamp) }.add(to: clock)
        clock.timeScale = 0.5
        source.advance(to: .seconds(10))
        #expect(fires.values.count == 4)  // game time 4.995 s after 9.99 s of real time
        let gaps = zip(fires.values.dropFirst(), fires.values).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 == .seconds(2) })
    }

    @Test("single steps of a paused clock move its timers: a 25 ms timer fires on the third 10 ms step")
    func gameTimerFiresOnSingleSteps() {
        let (source, loop, clock) = makeGame()
        defer { withExtendedLifetime(loop) {} }  // the loop runs the link that updates the clock
        source.advance(frames: 1)
        clock.pause()
        var fired = 0
        FrameTimer(interval: .milliseconds(25), repeats: false) { _ in fired += 1 }.add(to: clock)
        source.advance(frames: 50)
        #expect(fired == 0)
        for expected in [0, 0, 1] {
            clock.step()
            source.advance(frames: 1)
            #expect(fired == expected)
        }
        #expect(clock.time == .milliseconds(30))
    }

    @Test("a game timer's own pause postpones a one-shot by the game time paused")
    func gameTimerOwnPause() {
        let (source, loop, clock) = makeGame()
        defer { withExtendedLifetime(loop) {} }  // the loop runs the link that updates the clock
        var firedAt: Duration?
        let timer = FrameTimer(interval: .seconds(1), repeats: false) { _ in firedAt = clock.time }
        timer.add(to: clock)
        source.advance(to: .seconds(0.51))  // game time 0.5 s
        timer.isPaused = true
        source.advance(to: .seconds(2.51))  // game time 2.5 s
        timer.isPaused = false
        #expect(timer.gameFireDate == GameInstant.zero + .seconds(3))
        source.advance(to: .seconds(5))
        #expect(firedAt == .seconds(3))
    }

    @Test("game timers end with their target, and invalidating one removes it from the clock")
    func gameTimerLifetime() {
        let (source, loop, clock) = makeGame()
        defer { withExtendedLifetime(loop) {} }  // the loop runs the link that updates the clock
        var owner: Owner? = Owner()
        let targeted = FrameTimer(target: owner!, interval: .milliseconds(100)) { owner, _ in owner.tick() }
        targeted.add(to: clock)
        var plainFires = 0
        let plain = FrameTimer(interval: .milliseconds(100), repeats: true) { _ in plainFires += 1 }
        plain.add(to: clock)
        source.advance(to: .seconds(0.45))  // game time 0.44 s
        #expect(owner?.ticks == 4)
        #expect(plainFires == 4)
        owner = nil
        plain.invalidate()
        source.advance(to: .seconds(1))
        #expect(!targeted.isValid)
        #expect(plainFires == 4)
    }

    @Test("an animator on game time freezes while the clock is paused, follows its time scale and steps")
    func animatorOnGameTime() {
        let (source, loop, clock) = makeGame()
        let onGameTime = Animator(loop: loop, gameClock: clock)
        let onLoopTime = Animator(loop: loop)
        let sprite = Sprite()
        let reference = Sprite()
        onGameTime.animate(sprite, \.x, with: Tween(from: 0.0, to: 100, duration: 1, curve: .linear))
        onLoopTime.animate(reference, \.x, with: Tween(from: 0.0, to: 100, duration: 1, curve: .linear))
        source.advance(frames: 30)
        #expect(clock.time == .milliseconds(290))
        #expect(abs(sprite.x - 29) < 1e-9)

        clock.pause()
        let frozen = sprite.x
        let referenceBefore = reference.x
        source.advance(frames: 40)
        #expect(sprite.x == frozen)
        #expect(reference.x > referenceBefore)  // the loop's time goes on

        clock.step()
        source.advance(frames: 1)
        #expect(abs(sprite.x - 30) < 1e-9)  // one 10 ms step
        source.advance(frames: 5)
        #expect(abs(sprite.x - 30) < 1e-9)

        clock.resume()
        clock.timeScale = 0.5
        source.advance(frames: 20)  // 200 ms of real time, 100 ms of game time
        #expect(clock.time == .milliseconds(400))
        #expect(abs(sprite.x - 40) < 1e-9)
        #expect(abs(onGameTime.currentTime - 0.4) < 1e-9)

        clock.timeScale = 1
        source.advance(frames: 100)
        #expect(sprite.x == 100)
        #expect(onGameTime.isIdle)
    }
}
