/// What `GLX_OML_sync_control`'s readings say of the host's swaps: a state machine in swift-nio's
/// style, fed the readings and deciding what each one means, with no GLX in it (tested directly).
///
/// The extension counts three things for a window: UST, a system time; MSC, the display's
/// refreshes; SBC, the swaps completed. After each swap the host reads the current refresh
/// (`glXGetSyncValuesOML`: the UST and MSC of the latest refresh, and the SBC so far); when the
/// SBC has moved, it asks for the newest completed swap (`glXWaitForSbcOML` for an SBC already
/// reached, which returns at once with the UST and MSC at which that swap was shown). Swap number
/// `n` after the base (the SBC when the host opened, with every earlier swap completed) is the
/// host's `n`th swap, whose frame and time the host noted when it made it.
///
/// Everything read is data from outside, checked where it enters (each rule has its test in
/// `SyncControlLedgerTests` or `GLXReview13LedgerTests`):
/// - **The UST's clock** is found from the latest refresh when the ledger opens (`_USTClock`);
///   a later refresh that does not fit it now (a blank display, a window on no display: UST 0)
///   is no reading (``Action/unusable``), and the host counts it as unanswered, so the feedback
///   pauses and comes back with the readings.
/// - **Counts**: an SBC that goes back, or counts more swaps than the host made, ends the feedback
///   (``Action/stop(_:)``): the counts are not the host's swaps. So does a count beyond
///   ``largestCount``. An MSC that goes back is a refresh counter that restarted (DRI2 has one per
///   display, and the window moved to another): no missed count is made across it.
/// - **A swap's time** is no later than the latest refresh (DRI2 answers the newest swap when
///   asked, so a refresh read after the latest counts) and no earlier than the refresh read when
///   the ledger opened (a window on no display answers UST 0), of any age (a swap shown before an
///   idle loop slept is reported when it wakes). A swap shown before it was made was not shown then:
///   it went out at once without waiting for a refresh (adaptive vsync late, or vsync off) and GLX
///   gives the refresh before it (``Action/shownAtUnknownTime(frame:)``; DRI2 says UST 0);
///   ``unknownTimeLimit`` in a row pause the feedback until one is shown at a refresh again. One shown more than a refresh before it was made cannot be this swap
///   at all: the count is not the host's (the game swapped the window itself), and the feedback
///   ends. Swaps the game makes itself between two runs are found when the next run begins
///   (``resynchronize(drained:)``); one made during a run, while a swap of the host's is always in
///   flight, cannot be told from the host's, and shifts the reports by a swap.
/// - **Missed refreshes** are the MSC step less one between two consecutive swaps, when the step
///   is one the time between them allows at the measured period (or ``shortestRefreshPeriod``
///   before one is measured); a larger one is a counter that jumped.
/// - **The refresh period** is measured from the refreshes read (`_RefreshPeriodMeter`), not taken
///   from the screen's mode line.
struct _SyncControlLedger {
    /// One reading: a UST, an MSC and an SBC, as GLX gives them.
    struct Values: Equatable {
        var ust: Int64
        var msc: Int64
        var sbc: Int64
    }

    /// How many swaps' frames and times are remembered: 64, as many as may wait unanswered
    /// (`_FeedbackRequests.unansweredFrameLimit`); a swap older than that is shown without a report.
    static let rememberedSwaps = 64

    /// The largest count taken when the ledger opens: 2⁵², 2.4 million years of refreshes at 60 Hz.
    /// A larger count is not one (a driver's placeholder).
    static let largestCount: Int64 = 1 << 52

    /// The largest count taken later: 2⁶⁰, so far above any opening's that a session never reaches
    /// it, and far enough below `Int64.max` that no difference or sum of counts overflows.
    static let countLimit: Int64 = 1 << 60

    /// How far a swap's shown time may be before the moment the host made it and still count as
    /// shown after it: 20 µs, what a UST truncated to its unit and two clock conversions (the
    /// made time is read on `CLOCK_MONOTONIC`, the UST converted to it) can disagree by.
    static let madeTimeAllowance: Int64 = 20_000

    /// The shortest refresh period: 1 ms, the fastest display `FrameRate` takes (1,000 Hz): the
    /// period an MSC step is judged by before one is measured, or while the rate is variable.
    static let shortestRefreshPeriod: Int64 = 1_000_000

    /// The longest refresh period: 1 s, the X server's stand-in refresh for a window on no display
    /// (the bound used before a period is measured).
    static let longestRefreshPeriod: Int64 = 1_000_000_000

    /// How many swaps in a row may be shown before they were made (they went out without waiting
    /// for a refresh) before the host pauses the feedback: 64, as many frames as may wait
    /// unanswered. With vsync off every swap does; with adaptive vsync the late ones, and under
    /// sustained load every one until the game catches up, when the feedback resumes.
    static let unknownTimeLimit = 64

    /// Why the readings cannot be used.
    typealias Fault = PresentationFeedback.SyncControlFault

    /// A swap shown: its count, refresh and time (`CLOCK_MONOTONIC`).
    struct Shown: Equatable {
        var sbc: Int64
        var msc: Int64
        var monotonicNanoseconds: Int64
    }

    enum State: Equatable {
        /// Reading: `completed` swaps have been read as completed (as an SBC), and the newest shown
        /// at a refresh it waited for is `lastShown` (`nil` before the first, and after a counter
        /// restart or a swap that did not wait).
        case reading(completed: Int64, lastShown: Shown?)
        /// The readings broke a rule; nothing more is read.
        case stopped(Fault)
    }

    /// What the host does with a reading.
    enum Action: Equatable {
        /// Nothing new was completed.
        case nothing
        /// Swaps were completed: read the newest (`glXWaitForSbcOML` for `target`, reached already).
        case readNewestSwap(target: Int64)
        /// A swap's frame was shown at `monotonicNanoseconds` (`CLOCK_MONOTONIC`), at refresh
        /// `msc`; `ustNanoseconds` is the same moment on the UST's clock; `missedRefreshes` counts
        /// the refreshes since the previous swap shown that showed nothing new of the window, when
        /// the previous swap was the one before (otherwise `nil`). `frame` is `nil` for a swap the
        /// host made too long ago to remember.
        case shown(frame: Int64?, monotonicNanoseconds: Int64, ustNanoseconds: Int64, msc: Int64, missedRefreshes: Int?)
        /// A swap's frame was shown, but not at a refresh: it went out without waiting for one, and
        /// GLX gives the refresh before it was made.
        case shownAtUnknownTime(frame: Int64?)
        /// The latest refresh's time does not fit the clock now (a blank display; a window on no
        /// display): no reading (the host counts it as unanswered).
        case unusable
        /// The newest swap's time cannot be true (after the latest refresh, not convertible): not
        /// used (the host counts it as refused).
        case refuse
        /// The readings broke a rule: the feedback ends.
        case stop(Fault)
    }

    /// The UST's clock and unit, found when the ledger was made.
    let ustClock: _USTClock
    /// The UST's clock, for conversion to `CLOCK_MONOTONIC` (and readings of both).
    let clock: _CompositorClock
    /// The SBC when the host opened, with no swap in flight, plus the swaps made by others found
    /// when the ledger was resynchronized (``resynchronize(drained:)``).
    private(set) var baseSBC: Int64
    /// The latest refresh's UST when the ledger opened: no swap shown since is earlier.
    let openingUST: Int64
    /// Swaps the host has made since it opened.
    private(set) var swapsMade: Int64 = 0
    /// The latest refresh read.
    private var latest: Values
    /// The refresh period, measured from the refreshes read.
    private var periodMeter = _RefreshPeriodMeter()
    /// The display's refresh period, once two refreshes have been read and while it is steady.
    var refreshPeriod: Int64? { periodMeter.period }
    /// The frames of the last ``rememberedSwaps`` swaps, by swap number modulo the count.
    private var frames: [Int64]
    /// When each of those swaps was made (`CLOCK_MONOTONIC`), likewise.
    private var madeAt: [Int64]
    /// Swaps in a row shown at no known time (the host pauses the feedback at
    /// ``unknownTimeLimit``).
    private(set) var unknownInARow = 0

    private(set) var state: State

    /// What the first reading allows: a ledger, or the fault that rules the readings out.
    enum Opening {
        case opened(_SyncControlLedger)
        case unusable(Fault)
    }

    /// A ledger from the first reading (`opening`, with every swap before completed), or the fault
    /// that rules the readings out: counts beyond ``largestCount``, a UST on no clock `_USTClock`
    /// knows. `read` reads a clock in nanoseconds (injected in tests).
    static func open(
        opening: Values, read: @escaping (Int32) -> Int64? = _CompositorClock.systemReading
    ) -> Opening {
        guard (0...largestCount).contains(opening.msc), (0...largestCount).contains(opening.sbc) else {
            return .unusable(.countOutOfRange)
        }
        guard let ustClock = _USTClock.identify(ust: opening.ust, read: read),
            let clock = _CompositorClock(clockID: UInt32(ustClock.clockID), read: read)
        else { return .unusable(.unknownClock) }
        return .opened(_SyncControlLedger(ustClock: ustClock, clock: clock, opening: opening))
    }

    private init(ustClock: _USTClock, clock: _CompositorClock, opening: Values) {
        self.ustClock = ustClock
        self.clock = clock
        self.baseSBC = opening.sbc
        self.openingUST = opening.ust
        self.latest = opening
        self.frames = Array(repeating: 0, count: Self.rememberedSwaps)
        self.madeAt = Array(repeating: 0, count: Self.rememberedSwaps)
        self.state = .reading(completed: opening.sbc, lastShown: nil)
        if let time = ustClock.nanoseconds(of: opening.ust) { periodMeter.note(.init(time: time, msc: opening.msc)) }
    }

    /// The UST's unit (nanoseconds per unit).
    var nanosecondsPerUnit: Int64 { ustClock.nanosecondsPerUnit }

    /// Swaps made and not yet read as completed.
    var swapsInFlight: Int {
        guard case .reading(let completed, _) = state else { return 0 }
        return Int(clamping: baseSBC + swapsMade - completed)
    }

    /// Notes the host's next swap, which makes `frame`, and when it is made.
    mutating func swapWillBegin(frame: Int64) {
        swapsMade += 1
        let slot = Int((baseSBC + swapsMade) % Int64(Self.rememberedSwaps))
        frames[slot] = frame
        madeAt[slot] = clock.read(_CompositorClock.monotonic) ?? .min
    }

    /// Decides what the latest refresh's reading (`glXGetSyncValuesOML`) means.
    mutating func latestRefreshRead(_ values: Values) -> Action {
        guard case .reading(let completed, _) = state else { return .nothing }
        if let fault = fault(of: values, completed: completed) { return stop(fault) }
        guard let now = clock.read(ustClock.clockID), ustClock.age(of: values.ust, now: now) != nil else {
            return .unusable
        }
        noteRefresh(values)
        return values.sbc > completed ? .readNewestSwap(target: values.sbc) : .nothing
    }

    /// Takes `values` as the latest refresh: a counter that went back restarted (no missed count
    /// across it, the period measured afresh).
    private mutating func noteRefresh(_ values: Values) {
        if values.msc < latest.msc, case .reading(let completed, _) = state {
            state = .reading(completed: completed, lastShown: nil)
            periodMeter.restart()
        }
        if let time = ustClock.nanoseconds(of: values.ust) { periodMeter.note(.init(time: time, msc: values.msc)) }
        latest = values
    }

    /// Decides what the newest completed swap's reading (`glXWaitForSbcOML`) means.
    mutating func newestSwapRead(_ values: Values) -> Action {
        guard case .reading(let completed, let lastShown) = state else { return .nothing }
        if let fault = fault(of: values, completed: completed) { return stop(fault) }
        guard values.sbc > completed else { return .nothing }
        if values.ust == 0 {
            // (DRI2 completes a blit, vsync off or on no display, with UST 0: shown, at no time.)
            return shownAtUnknownTime(values, frame: frame(ofSBC: values.sbc))
        }
        guard values.ust >= openingUST else { return .refuse }
        if values.msc > latest.msc {
            // (DRI2 answers with the server's newest swap: a refresh passed since the latest read.)
            guard let now = clock.read(ustClock.clockID), ustClock.age(of: values.ust, now: now) != nil else {
                return .refuse
            }
            noteRefresh(values)
        } else if values.ust > latest.ust {
            return .refuse
        }
        guard let ustNanoseconds = ustClock.nanoseconds(of: values.ust),
            let shown = clock.monotonicNanoseconds(of: ustNanoseconds)
        else { return .refuse }
        let slot = Int(values.sbc % Int64(Self.rememberedSwaps))
        let remembered = swapsMade - (values.sbc - baseSBC) < Int64(Self.rememberedSwaps)
        let frame = remembered ? frames[slot] : nil
        if remembered, shown + Self.madeTimeAllowance < madeAt[slot] {
            // Shown before it was made: not at that refresh, or not this swap.
            let period = periodMeter.measured ?? Self.longestRefreshPeriod
            if madeAt[slot] - shown > period + Self.madeTimeAllowance { return stop(.shownBeforeMade) }
            return shownAtUnknownTime(values, frame: frame)
        }
        unknownInARow = 0
        var missed: Int?
        if let lastShown, lastShown.sbc == values.sbc - 1, values.msc > lastShown.msc {
            // (A step the time between the two swaps does not allow at the display's period is a
            // counter that jumped: no count.)
            let step = values.msc - lastShown.msc
            let period = periodMeter.measured ?? Self.shortestRefreshPeriod
            let elapsed = max(0, shown - lastShown.monotonicNanoseconds)
            if step <= (elapsed + period / 2) / period + 1 { missed = Int(step - 1) }
        }
        state = .reading(
            completed: values.sbc, lastShown: Shown(sbc: values.sbc, msc: values.msc, monotonicNanoseconds: shown))
        return .shown(
            frame: frame, monotonicNanoseconds: shown, ustNanoseconds: ustNanoseconds, msc: values.msc,
            missedRefreshes: missed)
    }

    /// Takes `drained`, the latest refresh read once every swap made on the window has completed
    /// (`glXWaitForSbcOML(0)`), as the count's new base: the swaps counted beyond the host's were
    /// made by the game itself (an adopted window swapped between two runs), and the host's next
    /// swap is the one after them. Fewer than the host made is a count that is not the host's.
    /// With no swap of the game's, the newest (`newestSwap`, the drain's own answer) is the host's
    /// last, and its report is the action; the counts are taken afresh even when the latest
    /// refresh's time is not usable now (``Action/unusable``).
    mutating func resynchronize(drained: Values, newestSwap: Values?) -> Action {
        guard case .reading(let completed, _) = state else { return .nothing }
        if drained.msc < 0 || drained.msc > Self.countLimit || drained.sbc > Self.countLimit {
            return stop(.countOutOfRange)
        }
        if drained.sbc < completed || drained.sbc < baseSBC + swapsMade { return stop(.countersWentBack) }
        var usable = false
        if let now = clock.read(ustClock.clockID) { usable = ustClock.age(of: drained.ust, now: now) != nil }
        var action = Action.nothing
        if drained.sbc == baseSBC + swapsMade {
            // No swap of the game's: the newest is the host's last, reported as after any swap.
            if usable, drained.sbc > completed, let newestSwap, newestSwap.sbc == drained.sbc {
                noteRefresh(drained)
                action = newestSwapRead(newestSwap)
                if case .stop = action { return action }
            }
        } else {
            // The game's own swaps: the host's still in flight were shown at times not known here.
            baseSBC = drained.sbc - swapsMade
            state = .reading(completed: drained.sbc, lastShown: nil)
        }
        if case .reading(let read, let lastShown) = state, read < drained.sbc {
            state = .reading(completed: drained.sbc, lastShown: lastShown)
        }
        if usable { noteRefresh(drained) }
        if case .nothing = action, !usable { return .unusable }
        return action
    }

    /// A swap shown at no known time: counted in a row, and no missed count across it.
    private mutating func shownAtUnknownTime(_ values: Values, frame: Int64?) -> Action {
        unknownInARow += 1
        state = .reading(completed: values.sbc, lastShown: nil)
        return .shownAtUnknownTime(frame: frame)
    }

    /// The frame of swap `sbc`, if it is the host's and recent enough to remember.
    private func frame(ofSBC sbc: Int64) -> Int64? {
        guard sbc > baseSBC, swapsMade - (sbc - baseSBC) < Int64(Self.rememberedSwaps) else { return nil }
        return frames[Int(sbc % Int64(Self.rememberedSwaps))]
    }

    /// The swaps read as completed (an SBC).
    var completedSwaps: Int64 {
        if case .reading(let completed, _) = state { completed } else { baseSBC + swapsMade }
    }

    /// Calls `body` with the frame of each of the host's swaps after `first` and before `end`
    /// (SBCs), oldest first, for those remembered; nothing is allocated.
    func forEachFrame(after first: Int64, before end: Int64, _ body: (Int64) -> Void) {
        var sbc = first + 1
        while sbc < end {
            if let frame = frame(ofSBC: sbc) { body(frame) }
            sbc += 1
        }
    }

    /// The frames of the swaps made and not yet read as completed, oldest first (those remembered).
    var framesInFlight: [Int64] {
        guard case .reading(let completed, _) = state else { return [] }
        var found: [Int64] = []
        var sbc = completed + 1
        while sbc <= baseSBC + swapsMade {
            if let frame = frame(ofSBC: sbc) { found.append(frame) }
            sbc += 1
        }
        return found
    }

    /// The rule `values` breaks, if any: a swap count that goes back, more swaps than the host
    /// made, a refresh count beyond ``largestCount`` or below zero.
    private func fault(of values: Values, completed: Int64) -> Fault? {
        if values.msc < 0 || values.msc > Self.countLimit { return .countOutOfRange }
        if values.sbc < completed { return .countersWentBack }
        if values.sbc > baseSBC + swapsMade { return .swapNotMade }
        return nil
    }

    private mutating func stop(_ fault: Fault) -> Action {
        state = .stopped(fault)
        return .stop(fault)
    }
}
