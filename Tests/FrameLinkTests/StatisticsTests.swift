import FrameLink
import Testing

@MainActor
@Suite("Frame statistics, blame and the frame log")
struct StatisticsTests {
    @Test("10,000 clean frames drop nothing")
    func cleanFrames() throws {
        let (source, loop) = makeLoop()
        DisplayLink { _ in }.add(to: loop, forMode: .common)
        source.advance(frames: 10_001)
        let stats = loop.statistics
        #expect(stats.frames == 10_000)
        #expect(stats.droppedFrames == 0 && stats.dropEvents == 0)
        #expect(stats.hitchTimeRatio == 0)
        #expect(abs(stats.meanFramesPerSecond - 60) < 1e-6)
        let p99 = stats.frameTime(atPercentile: 99).wholeNanoseconds
        #expect(abs(p99 - 16_666_667) <= 16_667)  // HdrHistogram: 3 significant digits
    }

    @Test(
        "a stall of known length drops an exact number of frames and is blamed on the stalling callback",
        arguments: [(10, 3), (17, 1), (50, 3), (100, 6), (1_000, 60)])
    func stallBlame(stallMilliseconds: Int, dropped: Int) throws {
        let (source, loop) = makeLoop()
        var frame = 0
        let physics = DisplayLink { _ in
            frame += 1
            if frame == 10 { source.simulateWork(for: .milliseconds(stallMilliseconds)) }
        }
        physics.label = "physics"
        physics.add(to: loop, forMode: .common)
        let other = DisplayLink { _ in }
        other.label = "sprites"
        other.add(to: loop, forMode: .common)
        var reported: [FrameDrop] = []
        loop.statistics.dropHandler = { reported.append($0) }
        source.advance(frames: 30)

        let expected = stallMilliseconds < 16 ? 0 : dropped
        #expect(loop.statistics.droppedFrames == expected)
        guard expected > 0 else { return }
        #expect(reported.count == 1)
        let drop = try #require(reported.first)
        #expect(drop.droppedFrames == dropped)
        #expect(drop.phase == .links)
        #expect(drop.culprit == "physics")
        #expect(drop.culpritDurationNanoseconds == Int64(stallMilliseconds) * 1_000_000)
        #expect(loop.statistics.longestHitch == .nanoseconds(drop.intervalNanoseconds - 16_666_667))
    }

    @Test("a slow timer, a slow event handler and a slow render handler are named as such")
    func blamePhases() throws {
        let (source, loop) = makeLoop()
        DisplayLink { _ in }.add(to: loop, forMode: .common)
        let autosave = FrameTimer(interval: .milliseconds(500), repeats: false) { _ in
            source.simulateWork(for: .milliseconds(40))
        }
        autosave.label = "autosave"
        autosave.add(to: loop, forMode: .common)
        var frame = 0
        loop.eventHandler = { _ in
            frame += 1
            if frame == 60 { source.simulateWork(for: .milliseconds(30)) }
        }
        loop.renderHandler = { _ in
            if frame == 90 { source.simulateWork(for: .milliseconds(70)) }
        }
        source.advance(to: .seconds(3))
        let drops = loop.statistics.drops
        #expect(drops.map(\.phase) == [.timers, .events, .render])
        #expect(drops.map(\.culprit) == ["autosave", "event handler", "render handler"])
    }

    @Test("a gap of seconds is one hitch event with its dropped count, and the delta handed to game logic is clamped")
    func timeAnomaly() throws {
        let (source, loop) = makeLoop()
        let deltas = Recorder<Duration>()
        DisplayLink { link in deltas.append(link.deltaTime) }.add(to: loop, forMode: .common)
        var timerFires = 0
        let timer = FrameTimer(interval: .milliseconds(100), repeats: true) { _ in timerFires += 1 }
        timer.add(to: loop, forMode: .common)
        source.advance(frames: 6)  // to 0.1 s
        #expect(timerFires == 1)
        source.advance(by: .seconds(5))  // the process was stopped in a debugger
        source.advance(frames: 1)
        #expect(loop.statistics.dropEvents == 1)
        #expect(loop.statistics.droppedFrames == 299)
        #expect(timerFires == 2, "50 missed fires coalesce into one")
        #expect(deltas.values.first == .nanoseconds(16_666_667))
        #expect(deltas.values[6] == .milliseconds(250), "clamped by maximumFrameDelta")
        #expect(deltas.values[7] == .nanoseconds(16_666_666))
        loop.maximumFrameDelta = .seconds(10)
        source.advance(by: .seconds(2))
        #expect(deltas.values.last == .seconds(2))
    }

    @Test("a wake-up long after the frame boundary is named as a gap in which the process did not run, not a phase")
    func gapsAreNamed() throws {
        let (source, loop) = makeLoop()
        let period: Int64 = 16_666_667
        DisplayLink { _ in }.add(to: loop, forMode: .common)
        source.advance(frames: 10)
        source.advance(by: .seconds(3))  // stopped (SIGSTOP, a debugger) while waiting for the frame
        let drop = try #require(loop.statistics.drops.last)
        #expect(drop.isGap)
        #expect(
            drop.gapDurationNanoseconds == 3_000_000_000 - period, "woke that long after the boundary it waited for")
        #expect(
            drop.description
                == "frame 11: 3000.0 ms, 179 dropped — a gap: the process did not run for 2983.3 ms "
                + "(stopped, suspended or starved of CPU)")
        let report = loop.statistics.report
        #expect(report.drops.last?.gapMilliseconds == Double(3_000_000_000 - period) / 1e6)
        #expect(
            report.summary.contains("frame 11: 3000.00 ms, 179 dropped — gap: the process did not run for 2983.33 ms"))
        // Late by two periods or less: a slow wake-up or a deep swap chain, not a gap.
        source.advance(frames: 1)
        source.advance(by: .nanoseconds(3 * period))
        #expect(loop.statistics.drops.last?.frameIndex == 13)
        #expect(loop.statistics.drops.last?.isGap == false)
    }

    @Test("a callback that runs for seconds is blamed, not called a gap")
    func slowWorkIsNotAGap() throws {
        let (source, loop) = makeLoop()
        var frame = 0
        let link = DisplayLink { _ in
            frame += 1
            if frame == 5 { source.simulateWork(for: .seconds(3)) }
        }
        link.label = "level load"
        link.add(to: loop, forMode: .common)
        source.advance(frames: 8)
        let drop = try #require(loop.statistics.drops.last)
        #expect(!drop.isGap && drop.phase == .links && drop.culprit == "level load")
        #expect(drop.description.contains("links took 3000.0 ms, slowest: level load"))
    }

    @Test("hitch-time ratio and percentiles follow the definitions")
    func ratios() throws {
        let (source, loop) = makeLoop(rate: FrameRate(numerator: 100))
        DisplayLink { _ in }.add(to: loop, forMode: .common)
        source.advance(frames: 1)
        source.advance(frames: 97)  // 97 intervals of 10 ms
        source.advance(by: .milliseconds(30))  // drops 2, hitch 20 ms
        source.advance(by: .milliseconds(14))  // 1.4 P: no drop
        #expect(loop.statistics.frames == 99)
        #expect(loop.statistics.droppedFrames == 2 && loop.statistics.dropEvents == 1)
        #expect(loop.statistics.elapsed == .milliseconds(1_014))
        #expect(abs(loop.statistics.hitchTimeRatio - 20 / 1.014) < 1e-9)
        let median = loop.statistics.frameTime(atPercentile: 50).wholeNanoseconds
        #expect(abs(median - 10_000_000) <= 10_000)  // 3 significant digits
        #expect(loop.statistics.longestFrameTime == .milliseconds(30))
        let recent = loop.statistics.recentFrameTimes
        #expect(recent.count == 99 && recent.suffix(2) == [.milliseconds(30), .milliseconds(14)])
    }

    @Test(
        "a recorded frame log exports as CSV and JSON lines, reads back, and its replay gives identical statistics",
        arguments: [false, true])
    func recordAndReplay(idleGaps: Bool) throws {
        let (source, loop) = makeLoop()
        loop.frameLog = FrameLog(periodNanoseconds: loop.refreshRate.periodNanoseconds)
        var frame = 0
        let link = DisplayLink { _ in
            frame += 1
            if frame % 50 == 0 { source.simulateWork(for: .milliseconds(Int64(frame % 7 * 9 + 5))) }
        }
        link.add(to: loop, forMode: .common)
        source.advance(frames: 400)
        if idleGaps {
            // Idle stretches (no active link: nothing is booked) leave gaps between the records;
            // a replay must not book them as long frames.
            for length in [30, 1, 200] {
                link.isPaused = true
                source.advance(frames: length)
                link.isPaused = false
                source.advance(frames: 20)
            }
        }
        source.advance(by: .milliseconds(120))
        source.advance(frames: 100)
        let original = loop.statistics.report
        #expect(original.droppedFrames > 0)

        let log = try #require(loop.frameLog)
        #expect(log.records.count == original.frames)
        let csv = log.csv
        #expect(csv.contains("\n" + FrameLog.csvHeader + "\n"))
        #expect(log.jsonLines.split(separator: "\n").count == log.records.count + 1)  // a header, then the frames
        let parsed = try FrameLog(csv: csv)
        #expect(parsed.records == log.records)
        #expect(parsed.periodNanoseconds == log.periodNanoseconds)

        let replay = try ManualFrameSource(replaying: parsed)
        let replayLoop = FrameLoop(source: replay)
        DisplayLink { _ in }.add(to: replayLoop, forMode: .common)
        replay.advance(frames: replay.replayFrameCount)
        var replayed = replayLoop.statistics.report
        #expect(replayed.pacing.hasPrefix("replay of a recorded frame log"))
        // Everything but blame (the replaying loop has other callbacks) and pacing is identical.
        replayed.pacing = original.pacing
        var originalWithoutBlame = original
        for index in originalWithoutBlame.drops.indices {
            originalWithoutBlame.drops[index].culprit = replayed.drops[index].culprit
            originalWithoutBlame.drops[index].culpritMilliseconds = replayed.drops[index].culpritMilliseconds
            originalWithoutBlame.drops[index].phase = replayed.drops[index].phase
            originalWithoutBlame.drops[index].phaseMilliseconds = replayed.drops[index].phaseMilliseconds
            originalWithoutBlame.drops[index].gapMilliseconds = replayed.drops[index].gapMilliseconds
            // After an idle gap the replay's frame numbers count its own frames (one per gap).
            if idleGaps { originalWithoutBlame.drops[index].frame = replayed.drops[index].frame }
        }
        #expect(replayed == originalWithoutBlame)
    }

    @Test("idle sleeps are not frames: a loop with only timers records no intervals")
    func idleIsNotAFrame() throws {
        let (source, loop) = makeLoop()
        let timer = FrameTimer(interval: .seconds(1), repeats: true) { _ in }
        timer.add(to: loop, forMode: .default)
        let link = DisplayLink { _ in }
        link.isPaused = true
        link.add(to: loop, forMode: .default)
        source.advance(frames: 10)
        #expect(loop.statistics.frames == 0)
        link.isPaused = false
        source.advance(frames: 10)
        #expect(loop.statistics.frames == 9)
        #expect(loop.statistics.droppedFrames == 0)
    }

    @Test("the report carries the pacing description and prints a summary")
    func report() throws {
        let (source, loop) = makeLoop()
        DisplayLink { _ in }.add(to: loop, forMode: .common)
        source.advance(frames: 3)
        #expect(loop.statistics.report.pacing == "virtual time at 60 Hz")
        #expect(loop.statistics.summary.contains("2 frames, 0 dropped in 0 events"))
    }
}
