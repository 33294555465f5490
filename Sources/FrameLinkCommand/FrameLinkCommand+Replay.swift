import ArgumentParser
import Foundation
import FrameLink

extension FrameLinkCommand {
    /// Replays a log on virtual time and checks its statistics.
    struct Replay: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replay the log on virtual time and check the statistics match the recording.")
        @OptionGroup var log: LogOptions

        func run() throws {
            try MainActor.assumeIsolated {
                let frameLog = try log.read()
                let statistics = try replay(frameLog).statistics
                let recordedDrops = frameLog.records.reduce(0) { $0 + $1.droppedFrames }
                let longest = frameLog.records.map(\.intervalNanoseconds).max() ?? 0
                let checks: [(String, String, String)] = [
                    ("frames", "\(frameLog.records.count)", "\(statistics.frames)"),
                    ("dropped frames", "\(recordedDrops)", "\(statistics.droppedFrames)"),
                    ("longest interval (ns)", "\(longest)", "\(statistics.longestFrameTime.wholeNanoseconds)"),
                ]
                var matches = true
                for (name, recorded, replayed) in checks {
                    let same = recorded == replayed
                    matches = matches && same
                    print("\(name): recorded \(recorded), replayed \(replayed)\(same ? "" : "  MISMATCH")")
                }
                let blame = Self.compareBlame(recorded: frameLog.dropEvents, replayed: statistics.drops)
                matches = matches && blame.matches
                print(blame.line)
                print(statistics.summary)
                guard matches else { throw CommandError("the replay does not match the recording") }
                print("replay matches the recording")
            }
        }

        /// Compares the recording's drop events (blamed from its columns) with those the replaying
        /// loop booked, by timestamp: the same intervals, drops, phase and gap.
        static func compareBlame(recorded: [FrameDrop], replayed: [FrameDrop]) -> (matches: Bool, line: String) {
            func blame(_ drop: FrameDrop) -> String {
                drop.isGap
                    ? "a gap of \(drop.gapDurationNanoseconds) ns" : "\(drop.phase) \(drop.phaseDurationNanoseconds) ns"
            }
            let gaps = recorded.filter(\.isGap).count
            let summary = "drop blame: recorded \(recorded.count) events (\(gaps) gaps), replayed \(replayed.count)"
            guard recorded.count == replayed.count else { return (false, summary + "  MISMATCH") }
            for (mine, theirs) in zip(recorded, replayed)
            where mine.timestamp != theirs.timestamp || mine.droppedFrames != theirs.droppedFrames
                || mine.isGap != theirs.isGap || mine.phase != theirs.phase || mine.gapDuration != theirs.gapDuration
            {
                return (
                    false,
                    summary + "  MISMATCH at \(mine.timestamp) ns: recorded \(mine.droppedFrames) dropped, "
                        + "\(blame(mine)); replayed \(theirs.droppedFrames) dropped at \(theirs.timestamp) ns, \(blame(theirs))"
                )
            }
            return (true, summary + ", the same")
        }
    }
}
