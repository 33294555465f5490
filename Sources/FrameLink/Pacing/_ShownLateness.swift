/// How many vsyncs later than their present calls explain frames are shown: what the GPU's work
/// after present (or a compositor's latch deadline) adds, learned where a return reveals it.
///
/// A FIFO chain shows a frame at the first vsync after its present, unless the GPU is still
/// drawing it then, or the compositor latches frames some time before the vsync. Neither shows in
/// the call's timing; with two buffers a present blocks until its own frame is shown, so its
/// return says where the frame went. **The lateness taken is the least of the last
/// ``consistentFrames`` frames'**: what every one of them had is the pipeline's (a game bound by
/// its GPU, 4 ms of work and 20 ms of drawing on a 60 Hz display, had every target a period before
/// its frame was shown while the drops were booked right: found by review); what only some had is
/// those frames' own lateness, drops the statistics book, which no target can foresee (how long a
/// frame's work and drawing will take is not known at its start). A frame whose own work ran late
/// is explained by its call, and teaches nothing.
struct _ShownLateness {
    /// The frames whose least lateness is taken: 16. (Taking the lateness of 8 frames alike in a
    /// row instead, a game whose frames missed their vsync about half the time by their own work,
    /// 12 ms of GPU time after 1–7 ms of work at 60 Hz, learned a lateness from a chance run of 8
    /// and kept it until the next: 203 of 682 targets a period late. The least of the last 8 still
    /// set 5 of 492 late, after chance runs; 16 late in a row at even odds come once in 65,536
    /// frames. A steady pipeline's lateness is taken a quarter of a second later at 60 Hz.)
    static let consistentFrames = 16

    /// The most vsyncs of lateness taken: 4 (a frame drawn for longer than four periods after its
    /// present is a hitch, not a steady pipeline).
    static let mostVsyncs: Int64 = 4

    /// The lateness taken, in vsyncs: added to the model's targets.
    var vsyncs: Int64 {
        var taken: Int64 = 0
        while taken < Self.mostVsyncs && framesAtLeast[Int(taken)] >= Self.consistentFrames { taken += 1 }
        return taken
    }
    /// For each lateness from 1 to ``mostVsyncs`` (at index lateness − 1), how many frames in a row
    /// up to the last were at least that late.
    private var framesAtLeast = [Int](repeating: 0, count: Int(mostVsyncs))

    /// Notes a frame shown `late` vsyncs after the vsync its present call explains.
    mutating func note(late: Int64) {
        for index in framesAtLeast.indices {
            framesAtLeast[index] = late > Int64(index) ? framesAtLeast[index] + 1 : 0
        }
    }
}
