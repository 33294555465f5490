/// The vsync grid (period and phase) estimated from the times blocking presents returned.
///
/// A present that blocks returns when the display flips: at a vsync, plus a delay that is never
/// negative (the compositor, the scheduler waking the thread). So every return lies on or above the
/// true grid line `t = phase + k × period`, and the best estimate of that line is the highest line
/// that stays below every return: the edge of the returns' lower convex hull that spans the middle
/// of the window. Unlike a least-squares fit, which converges as 1/√n and is pulled up by the mean
/// delay, this lower-envelope fit converges as 1/n and is not biased by the delay's size. It is
/// robust to one-sided delays only; returns that did not wait for a vsync (a present that did not
/// block) are never offered to it.
///
/// The model of the present delay: independent, never negative, and often close to its least
/// value (spread evenly, exponential). Then the hull's two returns sit within about
/// ``lineErrorPerMeanDelay`` × mean delay / n of the grid. A delay that seldom comes near its
/// floor (log-normal: a scheduler's wake-up is never instant) breaks the last part: the two lowest
/// returns are strays of a thin tail and tilt the line. So once the window holds
/// `_LowQuantileLine.leastReturns`, the hull's slope is checked against the low-quantile
/// regression line, which rests on every return near the bottom; where the two disagree by more
/// than the hull's stated error, the quantile line's slope is used (``SlopeFit``), still placed
/// below every return.
///
/// - **Stable** (the vsync is real): each quarter of the window has a return within
///   ``stabilityTolerance`` of the line. An emulated vsync (a timer in the X server, as under Xvfb)
///   throttles each present from the last one, so its phase wanders and some quarter of the window
///   lies far above any line below the others.
/// - **Phase-locked**: each quarter has a return within ``lockTolerance``, and the window is long
///   enough for its delays that the line is within ``lockPrecision`` of the true grid (see there);
///   a return the grid cannot explain ends the lock. Unlocked, the published line must be within
///   ``lockPrecision`` of the fit to take it (``mayTakeLock(wasLocked:)``).
/// - **Re-lock**: three returns in a row that the grid cannot explain (earlier than a vsync, or later
///   than any delay seen) mean the display changed (another rate, another display, a hide and show):
///   the window starts again from them.
struct _VsyncGrid {
    /// The most returns the window holds: 512 returns (8.5 s at 60 Hz, 3.1 s at 165 Hz). The error
    /// of the fitted period falls as 1/window, so a long window is what makes the period exact.
    static let capacity = 512
    /// Returns needed before the grid is used: 8 (a median of seven intervals gives the period).
    static let minimumSamples = 8
    /// Returns needed before stability is judged: 96, so that each quarter has 24. A real vsync's
    /// quarter then has a return within 0.5 ms of the line unless 24 delays in a row are all that
    /// late (one chance in 16,000 with delays spread evenly up to 1.5 ms); an emulated one's phase
    /// wanders by several milliseconds between quarters.
    static let stabilityWindow = 96
    /// Each quarter's lowest return within this of the line: the vsync is phase-stable (0.5 ms; an
    /// emulated vsync wanders by milliseconds, a real one's low returns sit on the line).
    static let stabilityTolerance: Int64 = 500_000
    /// Returns after which a clean grid may be judged stable before ``stabilityWindow``: 24, so
    /// that each quarter has 6 (0.4 s at 60 Hz).
    static let earlyStabilityWindow = 24
    /// Each quarter's lowest return within this of the line, for that early judgement: 0.1 ms, a
    /// fifth of ``stabilityTolerance``. A real vsync with delays of a few hundred microseconds
    /// meets it within a few dozen returns (the lowest of 8 exponential delays of mean 0.3 ms is
    /// under 0.1 ms with probability 0.93); an emulated vsync, whose phase wanders as a random walk
    /// of its timer's jitter, strays further than that within 32 ticks unless its jitter is tens of
    /// microseconds (and such a timer passes the full window's 0.5 ms as well).
    static let earlyStabilityTolerance: Int64 = 100_000
    /// Each quarter's lowest return within this of the line: phase-locked (50 µs).
    static let lockTolerance: Int64 = 50_000
    /// How far the line may still be from the true grid at the window's ends when it is declared
    /// phase-locked: 20 µs, less than half of what a locked timestamp may be off (``lockTolerance``). The fit rests on the lowest
    /// returns of the window; with delays spread over a scale J (about twice their mean), the
    /// lowest of n/4 returns sits about 4J/n above the grid, and the line through two such points
    /// half a window apart, carried to the window's end, is off by up to twice that: 8J/n, or
    /// 16 × mean delay / n (``lineErrorPerMeanDelay``). So the lock waits until 16 × mean delay / n
    /// ≤ 20 µs: 96 returns with
    /// delays up to 0.3 ms, about 320 with delays up to 1 ms, 480 up to 1.5 ms (the quarter lows
    /// alone declared a lock at 96 returns and let timestamps stray by up to 84 µs after it).
    static let lockPrecision: Int64 = 20_000
    /// How far the line may be off at the window's ends, in mean delays times the window's length
    /// in returns: 16 (see ``lockPrecision``).
    static let lineErrorPerMeanDelay: Int64 = 16
    /// The allowance for rounding when a time is numbered on the line: 1 µs (a time a nanosecond
    /// before a vsync, after rounding, is on it).
    static let numberingAllowance = 1_000.0
    /// A return still fits when it is late by up to this many times the largest delay seen.
    static let allowedDelayFactor: Int64 = 2
    /// The parts of the window whose lowest returns pin the line: quarters.
    static let windowParts = 4
    /// A return this far before the predicted vsync cannot be on the grid (0.25 ms: far more than
    /// the line's own error once stable).
    static let earlyTolerance: Int64 = 250_000
    /// Unexplained returns in a row that restart the window.
    static let relockRun = 3
    /// The latest a return may come after the vsync it is numbered by, as a fraction of the period:
    /// one half. A return later than that could as well be an early return for the next vsync, so
    /// its number is a guess; once the delays allowed spanned a whole period every return fitted
    /// some line, and a wrong number drew the lower hull to ever shorter periods.
    static let latestNumberableDelayFraction = 0.5
    /// The earliest before the line a return may come, as a fraction of the period: a quarter. With
    /// ``latestNumberableDelayFraction`` the two allowances span three quarters of a period, never a
    /// whole one (a quarter of the window's returns all late raised the early allowance to half a
    /// period, and a return half a period late was numbered for the next vsync).
    static let earliestNumberableFraction = 0.25

    /// Times of the accepted returns (the source's nanoseconds), oldest first.
    private(set) var times: [Int64] = []
    /// Their vsync numbers, counted from the window's first return.
    private(set) var numbers: [Int64] = []
    /// While the window has no fit yet: for each of its returns, the presents since the return
    /// before (1 when every present blocked), read by the first fit.
    private var presentSpans: [Int] = []
    /// Returns that did not fit, kept for a re-lock.
    private var strays: [Int64] = []
    /// The display's nominal period, used only until the window has its own (the source updates
    /// it when the host reports another display); kept inside ``plausiblePeriods``, since the grid
    /// divides by it.
    var nominalPeriod: Int64 {
        didSet { nominalPeriod = Self.plausible(nominalPeriod) }
    }
    /// The most vsyncs the source's own pacing explains between two returns: its present interval
    /// (every k-th vsync), or more while frames cost more than a period. A median interval is
    /// taken for k vsyncs only up to this (see ``vsyncInterval(fromMedian:nominalPeriod:largestMultiple:)``).
    var explainedVsyncMultiple: Int64 = 1
    /// Whether the nominal period is a fixed display's own report (not a cap, nor the rate assumed
    /// for a display that reports none, nor a variable display's fastest): then a first fit must
    /// be one that report allows (``fitsReport(period:nominalPeriod:)``).
    var nominalIsDisplaysReport = false
    /// How far the display's own report may be from its true period (``reportedPeriodError(of:)``);
    /// `nil` when the nominal period is no such report. Set at every present, read by every fit.
    var reportedPeriodUncertainty: Double?
    /// A variable-refresh display's fastest refresh period, `nil` for a fixed display: such a
    /// display refreshes when a frame comes, so a present blocks on its refreshes only while frames
    /// outrun its fastest cadence, and a first fit must be that cadence
    /// (``fitsVariableRefresh(period:fastestPeriod:)``).
    var variableRefreshFastestPeriod: Int64?
    /// The largest delay seen above the line in the window.
    private var largestDelay: Int64 = 0
    /// The highest of the window quarters' lowest delays: about how far above the true grid the
    /// line may be.
    private(set) var lineUncertainty: Int64 = 0
    /// The mean delay of the window's returns above the line.
    private(set) var meanDelay: Int64 = 0
    /// Returns needed before the grid may be judged stable again after relocks marked it as keeping
    /// no phase: a full window, so that a wandering phase cannot pass for a stable one by chance.
    private var requiredForStability = Self.stabilityWindow
    /// The fitted line: the time of vsync number 0 of the window, and the period (ns, fractional).
    private(set) var origin: Double = 0
    private(set) var period: Double
    /// Whether the returns fit a grid at all (at least ``minimumSamples`` of them).
    private(set) var hasGrid = false
    /// Whether the grid is phase-stable (see the type's description); nil until judged.
    private(set) var isStable: Bool?
    /// Whether a grid was judged stable before the last relock: the display only changed (another
    /// rate, a hide and show), so the new fit may be used before it is judged.
    private var wasStable = false

    /// Whether frames may follow the grid: judged stable, or refitted after a display that was
    /// stable changed (used at once, so a re-lock takes about a dozen frames, not a judged window).
    var isUsable: Bool {
        hasGrid && (isStable == true || (isStable == nil && wasStable))
    }
    /// Whether each quarter of the window pins the line within ``lockTolerance``.
    private(set) var isPhaseLocked = false
    /// How many times the window started again after returns stopped fitting.
    private(set) var relocks = 0
    /// How many times the window started again, for any reason (a relock, a display change, a new
    /// phase): each time its vsyncs are numbered afresh.
    private(set) var numberings = 0
    /// The returns taken into the window since the grid was made (kept across re-locks).
    private(set) var returnsTaken = 0
    /// Which fit this is: re-locks, returns taken, and the returns in the window now.
    var currentFit: _VsyncRateVerdict.Fit {
        _VsyncRateVerdict.Fit(relocks: relocks, returnsTaken: returnsTaken, windowReturns: times.count)
    }
    /// How many fits were thrown away for a period outside ``plausiblePeriods``.
    private(set) var implausibleFits = 0
    /// The fitted rate, when the grid has one: nil without a grid. Always inside
    /// ``plausiblePeriods`` (a fit outside is never kept).
    var measuredRate: FrameRate? {
        guard hasGrid else { return nil }
        return try? FrameRate(validating: 1e9 / period)
    }
    /// Relocks since the grid was last judged stable: a vsync that keeps breaking its own grid
    /// before a window fills (an emulated one wandering fast) is not phase-stable either.
    private var relocksWhileUnjudged = 0
    /// Relocks in a row, without a stable judgement, that mark the returns as keeping no phase.
    static let unstableRelocks = 3

    // Scratch storage for the hull, allocated once.
    private var hull: [Int] = []

    /// Where the current line's slope comes from (``SlopeFit``).
    private(set) var slopeFit = SlopeFit.lowerHull
    /// The low-quantile line the hull is checked against.
    private var lowQuantileLine = _LowQuantileLine(capacity: capacity)
    /// The least distance, at the window's ends, that the quantile line is searched for from the
    /// hull's: 0.1 ms (or the largest delay, if larger: no line below the returns is tilted by
    /// more than that from one that rests on them).
    static let leastQuantileReach: Int64 = 100_000

    init(nominalPeriod: Int64) {
        self.nominalPeriod = Self.plausible(nominalPeriod)
        period = Double(self.nominalPeriod)
        times.reserveCapacity(Self.capacity)
        numbers.reserveCapacity(Self.capacity)
        presentSpans.reserveCapacity(Self.capacity)
        strays.reserveCapacity(Self.relockRun)
        hull.reserveCapacity(Self.capacity)
    }

    /// Forgets every return (a hidden window, a mode change): the next returns lock afresh.
    mutating func reset() {
        numberings += 1
        presentSpans.removeAll(keepingCapacity: true)
        times.removeAll(keepingCapacity: true)
        numbers.removeAll(keepingCapacity: true)
        strays.removeAll(keepingCapacity: true)
        hasGrid = false
        isStable = nil
        isPhaseLocked = false
        published = nil
        largestDelay = 0
        lineUncertainty = 0
        meanDelay = 0
        keptPeriod = nil
        slopeFit = .lowerHull
        period = Double(self.nominalPeriod)
    }

    /// Forgets the returns, but not that the grid was stable: its line may have moved (frames
    /// measured again after a gap with no returns, shown times that start a window of their own).
    /// The next returns are used as soon as they fit (eight), and the lock is judged afresh.
    mutating func restartPhase() {
        wasStable = wasStable || isStable == true
        reset()
    }

    /// Forgets the returns, but not that the grid was stable, nor its period: a variable-refresh
    /// display refreshed for a late frame, so its refreshes keep their rate but take another phase
    /// from now on. **A phase restart keeps the period**: the next returns are numbered by it and
    /// the line is fitted to them with that slope (the lowest line below them), from the first
    /// return on, until the window's own slope is known better (``keptPeriod``); the lock is judged
    /// afresh. (Refitted from scratch, the next seven frames were timed at their returns, late by
    /// the delay, and the first fit of eight put a 155.75 Hz display at 158.7 Hz: 60 frames
    /// spanned less than the display's fastest 60 periods, in 6 of the 6,000 sweep scenarios of
    /// seeds 1–6.) Kept only from a fit whose window was judged stable or held a full stability
    /// window, else the period kept before is.
    mutating func restartPhaseKeepingPeriod() {
        let kept =
            hasGrid && (isStable == true || times.count >= Self.stabilityWindow)
            ? KeptPeriod(
                period: period, uncertainty: periodUncertainty, meanDelay: meanDelay, largestDelay: largestDelay)
            : keptPeriod
        wasStable = wasStable || isStable == true
        reset()
        keptPeriod = kept
        if let kept { period = kept.period }
    }

    /// What a phase restart keeps of the fit before it (see ``restartPhaseKeepingPeriod()``).
    struct KeptPeriod {
        /// The fitted period.
        var period: Double
        /// How far it may be from the true one (the fit's ``periodUncertainty`` then).
        var uncertainty: Double
        /// The mean delay of the returns above that fit's line: the same display's and
        /// compositor's, so the least a new window's few returns may be said to be late by (one
        /// return is on its own line, late by a delay no window of one can see).
        var meanDelay: Int64
        /// The largest delay above that fit's line: how late a return may come for a new
        /// window's line and still fit it.
        var largestDelay: Int64
    }

    /// The period a phase restart kept: the line's slope while the window's own is less certain.
    private var keptPeriod: KeptPeriod?

    /// The line frames are timed by: the first fit, then following the fit by an eighth of the gap
    /// per fit until it is phase-locked (``unlockedConvergence``), and from then on by at most
    /// ``slew`` per fit (jumping only when it is ``jump`` away), so that a refit never makes one
    /// frame's `deltaTime` differ from a whole number of periods by more than that. Anchored at a
    /// vsync number. (A fit further from the published line than a lock allows,
    /// ``lockTolerance``, has moved on from it: the lock is dropped and the line follows the fit
    /// by an eighth again. Slewed, a fit that drifted 65 µs while locked left the line behind it
    /// for 130 frames, and the lag, part of the stated error, kept frames from claiming the vsync
    /// that long: pacing sweep seed 1 #977.)
    private(set) var published: (number: Int64, time: Double, period: Double)?
    /// The most the published line moves per fit: 0.5 µs.
    static let slew = 500.0
    /// A published line this far from the fit is moved at once: 0.25 ms.
    static let jump = 250_000.0
    /// How an unlocked line follows the fit: by an eighth of the gap per fit, so a correction of
    /// 100 µs (the fit sharpening as returns come in) spreads over a dozen frames and moves no
    /// frame's deltaTime by more than 13 µs (it jumped by the whole gap before).
    static let unlockedConvergence = 8.0

    /// The number of the last vsync at or before `time` (with a 1 µs allowance for rounding), on
    /// the published line.
    func number(atOrBefore time: Int64) -> Int64 {
        guard let published else { return fittedNumber(atOrBefore: time) }
        return published.number
            + Int64(((Double(time) - published.time + Self.numberingAllowance) / published.period).rounded(.down))
    }

    /// The time of vsync `number` on the published line, rounded to the nanosecond.
    func time(ofNumber number: Int64) -> Int64 {
        guard let published else { return fittedTime(ofNumber: number) }
        return Int64((published.time + Double(number - published.number) * published.period).rounded())
    }

    func fittedNumber(atOrBefore time: Int64) -> Int64 {
        Int64(((Double(time) - origin + Self.numberingAllowance) / period).rounded(.down))
    }

    func fittedTime(ofNumber number: Int64) -> Int64 {
        Int64((origin + Double(number) * period).rounded())
    }

    /// Moves the published line toward the fit, at the newest return's vsync.
    private mutating func publish() {
        guard let newest = numbers.last else { return }
        let fitted = origin + Double(newest) * period
        guard let current = published else {
            published = (newest, fitted, period)
            return
        }
        let now = current.time + Double(newest - current.number) * current.period
        let gap = fitted - now
        // A line with the kept period rests on the window's lowest return (``restartPhaseKeepingPeriod()``):
        // the fit moves only down, each time to a return, and following it by an eighth left
        // frames timed later than their own presents returned; it is published as it is, and
        // deltaTime moves with it by no more than a return's delay would.
        if slopeFit == .keptPeriod {
            published = (newest, fitted, period)
            return
        }
        // Locked, the line moves at most `slew` per fit; until then, by an eighth of the gap (the
        // fit sharpens as returns come in, and a frame's deltaTime must not jump with it). A gap
        // wider than a lock allows unlocks.
        if abs(gap) > Double(Self.lockTolerance) { isPhaseLocked = false }
        let most = isPhaseLocked ? Self.slew : max(Self.slew, abs(gap) / Self.unlockedConvergence)
        let step = abs(gap) > Self.jump ? gap : min(max(gap, -most), most)
        published = (newest, now + step, period)
    }

    /// Offers the time a blocking present returned, `presents` presents after the return offered
    /// before (1 when every present blocks; more when presents between did not block). Returns
    /// whether it fits the grid (false while the window is still filling, or for a return the grid
    /// cannot explain).
    @discardableResult
    mutating func add(returnTime time: Int64, presents: Int = 1) -> Bool {
        guard hasGrid else {
            append(time, number: nil)
            presentSpans.append(max(1, presents))
            if let keptPeriod {
                // Numbered by the kept period from the first return on (see ``restartPhaseKeepingPeriod()``).
                presentSpans.removeAll(keepingCapacity: true)
                period = keptPeriod.period
                origin = Double(time)
                hasGrid = true
                fit()
            } else if times.count >= Self.minimumSamples {
                fitFromScratch()
            }
            return hasGrid
        }
        // The line may sit above the true grid by up to the highest of the quarters' lows: a
        // return that much early still fits.
        let early = earlyAllowance
        let number = fittedNumber(atOrBefore: time + early)
        let delay = time - fittedTime(ofNumber: number)
        let allowed = allowedDelay(early: early)
        if delay < -early || delay > allowed || number <= (numbers.last ?? .min) {
            strays.append(time)
            // A return the grid cannot explain: whatever the fit says, the frame is not on it.
            isPhaseLocked = false
            if strays.count >= Self.relockRun { relock() }
            return false
        }
        strays.removeAll(keepingCapacity: true)
        append(time, number: number)
        fit()
        return true
    }

    /// How early before the line a return still fits: the line may sit above the true grid by up to
    /// the highest of the quarters' lows, and by ``earlyTolerance`` in any case, but never more than
    /// ``earliestNumberableFraction`` of a period, so that the early and late allowances together
    /// stay under one period and each return has one vsync number.
    private var earlyAllowance: Int64 {
        // (A line with a kept period rests on the few returns since the restart, each late by a
        // delay: the next may be earlier by any delay, up to the numbering's limit. Held to the
        // usual allowance, a report on the refresh 1 ms under a line resting on a return was taken
        // for another display's, and the window started again from scratch.)
        if slopeFit == .keptPeriod { return Int64(period * Self.earliestNumberableFraction) }
        return min(max(Self.earlyTolerance, lineUncertainty), Int64(period * Self.earliestNumberableFraction))
    }

    /// The latest after its vsync a return still fits: twice the largest delay seen (at least
    /// ``stabilityTolerance``) plus the early allowance, but never more than
    /// ``latestNumberableDelayFraction`` of a period.
    func allowedDelay(early: Int64) -> Int64 {
        min(
            max(largestDelay * Self.allowedDelayFactor, Self.stabilityTolerance) + early,
            Int64(period * Self.latestNumberableDelayFraction))
    }

    // MARK: Fitting

    private mutating func append(_ time: Int64, number: Int64?) {
        returnsTaken += 1
        if times.count == Self.capacity {
            times.removeFirst()
            numbers.removeFirst()
            if !presentSpans.isEmpty { presentSpans.removeFirst() }
        }
        times.append(time)
        numbers.append(number ?? 0)
    }

    /// Numbers the first returns from their own median interval (the nominal rate may be wrong: a
    /// 59.94 Hz display reported as 59 Hz, an override), then fits.
    private mutating func fitFromScratch() {
        var intervals: [Int64] = []
        intervals.reserveCapacity(times.count)
        for index in 1..<times.count { intervals.append(times[index] - times[index - 1]) }
        let commonPeriod = Self.commonVsyncInterval(of: intervals, nominalPeriod: nominalPeriod)
        intervals.sort()
        guard intervals[intervals.count / 2] > 0 else { return }
        let candidate =
            commonPeriod
            ?? Self.vsyncInterval(
                fromMedian: intervals[intervals.count / 2], nominalPeriod: nominalPeriod,
                largestMultiple: min(explainedVsyncMultiple, Self.largestVsyncMultiple))
        let median = Self.vsyncInterval(
            candidate: candidate, timePerPresent: medianTimePerPresent(), nominalPeriod: nominalPeriod)
        guard Self.isPlausible(period: Double(median)),
            !nominalIsDisplaysReport || Self.fitsReport(period: median, nominalPeriod: nominalPeriod),
            variableRefreshFastestPeriod.map({ Self.fitsVariableRefresh(period: median, fastestPeriod: $0) }) ?? true
        else {
            // Returns closer (or further) apart than any display refreshes, or than the display's
            // own report allows: not a vsync's. The window keeps filling from its newest half. (Not
            // counted as an implausible fit: returns of presents that did not wait for a vsync are
            // routine, not a wrong measurement.)
            keepNewestHalf()
            return
        }
        numbers[0] = 0
        for index in 1..<times.count {
            let steps = max(1, Int64((Double(times[index] - times[index - 1]) / Double(median)).rounded()))
            numbers[index] = numbers[index - 1] + steps
        }
        period = Double(median)
        origin = Double(times[0])
        hasGrid = true
        fit()
        // Returns that do not sit on one grid (the median interval was not one vsync): start over
        // from the newest half.
        if largestDelay > Int64(period) / Self.firstFitLargestDelayFraction {
            hasGrid = false
            keepNewestHalf()
        } else {
            presentSpans.removeAll(keepingCapacity: true)
        }
    }

    /// Starts the window again from the newest half of its returns (see ``restartKeepsDivisor``).
    private mutating func keepNewestHalf() {
        let keep = times.count / Self.restartKeepsDivisor
        times.removeFirst(times.count - keep)
        numbers.removeFirst(numbers.count - keep)
        presentSpans.removeFirst(max(0, presentSpans.count - keep))
    }

    /// The median time per present between the window's returns: each interval over the presents
    /// it spans (`nil` when every present blocked: it says nothing the intervals do not).
    private func medianTimePerPresent() -> Double? {
        guard presentSpans.count == times.count, presentSpans.dropFirst().contains(where: { $0 > 1 }) else {
            return nil
        }
        var perPresent: [Double] = []
        perPresent.reserveCapacity(times.count)
        for index in 1..<times.count {
            perPresent.append(Double(times[index] - times[index - 1]) / Double(presentSpans[index]))
        }
        perPresent.sort()
        return perPresent[perPresent.count / 2]
    }

    /// Throws a fit outside ``plausiblePeriods`` away: the window starts again, as after returns
    /// that stopped fitting, and whether the grid was stable carries over.
    private mutating func discardImplausibleFit() {
        implausibleFits += 1
        let stable = wasStable || isStable == true
        reset()
        relocks += 1
        wasStable = stable
    }

    /// The lower-hull edge spanning the middle of the window, then stability and lock.
    private mutating func fit() {
        let count = times.count
        if count == 1, let keptPeriod {
            fitWithKeptPeriod(keptPeriod)
            return
        }
        guard count >= 2 else { return }
        // Work relative to the first return, in Doubles (exact to well under a nanosecond here).
        let baseTime = times[0]
        let baseNumber = numbers[0]
        func x(_ index: Int) -> Double { Double(numbers[index] - baseNumber) }
        func y(_ index: Int) -> Double { Double(times[index] - baseTime) }
        hull.removeAll(keepingCapacity: true)
        for index in 0..<count {
            while hull.count >= 2 {
                let a = hull[hull.count - 2]
                let b = hull[hull.count - 1]
                // Keep b only if it lies strictly below the segment from a to the new point.
                let cross = (x(b) - x(a)) * (y(index) - y(a)) - (y(b) - y(a)) * (x(index) - x(a))
                if cross <= 0 { hull.removeLast() } else { break }
            }
            hull.append(index)
        }
        // The edge spanning the returns' mean number: the line below every return that is highest
        // there leaves the least total delay above it (Σ delays = n × (mean time − line at the mean
        // number)), so it rests on all the returns, however their numbers are spread. (The middle of
        // the numbers' range lay in the gap of a hidden window when two returns from before it were
        // still in the window, and those two alone then tilted the line by hundreds of µs.)
        var numberSum = 0.0
        for index in 0..<count { numberSum += x(index) }
        let middle = numberSum / Double(count)
        var edge = 0
        while edge + 2 < hull.count && x(hull[edge + 1]) <= middle { edge += 1 }
        let a = hull[edge]
        let b = hull[min(edge + 1, hull.count - 1)]
        if a != b {
            period = (y(b) - y(a)) / (x(b) - x(a))
        }
        if let keptPeriod {
            // The window's own slope once it is known better than the kept one (the same statement
            // the kept one had, for the window so far), **or once it contradicts the kept one**:
            // further from it than both statements allow (the display's rate changed unreported:
            // a kept 144 Hz period under returns at 143.856 Hz tilted the line 0.4 ms off, and
            // restarts every 150 returns judged the display unstable, an emulated vsync, each
            // window passing the kept period on: found by review 12).
            let windowDelay = max(meanDelay, keptPeriod.meanDelay, 1)
            let windowError = statedPeriodError(count: count, meanDelay: windowDelay)
            let contradicts = abs(period - keptPeriod.period) > windowError + keptPeriod.uncertainty
            if a != b, windowError < keptPeriod.uncertainty || contradicts {
                self.keptPeriod = nil
            } else {
                fitWithKeptPeriod(keptPeriod)
                return
            }
        }
        guard Self.isPlausible(period: period) else {
            discardImplausibleFit()
            return
        }
        // The line through a with that slope; vsync number 0 of the window's numbering.
        var intercept = y(a) - x(a) * period
        slopeFit = .lowerHull
        if count >= _LowQuantileLine.leastReturns {
            // The hull's slope unless the low-quantile line lies outside the hull's stated error
            // at the window's ends, by more than the quantile line is resolved (returns whose
            // delays seldom come near their floor); then the line with that slope below every
            // return.
            let halfSpan = max(1, x(count - 1) - x(0)) / 2
            if let slope = lowQuantileLine.slope(
                times: times, numbers: numbers, hullSlope: period,
                margin: (Double(errorAtNextVsync) + _LowQuantileLine.resolution) / halfSpan,
                reach: Double(max(largestDelay, Self.leastQuantileReach)) / halfSpan),
                Self.isPlausible(period: slope)
            {
                period = slope
                slopeFit = .lowQuantile
                intercept = .infinity
                for index in 0..<count { intercept = min(intercept, y(index) - slope * x(index)) }
            }
        }
        if let reported = reportedSlope(windowPeriod: period) {
            (period, slopeFit, intercept) = (reported, .reported, .infinity)
            for index in 0..<count { intercept = min(intercept, y(index) - reported * x(index)) }
        }
        origin = Double(baseTime) + intercept - Double(baseNumber) * period
        judge()
        publish()
    }

    /// The line with the kept period's slope that lies below every return and is highest: the
    /// lowest return fixes it (see ``restartPhaseKeepingPeriod()``). Its returns are said to be late by at least
    /// the kept fit's mean delay.
    private mutating func fitWithKeptPeriod(_ kept: KeptPeriod) {
        let baseTime = times[0]
        let baseNumber = numbers[0]
        period = kept.period
        var intercept = Double.infinity
        for index in 0..<times.count {
            intercept = min(
                intercept, Double(times[index] - baseTime) - Double(numbers[index] - baseNumber) * kept.period)
        }
        slopeFit = .keptPeriod
        origin = Double(baseTime) + intercept - Double(baseNumber) * kept.period
        judge()
        meanDelay = max(meanDelay, kept.meanDelay)
        largestDelay = max(largestDelay, kept.largestDelay)
        publish()
    }

    /// Largest delay, stability and lock, from each quarter's lowest return above the line.
    private mutating func judge() {
        let count = times.count
        var largest: Int64 = 0
        var worstQuarterLow: Int64 = 0
        var totalDelay: Int64 = 0
        let quarter = max(1, count / Self.windowParts)
        var start = 0
        while start < count {
            let end = count - start < 2 * quarter ? count : start + quarter
            var low = Int64.max
            for index in start..<end {
                let delay = times[index] - fittedTime(ofNumber: numbers[index])
                largest = max(largest, delay)
                low = min(low, delay)
                totalDelay += max(0, delay)
            }
            worstQuarterLow = max(worstQuarterLow, low)
            start = end
        }
        largestDelay = largest
        lineUncertainty = worstQuarterLow
        meanDelay = totalDelay / Int64(count)
        guard count >= requiredForStability else {
            // Clean returns are judged early: each quarter of 8 or more pins the line within
            // earlyStabilityTolerance. (Returns with larger delays wait for the full window; only
            // the full window may call a grid unstable.)
            if isStable == nil, count >= Self.earlyStabilityWindow, worstQuarterLow <= Self.earlyStabilityTolerance {
                isStable = true
                isPhaseLocked =
                    worstQuarterLow <= Self.lockTolerance
                    && totalDelay * Self.lineErrorPerMeanDelay <= Self.lockPrecision * Int64(count) * Int64(count)
                    && mayTakeLock(wasLocked: isPhaseLocked)
            }
            return
        }
        isStable = worstQuarterLow <= Self.stabilityTolerance
        isPhaseLocked =
            worstQuarterLow <= Self.lockTolerance
            && totalDelay * Self.lineErrorPerMeanDelay <= Self.lockPrecision * Int64(count) * Int64(count)
            && mayTakeLock(wasLocked: isPhaseLocked)
        if isStable == true {
            relocksWhileUnjudged = 0
            requiredForStability = Self.stabilityWindow
        }
    }

    /// Starts the window again now: the host reported another display, whose vsync the old fit
    /// does not describe even where returns still fit it (a display at half the old rate, or
    /// nearly, fits every 2nd line of the old grid while its phase drifts away).
    mutating func relockForAnotherDisplay() {
        // Not a sign of a wandering phase: whether the grid was stable carries over, and the
        // relock does not count toward judging it unstable.
        let stable = wasStable || isStable == true
        reset()
        relocks += 1
        wasStable = stable
    }

    /// Starts the window again from the returns that did not fit.
    private mutating func relock() {
        let recent = strays
        // A grid judged stable, or one used unjudged because the grid before it was (a re-lock
        // after a move whose first fit was off), was a real vsync: the next fit is used at once.
        // Only a judged grid resets the count of re-locks that marks a wandering phase.
        let judgedStable = isStable == true
        let stable = judgedStable || (isStable == nil && wasStable)
        reset()
        relocks += 1
        relocksWhileUnjudged = judgedStable ? 1 : relocksWhileUnjudged + 1
        wasStable = stable
        if relocksWhileUnjudged >= Self.unstableRelocks {
            isStable = false
            wasStable = false
            requiredForStability = Self.capacity
        }
        for time in recent {
            append(time, number: nil)
            presentSpans.append(1)
        }
    }
}
