/// How a variable-refresh display (VRR: FreeSync, G-Sync, HDMI VRR) shows frames: it waits for
/// each frame up to its slowest refresh, and shows it when it is presented, but never sooner than
/// its fastest period after the refresh before.
enum _VariableRefreshModel {
    /// When a display refreshing within `refresh` shows a frame presented at `presentedAt`, the
    /// last one having been shown at `lastShown`, and the frames it dropped meanwhile: each time
    /// its slowest refresh runs out first, it refreshes on its own (the old frame again: a drop),
    /// and after a refresh it cannot refresh again before its fastest period has passed. (A frame
    /// presented just as the slowest refresh runs out comes too late for it.)
    static func showing(
        presentedAt: Int64, lastShown: Int64, refresh: ClosedRange<FrameRate>
    ) -> (time: Int64, drops: Int) {
        let longest = refresh.lowerBound.periodNanoseconds
        let shortest = refresh.upperBound.periodNanoseconds
        guard longest > 0, presentedAt > lastShown else { return (max(presentedAt, lastShown + shortest), 0) }
        let ownRefreshes = (presentedAt - lastShown) / longest
        let lastRefresh = lastShown + ownRefreshes * longest
        return (max(presentedAt, lastRefresh + shortest), Int(clamping: ownRefreshes))
    }

    /// The refreshes a display refreshing within `refresh` makes on its own between frames that
    /// come on time every `pacedPeriod`: none while the paced period is no longer than its slowest
    /// refresh; else the slowest refreshes that run out within it (a rate asked for below the
    /// display's minimum, 30 Hz halved on a 44 Hz minimum, shows each frame again, as the game
    /// asked: no drop). Only refreshes beyond these are drops. (A rate at the minimum exactly is
    /// one the display keeps: a repeat there is a frame too late, a drop; found by review.)
    static func ownRefreshesOnTime(pacedPeriod: Int64, refresh: ClosedRange<FrameRate>) -> Int {
        let longest = refresh.lowerBound.periodNanoseconds
        guard longest > 0, pacedPeriod > longest else { return 0 }
        return Int(pacedPeriod / longest)
    }

    /// Whether a frame whose present was called at `presentStart` is late on a display refreshing
    /// within `refresh`: later after `lastFrame` than the rate the source paces at allows
    /// (`pacedPeriod`: the display's fastest refresh, or a cap, a requested rate below it), times
    /// the frames per present (`interval`). The display then shows it when it is presented, so the
    /// next frame starts at once rather than at a fixed grid's next deadline.
    ///
    /// `lastFrame` is the later of the last frame's timestamp and when the frame presented before
    /// this one is shown: **a queued frame covers a late present**. In a chain of three buffers the
    /// frame before is shown a vsync after its timestamp, so a present after that timestamp's next
    /// vsync is not late while the frame ahead of it is still to be shown (taken for a late frame,
    /// the frames restarted their phase at its return and the next came back onto the old grid
    /// less than a period later: more frames than the display shows).
    static func isLate(
        presentStart: Int64, lastFrame: Int64, pacedPeriod: Int64, interval: Int64, refresh: ClosedRange<FrameRate>
    ) -> Bool {
        let period = max(refresh.upperBound.periodNanoseconds, pacedPeriod) * interval
        return presentStart >= lastFrame + period
    }

    /// How soon after its present's call a frame must be shown for the display to have waited for
    /// it (rather than the frame for the display): 100 µs, the precision the source claims for a
    /// vsync (`_VsyncTracker.vsyncPrecision`). A frame that waited for a refresh is shown up to a
    /// fastest period later (milliseconds).
    static let shownAsPresentedTolerance: Int64 = 100_000

    /// Whether a frame whose present was called at `calledAt` and that was shown at `shownAt` (as
    /// presentation feedback reports it) was shown as it came: the display waited for it, so the
    /// time is the frame's own, and the display's refreshes take its phase (no vsync grid's).
    static func showedAsPresented(shownAt: Int64, calledAt: Int64) -> Bool {
        shownAt - calledAt <= shownAsPresentedTolerance
    }

    /// Whether a frame shown at `shownAt`, its present called at `calledAt`, was waited for by a
    /// display refreshing at most every `fastestPeriod`, the frame before it shown at
    /// `previousShownAt` (if known): shown as presented, and later than the display's fastest
    /// cadence allows after the one before (plus ``shownAsPresentedTolerance``). A display running
    /// at its fastest rate shows each frame at its own next refresh; a present called just before
    /// that refresh is shown as presented too, but the display did not wait for it: its refreshes
    /// keep their grid (found by review: presents 60 µs before each refresh of a 144 Hz VRR display
    /// restarted the grid every frame, and the source fell back to deadline pacing for good).
    static func displayWaited(
        forFrameShownAt shownAt: Int64, calledAt: Int64, previousShownAt: Int64?, fastestPeriod: Int64
    ) -> Bool {
        guard showedAsPresented(shownAt: shownAt, calledAt: calledAt) else { return false }
        guard let previousShownAt else { return true }
        return shownAt - previousShownAt > fastestPeriod + shownAsPresentedTolerance
    }
}
