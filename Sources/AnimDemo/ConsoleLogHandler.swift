import Foundation
import Logging

/// Prints FrameLink's log messages on standard output as `framelink: level: message`, so that a run
/// shows them between its own lines: problems (notice and above) always, the pacing decisions
/// (pacing-mode changes, vsync locks, automatic frame-rate switches: debug) with `--verbose`.
struct ConsoleLogHandler: LogHandler {
    let label: String
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line = "\(label): \(event.level): \(event.message)"
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        if !merged.isEmpty {
            line +=
                " [" + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") + "]"
        }
        print(line)
    }
}
