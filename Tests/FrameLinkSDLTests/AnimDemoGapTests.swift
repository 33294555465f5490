import Foundation
import FrameLink
import XCTest

/// A process that is stopped (SIGSTOP, a debugger, a suspended machine) is reported as a gap in which
/// it did not run, not blamed on whatever phase happened to be longest.
final class AnimDemoGapTests: XCTestCase {
    /// Three stops of at least a second of a headless run, each made while the main thread sleeps in
    /// the frame wait (checked on the stopped process, ``RunningDemo/stopInFrameWait(upTo:)``): each
    /// is a gap of over a second in the report and in the printed summary, and none is blamed on the
    /// wait. A busy machine only makes the stops longer.
    func testAStoppedProcessIsReportedAsAGap() throws {
        let report = AnimDemoProcess.temporaryPath(".json")
        defer { try? FileManager.default.removeItem(atPath: report) }
        let stops = Shared(0)
        let result = try AnimDemoProcess.run(
            [
                "--headless", "--frames", "480", "--sprites", "100", "--no-hud", "--pacing", "deadline",
                "--assets", AnimDemoProcess.assetsFolder, "--report", report,
            ],
            timeout: 240
        ) { demo in
            for _ in 0..<3 {
                // Between two stops the loop goes round, so each stop is a drop of its own.
                guard demo.waitUntilLooping(), demo.stopInFrameWait() else { return }
                stops.value += 1
                Thread.sleep(forTimeInterval: 1.0)
                demo.send(SIGCONT)
            }
        }
        XCTAssertEqual(stops.value, 3, "stops made in the frame wait; the run: \(result.standardError)")
        XCTAssertTrue(result.exitedNormally && result.status == 0, result.standardError)
        let statistics = try AnimDemoReport.load(report).statistics
        let long = statistics.drops.filter { $0.intervalMilliseconds > 900 }
        let gaps = long.compactMap(\.gapMilliseconds)
        XCTAssertGreaterThanOrEqual(gaps.count, 3, "every stop in the wait is a gap: \(long)")
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
