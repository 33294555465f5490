import FrameLink
import FrameLinkSDL

/// What AnimDemo writes with `--report`: FrameLink's own ``FrameReport`` of the run (under
/// `statistics`) and the settings and events of the demo that produced it, as JSON.
///
/// Dropped frames follow FrameLink's rule: with refresh period P, an interval I between two frames
/// drops `round(I / P) − 1` frames when I > 1.5 P. Each drop in `statistics.drops` names the phase and
/// the callback that overran; injected stalls are blamed on the link labelled `"injected stall"`.
struct DemoReport: Codable {
    /// The loop's statistics: frames, drops with blame, hitch ratio, percentiles, pacing.
    var statistics: FrameReport
    /// Frames the loop ran (one more than the intervals in `statistics.frames`).
    var framesRun: Int64
    /// The mean frame interval in milliseconds: the cost of a frame when pacing is off.
    var millisecondsPerFrame: Double
    /// Time covered by the recorded intervals, in seconds.
    var durationSeconds: Double
    /// Number of sprites at the end of the run.
    var sprites: Int
    /// The seed of sprite placement and motion.
    var seed: UInt64
    /// Whether the run was headless.
    var headless: Bool
    /// The SDL video driver in use.
    var videoDriver: String
    /// The renderer, and whether it fell back to software.
    var renderer: String
    /// The pacing asked for on the command line: auto, vsync, deadline or off.
    var pacingRequested: String
    /// The mode the frame source was in at the end: vsync or deadline.
    var pacingMode: String
    /// The refresh rate SDL reported for the display in hertz, or nil for none.
    var displayRefreshRate: Int?
    /// The rate the loop paced to, in hertz.
    var pacedRefreshRate: Double
    /// The game clock's time scale at the end (1 normal, below 1 slow motion).
    var timeScale: Double
    /// The label that injected stalls are blamed on.
    var stallLabel: String
    /// The stalls injected (`--stall-every`, the S key), in order.
    var injectedStalls: [StallInjector.Stall]
    /// What ended the run: frames, escape, window closed, SIGINT, SIGTERM or SIGHUP.
    var endedBy: String
    /// Where the host learned when frames reached the screen: `presentation feedback: Wayland
    /// presentation-time (…)`, or `no presentation feedback (why): …`.
    var presentationFeedback: String

    /// Builds the report from the loop's statistics and the host after a run.
    @MainActor
    init(
        host: SDLHost, framesRun: Int64, sprites: Int, options: DemoOptions, videoDriver: String,
        stalls: [StallInjector.Stall], timeScale: Double, endedBy: String
    ) {
        let loopStatistics = host.loop.statistics
        statistics = loopStatistics.report
        self.framesRun = framesRun
        durationSeconds = (loopStatistics.elapsed / .seconds(1))
        millisecondsPerFrame = loopStatistics.frames > 0 ? durationSeconds * 1e3 / Double(loopStatistics.frames) : 0
        self.sprites = sprites
        seed = options.seed
        headless = options.headless
        self.videoDriver = videoDriver
        renderer = host.rendererDescription
        pacingRequested = options.pacing.rawValue
        pacingMode = options.pacing == .off ? "off" : host.source.mode.rawValue
        displayRefreshRate = host.displayRefreshRate
        pacedRefreshRate = host.refreshRate.framesPerSecond
        self.timeScale = timeScale
        stallLabel = StallInjector.label
        injectedStalls = stalls
        self.endedBy = endedBy
        presentationFeedback = host.presentationFeedback.description
    }

    /// A one-paragraph account of the run for the terminal, then FrameLink's summary.
    var paragraph: String {
        func ms(_ value: Double) -> String { format(value, decimals: 2) }
        let verdict =
            statistics.hitchTimeRatio < 5 ? "good" : statistics.hitchTimeRatio <= 10 ? "warning" : "critical"
        var text =
            "AnimDemo ran \(framesRun) frames of \(sprites) sprites (seed \(seed)) with the \(renderer) on the "
            + "\(videoDriver) video driver, ended by \(endedBy). Over \(statistics.frames) frame intervals in "
            + "\(format(durationSeconds, decimals: 2)) s (\(ms(millisecondsPerFrame)) ms per frame, "
            + "\(format(statistics.meanFramesPerSecond, decimals: 1)) fps) \(statistics.droppedFrames) "
            + "frame\(statistics.droppedFrames == 1 ? " was" : "s were") dropped in \(statistics.dropEvents) drop "
            + "event\(statistics.dropEvents == 1 ? "" : "s"); hitch-time ratio "
            + "\(ms(statistics.hitchTimeRatio)) ms/s (\(verdict))."
        if !injectedStalls.isEmpty {
            text += " \(injectedStalls.count) stall\(injectedStalls.count == 1 ? " was" : "s were") injected."
        }
        text += " Shown times: \(presentationFeedback)."
        return text + "\n" + statistics.summary
    }
}
