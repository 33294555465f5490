import FrameLink

/// What a display link saw at each frame of a run, kept until the run ends and the lab's ground
/// truth is complete.
@MainActor
final class _FrameRecorder {
    /// The frames so far, without their ground truth.
    private(set) var samples: [FrameSample] = []
    /// For each frame, the index in the lab's frames of the present made at its boundary.
    private(set) var presentIndices: [Int] = []
    /// For each frame, the display's refresh period then, in nanoseconds.
    private(set) var periods: [Int64] = []
    /// The error the lab threw for a change asked in a callback, if any (a callback cannot throw).
    var labError: FrameLinkError?

    /// Creates an empty recorder with room for `frames` frames.
    ///
    /// - Parameter frames: The frames the run will have.
    init(frames: Int) {
        samples.reserveCapacity(frames)
        presentIndices.reserveCapacity(frames)
        periods.reserveCapacity(frames)
    }

    /// Records a frame.
    ///
    /// - Parameters:
    ///   - sample: The frame as the loop saw it.
    ///   - presentIndex: The index in the lab's frames of the boundary's present.
    ///   - period: The display's refresh period, in nanoseconds.
    func record(_ sample: FrameSample, presentIndex: Int, period: Int64) {
        samples.append(sample)
        presentIndices.append(presentIndex)
        periods.append(period)
    }
}
