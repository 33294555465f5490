import FrameLink
import Testing

/// A virtual clock on which something runs at a fixed rate and holds the pacing thread while it
/// runs: a sleep (or spin) that is under way when a burst starts ends only when the burst ends.
@MainActor
final class InterferingClock: PacingClock {
    private(set) var now: Int64 = 0
    /// When each burst starts (absolute times, ascending).
    private var bursts: [Int64]
    /// How long the bursts last, in turn.
    private let lengths: [Int64]
    private var burstsSeen = 0

    init(bursts: [Int64], length: Int64) {
        self.bursts = bursts
        lengths = [length]
    }

    /// Bursts every `every`, starting at `first`, until `end`, lasting `lengths` in turn.
    init(every: Int64, first: Int64, lengths: [Int64], until end: Int64) {
        bursts = Array(stride(from: first, to: end, by: Int(every)))
        self.lengths = lengths
    }

    /// Bursts every `every`, starting at `first`, until `end`.
    convenience init(every: Int64, first: Int64, length: Int64, until end: Int64) {
        self.init(every: every, first: first, lengths: [length], until: end)
    }

    func nanoseconds() -> Int64 { now }
    var sleepsInRealTime: Bool { false }

    func sleep(untilNanoseconds deadline: Int64) {
        var target = max(now, deadline)
        while let burst = bursts.first, burst <= target {
            bursts.removeFirst()
            let length = lengths[burstsSeen % lengths.count]
            burstsSeen += 1
            if burst + length > target { target = burst + length }
        }
        now = target
    }
}

/// A virtual clock whose every sleep ends `oversleep` nanoseconds after its deadline.
@MainActor
final class OversleepingClock: PacingClock {
    private(set) var now: Int64 = 0
    let oversleep: Int64

    init(oversleep: Int64) { self.oversleep = oversleep }

    func nanoseconds() -> Int64 { now }
    var sleepsInRealTime: Bool { false }

    func sleep(untilNanoseconds deadline: Int64) {
        if deadline > now { now = deadline + oversleep }
    }
}

@MainActor
@Suite("DeadlineSource: periodic interference")
struct DeadlineSourceTests {
    static let period: Int64 = 16_666_667

    /// Paces `frames` frames at 60 Hz on `clock`, spinning `spin`; returns the frame timestamps
    /// and the source.
    func timestamps(
        on clock: any PacingClock, spin: Duration = .microseconds(300), frames: Int, avoiding: Bool = true
    ) -> (stamps: [Int64], source: DeadlineSource) {
        let source = DeadlineSource(refreshRate: .hz60, spin: spin, clock: clock)
        source.avoidsPeriodicInterference = avoiding
        let loop = FrameLoop(source: source)
        var stamps: [Int64] = []
        let link = DisplayLink { link in stamps.append(link.timestamp.nanoseconds) }
        link.add(to: loop, forMode: .common)
        loop.run(frames: frames)
        link.invalidate()
        return (stamps, source)
    }

    /// Paces `frames` frames at 60 Hz on `clock`; returns how many intervals missed the period by
    /// more than 20 µs (after the first 30 frames, which the detection may need) and the source.
    func pace(on clock: InterferingClock, frames: Int, avoiding: Bool) -> (late: Int, source: DeadlineSource) {
        let (stamps, source) = timestamps(on: clock, frames: frames, avoiding: avoiding)
        let intervals = zip(stamps.dropFirst(30), stamps.dropFirst(29)).map { $0 - $1 }
        return (intervals.count { abs($0 - Self.period) > 20_000 }, source)
    }

    @Test("a 10 Hz burst on every sixth deadline: the grid moves once, and frames are on time after")
    func periodicInterferenceIsAvoided() {
        // Bursts of 60 µs every 100 ms, starting 10 µs before the deadlines of frames 6, 12, 18, …
        let clock = InterferingClock(
            every: 100_000_000, first: 100_000_000 - 10_000, length: 60_000, until: 20_000_000_000)
        let (late, source) = pace(on: clock, frames: 300, avoiding: true)
        #expect(source.interferenceShifts == 1)
        #expect(late == 0, "after the grid moved, no interval misses the period")
        #expect(source.pacingDescription.contains("grid moved 1× away from interruptions"))

        let control = InterferingClock(
            every: 100_000_000, first: 100_000_000 - 10_000, length: 60_000, until: 20_000_000_000)
        let (lateWithout, sourceWithout) = pace(on: control, frames: 300, avoiding: false)
        #expect(sourceWithout.interferenceShifts == 0)
        #expect(lateWithout > 60, "the control: every sixth frame is 50 µs late (two intervals each)")
    }

    @Test("near misses at scattered offsets do not move the grid")
    func scatteredNearMissesAreLeftAlone() {
        // Bursts of 20 µs that end 10 µs before the deadlines of frames 7, 20, 27, 41, 44, 70, each
        // starting at another offset (30, 36, 42, … µs before the deadline): no frame is late.
        let frames: [Int64] = [7, 20, 27, 41, 44, 70]
        let bursts = frames.enumerated().map { turn, frame in
            Int64((Double(frame) * 1e9 / 60).rounded()) - 30_000 - Int64(turn) * 6_000
        }
        let clock = InterferingClock(bursts: bursts, length: 20_000)
        let (late, source) = pace(on: clock, frames: 120, avoiding: true)
        #expect(source.interferenceShifts == 0)
        #expect(late == 0)
    }

    @Test("interruptions that make frames late move the grid at most once every 120 frames")
    func movesAreRateLimited() {
        // Bursts from 290 µs before to 20 µs after the deadlines of frames 7, 20, 27, 41, 44, 70,
        // 150 and 300: each makes its frame late, wherever in the spin the grid has moved its
        // deadline. The grid moves at frames 7, 150 and 300; the others come too soon after one.
        let frames: [Int64] = [7, 20, 27, 41, 44, 70, 150, 300]
        let bursts = frames.map { Int64((Double($0) * 1e9 / 60).rounded()) - 290_000 }
        let clock = InterferingClock(bursts: bursts, length: 310_000)
        let (stamps, source) = timestamps(on: clock, frames: 400)
        #expect(source.interferenceShifts == 3)
        // Each late frame spoils two intervals; a move spoils no more. A move is earlier and within
        // the 300 µs spin, so no interval is off by more than that plus how late its frame was
        // (at most 120 µs here: the bursts end 20 µs after the first grid's deadlines).
        let errors = zip(stamps.dropFirst(), stamps).map { abs($0 - $1 - Self.period) }
        #expect(errors.count { $0 > 1 } == 2 * frames.count)
        #expect(errors.allSatisfy { $0 <= 420_001 })
    }

    @Test("a 1 kHz interruption: the grid moves between its bursts, not onto the next one")
    func theGridMovesToTheClearestPoint() {
        // Bursts of 30 µs every millisecond, from 10 µs before each whole millisecond: the deadline
        // of every third frame (50 ms, 100 ms, …) falls inside one. Moving 1 ms would land on the
        // next burst; the source moves its deadlines to the middle of the clear part of the spin.
        let clock = InterferingClock(every: 1_000_000, first: 990_000, length: 30_000, until: 20_000_000_000)
        let (stamps, source) = timestamps(on: clock, frames: 600)
        #expect(source.interferenceShifts == 1)
        let errors = zip(stamps.dropFirst(), stamps).map { abs($0 - $1 - Self.period) }
        // Frame 3 is 20 µs late; the interval after it is 160 µs short (the move) less those 20 µs.
        #expect(errors.count { $0 > 1 } == 2)
        #expect(abs(errors[1] - 20_000) <= 1 && abs(errors[2] - 180_000) <= 1)
    }

    @Test("an interruption that recurs just before every sixth deadline moves the grid before a frame is late")
    func recurringNearMissesMoveTheGrid() {
        // Bursts 25 µs before the deadlines of frames 6, 12, 18, …; every third lasts 40 µs and so
        // makes its frame 15 µs late, the others end 10 µs before the deadline.
        func clock() -> InterferingClock {
            InterferingClock(
                every: 100_000_000, first: 100_000_000 - 25_000, lengths: [15_000, 15_000, 40_000],
                until: 20_000_000_000)
        }
        let (stamps, source) = timestamps(on: clock(), frames: 300)
        #expect(source.interferenceShifts == 1)
        let errors = zip(stamps.dropFirst(), stamps).map { abs($0 - $1 - Self.period) }
        // The only interval off the period is the move itself, from frame 12 (the second near
        // miss) to frame 13. (Stamps start at frame 1, so that interval is errors[11].) It is
        // 170 µs short: the middle of the 300 µs the spin watched, between its start and the burst.
        #expect(errors.count { $0 > 1 } == 1)
        #expect(errors.firstIndex { $0 > 1 } == 11)
        #expect(abs(stamps[12] - stamps[11] - (Self.period - 170_000)) <= 1, "the grid moved 170 µs earlier")

        let (stampsWithout, sourceWithout) = timestamps(on: clock(), frames: 300, avoiding: false)
        #expect(sourceWithout.interferenceShifts == 0)
        let errorsWithout = zip(stampsWithout.dropFirst(), stampsWithout).map { abs($0 - $1 - Self.period) }
        #expect(errorsWithout.count { $0 > 1 } == 32, "the control: frames 18, 36, … are late, two intervals each")
    }

    @Test("a source that never spins is late on every frame, and does not move its grid for that")
    func aSourceWithoutSpinLeavesItsGridAlone() {
        let (stamps, source) = timestamps(on: OversleepingClock(oversleep: 150_000), spin: .zero, frames: 400)
        #expect(source.interferenceShifts == 0)
        // Every frame is 150 µs late, so every interval after the first is exactly one period.
        let intervals = zip(stamps.dropFirst(2), stamps.dropFirst()).map { $0 - $1 }
        #expect(intervals.count == 398)
        #expect(intervals.allSatisfy { abs($0 - Self.period) <= 1 })
    }
}
