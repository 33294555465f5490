import Foundation
@_spi(FrameSourceImplementation) import FrameLink
import Testing

@testable import FrameLinkCommand

/// Blame in a recorded log is the live loop's: `framelink summary` and `replay` read the phase
/// columns, call a drop a gap only when no phase accounts for the time, and replay says MISMATCH
/// when the loop it replays on blames otherwise.
@Suite("Blame in frame logs: the live loop's rule, from the phase columns")
struct FrameLogBlameTests {
    /// A 600-frame 60 Hz log whose display link stalls for 50 ms at four frames, and (if asked)
    /// whose process does not run for 300 ms once, during a frame wait.
    @MainActor
    static func stalledLog(withGap: Bool) -> (log: FrameLog, live: [FrameDrop]) {
        let source = ManualFrameSource(refreshRate: .hz60)
        let loop = FrameLoop(source: source)
        loop.frameLog = FrameLog(periodNanoseconds: loop.refreshRate.periodNanoseconds)
        let stalls: Set<Int64> = [100, 250, 400, 550]
        let link = DisplayLink { link in
            source.simulateWork(for: .milliseconds(2))
            if stalls.contains(link.frameIndex) { source.simulateWork(for: .milliseconds(50)) }
        }
        link.label = "injected stall"
        link.add(to: loop, forMode: .common)
        if withGap {
            source.advance(frames: 300)
            // The process stopped in the wait: the next frame comes 300 ms late, with no work.
            source.advance(by: .milliseconds(300))
            source.advance(frames: 299)
        } else {
            source.advance(frames: 600)
        }
        return (loop.frameLog ?? FrameLog(), loop.statistics.drops)
    }

    @MainActor
    @Test("stalls in a link are blamed on the links phase from the log, as the live loop blamed them")
    func stallsAreBlamedOnLinks() {
        let (log, live) = Self.stalledLog(withGap: false)
        #expect(live.count == 4)
        #expect(live.allSatisfy { !$0.isGap && $0.phase == .links && $0.culprit == "injected stall" })
        let recorded = log.dropEvents
        #expect(recorded.map(\.timestamp) == live.map(\.timestamp))
        #expect(recorded.map(\.droppedFrames) == live.map(\.droppedFrames))
        #expect(recorded.allSatisfy { !$0.isGap && $0.phase == .links && $0.phaseDurationNanoseconds >= 50_000_000 })
    }

    @MainActor
    @Test("a wait that ends long after its boundary, with no work to account for it, is a gap in the log too")
    func gapIsAGapInTheLog() {
        let (log, live) = Self.stalledLog(withGap: true)
        #expect(live.filter(\.isGap).count == 1)
        let recorded = log.dropEvents
        #expect(recorded.map(\.timestamp) == live.map(\.timestamp))
        #expect(recorded.map(\.isGap) == live.map(\.isGap))
        #expect(recorded.map(\.gapDuration) == live.map(\.gapDuration))
        #expect(recorded.filter { !$0.isGap }.allSatisfy { $0.phase == .links })
    }

    @MainActor
    @Test("framelink summary and replay blame the stalls on links and say the replay matches")
    func commandsBlameTheLinks() throws {
        let (log, _) = Self.stalledLog(withGap: false)
        let path = FrameLinkCommandTests.temporaryPath("stalls.csv")
        try log.write(toFile: path, format: .csv)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let summary = try FrameLinkCommandTests.run(["summary", path])
        #expect(summary.status == 0)
        #expect(!summary.output.contains("gap"), "\(summary.output)")
        #expect(summary.output.components(separatedBy: "dropped — links 5").count - 1 == 4, "\(summary.output)")

        let replay = try FrameLinkCommandTests.run(["replay", path])
        #expect(replay.status == 0, "\(replay.output)\(replay.error)")
        #expect(replay.output.contains("drop blame: recorded 4 events (0 gaps), replayed 4, the same"))
        #expect(replay.output.contains("replay matches the recording"))
    }

    @MainActor
    @Test("framelink summary names the gap and replay matches it")
    func commandsNameTheGap() throws {
        let (log, _) = Self.stalledLog(withGap: true)
        let path = FrameLinkCommandTests.temporaryPath("gap.jsonl")
        try log.write(toFile: path, format: .jsonLines)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let summary = try FrameLinkCommandTests.run(["summary", path])
        #expect(summary.output.contains("gap: the process did not run for"), "\(summary.output)")
        let replay = try FrameLinkCommandTests.run(["replay", path])
        #expect(replay.status == 0)
        #expect(replay.output.contains("(1 gaps)"), "\(replay.output)")
        #expect(replay.output.contains("replay matches the recording"))
    }

    @MainActor
    @Test(
        "on PresentSource (deadline pacing, and vsync with three buffers) the log blames every drop as the live loop did",
        arguments: [DisplayLab.Refresh.none, .fixed(.hz60, phase: .milliseconds(3))])
    func presentSourceBlameMatchesTheLog(refresh: DisplayLab.Refresh) {
        let lab = DisplayLab(refresh: refresh, buffers: 3, jitter: .uniform(upTo: .microseconds(300)))
        let source = lab.makeSource()
        var presents = 0
        source.present = {
            lab.present()
            presents += 1
            // Every 150th present takes 200 ms (a compositor stall).
            if presents % 150 == 0 { lab.work(for: .milliseconds(200)) }
        }
        let loop = FrameLoop(source: source)
        loop.frameLog = FrameLog(periodNanoseconds: loop.refreshRate.periodNanoseconds)
        DisplayLink { link in
            lab.work(for: .milliseconds(link.frameIndex % 97 == 0 ? 45 : 4))
        }.add(to: loop, forMode: .common)
        loop.run(frames: 600)
        let live = loop.statistics.drops
        let recorded = loop.frameLog?.dropEvents ?? []
        #expect(live.count > 4)
        #expect(recorded.map(\.timestamp) == live.map(\.timestamp))
        #expect(recorded.map(\.gapDuration) == live.map(\.gapDuration))
        #expect(recorded.map(\.phase) == live.map(\.phase))
    }

    @Test("replay says MISMATCH when the loop blames a drop otherwise than the recording")
    func mismatchedBlameIsReported() {
        let drop = FrameDrop(
            frameIndex: 5, timestamp: 83_333_335, interval: 66_666_668, droppedFrames: 3, phase: .links,
            phaseDuration: 50_000_000, culprit: nil, culpritDuration: 0)
        var gap = drop
        gap.gapDurationNanoseconds = 50_000_000
        var later = drop
        later.timestampNanoseconds += 1
        #expect(compareBlame([drop], [drop]).matches)
        #expect(!compareBlame([drop], [gap]).matches)
        #expect(compareBlame([drop], [gap]).line.contains("MISMATCH"))
        #expect(!compareBlame([drop], [later]).matches)
        #expect(!compareBlame([drop], []).matches)
    }

    func compareBlame(_ recorded: [FrameDrop], _ replayed: [FrameDrop]) -> (matches: Bool, line: String) {
        FrameLinkCommand.Replay.compareBlame(recorded: recorded, replayed: replayed)
    }
}
