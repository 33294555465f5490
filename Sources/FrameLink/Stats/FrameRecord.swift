/// What happened in one frame interval: the record the statistics, the frame log and replay share.
///
/// Frame `index` began at `timestamp`, `interval` after the previous frame. `phases` are the
/// durations of the work between the two frames (the previous frame's events, timers, links and
/// render) and of the wait that ended at `timestamp`.
public struct FrameRecord: Hashable, Sendable {
    /// The loop's frame index.
    public var index: Int64
    /// When the frame began, on the source's clock.
    public var timestamp: FrameInstant {
        get { FrameInstant(nanoseconds: timestampNanoseconds) }
        set { timestampNanoseconds = newValue.nanoseconds }
    }
    /// The time since the previous frame (zero for the first frame).
    public var interval: Duration {
        get { .nanoseconds(intervalNanoseconds) }
        set { intervalNanoseconds = newValue.wholeNanoseconds }
    }
    /// ``timestamp`` in nanoseconds, as FrameLink computes with it.
    package var timestampNanoseconds: Int64
    /// ``interval`` in nanoseconds.
    package var intervalNanoseconds: Int64
    /// Frames dropped in this interval: `round(interval / period) − 1` when the interval is over 1.5
    /// periods, else 0; or fewer, when the source knew that a frame queued in the swap chain
    /// covered part of the interval (see `FrameSource.droppedFramesAtLastBoundary`).
    public var droppedFrames: Int
    /// Phase durations of the interval.
    public var phases: PhaseDurations
    /// The input events read in the previous frame (``FrameLoop/noteInput(at:)``), whose latency to
    /// the screen is known once this frame begins (0 when none were).
    public var inputEvents = 0
    /// Their mean latency from the input to the screen (zero without input).
    public var inputLatencyMean: Duration {
        get { .nanoseconds(inputLatencyMeanNanoseconds) }
        set { inputLatencyMeanNanoseconds = newValue.wholeNanoseconds }
    }
    /// Their longest latency from the input to the screen (zero without input).
    public var inputLatencyMax: Duration {
        get { .nanoseconds(inputLatencyMaxNanoseconds) }
        set { inputLatencyMaxNanoseconds = newValue.wholeNanoseconds }
    }
    /// ``inputLatencyMean`` in nanoseconds.
    package var inputLatencyMeanNanoseconds: Int64 = 0
    /// ``inputLatencyMax`` in nanoseconds.
    package var inputLatencyMaxNanoseconds: Int64 = 0
    /// When the frame this record's present put up reached the screen, as the presenter's
    /// presentation feedback reported it (Wayland's presentation-time through `SDLHost`), or `nil`
    /// when nothing reported it. The report comes a frame or two after the record is made; a frame
    /// log fills it in then (written as `shown_ns`, −1 for none, in version 3 logs).
    public var shownAt: FrameInstant?

    /// Creates a record with no input.
    public init(index: Int64, timestamp: FrameInstant, interval: Duration, droppedFrames: Int, phases: PhaseDurations) {
        self.init(
            index: index, timestamp: timestamp.nanoseconds, interval: interval.wholeNanoseconds,
            droppedFrames: droppedFrames, phases: phases)
    }

    /// Creates a record with the input shown at its frame: `inputEvents` events, their mean and
    /// longest latency to the screen.
    public init(
        index: Int64, timestamp: FrameInstant, interval: Duration, droppedFrames: Int, phases: PhaseDurations,
        inputEvents: Int, inputLatencyMean: Duration, inputLatencyMax: Duration
    ) {
        self.init(
            index: index, timestamp: timestamp.nanoseconds, interval: interval.wholeNanoseconds,
            droppedFrames: droppedFrames, phases: phases, inputEvents: inputEvents,
            inputLatencyMean: inputLatencyMean.wholeNanoseconds, inputLatencyMax: inputLatencyMax.wholeNanoseconds)
    }

    /// Creates a record with no input, from nanoseconds.
    package init(index: Int64, timestamp: Int64, interval: Int64, droppedFrames: Int, phases: PhaseDurations) {
        self.index = index
        self.timestampNanoseconds = timestamp
        self.intervalNanoseconds = interval
        self.droppedFrames = droppedFrames
        self.phases = phases
    }

    /// Creates a record with the input shown at its frame, from nanoseconds.
    package init(
        index: Int64, timestamp: Int64, interval: Int64, droppedFrames: Int, phases: PhaseDurations, inputEvents: Int,
        inputLatencyMean: Int64, inputLatencyMax: Int64
    ) {
        self.init(index: index, timestamp: timestamp, interval: interval, droppedFrames: droppedFrames, phases: phases)
        self.inputEvents = inputEvents
        self.inputLatencyMeanNanoseconds = inputLatencyMean
        self.inputLatencyMaxNanoseconds = inputLatencyMax
    }

    /// When the frame's present was called, in nanoseconds on the source's clock: the present and
    /// the wait for the boundary end at ``timestamp``, back to back.
    var presentStart: Int64 {
        timestampNanoseconds &- phases[nanoseconds: .presentWait] &- phases[nanoseconds: .present]
    }

    /// The number of frames an interval drops at a refresh period: `round(interval / period) − 1`
    /// when the interval exceeds 1.5 periods, otherwise none.
    ///
    /// Any two numbers are accepted (a replayed log may hold anything): the arithmetic cannot
    /// overflow, and a period that is not positive drops nothing.
    public static func droppedFrames(interval: Duration, period: Duration) -> Int {
        droppedFrames(interval: interval.wholeNanoseconds, period: period.wholeNanoseconds)
    }

    /// ``droppedFrames(interval:period:)`` in nanoseconds.
    package static func droppedFrames(interval: Int64, period: Int64) -> Int {
        // interval > 1.5 × period, written so that nothing overflows: interval − period is positive
        // and below Int64.max once interval > period > 0.
        guard period > 0, interval > period, interval - period > period / 2 else { return 0 }
        // round(interval / period), halves up, without adding to interval.
        let quotient = interval / period
        let remainder = interval % period
        let rounded = remainder >= period - remainder ? quotient + 1 : quotient
        return Int(rounded) - 1
    }

    /// The drops of an interval when a source `known` them: that count, kept within what the
    /// interval can hold (from zero to ``mostDroppedFrames(interval:period:)``); else the interval's
    /// (``droppedFrames(interval:period:)``).
    static func droppedFrames(interval: Int64, period: Int64, known: Int?) -> Int {
        guard let known else { return droppedFrames(interval: interval, period: period) }
        return min(max(known, 0), mostDroppedFrames(interval: interval, period: period))
    }

    /// The most frames an interval can have dropped at a frame period: one for each whole period
    /// it lasted beyond the first (an interval of 1.4 periods may hold one). Rounding the interval
    /// (``droppedFrames(interval:period:)``) is how drops are counted when nothing else is known;
    /// a source that knows them (a swap-chain model, feedback, a variable-refresh display's
    /// slowest refresh running out a little after the paced period: 22.5 ms on 44.5 Hz with
    /// frames capped at 48 Hz, 20.8 ms) may book one in an interval that rounds to a single period.
    package static func mostDroppedFrames(interval: Int64, period: Int64) -> Int {
        guard period > 0, interval > period else { return 0 }
        return Int((interval - 1) / period)
    }
}

/// A dropped-frame event: an interval that dropped frames, and what overran the frame budget.
public struct FrameDrop: Hashable, Sendable, CustomStringConvertible {
    /// The index of the frame that came late.
    public var frameIndex: Int64
    /// When the late frame began.
    public var timestamp: FrameInstant { FrameInstant(nanoseconds: timestampNanoseconds) }
    /// The interval that dropped frames.
    public var interval: Duration { .nanoseconds(intervalNanoseconds) }
    /// ``timestamp`` in nanoseconds.
    package var timestampNanoseconds: Int64
    /// ``interval`` in nanoseconds.
    package var intervalNanoseconds: Int64
    /// How many frames were dropped.
    public var droppedFrames: Int
    /// The work phase that took longest in the interval.
    public var phase: FramePhase
    /// How long that phase took.
    public var phaseDuration: Duration { .nanoseconds(phaseDurationNanoseconds) }
    /// ``phaseDuration`` in nanoseconds.
    package var phaseDurationNanoseconds: Int64
    /// The slowest callback of the interval (its label, or its kind), if callbacks were measured.
    public var culprit: String?
    /// How long the slowest callback took (its own time: callbacks it ran, such as a game
    /// clock's timers, are not counted).
    public var culpritDuration: Duration { .nanoseconds(culpritDurationNanoseconds) }
    /// ``culpritDuration`` in nanoseconds.
    package var culpritDurationNanoseconds: Int64
    /// How long the process did not run in the interval, when that is what dropped the frames
    /// (zero otherwise): the loop woke that long after the frame boundary it waited for, as when
    /// the process is stopped (SIGSTOP, a debugger), the machine is suspended, or the system
    /// starves it of CPU. Such a drop is a gap, not any phase's fault.
    public var gapDuration: Duration { .nanoseconds(gapDurationNanoseconds) }
    /// ``gapDuration`` in nanoseconds.
    package var gapDurationNanoseconds: Int64

    /// Whether the drop is a gap in which the process did not run (``gapDuration`` is positive).
    public var isGap: Bool { gapDurationNanoseconds > 0 }

    /// Creates a drop event, from nanoseconds (the statistics make drops; a game reads them).
    package init(
        frameIndex: Int64, timestamp: Int64, interval: Int64, droppedFrames: Int, phase: FramePhase,
        phaseDuration: Int64, culprit: String?, culpritDuration: Int64, gapDuration: Int64 = 0
    ) {
        self.gapDurationNanoseconds = gapDuration
        self.frameIndex = frameIndex
        self.timestampNanoseconds = timestamp
        self.intervalNanoseconds = interval
        self.droppedFrames = droppedFrames
        self.phase = phase
        self.phaseDurationNanoseconds = phaseDuration
        self.culprit = culprit
        self.culpritDurationNanoseconds = culpritDuration
    }

    /// A one-line account, such as
    /// `"frame 181: 66.7 ms, 3 dropped — links took 50.0 ms, slowest: physics (50.0 ms)"`, or for a
    /// gap `"frame 181: 3016.7 ms, 180 dropped — a gap: the process did not run for 3000.0 ms
    /// (stopped, suspended or starved of CPU)"`.
    public var description: String {
        let head = "frame \(frameIndex): \(Milliseconds(intervalNanoseconds)) ms, \(droppedFrames) dropped — "
        if isGap {
            return head
                + "a gap: the process did not run for \(Milliseconds(gapDurationNanoseconds)) ms (stopped, suspended or starved of CPU)"
        }
        var text = head + "\(phase) took \(Milliseconds(phaseDurationNanoseconds)) ms"
        if let culprit { text += ", slowest: \(culprit) (\(Milliseconds(culpritDurationNanoseconds)) ms)" }
        return text
    }
}

/// Formats nanoseconds as milliseconds with one decimal (`16.7`).
struct Milliseconds: CustomStringConvertible {
    let nanoseconds: Int64
    init(_ nanoseconds: Int64) { self.nanoseconds = nanoseconds }
    init(_ duration: Duration) { nanoseconds = duration.wholeNanoseconds }
    var description: String {
        // In 128 bits: a duration read from a log may be as large as Int64 allows.
        let tenths = (Int128(nanoseconds) + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}
