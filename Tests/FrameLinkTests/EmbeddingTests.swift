import FrameLink
import Testing

/// A game that keeps its own `while` loop and calls `runFrame()` gets exactly what `run(until:)`
/// gives.
@MainActor
@Suite("Embedding in a game's own loop")
struct EmbeddingTests {
    /// A small scene: a link, two timers (one in .default), a mode switch, a stall and a pause.
    func makeScene(on loop: FrameLoop, source: ManualFrameSource, log: Recorder<String>) throws -> [AnyObject] {
        let link = DisplayLink { link in
            log.append("link \(link.frameIndex) \(link.timestamp.nanoseconds)")
            if link.frameIndex == 100 { source.simulateWork(for: .milliseconds(40)) }
            if link.frameIndex == 200 { loop.currentMode = .tracking }
            if link.frameIndex == 260 { loop.currentMode = .default }
        }
        link.label = "scene"
        link.add(to: loop, forMode: .common)
        let half = DisplayLink { link in log.append("half \(link.frameIndex)") }
        half.preferredFrameRate = .hz30
        half.add(to: loop, forMode: .default)
        let clock = FrameTimer(interval: .milliseconds(250), repeats: true) { timer in
            log.append("clock \(loop.timestamp.nanoseconds) \(timer.fireDate.nanoseconds)")
        }
        clock.add(to: loop, forMode: .default)
        let autosave = FrameTimer(interval: .seconds(2), repeats: true, repeatCount: 3) { _ in
            log.append("autosave \(loop.timestamp.nanoseconds)")
        }
        autosave.add(to: loop, forMode: .common)
        return [link, half, clock, autosave]
    }

    @Test("600 calls of runFrame() see the same link and timer firings, and statistics, as run(until:)")
    func sameAsRun() throws {
        let ownSource = ManualFrameSource()
        let ownLoop = FrameLoop(source: ownSource)
        let ownLog = Recorder<String>()
        let keepOwn = try makeScene(on: ownLoop, source: ownSource, log: ownLog)

        let runSource = ManualFrameSource()
        let runLoop = FrameLoop(source: runSource)
        let runLog = Recorder<String>()
        let keepRun = try makeScene(on: runLoop, source: runSource, log: runLog)

        // The game's own loop.
        var frames = 0
        while frames < 600 {
            ownLoop.runFrame()
            frames += 1
        }
        runLoop.run(until: ownSource.now)

        #expect(ownLog.values.count > 600)
        #expect(ownLog.values == runLog.values)
        #expect(ownLoop.statistics.report == runLoop.statistics.report)
        #expect(ownLoop.statistics.droppedFrames == 2)
        #expect(ownLoop.statistics.drops.first?.culprit == "scene")
        _ = (keepOwn, keepRun)
    }
}
