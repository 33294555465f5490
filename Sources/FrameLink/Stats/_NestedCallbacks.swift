/// Callbacks that run inside another callback of the frame — a ``GameClock``'s timers, which its
/// ``GameClock/update(at:)`` fires inside the update link that calls it — timed on their own so
/// that drop blame and traces name them, and their time is taken out of the enclosing callback's.
@MainActor
final class _NestedCallbacks {
    /// One timed run of a nested timer.
    struct Run {
        var timer: FrameTimer
        var start: Int64
        var end: Int64
    }

    /// The clock the runs are timed on: the loop's source.
    let source: any FrameSource
    /// The runs since the enclosing callback began, in the order they ran.
    private var runs: ContiguousArray<Run> = []

    init(source: any FrameSource) {
        self.source = source
        runs.reserveCapacity(Self.expectedRunsPerCallback)
    }

    /// Room reserved up front, so that a frame's first nested timers allocate nothing.
    private static let expectedRunsPerCallback = 8

    /// The time on the loop's clock, in nanoseconds.
    var now: Int64 { source.now.nanoseconds }

    /// Notes that `timer` ran from `start` to `end`.
    func note(_ timer: FrameTimer, from start: Int64, to end: Int64) {
        runs.append(Run(timer: timer, start: start, end: end))
    }

    /// Whether no run waits to be booked.
    var isEmpty: Bool { runs.isEmpty }

    /// The total time of the runs noted so far.
    var totalNanoseconds: Int64 {
        var total: Int64 = 0
        for run in runs { total += run.end - run.start }
        return total
    }

    /// Hands over the runs noted so far, oldest first, and forgets them.
    func take(_ body: (Run) -> Void) {
        for run in runs { body(run) }
        runs.removeAll(keepingCapacity: true)
    }
}
