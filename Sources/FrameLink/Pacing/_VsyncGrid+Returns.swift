// What a present's return says on the vsync grid: whether it waited for a vsync after its call,
// and whether a return the grid did not take is still a slow one on its line (see `_VsyncGrid`).
extension _VsyncGrid {
    /// Whether a present called at `call` that returned at `time` returned on a vsync of the grid
    /// that came after the call (within the delays the grid has seen): it waited for that vsync,
    /// however short the wait. (A present called just before a vsync, as in latency mode, waits
    /// only a moment.)
    func returnsOnVsync(calledAt call: Int64, returnedAt time: Int64) -> Bool {
        guard hasGrid else { return false }
        // A present that waited for a vsync returns after it: before the line only by the line's
        // own error (not the wider allowance that numbers returns: a present that returned at once
        // just before a vsync did not wait for it), and never by less than the rounding the
        // numbering allows. (**A line known exactly is still rounded**: with no delay at all, a
        // return on the vsync fell a nanosecond before the fitted time, was taken as no wait, and
        // the next frame was held a whole period to the vsync after it; frames that cost about a
        // period then went out every other vsync and the drops were booked a frame late: pacing
        // sweep seed 10 #307.)
        let early = max(
            min(lineUncertainty, Int64(period * Self.earliestNumberableFraction)), Int64(Self.numberingAllowance))
        let number = fittedNumber(atOrBefore: time + early)
        let delay = time - fittedTime(ofNumber: number)
        let allowed = allowedDelay(early: early)
        return delay >= -early && delay <= allowed && fittedTime(ofNumber: number) > call
    }

    /// Whether a return the grid did not take (later than any delay it allows) is still the return
    /// of a present released by the vsync of the line before it: a slow return (a long tail of the
    /// compositor's delay), not a return from another display (which comes early for the line, or
    /// anywhere). It is when it came less than ``latestNumberableDelayFraction`` of a period after
    /// that vsync, or later but before the second vsync after the present's call:
    /// **a blocked present's vsync is the first after its call** (a full chain frees a buffer at
    /// every refresh, so a present that blocked was released by the first vsync after it was
    /// called, however late it then returned). A return more than half a period late, which the
    /// line's numbering alone cannot place, took the frame off the grid and its raw return made an
    /// interval of 1.5 periods a drop.
    func isSlowReturnOnTheLine(calledAt call: Int64, returnedAt time: Int64) -> Bool {
        guard hasGrid else { return false }
        let delay = time - self.time(ofNumber: number(atOrBefore: time))
        if Double(delay) < period * Self.latestNumberableDelayFraction { return true }
        // (Numbered as the wait after it numbers it, with the early tolerance: a return just before
        // the second vsync after the call is that vsync's.)
        return number(atOrBefore: time + Self.earlyTolerance) == number(atOrBefore: call) + 1
    }
}
