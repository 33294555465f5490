import FrameLink

/// A display-lab scenario to plot: a display with a fixed refresh rate, a present that returns late
/// by a seeded uniform delay, a swap chain, the work of every frame, and optionally a move to another
/// display or a hidden window mid-run.
///
/// Every value is checked when the scenario is made, so a scenario that exists can be run:
///
/// ```swift
/// let scenario = try PlotScenario(refreshRate: .hz60, jitter: .microseconds(300), frames: 600)
/// let run = try ScenarioRun(scenario)
/// print(run.lockedTimestampErrors?.description ?? "never phase-locked")
/// ```
package struct PlotScenario: Sendable, Equatable, CustomStringConvertible {
    /// The refresh rates a scenario accepts: 10 to 500 Hz.
    package static let refreshRange: ClosedRange<Double> = 10...500
    /// The longest present jitter a scenario accepts: 5 ms (the plot's range grows with it).
    package static let maximumJitter: Duration = .milliseconds(5)
    /// The longest work per frame a scenario accepts: 100 ms.
    package static let maximumWork: Duration = .milliseconds(100)
    /// The frames a scenario may run: 10 to 20,000 (5.5 minutes of a 60 Hz display).
    package static let frameRange: ClosedRange<Int> = 10...20_000

    /// The display's refresh rate.
    package var refreshRate: FrameRate
    /// The upper bound of the delay after the vsync with which a blocking present returns (spread
    /// evenly from zero, as ``PresentJitter/uniform(upTo:)`` draws it).
    package var jitter: Duration
    /// The buffers of the swap chain, 2 (double buffering) to 8; the source is told the same count.
    package var buffers: Int
    /// The simulated work of every frame (the display link's callback moves the lab's time by it).
    package var work: Duration
    /// The frames the loop runs.
    package var frames: Int
    /// The seed of the jitter's random numbers: the same seed, the same run.
    package var seed: UInt64
    /// A move to another display mid-run, if any.
    package var move: DisplayMove?
    /// The loop frames from whose callback the window is hidden to the one in which it is shown
    /// again, if any.
    package var hiddenFrames: ClosedRange<Int64>?

    /// Creates a scenario, checking every value.
    ///
    /// - Parameters:
    ///   - refreshRate: The display's rate, 10 to 500 Hz (60 Hz unless told).
    ///   - jitter: The present delay's upper bound, zero to 5 ms and under the refresh period (1 ms
    ///     unless told).
    ///   - buffers: The swap chain's buffers, 2 to 8 (2 unless told).
    ///   - work: The work of every frame, zero to 100 ms (3 ms unless told).
    ///   - frames: The frames to run, 10 to 20,000 (900 unless told).
    ///   - seed: The jitter's seed (1 unless told).
    ///   - move: A move to another display (its rate 10 to 500 Hz) at a frame after the first and
    ///     before the last.
    ///   - hiddenFrames: The frames the window is hidden, within the run.
    /// - Throws: ``ScenarioError`` naming the value that is out of range.
    package init(
        refreshRate: FrameRate = .hz60, jitter: Duration = .milliseconds(1), buffers: Int = 2,
        work: Duration = .milliseconds(3), frames: Int = 900, seed: UInt64 = 1, move: DisplayMove? = nil,
        hiddenFrames: ClosedRange<Int64>? = nil
    ) throws(ScenarioError) {
        try Self.check(refreshRate, "the refresh rate")
        guard jitter >= .zero && jitter <= Self.maximumJitter else {
            throw ScenarioError(
                "the present jitter \(_NumberText.milliseconds(jitter)) ms is out of range: use 0...5 ms")
        }
        guard (2...8).contains(buffers) else {
            throw ScenarioError("\(buffers) buffers is out of range: a swap chain has 2...8 buffers")
        }
        guard work >= .zero && work <= Self.maximumWork else {
            throw ScenarioError(
                "the work per frame \(_NumberText.milliseconds(work)) ms is out of range: use 0...100 ms")
        }
        guard Self.frameRange.contains(frames) else {
            throw ScenarioError("\(frames) frames is out of range: use 10...20000")
        }
        if let move {
            try Self.check(move.refreshRate, "the rate moved to")
            guard move.frame > 1 && move.frame < Int64(frames) else {
                throw ScenarioError("a move at frame \(move.frame) is outside the run: use 2...\(frames - 1)")
            }
        }
        if let hiddenFrames {
            guard
                hiddenFrames.lowerBound >= 1 && hiddenFrames.upperBound <= Int64(frames)
                    && hiddenFrames.lowerBound < hiddenFrames.upperBound
            else {
                throw ScenarioError(
                    "hidden frames \(hiddenFrames.lowerBound)-\(hiddenFrames.upperBound) are not a range within "
                        + "the run: use FROM-TO with 1 <= FROM < TO <= \(frames)")
            }
        }
        let fastest = max(refreshRate.framesPerSecond, move?.refreshRate.framesPerSecond ?? 0)
        let shortestPeriod = min(refreshRate.periodNanoseconds, move?.refreshRate.periodNanoseconds ?? .max)
        guard jitter.wholeNanoseconds < shortestPeriod else {
            throw ScenarioError(
                "the present jitter \(_NumberText.milliseconds(jitter)) ms is not under the refresh period at "
                    + "\(_NumberText.short(fastest, digits: 3)) Hz "
                    + "(\(_NumberText.milliseconds(.nanoseconds(shortestPeriod))) ms): a late return could not be told "
                    + "from the next vsync's")
        }
        self.refreshRate = refreshRate
        self.jitter = jitter
        self.buffers = buffers
        self.work = work
        self.frames = frames
        self.seed = seed
        self.move = move
        self.hiddenFrames = hiddenFrames
    }

    /// The display, the swap chain, the jitter, the work and the run, then the move and the hide:
    /// `"60 Hz, 2 buffers, jitter 0–1 ms, work 3 ms, 900 frames, seed 1"`.
    package var description: String {
        var text =
            "\(refreshRate), \(buffers) buffers, jitter 0–\(_NumberText.milliseconds(jitter)) ms, "
            + "work \(_NumberText.milliseconds(work)) ms, \(frames) frames, seed \(seed)"
        if let move { text += "; moved to \(move.refreshRate) at frame \(move.frame)" }
        if let hiddenFrames { text += "; hidden from frame \(hiddenFrames.lowerBound) to \(hiddenFrames.upperBound)" }
        return text
    }

    /// Checks that `rate` is within ``refreshRange``.
    private static func check(_ rate: FrameRate, _ what: String) throws(ScenarioError) {
        guard refreshRange.contains(rate.framesPerSecond) else {
            throw ScenarioError("\(what) \(rate) is out of range: use 10...500 Hz")
        }
    }
}
