#if canImport(Glibc)
    import Glibc
#endif

/// What `GLX_OML_sync_control`'s readings say of the host's swaps: a state machine in swift-nio's
/// style, fed the readings and deciding what each one means, with no GLX in it (tested directly).
///
/// The extension counts three things for a window: UST, a system time; MSC, the display's
/// refreshes; SBC, the swaps completed. After each swap the host reads the current refresh
/// (`glXGetSyncValuesOML`: the UST and MSC of the latest refresh, and the SBC so far); when the
/// SBC has moved, it asks for the newest completed swap (`glXWaitForSbcOML` for an SBC already
/// reached, which returns at once with the UST and MSC at which that swap was shown). Swap number
/// `n` after the base (the SBC when the host opened, with every earlier swap completed) is the
/// host's `n`th swap, whose frame the host noted when it made it.
///
/// Everything read is data from outside, checked where it enters:
/// - the UST's clock and unit are not fixed by the extension (Mesa's are microseconds of
///   `CLOCK_MONOTONIC`, from the kernel's vblank times; other drivers have used nanoseconds, or
///   the wall clock): the clock is found by which one the latest refresh fits, between
///   ``vblankAheadAllowance`` ahead of now and ``vblankAgeLimit`` behind, and every later
///   refresh must fit it too; a swap's time is no later than the latest refresh, of any age (a
///   swap shown before an idle loop slept is reported when the loop wakes);
/// - MSC and SBC never go back, a swap is never shown at a refresh before the latest one read
///   before it was made, and the SBC never counts more swaps than the host made: a reading that
///   breaks one ends the feedback for good (``Action/stop(_:)``), as a window whose drawable was
///   replaced, or one another client swaps, would (its swaps' counts are not the host's);
/// - a time that does not fit the clock is refused (``Action/refuse``), and the host counts
///   refusals as it counts the pacing's.
struct _SyncControlLedger {
    /// One reading: a UST, an MSC and an SBC, as GLX gives them.
    struct Values: Equatable {
        var ust: Int64
        var msc: Int64
        var sbc: Int64
    }

    /// How a UST becomes a time: its clock, and nanoseconds per unit.
    struct USTClock: Equatable {
        /// The clock (`CLOCK_MONOTONIC` or `CLOCK_REALTIME`).
        var clockID: Int32
        /// Nanoseconds per UST unit: 1,000 for microseconds, 1 for nanoseconds.
        var nanosecondsPerUnit: Int64

        /// The clocks and units a UST is tried in, in order: Mesa's (microseconds of
        /// `CLOCK_MONOTONIC`), then nanoseconds of it, then microseconds of the wall clock
        /// (`gettimeofday`, an older fallback). They cannot be confused: the wall clock is decades
        /// past the monotonic one, and a unit a thousand times off puts the time far outside the
        /// window unless the machine booted within the last ``vblankAgeLimit``.
        static let candidates = [
            USTClock(clockID: Int32(CLOCK_MONOTONIC), nanosecondsPerUnit: 1_000),
            USTClock(clockID: Int32(CLOCK_MONOTONIC), nanosecondsPerUnit: 1),
            USTClock(clockID: Int32(CLOCK_REALTIME), nanosecondsPerUnit: 1_000),
        ]

        /// `ust` in nanoseconds of the clock, or `nil` when it does not fit 64 bits or is negative.
        func nanoseconds(of ust: Int64) -> Int64? {
            let product = ust.multipliedReportingOverflow(by: nanosecondsPerUnit)
            guard !product.overflow, product.partialValue >= 0 else { return nil }
            return product.partialValue
        }
    }

    /// How far ahead of the moment it is read a refresh's UST may be: 2 ms. The kernel stamps a
    /// refresh at the end of its blanking interval, which its interrupt precedes (about 0.5 ms at
    /// 60 Hz; 2 ms covers the long blanking of low rates and variable refresh).
    static let vblankAheadAllowance: Int64 = 2_000_000

    /// How far behind the moment it is read the latest refresh's UST may be: 2 s. A running display
    /// refreshed within one period (50 ms at 20 Hz); a window on no display is timed by the X
    /// server's stand-in refresh, once a second by default. Older than that, the time is not one
    /// of this clock's.
    static let vblankAgeLimit: Int64 = 2_000_000_000

    /// How many swaps' frames are remembered: 64, as many as may wait unanswered
    /// (`_FeedbackRequests.unansweredFrameLimit`); a swap older than that is shown without a report.
    static let rememberedSwaps = 64

    /// Why the readings cannot be used.
    typealias Fault = PresentationFeedback.SyncControlFault

    enum State: Equatable {
        /// Reading: `completed` swaps have been read as completed (as an SBC), and the newest shown
        /// was swap `lastShown` at refresh `lastShownMSC` (`nil` before the first).
        case reading(completed: Int64, lastShown: Int64?, lastShownMSC: Int64?)
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
        /// The reading's time does not fit the clock (or a swap's comes after the latest refresh):
        /// not used (the host counts it as refused).
        case refuse
        /// The readings broke a rule: the feedback ends.
        case stop(Fault)
    }

    /// The UST's clock, found when the ledger was made.
    let clock: _CompositorClock
    /// The UST's unit.
    let nanosecondsPerUnit: Int64
    /// The SBC when the host opened, with no swap in flight.
    let baseSBC: Int64
    /// Swaps the host has made since it opened.
    private(set) var swapsMade: Int64 = 0
    /// The MSC of the latest refresh read.
    private var latestMSC: Int64
    /// The UST of the latest refresh read.
    private var latestUST: Int64
    /// The frames of the last ``rememberedSwaps`` swaps, by swap number modulo the count.
    private var frames: [Int64]
    /// The latest refresh read before each of the last ``rememberedSwaps`` swaps was made, likewise.
    private var mscBeforeSwaps: [Int64]

    private(set) var state: State

    /// A ledger from the first reading (`opening`, with every swap before completed), or the fault
    /// that rules the readings out: a UST that fits none of the clocks. `read` reads a clock in
    /// nanoseconds (injected in tests).
    static func open(
        opening: Values, read: @escaping (Int32) -> Int64? = _CompositorClock.systemReading
    ) -> Opening {
        guard opening.msc >= 0, opening.sbc >= 0 else { return .unusable(.countersWentBack) }
        for candidate in USTClock.candidates {
            guard let time = candidate.nanoseconds(of: opening.ust), let now = read(candidate.clockID),
                Self.fits(time, now: now), let clock = _CompositorClock(clockID: UInt32(candidate.clockID), read: read)
            else { continue }
            return .opened(
                _SyncControlLedger(
                    clock: clock, nanosecondsPerUnit: candidate.nanosecondsPerUnit, baseSBC: opening.sbc,
                    latest: opening))
        }
        return .unusable(.unknownClock)
    }

    /// What the first reading allows: a ledger, or the fault that rules the readings out.
    enum Opening {
        case opened(_SyncControlLedger)
        case unusable(Fault)
    }

    private init(clock: _CompositorClock, nanosecondsPerUnit: Int64, baseSBC: Int64, latest: Values) {
        self.clock = clock
        self.nanosecondsPerUnit = nanosecondsPerUnit
        self.baseSBC = baseSBC
        self.latestMSC = latest.msc
        self.latestUST = latest.ust
        self.frames = Array(repeating: 0, count: Self.rememberedSwaps)
        self.mscBeforeSwaps = Array(repeating: 0, count: Self.rememberedSwaps)
        self.state = .reading(completed: baseSBC, lastShown: nil, lastShownMSC: nil)
    }

    /// Whether a refresh at `time` can be the latest when read at `now` (same clock).
    static func fits(_ time: Int64, now: Int64) -> Bool {
        let age = now.subtractingReportingOverflow(time)
        return !age.overflow && age.partialValue >= -vblankAheadAllowance && age.partialValue <= vblankAgeLimit
    }

    /// Swaps made and not yet read as completed.
    var swapsInFlight: Int {
        guard case .reading(let completed, _, _) = state else { return 0 }
        return Int(clamping: baseSBC + swapsMade - completed)
    }

    /// Notes the host's next swap, which makes `frame`.
    mutating func swapWillBegin(frame: Int64) {
        swapsMade += 1
        let slot = Int((baseSBC + swapsMade) % Int64(Self.rememberedSwaps))
        frames[slot] = frame
        mscBeforeSwaps[slot] = latestMSC
    }

    /// Decides what the latest refresh's reading (`glXGetSyncValuesOML`) means.
    mutating func latestRefreshRead(_ values: Values) -> Action {
        guard case .reading(let completed, _, _) = state else { return .nothing }
        if let fault = fault(of: values, completed: completed) { return stop(fault) }
        if values.msc < latestMSC { return stop(.countersWentBack) }
        guard timeFits(values.ust) else { return .refuse }
        latestMSC = values.msc
        latestUST = values.ust
        return values.sbc > completed ? .readNewestSwap(target: values.sbc) : .nothing
    }

    /// Decides what the newest completed swap's reading (`glXWaitForSbcOML`) means.
    mutating func newestSwapRead(_ values: Values) -> Action {
        guard case .reading(let completed, let lastShown, let lastShownMSC) = state else { return .nothing }
        if let fault = fault(of: values, completed: completed) { return stop(fault) }
        // A swap is shown at a refresh no later than the latest read after it, and not after the
        // previous swap shown.
        if values.msc > latestMSC || lastShownMSC.map({ values.msc < $0 }) ?? false { return stop(.countersWentBack) }
        guard values.sbc > completed else { return .nothing }
        let slot = Int(values.sbc % Int64(Self.rememberedSwaps))
        let remembered = swapsMade - (values.sbc - baseSBC) < Int64(Self.rememberedSwaps)
        if remembered, values.msc < mscBeforeSwaps[slot] { return stop(.shownBeforeMade) }
        // Its time is on the clock of the latest refresh, no later (a swap shown long ago, before
        // an idle loop's sleep, is as true as a recent one: no age limit here).
        guard values.ust <= latestUST,
            let ustNanoseconds = USTClock(clockID: clock.clockID, nanosecondsPerUnit: nanosecondsPerUnit)
                .nanoseconds(of: values.ust),
            let monotonic = clock.monotonicNanoseconds(of: ustNanoseconds)
        else { return .refuse }
        var missed: Int?
        if let lastShown, let lastShownMSC, lastShown == values.sbc - 1, values.msc > lastShownMSC {
            missed = Int(clamping: values.msc - lastShownMSC - 1)
        }
        state = .reading(completed: values.sbc, lastShown: values.sbc, lastShownMSC: values.msc)
        return .shown(
            frame: remembered ? frames[slot] : nil, monotonicNanoseconds: monotonic, ustNanoseconds: ustNanoseconds,
            msc: values.msc,
            missedRefreshes: missed)
    }

    /// The rule `values` breaks, if any: counters that go back, more swaps than the host made.
    private func fault(of values: Values, completed: Int64) -> Fault? {
        if values.msc < 0 || values.sbc < completed { return .countersWentBack }
        if values.sbc > baseSBC + swapsMade { return .swapNotMade }
        return nil
    }

    /// Whether a UST fits the clock now.
    private func timeFits(_ ust: Int64) -> Bool {
        guard let time = USTClock(clockID: clock.clockID, nanosecondsPerUnit: nanosecondsPerUnit).nanoseconds(of: ust),
            let now = clock.read(clock.clockID)
        else { return false }
        return Self.fits(time, now: now)
    }

    private mutating func stop(_ fault: Fault) -> Action {
        state = .stopped(fault)
        return .stop(fault)
    }
}
