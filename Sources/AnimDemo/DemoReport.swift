import FrameLink
import FrameLinkSDL

/// What AnimDemo writes with `--report`: the run's frame statistics and the settings that produced
/// them, as JSON.
///
/// Dropped frames follow FrameLink's rule: with refresh period P, an interval I between two frames
/// drops `round(I / P) − 1` frames when I > 1.5 P.
struct DemoReport: Codable {
    /// Frame-time percentiles in milliseconds.
    struct FrameIntervals: Codable {
        var p50: Double
        var p90: Double
        var p99: Double
        var max: Double
    }

    /// Frames the loop ran.
    var frames: Int64
    /// Frame intervals recorded (frames that followed a frame, while a display link was active).
    var intervals: Int
    /// Time covered by the recorded intervals, in seconds.
    var durationSeconds: Double
    /// Intervals per second.
    var meanFramesPerSecond: Double
    /// Frame interval percentiles, in milliseconds.
    var frameIntervalMilliseconds: FrameIntervals
    /// The refresh period drops are counted against, in milliseconds.
    var periodMilliseconds: Double
    /// Frames dropped in all.
    var droppedFrames: Int
    /// Intervals that dropped at least one frame.
    var dropEvents: Int
    /// The longest hitch (interval minus one period), in milliseconds.
    var longestHitchMilliseconds: Double
    /// Hitch milliseconds per second of frames (good < 5, warning 5–10, critical > 10).
    var hitchTimeRatio: Double
    /// How frames were paced, and why.
    var pacing: String
    /// The renderer, and whether it fell back to software.
    var renderer: String
    /// The refresh rate SDL reported for the display in hertz, or nil for none.
    var displayRefreshRate: Int?
    /// The rate the loop paced to, in hertz.
    var pacedRefreshRate: Double
    /// Number of sprites.
    var sprites: Int
    /// The seed of sprite placement and motion.
    var seed: UInt64
    /// Whether the run was headless.
    var headless: Bool
    /// The SDL video driver in use.
    var videoDriver: String
    /// The most recent drop events, with the phase and callback that overran.
    var drops: [FrameReport.Drop]

    /// Builds the report from the loop's statistics and the host after a run.
    @MainActor
    init(host: SDLHost, framesRun: Int64, sprites: Int, seed: UInt64, headless: Bool, videoDriver: String) {
        let statistics = host.loop.statistics.report
        frames = framesRun
        intervals = statistics.frames
        durationSeconds = host.loop.statistics.elapsed.secondsValue
        meanFramesPerSecond = statistics.meanFramesPerSecond
        frameIntervalMilliseconds = FrameIntervals(
            p50: statistics.frameTimeP50Milliseconds, p90: statistics.frameTimeP90Milliseconds,
            p99: statistics.frameTimeP99Milliseconds, max: statistics.frameTimeMaxMilliseconds)
        periodMilliseconds = statistics.periodMilliseconds
        droppedFrames = statistics.droppedFrames
        dropEvents = statistics.dropEvents
        longestHitchMilliseconds = statistics.longestHitchMilliseconds
        hitchTimeRatio = statistics.hitchTimeRatio
        pacing = host.pacingDescription
        renderer = host.rendererDescription
        displayRefreshRate = host.displayRefreshRate
        pacedRefreshRate = host.refreshRate.framesPerSecond
        self.sprites = sprites
        self.seed = seed
        self.headless = headless
        self.videoDriver = videoDriver
        drops = statistics.drops
    }

    /// A one-paragraph account of the run for the terminal.
    var paragraph: String {
        func ms(_ value: Double) -> String { format(value, decimals: 2) }
        let verdict =
            hitchTimeRatio < 5 ? "good" : hitchTimeRatio <= 10 ? "warning" : "critical"
        var text =
            "AnimDemo ran \(frames) frames of \(sprites) sprites (seed \(seed)) with the \(renderer) "
            + "on the \(videoDriver) video driver. Over \(intervals) frame intervals in "
            + "\(format(durationSeconds, decimals: 2)) s (\(format(meanFramesPerSecond, decimals: 1)) fps) the frame "
            + "interval was p50 \(ms(frameIntervalMilliseconds.p50)) ms, p99 \(ms(frameIntervalMilliseconds.p99)) ms, "
            + "max \(ms(frameIntervalMilliseconds.max)) ms against a period of \(ms(periodMilliseconds)) ms. "
            + "\(droppedFrames) frame\(droppedFrames == 1 ? " was" : "s were") dropped in \(dropEvents) drop "
            + "event\(dropEvents == 1 ? "" : "s") (an interval I drops round(I/P) − 1 frames when I > 1.5 P); "
            + "longest hitch \(ms(longestHitchMilliseconds)) ms, hitch-time ratio "
            + "\(ms(hitchTimeRatio)) ms/s (\(verdict)). Pacing: \(pacing)."
        if let worst = drops.max(by: { $0.intervalMilliseconds < $1.intervalMilliseconds }) {
            text +=
                " Worst drop: frame \(worst.frame), \(ms(worst.intervalMilliseconds)) ms, where \(worst.phase) took "
                + "\(ms(worst.phaseMilliseconds)) ms"
            if let culprit = worst.culprit { text += " (slowest: \(culprit), \(ms(worst.culpritMilliseconds)) ms)" }
            text += "."
        }
        return text
    }
}
