import ArgumentParser
import Foundation
import FrameLink
import LabPlotKit

/// `framelink`: look at a recorded frame log — its statistics, a frame-time chart, a Perfetto trace,
/// and a replay that checks the statistics come out the same.
@main
struct FrameLinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "framelink",
        abstract: "Summarise, plot, trace and replay FrameLink frame logs (CSV or JSON lines).",
        discussion: """
            A frame log is what a FrameLoop records into `loop.frameLog` (AnimDemo and MinimalGame \
            write one with --log FILE). Bad input — a missing, empty, truncated or foreign file, an \
            output that cannot be written — ends with one line on standard error and exit status 1.
            """,
        subcommands: [Summary.self, Plot.self, Trace.self, Replay.self])
}

/// The options every subcommand shares: the log to read.
struct LogOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The frame log: CSV or JSON lines.", valueName: "log"))
    var path: String

    /// Reads the log, saying on standard error what it is doing (a long log takes a moment).
    @MainActor
    func read() throws -> FrameLog {
        progress("reading \(path)…")
        let start = MonotonicClock.nanoseconds()
        let log: FrameLog
        do {
            log = try FrameLog(contentsOfFile: path)
        } catch {
            throw CommandError("\(error)")
        }
        guard !log.records.isEmpty else { throw CommandError("\(path): the log has no frames") }
        let seconds = Double(MonotonicClock.nanoseconds() - start) / 1e9
        progress("\(log.records.count) frames read in \(String(format: "%.2f", seconds)) s")
        return log
    }
}

/// An error the command reports as one line.
struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Writes a progress line to standard error.
func progress(_ line: String) {
    FileHandle.standardError.write(Data("framelink: \(line)\n".utf8))
}

/// Writes `text` to `path` atomically, or throws a one-line error.
func write(_ text: String, to path: String) throws {
    do {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
        throw CommandError("cannot write \(path): \((error as NSError).localizedDescription)")
    }
}

/// Replays `log` on virtual time and returns the loop, whose statistics are the log's.
@MainActor
func replay(_ log: FrameLog) throws -> FrameLoop {
    progress("replaying \(log.records.count) frames…")
    let source: ManualFrameSource
    do {
        source = try ManualFrameSource(replaying: log)
    } catch {
        throw CommandError("\(error)")
    }
    let loop = FrameLoop(source: source)
    loop.drainsMainQueue = false
    DisplayLink { _ in }.add(to: loop, forMode: .common)
    source.advance(frames: log.records.count + 1)
    return loop
}

extension FrameLinkCommand {
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

    struct Plot: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw a frame-time chart as SVG: phases stacked, budget lines, drops in red.")
        @OptionGroup var log: LogOptions
        @Option(name: .shortAndLong, help: ArgumentHelp("The SVG file to write.", valueName: "file"))
        var output: String

        func run() throws {
            try MainActor.assumeIsolated {
                let frameLog = try log.read()
                let name = URL(fileURLWithPath: log.path).lastPathComponent
                let chart = FrameTimeChart(log: frameLog, title: name)
                try write(chart.svg, to: output)
                print("\(output): \(chart.barCount) bars, \(chart.droppedBarCount) with dropped frames")
            }
        }
    }

    struct Trace: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a Chrome trace-event JSON file that Perfetto (ui.perfetto.dev) opens.")
        @OptionGroup var log: LogOptions
        @Option(name: .shortAndLong, help: ArgumentHelp("The JSON file to write.", valueName: "file"))
        var output: String

        func run() throws {
            try MainActor.assumeIsolated {
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
