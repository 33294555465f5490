/// The heavy-frame probe: whether present blocks on vsync, for frames too heavy to go back to back.
///
/// Frames that cost most of a period leave their presents almost no time to wait: on two buffers a
/// frame of 89 % of a 240 Hz period is presented 0.46 ms before the vsync that frees its buffer,
/// less than a present that blocked takes at least (``_BlockingPresent``). Such presents are never
/// taken as blocking, back-to-back frames are no faster than the display and fill no chain, and
/// the source measured for good while frames stayed heavy (found by the sweep: seed 9 #129, 240 Hz,
/// frames of 89 % of a period, "measuring" for all 1,071 frames). So for at most ``frames`` frames
/// each present is held until half a period after the vsync the last present returned on: a
/// vsync's present then waits about half a period, and is measured as blocking; a present that
/// ignores vsync still returns at once (and the source measures on as before). The frames go out
/// every other vsync meanwhile, as under the phase probe.
struct _HeavyFrameProbe {
    /// Frames held at most: 16, the window of present durations whose median is read
    /// (`PresentSource`'s window), a quarter of a second at 60 Hz. The probe ends sooner once the
    /// source stops measuring (a vsync confirmed, or the phase probe started).
    static let frames = 16

    /// Where a held present is called, as a fraction of the period after a vsync: half (as far from
    /// either vsync as a call can be: a vsync's present waits about half a period, whatever the
    /// delay of its return).
    static let holdFraction: Int64 = 2

    /// Frames left.
    private(set) var remaining = Self.frames

    /// Notes one frame of the probe.
    mutating func noteFrame() {
        remaining -= 1
    }

    /// Whether the probe's frames are done.
    var isOver: Bool { remaining <= 0 }

    /// When a present is called, at the earliest `now`: half a period after a vsync of the grid
    /// through the last present's return (`lastReturn`), on a display of `period` nanoseconds.
    static func presentTime(lastReturn: Int64, period: Int64, now: Int64) -> Int64 {
        let half = lastReturn + period / holdFraction
        guard period > 0, now > half else { return half }
        return half + (now - half + period - 1) / period * period
    }
}
