/// Presentation feedback waiting to be taken in: when recent frames reached the screen, as a
/// presenter reports it (Wayland's presentation-time, `GLX_OML_sync_control`, a display lab). A
/// report is data from outside, checked where it enters (``accept(frame:at:now:presentCount:)``)
/// and kept in fixed storage, so the frame path allocates nothing.
struct _PresentationReports {
    /// Reports kept until the next frame takes them in: 64, more than any swap chain or
    /// compositor keeps in flight (further ones in the same frame are dropped).
    static let capacity = 64

    /// How far ahead of now a report may be: 1 ms. Reports tell of the past; a time converted
    /// from a compositor's clock may come out a little ahead, a sentinel or a wrong clock far ahead.
    static let latestAhead: Int64 = 1_000_000

    /// Whether any report was accepted.
    private(set) var receivesFeedback = false
    /// Reports refused as implausible.
    private(set) var ignored = 0
    /// When the recent frames' presents were called: a report of a frame shown before it was
    /// presented is not true.
    private var calls = _PresentCalls()
    private var pendingFrames: [Int64] = []
    private var pendingTimes: [Int64] = []
    private var lastFrame: Int64 = 0
    private var lastTime: Int64?

    init() {
        pendingFrames.reserveCapacity(Self.capacity)
        pendingTimes.reserveCapacity(Self.capacity)
    }

    /// Notes that frame `frame`'s present was called at `time`.
    mutating func notePresentCall(at time: Int64, ofFrame frame: Int64) {
        calls.record(time, ofFrame: frame)
    }

    /// Takes a report that frame `frame` reached the screen at `time` (both on the source's
    /// timeline, `now` its present time and `presentCount` the frames presented so far), or
    /// refuses it as implausible: a frame after the one being presented, one already reported or
    /// out of order, a time before the source's start, before the frame's present was called, not
    /// after the last report, or more than ``latestAhead`` ahead of now. Returns whether it was
    /// taken.
    mutating func accept(frame: Int64, at time: Int64, now: Int64, presentCount: Int64) -> Bool {
        guard frame > lastFrame, frame <= presentCount + 1, time >= 0, time <= now + Self.latestAhead,
            lastTime.map({ time > $0 }) ?? true,
            calls.time(ofFrame: frame).map({ time >= $0 }) ?? true
        else {
            ignored += 1
            return false
        }
        lastFrame = frame
        lastTime = time
        receivesFeedback = true
        if pendingTimes.count < Self.capacity {
            pendingTimes.append(time)
            pendingFrames.append(frame)
        }
        return true
    }

    /// Forgets that feedback comes, and the reports waiting: the presenter stopped reporting (a
    /// compositor that stopped answering). Later reports must still come after the last one taken.
    mutating func stop() {
        receivesFeedback = false
        forgetPending()
    }

    /// The reports waiting to be taken in.
    var pendingCount: Int { pendingFrames.count }

    /// Waiting report `index` (oldest first): the frame, when it reached the screen, and when its
    /// present was called (if still remembered).
    func pending(at index: Int) -> (frame: Int64, time: Int64, calledAt: Int64?) {
        let frame = pendingFrames[index]
        return (frame, pendingTimes[index], calls.time(ofFrame: frame))
    }

    /// Forgets the waiting reports, once taken in.
    mutating func forgetPending() {
        pendingFrames.removeAll(keepingCapacity: true)
        pendingTimes.removeAll(keepingCapacity: true)
    }
}
