import FrameLink
import Testing

/// Regression pins of the pacing heuristic's own timing on the display lab's matrix: by which frame
/// the mode settled, the phase lock came, the vsync was seen to be faster than a cap, when frames
/// went back to back to measure again, and how soon the rate was measured. These are not outcomes
/// (``DisplayLabMatrixTests`` judges those against the ground truth): a change that moves them is
/// not wrong by itself, but it should be seen and explained, and the pins moved with it.
@MainActor
@Suite("Display lab: regression pins of the heuristic's timing (not outcomes)")
struct DisplayLabTimingTests {
    @Test(
        "each scenario: when the mode settled, the lock came, back-to-back frames ran, the rate was measured",
        arguments: DisplayLabMatrixTests.scenarios)
    func timing(_ scenario: LabScenario) throws {
        let run = try LabRun(scenario)
        let frames = run.frames
        let settled = run.firstFrame { $0.mode == scenario.mode }
        let changeFrame = scenario.move?.frame ?? scenario.hidden?.upperBound ?? 0
        #expect(
            settled.map { $0 <= max(scenario.modeBy, changeFrame + scenario.modeBy) } == true,
            "settled at \(settled.map(String.init) ?? "never")")

        if let backToBack = scenario.backToBack {
            // The source measures (again) whether present blocks within the stretch the pin says
            // frames go back to back.
            #expect(
                frames.contains { backToBack.contains($0.index) && $0.isMeasuring },
                "not measuring within frames \(backToBack)")
        }

        if scenario.neverFasterThanNominal, scenario.presentCost == nil {
            // Where a vsync faster than the nominal rate blocks, it is seen by `modeBy`.
            switch scenario.refresh {
            case .none, .variable: break
            default:
                let seen = run.firstFrame { $0.fasterThanDisplay }
                #expect(seen.map { $0 <= scenario.modeBy } == true, "seen at \(seen.map(String.init) ?? "never")")
            }
        }

        guard scenario.mode == .vsync,
            let trueRate = scenario.finalRate ?? DisplayLabMatrixTests.rate(of: scenario.refresh)
        else { return }
        // The measured rate: within 0.01 Hz of the truth within 2 seconds (of the start, the move or
        // the measuring again).
        let measuredFrom = scenario.backToBack?.lowerBound ?? scenario.move?.frame
        let start = measuredFrom.flatMap { first in frames.first { $0.index == first }?.timestamp } ?? .zero
        if let atTwoSeconds = frames.first(where: { $0.timestamp >= start + .seconds(2) }) {
            let measured = try #require(atTwoSeconds.measured)
            #expect(abs(measured.framesPerSecond - trueRate.framesPerSecond) <= 0.01, "measured \(measured)")
        }
        if let lockedBy = scenario.lockedBy {
            let from = (scenario.move?.frame).map { $0 + 120 } ?? (scenario.hidden?.upperBound).map { $0 + 20 } ?? 0
            let locked = run.firstFrame(from: from, through: scenario.lockedThrough ?? .max) { $0.isPhaseLocked }
            #expect(
                locked.map { $0 <= max(lockedBy, from + lockedBy) } == true,
                "phase-locked at \(locked.map(String.init) ?? "never")")
        }
    }
}
