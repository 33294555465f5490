@_spi(FrameSourceImplementation) import FrameLink

/// A scenario run on the display lab: what the loop handed its display link each frame, and the
/// lab's ground truth.
@MainActor
public struct SweepRun {
    /// One frame as the game saw it.
    public struct Frame: Sendable {
        /// The loop's frame index.
        public var index: Int64
        /// The link's timestamp, in nanoseconds of the lab's clock.
        public var timestamp: Int64
        /// The link's target timestamp, in nanoseconds.
        public var target: Int64
        /// The link's deltaTime, in nanoseconds.
        public var deltaTime: Int64
        /// Whether the source said the timestamp is a vsync of its grid (the frame follows it).
        public var followsVsync: Bool
        /// The drops the loop had booked by then.
        public var droppedSoFar: Int
        /// Whether the source paced by vsync.
        public var isVsync: Bool
        /// Whether the source said its grid is phase-locked (``PresentSource/isPhaseLocked``).
        public var isPhaseLocked: Bool
    }

    /// The scenario run.
    public let scenario: SweepScenario
    /// The simulated display, with its ground truth.
    public let lab: DisplayLab
    /// The source under test.
    public let source: PresentSource
    /// Every frame, in order. (Tests set them to judge a source that behaved otherwise.)
    public internal(set) var frames: [Frame] = []

    /// Runs `scenario`.
    public init(_ scenario: SweepScenario) {
        self.scenario = scenario
        lab = DisplayLab(
            refresh: scenario.refresh, buffers: scenario.buffers, jitter: scenario.jitter, seed: scenario.labSeed,
            feedback: scenario.feedback)
        lab.hiddenPresent = scenario.hiddenPresent
        let source = lab.makeSource(nominalRate: scenario.cap)
        // A cap is a rate the game asked the host for (SDLHost says so).
        source.capsAtDisplayRefreshRate = scenario.cap != nil
        source.swapChainBuffers = scenario.buffers
        self.source = source
        let loop = FrameLoop(source: source)
        loop.drainsMainQueue = false
        let recorder = SweepRecorder()
        var random = SweepRandom(seed: scenario.labSeed ^ 0x5EED)
        let lab = lab
        var period = (scenario.cap ?? scenario.rate).periodNanoseconds
        let link = DisplayLink { link in
            recorder.frames.append(
                Frame(
                    index: link.frameIndex, timestamp: link.timestamp.nanoseconds,
                    target: link.targetTimestamp.nanoseconds,
                    deltaTime: link.deltaTime.components.seconds
                        * 1_000_000_000 + link.deltaTime.components.attoseconds / 1_000_000_000,
                    followsVsync: source.timestampFollowsVsync, droppedSoFar: loop.statistics.droppedFrames,
                    isVsync: source.mode == .vsync, isPhaseLocked: source.isPhaseLocked))
            if let hidden = scenario.hidden {
                // The host learns of the hide and the show (SDL's window events) and says so.
                if link.frameIndex == hidden.lowerBound { (lab.isHidden, source.isWindowHidden) = (true, true) }
                if link.frameIndex == hidden.upperBound { (lab.isHidden, source.isWindowHidden) = (false, false) }
            }
            if let move = scenario.move, link.frameIndex == move.frame {
                lab.changeRefresh(to: move.refresh, blankingFor: scenario.modesetGap)
                let rate = SweepScenario.rate(of: move.refresh)
                // The host learns of the new display: its rate, and that it has no variable range.
                if case .fixed = move.refresh { source.variableRefreshRange = nil }
                source.displayRefreshRate = rate
                period = rate.periodNanoseconds
            }
            var fraction: Double
            switch scenario.cost {
            case .constant(let value): fraction = value
            case .uniform(let low, let high): fraction = low + random.unit() * (high - low)
            case .hovering: fraction = 0.9 + random.unit() * 0.2
            }
            fraction += scenario.overruns[link.frameIndex] ?? 0
            lab.work(for: .nanoseconds(Int64(fraction * Double(period))))
            if let hitch = scenario.hitch, link.frameIndex == hitch.frame { lab.work(for: hitch.duration) }
        }
        link.add(to: loop, forMode: .common)
        loop.run(frames: scenario.frames)
        link.invalidate()
        frames = recorder.frames
    }
}

/// Collects the frames inside the display link's closure.
@MainActor
final class SweepRecorder {
    var frames: [SweepRun.Frame] = []
}
