/// The frames presented back to back to find out whether present blocks on vsync: at start-up
/// while pacing is automatic, and again once frames that were too slow to fill a swap chain have
/// become light.
///
/// A present that returns at once into a FIFO swap chain with room says nothing about vsync, and
/// frames paced by deadline never fill a chain, so the first frames go back to back until a present
/// blocks (a vsync), or until presents that returned at once must have found the chain full
/// (``_SwapChainFill``: no vsync), or until ``limit`` presents, or until a frame costs the display's
/// fastest period or more (frames that slow cannot fill a chain, and are no faster than the display).
struct _BackToBackFrames {
    /// Presents back to back, at most: 30, half a second at 60 Hz. The evidence comes within 4
    /// frames for light frames, 6 at half a period, 22 at nine tenths; frames slower than that are
    /// within a tenth of the display's rate, and are paced by deadline at it until they are light.
    static let limit: Int64 = 30

    /// The limit under a cap (`PresentSource.capsAtDisplayRefreshRate`): the run ends with the
    /// 4th present, the fewest light frames presented back to back that show a present ignores
    /// vsync (3 buffers assumed, and two presents into a full chain). Frames are held to the cap
    /// after it. (Like ``limit``, the presents after the first.)
    static let cappedLimit: Int64 = 3

    /// The frames whose mean cost must be light (``lightCostFraction``) before frames that were too
    /// slow to fill a swap chain go back to back again: 8.
    static let lightFrames = 8

    /// A frame is light enough to fill a chain when it costs under this fraction of a period: three
    /// quarters (each such frame adds a quarter of a queued frame to the chain, so a new run ends
    /// within a dozen frames).
    static let lightCostFraction = (numerator: Int64(3), denominator: Int64(4))

    /// Whether frames go back to back now.
    private(set) var isRunning = true
    /// The present after which the run ends, whether any blocked or not.
    private var endsAfterPresent = Self.limit
    /// The cost of the last few frames, whatever the automatic frame rate does.
    private(set) var recentCosts = _Ring(capacity: Self.lightFrames)

    /// Notes what a frame's work cost.
    mutating func noteFrameCost(_ cost: Int64) {
        recentCosts.append(cost)
    }

    /// Forgets the costs (after an idle wait: the next frames start afresh).
    mutating func forgetCosts() {
        recentCosts.removeAll()
    }

    /// Whether the last ``lightFrames`` frames were light, on a display of `period` nanoseconds.
    func framesAreLight(period: Int64) -> Bool {
        recentCosts.count == recentCosts.capacity
            && recentCosts.mean(last: recentCosts.count) * Self.lightCostFraction.denominator
                < period * Self.lightCostFraction.numerator
    }

    /// The costliest of the recent frames.
    var costliestRecentFrame: Int64 {
        var costliest: Int64 = 0
        for age in 0..<recentCosts.count { costliest = max(costliest, recentCosts[age: age]) }
        return costliest
    }

    /// How a run ended.
    enum RunEnd: Equatable {
        /// A present blocked, or the swap chain's evidence says present ignores vsync.
        case conclusive
        /// Neither, before the limit: the frames were too slow to fill a chain.
        case inconclusive
    }

    /// Whether the run ends with present `presentCount`, which `blocked` or not, after the swap
    /// chain's evidence (`chainShowsNoBlock`), under a cap (`capped`), on a display whose fastest
    /// period is `fastestPeriod`. Returns `nil` while the run goes on (or none runs), else how it
    /// ended.
    mutating func endsWith(
        present presentCount: Int64, blocked: Bool, chainShowsNoBlock: Bool, capped: Bool, fastestPeriod: Int64
    ) -> RunEnd? {
        guard isRunning else { return nil }
        let end = capped ? min(endsAfterPresent, Self.cappedLimit) : endsAfterPresent
        let frameTooSlowToFill = recentCosts.count > 0 && recentCosts[age: 0] >= fastestPeriod
        guard blocked || chainShowsNoBlock || presentCount > end || frameTooSlowToFill else { return nil }
        isRunning = false
        return blocked || chainShowsNoBlock ? .conclusive : .inconclusive
    }

    /// Ends the run at once (a hidden window: its presents say nothing).
    mutating func stop() {
        isRunning = false
    }

    /// Starts a run of up to ``limit`` presents after present `presentCount`.
    mutating func start(afterPresent presentCount: Int64) {
        isRunning = true
        endsAfterPresent = presentCount + Self.limit
    }
}
