import Foundation
import FrameLink
import XCTest

/// A process that is stopped (SIGSTOP, a debugger, a suspended machine) is reported as a gap in which
/// it did not run, not blamed on whatever phase happened to be longest.
final class AnimDemoGapTests: XCTestCase {
    /// Three 1-second stops of a headless run: each one that lands in the frame wait (where the loop
    /// spends nearly all of a frame with 100 sprites and no HUD) is a gap of about a second in the
    /// report and in the printed summary; a stop that lands inside a callback would be that
    /// callback's wall time, so the test asks for at least one gap of the three, and that no stop is
    /// blamed on the wait.
    func testAStoppedProcessIsReportedAsAGap() throws {
        let report = AnimDemoProcess.temporaryPath(".json")
        defer { try? FileManager.default.removeItem(atPath: report) }
        let result = try AnimDemoProcess.run(
            [
                "--headless", "--frames", "480", "--sprites", "100", "--no-hud", "--pacing", "deadline",
                "--assets", AnimDemoProcess.assetsFolder, "--report", report,
            ],
            timeout: 120
        ) { process in
            for _ in 0..<3 {
                Thread.sleep(forTimeInterval: 1.5)
                kill(process.processIdentifier, SIGSTOP)
                Thread.sleep(forTimeInterval: 1.0)
                kill(process.processIdentifier, SIGCONT)
            }
        }
        XCTAssertTrue(result.exitedNormally && result.status == 0, result.standardError)
        let statistics = try AnimDemoReport.load(report).statistics
        let long = statistics.drops.filter { $0.intervalMilliseconds > 900 }
        let gaps = long.compactMap(\.gapMilliseconds)
        XCTAssertFalse(gaps.isEmpty, "no stop was reported as a gap: \(long)")
        for gap in gaps { XCTAssertGreaterThan(gap, 900, "\(long)") }
        for drop in long where drop.gapMilliseconds == nil {
            XCTAssertNotEqual(drop.phase, FramePhase.presentWait.description, "a stop blamed on the wait: \(drop)")
        }
        if statistics.drops.suffix(5).contains(where: { $0.gapMilliseconds != nil }) {
            // The printed summary lists the last five drops.
            XCTAssertTrue(result.standardOutput.contains("gap: the process did not run for"), result.standardOutput)
        }
    }
}
