/// Where each presented frame is shown on the vsync grid, what the display missed meanwhile, and
/// when the frame being built will be shown: a FIFO swap chain's model, in grid numbers.
///
/// The model of a FIFO chain: a frame is shown at the first vsync after its present, and after the
/// frame before it; the vsyncs in between show the old frame again (the display's missed
/// refreshes). A present that blocked found the chain full: its frame waits behind
/// `buffers − 2` others (the chain's depth) from the vsync that released it. A present that returned
/// at once found room, so it is shown within `max(1, depth)` vsyncs of its call. Presentation
/// feedback, when a presenter reports it, places a reported frame where it really went, and the
/// frames after it follow it.
///
/// Everything here is in grid numbers (vsync n of the fitted grid); the source turns them into
/// times. The invariants (a target after the frame's own vsync and after where it is shown, drops
/// never negative) are checked in debug builds.
struct _SwapChainModel {
    /// The grid number of the last frame's timestamp, while frames follow the grid.
    private(set) var lastVsyncNumber: Int64?
    /// The grid number of the vsync the last presented frame is shown on.
    private(set) var lastShownNumber: Int64?
    /// The newest reported frame and the grid number it was shown on (presentation feedback).
    private(set) var lastReport: (frame: Int64, number: Int64)?
    /// Drops of the frame being built already booked at the boundary before it (see
    /// ``place(_:)``): taken off its own count when it is placed.
    private(set) var dropsBookedAhead = 0
    /// How much later than their calls explain frames are shown (learned with two buffers).
    private(set) var lateness = _ShownLateness()

    /// One frame boundary while frames follow the grid.
    struct Frame {
        /// The vsync interval the present was called in (the last vsync at or before the call).
        var called: Int64
        /// The vsync the frame is timestamped with (the one that released a present that blocked,
        /// unless `released` says otherwise; the next one after a present that returned at once).
        var number: Int64
        /// Whether the present blocked until a vsync released it.
        var blocked: Bool
        /// The vsync that released a present that blocked, when the frame's timestamp was moved
        /// past it (`nil`: `number`). Coming onto the grid, a frame never begins less than half a
        /// period after the last one, which may move it a vsync past the one that released its
        /// present; that vsync still places the frame. (Placed by its timestamp, the first frame on
        /// the grid after the phase probe was shown a vsync later than it was, and a drop the
        /// display never made was booked in 7 of 30 runs at 60 Hz with three buffers: review 15.)
        var released: Int64?
        /// Whether it blocked longer than the chain explains and returned off the vsyncs (a
        /// compositor's stall): the vsync that released it is unknown, and in a chain that queues
        /// frames the frame is placed by its call.
        var releaseIsUnknown = false
        /// The frame's number (the presenter's count of presents, as feedback names frames).
        var frame: Int64
        /// The vsyncs from one present to the next (1, a range's divisor, doubled when halved).
        var interval: Int64
        /// The frames a full chain holds ahead of a new one: the chain's buffers minus 2.
        var chainDepth: Int64
        /// The grid number of the last frame's timestamp when that was the return of a present that
        /// blocked, on a vsync of the grid (`nil` for any other timestamp: a deadline's, a shifted
        /// frame's, a hidden window's). Only read by the first frame on the grid.
        var lastBlockingReturn: Int64?
        /// Whether the display refreshes on every vsync of the grid whether a frame came or not (a
        /// fixed refresh); a variable-refresh display waits for the frame instead.
        var refreshesEveryVsync = true
    }

    /// Where a frame went.
    struct Placement: Equatable {
        /// The vsync that shows the frame.
        var shown: Int64
        /// The drops to book at this boundary: the frames of the chosen rate the display dropped
        /// before this frame (less those booked ahead at the boundary before), and those it has
        /// already dropped before the next one.
        var drops: Int
        /// The vsync that shows the next frame, at the earliest: the target of the frame being built.
        var target: Int64
        /// Whether the drops before this frame are not the model's to count: it is the first frame
        /// on the grid after frames timed otherwise, whose last present did not block on a vsync of
        /// the grid, so nothing says where the frame before was shown. `drops` then holds only
        /// those booked ahead, and the interval from the last timestamp counts the rest, as it
        /// counted the drops of the frames before (``dropsComingOntoGrid(at:after:interval:)``).
        var dropsBeforeAreUnknown = false
    }

    /// Places `frame`: the vsync that shows it, the drops before it, the next frame's target.
    ///
    /// **Drops are booked as soon as they are certain.** The frame being built begins at vsync
    /// `frame.number`; it cannot be shown before the next vsync, nor before the one after `frame`'s.
    /// On a display that refreshes every vsync, each vsync from where it should have been shown
    /// (`interval` after `frame`'s) up to the one before that earliest is the old frame shown
    /// again: a drop now, whatever the frame then does.
    /// They are booked at this boundary, whose interval holds them (a frame that began a period
    /// late), and taken off that frame's own count when it is placed. (Booked only with that frame,
    /// they fell in an interval of one period, which cannot hold them, and were lost.)
    mutating func place(_ frame: Frame) -> Placement {
        var shown = lastShownNumber.map { max($0 + 1, frame.called + 1) } ?? frame.called + 1
        // Where the call alone puts the frame (the first vsync after it, after the frame before).
        let explained = shown
        if frame.blocked && frame.releaseIsUnknown && frame.chainDepth > 0 {
            // **A block longer than the chain explains, returned off the vsyncs, places its frame
            // by its call** in a chain that queues frames: the return came late by a stall, not at
            // the vsync that released the present, and the display went on showing the queued
            // frames meanwhile. (Placed by its return, a stall of 3 periods with 3 buffers booked 3
            // drops where the display missed 2: found by review.) With two buffers nothing queued
            // covers it, and the return places the frame's drops in the interval that holds them
            // (placed by its call, a divisor's stall left them to a frame whose interval could not
            // hold them: review 9).
        } else if frame.blocked {
            // Released by vsync `number`: shown `chainDepth` vsyncs after it. The return says so more
            // surely than the call's place on the grid (a present called within microseconds of a
            // vsync may be placed on either side of it).
            shown = max((lastShownNumber ?? .min) + 1, (frame.released ?? frame.number) + frame.chainDepth)
        } else {
            // Returned at once: fewer frames than fill the chain waited ahead of it, whatever the
            // model had queued (a return taken for a block, a hitch that drained the chain).
            shown = min(shown, frame.called + max(1, frame.chainDepth))
        }
        if let report = lastReport, report.frame <= frame.frame {
            // Feedback says where a recent frame really went: the frames after it follow it.
            shown = max(shown, report.number + (frame.frame - report.frame))
            if report.frame == frame.frame { shown = report.number }
        }
        var drops: Int
        var dropsBeforeAreUnknown = false
        if let previous = lastShownNumber {
            // The refreshes the display showed the old frame longer than the interval it should
            // have, from where the model shows this frame.
            drops = Self.drops(missedRefreshes: shown - previous - frame.interval, interval: frame.interval)
        } else {
            drops = Self.dropsComingOntoGrid(
                at: frame.blocked ? frame.released ?? frame.number : frame.number, after: frame.lastBlockingReturn,
                interval: frame.interval)
            dropsBeforeAreUnknown = frame.lastBlockingReturn == nil && frame.refreshesEveryVsync
        }
        drops = max(0, drops - dropsBookedAhead)
        // The next frame's drops already certain: the vsyncs from where it should be shown to the
        // one before the earliest it can be.
        // (A variable-refresh display waits for the frame: nothing is certain before it comes.)
        let earliestNext = max(frame.number + 1, shown + 1)
        dropsBookedAhead =
            frame.refreshesEveryVsync
            ? Self.drops(missedRefreshes: earliestNext - (shown + frame.interval), interval: frame.interval) : 0
        drops += dropsBookedAhead
        // With two buffers a blocking present returned when its own frame was shown: how much later
        // than its call explains (the GPU still drawing, a latch deadline) sets the targets.
        // (Forgotten on a display or chain that cannot show it: a learned lateness kept after a
        // move to a variable-refresh display put every target a refresh late: found by review. A
        // present that returned at once, as the first after a hitch does, or after a stall, shows
        // nothing of it and leaves it: forgotten there, the frames after each hitch of a game whose
        // drawing made about half its frames late had targets unlike the frames before them.)
        if frame.chainDepth != 0 || !frame.refreshesEveryVsync {
            lateness.forget()
        } else if frame.blocked && !frame.releaseIsUnknown && lastShownNumber != nil {
            lateness.note(late: shown - explained)
        }
        lastShownNumber = shown
        lastVsyncNumber = frame.number
        let placement = Placement(
            shown: shown, drops: drops, target: max(shown + 1, frame.number + frame.interval) + lateness.vsyncs,
            dropsBeforeAreUnknown: dropsBeforeAreUnknown)
        assert(placement.target > frame.number && placement.target > shown, "a target before its frame's vsync")
        assert(placement.drops >= 0, "negative drops")
        return placement
    }

    /// Whether a chain that queues `chainDepth` frames (its buffers less 2) had room for a frame
    /// presented in vsync `called`'s interval: it queues frames at all, and the frame before was
    /// already shown by then (so every frame before it was: nothing was queued). `false` when the
    /// model does not know (no frame placed). A present blocks only on a full chain: with room it
    /// cannot have waited for a vsync, however close to one its return came. Two buffers never
    /// have room: the back buffer is the frame's only place, and its present waits for the vsync
    /// that shows it (this model's FIFO chain).
    func hadRoom(forFrameCalledIn called: Int64, chainDepth: Int64) -> Bool {
        guard chainDepth > 0, let lastShownNumber else { return false }
        return lastShownNumber <= called
    }

    /// Forgets the last report: the grid numbers its vsyncs afresh (a relock, a window started
    /// again), and the report's vsync is the old numbering's. (Kept after the feedback stopped and
    /// the grid fitted returns afresh, it placed every frame 401 periods ahead, its target 6.7 s
    /// away: found by review.)
    mutating func forgetReport() {
        lastReport = nil
    }

    /// Notes that the newest reported frame `frame` was shown on vsync `number` of the grid.
    mutating func noteReport(frame: Int64, shownOn number: Int64) {
        lastReport = (frame, number)
    }

    /// Frames no longer follow the grid (deadline pacing, a relock): the next frame on it starts
    /// the model afresh.
    mutating func forget() {
        lastVsyncNumber = nil
        lastShownNumber = nil
        dropsBookedAhead = 0
    }

    /// The drops of the first frame on the grid, at vsync `number`, after frames timed otherwise:
    /// counted in refreshes from vsync `previous`, the one that released the present before
    /// (as when a game that starts with slow frames shows each on every 3rd vsync, or frames paced
    /// by deadline whose presents still blocked: both presents found the chain full, so its depth
    /// cancels out); none when that present did not block, since a deadline's interval to the
    /// vsync says nothing about the display: the frame's ``Placement/dropsBeforeAreUnknown`` then,
    /// and the interval counts them.
    static func dropsComingOntoGrid(at number: Int64, after previous: Int64?, interval: Int64) -> Int {
        guard let previous, previous < number else { return 0 }
        return drops(missedRefreshes: number - previous - interval, interval: interval)
    }

    /// The frames of the chosen rate dropped when the display showed the old frame `missed`
    /// refreshes longer than the `interval` it should have: as many as an interval of
    /// `interval + missed` refreshes drops at a period of `interval` refreshes (none up to half a
    /// frame late, then rounded half up), counted exactly in refreshes.
    static func drops(missedRefreshes missed: Int64, interval: Int64) -> Int {
        guard missed > 0, 2 * missed > interval else { return 0 }
        return Int(clamping: (2 * missed + interval) / (2 * interval))
    }
}
