import Foundation
import FrameLink

/// Writes a progress line to standard error.
func progress(_ line: String) {
    FileHandle.standardError.write(Data("framelink: \(line)\n".utf8))
}

/// Writes `text` to `path` atomically, or throws a one-line error.
func writeOutput(_ text: String, to path: String) throws {
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
    // Every drop event, so that replay can compare each with the recording's.
    loop.statistics.dropHistoryLimit = max(loop.statistics.dropHistoryLimit, log.records.count)
    DisplayLink { _ in }.add(to: loop, forMode: .common)
    source.advance(frames: source.replayFrameCount)
    return loop
}
