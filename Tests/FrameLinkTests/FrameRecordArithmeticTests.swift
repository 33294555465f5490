import Testing

@testable import FrameLink

/// Numbers from outside the program (a replayed frame log) never make the arithmetic trap.
@MainActor
@Suite("Frame record arithmetic")
struct FrameRecordArithmeticTests {
    /// 0.1's formula, evaluated in 128 bits so that it cannot overflow: the reference.
    static func reference(interval: Int64, period: Int64) -> Int {
        let interval = Int128(interval)
        let period = Int128(period)
        guard period > 0, interval * 2 > period * 3 else { return 0 }
        return Int((interval + period / 2) / period) - 1
    }

    /// (interval, period) pairs: every pair of extremes, and 200,000 seeded ones (half of them an
    /// interval within ten periods of a period up to 100 ms, half anything at all).
    static func pairs(seed: UInt64) -> [(Int64, Int64)] {
        var random = SplitMix64(seed: seed)
        let extremes: [Int64] = [.min, .min + 1, -1, 0, 1, 2, 3, 16_666_667, .max / 3, .max / 2, .max - 1, .max]
        var pairs: [(Int64, Int64)] = []
        for interval in extremes { for period in extremes { pairs.append((interval, period)) } }
        for _ in 0..<100_000 {
            let period = Int64.random(in: 1...100_000_000, using: &random)
            pairs.append((Int64.random(in: 0...(period * 10), using: &random), period))
            pairs.append(
                (Int64.random(in: .min ... .max, using: &random), Int64.random(in: .min ... .max, using: &random)))
        }
        return pairs
    }

    @Test("dropped frames agree with the exact formula for 200,000 seeded pairs and every pair of extremes")
    func droppedFramesNeverOverflow() {
        for (interval, period) in Self.pairs(seed: 15) {
            #expect(
                FrameRecord.droppedFrames(interval: interval, period: period)
                    == Self.reference(interval: interval, period: period),
                "interval \(interval), period \(period)")
        }
    }

    @Test(
        "the most drops an interval holds: one per whole period beyond the first",
        arguments: [
            // A variable-refresh display's slowest refresh (22.46 ms at 44.52 Hz) ran out within a
            // frame capped at 48 Hz (20.83 ms): a drop in 1.44 periods, which rounds to none.
            (interval: Int64(29_902_000), period: Int64(20_833_333), most: 1),
            (16_666_667, 16_666_667, 0), (16_666_668, 16_666_667, 1), (33_333_334, 16_666_667, 1),
            (33_333_335, 16_666_667, 2), (0, 16_666_667, 0), (10, 0, 0), (10, -5, 0), (.max, 1, Int(Int64.max - 1)),
            (.min, 1, 0), (.max, .max, 0),
        ])
    func mostDroppedFrames(interval: Int64, period: Int64, most: Int) {
        #expect(FrameRecord.mostDroppedFrames(interval: interval, period: period) == most)
    }

    @Test(
        "a known count is kept within the most an interval holds, which is never fewer than rounding counts (every pair of extremes, 200,000 seeded pairs)"
    )
    func knownDropsWithinTheBound() {
        for (interval, period) in Self.pairs(seed: 16) {
            let counted = FrameRecord.droppedFrames(interval: interval, period: period)
            let most = FrameRecord.mostDroppedFrames(interval: interval, period: period)
            // A log written before keeps reading: what rounding counted never exceeds the bound.
            #expect(counted <= most, "interval \(interval), period \(period)")
            #expect(FrameRecord.droppedFrames(interval: interval, period: period, known: .max) == most)
        }
    }

    @Test("replaying a log whose first frame would begin before the clock's range throws instead of trapping")
    func replayStartOutOfRange() throws {
        let record = FrameRecord(
            index: 1, timestamp: .min, interval: 1, droppedFrames: 0, phases: PhaseDurations())
        let log = FrameLog(records: [record], periodNanoseconds: 16_666_667)
        #expect(throws: FrameLinkError.self) { try ManualFrameSource(replaying: log) }
    }
}
