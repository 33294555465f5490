import FrameLink
import Testing

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

    @Test("dropped frames agree with the exact formula for 200,000 seeded pairs and every pair of extremes")
    func droppedFramesNeverOverflow() {
        var random = SplitMix64(seed: 15)
        let extremes: [Int64] = [.min, .min + 1, -1, 0, 1, 2, 3, 16_666_667, .max / 3, .max / 2, .max - 1, .max]
        var pairs: [(Int64, Int64)] = []
        for interval in extremes { for period in extremes { pairs.append((interval, period)) } }
        for _ in 0..<100_000 {
            let period = Int64.random(in: 1...100_000_000, using: &random)
            pairs.append((Int64.random(in: 0...(period * 10), using: &random), period))
            pairs.append(
                (Int64.random(in: .min ... .max, using: &random), Int64.random(in: .min ... .max, using: &random)))
        }
        for (interval, period) in pairs {
            #expect(
                FrameRecord.droppedFrames(interval: interval, period: period)
                    == Self.reference(interval: interval, period: period),
                "interval \(interval), period \(period)")
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
