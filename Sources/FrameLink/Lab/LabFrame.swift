/// The ground truth about one frame presented on a ``DisplayLab``: when it was presented, when
/// present returned, and the refresh it was shown on.
public struct LabFrame: Sendable, Equatable {
    /// The frame's number: 1 for the first present, counted over every present call.
    public let number: Int64
    /// When present was called.
    public let presentedAt: FrameInstant
    /// When the frame was ready to be shown: its present call plus the lab's ``DisplayLab/gpuTime``
    /// at that call (the GPU still rendering it), so ``presentedAt`` unless a GPU time is set. No
    /// refresh shows the frame before it is ready, so ``shownAt``, if any, is at or after it.
    public internal(set) var readyAt: FrameInstant
    /// When present returned.
    public internal(set) var returnedAt: FrameInstant
    /// When the frame reached the screen, or `nil` if it never did (the window was hidden, or the
    /// run ended first).
    public internal(set) var shownAt: FrameInstant?
    /// The number of the display refresh it was shown on (refreshes are counted from 1 at the lab's
    /// start, across rate changes), or `nil` if not shown or the display has no refreshes.
    public internal(set) var refresh: Int64?
    /// Refreshes at which the display had no new frame and showed the previous one again, just
    /// before this frame: the vsyncs this frame missed. Zero for the first frame shown after the
    /// start, after the window is shown again, and after a display change's blank gap
    /// (``DisplayLab/changeRefresh(to:blankingFor:)``): a display that showed nothing repeated
    /// nothing.
    public internal(set) var missedRefreshes: Int
    /// The frames already waiting in the swap chain, not yet shown, when this one was presented: 0
    /// when the chain was empty, so that the frame is the only one queued and goes out at the next
    /// refresh (or, on a variable-refresh display, at once).
    public internal(set) var framesQueuedAhead = 0

    init(number: Int64, presentedAt: FrameInstant) {
        self.number = number
        self.presentedAt = presentedAt
        readyAt = presentedAt
        returnedAt = presentedAt
        shownAt = nil
        refresh = nil
        missedRefreshes = 0
    }
}
