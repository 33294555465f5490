import FrameLink
import LabPlotKit
import Testing

/// Scenario runs on the display lab's virtual time: the ground truth each frame is matched to, the
/// errors after the lock, and the events the plot marks.
@MainActor
@Suite("Scenario runs: frames matched to the lab's ground truth")
struct ScenarioRunTests {
    @Test("at 60 Hz with 0.3 ms of jitter, timestamps are within 50 µs of the true vsync once phase-locked")
    func lockedErrors() throws {
        for seed: UInt64 in [1, 2, 3] {
            let scenario = try PlotScenario(jitter: .microseconds(300), frames: 600, seed: seed)
            let run = try ScenarioRun(scenario)
            let locked = try #require(run.firstLockedFrame, "seed \(seed)")
            #expect(locked.index <= 140, "seed \(seed): phase-locked at frame \(locked.index)")
            let errors = try #require(run.lockedTimestampErrors)
            #expect(errors.count >= 450)
            #expect(errors.maximum < 50_000, "seed \(seed): \(errors)")
            #expect(errors.median < 10_000, "seed \(seed): \(errors)")
            // The raw returns are off by the jitter itself: the estimate is far better.
            let returns = try #require(run.lockedReturnDelays)
            #expect(returns.median > 100_000 && returns.maximum <= 300_000, "seed \(seed): \(returns)")
        }
    }

    @Test(
        "once phase-locked, timestamps stay within 50 µs of the true vsync: 20 seeds at 0.3 and 1 ms of jitter",
        arguments: [300, 1_000])
    func lockedErrorsOverSeeds(jitterMicroseconds: Int) throws {
        var worst: Int64 = 0
        var locks: [Int64] = []
        for seed: UInt64 in 1...20 {
            let scenario = try PlotScenario(
                jitter: .microseconds(jitterMicroseconds), frames: 700, seed: seed)
            let run = try ScenarioRun(scenario)
            let locked = try #require(run.firstLockedFrame, "seed \(seed) never locked")
            locks.append(locked.index)
            worst = max(worst, try #require(run.lockedTimestampErrors).maximum)
        }
        #expect(worst < 50_000, "worst error while locked: \(worst) ns")
        // The lock waits for a precise fit: later with more jitter (16 × mean delay / n ≤ 20 µs).
        let latest = locks.max() ?? 0
        #expect(latest <= (jitterMicroseconds == 300 ? 140 : 450), "latest lock at frame \(latest)")
    }

    @Test("every frame is matched: a present that waited returned within the jitter after its true vsync")
    func matching() throws {
        let run = try ScenarioRun(try PlotScenario(jitter: .microseconds(700), frames: 300))
        #expect(run.samples.count == 300)
        #expect(run.samples.map(\.index) == Array(1...300))
        let delays = run.samples.compactMap(\.returnDelay)
        #expect(delays.count >= 295)
        #expect(delays.allSatisfy { (0...700_000).contains($0) })
        // Before the grid is used, a timestamp is the raw return: its error is the return's delay.
        let first = try #require(run.samples.first { $0.index == 10 })
        #expect(first.timestampError == first.returnDelay)
        #expect(run.droppedFrames == run.missedRefreshes)
    }

    @Test("the same seed gives the same run and the same chart")
    func determinism() throws {
        let scenario = try PlotScenario(jitter: .microseconds(500), frames: 200, seed: 42)
        let first = try ScenarioRun(scenario)
        let second = try ScenarioRun(scenario)
        #expect(first.samples == second.samples)
        #expect(VsyncChart(run: first).svg() == VsyncChart(run: second).svg())
    }

    @Test("a move mid-run is an event at its frame, and the grid locks again on the new display")
    func move() throws {
        let rate = FrameRate(numerator: 144)
        let scenario = try PlotScenario(
            refreshRate: rate, jitter: .microseconds(300), work: .milliseconds(2), frames: 900,
            move: DisplayMove(frame: 450, refreshRate: .hz60))
        let run = try ScenarioRun(scenario)
        let moveFrame = try #require(run.samples.first { $0.index == 450 })
        #expect(run.events.contains(.moved(frame: 450, at: moveFrame.timestamp, rate: .hz60)))
        let lockedAgain = run.events.contains { event in
            if case .phaseLocked(let frame, _, let isFirst) = event { return !isFirst && frame > 450 }
            return false
        }
        #expect(lockedAgain, "\(run.events)")
        #expect(run.vsyncRelocks >= 1)
        let measured = try #require(run.measuredRefreshRate)
        #expect(abs(measured.framesPerSecond - 60) < 0.01)
        let svg = VsyncChart(run: run).svg()
        #expect(svg.contains("class=\"move-marker\""))
        #expect(svg.contains("moved to 60 Hz, frame 450"))
    }

    @Test("a hidden window is an event spanning its frames, and its presents are not plotted as returns")
    func hide() throws {
        let run = try ScenarioRun(try PlotScenario(jitter: .microseconds(300), frames: 400, hiddenFrames: 200...300))
        let from = try #require(run.samples.first { $0.index == 200 })
        let to = try #require(run.samples.first { $0.index == 300 })
        #expect(run.events.contains(.hidden(frames: 200...300, from: from.timestamp, to: to.timestamp)))
        #expect(run.samples.filter { (202...300).contains($0.index) }.allSatisfy { $0.returnDelay == nil })
        #expect(VsyncChart(run: run).svg().contains("hidden, frames 200–300"))
    }
}
