import ArgumentParser
import Foundation
import FrameLink
import LabPlotKit

/// The display-lab plot: runs one ``DisplayLab`` scenario through a real `FrameLoop`, `DisplayLink`
/// and `PresentSource` on the lab's virtual time, and writes an SVG chart of the raw present returns
/// and FrameLink's vsync timestamps against the true vsync.
@main
struct LabPlot: ParsableCommand {
    /// The command's name, summary and explanation for `--help`.
    static let configuration = CommandConfiguration(
        commandName: "LabPlot",
        abstract: "Plot FrameLink's vsync timestamps against a simulated display's true vsync.",
        discussion: """
            Runs a FrameLoop with a DisplayLink on a DisplayLab (a simulated display on virtual time: \
            nothing sleeps) and writes an SVG chart. For every frame it plots the raw return of the \
            present made at the frame's boundary and the frame's timestamp (FrameLink's estimate of the \
            vsync), each minus the true vsync that timestamp stands for: the vsync that released a \
            present that blocked, or the next one after a present that did not. A second panel zooms \
            in on the timestamp's error. The title gives the errors while phase-locked, computed from \
            the run; the same figures are printed.

            Exit status: 0 when the plot was written; 64 for bad options; 1 when the file could not \
            be written.
            """)

    /// `--rate`: the display's refresh rate in hertz.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The display's refresh rate (10...500; 59.94, 119.88 and other n×1000/1001 rates are taken exactly).",
            valueName: "hz"))
    var rate = 60.0

    /// `--jitter`: the upper bound of the delay with which a blocking present returns after the vsync.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How late a blocking present returns after the vsync: evenly spread from 0 to this (0...5).",
            valueName: "ms"))
    var jitter = 1.0

    /// `--buffers`: the swap chain's buffers.
    @Option(parsing: .unconditional, help: "The swap chain's buffers (2...8; the source is told the same).")
    var buffers = 2

    /// `--work`: the simulated work of every frame, in milliseconds.
    @Option(parsing: .unconditional, help: ArgumentHelp("The work of every frame (0...100).", valueName: "ms"))
    var work = 3.0

    /// `--frames`: the frames to run.
    @Option(parsing: .unconditional, help: "The frames to run (10...20000).")
    var frames = 900

    /// `--seed`: the seed of the jitter's random numbers.
    @Option(parsing: .unconditional, help: "The seed of the present jitter (same seed, same run).")
    var seed: UInt64 = 1

    /// `--move-at`: the frame at which the window moves to another display.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Move the window to another display at this frame (needs --move-to).", valueName: "frame"))
    var moveAt: Int?

    /// `--move-to`: the refresh rate of the display the window moves to.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The refresh rate of the display moved to (10...500; needs --move-at).", valueName: "hz"))
    var moveTo: Double?

    /// `--hide`: the frames during which the window is hidden.
    @Option(
        help: ArgumentHelp(
            "Hide the window from frame FROM to frame TO (1 <= FROM < TO <= frames).", valueName: "FROM-TO"))
    var hide: String?

    /// `--output`: the SVG file to write.
    @Option(help: ArgumentHelp("The SVG file to write (its folder is created).", valueName: "path"))
    var output = "out/lab-vsync.svg"

    /// Checks every option: a bad value ends the command with one line and exit status 64.
    mutating func validate() throws {
        _ = try scenario()
        guard !output.isEmpty else { throw ValidationError("--output needs a file path") }
        guard !output.hasSuffix("/") else { throw ValidationError("--output \(output) names a folder, not a file") }
    }

    /// Runs the scenario, writes the chart and prints the figures.
    func run() throws {
        let scenario = try scenario()
        let started = ContinuousClock.now
        let result = try MainActor.assumeIsolated { () throws(ScenarioError) -> ScenarioRun in
            try ScenarioRun(scenario)
        }
        let elapsed = ContinuousClock.now - started
        let svg = VsyncChart(run: result).svg()
        try write(svg, to: output)

        print("LabPlot: \(scenario)")
        if let locked = result.firstLockedFrame, let errors = result.lockedTimestampErrors {
            print(
                "phase-locked at frame \(locked.index) (\(String(format: "%.2f", locked.timestamp.seconds)) s); "
                    + "while locked (\(errors.count) frames) |timestamp − true vsync|: \(errors)")
            if let returns = result.lockedReturnDelays {
                print("raw present return − true vsync on the same frames: \(returns)")
            }
        } else {
            print("never phase-locked in this run")
        }
        print("pacing: \(result.pacingDescription)")
        print(
            "dropped frames counted \(result.droppedFrames), true \(result.missedRefreshes); "
                + "ran in \(elapsed.formatted(.units(allowed: [.milliseconds])))")
        print("wrote \(output)")
    }

    /// The scenario the options describe, or the ArgumentParser error that names the bad option.
    private func scenario() throws(ValidationError) -> PlotScenario {
        do {
            return try PlotScenario(
                rateHertz: rate, jitterMilliseconds: jitter, buffers: buffers, workMilliseconds: work, frames: frames,
                seed: seed, moveAtFrame: moveAt, moveToHertz: moveTo, hide: hide)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Writes `text` to `path` atomically (a temporary file renamed into place), creating its folder.
    private func write(_ text: String, to path: String) throws(LabPlotError) {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw LabPlotError(description: "cannot write \(path): \(error.localizedDescription)")
        }
    }
}
