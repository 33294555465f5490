/// A snapshot of ``FrameStatistics``, in milliseconds: what the demo writes as JSON and prints at
/// exit.
public struct FrameReport: Codable, Hashable, Sendable {
    /// One drop event.
    public struct Drop: Codable, Hashable, Sendable {
        /// The late frame's index.
        public var frame: Int64
        /// The interval that dropped frames, in milliseconds.
        public var intervalMilliseconds: Double
        /// Frames dropped.
        public var droppedFrames: Int
        /// The work phase that took longest (`"links"`, `"timers"`, …).
        public var phase: String
        /// How long that phase took, in milliseconds.
        public var phaseMilliseconds: Double
        /// The slowest callback, if callbacks were measured.
        public var culprit: String?
        /// How long the slowest callback took, in milliseconds.
        public var culpritMilliseconds: Double
        /// For a gap (the process did not run: stopped, suspended, starved of CPU), how long, in
        /// milliseconds; nil when the drop is a phase's.
        public var gapMilliseconds: Double?

        /// Creates the JSON form of a drop event.
        public init(_ drop: FrameDrop) {
            frame = drop.frameIndex
            intervalMilliseconds = Double(drop.intervalNanoseconds) / 1e6
            droppedFrames = drop.droppedFrames
            phase = drop.phase.description
            phaseMilliseconds = Double(drop.phaseDurationNanoseconds) / 1e6
            culprit = drop.culprit
            culpritMilliseconds = Double(drop.culpritDurationNanoseconds) / 1e6
            gapMilliseconds = drop.isGap ? Double(drop.gapDurationNanoseconds) / 1e6 : nil
        }
    }

    /// Frame intervals recorded.
    public var frames: Int
    /// Frames dropped in all.
    public var droppedFrames: Int
    /// Intervals that dropped frames.
    public var dropEvents: Int
    /// The refresh period counted against, in milliseconds.
    public var periodMilliseconds: Double
    /// The longest hitch, in milliseconds.
    public var longestHitchMilliseconds: Double
    /// Hitch milliseconds per second.
    public var hitchTimeRatio: Double
    /// Mean frames per second.
    public var meanFramesPerSecond: Double
    /// Median frame time, in milliseconds.
    public var frameTimeP50Milliseconds: Double
    /// 90th-percentile frame time, in milliseconds.
    public var frameTimeP90Milliseconds: Double
    /// 99th-percentile frame time, in milliseconds.
    public var frameTimeP99Milliseconds: Double
    /// Longest frame time, in milliseconds.
    public var frameTimeMaxMilliseconds: Double
    /// The pacing mode and why.
    public var pacing: String
    /// The most recent drop events.
    public var drops: [Drop]
    /// The rates chosen for requested frame-rate ranges and why, one line per loop or link
    /// (``FrameStatistics/frameRateChoices``); nil when none was requested, and in reports written
    /// before they were listed.
    public var frameRateChoices: [String]? = nil
    /// Input-to-screen latency, when input was measured (nil otherwise, and in reports written
    /// before it was measured).
    public var inputLatency: InputLatency? = nil

    /// A few lines for a terminal.
    public var summary: String {
        func ms(_ value: Double) -> String {
            // A report decoded from a file may hold anything: print what cannot be a time as is.
            guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
            return String(Int((value * 100).rounded())).paddedHundredths
        }
        var lines = [
            "\(frames) frames, \(droppedFrames) dropped in \(dropEvents) events; "
                + "longest hitch \(ms(longestHitchMilliseconds)) ms; hitch ratio \(ms(hitchTimeRatio)) ms/s",
            "mean \(ms(meanFramesPerSecond)) fps; frame time p50 \(ms(frameTimeP50Milliseconds)) "
                + "p90 \(ms(frameTimeP90Milliseconds)) p99 \(ms(frameTimeP99Milliseconds)) "
                + "max \(ms(frameTimeMaxMilliseconds)) ms",
        ]
        if let inputLatency {
            lines.append(
                "input to screen: mean \(ms(inputLatency.meanMilliseconds)) p50 \(ms(inputLatency.p50Milliseconds)) "
                    + "p99 \(ms(inputLatency.p99Milliseconds)) max \(ms(inputLatency.maxMilliseconds)) ms "
                    + "(\(inputLatency.events) input events)")
        }
        if !pacing.isEmpty { lines.append("pacing: \(pacing)") }
        for choice in frameRateChoices ?? [] { lines.append("frame rate: \(choice)") }
        for drop in drops.suffix(5) {
            let head = "  frame \(drop.frame): \(ms(drop.intervalMilliseconds)) ms, \(drop.droppedFrames) dropped — "
            if let gap = drop.gapMilliseconds {
                lines.append(head + "gap: the process did not run for \(ms(gap)) ms")
                continue
            }
            var line = head + "\(drop.phase) \(ms(drop.phaseMilliseconds)) ms"
            if let culprit = drop.culprit { line += ", slowest: \(culprit) \(ms(drop.culpritMilliseconds)) ms" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// "1234" → "12.34": an integer count of hundredths as a decimal.
    fileprivate var paddedHundredths: String {
        let negative = hasPrefix("-")
        var digits = negative ? String(dropFirst()) : self
        while digits.count < 3 { digits = "0" + digits }
        return (negative ? "-" : "") + digits.dropLast(2) + "." + digits.suffix(2)
    }
}
