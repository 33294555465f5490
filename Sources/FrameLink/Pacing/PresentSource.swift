/// A frame source whose frame boundary is a present function that may block on vsync — an SDL
/// renderer's present, a GL swap, a Vulkan queue present — with a precise deadline fallback.
///
/// The frame timestamp is taken right after present returns. While pacing is ``Pacing/automatic``
/// the source keeps checking whether present really blocks (windows get hidden, minimized, moved to
/// another display):
/// - **vsync** when the median present of the last 16 frames blocks for a quarter of a period or
///   more; the real refresh period is then measured from the intervals, so a 59.94 Hz display that
///   SDL reports as 59 Hz is paced and counted at 59.94 Hz;
/// - **deadline** when present returns at once (median under a tenth of a period: vsync is not
///   honoured), or when it blocks but the intervals jitter by more than 1 ms (an emulated vsync, as
///   under Xvfb): frames are then paced by a ``DeadlineSource`` on the display's grid.
///
/// The chosen mode and the reason are in ``mode`` and ``reason``, and in every statistics report.
///
/// **Auto frame rate** (opt-in, like Android's Swappy): when the frame's work costs more than the
/// budget on average over 10 frames, the source presents on every 2nd vsync, evenly, and returns to
/// every vsync after 30 frames comfortably under budget. Timestamps stay real, so time-based
/// animation keeps its speed; ``refreshRate`` becomes the effective rate, so statistics do not count
/// the halved rate as drops.
@MainActor
public final class PresentSource: FrameSource {
    /// How the source is asked to pace.
    public enum Pacing: Sendable, Equatable {
        /// Detect whether present blocks on vsync and choose (the default).
        case automatic
        /// Trust present to block on vsync.
        case vsync
        /// Always pace by deadline after presenting.
        case deadline
        /// No pacing: present and start the next frame at once, to measure what a frame costs.
        case unpaced
    }

    /// How the source is pacing now.
    public enum Mode: String, Sendable, Equatable {
        /// Present blocks on vsync; the timestamp is taken when it returns.
        case vsync
        /// Present returns at once; the source sleeps and spins to a deadline grid.
        case deadline
        /// Frames follow one another as fast as they are made (pacing off).
        case unpaced
    }

    /// The requested pacing. Changing it takes effect at the next frame.
    public var pacing: Pacing {
        didSet { applyRequestedPacing() }
    }

    /// The current mode.
    public private(set) var mode: Mode

    /// Why the source is in its current mode, such as
    /// `"present returned in 0.05 ms, vsync not honoured"`.
    public private(set) var reason: String

    /// The display's nominal refresh rate (what the display mode reports, or 60 Hz when unknown).
    public let displayRefreshRate: FrameRate

    /// The refresh rate measured from vsync intervals, once enough frames were seen in vsync mode.
    public private(set) var measuredRefreshRate: FrameRate?

    /// Whether the source halves the frame rate while frames run over budget (off by default).
    public var automaticFrameRate = false {
        didSet { if !automaticFrameRate { setPresentInterval(1, because: nil) } }
    }

    /// Present on every vsync (1) or every 2nd (2, while auto frame rate has halved the rate).
    public private(set) var presentInterval = 1

    /// How long the last present took, in nanoseconds.
    public private(set) var lastPresentDuration: Int64 = 0

    /// The clock the source reads and sleeps on.
    public var clock: any PacingClock { deadline.clock }

    /// The deadline pacer used when vsync is not honoured.
    public let deadline: DeadlineSource

    /// Presents the frame; may block until vsync. Called at every frame boundary, and once before
    /// an idle wait so that a frame drawn while no display link is active still reaches the screen.
    public var present: (@MainActor () -> Void)?

    /// Returns true when input is waiting; checked between idle sleeps so that input wakes the loop.
    public var inputPending: (@MainActor () -> Bool)? {
        get { deadline.inputPending }
        set { deadline.inputPending = newValue }
    }

    /// A note appended to ``pacingDescription``, such as where the nominal rate came from
    /// (`"the display reports no refresh rate, 60 Hz assumed"`).
    public var note: String?
    private var presentDurations = _Ring(capacity: 16)
    private var frameCosts = _Ring(capacity: 30)
    private var jitter = _Ring(capacity: 60)
    private var periodSum: Int64 = 0
    private var periodCount: Int64 = 0
    private var lastTimestamp: Int64?
    private var isJitterDemoted = false
    private var autoRateReason: String?

    /// Creates a source that calls `present` at every frame boundary.
    ///
    /// - Parameters:
    ///   - displayRefreshRate: The display's nominal rate (60 Hz when unknown).
    ///   - pacing: Automatic detection (default), or a forced mode.
    ///   - clock: The clock to read and sleep on (the system's monotonic clock by default; a
    ///     ``VirtualClock`` in tests).
    ///   - present: Presents the frame; may block until vsync (settable later as ``present``).
    public init(
        displayRefreshRate: FrameRate = .hz60, pacing: Pacing = .automatic, clock: (any PacingClock)? = nil,
        present: (@MainActor () -> Void)? = nil
    ) {
        self.displayRefreshRate = displayRefreshRate
        self.pacing = pacing
        self.present = present
        deadline = DeadlineSource(refreshRate: displayRefreshRate, clock: clock)
        switch pacing {
        case .vsync:
            mode = .vsync
            reason = "vsync requested"
        case .deadline:
            mode = .deadline
            reason = "deadline pacing requested"
        case .unpaced:
            mode = .unpaced
            reason = "pacing off requested"
        case .automatic:
            mode = .deadline
            reason = "measuring whether present blocks on vsync"
        }
    }

    /// The effective frame rate: the display's (measured when known) divided by ``presentInterval``.
    public var refreshRate: FrameRate {
        let base = mode == .vsync ? (measuredRefreshRate ?? displayRefreshRate) : displayRefreshRate
        guard presentInterval > 1 else { return base }
        return (try? FrameRate(numerator: base.numerator, denominator: base.denominator * Int64(presentInterval)))
            ?? base
    }

    /// The time since the source was created.
    public var now: FrameInstant { deadline.now }

    /// The mode, the rate and the reason, for reports.
    public var pacingDescription: String {
        var text: String
        switch mode {
        case .vsync:
            let rate = measuredRefreshRate.map { "\($0) measured" } ?? "\(displayRefreshRate) nominal"
            text = "vsync (\(rate)): \(reason)"
        case .deadline:
            text = "deadline \(displayRefreshRate): \(reason)"
            if deadline.interferenceShifts > 0 {
                text += "; grid moved \(deadline.interferenceShifts)× away from interruptions at its deadlines"
            }
        case .unpaced:
            text = "unpaced: \(reason)"
        }
        if let autoRateReason { text += "; \(autoRateReason)" }
        if let note { text += " (\(note))" }
        if clock.sleepsInRealTime, let mainQueueNote = MainQueueDrain.note { text += "; \(mainQueueNote)" }
        return text
    }

    /// Presents, then returns the frame timestamp: right after present in vsync mode, or at the
    /// next deadline of the grid in deadline mode.
    public func waitForNextFrame() -> FrameInstant {
        let workEnd = now.nanoseconds
        if let lastTimestamp {
            noteFrameCost(workEnd - lastTimestamp)
            if mode == .vsync && presentInterval > 1 {
                // Skip a vsync: present only once the one in between has passed.
                let period = currentPeriod
                clock.sleep(untilNanoseconds: deadlineEpochOffset + lastTimestamp + period * 3 / 2)
            }
        }
        let presentStart = now.nanoseconds
        present?()
        let presentEnd = now.nanoseconds
        lastPresentDuration = presentEnd - presentStart
        presentDurations.append(lastPresentDuration)

        let timestamp: FrameInstant
        switch mode {
        case .vsync, .unpaced:
            timestamp = FrameInstant(nanoseconds: presentEnd)
        case .deadline:
            timestamp = deadline.waitForDeadline(framesAfterLast: Int64(presentInterval))
        }
        if let lastTimestamp { noteInterval(timestamp.nanoseconds - lastTimestamp) }
        lastTimestamp = timestamp.nanoseconds
        if pacing == .automatic { detect() }
        return timestamp
    }

    /// Presents what the last frame drew, then sleeps like the deadline source while no display
    /// link is active.
    public func waitIdle(until deadlineInstant: FrameInstant?, drainMainQueue: () -> Void) -> FrameInstant {
        present?()
        let woke = deadline.waitIdle(until: deadlineInstant, drainMainQueue: drainMainQueue)
        lastTimestamp = nil
        return woke
    }

    /// Remembers the loop (for its deadline pacer).
    public func attach(to loop: FrameLoop) {
        deadline.attach(to: loop)
    }

    /// `frames` periods of the effective rate after `timestamp`.
    public func expectedTimestamp(frames: Int64, after timestamp: FrameInstant) -> FrameInstant {
        let rate = refreshRate
        return FrameInstant(nanoseconds: timestamp.nanoseconds + rate.offsetNanoseconds(ofFrame: frames))
    }

    // MARK: Detection

    private var currentPeriod: Int64 {
        (mode == .vsync ? (measuredRefreshRate ?? displayRefreshRate) : displayRefreshRate).periodNanoseconds
    }

    /// The deadline source's clock reads `epoch + now`; vsync-mode sleeps use absolute clock time.
    private var deadlineEpochOffset: Int64 { clock.nanoseconds() - now.nanoseconds }

    private func applyRequestedPacing() {
        switch pacing {
        case .vsync: switchMode(to: .vsync, because: "vsync requested")
        case .deadline: switchMode(to: .deadline, because: "deadline pacing requested")
        case .unpaced: switchMode(to: .unpaced, because: "pacing off requested")
        case .automatic:
            isJitterDemoted = false
            reason = "measuring whether present blocks on vsync"
        }
    }

    private func detect() {
        guard presentDurations.count >= 8 else { return }
        let period = displayRefreshRate.periodNanoseconds
        let median = presentDurations.median
        switch mode {
        case .deadline:
            if median * 4 >= period && !isJitterDemoted {
                switchMode(to: .vsync, because: "present blocks for \(Milliseconds(median)) ms (median of 16 frames)")
            } else if reason.hasPrefix("measuring") && presentDurations.count == presentDurations.capacity {
                reason = "present returned in \(Milliseconds(median)) ms, vsync not honoured"
            }
        case .unpaced:
            break
        case .vsync:
            if median * 10 < period {
                switchMode(
                    to: .deadline, because: "present returned in \(Milliseconds(median)) ms, vsync not honoured")
            } else if jitter.count == jitter.capacity {
                let spread = jitter.percentile(90)
                jitter.removeAll()
                if spread > 1_000_000 {
                    isJitterDemoted = true
                    switchMode(
                        to: .deadline,
                        because: "present blocks but intervals jitter by \(Milliseconds(spread)) ms (p90), "
                            + "an emulated vsync: pacing by deadline")
                }
            }
        }
    }

    private func switchMode(to newMode: Mode, because why: String) {
        reason = why
        guard newMode != mode else { return }
        mode = newMode
        presentDurations.removeAll()
        jitter.removeAll()
        if newMode == .deadline, let lastTimestamp {
            deadline.lockGrid(to: FrameInstant(nanoseconds: lastTimestamp))
        }
    }

    private func noteInterval(_ interval: Int64) {
        let period = currentPeriod
        let vsyncs = (interval + period / 2) / period
        guard vsyncs >= 1 else { return }
        let error = interval - vsyncs * period
        if mode == .vsync {
            jitter.append(abs(error))
            if vsyncs <= 2 && abs(error) * 4 < period {
                periodSum += interval
                periodCount += vsyncs
                if periodCount >= 120 {
                    let measured = Double(periodSum) / Double(periodCount)
                    let hundredths = (1e9 / measured * 100).rounded() / 100
                    measuredRefreshRate = try? FrameRate(framesPerSecond: hundredths)
                    periodSum = 0
                    periodCount = 0
                }
            }
        }
    }

    private func noteFrameCost(_ cost: Int64) {
        guard automaticFrameRate else { return }
        frameCosts.append(cost)
        let budget = displayRefreshRate.periodNanoseconds
        if presentInterval == 1 && frameCosts.count >= 10 && frameCosts.mean(last: 10) > budget * 95 / 100 {
            setPresentInterval(
                2,
                because: "presenting every 2nd vsync: frame cost \(Milliseconds(frameCosts.mean(last: 10))) ms "
                    + "over the \(Milliseconds(budget)) ms budget")
        } else if presentInterval == 2 && frameCosts.count >= 30 && frameCosts.mean(last: 30) < budget * 70 / 100 {
            setPresentInterval(1, because: nil)
        }
    }

    private func setPresentInterval(_ interval: Int, because why: String?) {
        guard interval != presentInterval else { return }
        presentInterval = interval
        autoRateReason = why
        frameCosts.removeAll()
        jitter.removeAll()
    }
}
