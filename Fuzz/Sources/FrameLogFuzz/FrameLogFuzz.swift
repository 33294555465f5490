import Foundation
import FrameLink
import FuzzCorpus

/// Runs one input through everything a frame log from outside the program meets: it is read as CSV
/// and as JSON lines; a log that reads is written back and must read back equal, then replayed on
/// virtual time and summarized. Bad input may be refused with an error; anything else (a trap, an
/// overflow, a read past an array, a round trip that changes the log) is a crash the fuzzer reports.
@MainActor
func exercise(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    for format in FrameLog.Format.allCases {
        let log: FrameLog
        do {
            log = format == .csv ? try FrameLog(csv: text, name: "input") : try FrameLog(jsonLines: text, name: "input")
        } catch {
            _ = error.description
            continue
        }
        checkRoundTrip(log)
        replay(log)
    }
}

/// Writes `log` in both formats and checks that each reads back equal.
@MainActor
func checkRoundTrip(_ log: FrameLog) {
    for format in FrameLog.Format.allCases {
        do {
            let again =
                format == .csv ? try FrameLog(csv: log.csv) : try FrameLog(jsonLines: log.jsonLines)
            guard again.records == log.records, again.period == log.period else {
                fatalError("a \(format) round trip changed the log")
            }
        } catch {
            fatalError("a log that was read could not be read back after writing it as \(format): \(error)")
        }
    }
}

/// Replays `log` on virtual time, frame by frame, and builds its report.
@MainActor
func replay(_ log: FrameLog) {
    do {
        let source = try ManualFrameSource(replaying: log)
        let loop = FrameLoop(source: source)
        loop.drainsMainQueue = false
        DisplayLink { _ in }.add(to: loop, forMode: .common)
        source.advance(frames: log.records.count + 2)
        let report = loop.statistics.report
        _ = report.summary
        for drop in loop.statistics.drops { _ = drop.description }
    } catch {
        fatalError("a log that was read could not be replayed: \(error)")
    }
}

#if FRAMELINK_LIBFUZZER
    /// libFuzzer's entry point: one input per call, on the main thread.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        MainActor.assumeIsolated { exercise(bytes) }
        return 0
    }
#else
    /// Without libFuzzer: runs the named files or folders once (see `runCorpus(named:_:)`).
    @main
    struct FrameLogFuzz {
        static func main() throws {
            try MainActor.assumeIsolated { try runCorpus(named: "FrameLogFuzz", exercise) }
        }
    }
#endif
