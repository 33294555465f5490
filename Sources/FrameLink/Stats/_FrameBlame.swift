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
    /// Callbacks timed inside the callback being noted (a game clock's timers inside an update
    /// link): noted under their own names, their time taken out of the enclosing callback's.
    var nested: _NestedCallbacks?

    /// Notes that `culprit` ran from `start` to `end` (nanoseconds of the loop's clock), and keeps
    /// the run in ``callbackLog`` when the callback has a label. Callbacks that ran inside it
    /// (``nested``) are noted after it under their own names, and their time is not its own.
    mutating func note(_ culprit: @autoclosure () -> _Culprit, from start: Int64, to end: Int64) {
        guard let nested, !nested.isEmpty else {
            noteRun(culprit(), from: start, to: end, ownTime: end - start)
            return
        }
        noteRun(culprit(), from: start, to: end, ownTime: end - start - nested.outermostNanoseconds)
        nested.take { run in noteRun(.timer(run.timer), from: run.start, to: run.end, ownTime: run.ownTime) }
    }

    /// Notes the runs `nested` holds as callbacks of their own (they ran outside any other
    /// callback: between frames), and forgets them.
    mutating func noteRuns(of nested: _NestedCallbacks) {
        nested.take { run in noteRun(.timer(run.timer), from: run.start, to: run.end, ownTime: run.ownTime) }
    }

    /// Notes one run that took `ownTime` of its own between `start` and `end`.
    private mutating func noteRun(
        _ culprit: @autoclosure () -> _Culprit, from start: Int64, to end: Int64, ownTime: Int64
    ) {
        note(culprit(), took: ownTime)
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
