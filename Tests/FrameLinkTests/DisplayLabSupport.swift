@_spi(FrameSourceImplementation) import FrameLink

/// One scenario of the display lab: a display, a frame's work, and what happens during the run.
struct LabScenario: CustomStringConvertible, Sendable {
    var name: String
    var refresh: DisplayLab.Refresh
    var buffers = 2
    var jitter = PresentJitter.none
    var seed: UInt64 = 7
    var feedback = false
    /// The swap chain's buffers as the game tells the source (as it would after configuring them).
    var declaredBuffers: Int?
    /// What the source is told the display's rate is (the display's own unless set).
    var nominal: FrameRate?
    /// How long a present that does not wait for a refresh takes (a software renderer draws in it).
    var presentCost: Duration?
    /// The work of every frame.
    var work: Duration = .milliseconds(3)
    var frames = 600
    /// Extra work at given frames (loop frame indices).
    var overruns: [Int64: Duration] = [:]
    /// Frames at which the window is hidden, and shown again.
    var hidden: ClosedRange<Int64>?
    /// A move to another display at a frame.
    var move: (frame: Int64, refresh: DisplayLab.Refresh)?

    /// A regression pin (``DisplayLabTimingTests``, not an outcome): the frames that go back to back
    /// while the source measures again whether present blocks, after a start too slow for a swap
    /// chain to fill; the rate is measured within 2 s of the first of them.
    var backToBack: ClosedRange<Int64>?

    /// How far the loop's drops may be from the truth: 0, except where the source cannot know
    /// the display's state at the start (a variable display's last refresh before the first
    /// frame, when present does not block).
    var dropsWithin = 0
    /// The frames' own pace, if the display waits for them: the mean interval from frame 100 on
    /// is this, plus at most the present's jitter (0.3 ms).
    var frameInterval: Duration?

    /// The mode the run must end in.
    var mode: PresentSource.Mode = .vsync
    /// A regression pin (``DisplayLabTimingTests``): the frame by which the mode settled.
    var modeBy: Int64 = 110
    /// A regression pin (``DisplayLabTimingTests``): the frame by which the grid was phase-locked.
    var lockedBy: Int64?
    /// The last frame the lock must hold through (the run's end unless set): a swap chain that
    /// drained and stopped blocking leaves the line carried past its newest return, and the lock
    /// ends once carrying makes it too imprecise (`PresentSource.isPhaseLocked`).
    var lockedThrough: Int64?
    /// The display's true rate at the end of the run (for the measured rate).
    var finalRate: FrameRate?
    /// Whether no interval after the start-up probe may be shorter than the nominal rate's period
    /// (a vsync faster than the display reports is not taken, not even while measuring).
    var neverFasterThanNominal = false

    var description: String { name }
}

/// What a scenario's run produced: the loop's view of every frame, and the lab's ground truth.
@MainActor
struct LabRun {
    struct Frame {
        var index: Int64
        var timestamp: FrameInstant
        var target: FrameInstant
        var deltaTime: Duration
        var duration: Duration
        var mode: PresentSource.Mode
        var isPhaseLocked: Bool
        var measured: FrameRate?
        var droppedSoFar: Int
        /// Whether the source has said the vsync is faster than the display's rate.
        var fasterThanDisplay: Bool
        /// Whether the source says it is measuring whether present blocks (frames may then go back
        /// to back, to fill a swap chain).
        var isMeasuring: Bool
        /// Whether the source said the timestamp is a vsync of its grid (what the sweep judges).
        var followsVsync = false
    }

    let lab: DisplayLab
    let source: PresentSource
    let loop: FrameLoop
    var frames: [Frame] = []

    init(_ scenario: LabScenario) throws {
        lab = DisplayLab(
            refresh: scenario.refresh, buffers: scenario.buffers, jitter: scenario.jitter, seed: scenario.seed,
            feedback: scenario.feedback)
        if let presentCost = scenario.presentCost { lab.presentCost = presentCost }
        source = lab.makeSource(nominalRate: scenario.nominal)
        if let declared = scenario.declaredBuffers { source.swapChainBuffers = declared }
        // A nominal rate that frames never exceed is a cap (an override, or a rate assumed for a
        // display that reports none), as SDLHost sets it.
        source.capsAtDisplayRefreshRate = scenario.neverFasterThanNominal
        loop = FrameLoop(source: source)
        let recorder = Recorder<Frame>()
        let (lab, source, loop) = (lab, source, loop)
        let link = DisplayLink { link in
            recorder.append(
                Frame(
                    index: link.frameIndex, timestamp: link.timestamp, target: link.targetTimestamp,
                    deltaTime: link.deltaTime, duration: link.duration, mode: source.mode,
                    isPhaseLocked: source.isPhaseLocked, measured: source.measuredRefreshRate,
                    droppedSoFar: loop.statistics.droppedFrames,
                    fasterThanDisplay: source.pacingState.reason.isFasterThanDisplay,
                    isMeasuring: source.pacingState.reason.isMeasuring, followsVsync: source.timestampFollowsVsync))
            if let hidden = scenario.hidden {
                // The host learns of the hide and the show (SDL's window events) and says so.
                if link.frameIndex == hidden.lowerBound { (lab.isHidden, source.isWindowHidden) = (true, true) }
                if link.frameIndex == hidden.upperBound { (lab.isHidden, source.isWindowHidden) = (false, false) }
            }
            if let move = scenario.move, link.frameIndex == move.frame {
                lab.changeRefresh(to: move.refresh)
                // The host learns of the move (SDL's display-changed event) and says so.
                if let rate = DisplayLabMatrixTests.rate(of: move.refresh) { source.displayRefreshRate = rate }
            }
            lab.work(for: scenario.work + (scenario.overruns[link.frameIndex] ?? .zero))
        }
        link.add(to: loop, forMode: .common)
        loop.run(frames: scenario.frames)
        link.invalidate()
        frames = recorder.values
    }

    /// The lab's record of the frame that loop frame `index` presented, if it presented one.
    func labFrame(presentedBy index: Int64) -> LabFrame? {
        Int(index) < lab.frames.count ? lab.frames[Int(index)] : nil
    }

    /// The first frame from which `condition` holds for every later frame.
    func firstFrame(
        from which: Int64 = 1, through last: Int64 = .max, holdingFromThenOn condition: (Frame) -> Bool
    ) -> Int64? {
        var first: Int64?
        for frame in frames where frame.index >= which && frame.index <= last {
            if condition(frame) {
                if first == nil { first = frame.index }
            } else {
                first = nil
            }
        }
        return first
    }

    /// The distance from a frame's timestamp to the nearest true refresh, in nanoseconds.
    func vsyncError(_ frame: Frame) -> Int64 {
        let times = lab.refreshTimes
        var low = 0
        var high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] <= frame.timestamp { low = middle + 1 } else { high = middle }
        }
        let before = low > 0 ? times[low - 1] : nil
        let after = low < times.count ? times[low] : nil
        var best = Int64.max
        if let before { best = min(best, (frame.timestamp - before).wholeNanoseconds) }
        if let after { best = min(best, (after - frame.timestamp).wholeNanoseconds) }
        return best
    }
}

/// Scripted input on the display lab: an event every `every` nanoseconds, read (and noted to the
/// loop) in the event phase of the frame that follows it, and the lab's ground truth of when each
/// event reached the screen: the frame presented at the end of the frame that read it.
@MainActor
final class ScriptedInput {
    private var nextInput: Int64 = 1_000_000
    private var read: [Int64] = []
    private var inputsOfFrame: [Int64: [Int64]] = [:]
    private let lab: DisplayLab

    /// Installs the input on `loop`'s event handler and wraps `source`'s present to note which
    /// frame carried which input.
    init(every interval: Int64, lab: DisplayLab, loop: FrameLoop, source: PresentSource) {
        self.lab = lab
        loop.eventHandler = { [unowned self] loop in
            while nextInput <= loop.now.nanoseconds {
                loop.noteInput(at: FrameInstant(nanoseconds: nextInput))
                read.append(nextInput)
                nextInput += interval
            }
        }
        source.present = { [unowned self] in
            lab.present()
            inputsOfFrame[Int64(lab.frames.count)] = read
            read.removeAll()
        }
    }

    /// The true mean input-to-screen latency in milliseconds, over the frames after the first `skip`.
    func trueMeanLatency(skippingFrames skip: Int) -> Double {
        var truth: [Int64] = []
        for frame in lab.frames.dropFirst(skip) {
            guard let shown = frame.shownAt else { continue }
            truth += (inputsOfFrame[frame.number] ?? []).map { shown.nanoseconds - $0 }
        }
        return Double(truth.reduce(0, +)) / Double(max(1, truth.count)) / 1e6
    }
}

extension PacingReason {
    /// Whether the source found the present's vsync faster than the display.
    var isFasterThanDisplay: Bool {
        if case .vsyncFasterThanDisplay = self { return true }
        return false
    }
}
