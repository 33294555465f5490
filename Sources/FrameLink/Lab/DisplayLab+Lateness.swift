// How much later than their present calls allow the lab's frames were shown: the truth a judge of
// targets needs when frames take GPU time or miss a latch deadline.
extension DisplayLab {
    /// The frames before one whose lateness is weighed (``pipelineLateness(beforeFrame:)``): 16,
    /// as many as `PresentSource` learns it from.
    public static let pipelineFrames = _ShownLateness.consistentFrames

    /// How many of the ``pipelineFrames`` frames before one must share a lateness for it to be the
    /// pipeline's: 10, a clear majority, as `PresentSource` takes it.
    public static let pipelineMajority = _ShownLateness.clearMajority

    /// How many refreshes later than its present call allows frame `index` (of ``frames``) was
    /// shown: 0 for a frame shown at the first refresh after its call and after the frame before
    /// it; more when the GPU was still drawing it (``gpuTime``) or it missed the
    /// ``latchDeadline``. `nil` if it was not shown, or the refresh it was shown on is unknown.
    ///
    /// - Parameter index: The frame's position in ``frames``.
    public func refreshesLate(frame index: Int) -> Int? {
        guard frames.indices.contains(index), let shown = frames[index].refresh else { return nil }
        // The first refresh after the call (numbered from 1, as `LabFrame.refresh`).
        let call = frames[index].presentedAt
        var low = 0
        var high = refreshTimes.count
        while low < high {
            let middle = (low + high) / 2
            if refreshTimes[middle] <= call { low = middle + 1 } else { high = middle }
        }
        var earliest = Int64(low + 1)
        if index > 0, let before = frames[index - 1].refresh { earliest = max(earliest, before + 1) }
        return Int(clamping: max(0, shown - earliest))
    }

    /// The lateness at least ``pipelineMajority`` of the ``pipelineFrames`` frames before frame
    /// `index` had (``refreshesLate(frame:)``): what the pipeline adds to every frame, which a
    /// pacer can learn and put in its targets. A frame whose own lateness differs was late (or
    /// early) by its own work and drawing, which no target can foresee. `nil` when no lateness has
    /// such a majority (frames alternating, a pattern, a change under way): then no lateness is the
    /// pipeline's.
    ///
    /// - Parameter index: The frame's position in ``frames``.
    public func pipelineLateness(beforeFrame index: Int) -> Int? {
        var counts: [Int: Int] = [:]
        for before in max(0, index - Self.pipelineFrames)..<min(index, frames.count) {
            if let late = refreshesLate(frame: before) { counts[late, default: 0] += 1 }
        }
        return counts.first { $0.value >= Self.pipelineMajority }?.key
    }
}
