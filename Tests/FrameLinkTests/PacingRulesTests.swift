import Testing

@testable import FrameLink

/// The small rules PresentSource is built from, each by a table: when a present blocked, when the
/// back-to-back frames end, whether a grid is faster than the display, how a variable-refresh
/// display shows a frame.
@Suite("Pacing rules: blocking presents, back-to-back frames, the rate verdict, variable refresh")
struct PacingRulesTests {
    static let period = FrameRate.hz60.periodNanoseconds

    @Test(
        "a present blocked when it took 0.5 ms (an eighth of a fast display's period) or returned on the vsync",
        arguments: [
            (duration: Int64(40_000), period: period, onVsync: false, blocked: false),
            (duration: 499_999, period: period, onVsync: false, blocked: false),
            (duration: 500_000, period: period, onVsync: false, blocked: true),
            (duration: 40_000, period: period, onVsync: true, blocked: true),
            (duration: 450_000, period: 3_000_000, onVsync: false, blocked: true),
            (duration: 370_000, period: 3_000_000, onVsync: false, blocked: false),
        ])
    func blockingPresent(duration: Int64, period: Int64, onVsync: Bool, blocked: Bool) {
        #expect(_BlockingPresent.blocked(duration: duration, period: period, returnedOnVsync: onVsync) == blocked)
    }

    @Test("back-to-back frames end with a block (conclusive), at the limit (inconclusive), or at 3 under a cap")
    func backToBackEnds() {
        var frames = _BackToBackFrames()
        #expect(
            frames.endsWith(
                present: 1, blocked: false, chainShowsNoBlock: false, capped: false, fastestPeriod: Self.period) == nil)
        #expect(
            frames.endsWith(
                present: 2, blocked: true, chainShowsNoBlock: false, capped: false, fastestPeriod: Self.period)
                == .conclusive)
        #expect(!frames.isRunning)
        #expect(
            frames.endsWith(
                present: 3, blocked: true, chainShowsNoBlock: false, capped: false, fastestPeriod: Self.period) == nil)

        var unanswered = _BackToBackFrames()
        let limit = _BackToBackFrames.limit
        #expect(
            unanswered.endsWith(
                present: limit, blocked: false, chainShowsNoBlock: false, capped: false, fastestPeriod: Self.period)
                == nil)
        #expect(
            unanswered.endsWith(
                present: limit + 1, blocked: false, chainShowsNoBlock: false, capped: false, fastestPeriod: Self.period)
                == .inconclusive)

        var capped = _BackToBackFrames()
        let cappedLimit = _BackToBackFrames.cappedLimit
        #expect(
            capped.endsWith(
                present: cappedLimit + 1, blocked: false, chainShowsNoBlock: false, capped: true,
                fastestPeriod: Self.period) == .inconclusive)

        var evidence = _BackToBackFrames()
        #expect(
            evidence.endsWith(
                present: 4, blocked: false, chainShowsNoBlock: true, capped: false, fastestPeriod: Self.period)
                == .conclusive)
    }

    @Test("a frame that costs the fastest period or more ends the run: it cannot fill a chain")
    func slowFrameEndsRun() {
        var frames = _BackToBackFrames()
        frames.noteFrameCost(Self.period)
        #expect(
            frames.endsWith(
                present: 2, blocked: false, chainShowsNoBlock: false, capped: false, fastestPeriod: Self.period)
                == .inconclusive)
        frames.start(afterPresent: 10)
        #expect(frames.isRunning)
        frames.noteFrameCost(Self.period / 2)
        #expect(
            frames.endsWith(
                present: 11, blocked: false, chainShowsNoBlock: false, capped: false, fastestPeriod: Self.period) == nil
        )
        #expect(
            frames.endsWith(
                present: 10 + _BackToBackFrames.limit + 1, blocked: false, chainShowsNoBlock: false, capped: false,
                fastestPeriod: Self.period) == .inconclusive)
    }

    @Test(
        "frames are light when the last 8 cost under three quarters of a period on average",
        arguments: [
            (cost: period * 3 / 4 - 1, frames: 8, light: true), (cost: period * 3 / 4 + 1, frames: 8, light: false),
            (cost: 0, frames: 7, light: false),
        ])
    func lightFrames(cost: Int64, frames count: Int, light: Bool) {
        var frames = _BackToBackFrames()
        for _ in 0..<count { frames.noteFrameCost(cost) }
        #expect(frames.framesAreLight(period: Self.period) == light)
        frames.forgetCosts()
        #expect(frames.costliestRecentFrame == 0)
    }

    @Test(
        "a display may run 1 Hz above its report, and a fit may be 0.5 % off; faster is not the display's vsync",
        arguments: [
            (reported: 60.0, fitted: 61.0, faster: false), (reported: 60.0, fitted: 61.4, faster: true),
            (reported: 59.0, fitted: 59.94, faster: false), (reported: 60.0, fitted: 62.5, faster: true),
            (reported: 144.0, fitted: 145.7, faster: false), (reported: 60.0, fitted: 30.0, faster: false),
        ])
    func rateVerdict(reported: Double, fitted: Double, faster: Bool) {
        var verdict = _VsyncRateVerdict()
        verdict.judge(
            period: 1e9 / fitted, fit: Self.fit(relocks: 0), reported: FrameRate(framesPerSecond: reported),
            returnsWerePaced: false)
        #expect(verdict.isFaster == faster)
    }

    /// A fit of a grid re-locked `relocks` times, with `taken` returns taken and `window` in its window.
    static func fit(relocks: Int, taken: Int = 100, window: Int = 100) -> _VsyncRateVerdict.Fit {
        _VsyncRateVerdict.Fit(relocks: relocks, returnsTaken: taken, windowReturns: window)
    }

    @Test("returns the source timed only cast doubt on a faster verdict; a display change waits for the next relock")
    func rateVerdictDoubtAndDisplayChange() {
        var verdict = _VsyncRateVerdict()
        verdict.judge(period: 16_000_000, fit: Self.fit(relocks: 0), reported: .hz60, returnsWerePaced: false)
        #expect(verdict.isFaster && !verdict.isDoubted)
        verdict.judge(period: Double(Self.period), fit: Self.fit(relocks: 0), reported: .hz60, returnsWerePaced: true)
        #expect(verdict.isFaster && verdict.isDoubted)
        verdict.clear()
        #expect(!verdict.isFaster && !verdict.isDoubted)
        verdict.displayChanged(at: Self.fit(relocks: 2))
        #expect(!verdict.isCurrentDisplays(Self.fit(relocks: 2)))
        verdict.judge(period: 16_000_000, fit: Self.fit(relocks: 2), reported: .hz60, returnsWerePaced: false)
        #expect(!verdict.isFaster)  // The old display's fit is not judged.
        #expect(verdict.isCurrentDisplays(Self.fit(relocks: 3)))
        verdict.judge(period: 16_000_000, fit: Self.fit(relocks: 3), reported: .hz60, returnsWerePaced: false)
        #expect(verdict.isFaster)
    }

    @Test(
        "a first fit's period is no longer than 1.5 times the time per present (a FIFO chain shows each on a vsync of its own)",
        arguments: [
            // (candidate, time per present, nominal, expected): every present blocked: the candidate.
            (
                candidate: Int64(33_333_333), perPresent: Double?.none, nominal: Int64(16_666_667),
                expected: Int64(33_333_333)
            ),
            // Returns 21 periods apart, 21 presents between: the nominal period.
            (candidate: 350_000_000, perPresent: 16_900_000, nominal: 16_666_667, expected: 16_666_667),
            // Within the bound (drops lengthen the time per present): the candidate stands.
            (candidate: 20_000_000, perPresent: 16_900_000, nominal: 16_666_667, expected: 20_000_000),
            // The nominal period is not allowed either: the time per present.
            (candidate: 100_000_000, perPresent: 6_000_000, nominal: 16_666_667, expected: 6_000_000),
        ])
    func firstFitBoundedByPresents(candidate: Int64, perPresent: Double?, nominal: Int64, expected: Int64) {
        #expect(
            _VsyncGrid.vsyncInterval(candidate: candidate, timePerPresent: perPresent, nominalPeriod: nominal)
                == expected)
    }

    @Test(
        "a first fit on a display's own report: within a quarter of its period, or a whole multiple of it",
        arguments: [
            (rate: 59.94, reported: 59.0, fits: true), (rate: 50.0, reported: 60.0, fits: true),
            (rate: 75.0, reported: 60.0, fits: true), (rate: 30.0, reported: 60.0, fits: true),
            (rate: 20.0, reported: 60.0, fits: true), (rate: 18.18, reported: 60.0, fits: false),
            (rate: 144.0, reported: 60.0, fits: false), (rate: 7.0, reported: 60.0, fits: false),
        ])
    func firstFitFitsReport(rate: Double, reported: Double, fits: Bool) {
        #expect(
            _VsyncGrid.fitsReport(period: Int64(1e9 / rate), nominalPeriod: Int64(1e9 / reported)) == fits)
    }

    @Test(
        "a first fit on a variable-refresh display: within a quarter of its fastest period, nothing slower",
        arguments: [
            (rate: 151.0, fastest: 151.0, fits: true), (rate: 140.0, fastest: 151.0, fits: true),
            (rate: 125.0, fastest: 151.0, fits: true), (rate: 75.5, fastest: 151.0, fits: false),
            (rate: 29.42, fastest: 151.0, fits: false), (rate: 240.0, fastest: 151.0, fits: false),
        ])
    func firstFitOnVariableRefresh(rate: Double, fastest: Double, fits: Bool) {
        #expect(
            _VsyncGrid.fitsVariableRefresh(period: Int64(1e9 / rate), fastestPeriod: Int64(1e9 / fastest)) == fits)
    }

    @Test("a variable-refresh display's grid: returns now and then far apart fit no grid")
    func variableRefreshSparseReturnsFitNoGrid() {
        // 42-151 Hz; 8 returns 5.1 fastest periods apart (34 ms), with delays: a 29.4 Hz grid before.
        let fastest = FrameRate(numerator: 151).periodNanoseconds
        var grid = _VsyncGrid(nominalPeriod: fastest)
        grid.variableRefreshFastestPeriod = fastest
        for index in 0..<Int64(12) {
            grid.add(returnTime: 2_000_000 + index * 33_996_581 + (index % 3) * 300_000)
        }
        #expect(!grid.hasGrid, "fitted at \(grid.period) ns")
        // Without the display's range the same returns make a grid (the rule is what refuses them).
        var fixed = _VsyncGrid(nominalPeriod: fastest)
        for index in 0..<Int64(12) {
            fixed.add(returnTime: 2_000_000 + index * 33_996_581 + (index % 3) * 300_000)
        }
        #expect(fixed.hasGrid)
    }

    @Test("returns some presents apart are fitted on the display's vsync, not at their own interval")
    func sparseReturnsFitTheDisplay() {
        // 60 Hz; one present in 21 blocks, the others were shown on the vsyncs between.
        var grid = _VsyncGrid(nominalPeriod: Self.period)
        for index in 0..<Int64(12) {
            grid.add(returnTime: 2_000_000 + index * 21 * Self.period + 50_000, presents: index == 0 ? 1 : 21)
        }
        #expect(grid.hasGrid)
        #expect(abs(grid.period - Double(Self.period)) < 1_000, "\(grid.period)")
        // Without the presents between, the same returns are a 2.86 Hz display (as before).
        var blind = _VsyncGrid(nominalPeriod: Self.period)
        for index in 0..<Int64(12) { blind.add(returnTime: 2_000_000 + index * 21 * Self.period + 50_000) }
        #expect(abs(blind.period - Double(21 * Self.period)) < 1_000, "\(blind.period)")
    }

    @Test(
        "after a display change, a fit is the new display's once it re-locked or its window holds only later returns",
        arguments: [
            // (returns taken since the change, returns in the window, relocks since, current)
            (since: 0, window: 100, relocks: 0, current: false),
            (since: 99, window: 100, relocks: 0, current: false),
            (since: 100, window: 100, relocks: 0, current: true),
            (since: 8, window: 8, relocks: 0, current: true),  // a first fit after a change before any
            (since: 3, window: 100, relocks: 1, current: true),
        ])
    func rateVerdictFitAfterChange(since: Int, window: Int, relocks: Int, current: Bool) {
        var verdict = _VsyncRateVerdict()
        verdict.displayChanged(at: Self.fit(relocks: 4, taken: 500, window: 512))
        let fit = Self.fit(relocks: 4 + relocks, taken: 500 + since, window: window)
        #expect(verdict.isCurrentDisplays(fit) == current)
    }

    @Test(
        "a VRR display shows a frame when presented, not before its fastest period, and refreshes on its own past its slowest",
        arguments: [
            // 48–144 Hz: fastest period 6.94 ms, slowest 20.83 ms; the last frame shown at 0.
            (presented: Int64(10_000_000), time: Int64(10_000_000), drops: 0),
            (presented: 3_000_000, time: 6_944_444, drops: 0),
            (presented: 25_000_000, time: 27_777_777, drops: 1),
            (presented: 45_000_000, time: 48_611_110, drops: 2),
            (presented: -1, time: 6_944_444, drops: 0),
        ])
    func variableRefresh(presented: Int64, time: Int64, drops: Int) {
        let refresh = FrameRate(framesPerSecond: 48)...FrameRate(framesPerSecond: 144)
        let shown = _VariableRefreshModel.showing(presentedAt: presented, lastShown: 0, refresh: refresh)
        #expect(shown.time == time && shown.drops == drops)
    }

    @Test(
        "a VRR display's own refreshes between frames on time: none up to its slowest period (a rate at its minimum included), then one per slowest period",
        arguments: [
            // 48–144 Hz: slowest period 20.83 ms.
            (paced: Int64(16_666_667), own: 0), (20_833_333, 0), (20_833_334, 1), (33_333_333, 1),
            (41_666_665, 1), (41_666_666, 2), (0, 0),
        ])
    func ownRefreshesOnTime(paced: Int64, own: Int) {
        let refresh = FrameRate(framesPerSecond: 48)...FrameRate(framesPerSecond: 144)
        #expect(_VariableRefreshModel.ownRefreshesOnTime(pacedPeriod: paced, refresh: refresh) == own)
    }

    @Test("a frame is late on VRR past the paced period (at least the display's fastest), times the interval")
    func lateOnVariableRefresh() {
        let refresh = FrameRate(framesPerSecond: 48)...FrameRate(framesPerSecond: 144)
        let fastest = refresh.upperBound.periodNanoseconds
        #expect(
            !_VariableRefreshModel.isLate(
                presentStart: fastest - 1, lastFrame: 0, pacedPeriod: 0, interval: 1, refresh: refresh))
        #expect(
            _VariableRefreshModel.isLate(
                presentStart: fastest, lastFrame: 0, pacedPeriod: 0, interval: 1, refresh: refresh))
        #expect(
            !_VariableRefreshModel.isLate(
                presentStart: Self.period, lastFrame: 0, pacedPeriod: Self.period, interval: 2, refresh: refresh))
        // A frame queued ahead, shown a vsync after the last timestamp: the present is not late
        // until a paced period after that.
        #expect(
            !_VariableRefreshModel.isLate(
                presentStart: fastest * 3 / 2, lastFrame: fastest, pacedPeriod: 0, interval: 1, refresh: refresh))
    }

    @Test(
        "the first fit: intervals of 3, 4, 5 and 7 nominal periods share one period; all even, or not whole, the median decides",
        arguments: [
            (multiples: [3.0, 4, 4, 4, 5, 5, 7], common: true),
            (multiples: [2.0, 2, 4, 2, 6], common: false),
            (multiples: [1.0, 1, 1, 1], common: false),
            (multiples: [3.0, 4, 9, 4], common: false),
            (multiples: [1.04, 2.08, 3.12], common: false),
            (multiples: [1.0, 2, 3.01, 2], common: true),
        ])
    func commonVsyncInterval(multiples: [Double], common: Bool) {
        let nominal: Int64 = 4_640_000
        let intervals = multiples.map { Int64($0 * Double(nominal)) }
        let found = _VsyncGrid.commonVsyncInterval(of: intervals, nominalPeriod: nominal)
        #expect((found != nil) == common)
        if let found { #expect(abs(found - nominal) < nominal / 100) }
    }

    @Test("frames hovering at a period on two buffers, only some presents blocking: the grid is the display's")
    func hoveringFirstFit() {
        // Returns of the presents that blocked, 3 to 7 periods of a 215.51 Hz display apart.
        let period = FrameRate(framesPerSecond: 215.51).periodNanoseconds
        var grid = _VsyncGrid(nominalPeriod: period)
        var time: Int64 = 1_000_000
        for steps in [3, 4, 4, 5, 4, 7, 5, 3, 4, 6, 4, 5] as [Int64] {
            time += steps * period
            grid.add(returnTime: time)
        }
        #expect(grid.hasGrid)
        #expect(abs(grid.period - Double(period)) < 1_000)
    }
}
