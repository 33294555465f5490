/// Why a ``PresentSource`` paces frames as it does: the evidence behind its ``PresentSource/mode``.
///
/// A game can switch on it, to show "vsync off" in a settings screen or offer deadline pacing
/// when present does not block, without reading text. Its ``description`` is the sentence that
/// ``PresentSource/pacingDescription`` and the statistics reports show.
///
/// ```swift
/// switch source.pacingState.reason {
/// case .presentReturnsAtOnce, .returnsKeepNoPhase, .vsyncFasterThanDisplay, .returnsFollowFrames:
///     print("vsync off: frames paced by FrameLink")
/// default:
///     break
/// }
/// ```
public enum PacingReason: Sendable, Hashable, CustomStringConvertible {
    /// The game chose the pacing (``PresentSource/pacing`` is not ``PresentSource/Pacing/automatic``).
    case requested
    /// Still measuring whether present blocks on vsync: the first frames, or after pacing was set
    /// back to automatic. Frames never come faster than the display meanwhile.
    case measuring
    /// Measuring again: frames that were too slow to fill a swap chain when present was judged
    /// (so it could not block) have become fast enough to.
    case measuringAgain
    /// Present blocks, and the source is checking that its returns keep the display's phase when
    /// frames move (a slow or throttled present's returns move with the frames; a vsync's do not).
    case checkingPhase
    /// Present blocks on the display's vsync: `median` is the median present of the last 16
    /// frames, `grid` the rate of the vsync grid fitted to the returns.
    case presentBlocks(median: Duration, grid: FrameRate)
    /// Present returns at once (`median`, the median of the last 16 frames): vsync is not
    /// honoured, and frames are paced by deadline.
    case presentReturnsAtOnce(median: Duration)
    /// Present blocks for `median`, but its returns keep no phase: an emulated vsync (as under
    /// Xvfb), paced by deadline.
    case returnsKeepNoPhase(median: Duration)
    /// Present blocks, but its returns come at `measured` (when it could be measured), faster than
    /// the display's `display` rate: not the display's vsync, paced by deadline at that rate.
    case vsyncFasterThanDisplay(measured: FrameRate?, display: FrameRate)
    /// Present takes `median`, but its returns follow the frames' own timing (moved half a period,
    /// they returned `offGrid` or more off the vsync grid): a slow present (a software renderer
    /// drawing in it) or a throttle, not a vsync, paced by deadline.
    case returnsFollowFrames(median: Duration, offGrid: Duration)
    /// A frame-rate range requested on a variable-refresh display, paced directly by deadline as
    /// `choice` says; the display shows each frame as it comes.
    case frameRateRangeOnVariableRefresh(FrameRateChoice)
    /// A variable-refresh display whose frames came slower than its fastest refresh (`maximum`):
    /// each is shown as it comes, and the next one starts at once.
    case variableRefreshShowsLateFrames(maximum: FrameRate)

    /// Whether the source found that present is not the display's vsync and paces by deadline
    /// for that reason (not because it was asked to, and not while it is still measuring).
    public var isVsyncRejected: Bool {
        switch self {
        case .presentReturnsAtOnce, .returnsKeepNoPhase, .vsyncFasterThanDisplay, .returnsFollowFrames: true
        default: false
        }
    }

    /// Whether the source is still measuring whether present blocks on vsync (``measuring`` or
    /// ``measuringAgain``; ``checkingPhase`` has found that it blocks).
    public var isMeasuring: Bool {
        switch self {
        case .measuring, .measuringAgain: true
        default: false
        }
    }

    /// The reason in a sentence, such as `"present returned in 0.1 ms, vsync not honoured"`.
    public var description: String {
        switch self {
        case .requested:
            "requested"
        case .measuring:
            "measuring whether present blocks on vsync"
        case .measuringAgain:
            "measuring whether present blocks on vsync, now that frames are fast enough to fill a swap chain"
        case .checkingPhase:
            "present blocks; checking that its returns keep the display's phase when frames move"
        case .presentBlocks(let median, let grid):
            "present blocks for \(Milliseconds(median)) ms (median of \(_PresentPacer.presentDurationsWindow) frames); vsync grid at \(grid)"
        case .presentReturnsAtOnce(let median):
            "present returned in \(Milliseconds(median)) ms, vsync not honoured"
        case .returnsKeepNoPhase(let median):
            "present blocks for \(Milliseconds(median)) ms, but its returns keep no phase: an emulated "
                + "vsync (as under Xvfb), paced by deadline"
        case .vsyncFasterThanDisplay(let measured, let display):
            "present blocks, but at \(measured.map { "\($0)" } ?? "?"), faster than the display's \(display): "
                + "not the display's vsync (an emulated one, as under Xvfb), paced by deadline"
        case .returnsFollowFrames(let median, let offGrid):
            "present takes \(Milliseconds(median)) ms, but its returns follow the frames' own timing "
                + "(moved half a period, they returned \(Milliseconds(offGrid)) ms or more off the vsync grid): "
                + "a slow or throttled present, not a vsync (a software renderer, an emulated vsync as "
                + "under Xvfb), paced by deadline"
        case .frameRateRangeOnVariableRefresh(let choice):
            "frame-rate range \(choice.range): \(choice.reason)"
        case .variableRefreshShowsLateFrames(let maximum):
            "variable refresh: frames slower than the display's \(maximum) are shown as they come"
        }
    }
}
