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
@Suite("DeadlineSource: the grid, late frames and the adaptive spin")
struct DeadlineSourceTests {
    static let period: Int64 = 16_666_667

    /// Paces `frames` frames at 60 Hz on `clock`, spinning `spin` (or adapting it); returns the
    /// frame timestamps and the source.
    func timestamps(
        on clock: any PacingClock, spin: Duration? = .microseconds(300), frames: Int
    ) -> (stamps: [Int64], loop: FrameLoop) {
        let source = DeadlineSource(refreshRate: .hz60, clock: clock)
        let loop = FrameLoop(source: source)
        loop.waiter.spin = spin
        var stamps: [Int64] = []
        let link = DisplayLink { link in stamps.append(link.timestamp.nanoseconds) }
        link.add(to: loop, forMode: .common)
        loop.run(frames: frames)
        link.invalidate()
        return (stamps, loop)
    }

    /// The grid point of frame `index` (the source's grid starts at its creation, time 0 here).
    func gridPoint(_ index: Int64) -> Int64 { FrameRate.hz60.offsetNanoseconds(ofFrame: index) }

    @Test("an interruption across a deadline makes that frame late, and the grid keeps its phase")
    func aLateFrameLeavesTheGridAlone() {
        // A burst from 290 µs before to 50 µs after the deadline of frame 7, every 100 ms thereafter
        // (frames 13, 19, …): each of those frames is 50 µs late, every other one exactly on time.
        let clock = InterferingClock(
            every: 100_000_000, first: gridPoint(7) - 290_000, length: 340_000, until: 3_000_000_000)
        let (stamps, loop) = timestamps(on: clock, frames: 120)
        #expect(stamps.count == 120)
        for (offset, stamp) in stamps.enumerated() {
            let index = Int64(offset + 1)
            let late: Int64 = index >= 7 && (index - 7) % 6 == 0 ? 50_000 : 0
            #expect(stamp == gridPoint(index) + late, "frame \(index)")
        }
        #expect(!loop.source.pacingDescription.contains("moved"))
    }

    @Test("a stall inside the wait makes the frame late by the stall; the next frame is on the grid")
    func aStallInsideTheWait() {
        // A 6 ms burst from 1 ms before the deadline of frame 10: the wait ends 5 ms late.
        let clock = InterferingClock(bursts: [gridPoint(10) - 1_000_000], length: 6_000_000)
        let (stamps, _) = timestamps(on: clock, frames: 20)
        #expect(stamps[8] == gridPoint(9))
        #expect(stamps[9] == gridPoint(10) + 5_000_000)
        #expect(stamps[10] == gridPoint(11))
    }

    @Test(
        "work that ends more than a quarter period after the next deadline: that frame is dropped",
        arguments: [(4_000_000, 10), (5_000_000, 11)] as [(Int64, Int64)])
    func lateWorkSkipsToTheNextGridPoint(overrun: Int64, nextFrame: Int64) {
        // Frame 9's work ends `overrun` after frame 10's deadline: 4 ms is under a quarter period
        // (4.17 ms), so frame 10 comes at once, late; 5 ms is over it, so the next frame is frame
        // 11's grid point, and 10 is dropped.
        let clock = VirtualClock()
        let source = DeadlineSource(refreshRate: .hz60, clock: clock)
        let loop = FrameLoop(source: source)
        loop.waiter.spin = .microseconds(300)
        var stamps: [Int64] = []
        let link = DisplayLink { link in
            stamps.append(link.timestamp.nanoseconds)
            if stamps.count == 9 {
                clock.sleep(untilNanoseconds: FrameRate.hz60.offsetNanoseconds(ofFrame: 10) + overrun)
            }
        }
        link.add(to: loop, forMode: .common)
        loop.run(frames: 12)
        link.invalidate()
        #expect(stamps[8] == gridPoint(9))
        let late = nextFrame == 10 ? overrun : 0
        #expect(stamps[9] == gridPoint(nextFrame) + late)
        #expect(stamps[10] == gridPoint(nextFrame + 1))
    }

    @Test(
        "the adaptive spin covers three times the 98th percentile of oversleeps plus 0.1 ms, within its bounds",
        arguments: [
            // A quiet machine: 10 µs oversleeps want 0.13 ms; the floor is 0.2 ms.
            (10_000, 200_000),
            // 150 µs oversleeps: 3 × 150 + 100 = 550 µs, under the budget (150 + 16,666,667 / 28).
            (150_000, 550_000),
            // 1 ms oversleeps want 3.1 ms; the CPU budget allows the median plus 1/28 of the period.
            (1_000_000, 1_000_000 + 16_666_667 / 28),
        ] as [(Int64, Int64)])
    func adaptiveSpin(oversleep: Int64, spin: Int64) {
        let (_, loop) = timestamps(on: OversleepingClock(oversleep: oversleep), spin: nil, frames: 40)
        #expect(loop.waiter.currentSpin == .nanoseconds(spin))
    }

    @Test("a source that never spins is late on every frame by its wake-up latency, on a steady grid")
    func aSourceWithoutSpinLeavesItsGridAlone() {
        let (stamps, _) = timestamps(on: OversleepingClock(oversleep: 150_000), spin: .zero, frames: 400)
        // Every frame is 150 µs late, so every interval after the first is exactly one period.
        let intervals = zip(stamps.dropFirst(2), stamps.dropFirst()).map { $0 - $1 }
        #expect(intervals.count == 398)
        #expect(intervals.allSatisfy { abs($0 - Self.period) <= 1 })
    }
}
