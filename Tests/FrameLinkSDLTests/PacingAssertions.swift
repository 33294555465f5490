import FrameLink
import XCTest

/// Checks of frame pacing on the real clock that no load can break.
enum PacingAssertions {
    /// Checks that the frames at `timestamps` were paced to a grid of `period` seconds, from frame
    /// `first` on (the frames before it may measure the display back to back).
    ///
    /// Load only makes frames late, never early: each frame comes at or after its grid point, and a
    /// frame is taken late (keeping the grid) only when it is less than a quarter period late, else
    /// the next grid point in the future is waited for. So frames `i < j` are at least
    /// `j − i − 1.25` periods apart, however late any of them came; a loop that does not pace runs
    /// them back to back. No upper bound: a busy machine drops frames, which stretches the span.
    static func assertPaced(
        _ timestamps: [FrameInstant], period: Double, from first: Int = 3, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertGreaterThan(timestamps.count, first + 2, "too few frames to check pacing", file: file, line: line)
        let intervals = zip(timestamps, timestamps.dropFirst()).map { ($1.seconds - $0.seconds) * 1e3 }
        let shown = intervals.map { String(format: "%.2f", $0) }.joined(separator: " ")
        var faster: [String] = []
        for i in first..<timestamps.count {
            for j in (i + 1)..<timestamps.count {
                let apart = timestamps[j].seconds - timestamps[i].seconds
                let least = (Double(j - i) - 1.25) * period - 1e-4
                if apart < least {
                    faster.append("frames \(i) and \(j): \(String(format: "%.2f", apart * 1e3)) ms apart")
                }
            }
        }
        XCTAssertEqual(
            faster, [], "frames faster than the grid of \(period * 1e3) ms; intervals (ms): \(shown)",
            file: file, line: line)
    }
}
