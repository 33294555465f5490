import ArgumentParser
import Foundation
import FrameLink
import LabPlotKit

extension FrameLinkCommand {
    /// Draws a log's frame-time chart as SVG.
    struct Plot: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw a frame-time chart as SVG: phases stacked, budget lines, drops in red.")
        @OptionGroup var log: LogOptions
        @Option(name: .shortAndLong, help: ArgumentHelp("The SVG file to write.", valueName: "file"))
        var output: String

        func run() throws {
            try MainActor.assumeIsolated {
                try log.check(output: output)
                let frameLog = try log.read()
                let name = URL(fileURLWithPath: log.path).lastPathComponent
                let chart = FrameTimeChart(log: frameLog, title: name)
                try writeOutput(chart.svg, to: output)
                print("\(output): \(chart.barCount) bars, \(chart.droppedBarCount) with dropped frames")
            }
        }
    }
}
