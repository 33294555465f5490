import ArgumentParser
import Foundation
import FrameLink

extension FrameLinkCommand {
    /// Prints a log's statistics.
    struct Summary: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the log's statistics: drops, hitches, percentiles.")
        @OptionGroup var log: LogOptions

        func run() throws {
            try MainActor.assumeIsolated {
                let loop = try replay(try log.read())
                print(loop.statistics.summary)
            }
        }
    }
}
