/// Which rule paces the next frame after a present: chosen by a ``PresentSource`` at each frame
/// boundary from what it knows (``Facts``), one named case per rule with its reason, in a fixed
/// order of precedence (``choose(_:)``). The source then carries the rule out; which rule paced a
/// frame is a value a test reads, not a path through branches.
enum _FrameRule: Equatable, CaseIterable {
    /// The window is hidden: nothing is shown, so a present's return says nothing (X11's return at
    /// once, Wayland's may wait for frame callbacks that never come), nothing is dropped, and
    /// frames keep the display's rate and phase on the deadline grid. First, whatever the mode.
    case hiddenWindow
    /// The frame came late for a variable-refresh display's fastest refresh: the display waited
    /// for it and shows it when presented (a drop only if the display refreshed on its own
    /// meanwhile); the next frame starts at once, and the display's refreshes take its phase.
    case lateOnVariableRefresh
    /// A requested rate on a variable-refresh display, while pacing is automatic: the deadline
    /// grid paces it, and the display shows each frame as it comes.
    case requestedRateOnVariableRefresh
    /// The phase probe's frames (deadline mode, automatic pacing): paced by deadline, half a period
    /// off the grid; the machine notes the returns that do not fit.
    case phaseProbe
    /// Pacing off: the next frame starts when present returns.
    case unpaced
    /// Vsync mode: frames follow the vsync grid.
    case followVsync
    /// Still measuring (deadline mode, automatic pacing) and the present blocked, on a display not
    /// yet found to keep no phase or to be faster than it can be: the present paces the frames
    /// itself, and the deadline grid follows it.
    case measuringBlockingPresent
    /// The first frames go back to back (automatic pacing): a swap chain with room for queued
    /// frames fills, and a present that blocks shows itself; paced by deadline, it never would.
    case backToBack
    /// An emulated vsync (faster than the display, or keeping no phase) whose present held the
    /// frame past its deadline: the frame starts now and the deadline grid restarts from it (a cap,
    /// not a grid the emulation cannot keep), rather than waiting for the next deadline and
    /// dropping a frame that was not late.
    case heldPastDeadline
    /// Deadline pacing: the next point of the deadline grid.
    case deadline

    /// What the source knows at the boundary.
    struct Facts: Equatable {
        /// Whether the window is hidden.
        var windowHidden = false
        /// Whether the frame just presented came late on a variable-refresh display
        /// (`PresentSource.isLateOnVariableRefresh`).
        var lateOnVariableRefresh = false
        /// Whether pacing is automatic (not forced).
        var automatic = true
        /// Whether a requested rate is paced directly on a variable-refresh display.
        var pacesRequestedRateDirectly = false
        /// Whether the phase probe runs.
        var phaseProbeRuns = false
        /// The mode.
        var mode = PresentSource.Mode.deadline
        /// Whether the present blocked.
        var blocked = false
        /// Whether the returns of blocking presents keep no phase (an emulated vsync).
        var keepsNoPhase = false
        /// Whether the vsync measured is faster than the display can be.
        var vsyncIsFasterThanDisplay = false
        /// Whether the first frames still go back to back.
        var isProbing = false
        /// Whether the present returned a deadline period or more after the last frame's timestamp.
        var returnedPastDeadline = false
    }

    /// The rule for `facts`: the first case, in declaration order, whose condition holds (a
    /// hidden window before anything else, the deadline when nothing else does).
    static func choose(_ facts: Facts) -> _FrameRule {
        if facts.windowHidden { return .hiddenWindow }
        if facts.lateOnVariableRefresh { return .lateOnVariableRefresh }
        if facts.pacesRequestedRateDirectly && facts.automatic { return .requestedRateOnVariableRefresh }
        if facts.phaseProbeRuns && facts.automatic && facts.mode == .deadline { return .phaseProbe }
        switch facts.mode {
        case .unpaced:
            return .unpaced
        case .vsync:
            return .followVsync
        case .deadline:
            let emulated = facts.keepsNoPhase || facts.vsyncIsFasterThanDisplay
            if facts.automatic && facts.blocked && !emulated { return .measuringBlockingPresent }
            if facts.automatic && facts.isProbing { return .backToBack }
            if facts.blocked && emulated && facts.returnedPastDeadline { return .heldPastDeadline }
            return .deadline
        }
    }
}
