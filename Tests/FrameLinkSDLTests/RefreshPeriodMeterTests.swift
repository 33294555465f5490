import Testing

@testable import FrameLink
@testable import FrameLinkSDL

/// The refresh period measured from GLX's refreshes (`_RefreshPeriodMeter`), rule by rule, on
/// refresh sequences the tests make (times in nanoseconds, counted in microseconds as a UST is).
@Suite struct RefreshPeriodMeterTests {
    /// Feeds `count` refreshes of `period` from `start` (MSC from `msc`), in microseconds, read every
    /// `every` refreshes.
    static func feed(
        _ meter: inout _RefreshPeriodMeter, period: Int64, count: Int64, start: Int64, msc: Int64, every: Int64 = 1
    ) -> (time: Int64, msc: Int64) {
        var index: Int64 = 0
        while index < count {
            meter.note(.init(time: (start + index * period) / 1_000 * 1_000, msc: msc + index))
            index += every
        }
        return (start + count * period, msc + count)
    }

    /// A steady rate is stated once it has held eight refreshes, within the UST's unit over the
    /// refreshes read, read every refresh or every third.
    @Test(arguments: [(Int64(16_666_667), Int64(1)), (6_944_444, 1), (16_683_350, 3), (33_333_333, 2)])
    func aSteadyRateIsStatedOnceConfirmed(period: Int64, every: Int64) {
        var meter = _RefreshPeriodMeter()
        _ = Self.feed(&meter, period: period, count: 8, start: 5_000_000_000, msc: 100, every: every)
        #expect(meter.period == nil || every > 1, "not before eight refreshes agree")
        _ = Self.feed(&meter, period: period, count: 600, start: 5_000_000_000, msc: 100, every: every)
        let measured = meter.period ?? 0
        #expect(abs(measured - period) <= 2, "\(measured) for \(period)")
    }

    /// A mode change (60 to 144 Hz) is followed at once, not averaged; a counter that jumps (200
    /// refreshes in one step) is not measured and leaves the rate as it was; a change of 0.1 % (60 to
    /// 59.94 Hz) is followed within two windows; refreshes whose period changes with every frame
    /// (variable refresh) state none.
    @Test func changesJumpsAndVariableRates() {
        var meter = _RefreshPeriodMeter()
        var at = Self.feed(&meter, period: 16_666_667, count: 600, start: 5_000_000_000, msc: 100)
        at = Self.feed(&meter, period: 6_944_444, count: 20, start: at.time, msc: at.msc)
        #expect(abs((meter.period ?? 0) - 6_944_444) <= 1_000, "\(String(describing: meter.period))")
        // A jump of 200 in one step, then the same rate.
        meter.note(.init(time: at.time / 1_000 * 1_000, msc: at.msc + 200))
        at = Self.feed(&meter, period: 6_944_444, count: 30, start: at.time + 6_944_444, msc: at.msc + 201)
        #expect(abs((meter.period ?? 0) - 6_944_444) <= 1_000, "after a jump: \(String(describing: meter.period))")
        #expect(!meter.isVariable)
        // 60 Hz for a while, then 59.94 Hz.
        at = Self.feed(&meter, period: 16_666_667, count: 600, start: at.time, msc: at.msc)
        at = Self.feed(&meter, period: 16_683_350, count: 180, start: at.time, msc: at.msc)
        #expect(abs((meter.period ?? 0) - 16_683_350) <= 100, "after 0.1 %: \(String(describing: meter.period))")
        // Variable refresh: every step a different period.
        var random = _SplitMix64(seed: 7)
        var time = at.time
        for index in 0..<200 {
            time += 7_500_000 + Int64(random.unit() * 5_500_000)
            meter.note(.init(time: time / 1_000 * 1_000, msc: at.msc + Int64(index) + 1))
        }
        #expect(meter.isVariable)
        #expect(meter.period == nil)
    }
}
