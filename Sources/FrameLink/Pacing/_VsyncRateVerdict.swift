/// Whether the vsync grid fitted to blocking presents is faster than the display can be: then it
/// is not the display's vsync (an emulated one, such as Xvfb's 62.5 Hz throttle on a display that
/// reports no rate, or a rate the caller capped), and frames are paced by deadline at the display's
/// rate instead.
///
/// The verdict stays while no grid is fitted (a throttle whose phase wanders keeps losing its fit):
/// it changes with the next fit, or with the display's rate. After a display change the old
/// display's fit is not judged: only a fit after the grid re-locks.
struct _VsyncRateVerdict {
    /// How far above its report a display reported in whole hertz may really run: 1 Hz (59.94 Hz
    /// is reported as 59 by some drivers).
    static let reportRounding = 1.0

    /// The error of a rate measured over a few frames: 0.5 %.
    static let measurementError = 0.005

    /// The fastest a display reported at `rate` may really refresh, in frames per second: the
    /// report, plus ``reportRounding``, plus ``measurementError``.
    static func fastestPlausibleFramesPerSecond(reported rate: FrameRate) -> Double {
        (rate.framesPerSecond + reportRounding) * (1 + measurementError)
    }

    /// The period of ``fastestPlausibleFramesPerSecond(reported:)``, in nanoseconds.
    static func fastestPlausiblePeriod(reported rate: FrameRate) -> Int64 {
        Int64(1e9 / fastestPlausibleFramesPerSecond(reported: rate))
    }

    /// Whether a grid of `period` nanoseconds is not a display reported at `rate`: its rate is
    /// further from the report, either way, than a real display's may be.
    static func isAnotherDisplay(period: Double, reported rate: FrameRate) -> Bool {
        abs(1e9 / period - rate.framesPerSecond)
            > fastestPlausibleFramesPerSecond(reported: rate) - rate.framesPerSecond
    }

    /// Whether the blocking presents measured so far come faster than the display allows.
    private(set) var isFaster = false

    /// Whether a grid of returns whose calls the source timed says the vsync is no faster than the
    /// display, against the standing verdict: the phase probe decides.
    private(set) var isDoubted = false

    /// After a display change, the grid's re-lock count then: nothing is judged until the grid
    /// re-locks (its fit is the old display's until then).
    private var judgedAfterRelocks: Int?

    /// Whether a fit of a grid re-locked `relocks` times is the current display's (not the old
    /// one's, after a display change).
    func isCurrentDisplays(relocks: Int) -> Bool {
        judgedAfterRelocks.map { relocks > $0 } ?? true
    }

    /// Judges a fitted grid of `period` nanoseconds, re-locked `relocks` times, against a display
    /// reported at `rate`. Returns of presents whose calls the source timed (`returnsWerePaced`)
    /// come at the source's rate, whatever the present's own: they do not clear the verdict, they
    /// only cast doubt on it (the phase probe then decides).
    mutating func judge(period: Double, relocks: Int, reported rate: FrameRate, returnsWerePaced: Bool) {
        guard period > 0 else { return }
        if let judgedAfterRelocks {
            guard relocks > judgedAfterRelocks else { return }
            self.judgedAfterRelocks = nil
        }
        let faster = 1e9 / period > Self.fastestPlausibleFramesPerSecond(reported: rate)
        if faster || !returnsWerePaced {
            isFaster = faster
            isDoubted = false
        } else {
            isDoubted = isFaster
        }
    }

    /// The display changed; its grid has re-locked `relocks` times so far.
    mutating func displayChanged(relocks: Int) {
        isFaster = false
        judgedAfterRelocks = relocks
    }

    /// The phase probe found the grid to be the display's: no verdict, no doubt.
    mutating func clear() {
        isFaster = false
        isDoubted = false
    }
}
