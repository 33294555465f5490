/// One scheduled fire of a timer in a loop's timer queue: ordered by deadline, then by scheduling
/// order (first in, first out). It is live while its timer's slot still holds its `sequence`;
/// rescheduling or unscheduling the timer makes it stale, and the queue drops it lazily.
///
/// Public only to FrameLink's benchmarks (`@_spi(Benchmarks)`), which compare the queue with
/// swift-collections' `Heap`.
@_spi(Benchmarks)
public struct _TimerEntry: Comparable, Sendable {
    /// When the timer is due, in nanoseconds on the loop's clock.
    public var deadline: Int64
    /// A number unique to this scheduling, increasing: it breaks ties and marks the entry live.
    public var sequence: UInt64
    /// The timer's slot in its loop's timer schedule.
    public var slot: Int32
    /// The deadline plus the timer's tolerance: the latest an idle loop may wake for it.
    public var latest: Int64

    /// Creates an entry.
    public init(deadline: Int64, sequence: UInt64, slot: Int32, latest: Int64) {
        self.deadline = deadline
        self.sequence = sequence
        self.slot = slot
        self.latest = latest
    }

    /// Earlier deadline first; for equal deadlines, the one scheduled first.
    public static func < (a: _TimerEntry, b: _TimerEntry) -> Bool {
        a.deadline < b.deadline || (a.deadline == b.deadline && a.sequence < b.sequence)
    }

    /// The same deadline and sequence.
    public static func == (a: _TimerEntry, b: _TimerEntry) -> Bool {
        a.deadline == b.deadline && a.sequence == b.sequence
    }
}
