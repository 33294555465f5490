import Testing

@_spi(FrameSourceImplementation) @testable import FrameLink

/// Data FrameLink measures (present returns, fitted vsync periods) never reaches a trap.
@MainActor
@Suite("Measured data never stops a game")
struct MeasuredDataTests {
    /// The crash games hit under load: a 148.98 Hz display, two buffers, frames at 0.986 of a
    /// period and an exponential present delay; the returns' numbering went wrong and the fitted
    /// rate grew about 1.4× a frame until `FrameRate(framesPerSecond:)` trapped at frame 1038.
    @Test("a fit drawn to a period of microseconds is thrown away, not turned into a rate")
    func fitOfMicrosecondsIsNotARate() {
        let lab = DisplayLab(
            refresh: .fixed(FrameRate(numerator: 14_898, denominator: 100), phase: .nanoseconds(5_120_855)),
            buffers: 2, jitter: .exponential(mean: .microseconds(223)), seed: 1)
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        var highest = 0.0
        let link = DisplayLink { _ in
            highest = max(highest, source.measuredRefreshRate?.framesPerSecond ?? 0)
            lab.work(for: .nanoseconds(6_621_419))
        }
        link.add(to: loop, forMode: .common)
        loop.run(frames: 1_500)
        link.invalidate()
        #expect(loop.frameIndex == 1_500)
        // Never a rate a display cannot have.
        #expect(highest <= 1_000)
    }

    @Test(
        "the grid keeps only periods a display can have",
        arguments: [
            (0.0, false), (7_700.0, false), (999_999.0, false), (1_000_000.0, true), (16_666_667.0, true),
            (1e9, true), (1.000_001e9, false), (Double.nan, false), (Double.infinity, false), (-16e6, false),
        ])
    func plausiblePeriods(period: Double, plausible: Bool) {
        #expect(_VsyncGrid.isPlausible(period: period) == plausible)
    }

    @Test("returns closer together than any display refreshes make no grid")
    func returnsTooCloseMakeNoGrid() {
        var grid = _VsyncGrid(nominalPeriod: 16_666_667)
        for index in Int64(0)..<64 { grid.add(returnTime: 1_000_000 + index * 7_700) }
        #expect(!grid.hasGrid)
        #expect(grid.measuredRate == nil)
    }

    @Test("a return later than half a period after its vsync does not fit: its number would be a guess")
    func lateReturnIsNotNumbered() {
        var grid = _VsyncGrid(nominalPeriod: 10_000_000)
        // A few returns with delays up to 4 ms let the grid allow up to 8.25 ms, but never more
        // than half the 10 ms period.
        for index in Int64(0)..<32 { grid.add(returnTime: index * 10_000_000 + (index % 8 == 3 ? 4_000_000 : 0)) }
        #expect(grid.hasGrid)
        let onTime = grid.add(returnTime: 32 * 10_000_000 + 4_900_000)
        let tooLate = grid.add(returnTime: 33 * 10_000_000 + 5_100_000)
        #expect(onTime)
        #expect(!tooLate)
    }
}

/// The manual clock's rule: time never goes backwards, and asking it to does nothing.
@MainActor
@Suite("ManualFrameSource: we can't time travel")
struct ManualClockDirectionTests {
    @Test("advancing to the past, by nothing or by negative frames runs no frame and keeps the time")
    func weCantTimeTravel() {
        let source = ManualFrameSource(refreshRate: .hz60)
        let loop = FrameLoop(source: source)
        var frames = 0
        let link = DisplayLink { _ in frames += 1 }
        link.add(to: loop, forMode: .common)
        source.advance(frames: 3)
        let now = source.now
        source.advance(to: .zero)
        source.advance(to: now)
        source.advance(by: .zero)
        source.advance(by: .milliseconds(-5))
        source.advance(frames: -2)
        #expect(source.now == now)
        #expect(frames == 3)
        // Forward still works.
        source.advance(to: now + .milliseconds(20))
        #expect(source.now >= now + .milliseconds(20))
        #expect(frames == 5)
    }

    @Test("negative work inside a frame does not move time")
    func negativeWorkDoesNothing() {
        let source = ManualFrameSource(refreshRate: .hz60)
        let before = source.now
        source.simulateWork(for: .milliseconds(-1))
        source.simulateWork(for: .zero)
        #expect(source.now == before)
    }
}

extension MeasuredDataTests {
    @Test("a fit that leaves the range a display can have is discarded, and the window starts again")
    func fitLeavingThePlausibleRangeIsDiscarded() {
        var grid = _VsyncGrid(nominalPeriod: 1_000_000)
        var time: Int64 = 0
        for _ in 0..<8 {
            time += 1_000_000
            grid.add(returnTime: time)
        }
        #expect(grid.hasGrid)
        #expect(grid.measuredRate == FrameRate(numerator: 1_000))
        // Returns 0.99 ms apart: a 1,010 Hz "display".
        for _ in 0..<16 {
            time += 990_000
            grid.add(returnTime: time)
        }
        #expect(grid.implausibleFits >= 1)
        #expect(grid.measuredRate.map { $0.framesPerSecond <= 1_000 } ?? true)
    }
}

/// Whether a test's presenter reports presentations.
@MainActor private final class ReportingSwitch {
    var isOn = true
}

/// Presentation reports are data from a compositor or a driver: checked where they enter.
@MainActor
@Suite("Presentation reports: implausible ones are ignored")
struct PresentationReportTests {
    /// A source whose present blocks to a 60 Hz grid on a virtual clock, after `frames` frames.
    func source(afterFrames frames: Int) -> (PresentSource, VirtualClock) {
        let clock = VirtualClock()
        let source = PresentSource(displayRefreshRate: .hz60, clock: clock)
        source.present = { clock.sleep(untilNanoseconds: (clock.now / 16_666_667 + 1) * 16_666_667) }
        let loop = FrameLoop(source: source)
        DisplayLink { _ in clock.advance(nanoseconds: 2_000_000) }.add(to: loop, forMode: .common)
        loop.run(frames: frames)
        return (source, clock)
    }

    @Test(
        "reports before their present, in the future, before the start, out of order, repeated, not after the last or for frames never presented are ignored"
    )
    func implausibleReportsAreIgnored() {
        let (source, _) = source(afterFrames: 30)
        let now = source.now.nanoseconds
        let frame = source.presentCount
        // Shown 20 ms ago: before its present was called (at most a period ago).
        source.reportPresentation(ofFrame: frame, at: FrameInstant(nanoseconds: now - 20_000_000))
        #expect(source.pacer.ignoredReports == 1)
        source.reportPresentation(ofFrame: frame - 1, at: FrameInstant(nanoseconds: now - 1_000))
        #expect(source.pacer.ignoredReports == 1)
        source.reportPresentation(ofFrame: frame - 1, at: FrameInstant(nanoseconds: now))  // repeated
        source.reportPresentation(ofFrame: frame - 2, at: FrameInstant(nanoseconds: now))  // out of order
        source.reportPresentation(ofFrame: frame, at: FrameInstant(nanoseconds: now - 1_000))  // not after the last
        source.reportPresentation(ofFrame: frame, at: FrameInstant(nanoseconds: now + 5_000_000_000))  // future
        source.reportPresentation(ofFrame: frame, at: FrameInstant(nanoseconds: -1))  // before the start
        source.reportPresentation(ofFrame: frame, at: FrameInstant(nanoseconds: .max))  // a sentinel
        source.reportPresentation(ofFrame: frame + 5, at: FrameInstant(nanoseconds: now))  // never presented
        #expect(source.pacer.ignoredReports == 8)
        source.reportPresentation(ofFrame: frame, at: FrameInstant(nanoseconds: now))
        #expect(source.pacer.ignoredReports == 8)
    }

    @Test("when feedback stops, the source goes back to present's returns, and takes reports again when they come")
    func feedbackThatStopsHandsTheGridBackToReturns() {
        let clock = VirtualClock()
        let source = PresentSource(displayRefreshRate: .hz60, clock: clock)
        let reporting = ReportingSwitch()
        source.present = {
            clock.sleep(untilNanoseconds: (clock.now / 16_666_667 + 1) * 16_666_667)
            // The frame being presented (presentCount + 1) reached the screen at the vsync.
            if reporting.isOn { source.reportPresentation(ofFrame: source.presentCount + 1, at: source.now) }
        }
        let loop = FrameLoop(source: source)
        DisplayLink { _ in clock.advance(nanoseconds: 2_000_000) }.add(to: loop, forMode: .common)
        loop.run(frames: 120)
        #expect(source.receivesPresentationFeedback)
        #expect(source.mode == .vsync)
        reporting.isOn = false
        source.presentationFeedbackStopped()
        #expect(!source.receivesPresentationFeedback)
        loop.run(frames: 120)
        #expect(source.mode == .vsync, "paced from the returns, which still block on the vsync")
        #expect(source.isPhaseLocked)
        reporting.isOn = true
        loop.run(frames: 2)
        #expect(source.receivesPresentationFeedback)
        #expect(source.pacer.ignoredReports == 0)
    }

    @Test("garbage reports never stop the loop, and its timestamps stay finite and ordered")
    func garbageReportsDoNotTrap() {
        let clock = VirtualClock()
        let source = PresentSource(displayRefreshRate: .hz60, clock: clock)
        var presents: Int64 = 0
        let junk: [Int64] = [.max, .min, 0, -1, 1, .max - 1, 1 << 62, -(1 << 62)]
        source.present = {
            clock.sleep(untilNanoseconds: (clock.now / 16_666_667 + 1) * 16_666_667)
            presents += 1
            source.reportPresentation(
                ofFrame: presents, at: FrameInstant(nanoseconds: junk[Int(presents) % junk.count]))
        }
        let loop = FrameLoop(source: source)
        var last = FrameInstant(nanoseconds: .min)
        var ordered = true
        DisplayLink { link in
            ordered = ordered && link.timestamp > last && link.targetTimestamp >= link.timestamp
            last = link.timestamp
            clock.advance(nanoseconds: 2_000_000)
        }.add(to: loop, forMode: .common)
        loop.run(frames: 600)
        #expect(ordered)
        #expect(source.measuredRefreshRate.map { $0.framesPerSecond <= 1_000 } ?? true)
    }
}

@MainActor
@Suite("Arithmetic on values from outside saturates instead of overflowing")
struct SaturatingArithmeticTests {
    @Test("a wait until an instant near the largest one waits as long as the clock counts")
    func waitNearTheLargestInstant() {
        #expect(FrameWaiter.clockTime(of: FrameInstant(nanoseconds: .max), epoch: 1_000) == .max)
        #expect(FrameWaiter.clockTime(of: FrameInstant(nanoseconds: .min), epoch: -1_000) == .min)
        #expect(FrameWaiter.clockTime(of: FrameInstant(nanoseconds: 5), epoch: 1_000) == 1_005)
    }

    @Test("a drop read from a log with phases as long as Int64 allows prints without trapping")
    func hugeDropPrints() {
        var phases = PhaseDurations()
        phases[nanoseconds: .links] = .max
        let record = FrameRecord(index: 2, timestamp: .max, interval: .max, droppedFrames: 3, phases: phases)
        let log = FrameLog(records: [record], periodNanoseconds: 16_666_667)
        let drops = log.dropEvents
        #expect(drops.count == 1)
        #expect(drops.first?.description.contains("links took 9223372036854.8 ms") == true, "\(drops)")
    }
}

/// A source that stamps every 5th frame 10 ms before its wait ended (a grid refitted to bad feedback).
@MainActor
final class BackwardsSource: FrameSource {
    let clock: any PacingClock = VirtualClock()
    var refreshRate: FrameRate { .hz60 }
    var epochNanoseconds: Int64 { 0 }
    private var frames = 0
    func nextFrameWait() -> FrameWait {
        .sleep(until: FrameInstant(nanoseconds: clock.nanoseconds() + 16_666_667))
    }
    func beginFrame(at instant: FrameInstant) -> FrameInstant {
        frames += 1
        stamp = frames % 5 == 0 ? instant - .milliseconds(20) : instant
        return stamp
    }
    private var stamp = FrameInstant.zero
    /// A swap-chain target 115 ns before the timestamp on every 3rd frame.
    var targetTimestamp: FrameInstant? { frames % 3 == 0 ? stamp - .nanoseconds(115) : nil }
}

@MainActor
@Suite("Frames stay in order whatever a source says")
struct FrameOrderTests {
    @Test("a source's timestamp before the last frame's is taken as the last one")
    func timestampsNeverGoBackwards() {
        let loop = FrameLoop(source: BackwardsSource())
        var stamps: [FrameInstant] = []
        DisplayLink { link in stamps.append(link.timestamp) }.add(to: loop, forMode: .common)
        loop.run(frames: 20)
        #expect(stamps.count == 20)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(zip(stamps, stamps.dropFirst()).contains { $0 == $1 })
    }

    @Test("a source's target before the frame's timestamp is replaced by the grid's next point")
    func targetsNeverPrecedeTheirFrame() {
        let loop = FrameLoop(source: BackwardsSource())
        var steps: [Duration] = []
        DisplayLink { link in steps.append(link.targetTimestamp - link.timestamp) }.add(to: loop, forMode: .common)
        loop.run(frames: 20)
        #expect(steps.count == 20)
        #expect(steps.allSatisfy { $0 > .zero }, "\(steps)")
    }
}

extension MeasuredDataTests {
    @Test(
        "a return much later than its vsync is not numbered for the next one, however late a quarter of the window ran")
    func earlyAllowanceStaysUnderAQuarterPeriod() {
        var grid = _VsyncGrid(nominalPeriod: 10_000_000)
        // The window's last quarter returns 4.5 ms late: the line may sit that far above the grid,
        // but a return is taken as early by at most a quarter of the 10 ms period.
        for index in Int64(0)..<32 {
            // Delays of 0 to 3.6 ms widen what the grid allows (to half a period); the last quarter
            // is all 4.5 ms late.
            grid.add(returnTime: index * 10_000_000 + (index >= 24 ? 4_500_000 : (index % 4) * 1_200_000))
        }
        #expect(grid.hasGrid)
        // 6 ms after vsync 32: too late for it (over half a period), and 4 ms early for vsync 33.
        let fits = grid.add(returnTime: 32 * 10_000_000 + 6_000_000)
        #expect(!fits)
    }
}

@MainActor
@Suite("Waits on virtual time")
struct VirtualIdleTests {
    /// A virtual clock that counts its sleeps.
    final class CountingClock: PacingClock {
        let clock = VirtualClock()
        var sleeps = 0
        func nanoseconds() -> Int64 { clock.now }
        var sleepsInRealTime: Bool { false }
        func sleep(untilNanoseconds deadline: Int64) {
            sleeps += 1
            clock.sleep(untilNanoseconds: deadline)
        }
    }

    @Test("an idle loop on virtual time goes straight to a timer a day away, in one sleep")
    func idleWaitJumpsToTheDeadline() {
        let clock = CountingClock()
        let loop = FrameLoop(source: DeadlineSource(refreshRate: .hz60, clock: clock))
        loop.drainsMainQueue = false
        var fired = 0
        FrameTimer(timeInterval: 86_400, repeats: false) { _ in fired += 1 }.add(to: loop, forMode: .common)
        loop.runFrame()
        loop.runFrame()
        #expect(fired == 1)
        #expect(clock.nanoseconds() >= 86_400_000_000_000)
        #expect(clock.sleeps <= 4, "\(clock.sleeps) sleeps")
    }
}
