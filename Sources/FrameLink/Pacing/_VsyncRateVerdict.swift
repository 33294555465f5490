/// Whether the vsync grid fitted to blocking presents is faster than the display can be: then it
/// is not the display's vsync (an emulated one, such as Xvfb's 62.5 Hz throttle on a display that
/// reports no rate, or a rate the caller capped), and frames are paced by deadline at the display's
/// rate instead.
///
/// The verdict stays while no grid is fitted (a throttle whose phase wanders keeps losing its fit):
/// it changes with the next fit, or with the display's rate. After a display change the old
/// display's fit is not judged: only a fit after the grid re-locks, or once its window holds only
/// returns that came after the change.
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

    /// Whether the blocking presents measured so far come faster than the display allows.
    private(set) var isFaster = false

    /// Whether a grid of returns whose calls the source timed says the vsync is no faster than the
    /// display, against the standing verdict: the phase probe decides.
    private(set) var isDoubted = false

    /// Which fit of the vsync grid is judged: its re-lock count, the returns the grid has taken
    /// in all, and how many of them its window holds now.
    struct Fit: Equatable {
        /// How many times the grid's window started again.
        var relocks: Int
        /// The returns the grid has taken since it was made.
        var returnsTaken: Int
        /// The returns in its window now.
        var windowReturns: Int
    }

    /// After a display change, the grid's re-lock count and returns taken then: nothing is judged
    /// until the grid's fit is the new display's.
    private var changedAt: (relocks: Int, returnsTaken: Int)?

    /// Whether `fit` is the current display's, not the old one's after a display change: the grid
    /// re-locked since, or every return in its window came after the change. (A re-lock alone
    /// never came where the new display's vsync fits the old grid, as when a 59.94 Hz display is
    /// reported again as 59 Hz: its rate was never measured again, 100,000 frames on; nor when the
    /// change came before the first fit. Found by review.)
    func isCurrentDisplays(_ fit: Fit) -> Bool {
        guard let changedAt else { return true }
        return fit.relocks > changedAt.relocks || fit.returnsTaken - changedAt.returnsTaken >= fit.windowReturns
    }

    /// Judges a fitted grid of `period` nanoseconds, whose fit is `fit`, against a display
    /// reported at `rate`. Returns of presents whose calls the source timed (`returnsWerePaced`)
    /// come at the source's rate, whatever the present's own: they do not clear the verdict, they
    /// only cast doubt on it (the phase probe then decides).
    mutating func judge(period: Double, fit: Fit, reported rate: FrameRate, returnsWerePaced: Bool) {
        guard period > 0 else { return }
        guard isCurrentDisplays(fit) else { return }
        changedAt = nil
        let faster = 1e9 / period > Self.fastestPlausibleFramesPerSecond(reported: rate)
        if faster || !returnsWerePaced {
            isFaster = faster
            isDoubted = false
        } else {
            isDoubted = isFaster
        }
    }

    /// The display changed; the grid's fit then is `fit`.
    mutating func displayChanged(at fit: Fit) {
        isFaster = false
        changedAt = (fit.relocks, fit.returnsTaken)
    }

    /// The phase probe found the grid to be the display's: no verdict, no doubt.
    mutating func clear() {
        isFaster = false
        isDoubted = false
    }
}
