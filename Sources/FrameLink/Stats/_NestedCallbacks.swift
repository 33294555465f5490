/// Callbacks that run inside another callback of the frame — a ``GameClock``'s timers, which its
/// ``GameClock/update(at:)`` fires inside the update link that calls it — timed on their own so
/// that drop blame and traces name them, and their time is taken out of the enclosing callback's.
///
/// Runs nest (a game timer may update another clock, whose timers then run inside it): each run's
/// own time excludes the runs inside it, and the enclosing callback of the frame excludes only the
/// outermost ones, so no time counts twice.
@MainActor
final class _NestedCallbacks {
    /// One timed run of a nested timer.
    struct Run {
        var timer: FrameTimer
        var start: Int64
        var end: Int64
        /// The run's time less the runs inside it.
        var ownTime: Int64
    }

    /// The clock the runs are timed on: the loop's source.
    let source: any FrameSource
    /// The runs since the enclosing callback began, ordered by start (oldest first).
    private var runs: ContiguousArray<Run> = []
    /// How deep the run in progress is: 0 between runs, 1 inside an outermost one, …
    private var depth = 0
    /// The time of the runs finished at each depth (index 0: the outermost) since the run that
    /// encloses them began.
    private var innerTime: ContiguousArray<Int64> = [0]

    init(source: any FrameSource) {
        self.source = source
        runs.reserveCapacity(Self.expectedRuns)
        innerTime.reserveCapacity(Self.expectedDepth)
    }

    /// Room reserved up front, so that a frame's first nested timers allocate nothing.
    private static let expectedRuns = 8
    /// Nesting depth reserved up front: a timer that updates a clock whose timer updates another.
    private static let expectedDepth = 4

    /// The time on the loop's clock, in nanoseconds.
    var now: Int64 { source.now.nanoseconds }

    /// Notes that a run begins (its start is timed by the caller).
    func enter() {
        depth += 1
        if innerTime.count <= depth { innerTime.append(0) } else { innerTime[depth] = 0 }
    }

    /// Notes that the run of `timer` begun with ``enter()`` ran from `start` to `end`.
    func leave(_ timer: FrameTimer, from start: Int64, to end: Int64) {
        let inner = innerTime[depth]
        depth -= 1
        innerTime[depth] += end - start
        // Ordered by start: this run began before the runs inside it, which were noted first.
        var index = runs.count
        while index > 0 && runs[index - 1].start > start { index -= 1 }
        runs.insert(Run(timer: timer, start: start, end: end, ownTime: end - start - inner), at: index)
    }

    /// Whether no run waits to be booked.
    var isEmpty: Bool { runs.isEmpty }

    /// The total time of the outermost runs noted so far: what the enclosing callback did not
    /// spend itself.
    var outermostNanoseconds: Int64 { innerTime[0] }

    /// Hands over the runs noted so far, oldest first, and forgets them.
    func take(_ body: (Run) -> Void) {
        for run in runs { body(run) }
        runs.removeAll(keepingCapacity: true)
        innerTime[0] = 0
    }
}
