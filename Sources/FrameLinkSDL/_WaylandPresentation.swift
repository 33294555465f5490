internal import CFrameLinkWayland
internal import FrameLink

/// A binding of Wayland's presentation-time protocol for one surface (through `CFrameLinkWayland`):
/// asks for feedback on each present and turns the compositor's answers into
/// ``PresentationReport``s on FrameLink's clock.
///
/// The compositor's answers are data from outside: a time that cannot be converted is counted
/// (``unconvertibleReports``) and passed on as neither shown nor discarded, and the sequence
/// steps count missed refreshes only when both frames carry one.
@MainActor
final class _WaylandPresentation {
    /// How long opening waits for each of the compositor's answers (its globals, then its clock):
    /// 250 ms, far beyond a compositor's round trip (about a millisecond here) and short enough
    /// that a host opening on a stuck compositor is not held up for long.
    static let bindTimeoutMilliseconds: Int32 = 250

    private var binding: OpaquePointer?
    let clock: _CompositorClock
    private var previousSequence: UInt64?
    /// Reports whose time could not be converted to FrameLink's clock.
    private(set) var unconvertibleReports = 0

    /// What opening found: a binding, or why there is none.
    enum Opening {
        case bound(_WaylandPresentation)
        case absent(PresentationFeedback.Absence)
    }

    /// Binds presentation-time for `surface` on `display` (`struct wl_display *` and
    /// `struct wl_surface *`; a nil surface only asks what the compositor offers).
    static func open(display: OpaquePointer, surface: OpaquePointer?, timeoutMilliseconds: Int32) -> Opening {
        var status = CFrameLinkWayland_bound
        guard
            let binding = CFrameLinkWayland_bind(
                UnsafeMutableRawPointer(display), surface.map { UnsafeMutableRawPointer($0) },
                timeoutMilliseconds, &status)
        else {
            return .absent(absence(of: status))
        }
        let clockID = CFrameLinkWayland_clockID(binding)
        guard let clock = _CompositorClock(clockID: clockID) else {
            CFrameLinkWayland_destroy(binding)
            return .absent(.unreadableClock(clockID: Int32(truncatingIfNeeded: clockID)))
        }
        return .bound(_WaylandPresentation(binding: binding, clock: clock))
    }

    /// Binds presentation-time for an SDL window's surface, or says why there is none.
    static func open(sdlWindow window: OpaquePointer) -> Opening {
        var display: UnsafeMutableRawPointer?
        var surface: UnsafeMutableRawPointer?
        guard CFrameLinkWayland_surfaceOfSDLWindow(UnsafeMutableRawPointer(window), &display, &surface) == 1,
            let display, let surface
        else { return .absent(.notWayland) }
        return open(
            display: OpaquePointer(display), surface: OpaquePointer(surface),
            timeoutMilliseconds: bindTimeoutMilliseconds)
    }

    private init(binding: OpaquePointer, clock: _CompositorClock) {
        self.binding = binding
        self.clock = clock
        batch.reserveCapacity(Int(CFrameLinkWayland_reportCapacity))
    }

    isolated deinit {
        close()
    }

    /// The C binding, for tests that drive its dispatch themselves.
    var bindingForTesting: OpaquePointer? { binding }

    /// The compositor's clock.
    var clockID: Int32 { clock.clockID }

    /// Frames waiting for their feedback.
    var unansweredFrames: Int { binding.map { Int(CFrameLinkWayland_pendingCount($0)) } ?? 0 }

    /// Asks for feedback on the next commit, labelled `frame`; false when nothing was asked (the
    /// compositor stopped answering, or the binding is closed).
    func requestFeedback(forFrame frame: Int64) -> Bool {
        guard let binding else { return false }
        return CFrameLinkWayland_requestFeedback(binding, frame) == 1
    }

    /// Whether reports are being handed to a `collect` or `abandonPending` body now. A body may
    /// close the binding (a game closing its host from a report handler): the hand-over works on
    /// copies of the reports, so nothing reads the binding once it is gone, and it stops there.
    private var isDelivering = false

    /// Reports of one read, put in frame order before they are handed over (a compositor may
    /// answer a backlog newest first), in storage kept from read to read.
    private var batch: [CFrameLinkWayland_Report] = []

    /// Reads what the compositor sent, without waiting, and hands each report to `body`, in frame
    /// order within what arrived together, with shown times on the timeline whose zero is
    /// `epochNanoseconds` on `CLOCK_MONOTONIC` (the loop's). Returns false when the connection has
    /// failed. A `body` that closes the binding ends the hand-over; one that collects again gets
    /// nothing more (the reports are being handed over already).
    func collect(epochNanoseconds: Int64, _ body: (PresentationReport) -> Void) -> Bool {
        guard let binding else { return false }
        guard !isDelivering else { return true }
        let connected = CFrameLinkWayland_dispatch(binding) == 0
        deliver(from: binding, epochNanoseconds: epochNanoseconds, body)
        return connected
    }

    /// Hands the reports waiting in `binding` to `body`, oldest frame first.
    private func deliver(
        from binding: OpaquePointer, epochNanoseconds: Int64, _ body: (PresentationReport) -> Void
    ) {
        batch.removeAll(keepingCapacity: true)
        var raw = CFrameLinkWayland_Report()
        while CFrameLinkWayland_nextReport(binding, &raw) == 1 {
            // Insertion in frame order: batches are a few reports, and nothing is allocated.
            var index = batch.count
            batch.append(raw)
            while index > 0, batch[index - 1].frame > raw.frame {
                batch[index] = batch[index - 1]
                index -= 1
            }
            batch[index] = raw
        }
        isDelivering = true
        defer { isDelivering = false }
        for raw in batch {
            // (A body that closed the binding ends the hand-over.)
            guard self.binding != nil else { return }
            body(convert(raw, epochNanoseconds: epochNanoseconds))
        }
    }

    /// A report from the compositor's fields, checked and converted (a time that cannot be is
    /// counted in ``unconvertibleReports``).
    func convert(_ raw: CFrameLinkWayland_Report, epochNanoseconds: Int64) -> PresentationReport {
        var report = PresentationReport(frame: raw.frame, outcome: .discarded, flags: .init(rawValue: raw.flags))
        if raw.outcome == CFrameLinkWayland_unanswered {
            report.outcome = .unanswered
            return report
        }
        guard raw.outcome == CFrameLinkWayland_presented else {
            return report
        }
        report.refreshPeriod = raw.refreshNanoseconds > 0 ? .nanoseconds(Int64(raw.refreshNanoseconds)) : nil
        let sequence = raw.sequence > 0 ? raw.sequence : nil
        report.refreshSequence = sequence
        guard let compositorTime = _CompositorClock.nanoseconds(seconds: raw.seconds, nanoseconds: raw.nanoseconds),
            let shown = clock.monotonicNanoseconds(of: compositorTime), shown >= epochNanoseconds
        else {
            unconvertibleReports += 1
            report.outcome = .shownAtUnusableTime
            return report
        }
        if let sequence, let previousSequence, sequence > previousSequence {
            report.missedRefreshes = Int(clamping: sequence - previousSequence - 1)
        }
        previousSequence = sequence
        report.outcome = .shown(
            at: FrameInstant(nanoseconds: shown - epochNanoseconds), compositorTime: .nanoseconds(compositorTime))
        return report
    }

    /// Takes in the last answers without waiting, then lets go of the frames still waiting: each is
    /// handed to `body` as ``PresentationReport/Outcome/unanswered``. Does nothing while reports
    /// are being handed over.
    func abandonPending(epochNanoseconds: Int64, _ body: (PresentationReport) -> Void) {
        guard !isDelivering else { return }
        _ = collect(epochNanoseconds: epochNanoseconds, body)
        guard let binding else { return }
        CFrameLinkWayland_abandonPending(binding)
        deliver(from: binding, epochNanoseconds: epochNanoseconds, body)
    }

    /// Lets go of the binding (before the window and SDL's connection go). Safe to call twice,
    /// and from a body reports are handed to (which ends the hand-over).
    func close() {
        CFrameLinkWayland_destroy(binding)
        binding = nil
    }

    /// The absence a binding status means.
    static func absence(of status: CFrameLinkWayland_BindStatus) -> PresentationFeedback.Absence {
        switch status {
        case CFrameLinkWayland_noPresentationGlobal: .compositorOffersNone
        case CFrameLinkWayland_noAnswer, CFrameLinkWayland_noClock: .compositorDidNotAnswer
        case CFrameLinkWayland_noDisplay: .notWayland
        default: .connectionFailed
        }
    }
}
