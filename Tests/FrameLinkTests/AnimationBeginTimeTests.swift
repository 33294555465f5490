import FrameLink
import Testing

/// Begin times: an animation can begin at an explicit animator time, in the past or in the future,
/// so an effect started by a physics step inside a long frame is where a smooth run would have it.
@MainActor
@Suite("Animation: begin times")
struct AnimationBeginTimeTests {
    /// One run of a small game on a 60 Hz virtual display: a 10 ms fixed-step simulation whose 37th
    /// step (game time 0.37 s) sets off an effect; returns the effect's value at each frame's
    /// timestamp. With `stall`, the frame that covers 0.30…0.50 s is one long frame.
    func run(stall: Bool, beginsAtTheStep: Bool) -> [FrameInstant: Double] {
        let (source, loop) = makeLoop()
        let clock = GameClock(fixedStep: .milliseconds(10))
        let effects = Animator(loop: loop, gameClock: clock)
        var steps = 0
        var effect = 0.0
        var shown: [FrameInstant: Double] = [:]
        DisplayLink { link in
            let frame = clock.update(at: link.targetTimestamp)
            for stepTime in frame.stepTimes {
                steps += 1
                guard steps == 37 else { continue }  // a collision at game time 0.37 s
                #expect(stepTime == GameInstant.zero + .milliseconds(370), "the step's own game time")
                // The step's time as the animator's: no arithmetic with alpha or the step count.
                let timing = beginsAtTheStep ? AnimationTiming(beginTime: effects.time(at: stepTime)) : .default
                effects.add(Tween(from: 0.0, to: 100, duration: 0.5, curve: .easeOut), timing: timing) { effect = $0 }
            }
        }.add(to: loop, forMode: .common)
        DisplayLink(phase: .render) { link in shown[link.timestamp] = effect }.add(to: loop, forMode: .common)
        if stall {
            source.advance(to: .seconds(0.3))
            source.advance(by: .milliseconds(200))  // one long frame: about 20 steps in one go
        }
        source.advance(to: .seconds(1.2))
        return shown
    }

    @Test("a stalled run and a smooth run show the same effect at shared timestamps when it begins at its step")
    func stalledMatchesSmooth() {
        let smooth = run(stall: false, beginsAtTheStep: true)
        let stalled = run(stall: true, beginsAtTheStep: true)
        let shared = Set(smooth.keys).intersection(stalled.keys).filter { $0 > .seconds(0.5) }
        #expect(shared.count > 35)
        for timestamp in shared.sorted() {
            #expect(smooth[timestamp] == stalled[timestamp], "at \(timestamp)")
        }
        #expect(shared.contains { (smooth[$0] ?? 0) > 0 && (smooth[$0] ?? 100) < 100 }, "the effect was running")
    }

    @Test("without a begin time the stalled run's effect starts late and differs")
    func withoutBeginTimeItDiffers() {
        let smooth = run(stall: false, beginsAtTheStep: false)
        let stalled = run(stall: true, beginsAtTheStep: false)
        let shared = Set(smooth.keys).intersection(stalled.keys).filter { $0 > .seconds(0.5) && $0 < .seconds(0.8) }
        #expect(shared.contains { smooth[$0] != stalled[$0] })
    }

    @Test("a begin time in the future waits as a delay does")
    func futureBeginTime() {
        let (source, loop) = makeLoop()
        let animator = Animator(loop: loop)
        source.advance(frames: 10)
        var byBegin: [Double] = []
        var byDelay: [Double] = []
        let tween = Tween(from: 0.0, to: 1, duration: 0.5, curve: .linear)
        animator.add(tween, timing: AnimationTiming(beginTime: animator.currentTime + 0.25)) { byBegin.append($0) }
        animator.add(tween, timing: AnimationTiming(delay: 0.25)) { byDelay.append($0) }
        source.advance(frames: 60)
        #expect(byBegin == byDelay)
        #expect(byBegin.first == 0)
        #expect(byBegin.last == 1)
    }
}
