internal import CFrameLinkSDLShims
@_spi(FrameSourceImplementation) internal import FrameLink

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
    /// pacing note.
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
                presentationFeedback = .none(Self.glxAbsence(of: window))
            case .absent(let absence):
                presentationFeedback = .none(absence)
            }
        }
        updatePacingNote()
    }

    /// Whether presents are OpenGL swaps (an OpenGL host, or SDL's opengl and opengles2 renderers),
    /// which GLX_OML_sync_control would tell of on X11; a software renderer's are not.
    var presentsWithGLSwaps: Bool {
        presentMethod == .openGL || rendererName.hasPrefix("opengl")
    }

    /// Why a window that is not on Wayland has no feedback: what its GLX offers, if it has GLX.
    static func glxAbsence(of window: OpaquePointer) -> PresentationFeedback.Absence {
        switch CFrameLinkSDLShims_syncControlStatus(UnsafeMutableRawPointer(window)) {
        case CFrameLinkSDLShims_offersSyncControl: .glxSyncControlNotRead
        case CFrameLinkSDLShims_noSyncControl: .glxWithoutSyncControl
        default: .notWayland
        }
    }

    /// Puts the host's parts into the pacing note: the rate's origin and vsync, the thread's
    /// priority, and the presentation feedback (not said for a headless host, which has none).
    func updatePacingNote() {
        let feedback = isHeadless ? nil : presentationFeedback.description
        source.note = [rateNote, priorityNote, feedback].compactMap { $0 }.joined(separator: "; ")
    }

    /// Asks for feedback on the present about to be made (frame `source.presentCount + 1`), unless
    /// the compositor has stopped answering (`_FeedbackRequests`): then the pacing goes back to its
    /// own estimate, and the host asks again once the frames waiting are answered.
    func requestPresentationFeedback() {
        guard let presentation = waylandPresentation else { return }
        switch feedbackRequests.presentWillBegin(unansweredFrames: presentation.unansweredFrames) {
        case .ask:
            _ = presentation.requestFeedback(forFrame: source.presentCount + 1)
        case .resumeAndAsk:
            presentationFeedback = .waylandPresentationTime(clockID: presentation.clockID)
            updatePacingNote()
            _ = presentation.requestFeedback(forFrame: source.presentCount + 1)
        case .skip:
            break
        case .stop(let unanswered):
            presentationFeedback = .none(.compositorStoppedAnswering(unansweredFrames: unanswered))
            source.presentationFeedbackStopped()
            updatePacingNote()
        }
    }

    /// Takes in what the compositor has answered, without waiting: shown times go to the pacing
    /// (`PresentSource.reportPresentation(ofFrame:at:)`), and every report to
    /// ``presentationReportHandler``. A failed connection ends the feedback for good.
    func collectPresentationReports() {
        guard let presentation = waylandPresentation else { return }
        var untrue = false
        let connected = presentation.collect(epochNanoseconds: source.epochNanoseconds) { report in
            // (Late answers while the compositor counts as stopped do not restart the pacing's
            // feedback behind the host's back.)
            if case .shown(let instant, _) = report.outcome, feedbackRequests.forwardsToPacing {
                // Only what the pacing takes goes into the frame log: what it refuses cannot be true.
                let accepted = source.acceptPresentation(ofFrame: report.frame, at: instant)
                if accepted { loop.frameLog?.noteShown(present: report.frame, at: instant) }
                if feedbackRequests.pacingJudged(accepted: accepted) { untrue = true }
            }
            presentationReportHandler?(report)
        }
        if untrue, let presentation = waylandPresentation {
            presentation.close()
            waylandPresentation = nil
            presentationFeedback = .none(.untrueTimes(refusedInARow: _FeedbackRequests.refusedReportLimit))
            source.presentationFeedbackStopped()
            updatePacingNote()
            return
        }
        if !connected {
            presentation.close()
            waylandPresentation = nil
            presentationFeedback = .none(.connectionFailed)
            source.presentationFeedbackStopped()
            updatePacingNote()
        }
    }

    /// Lets go of the binding, before the window and SDL's connection go: the answers that came
    /// are taken in, and the frames still waiting are reported unanswered.
    func closePresentationFeedback() {
        waylandPresentation?.abandonPending(epochNanoseconds: source.epochNanoseconds) { report in
            presentationReportHandler?(report)
        }
        waylandPresentation?.close()
        waylandPresentation = nil
    }
}
