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
    /// The log that keeps the labelled callbacks' runs, when it asks for them.
    var callbackLog: FrameLog?

    /// Notes that `culprit` ran from `start` to `end` (nanoseconds of the loop's clock), and keeps
    /// the run in ``callbackLog`` when the callback has a label.
    mutating func note(_ culprit: @autoclosure () -> _Culprit, from start: Int64, to end: Int64) {
        note(culprit(), took: end - start)
        guard let callbackLog else { return }
        let label: String?
        switch culprit() {
        case .none: label = nil
        case .link(let link): label = link.label
        case .timer(let timer): label = timer.label
        case .handler(let name): label = name.description
        }
        if let label { callbackLog.append(FrameLog.CallbackSlice(label: label, start: start, duration: end - start)) }
    }

    /// Notes that `culprit` took `duration` nanoseconds; it becomes the culprit if it is the slowest.
    mutating func note(_ culprit: @autoclosure () -> _Culprit, took duration: Int64) {
        if duration > culpritDuration {
            self.culprit = culprit()
            culpritDuration = duration
        }
    }
}
