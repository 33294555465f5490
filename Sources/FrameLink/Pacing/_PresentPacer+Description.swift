// The pacer's state as text: what `PresentSource.pacingDescription` says.
extension _PresentPacer {
    /// The mode, the rate and the reason, with the host's `note` (`PresentSource.pacingDescription`).
    func describe(note: String?) -> String {
        var text: String
        switch mode {
        case .vsync:
            let rate = measuredRefreshRate.map { "\($0) measured" } ?? "\(displayRefreshRate) nominal"
            let lock = tracker.isPhaseLocked ? ", phase-locked" : ""
            let feedback = tracker.receivesFeedback ? ", presentation feedback" : ""
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
            let halved = halvedCadence
            text +=
                "; presenting every \(_PacingLogEntry.cadence(every: halved.every, ofDeadlines: halved.ofDeadlines)): frame cost \(Milliseconds(cost)) ms over the "
                + "\(Milliseconds(budget)) ms budget"
        }
        if let note { text += " (\(note))" }
        if deadline.clock.sleepsInRealTime, let mainQueueNote = MainQueueDrain.note { text += "; \(mainQueueNote)" }
        return text
    }
}
