@_spi(FrameSourceImplementation) import FrameLink
import Testing

/// One frame, top to bottom: a source's present (after the hold it may ask for), pacer and
/// timestamp steps, the loop's wait, then the frame's work, in that order; every wait on a virtual
/// clock is a jump of that clock.
@MainActor
@Suite("Frame pipeline: present, wait, timestamp, then the frame's work")
struct FramePipelineTests {
    /// A clock that records what the loop's waiter asks of it: sleeps jump it.
    @MainActor
    final class RecordingClock: PacingClock {
        var time: Int64 = 1_000_000_000
        var sleeps: [Int64] = []
        var sleepsInRealTime: Bool { false }
        func nanoseconds() -> Int64 { time }
        func sleep(untilNanoseconds deadline: Int64) {
            sleeps.append(deadline)
            time = max(time, deadline)
        }
    }

    /// A source that records each step it is asked for, and answers with `wait`.
    @MainActor
    final class StepSource: FrameSource {
        let refreshRate = FrameRate.hz60
        let recordingClock = RecordingClock()
        var clock: any PacingClock { recordingClock }
        let epochNanoseconds: Int64 = 1_000_000_000
        let steps: Recorder<String>
        var wait: (FrameInstant) -> FrameWait
        /// The wait before the present (none unless set).
        var hold: ((FrameInstant) -> FrameWait)?
        /// When each present was called.
        var presentedAt: [FrameInstant] = []

        init(steps: Recorder<String>, wait: @escaping (FrameInstant) -> FrameWait) {
            self.steps = steps
            self.wait = wait
        }

        func presentWait() -> FrameWait {
            guard let hold else { return .none }
            steps.append("hold")
            return hold(now)
        }

        func presentFrame() {
            steps.append("present")
            presentedAt.append(now)
        }

        func nextFrameWait() -> FrameWait {
            steps.append("wait")
            return wait(now)
        }

        func idleWait(until deadline: FrameInstant?) -> FrameWait {
            steps.append("idle wait")
            return .sleep(until: deadline ?? now)
        }

        func beginFrame(at instant: FrameInstant) -> FrameInstant {
            steps.append("timestamp")
            return instant
        }
    }

    @Test("runFrame runs present, wait, timestamp, events, input links, timers, update, late update, render")
    func order() {
        let steps = Recorder<String>()
        let source = StepSource(steps: steps) { now in .sleep(until: now + .milliseconds(10)) }
        let loop = FrameLoop(source: source)
        DisplayLink(phase: .render) { _ in steps.append("render link") }.add(to: loop, forMode: .common)
        DisplayLink(phase: .lateUpdate) { _ in steps.append("late update link") }.add(to: loop, forMode: .common)
        DisplayLink { _ in steps.append("update link") }.add(to: loop, forMode: .common)
        DisplayLink(phase: .input) { _ in steps.append("input link") }.add(to: loop, forMode: .common)
        FrameTimer(interval: .milliseconds(5), repeats: false) { _ in steps.append("timer") }
            .add(to: loop, forMode: .common)
        loop.eventHandler = { _ in steps.append("event handler") }
        loop.renderHandler = { _ in steps.append("render handler") }
        loop.runFrame()
        #expect(
            steps.values == [
                "present", "wait", "timestamp", "event handler", "input link", "timer", "update link",
                "late update link", "render link", "render handler",
            ])
        // The waiter slept on the source's clock, at the source's epoch plus the instant.
        #expect(source.recordingClock.sleeps == [1_010_000_000])
        #expect(loop.timestamp == FrameInstant(nanoseconds: 10_000_000))
    }

    @Test("a source's hold before its present is the loop waiter's wait, on the source's clock, before the present")
    func holdBeforePresent() {
        let steps = Recorder<String>()
        let source = StepSource(steps: steps) { now in .sleep(until: now + .milliseconds(10)) }
        source.hold = { now in .sleep(until: now + .milliseconds(4)) }
        let loop = FrameLoop(source: source)
        DisplayLink { _ in steps.append("update link") }.add(to: loop, forMode: .common)
        loop.runFrame()
        #expect(steps.values == ["hold", "present", "wait", "timestamp", "update link"])
        // The waiter slept for the hold, then for the pacer's wait; the present came after the hold.
        #expect(source.recordingClock.sleeps == [1_004_000_000, 1_014_000_000])
        #expect(source.presentedAt == [FrameInstant(nanoseconds: 4_000_000)])
        #expect(loop.timestamp == FrameInstant(nanoseconds: 14_000_000))
    }

    @Test("with no active link, the pacer's idle wait runs instead, after the present")
    func idle() {
        let steps = Recorder<String>()
        let source = StepSource(steps: steps) { _ in .none }
        let loop = FrameLoop(source: source)
        FrameTimer(interval: .milliseconds(30), repeats: false) { _ in steps.append("timer") }
            .add(to: loop, forMode: .common)
        loop.runFrame()
        #expect(steps.values == ["present", "idle wait", "timestamp", "timer"])
        #expect(source.recordingClock.sleeps == [1_030_000_000])
    }

    @Test(
        "each kind of wait on a virtual clock is a jump of that clock",
        arguments: [
            (FrameWait.none, 0),
            (.sleep(until: FrameInstant(nanoseconds: 7_000_000)), 7_000_000),
            (.deadline(FrameInstant(nanoseconds: 9_000_000)), 9_000_000),
            (.idle(until: FrameInstant(nanoseconds: 11_000_000)), 11_000_000),
        ] as [(FrameWait, Int64)])
    func waits(wait: FrameWait, reached: Int64) {
        let steps = Recorder<String>()
        let source = StepSource(steps: steps) { _ in wait }
        let loop = FrameLoop(source: source)
        loop.waiter.spin = .microseconds(300)
        DisplayLink { _ in }.add(to: loop, forMode: .common)
        loop.runFrame()
        #expect(loop.timestamp == FrameInstant(nanoseconds: reached))
        #expect(loop.waiter.waitScheduling == .off, "a virtual clock never asks for real-time priority")
    }

    @Test("a manual source is a virtual clock and a grid: its waits are grid points, never real time")
    func manualSource() {
        let source = ManualFrameSource(refreshRate: .hz60)
        let loop = FrameLoop(source: source)
        DisplayLink { _ in }.add(to: loop, forMode: .common)
        #expect(source.clock.sleepsInRealTime == false)
        #expect(source.epochNanoseconds == 0)
        #expect(source.nextFrameWait() == .sleep(until: FrameInstant(nanoseconds: 16_666_666)))
        source.advance(frames: 60)
        #expect(source.now == .seconds(1))
        #expect(source.clock.nanoseconds() == 1_000_000_000)
        #expect(loop.waiter.waitScheduling == .off)
    }
}
