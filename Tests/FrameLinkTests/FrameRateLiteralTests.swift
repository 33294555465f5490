import FrameLink
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Frame rates written as constants need no `try`: integer literals and named rates; a literal
/// that is not positive stops the program with a message.
@Suite("FrameRate: literals and named rates")
struct FrameRateLiteralTests {
    @Test("an integer literal is that many frames per second, exactly")
    func literal() throws {
        let physics: FrameRate = 50
        #expect(physics == (FrameRate(numerator: 50)))
        #expect(physics.periodNanoseconds == 20_000_000)
        let optional: FrameRate? = 144
        #expect(optional == .hz144)
    }

    @Test("the named rates are the exact fractions")
    func namedRates() throws {
        let expected: [(FrameRate, Int64, Int64)] = [
            (.hz24, 24, 1), (.hz30, 30, 1), (.hz48, 48, 1), (.hz50, 50, 1), (.hz59_94, 60_000, 1_001),
            (.hz60, 60, 1), (.hz75, 75, 1), (.hz90, 90, 1), (.hz120, 120, 1), (.hz144, 144, 1),
            (.hz165, 165, 1), (.hz240, 240, 1),
        ]
        for (rate, numerator, denominator) in expected {
            #expect(rate == (FrameRate(numerator: numerator, denominator: denominator)), "\(rate)")
        }
        // NTSC's rate, not 59.94 rounded: its period is 16,683,333 ns, 17 ns shorter than 2997/50's.
        #expect(FrameRate.hz59_94.periodNanoseconds == 16_683_333)
        let typed = FrameRate(framesPerSecond: 59.94)
        #expect(typed == (FrameRate(numerator: 2_997, denominator: 50)))
        #expect(typed.periodNanoseconds == 16_683_350)
        #expect(typed != .hz59_94)
    }
}
