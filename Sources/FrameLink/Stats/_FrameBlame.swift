/// What one frame's work cost, phase by phase, and which callback took longest: booked with the
/// interval that ends at the next frame, so that a drop names what made it.
@MainActor
struct _FrameBlame {
    /// The duration of each work phase (the wait phases are filled in when the interval is booked).
    var phases = PhaseDurations()
    /// The slowest callback or handler so far.
    private(set) var culprit: _Culprit = .none
    /// How long ``culprit`` took, in nanoseconds.
    private(set) var culpritDuration: Int64 = 0

    /// Notes that `culprit` took `duration` nanoseconds; it becomes the culprit if it is the slowest.
    mutating func note(_ culprit: @autoclosure () -> _Culprit, took duration: Int64) {
        if duration > culpritDuration {
            self.culprit = culprit()
            culpritDuration = duration
        }
    }
}
