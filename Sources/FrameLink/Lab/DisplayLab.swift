/// A simulated display on virtual time, to test frame pacing (FrameLink's, and your game's) against
/// displays you do not have: any refresh rate and phase, a swap chain of N buffers, a compositor
/// that returns late from present, frames that overrun, a hidden window, a move to another display,
/// variable refresh, an emulated vsync like Xvfb's, or none at all.
///
/// The lab is a ``PacingClock`` (time moves only when something waits or works) and a present
/// function. A present queues the frame in the swap chain and blocks while the chain is full, so
/// each frame is shown at the first refresh after it was queued (and after the frames before it),
/// and the lab knows exactly when. Every frame's ground truth is in ``frames``: when it was shown,
/// on which refresh, and how many refreshes it missed.
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

    /// Whether the window is hidden (minimized, on another workspace): present then returns at once
    /// and nothing is shown; frames waiting in the swap chain are discarded when it is hidden.
    public var isHidden = false {
        didSet {
            guard isHidden != oldValue else { return }
            if isHidden {
                queue.removeAll()
                lastShownRefresh = nil
            }
        }
    }

    /// Every frame presented so far, with its ground truth.
    public private(set) var frames: [LabFrame] = []

    /// The time of every refresh of the display so far (kept for the whole run, as ``frames`` is).
    public private(set) var refreshTimes: [FrameInstant] = []

    /// The refreshes that showed an old frame again, summed over every frame shown (see
    /// ``LabFrame/missedRefreshes``).
    public private(set) var missedRefreshes = 0

    private var time: Int64 = 0
    private var random: _SplitMix64
    private var queue: [Int] = []
    private var lastRefreshTime: Int64?
    private var lastShownRefresh: Int64?
    private var gridOrigin: Int64
    private var pendingRefresh: Refresh?
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
    /// current display's next refresh (a fixed rate's phase is then that refresh).
    ///
    /// - Parameter newRefresh: How the new display refreshes.
    /// - Precondition: As ``init(refresh:buffers:jitter:seed:feedback:)`` for an invalid refresh.
    public func changeRefresh(to newRefresh: Refresh) {
        let checked = newRefresh.validated()
        switch refresh {
        case .fixed, .variable:
            pendingRefresh = checked
        case .emulated, .none:
            apply(checked, at: time)
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
        switch refresh {
        case .none:
            frames[index].shownAt = now
            work(for: presentCost)
        case .emulated(let rate):
            // A free-running timer whose every tick is scheduled from the last one: its phase
            // wanders by the jitter (drawn around its mean, so the rate stays true on average).
            if emulatedTick == .min { emulatedTick = called }
            while emulatedTick <= called {
                emulatedTick += rate.periodNanoseconds + jitter.draw(&random) - jitter.meanNanoseconds
            }
            sleep(untilNanoseconds: emulatedTick)
            frames[index].shownAt = FrameInstant(nanoseconds: emulatedTick)
            report(frame: index, shownAt: emulatedTick)
            work(for: presentCost)
        case .fixed, .variable:
            if isHidden {
                work(for: presentCost)
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
                sleep(untilNanoseconds: time + jitter.draw(&random))
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
        switch refresh {
        case .fixed(let rate, _):
            let after = (lastRefreshTime ?? -1) + 1 - gridOrigin
            return gridOrigin + rate.offsetNanoseconds(ofFrame: rate.frameIndex(atOrAfter: after))
        case .variable(let minimum, let maximum):
            let last = lastRefreshTime ?? 0
            if let head = queue.first {
                return max(frames[head].presentedAt.nanoseconds, last + maximum.periodNanoseconds)
            }
            return last + minimum.periodNanoseconds
        case .emulated, .none:
            return nil
        }
    }

    /// Runs every refresh up to `time`: each shows the oldest queued frame presented before it.
    private func processRefreshes(upTo time: Int64) {
        while let next = nextRefreshTime(), next <= time {
            lastRefreshTime = next
            refreshTimes.append(FrameInstant(nanoseconds: next))
            let number = Int64(refreshTimes.count)
            if !isHidden, let head = queue.first, isReady(frames[head].presentedAt.nanoseconds, at: next) {
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

    /// Whether a frame presented at `presented` can be shown by a refresh at `refresh`: a fixed
    /// vsync shows frames queued before it; a variable display refreshes for the frame itself.
    private func isReady(_ presented: Int64, at refresh: Int64) -> Bool {
        if case .variable = self.refresh { return presented <= refresh }
        return presented < refresh
    }

    private func apply(_ newRefresh: Refresh, at time: Int64) {
        refresh = newRefresh
        gridOrigin = time
        emulatedTick = .min
        if case .variable = newRefresh, lastRefreshTime == nil { lastRefreshTime = time }
    }

    private func report(frame index: Int, shownAt time: Int64) {
        guard providesFeedback, let feedbackSource else { return }
        feedbackSource.reportPresentation(ofFrame: frames[index].number, atClockNanoseconds: time)
    }
}
