import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// A cap on a variable-refresh display (a rate the game asked the host for, below the display's
/// maximum) is paced directly, as a requested range is: each present held to its paced time.
@Suite("Variable refresh: a cap is a rate asked for")
@MainActor
struct VariableRefreshCapTests {
    /// Frames judged from: 200 (the first frame has nothing shown before it to be paced from).
    static let judgedFrom: Int64 = 200

    /// What a run on a 44–144 Hz display capped at `cap` showed from frame 200 on.
    struct Outcome {
        /// The intervals between frames shown, and how many were off the cap's period by over
        /// 100 µs.
        var shown = 0
        var uneven = 0
        var dropped = 0
        var missed = 0
        var description = ""
    }

    static func run(cap: FrameRate, seed: UInt64) -> Outcome {
        let lab = DisplayLab(refresh: .variable(minimum: FrameRate(numerator: 44), maximum: .hz144))
        let source = lab.makeSource(nominalRate: cap)
        source.capsAtDisplayRefreshRate = true
        let loop = FrameLoop(source: source)
        var random = SplitMix64(seed: seed)
        let period = cap.periodNanoseconds
        var droppedBefore = 0
        DisplayLink { link in
            if link.frameIndex == Self.judgedFrom { droppedBefore = loop.statistics.droppedFrames }
            // Work between 40 % and 95 % of the cap's period: presented as it ends, the frames
            // would be shown unevenly, and some after the display's slowest refresh ran out.
            let unit = Double(random.next() >> 11) / Double(1 << 53)
            lab.work(for: .nanoseconds(Int64((0.4 + unit * 0.55) * Double(period))))
        }.add(to: loop, forMode: .common)
        loop.run(frames: 900)
        var outcome = Outcome()
        let shown = lab.frames.dropFirst(Int(Self.judgedFrom)).compactMap { $0.shownAt?.nanoseconds }
        for (earlier, later) in zip(shown, shown.dropFirst()) {
            outcome.shown += 1
            if abs(later - earlier - period) > 100_000 { outcome.uneven += 1 }
        }
        outcome.dropped = loop.statistics.droppedFrames - droppedBefore
        outcome.missed = lab.frames.dropFirst(Int(Self.judgedFrom)).reduce(0) { $0 + $1.missedRefreshes }
        outcome.description = source.pacingDescription
        return outcome
    }

    @Test(
        "frames whose work varies are shown evenly at the cap, and no refresh shows an old frame",
        arguments: [(cap: FrameRate(numerator: 45), seed: UInt64(1)), (cap: 60, seed: 2), (cap: 100, seed: 3)])
    func evenAtTheCap(cap: FrameRate, seed: UInt64) {
        let outcome = Self.run(cap: cap, seed: seed)
        #expect(outcome.shown > 600)
        #expect(
            outcome.uneven == 0,
            "\(outcome.uneven) of \(outcome.shown) shown off the cap's period: \(outcome.description)")
        #expect(outcome.missed == 0, "the display showed an old frame \(outcome.missed) times: \(outcome.description)")
        #expect(outcome.dropped == outcome.missed)
    }

    /// A cap at a 44–144 Hz display's maximum while light frames (2 ms) follow its vsync, lowered
    /// to 72 Hz at frame 400.
    @Test("a cap lowered below a variable display's maximum while frames follow its vsync: shown evenly at the new cap")
    func capLoweredWhileFollowingTheVsync() {
        let lab = DisplayLab(
            refresh: .variable(minimum: FrameRate(numerator: 44), maximum: .hz144),
            jitter: .exponential(mean: .microseconds(150)), seed: 9)
        let source = lab.makeSource(nominalRate: .hz144)
        source.capsAtDisplayRefreshRate = true
        let loop = FrameLoop(source: source)
        let lowered: Int64 = 400
        var modeBefore: PresentSource.Mode?
        DisplayLink { link in
            if link.frameIndex == lowered {
                modeBefore = source.mode
                source.displayRefreshRate = FrameRate(numerator: 72)
            }
            lab.work(for: .milliseconds(2))
        }.add(to: loop, forMode: .common)
        loop.run(frames: 800)
        #expect(modeBefore == .vsync, "the frames followed the vsync before the cap was lowered")
        let period = FrameRate(numerator: 72).periodNanoseconds
        let shown = lab.frames[Int(lowered + 20)..<790].compactMap { $0.shownAt?.nanoseconds }
        let uneven = zip(shown, shown.dropFirst()).filter { abs($1 - $0 - period) > 100_000 }.count
        #expect(uneven == 0, "\(uneven) of \(shown.count - 1) intervals off 13.9 ms; \(source.pacingDescription)")
    }
}
