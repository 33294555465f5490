@_spi(FrameSourceImplementation) import FrameLink
import Testing

/// The NSTimer behaviours the seed articles describe, checked against FrameTimer on virtual time.
@MainActor
@Suite("Timer parity with NSTimer")
struct TimerParityTests {
    @Test("a scheduled timer fires on the current loop in .default; a created one only once added")
    func scheduledVersusCreated() throws {
        let (source, loop) = makeLoop()
        let fired = Recorder<String>()
        FrameTimer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in fired.append("scheduled") }
        let created = FrameTimer(timeInterval: 1, repeats: false) { _ in fired.append("created") }
        source.advance(to: .seconds(2))
        #expect(fired.values == ["scheduled"])
        #expect(created.isValid)

        created.add(to: loop, forMode: .common)
        source.advance(to: .seconds(3.5))
        #expect(fired.values == ["scheduled", "created"])
        #expect(!created.isValid)
    }

    @Test("the first fire comes after the interval, not at creation (unlike Foundation.Timer on Linux)")
    func firstFireAfterInterval() throws {
        let (source, loop) = makeLoop()
        let times = Recorder<FrameInstant>()
        let timer = FrameTimer(interval: .milliseconds(500), repeats: true) { _ in times.append(loop.timestamp) }
        timer.add(to: loop, forMode: .default)
        source.advance(to: .seconds(1.6))
        #expect(times.values == [.seconds(0.5), .seconds(1.0), .seconds(1.5)])
    }

    @Test("a .default timer pauses while the loop is in .tracking; a .common timer keeps firing")
    func modes() throws {
        let (source, loop) = makeLoop()
        let fired = Recorder<String>()
        let defaultTimer = FrameTimer(interval: .seconds(1), repeats: true) { _ in fired.append("default") }
        let commonTimer = FrameTimer(interval: .seconds(1), repeats: true) { _ in fired.append("common") }
        defaultTimer.add(to: loop, forMode: .default)
        commonTimer.add(to: loop, forMode: .common)

        loop.currentMode = .tracking
        source.advance(to: .seconds(3.5))
        #expect(fired.values == ["common", "common", "common"])

        // Back in .default: the missed fires of the default timer coalesce into one.
        fired.values.removeAll()
        loop.currentMode = .default
        source.advance(frames: 1)
        #expect(fired.values == ["default"])
        source.advance(to: .seconds(4.5))
        #expect(fired.values == ["default", "common", "default"])
    }

    @Test("a timer added to both .default and .tracking fires in both, as .common does")
    func addedToSeveralModes() throws {
        let (source, loop) = makeLoop()
        var count = 0
        let timer = FrameTimer(interval: .seconds(1), repeats: true) { _ in count += 1 }
        timer.add(to: loop, forMode: .default)
        timer.add(to: loop, forMode: .tracking)
        loop.currentMode = .tracking
        source.advance(to: .seconds(2.5))
        #expect(count == 2)
    }

    @Test("a custom mode joins .common only when added to the common set")
    func customCommonMode() throws {
        let (source, loop) = makeLoop()
        let menu = RunLoopMode("menu")
        var count = 0
        let timer = FrameTimer(interval: .seconds(1), repeats: true) { _ in count += 1 }
        timer.add(to: loop, forMode: .common)
        loop.currentMode = menu
        source.advance(to: .seconds(2.5))
        #expect(count == 0)
        loop.addCommonMode(menu)
        #expect(loop.commonModes == [.default, .tracking, menu])
        source.advance(to: .seconds(4.5))
        #expect(count == 3)  // one coalesced fire for 1 s…2 s on the next frame, then 3 s and 4 s
    }

    @Test("every 2 s from t0 with a 5.5 s stall from t3 fires at t2, t8.5 and t10")
    func skippedFiresCoalesceOnTheGrid() throws {
        let (source, loop) = makeLoop()
        let fires = Recorder<FrameInstant>()
        let timer = FrameTimer(interval: .seconds(2), repeats: true) { _ in fires.append(loop.timestamp) }
        timer.add(to: loop, forMode: .default)
        source.advance(to: .seconds(3))
        source.advance(by: .seconds(5.5))  // the main thread is busy from t3 to t8.5
        source.advance(to: .seconds(10.5))
        #expect(fires.values == [.seconds(2), .seconds(8.5), .seconds(10)])
        #expect(timer.fireDate == .seconds(12))
    }

    @Test("a long callback does not push the grid back: fires stay on multiples of the interval")
    func lateFireKeepsGrid() throws {
        let (source, loop) = makeLoop(rate: FrameRate(numerator: 100))
        let fires = Recorder<FrameInstant>()
        let timer = FrameTimer(interval: .milliseconds(50), repeats: true) { _ in fires.append(loop.timestamp) }
        timer.add(to: loop, forMode: .default)
        source.advance(to: .seconds(0.05))
        source.advance(by: .milliseconds(57))  // a long frame: the 0.1 s fire comes at 0.107 s
        source.advance(to: .seconds(0.2))
        #expect(fires.values == [.seconds(0.05), .seconds(0.107), .seconds(0.15), .seconds(0.2)])
    }

    @Test("fire() fires now, keeps a repeating schedule, and ends a one-shot timer")
    func fireNow() throws {
        let (source, loop) = makeLoop()
        let fires = Recorder<FrameInstant>()
        let repeating = FrameTimer(interval: .seconds(1), repeats: true) { _ in fires.append(loop.now) }
        repeating.add(to: loop, forMode: .default)
        source.advance(to: .seconds(0.5))
        repeating.fire()
        #expect(fires.values == [.seconds(0.5)])
        #expect(repeating.fireDate == .seconds(1))
        source.advance(to: .seconds(1))
        #expect(fires.values == [.seconds(0.5), .seconds(1)])

        var oneShotCount = 0
        let oneShot = FrameTimer(interval: .seconds(1), repeats: false) { _ in oneShotCount += 1 }
        oneShot.add(to: loop, forMode: .default)
        oneShot.fire()
        #expect(!oneShot.isValid)
        source.advance(to: .seconds(3))
        #expect(oneShotCount == 1)
        oneShot.fire()
        #expect(oneShotCount == 1)
    }

    @Test("setting fireDate reschedules, and a repeating timer follows the new grid")
    func settableFireDate() throws {
        let (source, loop) = makeLoop()
        let fires = Recorder<FrameInstant>()
        let timer = FrameTimer(interval: .seconds(1), repeats: true) { _ in fires.append(loop.timestamp) }
        timer.add(to: loop, forMode: .default)
        timer.fireDate = .seconds(0.25)
        source.advance(to: .seconds(2.5))
        #expect(fires.values == [.seconds(0.25), .seconds(1.25), .seconds(2.25)])

        timer.fireDate = .distantFuture
        source.advance(to: .seconds(5))
        #expect(fires.values.count == 3)
    }

    @Test("a fire date set before adding is kept; one in the past fires on the next frame")
    func explicitStartDate() throws {
        let (source, loop) = makeLoop()
        let fires = Recorder<FrameInstant>()
        let timer = FrameTimer(fireAt: .seconds(0.5), interval: .seconds(2), repeats: true) { _ in
            fires.append(loop.timestamp)
        }
        source.advance(to: .seconds(1))
        timer.add(to: loop, forMode: .default)
        source.advance(to: .seconds(3))
        #expect(fires.values == [FrameInstant(nanoseconds: 1_016_666_666), .seconds(2.5)])
    }

    @Test("repeatCount stops the timer after exactly that many fires")
    func repeatCount() throws {
        let (source, loop) = makeLoop()
        var count = 0
        let timer = FrameTimer(interval: .milliseconds(100), repeats: true, repeatCount: 5) { _ in count += 1 }
        timer.add(to: loop, forMode: .default)
        source.advance(to: .seconds(2))
        #expect(count == 5)
        #expect(timer.fireCount == 5)
        #expect(!timer.isValid)
        #expect(loop.timerCount == 0)
    }

    @Test("pausing suspends a timer and resuming skips the missed dates: no burst of catch-up fires")
    func suspendResume() throws {
        let (source, loop) = makeLoop()
        let fires = Recorder<FrameInstant>()
        let timer = FrameTimer(interval: .seconds(1), repeats: true) { _ in fires.append(loop.timestamp) }
        timer.add(to: loop, forMode: .default)
        source.advance(to: .seconds(1.5))
        timer.isPaused = true
        source.advance(to: .seconds(4.5))
        #expect(fires.values == [.seconds(1)])
        timer.isPaused = false
        #expect(timer.fireDate == .seconds(5))
        source.advance(to: .seconds(6))
        #expect(fires.values == [.seconds(1), .seconds(5), .seconds(6)])
        // Pausing twice and resuming twice is harmless.
        timer.isPaused = true
        timer.isPaused = true
        timer.isPaused = false
        timer.isPaused = false
        source.advance(to: .seconds(7))
        #expect(fires.values.count == 4)
    }

    @Test("invalidate() from inside the callback stops the timer; calling it twice is safe")
    func invalidateInsideCallback() throws {
        let (source, loop) = makeLoop()
        var count = 0
        let timer = FrameTimer(interval: .milliseconds(100), repeats: true) { timer in
            count += 1
            if count == 3 {
                timer.invalidate()
                timer.invalidate()
            }
        }
        timer.add(to: loop, forMode: .default)
        source.advance(to: .seconds(2))
        #expect(count == 3)
        #expect(loop.timerCount == 0)
        timer.invalidate()
    }

    @Test("timers with the same fire date fire in the order they were scheduled")
    func fifoOrder() throws {
        let (source, loop) = makeLoop()
        let order = Recorder<Int>()
        var timers: [FrameTimer] = []
        for index in 0..<5 {
            let timer = FrameTimer(interval: .seconds(1), repeats: true) { _ in order.append(index) }
            timer.add(to: loop, forMode: .default)
            timers.append(timer)
        }
        source.advance(to: .seconds(2))
        #expect(order.values == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4])
    }

    @Test("tolerance lets an idle loop wake once for timers whose windows overlap, without moving the grid")
    func toleranceCoalescesIdleWakeups() throws {
        let source = RecordingIdleSource()
        let loop = FrameLoop(source: source)
        let a = FrameTimer(interval: .milliseconds(100), repeats: true) { _ in }
        a.tolerance = .milliseconds(30)
        let b = FrameTimer(interval: .milliseconds(120), repeats: true) { _ in }
        a.add(to: loop, forMode: .default)
        b.add(to: loop, forMode: .default)
        loop.runFrame()
        // a may fire in 100…130 ms and b is due at 120 ms: one wake at 120 ms serves both.
        #expect(source.idleDeadlines == [FrameInstant.seconds(0.12)])
        #expect(a.fireCount == 1 && b.fireCount == 1)
        #expect(a.fireDate == .seconds(0.2))
    }
}

/// A source whose idle wait jumps straight to the deadline it is given, recording it.
@MainActor
final class RecordingIdleSource: FrameSource {
    let refreshRate = FrameRate.hz60
    let virtualClock = VirtualClock()
    var clock: any PacingClock { virtualClock }
    let epochNanoseconds: Int64 = 0
    var idleDeadlines: [FrameInstant?] = []
    var framesWaited = 0

    func nextFrameWait() -> FrameWait {
        framesWaited += 1
        return .sleep(until: now + refreshRate.period)
    }

    func idleWait(until deadline: FrameInstant?) -> FrameWait {
        idleDeadlines.append(deadline)
        return deadline.map { .sleep(until: $0) } ?? .none
    }

    func beginFrame(at instant: FrameInstant) -> FrameInstant { instant }
}
