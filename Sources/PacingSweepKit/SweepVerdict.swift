import FrameLink

/// What the sweep checks, each against the lab's ground truth, over the judged frames. A frame is
/// *on the vsync* when the source puts its timestamp on its fitted vsync grid
/// (`PresentSource.timestampFollowsVsync`): that is the claim the timestamp, delta and target
/// checks hold it to. The judged frames run from
/// ``SweepVerdict/startAllowance`` on, and not within ``SweepVerdict/eventAllowance`` frames of a
/// hidden window, a move or a hitch, nor in the frames still in the swap chain when one happens.
public enum SweepCheck: String, CaseIterable, Sendable {
    /// The drops booked equal the refreshes the display missed, frame by frame (booked at most as
    /// many frames late as the swap chain has buffers, as feedback arrives); on a display that
    /// never revealed its vsync, never more than the chain holds apart.
    case drops
    /// Never more frames per second than the display shows: any 60 intervals take at least 60
    /// periods less a quarter.
    case fasterThanDisplay = "faster than the display"
    /// In frames on the vsync (fixed displays): every timestamp within 1 ms
    /// of the true vsync, and 99 % within 100 µs.
    case timestampOffVsync = "timestamp off the vsync"
    /// Between two frames on the vsync (fixed displays): deltaTime a whole number of periods, within
    /// 100 µs.
    case deltaTimeNotWholePeriods = "deltaTime not whole periods"
    /// In frames on the vsync, the target of a frame is when the frame it produces is shown, within
    /// 100 µs (for frames presented before their target and shown as late after their call as the
    /// frames before them: a frame the GPU finished later than the pipeline does is a drop).
    case targetNotShown = "target not when shown"
    /// On a fixed display that revealed its vsync in the run's second half (presentation feedback,
    /// or at least a quarter of the judged presents there blocked until a refresh), the source puts
    /// at least 90 % of the judged frames of that half on the vsync: it uses what the display tells it. (Its second
    /// half: returns late by random delays pin the vsync within 100 µs, at the 99th percentile,
    /// only after about 48 mean delays / 100 µs of them (``SweepVerdict/returnsToPinPerMeanDelay``):
    /// 190 for exponential delays of mean 0.4 ms, 360 for the widest drawn here, spread evenly up
    /// to 1.5 ms. (`_VsyncGrid` states 40 from 160 returns on, and claims those at about 300: the
    /// judge keeps the more generous figure.) A run is at least 600 frames long, so by its middle a pacer knows the vsync on
    /// all but the widest delays; the 10 % not required covers part of those. Before that a source
    /// may time frames by its best estimate without claiming it; after a move to another display,
    /// the same learning starts again: ``SweepVerdict/relearningFrames(meanDelay:)``.) (A display that reveals nothing, a swap
    /// chain with room for frames that never fill it and no feedback, leaves the vsync's phase
    /// unknowable: no pacer can put timestamps or targets on it, and none is asked to.)
    case notLocked = "off the vsync though the display revealed it"
}

/// The checks a run failed, with the first frame of each.
public struct SweepVerdict: Sendable {
    /// Frames not judged at the start: 120 (measuring, the first fit).
    public static let startAllowance: Int64 = 120
    /// Frames not judged after a hidden window, a move or a hitch: 120.
    public static let eventAllowance: Int64 = 120
    /// Frames not judged before such an event: as many as the swap chain has buffers. They were
    /// presented before it, but may still be queued when it comes (a move blanks the display for a
    /// modeset, a hide shows nothing): where and whether they are shown is decided by an event no
    /// pacer can foresee when it gives them their target.
    public static func framesInFlight(buffers: Int) -> Int64 { Int64(buffers) }
    /// How close a timestamp, a delta or a target must be: 100 µs.
    public static let tolerance: Int64 = 100_000

    /// How close timestamps and targets must be, beyond the tolerance: nothing, or (for
    /// ``SweepVerdict/init(_:beyondUnseenFloor:)``) the run's least present delay.
    private let floorAllowance: Int64
    /// How far a timestamp on the vsync may ever be: 1 ms.
    public static let largestTimestampError: Int64 = 1_000_000
    /// The share of judged presents that must block for a display to have revealed its vsync: a
    /// quarter.
    public static let revealingBlockedShare = 0.25
    /// The share of judged frames a source must put on the vsync when the display revealed it:
    /// 90 %.
    public static let requiredLockedShare = 0.9
    /// How many returns pin the vsync within ``tolerance`` at the 99th percentile, in mean present
    /// delays per tolerance: 48 (the lower-envelope fit's error at the next vsync is up to
    /// 48 mean delays / n after n returns late by one-sided delays: `_VsyncGrid`'s measured
    /// statement for windows under 160 returns, the figure the second-half rule of
    /// ``SweepCheck/notLocked`` rests on; the grid states 40 for longer ones, and the judge keeps
    /// the more generous figure).
    public static let returnsToPinPerMeanDelay: Int64 = 48

    /// The frames after a move to another display in which a source is not asked to put frames on
    /// the vsync: ``eventAllowance``, or as many as the returns it needs to learn the new display's
    /// vsync within the tolerance (``returnsToPinPerMeanDelay`` mean delays per tolerance), if more.
    /// The mean is counted above the run's least delay, the floor on which a fit of returns rests
    /// (a delay of 1 ms plus a little takes as few returns to learn as the little alone).
    /// A move starts the learning again, and a move late in a run leaves less than the run's first
    /// half for it, which is what the second-half rule grants at the start.
    public static func relearningFrames(meanDelay: Duration) -> Int64 {
        max(eventAllowance, returnsToPinPerMeanDelay * meanDelay.wholeNanoseconds / tolerance)
    }

    /// The first frame at which each failed check failed.
    public private(set) var failures: [SweepCheck: Int64] = [:]
    /// The checks that applied to the run.
    public private(set) var judged: Set<SweepCheck> = []

    /// Whether every check passed.
    public var passes: Bool { failures.isEmpty }

    private mutating func fail(_ check: SweepCheck, at frame: Int64) {
        if failures[check] == nil { failures[check] = frame }
    }

    /// Judges `run`.
    ///
    /// With `beyondUnseenFloor`, a run without presentation feedback is judged beyond the present
    /// delay's floor as the lab drew it (``DisplayLab/leastPresentDelay``): timestamps and targets
    /// may be late by it on top of the tolerance. No pacer that sees only present returns can tell
    /// that floor from the vsync's phase (every return is late by it); this verdict says which
    /// failures are that and nothing else. (With feedback, and by default, the floor counts.)
    @MainActor
    public init(_ run: SweepRun, beyondUnseenFloor: Bool = false) {
        floorAllowance =
            beyondUnseenFloor && !run.scenario.feedback ? (run.lab.leastPresentDelay?.wholeNanoseconds ?? 0) : 0
        let scenario = run.scenario
        let frames = run.frames
        let lab = run.lab
        var events: [Int64] = []
        if let hidden = scenario.hidden { events += [hidden.lowerBound, hidden.upperBound] }
        if let move = scenario.move { events.append(move.frame) }
        if let hitch = scenario.hitch { events.append(hitch.frame) }
        // The last frames' truth is not known yet (still in the swap chain).
        let lastJudged = Int64(frames.count) - 8
        func isJudged(_ index: Int64) -> Bool {
            index >= Self.startAllowance && index <= lastJudged
                && !events.contains {
                    index >= $0 - Self.framesInFlight(buffers: scenario.buffers) && index < $0 + Self.eventAllowance
                }
        }
        // (After a move, the frames in which the new display's vsync is still being learnt do not
        // count toward the share a source must put on the vsync.)
        // (The grid's error is in delays above its line, which rests on the least delay: the
        // mean above that floor.)
        let meanAboveFloor = max(.zero, scenario.jitter.mean - (lab.leastPresentDelay ?? .zero))
        let relearning: Range<Int64>? = scenario.move.map {
            $0.frame..<($0.frame + Self.relearningFrames(meanDelay: meanAboveFloor))
        }
        func isRelearning(_ index: Int64) -> Bool { relearning?.contains(index) ?? false }
        var isFixed = false
        if case .fixed = scenario.refresh { isFixed = true }

        // The truth's running total of missed refreshes by present (the frame of loop index i is
        // lab frame i: presented at the start of frame i + 1).
        var truthPrefix = [0]
        truthPrefix.reserveCapacity(lab.frames.count + 1)
        for frame in lab.frames { truthPrefix.append(truthPrefix[truthPrefix.count - 1] + frame.missedRefreshes) }

        // Whether the display revealed its vsync to the game: feedback, or a quarter of the judged
        // presents blocked until a refresh.
        // (And whether it did so in the run's second half, where the lock share is judged.)
        var judgedPresents = 0
        var blockingPresents = 0
        var secondHalfPresents = 0
        var secondHalfBlocking = 0
        let middle = Int64(frames.count) / 2
        for index in 0..<Int64(lab.frames.count) where isJudged(index) {
            let blocking = lab.frames[Int(index)].framesQueuedAhead >= scenario.buffers - 2
            judgedPresents += 1
            if blocking { blockingPresents += 1 }
            if index >= middle {
                secondHalfPresents += 1
                if blocking { secondHalfBlocking += 1 }
            }
        }
        let revealed =
            scenario.feedback || Double(blockingPresents) >= Self.revealingBlockedShare * Double(judgedPresents)
        let revealedInSecondHalf =
            scenario.feedback
            || Double(secondHalfBlocking) >= Self.revealingBlockedShare * Double(secondHalfPresents)

        judged.insert(.drops)
        var segmentDifference: Int?
        var deviatingFrames = 0
        var lockedFrom: Int64?
        var timestampsJudged = 0
        var timestampsNear = 0
        var judgedFrames = 0
        var lockedFrames = 0
        var previousWasLocked = false
        for (position, frame) in frames.enumerated() {
            let index = frame.index
            guard isJudged(index), Int(index) < truthPrefix.count else {
                segmentDifference = nil
                previousWasLocked = false
                continue
            }
            let wasLocked = previousWasLocked
            previousWasLocked = frame.followsVsync
            if index >= middle, !isRelearning(index) {
                judgedFrames += 1
                if frame.followsVsync { lockedFrames += 1 }
            }
            // Drops: booked minus truth stays the same through each judged stretch; it may differ
            // for as many frames as a swap chain holds (a drop learnt from feedback is booked when
            // the frame's report comes, up to buffers − 1 frames later), never longer. On a display
            // that never revealed its vsync (a chain with room that frames never fill, no feedback)
            // no pacer can know when the chain ran dry, only that frames were late: there the
            // count may lag the truth, but never by more than the chain holds.
            let difference = frame.droppedSoFar - truthPrefix[Int(index)]
            if let base = segmentDifference {
                deviatingFrames = difference == base ? 0 : deviatingFrames + 1
                if revealed ? deviatingFrames > scenario.buffers : abs(difference - base) >= scenario.buffers {
                    fail(.drops, at: index)
                }
            } else {
                segmentDifference = difference
                deviatingFrames = 0
            }

            // Target against when the frame was shown, in frames on the vsync, for frames presented
            // before their target, less the pipeline's lateness (a frame whose own work ran past it
            // is late by the game's doing, not the pacer's), and shown as late after its call as
            // the pipeline makes frames
            // (`DisplayLab.pipelineLateness(beforeFrame:)`: one later or earlier than the frames
            // before it was so by its own work and drawing, which no pacer knows at its start; it
            // is judged by the drops).
            // (Presented before the true refresh the target stands for, when it is within the
            // tolerance of one: a target a microsecond after the true vsync must not count a frame
            // presented between them as in time.)
            let nearest = Self.nearestRefresh(to: frame.target, in: lab.refreshTimes)
            let aimed = abs(nearest - frame.target) <= Self.tolerance + floorAllowance ? nearest : frame.target
            if frame.followsVsync, Int(index) < lab.frames.count, let shown = lab.frames[Int(index)].shownAt,
                let pipeline = lab.pipelineLateness(beforeFrame: Int(index)),
                lab.refreshesLate(frame: Int(index)) == pipeline,
                lab.frames[Int(index)].presentedAt.nanoseconds
                    < aimed - Int64(pipeline) * Self.period(at: aimed, in: lab.refreshTimes)
            {
                judged.insert(.targetNotShown)
                if abs(shown.nanoseconds - frame.target) > Self.tolerance + floorAllowance {
                    fail(.targetNotShown, at: index)
                }
            }

            // Timestamps and deltas on a fixed display, in the frames on the vsync.
            guard isFixed, frame.followsVsync else { continue }
            if lockedFrom == nil { lockedFrom = index }
            judged.insert(.timestampOffVsync)
            let error = Self.distanceToNearestRefresh(frame.timestamp, in: lab.refreshTimes)
            timestampsJudged += 1
            if error <= Self.tolerance + floorAllowance { timestampsNear += 1 }
            if error > Self.largestTimestampError { fail(.timestampOffVsync, at: index) }
            if position > 0, wasLocked {
                judged.insert(.deltaTimeNotWholePeriods)
                let period = Self.period(at: frame.timestamp, in: lab.refreshTimes)
                let periods = max(1, (frame.deltaTime + period / 2) / period)
                if abs(frame.deltaTime - periods * period) > Self.tolerance {
                    fail(.deltaTimeNotWholePeriods, at: index)
                }
            }
        }
        if timestampsJudged > 0 && timestampsNear * 100 < timestampsJudged * 99 {
            fail(.timestampOffVsync, at: lockedFrom ?? 0)
        }

        // A display that revealed its vsync: the source must use it.
        if isFixed && judgedFrames > 0 && revealedInSecondHalf {
            judged.insert(.notLocked)
            if Double(lockedFrames) < Self.requiredLockedShare * Double(judgedFrames) {
                fail(.notLocked, at: Int64(frames.count) / 2)
            }
        }

        // Never faster than the display, over any 60 judged intervals.
        judged.insert(.fasterThanDisplay)
        let stamps = frames.map(\.timestamp)
        var start = 0
        while start + 60 < frames.count {
            let window = frames[start].index...frames[start + 60].index
            if window.allSatisfy(isJudged) {
                // A variable display's fastest period is its maximum rate's, or its cap's (the
                // refreshes about a time are as far apart as the frames came); a fixed one's, its
                // measured period.
                // (The display in force: the scenario's, or after a move the one it moved to.)
                let display =
                    if let move = scenario.move, frames[start].index >= move.frame { move.refresh } else {
                        scenario.refresh
                    }
                let period =
                    if case .variable(_, let maximum) = display {
                        (scenario.cap ?? maximum).periodNanoseconds
                    } else {
                        Self.period(at: stamps[start], in: lab.refreshTimes)
                    }
                if stamps[start + 60] - stamps[start] < 60 * period - period / 4 {
                    fail(.fasterThanDisplay, at: frames[start].index)
                    break
                }
            }
            start += 1
        }
    }

    /// The distance from `time` to the nearest of `refreshes` (sorted), in nanoseconds.
    public static func distanceToNearestRefresh(_ time: Int64, in refreshes: [FrameInstant]) -> Int64 {
        let after = firstRefresh(after: time, in: refreshes)
        var best = Int64.max
        if after < refreshes.count { best = refreshes[after].nanoseconds - time }
        if after > 0 { best = min(best, time - refreshes[after - 1].nanoseconds) }
        return best
    }

    /// The refresh nearest to `time` (`time` itself when there is none).
    public static func nearestRefresh(to time: Int64, in refreshes: [FrameInstant]) -> Int64 {
        let after = firstRefresh(after: time, in: refreshes)
        var best = time
        var distance = Int64.max
        if after < refreshes.count {
            (best, distance) = (refreshes[after].nanoseconds, refreshes[after].nanoseconds - time)
        }
        if after > 0, time - refreshes[after - 1].nanoseconds <= distance { best = refreshes[after - 1].nanoseconds }
        return best
    }

    /// The display's period at `time`: the shorter of the last two intervals between refreshes that
    /// end at or before it (the display in force then: a move to another rate must not lend a
    /// frame before it the new display's period; the shorter, so a variable display's pauses do
    /// not count), or the first interval when `time` comes before the second refresh.
    public static func period(at time: Int64, in refreshes: [FrameInstant]) -> Int64 {
        guard refreshes.count >= 2 else { return 16_666_667 }
        let lastAtOrBefore = firstRefresh(after: time, in: refreshes) - 1
        let last = min(max(lastAtOrBefore, 1), refreshes.count - 1)
        var shortest = Int64.max
        for index in max(1, last - 1)...last {
            shortest = min(shortest, refreshes[index].nanoseconds - refreshes[index - 1].nanoseconds)
        }
        return max(1, shortest)
    }

    /// The index of the first refresh after `time` (binary search).
    static func firstRefresh(after time: Int64, in refreshes: [FrameInstant]) -> Int {
        var low = 0
        var high = refreshes.count
        while low < high {
            let middle = (low + high) / 2
            if refreshes[middle].nanoseconds <= time { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
