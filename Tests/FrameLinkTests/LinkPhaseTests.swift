import FrameLink
import Testing

/// Frame phases: the documented order of a frame's work, links by phase, and what the statistics
/// count where; on virtual time.
@MainActor
@Suite("Frame phases: input, update, late update and render links")
struct LinkPhaseTests {
    @Test("a frame runs events, input links, timers, update, late-update and render links, then the render handler")
    func documentedOrder() {
        let (source, loop) = makeLoop()
        let order = Recorder<String>()
        // Added out of order on purpose: the phase decides, then the order of adding.
        DisplayLink(phase: .render) { _ in order.append("render A") }.add(to: loop, forMode: .common)
        DisplayLink(phase: .lateUpdate) { _ in order.append("late A") }.add(to: loop, forMode: .common)
        DisplayLink { _ in order.append("update A") }.add(to: loop, forMode: .common)
        DisplayLink(phase: .input) { _ in order.append("input A") }.add(to: loop, forMode: .common)
        DisplayLink(phase: .update) { _ in order.append("update B") }.add(to: loop, forMode: .common)
        DisplayLink(phase: .input) { _ in order.append("input B") }.add(to: loop, forMode: .common)
        DisplayLink(phase: .lateUpdate) { _ in order.append("late B") }.add(to: loop, forMode: .common)
        FrameTimer(interval: .milliseconds(10), repeats: false) { _ in order.append("timer") }
            .add(to: loop, forMode: .common)
        loop.eventHandler = { _ in order.append("event handler") }
        loop.renderHandler = { _ in order.append("render handler") }
        source.advance(frames: 1)
        #expect(
            order.values == [
                "event handler", "input A", "input B", "timer", "update A", "update B", "late A", "late B", "render A",
                "render handler",
            ])
        #expect(loop.linkCount == 7)
    }

    @Test("a link's phase is named, and update is the default")
    func phaseNames() {
        #expect(DisplayLink { _ in }.phase == .update)
        #expect(DisplayLink(target: Owner(), phase: .render) { _, _ in }.phase == .render)
        #expect(LinkPhase.allCases.map(\.description) == ["input", "update", "late update", "render"])
    }

    @Test("the statistics count input links as events, update and late-update links as links, render links as render")
    func phaseAccounting() throws {
        let (source, loop) = makeLoop()
        loop.frameLog = FrameLog(periodNanoseconds: loop.refreshRate.periodNanoseconds)
        DisplayLink(phase: .input) { _ in source.simulateWork(for: .milliseconds(1)) }.add(to: loop, forMode: .common)
        DisplayLink { _ in source.simulateWork(for: .milliseconds(2)) }.add(to: loop, forMode: .common)
        DisplayLink(phase: .lateUpdate) { _ in source.simulateWork(for: .milliseconds(3)) }
            .add(to: loop, forMode: .common)
        DisplayLink(phase: .render) { _ in source.simulateWork(for: .milliseconds(4)) }.add(to: loop, forMode: .common)
        loop.renderHandler = { _ in source.simulateWork(for: .milliseconds(5)) }
        source.advance(frames: 3)
        let record = try #require(loop.frameLog?.records.last)
        #expect(record.phases[nanoseconds: .events] == 1_000_000)
        #expect(record.phases[nanoseconds: .links] == 5_000_000)
        #expect(record.phases[nanoseconds: .render] == 9_000_000)
    }

    @Test("an animator runs after the update links: an animation an update link starts shows in the same frame")
    func animatorRunsInLateUpdate() {
        let (source, loop) = makeLoop()
        let animator = Animator(loop: loop)  // made before the game's link, runs after it anyway
        var shown: [Double] = []
        DisplayLink { link in
            guard link.frameIndex == 3 else { return }
            let started = AnimationTiming(beginTime: animator.currentTime - 0.5)
            animator.add(Tween(from: 0.0, to: 100, duration: 1, curve: .linear), timing: started) { shown.append($0) }
        }.add(to: loop, forMode: .common)
        source.advance(frames: 3)
        #expect(shown.count == 1)
        // Begun half a second before the current time, shown at the frame's target timestamp.
        let expected = 100 * (0.5 + (animator.targetTimestamp - loop.now).secondsValue)
        #expect(abs((shown.first ?? -1) - expected) < 1e-9)
    }
}
