import Foundation
import FrameLink
import Testing

/// Frame logs as Chrome trace-event JSON (Perfetto): the format's rules, nesting, drops with their
/// culprits, and a golden file from a virtual-time run.
@MainActor
@Suite("Frame logs as Perfetto traces")
struct FrameLogTraceTests {
    /// A 60 Hz virtual run: a 2 ms update link, a 1 ms render handler, and at frame 6 a 40 ms stall
    /// in a link labelled `"level "load"`.
    func record(frames: Int) -> (FrameLog, [FrameDrop]) {
        let (source, loop) = makeLoop()
        loop.frameLog = FrameLog(periodNanoseconds: loop.refreshRate.periodNanoseconds)
        let update = DisplayLink { link in
            source.simulateWork(for: .milliseconds(2))
            if link.frameIndex == 6 { source.simulateWork(for: .milliseconds(40)) }
        }
        update.label = #"level "load""#
        update.add(to: loop, forMode: .common)
        loop.renderHandler = { _ in source.simulateWork(for: .milliseconds(1)) }
        source.advance(frames: frames)
        return (loop.frameLog ?? FrameLog(), loop.statistics.drops)
    }

    /// The trace's events, parsed by Foundation's JSON reader.
    func events(_ trace: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(trace.utf8))
        let document = try #require(object as? [String: Any])
        #expect(document["displayTimeUnit"] as? String == "ms")
        return try #require(document["traceEvents"] as? [[String: Any]])
    }

    @Test(
        "the trace is valid JSON, every event has ph, pid and tid, slices have ts and dur, and phases nest in their frame"
    )
    func formatRules() throws {
        let (log, drops) = record(frames: 120)
        let events = try events(log.chromeTrace(drops: drops))
        var frame: (start: Double, end: Double)?
        var frames = 0
        for event in events {
            let phase = try #require(event["ph"] as? String)
            #expect(event["pid"] as? Int == 1 && event["tid"] as? Int == 1, "\(event)")
            #expect(event["name"] is String)
            guard phase == "X" else {
                if phase != "M" { #expect(event["ts"] is Double || event["ts"] is Int, "\(event)") }
                continue
            }
            let start = try #require((event["ts"] as? NSNumber)?.doubleValue)
            let duration = try #require((event["dur"] as? NSNumber)?.doubleValue)
            #expect(duration > 0)
            let name = try #require(event["name"] as? String)
            if name.hasPrefix("frame ") {
                frame = (start, start + duration)
                frames += 1
            } else {
                let parent = try #require(frame, "a phase before any frame: \(name)")
                #expect(
                    start >= parent.start - 1e-9 && start + duration <= parent.end + 1e-9, "\(name) outside its frame")
            }
        }
        #expect(frames == log.records.count)
        #expect(events.filter { $0["ph"] as? String == "C" }.count == log.records.count)
    }

    @Test("a drop is an instant event with its count, phase and the blamed link's label, escaped")
    func dropsAndCulprits() throws {
        let (log, drops) = record(frames: 20)
        let trace = log.chromeTrace(drops: drops)
        let instants = try events(trace).filter { $0["ph"] as? String == "i" }
        #expect(instants.count == log.records.filter { $0.droppedFrames > 0 }.count)
        let drop = try #require(instants.first)
        #expect(drop["name"] as? String == "dropped 2")
        let arguments = try #require(drop["args"] as? [String: Any])
        #expect(arguments["dropped"] as? Int == 2)
        #expect(arguments["phase"] as? String == "links")
        #expect(arguments["culprit"] as? String == #"level "load""#)
        // Without drop reports (a log read from a file), the count and phase remain.
        let bare = try events(log.chromeTrace()).filter { $0["ph"] as? String == "i" }
        #expect((bare.first?["args"] as? [String: Any])?["culprit"] == nil)
    }

    @Test("present and its wait end the frame's slice; the counter and a drop sit at the slice's start")
    func placement() throws {
        // A 50 ms frame (2 dropped) from 100 ms: 4 ms of links, 1 ms of render, 2 ms of
        // housekeeping, a 3 ms present, then 40 ms waiting.
        var phases = PhaseDurations()
        phases[nanoseconds: .links] = 4_000_000
        phases[nanoseconds: .render] = 1_000_000
        phases[nanoseconds: .present] = 3_000_000
        phases[nanoseconds: .presentWait] = 40_000_000
        let record = FrameRecord(
            index: 7, timestamp: 150_000_000, interval: 50_000_000, droppedFrames: 2, phases: phases)
        let log = FrameLog(records: [record], periodNanoseconds: 16_666_667)
        let events = try events(log.chromeTrace())
        func event(_ name: String) throws -> (ts: Double, dur: Double) {
            let event = try #require(events.first { $0["name"] as? String == name }, "\(name)")
            return (
                try #require((event["ts"] as? NSNumber)?.doubleValue),
                (event["dur"] as? NSNumber)?.doubleValue ?? 0
            )
        }
        #expect(try event("frame 7") == (100_000, 50_000))
        #expect(try event("links") == (100_000, 4_000))
        #expect(try event("render") == (104_000, 1_000))
        #expect(try event("present") == (107_000, 3_000))
        #expect(try event("present wait") == (110_000, 40_000))
        #expect(try event("dropped 2").ts == 100_000)
        #expect(try event("frame time").ts == 100_000)
    }

    @Test("input latency is a counter sampled at each frame's slice, 0 without input; none in a log without input")
    func inputCounter() throws {
        var records: [FrameRecord] = []
        for index in Int64(1)...3 {
            records.append(
                FrameRecord(
                    index: index, timestamp: index * 16_666_667, interval: 16_666_667, droppedFrames: 0,
                    phases: PhaseDurations(), inputEvents: index == 2 ? 3 : 0,
                    inputLatencyMean: index == 2 ? 12_500_000 : 0,
                    inputLatencyMax: index == 2 ? 20_000_000 : 0))
        }
        let samples = try events(FrameLog(records: records, periodNanoseconds: 16_666_667).chromeTrace())
            .filter { $0["name"] as? String == "input latency" }
        #expect(samples.count == 3)
        let second = try #require(samples.dropFirst().first?["args"] as? [String: Any])
        #expect((second["mean_ms"] as? NSNumber)?.doubleValue == 12.5)
        #expect((second["max_ms"] as? NSNumber)?.doubleValue == 20)
        #expect((second["events"] as? NSNumber)?.intValue == 3)
        #expect((samples.first?["ts"] as? NSNumber)?.doubleValue == 0)
        let (log, drops) = record(frames: 20)
        #expect(!log.chromeTrace(drops: drops).contains("input latency"))
    }

    @Test("a short virtual run gives exactly the golden file")
    func goldenFile() throws {
        let (log, drops) = record(frames: 8)
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Golden/frames.trace.json")
        if ProcessInfo.processInfo.environment["FRAMELINK_WRITE_GOLDEN"] != nil {
            try log.chromeTrace(drops: drops).write(to: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(log.chromeTrace(drops: drops) == expected)
    }

    @Test("with recordsCallbacks, each labelled callback is a slice on a callbacks track; unlabelled ones are not")
    func callbackSlices() throws {
        let (source, loop) = makeLoop()
        let log = recordCallbacks(of: loop)
        let physics = DisplayLink { _ in source.simulateWork(for: .milliseconds(2)) }
        physics.label = "physics"
        physics.add(to: loop, forMode: .common)
        DisplayLink { _ in source.simulateWork(for: .milliseconds(1)) }.add(to: loop, forMode: .common)
        let autosave = FrameTimer(interval: .milliseconds(100), repeats: true) { _ in
            source.simulateWork(for: .milliseconds(3))
        }
        autosave.label = "autosave"
        autosave.add(to: loop, forMode: .common)
        loop.renderHandler = { _ in source.simulateWork(for: .microseconds(500)) }
        source.advance(frames: 30)
        let slices = log.callbackSlices
        #expect(slices.filter { $0.label == "physics" }.count == 30)
        #expect(slices.allSatisfy { $0.label == "physics" ? $0.durationNanoseconds == 2_000_000 : true })
        #expect(
            slices.filter { $0.label == "autosave" }.map(\.duration) == Array(repeating: .milliseconds(3), count: 5))
        #expect(slices.filter { $0.label == "render handler" }.count == 30)
        #expect(
            Set(slices.map(\.label)) == ["physics", "autosave", "render handler"], "the unlabelled link is left out")
        let events = try events(log.chromeTrace())
        let track = events.filter { $0["tid"] as? Int == 2 && $0["ph"] as? String == "X" }
        #expect(track.count == slices.count)
        #expect(
            events.contains {
                $0["ph"] as? String == "M" && ($0["args"] as? [String: Any])?["name"] as? String == "callbacks"
            })
        // A log that does not ask keeps none.
        #expect(record(frames: 10).0.callbackSlices.isEmpty)
    }

    @Test("writing a trace goes through the checked, safe file writer; a bad path is an error, not a crash")
    func writing() throws {
        let (log, drops) = record(frames: 10)
        let path = NSTemporaryDirectory() + "framelink-trace-\(UInt32.random(in: 0...UInt32.max)).json"
        defer { unlink(path) }
        try log.writeTrace(toFile: path, drops: drops)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == log.chromeTrace(drops: drops))
        #expect(throws: FrameLinkError.self) { try log.writeTrace(toFile: "/nonexistent-folder/frames.json") }
        #expect(throws: FrameLinkError.self) { try FrameLog().writeTrace(toFile: path) }  // no period
    }
}
