/// How many vsyncs later than their present calls explain frames are shown: what the GPU's work
/// after present (or a compositor's latch deadline) adds, learned where a return reveals it.
///
/// A FIFO chain shows a frame at the first vsync after its present, unless the GPU is still
/// drawing it then, or the compositor latches frames some time before the vsync. Neither shows in
/// the call's timing; with two buffers a present blocks until its own frame is shown, so its
/// return says where the frame went. **The lateness taken is one that a clear majority of the
/// last ``consistentFrames`` frames had** (``clearMajority``): what most of them had is the
/// pipeline's (a game bound by its GPU, 4 ms of work and 20 ms of drawing on a 60 Hz display, had
/// every target a period before its frame was shown while the drops were booked right: found by
/// review); a frame that differs was late or early by its own work and drawing, which no target
/// can foresee (how long a frame's work will take is not known at its start): a late one is a
/// drop, booked. Without a clear majority the lateness taken stays. A frame whose own work ran
/// late is explained by its call, and teaches nothing.
struct _ShownLateness {
    /// The frames whose lateness is weighed: 16 (the frames before the window fills count as on
    /// time, so a steady pipeline's lateness is taken after 10, 0.17 s at 60 Hz).
    /// Review found each simpler rule wrong. Taking the lateness of 8 frames alike in a row, a game
    /// whose frames missed their vsync about half the time by their own work (12 ms of GPU time
    /// after 1–7 ms of work at 60 Hz) learned a lateness from a chance run and kept it: 203 of 682
    /// targets a period late. Taking the least of the last 16, a game drawing 20 ms a frame with
    /// one light frame in 8 kept a lateness of 0: 625 of 701 targets a period early.
    static let consistentFrames = 16

    /// How many of the last ``consistentFrames`` frames must share a lateness for it to be taken:
    /// 10, a clear majority (five in eight). Taking the most common at once, frames whose GPU time
    /// ran 5, 5, 5, 20, 20, 20 ms at 60 Hz (eight against eight in every window, or nine against
    /// seven) flipped it 234 times in 790 frames, and 623 of 780 targets were off, where a lateness
    /// kept is off for half (review 9). A steady pipeline's is taken after 10 frames; a light
    /// frame in 8 does not move it.
    static let clearMajority = 10

    /// The most vsyncs of lateness taken: 4 (a frame drawn for longer than four periods after its
    /// present is a hitch, not a steady pipeline).
    static let mostVsyncs: Int64 = 4

    /// The lateness taken, in vsyncs: added to the model's targets.
    private(set) var vsyncs: Int64 = 0
    /// The lateness of the last ``consistentFrames`` frames, oldest overwritten first (0 before
    /// they were noted).
    private var window = [Int64](repeating: 0, count: consistentFrames)
    /// Where the next lateness goes in ``window``.
    private var next = 0
    /// How many frames in ``window`` had each lateness from 0 to ``mostVsyncs``.
    private var counts: [Int] = {
        var counts = [Int](repeating: 0, count: Int(mostVsyncs) + 1)
        counts[0] = consistentFrames
        return counts
    }()

    /// Forgets every frame noted, in place (the frame path allocates nothing): the lateness is 0,
    /// and the window holds frames on time.
    mutating func forget() {
        vsyncs = 0
        next = 0
        for index in window.indices { window[index] = 0 }
        for index in counts.indices { counts[index] = 0 }
        counts[0] = Self.consistentFrames
    }

    /// Notes a frame shown `late` vsyncs after the vsync its present call explains.
    mutating func note(late: Int64) {
        let late = min(max(0, late), Self.mostVsyncs)
        counts[Int(window[next])] -= 1
        counts[Int(late)] += 1
        window[next] = late
        next = (next + 1) % Self.consistentFrames
        // The lateness a clear majority had, if any (at most one can have it); else the one taken.
        for lateness in counts.indices where counts[lateness] >= Self.clearMajority {
            vsyncs = Int64(lateness)
        }
    }
}
