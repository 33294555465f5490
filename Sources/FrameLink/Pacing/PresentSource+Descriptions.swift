// PresentSource's mode and reason as text, for tracker.reports.
extension PresentSource {
    /// The current mode.
    public var mode: Mode { pacingState.mode }

    /// Why the source is in its current mode, in a sentence, such as
    /// `"present returned in 0.05 ms, vsync not honoured"` (rendered from ``pacingState``: read
    /// its ``PacingState/reason`` to decide anything).
    public var reason: String { pacingState.description }

    /// The mode, the rate and the reason, for tracker.reports.
    public var pacingDescription: String {
        var text: String
        switch mode {
        case .vsync:
            let rate = measuredRefreshRate.map { "\($0) measured" } ?? "\(displayRefreshRate) nominal"
            let lock = isPhaseLocked ? ", phase-locked" : ""
            let feedback = receivesPresentationFeedback ? ", presentation feedback" : ""
            text = "vsync (\(rate)\(lock)\(feedback)): \(pacingState)"
        case .deadline:
            text = "deadline \(deadline.refreshRate): \(pacingState)"
            if let schedulingNote = deadline.schedulingNote { text += "; \(schedulingNote)" }
        case .unpaced:
            text = "unpaced: \(pacingState)"
        }
        if tracker.grid.relocks > 0 {
            text += "; vsync re-locked \(tracker.grid.relocks)× after returns stopped fitting the grid"
        }
        if !pacesRequestedRateDirectly, let choice = frameRateChoice {
            text += "; frame-rate range \(choice.range): \(choice.rate), \(choice.reason)"
        }
        if case .halved(let cost, let budget) = cadence.autoFrameRate.state {
            text +=
                "; presenting every \(halvedCadence): frame cost \(Milliseconds(cost)) ms over the "
                + "\(Milliseconds(budget)) ms budget"
        }
        if let note { text += " (\(note))" }
        if clock.sleepsInRealTime, let mainQueueNote = MainQueueDrain.note { text += "; \(mainQueueNote)" }
        return text
    }
}
