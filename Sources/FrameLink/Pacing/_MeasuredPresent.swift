/// What a ``PresentSource``'s last present showed, measured at the boundary after it
/// (`measurePresent()`), for the rule that paces the next frame.
struct _MeasuredPresent {
    /// Whether it blocked.
    var blocked: Bool
    /// Whether its return fitted the vsync grid.
    var fits: Bool
    /// Whether its frame came late on a variable-refresh display.
    var lateOnVariableRefresh: Bool
    /// When the frame before it was shown, if known.
    var previousShownTime: Int64?
    /// Whether the model knows the chain had room for it.
    var chainHadRoom: Bool
    /// Whether it is the first frame after a variable-refresh display's window was shown again.
    var firstAfterShow = false
}
