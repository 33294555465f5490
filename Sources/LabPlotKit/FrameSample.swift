import FrameLink

/// One frame of a plotted run: FrameLink's timestamp for it, the true vsync that timestamp stands
/// for, and the raw return of the present made at the frame's boundary.
///
/// A frame's timestamp is the vsync the frame before it went out on: the loop presents the last
/// frame at the boundary, and ``PresentSource`` times the new frame by the vsync that released a
/// present that blocked (the last vsync of its grid at or before the return), or, after a present
/// that did not block (a hidden window, a chain with room), by the next vsync of its grid, which
/// it waits for. ``trueVsync`` is the same vsync taken from the lab's ground truth: the last true
/// refresh at or before the return, or the first one after it. With two buffers the vsync that
/// released a present is the one its frame was shown on.
package struct FrameSample: Sendable, Equatable {
    /// The loop's frame index, from 1.
    package var index: Int64
    /// The frame's timestamp: FrameLink's estimate of the vsync.
    package var timestamp: FrameInstant
    /// The true vsync the timestamp stands for, from the lab's refreshes; `nil` when the run ended
    /// before it.
    package var trueVsync: FrameInstant?
    /// When the boundary's present returned, if it waited for a vsync (blocked for an eighth of a
    /// period or more, as the source judges it); `nil` for a present that did not wait.
    package var presentReturn: FrameInstant?
    /// Whether the source's grid was phase-locked when the frame began.
    package var isPhaseLocked: Bool
    /// How the source was pacing when the frame began.
    package var mode: PresentSource.Mode

    /// Creates a sample.
    ///
    /// - Parameters:
    ///   - index: The loop's frame index.
    ///   - timestamp: The frame's timestamp.
    ///   - trueVsync: The true vsync the timestamp stands for.
    ///   - presentReturn: When the boundary's present returned, if it waited for a vsync.
    ///   - isPhaseLocked: Whether the grid was phase-locked.
    ///   - mode: How the source was pacing.
    package init(
        index: Int64, timestamp: FrameInstant, trueVsync: FrameInstant?, presentReturn: FrameInstant?,
        isPhaseLocked: Bool, mode: PresentSource.Mode
    ) {
        self.index = index
        self.timestamp = timestamp
        self.trueVsync = trueVsync
        self.presentReturn = presentReturn
        self.isPhaseLocked = isPhaseLocked
        self.mode = mode
    }

    /// The timestamp minus the true vsync, in nanoseconds (positive: the timestamp is late).
    package var timestampError: Int64? {
        trueVsync.map { timestamp.nanoseconds - $0.nanoseconds }
    }

    /// The present's return minus the true vsync, in nanoseconds: the delay a timestamp taken at the
    /// return would carry.
    package var returnDelay: Int64? {
        guard let trueVsync, let presentReturn else { return nil }
        return presentReturn.nanoseconds - trueVsync.nanoseconds
    }
}
