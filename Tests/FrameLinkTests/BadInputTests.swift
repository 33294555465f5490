import FrameLink
import Testing

/// Invalid numbers are rejected where they enter the API: initializers and functions throw
/// `FrameLinkError`; a property setter that cannot throw (`tolerance`) stops with a precondition
/// message.
@MainActor
@Suite("Bad input")
struct BadInputTests {
    @Test(
        "timer intervals that are zero, negative, NaN or infinite are rejected",
        arguments: [
            0.0, -1.0, -0.0, Double.nan, Double.infinity, -Double.infinity, 1e-12, 1e300,
        ])
    func badSecondsInterval(seconds: Double) {
        #expect(throws: FrameLinkError.self) {
            try FrameTimer(timeInterval: seconds, repeats: true) { _ in }
        }
        #expect(throws: FrameLinkError.self) {
            try FrameTimer.scheduledTimer(withTimeInterval: seconds, repeats: false) { _ in }
        }
    }

    @Test(
        "Duration intervals that are zero or negative are rejected",
        arguments: [
            Duration.zero, .seconds(-1), .nanoseconds(-1),
        ])
    func badDurationInterval(interval: Duration) {
        #expect(throws: FrameLinkError.self) { try FrameTimer(interval: interval, repeats: true) { _ in } }
        #expect(throws: FrameLinkError.self) {
            try FrameTimer(target: Owner(), interval: interval) { _, _ in }
        }
    }

    @Test("repeat counts below one are rejected")
    func badRepeatCount() {
        #expect(throws: FrameLinkError.self) {
            try FrameTimer(interval: .seconds(1), repeats: true, repeatCount: 0) { _ in }
        }
        #expect(throws: FrameLinkError.self) {
            try FrameTimer(interval: .seconds(1), repeats: true, repeatCount: -3) { _ in }
        }
    }

    @Test(
        "frame rates that are zero, negative, NaN, infinite or absurd are rejected",
        arguments: [
            0.0, -60.0, Double.nan, Double.infinity, -Double.infinity, 1e9, 0.0001,
        ])
    func badFrameRate(rate: Double) {
        #expect(throws: FrameLinkError.self) { try FrameRate(framesPerSecond: rate) }
    }

    @Test("rates and periods that are not positive are rejected")
    func badFractions() {
        #expect(throws: FrameLinkError.self) { try FrameRate(numerator: 0) }
        #expect(throws: FrameLinkError.self) { try FrameRate(numerator: 60, denominator: -1) }
        #expect(throws: FrameLinkError.self) { try FrameRate(period: .zero) }
        #expect(throws: FrameLinkError.self) { try ManualFrameSource(period: .seconds(-1)) }
    }

    @Test("errors say what was wrong")
    func messages() {
        do {
            _ = try FrameTimer(timeInterval: .nan, repeats: true) { _ in }
            Issue.record("no error thrown")
        } catch {
            #expect(error.description == "invalid interval: timer interval of nan s: must be finite")
        }
    }

    @Test("scheduledTimer without any loop is an error, not a silent no-op")
    func scheduledWithoutLoop() async {
        // Run where no loop has been created: a fresh process.
        await #expect(processExitsWith: .success) {
            await MainActor.run {
                do throws(FrameLinkError) {
                    _ = try FrameTimer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in }
                    exit(1)
                } catch {
                    guard case .unsupported = error else { exit(2) }
                    exit(0)
                }
            }
        }
    }

    @Test("a negative tolerance stops the program with a precondition message")
    func negativeTolerance() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let timer = try? FrameTimer(interval: .seconds(1), repeats: true) { _ in }
                timer?.tolerance = .milliseconds(-1)
            }
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif
