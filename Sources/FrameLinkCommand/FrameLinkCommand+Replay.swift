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
                let longest = frameLog.records.map(\.interval).max() ?? 0
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
                print(statistics.summary)
                guard matches else { throw CommandError("the replay does not match the recording") }
                print("replay matches the recording")
            }
        }
    }
}
