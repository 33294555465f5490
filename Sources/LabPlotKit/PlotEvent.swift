import FrameLink

/// Something the plot marks on its time axis: the source phase-locking, the window moving to
/// another display, the window hidden.
package enum PlotEvent: Sendable, Equatable {
    /// The source's grid became phase-locked at frame `frame` (its timestamp `at`): for the first
    /// time, or again after it was lost (`isFirst` false).
    case phaseLocked(frame: Int64, at: FrameInstant, isFirst: Bool)
    /// The window moved to a display refreshing at `rate`, in the callback of frame `frame`.
    case moved(frame: Int64, at: FrameInstant, rate: FrameRate)
    /// The window was hidden from the callback of frame `frames.lowerBound` (at `from`) to that of
    /// `frames.upperBound` (at `to`).
    case hidden(frames: ClosedRange<Int64>, from: FrameInstant, to: FrameInstant)

    /// When the event happened: the lock's or the move's frame, or the start of the hide.
    package var instant: FrameInstant {
        switch self {
        case .phaseLocked(_, let at, _): at
        case .moved(_, let at, _): at
        case .hidden(_, let from, _): from
        }
    }
}
