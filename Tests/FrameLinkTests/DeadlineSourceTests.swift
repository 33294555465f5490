import FrameLink
import Testing

/// A virtual clock on which something runs at a fixed rate and holds the pacing thread while it
/// runs: a sleep (or spin) that is under way when a burst starts ends only when the burst ends.
@MainActor
final class InterferingClock: PacingClock {
    private(set) var now: Int64 = 0
    /// When each burst starts (absolute times, ascending).
    private var bursts: [Int64]
    private let length: Int64

    init(bursts: [Int64], length: Int64) {
        self.bursts = bursts
        self.length = length
    }

    /// Bursts every `every`, starting at `first`, until `end`.
    convenience init(every: Int64, first: Int64, length: Int64, until end: Int64) {
        self.init(bursts: Array(stride(from: first, to: end, by: Int(every))), length: length)
    }

    func nanoseconds() -> Int64 { now }

    func sleep(untilNanoseconds deadline: Int64) {
        var target = max(now, deadline)
        while let burst = bursts.first, burst <= target {
            bursts.removeFirst()
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
        #expect(source.pacingDescription.contains("periodic interference"))

        let control = InterferingClock(
            every: 100_000_000, first: 100_000_000 - 10_000, length: 60_000, until: 20_000_000_000)
        let (lateWithout, sourceWithout) = pace(on: control, frames: 300, avoiding: false)
        #expect(sourceWithout.interferenceShifts == 0)
        #expect(lateWithout > 60, "the control: every sixth frame is 50 µs late (two intervals each)")
    }

    @Test("late frames without a fixed spacing do not move the grid")
    func irregularLatenessIsLeftAlone() {
        // Bursts just before the deadlines of frames 7, 20, 27, 41, 44, 70: no three at one spacing.
        let frames: [Int64] = [7, 20, 27, 41, 44, 70]
        let bursts = frames.map { Int64((Double($0) * 1e9 / 60).rounded()) - 10_000 }
        let clock = InterferingClock(bursts: bursts, length: 60_000)
        let (_, source) = pace(on: clock, frames: 120, avoiding: true)
        #expect(source.interferenceShifts == 0)
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
