import ArgumentParser
import Foundation
import FrameLink

extension FrameLinkCommand {
    /// Writes a log as a Chrome trace that Perfetto opens.
    struct Trace: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a Chrome trace-event JSON file that Perfetto (ui.perfetto.dev) opens.")
        @OptionGroup var log: LogOptions
        @Option(name: .shortAndLong, help: ArgumentHelp("The JSON file to write.", valueName: "file"))
        var output: String

        func run() throws {
            try MainActor.assumeIsolated {
                try log.check(output: output)
                let frameLog = try log.read()
                do {
                    try frameLog.writeTrace(toFile: output)
                } catch {
                    throw CommandError("\(error)")
                }
                print("\(output): \(frameLog.records.count) frames; open it at https://ui.perfetto.dev")
            }
        }
    }
}
