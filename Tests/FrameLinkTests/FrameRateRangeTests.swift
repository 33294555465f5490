import FrameLink
import Testing

/// Frame-rate ranges: the rate chosen on a display, exactly; links and loops that ask for one on
/// virtual time.
@MainActor
@Suite("Frame-rate ranges: the even rate closest to the preferred one")
struct FrameRateRangeTests {
    struct Expectation: Sendable, CustomTestStringConvertible {
        var refresh: FrameRate
        var range: FrameRateRange
        var rate: FrameRate
        var divisor: Int
        var inside = true
        var testDescription: String { "\(range) on \(refresh) → \(rate)" }
    }

    nonisolated static let expectations: [Expectation] = [
        // The examples.
        Expectation(refresh: .hz60, range: FrameRateRange(exactly: 30), rate: 30, divisor: 2),
        Expectation(
            refresh: .hz144, range: FrameRateRange(minimum: 60, maximum: 90, preferred: 72), rate: 72, divisor: 2),
        Expectation(refresh: .hz144, range: FrameRateRange(minimum: 40, maximum: 50), rate: 48, divisor: 3),
        // The whole range, preferring the top: every frame.
        Expectation(refresh: .hz144, range: FrameRateRange(minimum: 30, maximum: 144), rate: 144, divisor: 1),
        // NTSC: half of 60000/1001 exactly, within 0.5 % of 30, so inside "exactly 30".
        Expectation(
            refresh: .hz59_94, range: FrameRateRange(exactly: 30),
            rate: FrameRate(numerator: 30_000, denominator: 1_001),
            divisor: 2),
        // A display measured a little fast is still inside a range that ends at its nominal rate.
        Expectation(
            refresh: FrameRate(framesPerSecond: 60.001), range: FrameRateRange(minimum: 30, maximum: 60),
            rate: FrameRate(framesPerSecond: 60.001), divisor: 1),
        Expectation(
            refresh: FrameRate(framesPerSecond: 144.01), range: FrameRateRange(minimum: 30, maximum: 144),
            rate: FrameRate(framesPerSecond: 144.01), divisor: 1),
        Expectation(refresh: .hz120, range: FrameRateRange(exactly: 40), rate: 40, divisor: 3),
        // 36 Hz (every 4th) is above 24–30; 28.8 Hz (every 5th) is inside.
        Expectation(
            refresh: .hz144, range: FrameRateRange(minimum: 24, maximum: 30),
            rate: FrameRate(numerator: 144, denominator: 5), divisor: 5),
        // Nothing of 60 Hz lies in 40–50: 60 and 30 are both 15 Hz from 45, and a tie goes up.
        Expectation(
            refresh: .hz60, range: FrameRateRange(minimum: 40, maximum: 50, preferred: 45), rate: 60, divisor: 1,
            inside: false),
        // 30 is closer to 40 than 60 is.
        Expectation(refresh: .hz60, range: FrameRateRange(exactly: 40), rate: 30, divisor: 2, inside: false),
        // Asking for more than the display has: every frame.
        Expectation(
            refresh: .hz60, range: FrameRateRange(minimum: 100, maximum: 144), rate: 60, divisor: 1, inside: false),
        // 165 Hz: 55 (every 3rd) is in 50–60 and closer to 60 than 82.5 (above the range).
        Expectation(refresh: .hz165, range: FrameRateRange(minimum: 50, maximum: 60), rate: 55, divisor: 3),
    ]

    @Test("the chosen rate and divisor", arguments: expectations)
    func choice(_ expected: Expectation) {
        let choice = expected.range.choice(dividing: expected.refresh)
        #expect(choice.rate == expected.rate, "\(choice)")
        #expect(choice.divisor == expected.divisor)
        #expect(choice.dividedRate == expected.refresh)
        #expect(choice.isInsideRange == expected.inside)
        #expect(choice.reason.contains(expected.inside ? "closest to" : "no even rate"), "\(choice.reason)")
    }

    @Test("the reason names the division, the range and the preferred rate")
    func reason() {
        let choice = FrameRateRange(minimum: 60, maximum: 90, preferred: 72).choice(dividing: .hz144)
        #expect(choice.reason == "every 2nd frame of 144 Hz: the even rate in 60–90 Hz closest to 72 Hz")
        let none = FrameRateRange(minimum: 40, maximum: 50, preferred: 45).choice(dividing: .hz60)
        #expect(none.reason == "no even rate of 60 Hz lies in 40–50 Hz: every frame is the closest to 45 Hz")
    }

    @Test("on a variable-refresh display the preferred rate is paced directly, never above its maximum")
    func variable() {
        let display: ClosedRange<FrameRate> = 48...144
        let capped = FrameRateRange(minimum: 48, maximum: 141).choice(onVariableRefresh: display)
        #expect(capped.rate == 141)
        #expect(capped.divisor == nil)
        let above = FrameRateRange(minimum: 60, maximum: 240).choice(onVariableRefresh: display)
        #expect(above.rate == 144)
        #expect(above.reason.contains("above its maximum"))
        let below = FrameRateRange(exactly: 30).choice(onVariableRefresh: display)
        #expect(below.rate == 30)
        #expect(below.reason.contains("more than once"))
        #expect(FrameRateRange(exactly: 141).directChoice().rate == 141)
        let clamped = FrameRateRange(minimum: 30, maximum: 240).directChoice(atMost: .hz60)
        #expect(clamped.rate == 60)
        #expect(
            clamped.reason
                == "paced directly at 60 Hz by deadline: no vsync paces the frames; the preferred 240 Hz is above the display's 60 Hz"
        )
        #expect(
            capped.reason
                == "paced directly at 141 Hz: a variable-refresh display (48–144 Hz) shows each frame as it comes")
    }

    @Test("extreme fractions choose without overflowing")
    func extremeFractions() {
        let tiny = FrameRate(numerator: 1, denominator: .max)
        for refresh in [FrameRate.hz60, .hz59_94, FrameRate(numerator: 100_000), FrameRate(period: .nanoseconds(1))] {
            let choice = FrameRateRange(exactly: tiny).choice(dividing: refresh)
            #expect(choice.divisor == 1_000_001, "\(refresh)")
            let high = FrameRateRange(minimum: 1, maximum: FrameRate(numerator: .max)).choice(dividing: refresh)
            #expect(high.divisor == 1)
        }
    }

    @Test("ranges read at run time throw; rates compare exactly")
    func validation() throws {
        #expect(throws: FrameLinkError.self) { try FrameRateRange(validatingMinimum: 60, maximum: 30) }
        #expect(throws: FrameLinkError.self) { try FrameRateRange(validatingMinimum: 30, maximum: 60, preferred: 61) }
        let range = try FrameRateRange(validatingMinimum: 30, maximum: 60)
        #expect(range.preferred == 60)
        #expect(FrameRate.hz59_94 < .hz60)
        #expect(FrameRate(framesPerSecond: 59.94) < .hz59_94)  // 2997/50 < 60000/1001
        #expect(FrameRate(numerator: 120, denominator: 2) == .hz60)
        #expect(FrameRate.hz144.divided(by: 3) == 48)
    }

    @Test("links with different ranges share the loop's frames, each called on every k-th, evenly")
    func linksShareFrames() {
        let source = ManualFrameSource(refreshRate: .hz144)
        let loop = FrameLoop(source: source)
        var calls: [String: [Int64]] = [:]
        func add(_ label: String, _ range: FrameRateRange?) {
            let link = DisplayLink { link in calls[label, default: []].append(link.timestamp.nanoseconds) }
            link.label = label
            link.preferredFrameRateRange = range
            link.add(to: loop, forMode: .common)
        }
        add("hud", FrameRateRange(minimum: 60, maximum: 90, preferred: 72))
        add("ai", FrameRateRange(minimum: 40, maximum: 50))
        add("world", nil)
        source.advance(frames: 144 * 5)
        let period = FrameRate.hz144
        for (label, every) in [("hud", 2), ("ai", 3), ("world", 1)] {
            let times = calls[label] ?? []
            #expect(times.count == 144 * 5 / every, "\(label)")
            // Each call exactly `every` refreshes after the last, on the display's grid.
            for (a, b) in zip(times, times.dropFirst()) {
                let index = period.frameIndex(atOrAfter: a)
                #expect(b == period.offsetNanoseconds(ofFrame: index + Int64(every)), "\(label) at \(a)")
            }
        }
        let choices = loop.statistics.frameRateChoices
        #expect(choices.map(\.subject) == ["hud", "ai"])
        #expect(choices.map(\.rate) == [72, 48])
        #expect(loop.statistics.summary.contains("frame rate: hud: 72 Hz (every 2nd frame of 144 Hz"))
    }

    @Test("a loop's range on a virtual display: frames on every 2nd refresh, no drops counted")
    func loopRange() {
        let source = ManualFrameSource(refreshRate: .hz60)
        let loop = FrameLoop(source: source)
        loop.preferredFrameRateRange = FrameRateRange(minimum: 24, maximum: 30)
        var times: [Int64] = []
        DisplayLink { times.append($0.timestamp.nanoseconds) }.add(to: loop, forMode: .common)
        source.advance(frames: 90)
        #expect(loop.refreshRate == 30)
        #expect(times.last == FrameRate.hz60.offsetNanoseconds(ofFrame: 180))
        #expect(loop.statistics.droppedFrames == 0)
        #expect(loop.statistics.frameRateChoices.first?.subject == "loop")
        #expect(loop.statistics.frameRateChoices.first?.rate == 30)
        loop.preferredFrameRateRange = nil
        source.advance(frames: 10)
        #expect(loop.refreshRate == 60)
        #expect(times.last == FrameRate.hz60.offsetNanoseconds(ofFrame: 190))  // every refresh again
        #expect(loop.statistics.frameRateChoices.isEmpty)
    }

    @Test("preferredFrameRate is a range of exactly that rate")
    func preferredRate() {
        let link = DisplayLink { _ in }
        link.preferredFrameRate = 40
        #expect(link.preferredFrameRateRange == FrameRateRange(exactly: 40))
        #expect(link.preferredFrameRate == 40)
        link.preferredFrameRate = nil
        #expect(link.preferredFrameRateRange == nil)
    }
}
