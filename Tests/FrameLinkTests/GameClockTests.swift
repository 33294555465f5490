import FrameLink
import Testing

@MainActor
@Suite("Game time: fixed step, time scale, pause, resync")
struct GameClockTests {
    @Test("steps and alphas are exact for a known sequence of frame deltas")
    func exactSteps() throws {
        let clock = GameClock(fixedStep: .milliseconds(10))
        var time: Int64 = 0
        var results: [(Int, Double)] = []
        for delta in [0, 16, 16, 16, 4, 30, 9, 1] {  // milliseconds
            time += Int64(delta) * 1_000_000
            let frame = clock.update(at: FrameInstant(nanoseconds: time))
            results.append((frame.steps, frame.alpha))
        }
        #expect(results.map(\.0) == [0, 1, 2, 1, 1, 3, 1, 0])
        let alphas = results.map { ($0.1 * 10).rounded() / 10 }
        #expect(alphas == [0, 0.6, 0.2, 0.8, 0.2, 0.2, 0.1, 0.2])
        #expect(clock.time == .milliseconds(92))
    }

    @Test("the spiral-of-death cap holds: a huge frame runs at most the cap and drops the rest")
    func spiralCap() throws {
        let clock = GameClock(fixedStep: .milliseconds(10), maximumStepsPerFrame: 4, maximumDelta: .seconds(1))
        _ = clock.update(at: .zero)
        let frame = clock.update(at: FrameInstant(nanoseconds: 500_000_000))
        #expect(frame.steps == 4)
        #expect(frame.droppedTime == .milliseconds(460))
        #expect(frame.delta == .milliseconds(40))
        #expect(frame.alpha == 0)
        #expect(clock.time == .milliseconds(40))
    }

    @Test("by default the step cap follows the delta cap: a hitch up to it loses no game time")
    func capFollowsMaximumDelta() throws {
        #expect(GameClock().maximumStepsPerFrame == 15)  // 250 ms of 16.67 ms steps, rounded up
        let step: Int64 = 8_333_333
        #expect(GameClock(fixedStep: .nanoseconds(step)).maximumStepsPerFrame == 31)  // 30.0000012 up

        // 120 Hz steps: a smooth run, and one that stalls for 24 frames (200 ms) after frame 50. At
        // every timestamp both runs have, they have the same game time, and the stall drops none.
        let smooth = GameClock(fixedStep: .nanoseconds(step))
        var smoothTimes: [Int64: Duration] = [:]
        for frame in Int64(0)...150 {
            _ = smooth.update(at: FrameInstant(nanoseconds: frame * step))
            smoothTimes[frame * step] = smooth.time
        }
        let stalled = GameClock(fixedStep: .nanoseconds(step))
        for frame in Int64(0)...126 {
            let time = (frame <= 50 ? frame : frame + 24) * step
            let result = stalled.update(at: FrameInstant(nanoseconds: time))
            #expect(result.droppedTime == .zero, "frame \(frame)")
            let smoothTime = try #require(smoothTimes[time], "the smooth run has a frame at \(time) ns")
            #expect(stalled.time == smoothTime, "game time at \(time) ns")
        }
        // Both end at the same timestamp (frame 150 of the smooth run) with the same game time.
        #expect(stalled.time == smooth.time && smooth.time == .nanoseconds(150 * step))

        // An explicit cap still holds: 5 steps per frame drops what the stall has beyond them.
        let capped = GameClock(fixedStep: .nanoseconds(step), maximumStepsPerFrame: 5)
        var dropped = Duration.zero
        for frame in Int64(0)...126 {
            let time = (frame <= 50 ? frame : frame + 24) * step
            dropped += capped.update(at: FrameInstant(nanoseconds: time)).droppedTime
        }
        #expect(dropped == .nanoseconds(20 * step))
    }

    @Test("time scale 0.5 halves game time; 0 freezes it; real time is unaffected")
    func timeScale() throws {
        let clock = GameClock(fixedStep: .milliseconds(10))
        clock.timeScale = 0.5
        var steps = 0
        for index in 0...100 {
            steps += clock.update(at: FrameInstant(nanoseconds: Int64(index) * 10_000_000)).steps
        }
        #expect(clock.time == .milliseconds(500))
        #expect(steps == 50)
        clock.timeScale = 0
        let frame = clock.update(at: FrameInstant(nanoseconds: 1_010_000_000))
        #expect(frame.steps == 0 && frame.realDelta == .milliseconds(10) && clock.time == .milliseconds(500))
    }

    @Test("pause stops game time; step() runs exactly one step per call while paused; resume does not replay")
    func pauseAndStep() throws {
        let clock = GameClock(fixedStep: .milliseconds(10))
        _ = clock.update(at: .zero)
        clock.pause()
        #expect(clock.update(at: FrameInstant(nanoseconds: 100_000_000)).steps == 0)
        clock.step()
        #expect(clock.update(at: FrameInstant(nanoseconds: 110_000_000)).steps == 1)
        #expect(clock.update(at: FrameInstant(nanoseconds: 120_000_000)).steps == 0)
        clock.resume()
        #expect(clock.update(at: FrameInstant(nanoseconds: 130_000_000)).steps == 1)
        #expect(clock.time == .milliseconds(20))
    }

    @Test("resync after a long load: the next frame counts no time, nothing catches up, and the loop reports no hitch")
    func resync() throws {
        let (source, loop) = makeLoop()
        let clock = GameClock()
        var stepsPerFrame: [Int] = []
        DisplayLink { link in stepsPerFrame.append(clock.update(at: link.timestamp).steps) }
            .add(to: loop, forMode: .common)
        source.advance(frames: 10)
        loop.resync()
        clock.resync()
        source.advance(by: .seconds(3))  // the level loaded for 3 s
        source.advance(frames: 2)
        #expect(loop.statistics.droppedFrames == 0 && loop.statistics.dropEvents == 0)
        #expect(stepsPerFrame.suffix(3) == [0, 1, 1])
    }
}
