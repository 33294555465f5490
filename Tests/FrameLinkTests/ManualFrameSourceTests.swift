import FrameLink
import Testing

@MainActor
@Suite("ManualFrameSource and virtual time")
struct ManualFrameSourceTests {
    @Test("time starts at zero and advances on an exact grid")
    func grid() throws {
        let source = ManualFrameSource(refreshRate: .hz60)
        #expect(source.now == .zero)
        source.advance(frames: 60)
        #expect(source.now == .seconds(1))
        source.advance(by: .milliseconds(5))
        #expect(source.now == FrameInstant(nanoseconds: 1_005_000_000))
        source.advance(frames: 1)
        #expect(source.now == FrameInstant(nanoseconds: 1_016_666_666))
    }

    @Test("24 hours at 60 Hz: a repeating timer and a link land exactly on their nanosecond grids")
    func twentyFourHoursWithoutDrift() throws {
        let (source, loop) = makeLoop()
        var timerMisses = 0
        var timerFires: Int64 = 0
        let timer = FrameTimer(interval: .seconds(1), repeats: true) { _ in
            timerFires += 1
            if loop.timestamp.nanoseconds != timerFires * 1_000_000_000 { timerMisses += 1 }
        }
        timer.add(to: loop, forMode: .common)
        var linkCalls: Int64 = 0
        var linkMisses = 0
        DisplayLink { link in
            linkCalls += 1
            // Frame k is at floor(k × 1e9 / 60) ns: exact, whatever k is.
            if link.timestamp.nanoseconds != linkCalls * 1_000_000_000 / 60 { linkMisses += 1 }
        }.add(to: loop, forMode: .common)
        let day: Int64 = 24 * 3600
        source.advance(frames: Int(day * 60))
        #expect(source.now == FrameInstant(nanoseconds: day * 1_000_000_000))
        #expect(linkCalls == day * 60 && linkMisses == 0)
        #expect(timerFires == day && timerMisses == 0)
        #expect(timer.fireDate == FrameInstant(nanoseconds: (day + 1) * 1_000_000_000))
    }

    @Test("frame rates are exact fractions: 59.94 Hz is 60000/1001")
    func fractionalRates() throws {
        let ntsc = FrameRate(framesPerSecond: 59.94)
        #expect(ntsc.numerator == 2997 && ntsc.denominator == 50)
        #expect(ntsc.periodNanoseconds == 16_683_350)
        let exact = FrameRate(numerator: 60000, denominator: 1001)
        #expect(exact.offsetNanoseconds(ofFrame: 60000) == 1001 * 1_000_000_000)
        #expect(FrameRate(period: .milliseconds(10)) == FrameRate(numerator: 100))
        #expect(exact.frameIndex(atOrAfter: exact.offsetNanoseconds(ofFrame: 12345)) == 12345)
        #expect(exact.frameIndex(atOrAfter: exact.offsetNanoseconds(ofFrame: 12345) + 1) == 12346)
    }
}
