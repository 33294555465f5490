/// A simulated display on virtual time, to test frame pacing (FrameLink's, and your game's) against
/// displays you do not have: any refresh rate and phase, a swap chain of N buffers, a compositor
/// that returns late from present, frames that overrun, a hidden window, a move to another display,
/// variable refresh, an emulated vsync like Xvfb's, or none at all.
///
/// The lab is a ``PacingClock`` (time moves only when something waits or works) and a present
/// function. A present queues the frame in the swap chain and blocks while the chain is full, so
/// each frame is shown at the first refresh after it was queued (and after the frames before it,
/// and once it is ready: see ``gpuTime`` and ``latchDeadline``), and the lab knows exactly when.
/// Every frame's ground truth is in ``frames``: when it was shown, on which refresh, and how many
/// refreshes it missed.
///
/// ```swift
/// let lab = DisplayLab(refresh: .fixed(.hz60, phase: .milliseconds(3)), buffers: 3,
///                      jitter: .uniform(upTo: .microseconds(300)))
/// let source = lab.makeSource()
/// let loop = FrameLoop(source: source)
/// let link = DisplayLink { _ in lab.work(for: .milliseconds(4)) }   // the frame's work
/// link.add(to: loop, forMode: .common)
/// loop.run(frames: 600)
/// print(lab.missedRefreshes, loop.statistics.droppedFrames)          // equal
/// ```
///
/// Times are on the lab's clock, which starts at zero; a source made by ``makeSource(pacing:nominalRate:)``
/// before time moves shares them.
///
/// Some of what real displays do is off unless you turn it on, so that a plain lab stays simple
/// to reason about: a ``latchDeadline`` before each refresh, after which a frame waits for the next
/// one; ``gpuTime`` after each present before its frame is ready; a blank gap while the display
/// changes mode (``changeRefresh(to:blankingFor:)``); a hidden window whose present blocks, as on
/// Wayland (``hiddenPresent``); and present delays that are never near zero or that were measured
/// on a real machine (``PresentJitter/lognormal(median:percentile99:)``,
/// ``PresentJitter/sampled(_:)``).
@MainActor
public final class DisplayLab: PacingClock {
    /// How the display refreshes now.
    public private(set) var refresh: Refresh

    /// The buffers in the swap chain: 2 (double buffering: present blocks until its frame is on
    /// screen) or more (present returns while fewer than `buffers - 1` frames wait).
    public let buffers: Int

    /// How late a blocking present returns after the refresh that released it.
    public let jitter: PresentJitter

    /// Whether the lab tells the source when each frame reached the screen (presentation feedback,
    /// as Wayland's presentation-time or `GLX_OML_sync_control` give).
    public let providesFeedback: Bool

    /// How long a present that does not block takes (50 µs unless set).
    public var presentCost: Duration = .microseconds(50) {
        didSet {
            guard presentCost >= .zero && presentCost < .seconds(1) else {
                FrameLinkError.trap(
                    .invalidInterval("DisplayLab.presentCost \(presentCost): must be from zero to under a second"))
            }
        }
    }

    /// Whether the window is hidden (minimized, on another workspace): nothing is shown, and on a
    /// fixed or variable display present returns at once (or, as on Wayland, after a timeout: see
    /// ``hiddenPresent``); frames waiting in the swap chain are discarded when it is hidden.
    public var isHidden = false {
        didSet {
            guard isHidden != oldValue else { return }
            if isHidden {
                queue.removeAll()
                lastShownRefresh = nil
            }
        }
    }

    /// How long before a fixed display's refresh a frame must be ready to be shown at it: zero
    /// unless set, so that any frame presented before the refresh is.
    ///
    /// A real display latches the next frame a little before the refresh: the compositor repaints
    /// ahead of the vblank, a driver must program the flip before it. A frame ready (presented,
    /// plus ``gpuTime``) less than this before a refresh, or exactly this before it, is not latched
    /// by it and waits in the swap chain for the next one: that refresh shows the old frame again,
    /// and it counts in the late frame's ``LabFrame/missedRefreshes``. A present that blocks keeps
    /// blocking while the chain is full, so it waits for the later refresh too. A variable display
    /// refreshes for the frame itself and has no deadline; an emulated vsync and no vsync have no
    /// refreshes. It may be changed at any time and applies from the next refresh.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidInterval` message, if set
    ///   below zero or to a second or more.
    public var latchDeadline: Duration = .zero {
        didSet { latchNanoseconds = Self.checkedUnderASecond(latchDeadline, "latchDeadline") }
    }

    /// How long the GPU takes to finish a frame after its present call: zero unless set, so that a
    /// frame is ready when presented.
    ///
    /// The frame is ready (``LabFrame/readyAt``) this long after its present call, and no refresh
    /// shows it before: a fixed display's refresh shows it only if it was ready more than
    /// ``latchDeadline`` before; a variable display refreshes for it no sooner than when it is
    /// ready (and, if its minimum rate's period ends first, refreshes then, repeating the old
    /// frame). Frames are still shown in the order they were presented, and a blocking present
    /// blocks while the chain is full, so until its frame (or the one ahead) is shown. On an
    /// emulated vsync or no vsync, the frame counts as shown when it would have been or when it is
    /// ready, whichever is later. The value at each present call applies to that frame, so it may
    /// be changed frame by frame.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidInterval` message, if set
    ///   below zero or to a second or more.
    public var gpuTime: Duration = .zero {
        didSet { gpuNanoseconds = Self.checkedUnderASecond(gpuTime, "gpuTime") }
    }

    /// What a present does while the window is hidden on a fixed or variable display:
    /// ``HiddenPresent/returnsAtOnce`` (as on X11) unless set, or
    /// ``HiddenPresent/waitsForFrameCallbacks(timeout:)`` (as on Wayland), which moves time forward
    /// by the timeout. Nothing is shown while hidden either way.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidInterval` message, if set to
    ///   a timeout that is not above zero or is over 10 seconds.
    public var hiddenPresent: HiddenPresent = .returnsAtOnce {
        didSet { _ = hiddenPresent.validated() }
    }

    /// The longest ``latchDeadline`` or ``gpuTime``: under a second, longer than any display's
    /// refresh period (the slowest rate the lab takes is 1 Hz).
    static let longestDelayNanoseconds: Int64 = 1_000_000_000

    /// The longest blank gap of ``changeRefresh(to:blankingFor:)``: 2 s, longer than a monitor
    /// takes to retrain its link and lock to a new mode (a fraction of a second to about a second).
    static let longestModesetGapNanoseconds: Int64 = 2_000_000_000

    /// Every frame presented so far, with its ground truth.
    public private(set) var frames: [LabFrame] = []

    /// The time of every refresh of the display so far (kept for the whole run, as ``frames`` is).
    public private(set) var refreshTimes: [FrameInstant] = []

    /// The refreshes that showed an old frame again, summed over every frame shown (see
    /// ``LabFrame/missedRefreshes``).
    public private(set) var missedRefreshes = 0

    /// The least delay a blocking present returned with after the refresh that released it, so far
    /// (`nil` before one blocked): the floor of the present delay as this run drew it. Without
    /// presentation feedback no pacer can see it (every return is late by it, so it looks like the
    /// vsync's phase); a judge may ask how far a run's timestamps are from the truth beyond it.
    public private(set) var leastPresentDelay: Duration?

    private var time: Int64 = 0
    private var random: _SplitMix64
    private var queue: [Int] = []
    private var lastRefreshTime: Int64?
    private var lastShownRefresh: Int64?
    private var gridOrigin: Int64
    private var pendingRefresh: Refresh?
    /// The blank gap of the pending change, in nanoseconds.
    private var pendingBlanking: Int64 = 0
    /// The first refresh after a blank gap, while the display is blank.
    private var blankUntil: Int64?
    private var latchNanoseconds: Int64 = 0
    private var gpuNanoseconds: Int64 = 0
    private var emulatedTick: Int64 = .min
    private weak var feedbackSource: PresentSource?

    /// Creates a display.
    ///
    /// - Parameters:
    ///   - refresh: How it refreshes: ``Refresh/fixed(_:phase:)`` for a real vsync.
    ///   - buffers: The buffers in the swap chain, 2 to 8 (2 unless told otherwise).
    ///   - jitter: How late a blocking present returns after the refresh that released it.
    ///   - seed: The seed of the jitter's random numbers: the same seed, the same run.
    ///   - feedback: Whether the lab reports when each frame reached the screen to a source made by
    ///     ``makeSource(pacing:nominalRate:)``.
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidCount` message, for a buffer count outside 2…8;
    ///   ``FrameLinkError/invalidInterval(_:)`` or ``FrameLinkError/invalidFrameRate(_:)`` for a
    ///   phase outside one period or a variable range whose minimum is above its maximum.
    public init(
        refresh: Refresh, buffers: Int = 2, jitter: PresentJitter = .none, seed: UInt64 = 1, feedback: Bool = false
    ) {
        guard (2...8).contains(buffers) else {
            FrameLinkError.trap(
                .invalidCount("DisplayLab: \(buffers) buffers; a swap chain has 2 (double buffering) to 8"))
        }
        self.refresh = refresh.validated()
        self.buffers = buffers
        self.jitter = jitter
        providesFeedback = feedback
        random = _SplitMix64(seed: seed)
        if case .fixed(_, let phase) = refresh {
            gridOrigin = phase.wholeNanoseconds
        } else {
            gridOrigin = 0
        }
        if case .variable = refresh { lastRefreshTime = 0 }
    }

    // MARK: The clock

    /// The lab's current time.
    public var now: FrameInstant { FrameInstant(nanoseconds: time) }

    /// The current time in nanoseconds.
    public func nanoseconds() -> Int64 { time }

    /// False: the lab's time is virtual.
    public var sleepsInRealTime: Bool { false }

    /// Moves time to `deadline` (if it is later than now); the display refreshes on the way.
    ///
    /// - Parameter deadline: The time to move to, in the lab's nanoseconds.
    public func sleep(untilNanoseconds deadline: Int64) {
        guard deadline > time else { return }
        time = deadline
        processRefreshes(upTo: time)
    }

    /// Moves time forward by `duration`, as a frame's work would.
    ///
    /// A negative duration is a programmer error and traps.
    ///
    /// - Parameter duration: How long the work takes.
    public func work(for duration: Duration) {
        let amount = duration.wholeNanoseconds
        guard amount >= 0 else {
            FrameLinkError.trap(.invalidInterval("DisplayLab.work(for: \(duration)): is negative; work takes time"))
        }
        let (end, overflow) = time.addingReportingOverflow(amount)
        guard !overflow else {
            FrameLinkError.trap(
                .invalidInterval("DisplayLab.work(for: \(duration)): ends after the latest time the lab can count"))
        }
        sleep(untilNanoseconds: end)
    }

    // MARK: Display changes

    /// Moves the window to a display that refreshes differently: the change takes effect at the
    /// current display's next refresh (a fixed rate's phase is then that refresh), with no gap.
    ///
    /// - Parameter newRefresh: How the new display refreshes.
    /// - Precondition: As ``init(refresh:buffers:jitter:seed:feedback:)`` for an invalid refresh.
    public func changeRefresh(to newRefresh: Refresh) {
        changeRefresh(to: newRefresh, blankingFor: .zero)
    }

    /// Moves the window to a display that refreshes differently, or changes the display's mode,
    /// with a blank gap while the display switches (a modeset: the monitor relocks to the new
    /// timing).
    ///
    /// The change takes effect at the current display's next refresh (at once if it has none: an
    /// emulated vsync or no vsync). From then, for `gap`, no refresh happens: that refresh does not
    /// either, ``refreshTimes`` holds none inside the gap, and frames queued meanwhile wait (a
    /// present blocks while the chain is full, as ever). The first refresh after the gap, `gap`
    /// after the change took effect, is the new display's first: a fixed rate's phase, and the
    /// first a variable display counts its periods from. A blank display shows nothing, so it
    /// repeats nothing: as after the window is shown again, the first frame shown after the gap has
    /// ``LabFrame/missedRefreshes`` zero, and the refreshes of the gap are not counted as missed.
    /// A zero gap is ``changeRefresh(to:)``. An emulated vsync or no vsync has no refreshes to
    /// blank, so a change to one takes effect without a gap.
    ///
    /// - Parameters:
    ///   - newRefresh: How the new display refreshes.
    ///   - gap: How long the display is blank, from zero to 2 seconds.
    /// - Precondition: As ``init(refresh:buffers:jitter:seed:feedback:)`` for an invalid refresh;
    ///   stops the program, with a `FrameLinkError.invalidInterval` message, for a gap below zero
    ///   or over 2 seconds.
    public func changeRefresh(to newRefresh: Refresh, blankingFor gap: Duration) {
        let nanoseconds = gap.wholeNanoseconds
        guard nanoseconds >= 0 && nanoseconds <= Self.longestModesetGapNanoseconds else {
            FrameLinkError.trap(
                .invalidInterval(
                    "DisplayLab.changeRefresh(to:blankingFor: \(gap)): the gap must be from zero to "
                        + "\(Duration.nanoseconds(Self.longestModesetGapNanoseconds))"))
        }
        let checked = newRefresh.validated()
        let blanking: Int64
        switch checked {
        case .fixed, .variable: blanking = nanoseconds
        case .emulated, .none: blanking = 0
        }
        switch refresh {
        case .fixed, .variable:
            pendingRefresh = checked
            pendingBlanking = blanking
        case .emulated, .none:
            if blanking > 0 { blank(for: blanking, then: checked, from: time) } else { apply(checked, at: time) }
        }
    }

    // MARK: Presenting

    /// Presents a frame: queues it in the swap chain and blocks (moves time) while the chain is
    /// full; see the type's description.
    public func present() {
        processRefreshes(upTo: time)
        let called = time
        frames.append(LabFrame(number: Int64(frames.count + 1), presentedAt: now))
        let index = frames.count - 1
        let ready = Self.saturatingSum(called, gpuNanoseconds)
        frames[index].readyAt = FrameInstant(nanoseconds: ready)
        switch refresh {
        case .none:
            frames[index].shownAt = FrameInstant(nanoseconds: ready)
            work(for: presentCost)
        case .emulated(let rate):
            // A free-running timer whose every tick is scheduled from the last one: its phase
            // wanders by the jitter (drawn around its mean, so the rate stays true on average).
            if emulatedTick == .min { emulatedTick = called }
            while emulatedTick <= called {
                emulatedTick += rate.periodNanoseconds + jitter.draw(&random) - jitter.meanNanoseconds
            }
            sleep(untilNanoseconds: emulatedTick)
            let shown = max(emulatedTick, ready)
            frames[index].shownAt = FrameInstant(nanoseconds: shown)
            report(frame: index, shownAt: shown)
            work(for: presentCost)
        case .fixed, .variable:
            if isHidden {
                switch hiddenPresent {
                case .returnsAtOnce: work(for: presentCost)
                case .waitsForFrameCallbacks(let timeout): work(for: timeout)
                }
                break
            }
            frames[index].framesQueuedAhead = queue.count
            queue.append(index)
            var blocked = false
            while queue.count > buffers - 2, let next = nextRefreshTime() {
                // A refresh due now (a variable display refreshing for this very frame) runs at once.
                if next > time { sleep(untilNanoseconds: next) } else { processRefreshes(upTo: time) }
                blocked = true
            }
            if blocked {
                let delay = jitter.draw(&random)
                leastPresentDelay = min(leastPresentDelay ?? .nanoseconds(delay), .nanoseconds(delay))
                sleep(untilNanoseconds: time + delay)
            } else {
                work(for: presentCost)
            }
        }
        frames[index].returnedAt = now
    }

    /// Makes a ``PresentSource`` that presents on this display and reads this lab's clock; the lab
    /// reports presentation feedback to it if ``providesFeedback``, and a variable display's range
    /// is the source's ``PresentSource/variableRefreshRange`` (as a host that knows it would set).
    ///
    /// - Parameters:
    ///   - pacing: The source's pacing (automatic detection unless told otherwise).
    ///   - nominalRate: The rate the source is told the display has (what SDL would report); the
    ///     display's own rate unless told otherwise (60 Hz for a display with no rate).
    public func makeSource(pacing: PresentSource.Pacing = .automatic, nominalRate: FrameRate? = nil) -> PresentSource {
        let source = PresentSource(
            displayRefreshRate: nominalRate ?? nominalRefreshRate, pacing: pacing, clock: self
        ) { [unowned self] in
            self.present()
        }
        feedbackSource = providesFeedback ? source : nil
        // A host that knows its display refreshes variably says so.
        if case .variable(let minimum, let maximum) = refresh { source.variableRefreshRange = minimum...maximum }
        return source
    }

    /// The last refresh at or before `instant`, if there was one.
    ///
    /// - Parameter instant: A time on the lab's clock.
    public func lastRefresh(atOrBefore instant: FrameInstant) -> FrameInstant? {
        var low = 0
        var high = refreshTimes.count
        while low < high {
            let middle = (low + high) / 2
            if refreshTimes[middle] <= instant { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? refreshTimes[low - 1] : nil
    }

    // MARK: The display

    private var nominalRefreshRate: FrameRate {
        switch refresh {
        case .fixed(let rate, _): rate
        case .variable(_, let maximum): maximum
        case .emulated(let rate): rate
        case .none: .hz60
        }
    }

    /// The time of the display's next refresh after the last one processed, if it refreshes.
    private func nextRefreshTime() -> Int64? {
        // A blank display's next refresh is the first after its gap.
        if let blankUntil { return blankUntil }
        switch refresh {
        case .fixed(let rate, _):
            let after = (lastRefreshTime ?? -1) + 1 - gridOrigin
            return gridOrigin + rate.offsetNanoseconds(ofFrame: rate.frameIndex(atOrAfter: after))
        case .variable(let minimum, let maximum):
            let last = lastRefreshTime ?? 0
            let repeated = last + minimum.periodNanoseconds
            if let head = queue.first {
                // For the frame when it is ready, unless the minimum rate makes the display repeat
                // the old one first (which only a GPU time can make happen).
                return min(max(frames[head].readyAt.nanoseconds, last + maximum.periodNanoseconds), repeated)
            }
            return repeated
        case .emulated, .none:
            return nil
        }
    }

    /// Runs every refresh up to `time`: each shows the oldest queued frame if it is ready for it.
    private func processRefreshes(upTo time: Int64) {
        while let next = nextRefreshTime(), next <= time {
            if let pending = pendingRefresh, pendingBlanking > 0 {
                // The change takes effect here, and the display goes blank: no refresh now.
                pendingRefresh = nil
                blank(for: pendingBlanking, then: pending, from: next)
                continue
            }
            blankUntil = nil
            lastRefreshTime = next
            refreshTimes.append(FrameInstant(nanoseconds: next))
            let number = Int64(refreshTimes.count)
            if !isHidden, let head = queue.first, isReady(frames[head].readyAt.nanoseconds, at: next) {
                queue.removeFirst()
                let missed = lastShownRefresh.map { Int(number - $0 - 1) } ?? 0
                frames[head].shownAt = FrameInstant(nanoseconds: next)
                frames[head].refresh = number
                frames[head].missedRefreshes = missed
                missedRefreshes += missed
                lastShownRefresh = number
                report(frame: head, shownAt: next)
            }
            if let pending = pendingRefresh {
                pendingRefresh = nil
                apply(pending, at: next)
            }
        }
    }

    /// Whether a frame ready at `ready` can be shown by a refresh at `refresh`: a fixed vsync shows
    /// frames ready more than the latch deadline before it; a variable display refreshes for the
    /// frame itself.
    private func isReady(_ ready: Int64, at refresh: Int64) -> Bool {
        if case .variable = self.refresh { return ready <= refresh }
        return ready < refresh - latchNanoseconds
    }

    /// Starts a blank gap of `gap` nanoseconds at `start`: the display changes to `newRefresh`,
    /// whose first refresh is at the gap's end, and shows nothing (so repeats nothing) until then.
    private func blank(for gap: Int64, then newRefresh: Refresh, from start: Int64) {
        let end = Self.saturatingSum(start, gap)
        lastShownRefresh = nil
        apply(newRefresh, at: end)
        blankUntil = end
    }

    private func apply(_ newRefresh: Refresh, at time: Int64) {
        refresh = newRefresh
        gridOrigin = time
        emulatedTick = .min
        if case .variable = newRefresh, lastRefreshTime == nil { lastRefreshTime = time }
    }

    /// Checks a delay the lab is given: from zero to under a second.
    private static func checkedUnderASecond(_ duration: Duration, _ what: String) -> Int64 {
        let nanoseconds = duration.wholeNanoseconds
        guard nanoseconds >= 0 && nanoseconds < longestDelayNanoseconds else {
            FrameLinkError.trap(
                .invalidInterval("DisplayLab.\(what) \(duration): must be from zero to under a second"))
        }
        return nanoseconds
    }

    /// `time + delay`, or the latest time the lab can count if that is later.
    private static func saturatingSum(_ time: Int64, _ delay: Int64) -> Int64 {
        let (sum, overflow) = time.addingReportingOverflow(delay)
        return overflow ? .max : sum
    }

    private func report(frame index: Int, shownAt time: Int64) {
        guard providesFeedback, let feedbackSource else { return }
        feedbackSource.reportPresentation(ofFrame: frames[index].number, atClockNanoseconds: time)
    }
}
