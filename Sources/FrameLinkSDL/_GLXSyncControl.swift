internal import CFrameLinkSDLShims
internal import FrameLink

/// `GLX_OML_sync_control` read for one X11 window with OpenGL (through `CFrameLinkSDLShims`):
/// after each swap, when the newest completed swap was shown and at which refresh, turned into
/// ``PresentationReport``s on FrameLink's clock. What the readings mean, and the checks they
/// pass, are `_SyncControlLedger`'s; this type reads them.
///
/// Reading costs one round trip to the X server per swap (`glXGetSyncValuesOML`); the newest
/// swap's reading (`glXWaitForSbcOML` for a count already reached) returns at once. Nothing waits
/// for a swap to complete, except opening, which waits for the swaps made before it (at most a
/// refresh or two on a display, a second for a window the X server times on its own) so that the
/// host's swaps can be told by their count.
@MainActor
final class _GLXSyncControl {
    /// How the readings are made: GLX's for a window, or a test's.
    struct Readers {
        /// `glXGetSyncValuesOML`: the latest refresh's UST and MSC, and the SBC.
        var latestRefresh: () -> _SyncControlLedger.Values?
        /// `glXWaitForSbcOML(target)`: the newest completed swap's UST, MSC and SBC.
        var newestSwap: (Int64) -> _SyncControlLedger.Values?
        /// Reads a clock in nanoseconds.
        var clock: (Int32) -> Int64? = _CompositorClock.systemReading

        /// GLX's readings for an SDL window (an `SDL_Window *` on X11 with OpenGL).
        static func glx(window: OpaquePointer) -> Readers {
            let pointer = UnsafeMutableRawPointer(window)
            return Readers(
                latestRefresh: {
                    var values = CFrameLinkSDLShims_SyncValues()
                    guard CFrameLinkSDLShims_readSyncValues(pointer, &values) == 1 else { return nil }
                    return .init(ust: Int64(values.ust), msc: Int64(values.msc), sbc: Int64(values.sbc))
                },
                newestSwap: { target in
                    var values = CFrameLinkSDLShims_SyncValues()
                    guard CFrameLinkSDLShims_waitForSwap(pointer, CLongLong(target), &values) == 1 else { return nil }
                    return .init(ust: Int64(values.ust), msc: Int64(values.msc), sbc: Int64(values.sbc))
                })
        }
    }

    /// What opening found: readings, or why there are none.
    enum Opening {
        case bound(_GLXSyncControl)
        case absent(PresentationFeedback.Absence)
    }

    /// What one collection came to.
    enum Collection: Equatable {
        /// The readings were taken in (or there was nothing new).
        case read
        /// GLX gave no reading (counted in ``unansweredFrames``).
        case unanswered
        /// A reading's time did not fit the UST's clock, or came before the loop began: not used.
        case refused
        /// The readings broke a rule: the feedback is over.
        case stopped(PresentationFeedback.SyncControlFault)
    }

    private let readers: Readers
    private var ledger: _SyncControlLedger

    private init(readers: Readers, ledger: _SyncControlLedger) {
        self.readers = readers
        self.ledger = ledger
    }

    /// The display's refresh period, measured from the refreshes read (their UST over their MSC),
    /// once two have been.
    var refreshPeriod: Duration? { ledger.refreshPeriod.map { .nanoseconds($0) } }

    /// Opens the readings for `window` (an SDL window on X11 with OpenGL, whose server offers the
    /// extension).
    static func open(sdlWindow window: OpaquePointer) -> Opening {
        open(readers: .glx(window: window))
    }

    /// Opens the readings: waits for every swap made so far to complete, reads the latest refresh,
    /// and finds the UST's clock, or says why the readings cannot be used.
    static func open(readers: Readers) -> Opening {
        guard readers.newestSwap(0) != nil, let opening = readers.latestRefresh() else {
            return .absent(.glxSyncControlUnusable(.noReading))
        }
        switch _SyncControlLedger.open(opening: opening, read: readers.clock) {
        case .unusable(let fault):
            return .absent(.glxSyncControlUnusable(fault))
        case .opened(let ledger):
            return .bound(_GLXSyncControl(readers: readers, ledger: ledger))
        }
    }

    /// The UST's clock (a `clockid_t`).
    var clockID: Int32 { ledger.ustClock.clockID }

    /// The UST's unit.
    var ustUnit: Duration { .nanoseconds(ledger.nanosecondsPerUnit) }

    /// The presents after which GLX gave no usable reading, in a row: no answer to either reading,
    /// or a latest refresh whose time does not fit the clock now (a blank display). (Swaps in
    /// flight are not unanswered: a reading after each swap answers that it is not shown yet.)
    private(set) var unansweredFrames = 0

    /// Notes the swap about to be made, which makes `frame`.
    func swapWillBegin(frame: Int64) {
        ledger.swapWillBegin(frame: frame)
    }

    /// Whether reports are being handed to a `collect` or `resynchronize` body now.
    private var isDelivering = false

    /// Whether the next collection must first resynchronize (a drain that failed at a run's
    /// start): until one succeeds, the counts cannot be trusted and nothing is reported.
    private(set) var needsResynchronization = false

    /// Whether the last ``_SyncControlLedger/unknownTimeLimit`` swaps in a row went out without
    /// waiting for a refresh (vsync off, or adaptive vsync under sustained load): the host pauses
    /// the feedback until one is shown at a refresh again.
    var showsAtUnknownTimes: Bool { ledger.unknownInARow >= _SyncControlLedger.unknownTimeLimit }

    /// Waits for every swap made on the window to complete (at most a refresh or two; a second for
    /// a window the X server times without a display), reports the newest when it is the host's,
    /// then takes the swaps counted beyond the host's as made by the game itself: called when a
    /// run begins, so that a game's own swaps between two runs (an adopted window's loading
    /// screen) do not shift the host's count. A drain that fails is tried again at the next
    /// collection, and nothing is reported until one succeeds.
    func resynchronize(epochNanoseconds: Int64, _ body: (PresentationReport) -> Void) -> Collection {
        guard let newest = readers.newestSwap(0), let drained = readers.latestRefresh() else {
            needsResynchronization = true
            unansweredFrames += 1
            return .unanswered
        }
        needsResynchronization = false
        isDelivering = true
        defer { isDelivering = false }
        // (The host's swaps in flight: shown by now, each at a time GLX gives only for the newest.)
        var inFlight = ledger.framesInFlight
        let action = ledger.resynchronize(drained: drained, newestSwap: newest)
        if case .shown(let frame?, _, _, _, _) = action { inFlight.removeAll { $0 == frame } }
        if case .shownAtUnknownTime(let frame?) = action { inFlight.removeAll { $0 == frame } }
        if case .stop = action { inFlight.removeAll() }
        for frame in inFlight { body(PresentationReport(frame: frame, outcome: .shownAtUnusableTime)) }
        let collection = take(action, epochNanoseconds: epochNanoseconds, body)
        unansweredFrames = collection == .unanswered ? unansweredFrames + 1 : 0
        return collection
    }

    /// Takes in what completed without waiting, then hands each frame still in flight to `body`
    /// as ``PresentationReport/Outcome/unanswered`` (the host is closing).
    func abandonPending(epochNanoseconds: Int64, _ body: (PresentationReport) -> Void) {
        // (A host closed by a report handler, while reports are handed over, reports no more.)
        guard !isDelivering else { return }
        if !needsResynchronization { _ = collect(epochNanoseconds: epochNanoseconds, body) }
        for frame in ledger.framesInFlight { body(PresentationReport(frame: frame, outcome: .unanswered)) }
    }

    /// Reads what completed since the last collection and hands a report of the newest swap
    /// shown to `body`, with its shown time on the timeline whose zero is `epochNanoseconds` on
    /// `CLOCK_MONOTONIC` (the loop's).
    func collect(epochNanoseconds: Int64, _ body: (PresentationReport) -> Void) -> Collection {
        if needsResynchronization { return resynchronize(epochNanoseconds: epochNanoseconds, body) }
        isDelivering = true
        defer { isDelivering = false }
        let collection = read(epochNanoseconds: epochNanoseconds, body)
        unansweredFrames = collection == .unanswered ? unansweredFrames + 1 : 0
        return collection
    }

    /// Both readings, as far as they go.
    private func read(epochNanoseconds: Int64, _ body: (PresentationReport) -> Void) -> Collection {
        guard let latest = readers.latestRefresh() else { return .unanswered }
        let refresh = ledger.latestRefreshRead(latest)
        guard case .readNewestSwap(let target) = refresh else {
            return take(refresh, epochNanoseconds: epochNanoseconds, body)
        }
        guard let newest = readers.newestSwap(target) else { return .unanswered }
        let before = ledger.completedSwaps
        let action = ledger.newestSwapRead(newest)
        switch action {
        case .shown, .shownAtUnknownTime:
            // (Swaps completed before the newest: shown, at times GLX gives only for the newest.)
            ledger.forEachFrame(after: before, before: ledger.completedSwaps) { frame in
                body(PresentationReport(frame: frame, outcome: .shownAtUnusableTime))
            }
        default:
            break
        }
        return take(action, epochNanoseconds: epochNanoseconds, body)
    }

    /// Hands the newest swap's report to `body`.
    private func take(
        _ action: _SyncControlLedger.Action, epochNanoseconds: Int64, _ body: (PresentationReport) -> Void
    ) -> Collection {
        switch action {
        case .nothing, .readNewestSwap:
            return .read
        case .unusable:
            return .unanswered
        case .refuse:
            return .refused
        case .stop(let fault):
            return .stopped(fault)
        case .shownAtUnknownTime(let frame):
            // (Shown, but when is not known: not a time the pacing could take or refuse.)
            if let frame { body(PresentationReport(frame: frame, outcome: .shownAtUnusableTime)) }
            return .read
        case .shown(let frame, let monotonic, let ustNanoseconds, let msc, let missed):
            // (A swap made too long ago to remember its frame has no one to report to.)
            guard let frame else { return .read }
            var report = PresentationReport(
                frame: frame, outcome: .shownAtUnusableTime, refreshPeriod: refreshPeriod,
                refreshSequence: UInt64(msc), missedRefreshes: missed)
            guard monotonic >= epochNanoseconds else {
                body(report)
                return .refused
            }
            report.outcome = .shown(
                at: FrameInstant(nanoseconds: monotonic - epochNanoseconds),
                compositorTime: .nanoseconds(ustNanoseconds))
            body(report)
            return .read
        }
    }
}
