import FrameLink
import Testing

/// What a test's callbacks saw.
@MainActor private final class HiddenTally {
    var linkCalls = 0
    var renders = 0
    var timerFires = 0
    var deltas: [Duration] = []
}

/// A loop whose output cannot be seen (a minimized window) runs no frames, keeps its timers, and
/// counts neither drops nor hitches for the time hidden.
@MainActor
@Suite("A hidden output runs no frames, and its time hidden is no drop")
struct HiddenOutputTests {
    @Test("hidden: no links, no drawing, timers on time; shown again: one period of deltaTime, no drop")
    func hiddenLoopIdles() {
        let clock = VirtualClock()
        let source = DeadlineSource(refreshRate: .hz60, clock: clock)
        let loop = FrameLoop(source: source)
        let tally = HiddenTally()
        DisplayLink { link in
            tally.linkCalls += 1
            tally.deltas.append(link.deltaTime)
        }.add(to: loop, forMode: .common)
        loop.renderHandler = { _ in tally.renders += 1 }
        FrameTimer(interval: .milliseconds(100), repeats: true) { _ in tally.timerFires += 1 }.add(
            to: loop, forMode: .common)

        loop.run(frames: 60)
        #expect(tally.linkCalls == 60 && tally.renders == 60)
        let firesBefore = tally.timerFires
        let framesBefore = loop.statistics.frames

        loop.isOutputHidden = true
        let hiddenAt = clock.now
        loop.run(frames: 20)
        #expect(tally.linkCalls == 60, "no display-link frames while hidden")
        #expect(tally.renders == 60, "nothing is drawn while hidden")
        #expect(tally.timerFires == firesBefore + 20, "each idle wake is a timer fire, on time")
        #expect(clock.now - hiddenAt >= 1_900_000_000, "the loop idled from timer to timer")
        #expect(loop.statistics.frames == framesBefore, "no interval is booked while hidden")

        loop.isOutputHidden = false
        loop.run(frames: 30)
        #expect(tally.linkCalls == 90)
        let gap = tally.deltas[60] - loop.refreshRate.period
        #expect(gap >= .nanoseconds(-1) && gap <= .nanoseconds(1), "the first frame back gets one period")
        #expect(loop.statistics.droppedFrames == 0, "two seconds hidden are not a drop")
        #expect(loop.statistics.report.hitchTimeRatio == 0, "nor a hitch")
    }
}
