import Histogram

/// Frame-pacing statistics of a ``FrameLoop``: dropped frames, hitches, frame-time percentiles, and
/// for every drop the phase and callback that overran the budget.
///
/// Definitions (the same as Android's and Apple's hitch metrics): with refresh period P, an interval
/// I between two frames drops `round(I / P) − 1` frames when I > 1.5 P; such an interval is a drop
/// event and its hitch time is I − P. The hitch-time ratio is the total hitch time in milliseconds
/// per second of frames (under 5 ms/s is good, 5–10 a warning, over 10 critical).
///
/// The loop records every interval between two frames it waited for; idle sleeps (no active
/// display link) are not frames. Percentiles come from an HdrHistogram of frame intervals (3
/// significant digits), so they cost no allocation per frame.
///
/// ```swift
/// loop.statistics.dropHandler = { drop in print(drop) }
/// // frame 181: 66.7 ms, 3 dropped — links took 50.0 ms, slowest: physics (50.0 ms)
/// print(loop.statistics.summary)
/// ```
@MainActor
public final class FrameStatistics {
    /// The refresh period the drops are counted against.
    public var period: Duration { .nanoseconds(periodNanoseconds) }

    /// ``period`` in nanoseconds.
    package internal(set) var periodNanoseconds: Int64

    /// The number of frame intervals recorded.
    public private(set) var frames = 0

    /// The total number of frames dropped.
    public private(set) var droppedFrames = 0

    /// The number of intervals that dropped at least one frame.
    public private(set) var dropEvents = 0

    /// The longest hitch (interval minus one period) of any drop event.
    public var longestHitch: Duration { .nanoseconds(longestHitchNanoseconds) }

    /// The total hitch time of all drop events.
    public var totalHitch: Duration { .nanoseconds(totalHitchNanoseconds) }

    /// The time covered by the recorded intervals.
    public var elapsed: Duration { .nanoseconds(elapsedNanoseconds) }

    /// Hitch time per second of frames, in milliseconds per second.
    public var hitchTimeRatio: Double {
        elapsedNanoseconds > 0 ? Double(totalHitchNanoseconds) / 1e6 / (Double(elapsedNanoseconds) / 1e9) : 0
    }

    /// Frames per second over the recorded intervals.
    public var meanFramesPerSecond: Double {
        elapsedNanoseconds > 0 ? Double(frames) / (Double(elapsedNanoseconds) / 1e9) : 0
    }

    /// The frame interval at `percentile` (0–100), from the histogram.
    public func frameTime(atPercentile percentile: Double) -> Duration {
        frames > 0 ? .nanoseconds(Int64(histogram.valueAtPercentile(percentile))) : .zero
    }

    /// The longest frame interval recorded.
    public var longestFrameTime: Duration { .nanoseconds(longestIntervalNanoseconds) }

    /// The number of input events whose latency to the screen was measured (see
    /// ``FrameLoop/noteInput(at:)``).
    public private(set) var inputEvents = 0

    /// The input-to-screen latency at `percentile` (0–100): from an input event to when the frame
    /// that read it was shown. Zero before any input was measured.
    public func inputLatency(atPercentile percentile: Double) -> Duration {
        inputEvents > 0 ? .nanoseconds(Int64(latencyHistogram.valueAtPercentile(percentile))) : .zero
    }

    /// The mean input-to-screen latency (zero before any input was measured).
    public var meanInputLatency: Duration {
        inputEvents > 0 ? .nanoseconds(Int64(latencyHistogram.mean.rounded())) : .zero
    }

    /// The longest input-to-screen latency measured.
    public var longestInputLatency: Duration { .nanoseconds(longestLatencyNanoseconds) }

    /// The most recent drop events, oldest first (up to ``dropHistoryLimit``).
    public private(set) var drops: [FrameDrop] = []

    /// How many drop events ``drops`` keeps (256 by default).
    public var dropHistoryLimit = 256

    /// Called on every drop event, on the main actor, right after the late frame began.
    public var dropHandler: (@MainActor (FrameDrop) -> Void)?

    /// How the loop is paced, as the frame source reports it (for example
    /// `"deadline: present returned in 0.05 ms, vsync not honoured"`).
    public var pacingDescription: String { source?.pacingDescription ?? "" }

    /// The rate chosen for the loop's ``FrameLoop/preferredFrameRateRange`` (subject `"loop"`) and
    /// for each of its links with a ``DisplayLink/preferredFrameRateRange`` (subject: the link's
    /// label, or `"link"`), for the loop's current rate, and why; empty when nothing asked for a
    /// range (or for statistics not made by a loop).
    public var frameRateChoices: [FrameRateChoice] { frameRateChoicesProvider?() ?? [] }

    /// Gives ``frameRateChoices``: set by the loop.
    var frameRateChoicesProvider: (@MainActor () -> [FrameRateChoice])?

    /// The loop's source, for ``pacingDescription``. Strong: the loop holds its source strongly
    /// already, so this adds no cycle, and a weak reference would move the source's reference
    /// count to a side table, which makes every retain of it on the frame path several times slower.
    var source: (any FrameSource)?

    /// The number of recent frame intervals kept for on-screen graphs.
    public let recentCapacity: Int

    private var histogram = Histogram<UInt64>(
        lowestDiscernibleValue: 1_000, highestTrackableValue: 3_600_000_000_000, numberOfSignificantValueDigits: .three)
    private var latencyHistogram = Histogram<UInt64>(
        lowestDiscernibleValue: 1_000, highestTrackableValue: 3_600_000_000_000, numberOfSignificantValueDigits: .three)
    private var longestLatencyNanoseconds: Int64 = 0
    private var longestHitchNanoseconds: Int64 = 0
    private var totalHitchNanoseconds: Int64 = 0
    private var elapsedNanoseconds: Int64 = 0
    private var longestIntervalNanoseconds: Int64 = 0
    /// The latest frame intervals and whether each dropped frames, for graphs.
    private var recent: _Ring<(interval: Int64, dropped: Bool)>

    /// Creates empty statistics for a display with the given refresh period, keeping the last
    /// `recentCapacity` frame intervals (240 by default) for graphs.
    package init(period: Duration, recentCapacity: Int = 240) {
        periodNanoseconds = max(1, period.wholeNanoseconds)
        self.recentCapacity = max(1, recentCapacity)
        recent = _Ring(capacity: self.recentCapacity, filler: (0, false))
    }

    /// Records one frame interval; the loop calls this once per frame (nothing else may: the
    /// statistics are the loop's record of what it showed). Returns the drop event if the interval
    /// dropped frames.
    ///
    /// A positive `gapDuration` says the process did not run for that many nanoseconds of the
    /// interval (see ``FrameDrop/gapDuration``).
    @discardableResult
    package func record(
        _ record: FrameRecord, culprit: String? = nil, culpritDuration: Int64 = 0, gapDuration: Int64 = 0
    ) -> FrameDrop? {
        let interval = record.intervalNanoseconds
        frames += 1
        elapsedNanoseconds += interval
        longestIntervalNanoseconds = max(longestIntervalNanoseconds, interval)
        _ = histogram.record(UInt64(max(interval, 1_000)))
        recent.append((interval, record.droppedFrames > 0))
        guard record.droppedFrames > 0 else { return nil }

        droppedFrames += record.droppedFrames
        dropEvents += 1
        let hitch = interval - periodNanoseconds
        totalHitchNanoseconds += hitch
        longestHitchNanoseconds = max(longestHitchNanoseconds, hitch)
        let phase = record.phases.longestWorkPhase
        let drop = FrameDrop(
            frameIndex: record.index, timestamp: record.timestampNanoseconds, interval: interval,
            droppedFrames: record.droppedFrames, phase: phase, phaseDuration: record.phases[nanoseconds: phase],
            culprit: culprit, culpritDuration: culpritDuration, gapDuration: gapDuration)
        if drops.count >= dropHistoryLimit { drops.removeFirst(drops.count - dropHistoryLimit + 1) }
        if dropHistoryLimit > 0 { drops.append(drop) }
        dropHandler?(drop)
        return drop
    }

    /// Calls `body` with each recent frame interval and whether it dropped frames, oldest first.
    /// Allocates nothing.
    public func forEachRecentFrame(_ body: (_ interval: Duration, _ dropped: Bool) -> Void) {
        forEachRecentFrameNanoseconds { interval, dropped in body(.nanoseconds(interval), dropped) }
    }

    /// ``forEachRecentFrame(_:)`` in nanoseconds.
    package func forEachRecentFrameNanoseconds(_ body: (_ intervalNanoseconds: Int64, _ dropped: Bool) -> Void) {
        for age in stride(from: recent.count - 1, through: 0, by: -1) {
            let frame = recent[age: age]
            body(frame.interval, frame.dropped)
        }
    }

    /// The recent frame intervals, oldest first.
    public var recentFrameTimes: [Duration] {
        var times: [Duration] = []
        times.reserveCapacity(recent.count)
        forEachRecentFrameNanoseconds { interval, _ in times.append(.nanoseconds(interval)) }
        return times
    }

    /// Forgets everything recorded (the period, pacing description and drop handler stay).
    public func reset() {
        frames = 0
        droppedFrames = 0
        dropEvents = 0
        longestHitchNanoseconds = 0
        totalHitchNanoseconds = 0
        elapsedNanoseconds = 0
        longestIntervalNanoseconds = 0
        histogram.reset()
        latencyHistogram.reset()
        inputEvents = 0
        longestLatencyNanoseconds = 0
        drops.removeAll()
        recent.removeAll()
    }

    /// A snapshot of the figures, for reports and JSON.
    public var report: FrameReport {
        FrameReport(
            frames: frames, droppedFrames: droppedFrames, dropEvents: dropEvents,
            periodMilliseconds: Double(periodNanoseconds) / 1e6,
            longestHitchMilliseconds: Double(longestHitchNanoseconds) / 1e6,
            hitchTimeRatio: hitchTimeRatio, meanFramesPerSecond: meanFramesPerSecond,
            frameTimeP50Milliseconds: frameTime(atPercentile: 50).secondsValue * 1e3,
            frameTimeP90Milliseconds: frameTime(atPercentile: 90).secondsValue * 1e3,
            frameTimeP99Milliseconds: frameTime(atPercentile: 99).secondsValue * 1e3,
            frameTimeMaxMilliseconds: Double(longestIntervalNanoseconds) / 1e6,
            pacing: pacingDescription,
            drops: drops.map(FrameReport.Drop.init),
            frameRateChoices: frameRateChoices.isEmpty ? nil : frameRateChoices.map(\.description),
            inputLatency: inputEvents > 0
                ? FrameReport.InputLatency(
                    events: inputEvents, meanMilliseconds: meanInputLatency.secondsValue * 1e3,
                    p50Milliseconds: inputLatency(atPercentile: 50).secondsValue * 1e3,
                    p99Milliseconds: inputLatency(atPercentile: 99).secondsValue * 1e3,
                    maxMilliseconds: Double(longestLatencyNanoseconds) / 1e6) : nil)
    }

    /// Records one input event's latency to the screen, in nanoseconds (ignored if negative).
    func recordInputLatency(_ nanoseconds: Int64) {
        guard nanoseconds >= 0 else { return }
        inputEvents += 1
        longestLatencyNanoseconds = max(longestLatencyNanoseconds, nanoseconds)
        latencyHistogram.record(UInt64(min(max(nanoseconds, 1_000), 3_600_000_000_000)))
    }

    /// A short human-readable summary of the figures.
    public var summary: String { report.summary }
}
