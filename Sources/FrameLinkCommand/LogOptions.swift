import ArgumentParser
import Foundation
import FrameLink

#if canImport(Glibc)
    import Glibc
#endif

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

    /// Refuses an output file that is the log itself (by name, link or hard link): writing it
    /// would replace the recording with the output.
    func check(output: String) throws {
        let input = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        let target = URL(fileURLWithPath: output).standardizedFileURL.resolvingSymlinksInPath().path
        var same = input == target
        if let inputFile = Self.identity(of: path), let outputFile = Self.identity(of: output) {
            same = same || inputFile == outputFile
        }
        if same { throw CommandError("\(output) is the frame log being read: choose another output file") }
    }

    /// The device and inode of the file at `path`, or nil if there is none.
    private static func identity(of path: String) -> [UInt64]? {
        var information = stat()
        guard stat(path, &information) == 0 else { return nil }
        return [UInt64(information.st_dev), UInt64(information.st_ino)]
    }
}
