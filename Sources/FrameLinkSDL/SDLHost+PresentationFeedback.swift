internal import CFrameLinkSDLShims
@_spi(FrameSourceImplementation) internal import FrameLink

#if canImport(Glibc)
    import Glibc
#endif

extension SDLHost {
    /// Whether a host with a display asks the compositor when its frames reach the screen (true by
    /// default; set it before creating the host). Headless hosts never do.
    ///
    /// On Wayland the host binds the presentation-time protocol (`wp_presentation`) on SDL's
    /// display connection, on an event queue of its own so that SDL's event handling is untouched;
    /// it asks for feedback before each present and hands the answers to the pacing, which then
    /// fits the vsync grid to when frames turned into light. Opening waits at most 250 ms for the
    /// compositor's answer, and no frame ever waits for feedback. ``presentationFeedback`` says
    /// what the host got, and ``pacingDescription`` says it once.
    public static var requestsPresentationFeedback = true

    /// Binds presentation feedback for the window, if there is any to have, and says so in the
    /// pacing note: Wayland's presentation-time, or GLX_OML_sync_control on X11 with OpenGL.
    func openPresentationFeedback() {
        if isHeadless {
            presentationFeedback = .none(.headless)
        } else if !Self.requestsPresentationFeedback {
            presentationFeedback = .none(.turnedOff)
        } else if let window {
            switch _WaylandPresentation.open(sdlWindow: window) {
            case .bound(let presentation):
                waylandPresentation = presentation
                presentationFeedback = .waylandPresentationTime(clockID: presentation.clockID)
            case .absent(.notWayland) where presentsWithGLSwaps:
                openSyncControl(of: window)
            case .absent(let absence):
                presentationFeedback = .none(absence)
            }
        }
        updatePacingNote()
    }

    /// Reads GLX_OML_sync_control for an X11 window with OpenGL swaps, where the X server offers
    /// it (or where a test gives readings, `syncControlReadersForTesting`).
    private func openSyncControl(of window: OpaquePointer) {
        let pointer = UnsafeMutableRawPointer(window)
        let opening: _GLXSyncControl.Opening
        if let readers = Self.syncControlReadersForTesting {
            opening = _GLXSyncControl.open(readers: readers)
        } else {
            let waylandDisplay = getenv("WAYLAND_DISPLAY").map { String(cString: $0) }
            opening = Self.syncControlOpening(
                status: CFrameLinkSDLShims_syncControlStatus(pointer),
                isXwayland: { Self.isXwayland(window: pointer, waylandDisplay: waylandDisplay) },
                open: { _GLXSyncControl.open(sdlWindow: window) })
        }
        switch opening {
        case .bound(let syncControl):
            glxSyncControl = syncControl
            presentationFeedback = .glxSyncControl(clockID: syncControl.clockID, ustUnit: syncControl.ustUnit)
        case .absent(let absence):
            presentationFeedback = .none(absence)
        }
    }

    /// What the host does with what the X server's GLX offers (`status`): reads it (`open`),
    /// except on Xwayland, whose counts are the Wayland compositor's frame callbacks and whose
    /// times are when they arrived, not a display's refreshes.
    static func syncControlOpening(
        status: CFrameLinkSDLShims_Status, isXwayland: () -> Bool, open: () -> _GLXSyncControl.Opening
    ) -> _GLXSyncControl.Opening {
        switch status {
        case CFrameLinkSDLShims_offersSyncControl where isXwayland(): .absent(.glxSyncControlUnusable(.xwayland))
        case CFrameLinkSDLShims_offersSyncControl: open()
        case CFrameLinkSDLShims_noSyncControl: .absent(.glxWithoutSyncControl)
        default: .absent(.notWayland)
        }
    }

    /// Whether the window's X server is (or may be) Xwayland: it lists the XWAYLAND extension
    /// (Xwayland 21.1 and later), or the session is a Wayland one (`WAYLAND_DISPLAY` set: SDL chose
    /// X11 on a Wayland desktop, where the X server is Xwayland unless the game runs a nested X
    /// server, for which GLX is then not read either: the safe side).
    static func isXwayland(window: UnsafeMutableRawPointer?, waylandDisplay: String?) -> Bool {
        CFrameLinkSDLShims_isXwayland(window) == 1 || !(waylandDisplay ?? "").isEmpty
    }

    /// Before a run: GLX's count of swaps is made to agree with the host's again, waiting for the
    /// swaps made so far (see `_GLXSyncControl.resynchronize()`), in case the game swapped its
    /// window itself since the last run.
    func resynchronizePresentationFeedback() {
        guard let syncControl = glxSyncControl else { return }
        var untrue = false
        let collection = syncControl.resynchronize(epochNanoseconds: source.epochNanoseconds) { report in
            if takeIn(report) { untrue = true }
        }
        finishSyncControlCollection(collection, of: syncControl, untrue: untrue)
    }

    /// Readings a test gives in place of GLX's, for hosts opened while it is set (GLX_OML_sync_control
    /// cannot be read under Xvfb).
    static var syncControlReadersForTesting: _GLXSyncControl.Readers?

    /// Whether presents are OpenGL swaps (an OpenGL host, or SDL's opengl and opengles2 renderers),
    /// which GLX_OML_sync_control tells of on X11; a software renderer's are not.
    var presentsWithGLSwaps: Bool {
        presentMethod == .openGL || rendererName.hasPrefix("opengl")
    }

    /// Puts the host's parts into the pacing note: the rate's origin and vsync, the thread's
    /// priority, and the presentation feedback (not said for a headless host, which has none).
    func updatePacingNote() {
        let feedback = isHeadless ? nil : presentationFeedback.description
        source.note = [rateNote, priorityNote, feedback].compactMap { $0 }.joined(separator: "; ")
    }

    /// Asks for feedback on the present about to be made (frame `source.presentCount + 1`), unless
    /// the compositor has stopped answering (`_FeedbackRequests`): then the pacing goes back to its
    /// own estimate, and the host asks again once the frames waiting are answered. With
    /// GLX_OML_sync_control, every swap is noted (its count is how it is told), and the same rule,
    /// counting the presents after which GLX gave no reading, decides whether its reports go to
    /// the pacing.
    func requestPresentationFeedback() {
        let frame = source.presentCount + 1
        let unanswered: Int
        if let presentation = waylandPresentation {
            unanswered = presentation.unansweredFrames
        } else if let syncControl = glxSyncControl {
            unanswered = syncControl.unansweredFrames
            syncControl.swapWillBegin(frame: frame)
        } else {
            return
        }
        switch feedbackRequests.presentWillBegin(unansweredFrames: unanswered) {
        case .ask:
            _ = waylandPresentation?.requestFeedback(forFrame: frame)
        case .resumeAndAsk:
            presentationFeedback = currentFeedback
            updatePacingNote()
            _ = waylandPresentation?.requestFeedback(forFrame: frame)
        case .skip:
            break
        case .stop(let unanswered):
            presentationFeedback = .none(.compositorStoppedAnswering(unansweredFrames: unanswered))
            source.presentationFeedbackStopped()
            updatePacingNote()
        }
    }

    /// The feedback the host has while it is answered.
    private var currentFeedback: PresentationFeedback {
        if let presentation = waylandPresentation { return .waylandPresentationTime(clockID: presentation.clockID) }
        if let syncControl = glxSyncControl {
            return .glxSyncControl(clockID: syncControl.clockID, ustUnit: syncControl.ustUnit)
        }
        return presentationFeedback
    }

    /// Takes in what the compositor (or GLX) has answered, without waiting: shown times go to the
    /// pacing (`PresentSource.reportPresentation(ofFrame:at:)`), and every report to
    /// ``presentationReportHandler``. A failed connection, or GLX readings that break a rule, end
    /// the feedback for good.
    func collectPresentationReports() {
        if let syncControl = glxSyncControl {
            collectSyncControlReports(from: syncControl)
            return
        }
        guard let presentation = waylandPresentation else { return }
        var untrue = false
        let connected = presentation.collect(epochNanoseconds: source.epochNanoseconds) { report in
            if takeIn(report) { untrue = true }
        }
        if untrue {
            endPresentationFeedback(.untrueTimes(refusedInARow: _FeedbackRequests.refusedReportLimit))
        } else if !connected {
            endPresentationFeedback(.connectionFailed)
        }
    }

    /// Takes in GLX_OML_sync_control's readings since the last swap.
    private func collectSyncControlReports(from syncControl: _GLXSyncControl) {
        var untrue = false
        let collection = syncControl.collect(epochNanoseconds: source.epochNanoseconds) { report in
            if takeIn(report) { untrue = true }
        }
        finishSyncControlCollection(collection, of: syncControl, untrue: untrue)
    }

    /// Acts on what a GLX collection came to: a time not used counts as refused, a broken rule
    /// ends the feedback, and swaps that go out without waiting for a refresh (vsync off, adaptive
    /// vsync under load) pause it until one is shown at a refresh again.
    private func finishSyncControlCollection(
        _ collection: _GLXSyncControl.Collection, of syncControl: _GLXSyncControl, untrue: Bool
    ) {
        var untrue = untrue
        switch collection {
        case .read, .unanswered:
            break
        case .refused:
            // (A time that is not used counts as a time the pacing refused.)
            if feedbackRequests.forwardsToPacing, feedbackRequests.pacingJudged(accepted: false) { untrue = true }
        case .stopped(let fault):
            endPresentationFeedback(.glxSyncControlUnusable(fault))
            return
        }
        if untrue {
            endPresentationFeedback(.untrueTimes(refusedInARow: _FeedbackRequests.refusedReportLimit))
            return
        }
        let paused = PresentationFeedback.none(.glxSyncControlUnusable(.swapsDoNotWaitForRefresh))
        if syncControl.showsAtUnknownTimes, presentationFeedback.isAvailable {
            presentationFeedback = paused
            source.presentationFeedbackStopped()
            updatePacingNote()
        } else if !syncControl.showsAtUnknownTimes, presentationFeedback == paused {
            presentationFeedback = currentFeedback
            updatePacingNote()
        }
    }

    /// Hands one report to the pacing (while its reports go there) and to
    /// ``presentationReportHandler``; true when the pacing has now refused
    /// `_FeedbackRequests.refusedReportLimit` shown times in a row.
    private func takeIn(_ report: PresentationReport) -> Bool {
        var untrue = false
        // (Late answers while the compositor counts as stopped do not restart the pacing's
        // feedback behind the host's back.)
        if case .shown(let instant, _) = report.outcome, feedbackRequests.forwardsToPacing {
            // Only what the pacing takes goes into the frame log: what it refuses cannot be true.
            let accepted = source.acceptPresentation(ofFrame: report.frame, at: instant)
            if accepted { loop.frameLog?.noteShown(present: report.frame, at: instant) }
            untrue = feedbackRequests.pacingJudged(accepted: accepted)
        }
        presentationReportHandler?(report)
        return untrue
    }

    /// Ends the feedback for good (unless a report handler closed the host already): the pacing
    /// goes back to its own estimate, and the note says why.
    private func endPresentationFeedback(_ absence: PresentationFeedback.Absence) {
        guard waylandPresentation != nil || glxSyncControl != nil else { return }
        waylandPresentation?.close()
        waylandPresentation = nil
        glxSyncControl = nil
        presentationFeedback = .none(absence)
        source.presentationFeedbackStopped()
        updatePacingNote()
    }

    /// Lets go of the binding, before the window and SDL's connection go: the answers that came
    /// are taken in, and the frames still waiting are reported unanswered.
    func closePresentationFeedback() {
        waylandPresentation?.abandonPending(epochNanoseconds: source.epochNanoseconds) { report in
            presentationReportHandler?(report)
        }
        glxSyncControl?.abandonPending(epochNanoseconds: source.epochNanoseconds) { report in
            presentationReportHandler?(report)
        }
        waylandPresentation?.close()
        waylandPresentation = nil
        glxSyncControl = nil
    }
}
