import Testing

@testable import FrameLink

/// The cadence on its own: the vsyncs a frame takes for a requested range and the halving, the
/// divisor kept while a measured rate wobbles, the deadline grid's rate, and when a range is paced
/// directly.
@Suite("_FrameRateCadence: a requested range's interval, the halving, the deadline grid's rate")
struct FrameRateCadenceTests {
    static let thirty = FrameRateRange(minimum: 24, maximum: 30, preferred: 30)
    static let variable = FrameRate.hz48...FrameRate.hz144

    /// One row: a range, a display rate, and the present interval expected under vsync.
    struct Row: Sendable, CustomTestStringConvertible {
        var range: FrameRateRange?
        var display: FrameRate
        var halved: Bool
        var interval: Int
        var testDescription: String {
            "\(range.map { "\($0)" } ?? "no range") on \(display)\(halved ? ", halved" : "") → every \(interval)"
        }
    }

    /// A cadence whose automatic frame rate halved (frames at 2× the budget for 10 frames).
    static func halved(_ cadence: inout _FrameRateCadence, at rate: FrameRate) {
        for _ in 0..<_AutoFrameRate.halvingFrames {
            _ = cadence.noteFrameCost(rate.periodNanoseconds * 2, rate: rate)
        }
    }

    @Test(
        "the present interval under vsync: the range's divisor, doubled while halved; 1 without a range",
        arguments: [
            Row(range: nil, display: .hz60, halved: false, interval: 1),
            Row(range: thirty, display: .hz60, halved: false, interval: 2),
            Row(range: thirty, display: .hz144, halved: false, interval: 5),
            Row(
                range: FrameRateRange(minimum: 60, maximum: 90, preferred: 72), display: .hz144, halved: false,
                interval: 2),
            Row(range: nil, display: .hz60, halved: true, interval: 2),
            Row(range: thirty, display: .hz60, halved: true, interval: 4),
        ])
    func presentInterval(row: Row) {
        var cadence = _FrameRateCadence()
        #expect(cadence.request(row.range) == (row.range != nil))
        if row.halved { Self.halved(&cadence, at: row.display) }
        #expect(cadence.halvesRate == row.halved)
        #expect(cadence.presentInterval(followsVsync: true, base: row.display, pacedDirectly: false) == row.interval)
        // In deadline mode the range is in the deadline grid's rate: only the halving is left.
        #expect(
            cadence.presentInterval(followsVsync: false, base: row.display, pacedDirectly: false)
                == (row.halved ? 2 : 1))
        // Paced directly (a variable-refresh display), the range takes no divisor.
        #expect(
            cadence.presentInterval(followsVsync: true, base: row.display, pacedDirectly: true) == (row.halved ? 2 : 1))
    }

    @Test("the divisor is kept while the measured rate wobbles, and chosen again for another display")
    func divisorIsKept() {
        var cadence = _FrameRateCadence()
        _ = cadence.request(FrameRateRange(minimum: 24, maximum: 60, preferred: 30))
        #expect(cadence.divisor(of: 60)?.interval == 2)
        // 60.1 Hz would be divided otherwise by nothing, but it is within 0.5 %: the same choice.
        #expect(cadence.divisor(of: FrameRate(framesPerSecond: 60.1))?.base == 60)
        let another = cadence.divisor(of: .hz144)
        #expect(another?.interval == 5, "another display: chosen again")
        let sameRequest = cadence.request(FrameRateRange(minimum: 24, maximum: 60, preferred: 30))
        #expect(!sameRequest, "the same request changes nothing")
        let noRange = cadence.request(nil)
        #expect(noRange)
        #expect(cadence.divisor(of: .hz60) == nil)
    }

    @Test("a rate asked for is paced directly only on a variable-refresh display, under automatic or deadline pacing")
    func pacedDirectly() {
        let cadence = _FrameRateCadence()
        #expect(!cadence.pacesDirectly(rateAskedFor: false, variableRefresh: Self.variable, pacing: .automatic))
        #expect(cadence.pacesDirectly(rateAskedFor: true, variableRefresh: Self.variable, pacing: .automatic))
        #expect(cadence.pacesDirectly(rateAskedFor: true, variableRefresh: Self.variable, pacing: .deadline))
        #expect(!cadence.pacesDirectly(rateAskedFor: true, variableRefresh: Self.variable, pacing: .vsync))
        #expect(!cadence.pacesDirectly(rateAskedFor: true, variableRefresh: Self.variable, pacing: .unpaced))
        #expect(!cadence.pacesDirectly(rateAskedFor: true, variableRefresh: nil, pacing: .automatic))
    }

    @Test(
        "the deadline grid's rate: the variable display's choice, a division of a known vsync, else the preferred rate capped"
    )
    func deadlineChoice() {
        var cadence = _FrameRateCadence()
        #expect(cadence.deadlineChoice(pacedDirectlyOn: nil, vsyncBase: nil, display: .hz60) == nil)
        let range = FrameRateRange(minimum: 24, maximum: 90, preferred: 72)
        _ = cadence.request(range)
        let variable = cadence.deadlineChoice(pacedDirectlyOn: Self.variable, vsyncBase: .hz144, display: .hz144)
        #expect(variable == range.choice(onVariableRefresh: Self.variable))
        #expect(variable?.rate == 72)
        // A cap the game set holds over the range on a variable-refresh display.
        let capped = cadence.deadlineChoice(pacedDirectlyOn: Self.variable, cap: .hz60, vsyncBase: nil, display: .hz60)
        #expect(capped?.rate == 60, "\(String(describing: capped))")
        #expect(capped?.reason.contains("above the cap of 60 Hz") == true, "\(String(describing: capped))")
        let loose = cadence.deadlineChoice(pacedDirectlyOn: Self.variable, cap: 120, vsyncBase: nil, display: 120)
        #expect(loose?.rate == 72, "a cap above the preferred rate changes nothing")
        let divided = cadence.deadlineChoice(pacedDirectlyOn: nil, vsyncBase: .hz144, display: .hz144)
        #expect(divided?.rate == 72, "144 Hz every 2nd vsync")
        let direct = cadence.deadlineChoice(pacedDirectlyOn: nil, vsyncBase: nil, display: .hz60)
        #expect(direct?.rate == 60, "72 preferred, never above the display's 60")
    }

    @Test(
        "the halving: over budget for 10 frames halves; the budget is the halved rate's while halved; turning off restores"
    )
    func halving() {
        var cadence = _FrameRateCadence()
        let period = FrameRate.hz60.periodNanoseconds
        for _ in 0..<(_AutoFrameRate.halvingFrames - 1) {
            #expect(cadence.noteFrameCost(period * 2, rate: .hz60) == .none)
        }
        #expect(cadence.noteFrameCost(period * 2, rate: .hz60) == .halve)
        #expect(cadence.halvingFactor == 2)
        // Halved, the effective rate is 30 Hz: its budget halves back to a 60 Hz frame's.
        if case .halved(_, let budget) = cadence.autoFrameRate.state {
            #expect(budget == period)
        } else {
            Issue.record("expected the halved state")
        }
        #expect(cadence.turnOffAutomaticFrameRate() == .restore)
        #expect(!cadence.halvesRate)
    }
}
