import FrameLink
import FrameLinkSDL

/// The compositor's presentation feedback for every frame of a run (`--presentation-log`), as CSV
/// under a column line:
///
/// ```text
/// frame,outcome,compositor_ns,shown_ns,refresh_ns,sequence,missed_refreshes,flags
/// 12,shown,31909642962131,31909642990412,16666666,731,0,0
/// 13,discarded,,,,,,0
/// ```
///
/// `compositor_ns` is the time as the compositor sent it, on its own clock; `shown_ns` the same
/// moment on `CLOCK_MONOTONIC` (FrameLink's clock); empty fields are unknown.
struct PresentationLog {
    private(set) var reports: [(report: PresentationReport, shown: Int64?)] = []

    mutating func reserve(_ frames: Int) {
        reports.reserveCapacity(max(0, min(frames, 14_400)))
    }

    /// Keeps `report`, with its shown time on `CLOCK_MONOTONIC` (the loop's timeline plus
    /// `epochNanoseconds`).
    mutating func append(_ report: PresentationReport, epochNanoseconds: Int64) {
        var shown: Int64?
        if case .shown(let instant, _) = report.outcome { shown = instant.nanoseconds + epochNanoseconds }
        reports.append((report, shown))
    }

    /// A duration in whole nanoseconds.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    static let columns = "frame,outcome,compositor_ns,shown_ns,refresh_ns,sequence,missed_refreshes,flags"

    var csv: String {
        var text = Self.columns + "\n"
        for (report, shown) in reports {
            var outcome = "discarded"
            var compositor = ""
            switch report.outcome {
            case .shown(_, let time):
                outcome = "shown"
                compositor = String(Self.nanoseconds(time))
            case .shownAtUnusableTime: outcome = "unusable"
            case .unanswered: outcome = "unanswered"
            case .discarded: break
            }
            let refresh = report.refreshPeriod.map { String(Self.nanoseconds($0)) }
            let fields = [
                String(report.frame), outcome, compositor, shown.map(String.init) ?? "", refresh ?? "",
                report.refreshSequence.map(String.init) ?? "", report.missedRefreshes.map(String.init) ?? "",
                String(report.flags.rawValue),
            ]
            text += fields.joined(separator: ",") + "\n"
        }
        return text
    }
}
