import FrameLink
import Testing

/// Values from outside the program go through throwing validation: `FrameRate(validating:)` for a
/// rate read at run time, and the interval check every timer, clock and virtual-time call shares
/// (which stops the program instead when the value is an argument; see `ProgrammerErrorTests`).
@Suite("Bad input: validation that throws")
struct BadInputTests {
    @Test(
        "intervals in seconds that are zero, negative, NaN, infinite, under 1 ns or absurd are refused",
        arguments: [
            0.0, -1.0, -0.0, Double.nan, Double.infinity, -Double.infinity, 1e-12, 1e300,
        ])
    func badSecondsInterval(seconds: Double) {
        #expect(throws: FrameLinkError.self) {
            try FrameLinkError.checkedNanoseconds(seconds: seconds, what: "timer interval")
        }
    }

    @Test("a zero interval is refused unless zero is allowed; negative ones always are")
    func zeroAllowed() throws {
        #expect(try FrameLinkError.checkedNanoseconds(seconds: 0, what: "leeway", allowZero: true) == 0)
        #expect(try FrameLinkError.checkedNanoseconds(.zero, what: "leeway", allowZero: true) == 0)
        #expect(throws: FrameLinkError.self) {
            try FrameLinkError.checkedNanoseconds(seconds: -1, what: "leeway", allowZero: true)
        }
        #expect(try FrameLinkError.checkedNanoseconds(seconds: 1.5, what: "interval") == 1_500_000_000)
    }

    @Test(
        "Duration intervals that are zero, negative or unbounded are refused",
        arguments: [
            Duration.zero, .seconds(-1), .nanoseconds(-1), .seconds(Int64.max),
        ])
    func badDurationInterval(interval: Duration) {
        #expect(throws: FrameLinkError.self) { try FrameLinkError.checkedNanoseconds(interval, what: "interval") }
    }

    @Test(
        "rates read at run time that are zero, negative, NaN, infinite or absurd are refused",
        arguments: [
            0.0, -60.0, Double.nan, Double.infinity, -Double.infinity, 1e9, 0.0001,
        ])
    func badFrameRate(rate: Double) {
        #expect(throws: FrameLinkError.self) { try FrameRate(validating: rate) }
    }

    @Test("a valid rate read at run time is the same rate as the constant")
    func goodFrameRate() throws {
        #expect(try FrameRate(validating: 144) == .hz144)
        #expect(try FrameRate(validating: 59.94) == FrameRate(numerator: 2_997, denominator: 50))
        #expect(FrameRate(framesPerSecond: 75) == .hz75)
    }

    @Test("errors say what was wrong")
    func messages() {
        #expect(throws: FrameLinkError.invalidInterval("timer interval of nan s: must be finite")) {
            try FrameLinkError.checkedNanoseconds(seconds: .nan, what: "timer interval")
        }
        #expect(
            throws: FrameLinkError.invalidFrameRate("0.0 frames per second: must be finite, above 0 and at most 100000")
        ) {
            try FrameRate(validating: 0)
        }
        #expect(
            FrameLinkError.invalidInterval("x").description == "invalid interval: x",
            "the description names the kind of problem first")
    }
}
