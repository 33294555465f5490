import Foundation
import FrameLink
import Testing

@testable import LabPlotKit

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The `framelink` command, run as a user would: each subcommand on a recorded log, and every kind
/// of bad input ending in one line on standard error and exit status 1, never a crash.
@Suite("framelink: summary, plot, trace and replay of frame logs")
struct FrameLinkCommandTests {
    /// The built `framelink` next to the test bundle.
    static let executable: URL? = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        for _ in 0..<4 {
            folder = folder.deletingLastPathComponent()
            let candidate = folder.appendingPathComponent("framelink")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()

    /// Runs `framelink` with `arguments`; returns its status, standard output and standard error.
    ///
    /// The outputs go to files, not pipes, so a chatty run never blocks on a full pipe whichever
    /// stream it writes first. A run still going after `timeout` seconds (a hang: a busy machine
    /// makes it slower, never that slow) is killed and recorded as a failure.
    static func run(
        _ arguments: [String], timeout: Double = 120, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (status: Int32, output: String, error: String) {
        guard let executable else { throw CommandMissing() }
        let folder = FileManager.default.temporaryDirectory
        let outputURL = folder.appendingPathComponent("framelink-\(UUID().uuidString).out")
        let errorURL = folder.appendingPathComponent("framelink-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(timeout)
        while process.isRunning && ContinuousClock.now < deadline { usleep(5_000) }
        if process.isRunning {
            Issue.record("framelink \(arguments) still ran after \(timeout) s: killed", sourceLocation: sourceLocation)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        try output.close()
        try error.close()
        #expect(process.terminationReason == .exit, "framelink \(arguments) crashed", sourceLocation: sourceLocation)
        return (
            process.terminationStatus, String(decoding: (try? Data(contentsOf: outputURL)) ?? Data(), as: UTF8.self),
            String(decoding: (try? Data(contentsOf: errorURL)) ?? Data(), as: UTF8.self)
        )
    }

    /// A recorded 60 Hz log of 300 frames with a 40 ms stall at frame 100, written to a file.
    @MainActor
    static func recordedLog(idleFrames: Int = 0) throws -> (path: String, log: FrameLog) {
        let source = ManualFrameSource(refreshRate: .hz60)
        let loop = FrameLoop(source: source)
        loop.frameLog = FrameLog(periodNanoseconds: loop.refreshRate.periodNanoseconds)
        let link = DisplayLink { link in
            source.simulateWork(for: .milliseconds(3))
            if link.frameIndex == 100 { source.simulateWork(for: .milliseconds(40)) }
            // Input 4 ms before each frame: shown at its target, 20.67 ms later.
            FrameLoop.current?.noteInput(at: FrameInstant(nanoseconds: link.timestamp.nanoseconds - 4_000_000))
        }
        link.add(to: loop, forMode: .common)
        source.advance(frames: 200)
        // An idle stretch (the link paused: no frames booked) leaves a gap between two records.
        link.isPaused = true
        source.advance(frames: idleFrames)
        link.isPaused = false
        source.advance(frames: 101)
        let log = try #require(loop.frameLog)
        let path = temporaryPath("log.csv")
        try log.write(toFile: path, format: .csv)
        return (path, log)
    }

    /// `framelink` was not found next to the test bundle.
    struct CommandMissing: Error, CustomStringConvertible {
        var description: String { "framelink is not built next to the tests (swift build builds it)" }
    }

    static func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "framelink-command-\(UInt32.random(in: 0...UInt32.max))-\(name)"
    }

    @Test("summary and replay: the replayed statistics are the recording's")
    func summaryAndReplay() async throws {
        let (path, log) = try await Self.recordedLog()
        defer { unlink(path) }
        let summary = try Self.run(["summary", path])
        #expect(summary.status == 0, "\(summary.error)")
        #expect(summary.output.contains("300 frames, 2 dropped in 1 events"), "\(summary.output)")
        // Input latency from the records: 300 events, 20.67 ms each but one shown two frames late.
        #expect(
            summary.output.contains("input to screen: mean 20.78 max 54.00 ms (300 input events)"), "\(summary.output)")
        #expect(summary.error.contains("framelink: 300 frames read in"), "a progress line: \(summary.error)")
        let replay = try Self.run(["replay", path])
        #expect(replay.status == 0, "\(replay.error)")
        #expect(replay.output.contains("dropped frames: recorded 2, replayed 2"), "\(replay.output)")
        #expect(replay.output.contains("replay matches the recording"))
        _ = log
    }

    @Test("a log with an idle stretch replays as recorded: the gap is not a long frame")
    func replayWithIdleGap() async throws {
        let (path, log) = try await Self.recordedLog(idleFrames: 90)
        defer { unlink(path) }
        let count = await MainActor.run { log.records.count }
        let replay = try Self.run(["replay", path])
        #expect(replay.status == 0, "\(replay.output) \(replay.error)")
        #expect(replay.output.contains("frames: recorded \(count), replayed \(count)"))
        #expect(
            replay.output.contains("longest interval (ns): recorded 50000000, replayed 50000000"), "\(replay.output)")
        #expect(replay.output.contains("replay matches the recording"))
        let summary = try Self.run(["summary", path])
        #expect(summary.output.contains("\(count) frames, 2 dropped in 1 events"), "\(summary.output)")
    }

    @Test("plot writes an SVG with one bar per frame, the dropped one in red")
    func plot() async throws {
        let (path, _) = try await Self.recordedLog()
        let svg = Self.temporaryPath("frames.svg")
        defer {
            unlink(path)
            unlink(svg)
        }
        let result = try Self.run(["plot", path, "-o", svg])
        #expect(result.status == 0, "\(result.error)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.hasPrefix("<?xml"))
        #expect(text.components(separatedBy: "class=\"bar").count - 1 == 300)
        #expect(text.components(separatedBy: "class=\"bar dropped\"").count - 1 == 1)
        #expect(XMLParser(data: Data(text.utf8)).parse(), "well-formed XML")
    }

    @Test("trace writes the log's Chrome trace")
    func trace() async throws {
        let (path, log) = try await Self.recordedLog()
        let json = Self.temporaryPath("frames.json")
        defer {
            unlink(path)
            unlink(json)
        }
        let result = try Self.run(["trace", path, "-o", json])
        #expect(result.status == 0, "\(result.error)")
        let expected = await MainActor.run { log.chromeTrace() }
        #expect(try String(contentsOfFile: json, encoding: .utf8) == expected)
    }

    @Test(
        "bad input is one line on standard error and exit status 1",
        arguments: [
            ("missing", "cannot read: No such file or directory"), ("empty", "empty: a frame log starts with"),
            ("truncated", "frame log:"), ("foreign", "is this a FrameLink frame log?"),
        ] as [(String, String)])
    func badInput(kind: String, message: String) async throws {
        let (good, _) = try await Self.recordedLog()
        let path = Self.temporaryPath("\(kind).csv")
        defer {
            unlink(good)
            unlink(path)
        }
        let text = try String(contentsOfFile: good, encoding: .utf8)
        switch kind {
        case "empty": _ = FileManager.default.createFile(atPath: path, contents: Data())
        case "truncated": try String(text.prefix(text.count - 7)).write(toFile: path, atomically: true, encoding: .utf8)
        case "foreign": try "name,score\nada,3\n".write(toFile: path, atomically: true, encoding: .utf8)
        default: break
        }
        for command in [["summary", path], ["replay", path], ["plot", path, "-o", path + ".svg"]] {
            let result = try Self.run(command)
            #expect(result.status == 1, "\(command): \(result.error)")
            let lines = result.error.split(separator: "\n").filter { !$0.hasPrefix("framelink: ") }
            #expect(lines.count == 1 && lines[0].hasPrefix("Error: "), "\(command): \(result.error)")
            #expect(result.error.contains(message), "\(command): \(result.error)")
        }
    }

    @Test("an output that cannot be written is one line and exit status 1")
    func unwritableOutput() async throws {
        let (path, _) = try await Self.recordedLog()
        defer { unlink(path) }
        for command in ["plot", "trace"] {
            let result = try Self.run([command, path, "-o", "/nonexistent-folder/out"])
            #expect(result.status == 1, "\(command): \(result.error)")
            #expect(result.error.contains("/nonexistent-folder/out"), "\(command): \(result.error)")
        }
    }

    @Test("an output that is the log itself is refused, and the log is left as it was")
    func outputIsTheInput() async throws {
        let (path, _) = try await Self.recordedLog()
        let link = path + ".link.csv"
        defer {
            unlink(path)
            unlink(link)
        }
        #expect(symlink(path, link) == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for command in ["plot", "trace"] {
            for output in [path, link] {
                let result = try Self.run([command, path, "-o", output])
                #expect(result.status == 1, "\(command) -o \(output): \(result.error)")
                #expect(result.error.contains("is the frame log being read"), "\(result.error)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a long log is drawn in groups: never more than 2,000 bars, and no drop is hidden")
    @MainActor
    func longLogGroups() {
        var records: [FrameRecord] = []
        for index in 0..<10_000 {
            let dropped = index == 5_555 ? 3 : 0
            let interval: Int64 = 16_666_667 * Int64(dropped + 1)
            records.append(
                FrameRecord(
                    index: Int64(index + 2), timestamp: Int64(index + 1) * 16_666_667 * 2, interval: interval,
                    droppedFrames: dropped, phases: PhaseDurations()))
        }
        let chart = FrameTimeChart(log: FrameLog(records: records, periodNanoseconds: 16_666_667), title: "long")
        #expect(chart.barCount == 2_000)
        #expect(chart.droppedBarCount == 1)
        #expect(chart.svg.contains("each bar the longest of 5 frames"))
    }
}
