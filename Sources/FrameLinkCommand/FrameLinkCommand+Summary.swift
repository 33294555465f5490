import ArgumentParser
import Foundation
import FrameLink

extension FrameLinkCommand {
    /// Prints a log's statistics.
    struct Summary: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the log's statistics: drops, hitches, percentiles.")
        @OptionGroup var log: LogOptions

        /// Nanoseconds as milliseconds with two decimals.
        static func milliseconds(_ nanoseconds: Double) -> String {
            String(format: "%.2f", nanoseconds / 1e6)
        }

        /// Where the log's shown times came from: presentation feedback for how many frames, and how
        /// long their presents took to reach the screen (version 3 logs), or that none reported it.
        static func shownTimes(of records: [FrameRecord]) -> String {
            let shown = records.compactMap { record in
                record.shownAt.map {
                    Double($0.nanoseconds)
                        - Double(
                            record.timestampNanoseconds - record.phases[nanoseconds: .presentWait]
                                - record.phases[nanoseconds: .present])
                }
            }
            guard !shown.isEmpty else {
                return
                    "shown times: none reported (no presentation feedback in this log): the timestamps are the pacer's"
            }
            let mean = shown.reduce(0, +) / Double(shown.count)
            return "shown times: from presentation feedback for \(shown.count) of \(records.count) frames; present to "
                + "screen mean \(milliseconds(mean)) max \(milliseconds(shown.max() ?? 0)) ms"
        }

        func run() throws {
            try MainActor.assumeIsolated {
                let frameLog = try log.read()
                let loop = try replay(frameLog)
                print(loop.statistics.summary)
                // Input is not replayed: its latency comes from the records (version 2 logs).
                let events = frameLog.records.reduce(0) { $0 + $1.inputEvents }
                if events > 0 {
                    let total = frameLog.records.reduce(0.0) {
                        $0 + Double($1.inputLatencyMeanNanoseconds) * Double($1.inputEvents)
                    }
                    let longest = frameLog.records.map(\.inputLatencyMaxNanoseconds).max() ?? 0
                    print(
                        "input to screen: mean \(Self.milliseconds(total / Double(events))) "
                            + "max \(Self.milliseconds(Double(longest))) ms (\(events) input events)")
                }
                print(Self.shownTimes(of: frameLog.records))
            }
        }
    }
}
