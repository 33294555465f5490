/// How many vsyncs later than their present calls explain frames are shown: what the GPU's work
/// after present (or a compositor's latch deadline) adds, learned where a return reveals it.
///
/// A FIFO chain shows a frame at the first vsync after its present, unless the GPU is still
/// drawing it then, or the compositor latches frames some time before the vsync. Neither shows in
/// the call's timing; with two buffers a present blocks until its own frame is shown, so its
/// return says where the frame went. When that is the same number of vsyncs later than the call
/// explains for ``consistentFrames`` frames in a row, targets are set that much later: a game
/// bound by its GPU (4 ms of work, 20 ms of drawing) on a 60 Hz display had every target a period
/// before its frame was shown, while the drops were booked right (found by review). A frame whose
/// own work ran late is explained by its call, and teaches nothing.
struct _ShownLateness {
    /// Frames in a row shown equally late before that lateness is taken: 8 (frames that hover
    /// about a period show on time and late at random; eight alike in a row come about once in 256
    /// frames there, and only with a present called within the vsync's own interval).
    static let consistentFrames = 8

    /// The most vsyncs of lateness taken: 4 (a frame drawn for longer than four periods after its
    /// present is a hitch, not a steady pipeline).
    static let mostVsyncs: Int64 = 4

    /// The lateness taken, in vsyncs: added to the model's targets.
    private(set) var vsyncs: Int64 = 0
    /// The lateness of the last frames noted.
    private var runLateness: Int64 = 0
    /// How many frames in a row had it.
    private var runLength = 0

    /// Notes a frame shown `late` vsyncs after the vsync its present call explains.
    mutating func note(late: Int64) {
        let late = min(max(0, late), Self.mostVsyncs)
        runLength = late == runLateness ? runLength + 1 : 1
        runLateness = late
        if runLength >= Self.consistentFrames { vsyncs = late }
    }
}
