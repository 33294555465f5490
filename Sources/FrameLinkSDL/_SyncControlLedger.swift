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
///   gives the refresh before it (``Action/shownAtUnknownTime(frame:)``); ``unknownTimeLimit`` in
///   a row end the feedback. One shown more than a refresh before it was made cannot be this swap
///   at all: the count is not the host's (the game swapped the window itself), and the feedback
///   ends. Swaps the game makes itself between two runs are found when the next run begins
///   (``resynchronize(drained:)``); one made during a run, while a swap of the host's is always in
///   flight, cannot be told from the host's, and shifts the reports by a swap.
/// - **Missed refreshes** are the MSC step less one between two consecutive swaps, when the step
///   is one the time between them allows (``shortestRefreshPeriod``); a larger one is a counter
///   that jumped.
/// - **The refresh period** is measured from the refreshes read (their UST over their MSC, since
///   the rate last changed), not taken from the screen's mode line.
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

    /// The largest count taken: 2⁵², 2.4 million years of refreshes at 60 Hz, and far from
    /// overflowing when swaps are added to it. A larger count is not one (a driver's placeholder).
    static let largestCount: Int64 = 1 << 52

    /// How far a swap's shown time may be before the moment the host made it and still count as
    /// shown after it: 20 µs, what a UST truncated to its unit and two clock conversions (the
    /// made time is read on `CLOCK_MONOTONIC`, the UST converted to it) can disagree by.
    static let madeTimeAllowance: Int64 = 20_000

    /// The shortest refresh period: 1 ms, the fastest display `FrameRate` takes (1,000 Hz). An MSC
    /// step larger than the time between two swaps allows at that rate is a counter that jumped.
    static let shortestRefreshPeriod: Int64 = 1_000_000

    /// The longest refresh period: 1 s, the X server's stand-in refresh for a window on no display
    /// (the bound used before a period is measured).
    static let longestRefreshPeriod: Int64 = 1_000_000_000

    /// How far a refresh period read between two refreshes may differ from the measured one before
    /// the rate counts as changed and is measured afresh: 1 %. The period read over one refresh
    /// is within a microsecond (the UST's unit) of the true one, 0.01 % at 100 Hz.
    static let rateChangeShare = 0.01

    /// How many swaps in a row may be shown before they were made (they went out without waiting
    /// for a refresh) before the feedback ends: 64, as many frames as may wait unanswered. With
    /// vsync off every swap does; with adaptive vsync only the late ones.
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
    /// The refresh the period is measured from (the first read since the rate last changed), in
    /// nanoseconds of the UST's clock and its MSC.
    private var periodAnchor: (nanoseconds: Int64, msc: Int64)?
    /// The refresh period measured from the refreshes read, once two have been.
    private(set) var refreshPeriod: Int64?
    /// The frames of the last ``rememberedSwaps`` swaps, by swap number modulo the count.
    private var frames: [Int64]
    /// When each of those swaps was made (`CLOCK_MONOTONIC`), likewise.
    private var madeAt: [Int64]
    /// Swaps in a row shown before they were made.
    private var unknownInARow = 0

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
        periodAnchor = ustClock.nanoseconds(of: opening.ust).map { ($0, opening.msc) }
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
    /// across it, the period measured afresh); a period read since the last refresh that differs
    /// from the measured one by more than ``rateChangeShare`` is a new rate, measured afresh.
    private mutating func noteRefresh(_ values: Values) {
        if values.msc < latest.msc, case .reading(let completed, _) = state {
            state = .reading(completed: completed, lastShown: nil)
            periodAnchor = nil
        }
        if let time = ustClock.nanoseconds(of: values.ust) {
            if let previous = ustClock.nanoseconds(of: latest.ust), values.msc > latest.msc, let refreshPeriod {
                let step = Double(time - previous) / Double(values.msc - latest.msc)
                if abs(step - Double(refreshPeriod)) > Double(refreshPeriod) * Self.rateChangeShare {
                    periodAnchor = (previous, latest.msc)
                }
            }
            if let anchor = periodAnchor, values.msc > anchor.msc {
                let period = (time - anchor.nanoseconds) / (values.msc - anchor.msc)
                if (Self.shortestRefreshPeriod...Self.longestRefreshPeriod).contains(period) { refreshPeriod = period }
            } else if periodAnchor == nil {
                periodAnchor = (time, values.msc)
            }
        }
        latest = values
    }

    /// Decides what the newest completed swap's reading (`glXWaitForSbcOML`) means.
    mutating func newestSwapRead(_ values: Values) -> Action {
        guard case .reading(let completed, let lastShown) = state else { return .nothing }
        if let fault = fault(of: values, completed: completed) { return stop(fault) }
        guard values.sbc > completed else { return .nothing }
        // (A window on no display answers UST 0: not a time after the opening.)
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
            if madeAt[slot] - shown > (refreshPeriod ?? Self.longestRefreshPeriod) + Self.madeTimeAllowance {
                return stop(.shownBeforeMade)
            }
            unknownInARow += 1
            if unknownInARow >= Self.unknownTimeLimit { return stop(.swapsDoNotWaitForRefresh) }
            state = .reading(completed: values.sbc, lastShown: nil)
            return .shownAtUnknownTime(frame: frame)
        }
        unknownInARow = 0
        var missed: Int?
        if let lastShown, lastShown.sbc == values.sbc - 1, values.msc > lastShown.msc {
            let step = values.msc - lastShown.msc
            if step <= max(0, shown - lastShown.monotonicNanoseconds) / Self.shortestRefreshPeriod + 1 {
                missed = Int(step - 1)
            }
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
    mutating func resynchronize(drained: Values) -> Action {
        guard case .reading(let completed, _) = state else { return .nothing }
        if drained.msc < 0 || drained.msc > Self.largestCount || drained.sbc > Self.largestCount {
            return stop(.countOutOfRange)
        }
        if drained.sbc < completed || drained.sbc < baseSBC + swapsMade { return stop(.countersWentBack) }
        guard let now = clock.read(ustClock.clockID), ustClock.age(of: drained.ust, now: now) != nil else {
            return .unusable
        }
        baseSBC = drained.sbc - swapsMade
        noteRefresh(drained)
        state = .reading(completed: drained.sbc, lastShown: nil)
        return .nothing
    }

    /// The rule `values` breaks, if any: a swap count that goes back, more swaps than the host
    /// made, a refresh count beyond ``largestCount`` or below zero.
    private func fault(of values: Values, completed: Int64) -> Fault? {
        if values.msc < 0 || values.msc > Self.largestCount { return .countOutOfRange }
        if values.sbc < completed { return .countersWentBack }
        if values.sbc > baseSBC + swapsMade { return .swapNotMade }
        return nil
    }

    private mutating func stop(_ fault: Fault) -> Action {
        state = .stopped(fault)
        return .stop(fault)
    }
}
