import FrameLink
import Testing

@MainActor
@Suite("DisplayLink")
struct DisplayLinkTests {
    @Test("a link is called once per frame with timestamp, targetTimestamp, duration and frame index")
    func timing() throws {
        let (source, loop) = makeLoop()
        let seen = Recorder<(Int64, FrameInstant, FrameInstant, Duration)>()
        let link = DisplayLink { link in
            seen.append((link.frameIndex, link.timestamp, link.targetTimestamp, link.duration))
        }
        link.add(to: loop, forMode: .default)
        source.advance(frames: 3)
        #expect(seen.values.map(\.0) == [1, 2, 3])
        #expect(seen.values.map(\.1) == [16_666_666, 33_333_333, 50_000_000].map(FrameInstant.init(nanoseconds:)))
        #expect(seen.values.map(\.2) == [33_333_333, 50_000_000, 66_666_666].map(FrameInstant.init(nanoseconds:)))
        #expect(seen.values.allSatisfy { $0.3 == .nanoseconds(16_666_667) })
        #expect(link.callCount == 3)
    }

    @Test("on a steady 60 Hz grid targetTimestamp − timestamp is the exact grid step; duration is the period rounded")
    func durationAgainstTheGrid() {
        let (source, loop) = makeLoop()
        var steps: [Int64] = []
        var durations: Set<Duration> = []
        DisplayLink { link in
            steps.append((link.targetTimestamp - link.timestamp).wholeNanoseconds)
            durations.insert(link.duration)
        }.add(to: loop, forMode: .common)
        source.advance(frames: 600)
        #expect(durations == [.nanoseconds(16_666_667)])  // 1e9 / 60 rounded to the nearest
        #expect(Set(steps) == [16_666_666, 16_666_667])
        #expect(steps.count { $0 == 16_666_666 } == 200)  // one step in three rounds down
        #expect(steps.reduce(0, +) == 10_000_000_000)  // the grid sums to exact seconds
    }

    @Test("a link that is not added is never called; removing it from its last mode releases it")
    func addRemove() throws {
        let (source, loop) = makeLoop()
        var calls = 0
        let link = DisplayLink { _ in calls += 1 }
        source.advance(frames: 2)
        #expect(calls == 0)
        link.add(to: loop, forMode: .default)
        link.add(to: loop, forMode: .tracking)
        source.advance(frames: 2)
        link.remove(from: loop, forMode: .default)
        source.advance(frames: 2)
        #expect(calls == 2)
        #expect(loop.linkCount == 1)
        loop.currentMode = .tracking
        source.advance(frames: 2)
        #expect(calls == 4)
        link.remove(from: loop, forMode: .tracking)
        #expect(loop.linkCount == 0)
        source.advance(frames: 2)
        #expect(calls == 4)
    }

    @Test("a .default link stops in .tracking, a .common link continues")
    func modes() throws {
        let (source, loop) = makeLoop()
        var defaultCalls = 0
        var commonCalls = 0
        DisplayLink { _ in defaultCalls += 1 }.add(to: loop, forMode: .default)
        DisplayLink { _ in commonCalls += 1 }.add(to: loop, forMode: .common)
        loop.currentMode = .tracking
        source.advance(frames: 10)
        #expect(defaultCalls == 0 && commonCalls == 10)
        loop.currentMode = .default
        source.advance(frames: 10)
        #expect(defaultCalls == 10 && commonCalls == 20)
    }

    @Test(
        "preferredFrameRate calls the link on every k-th refresh, evenly",
        arguments: [
            (60.0, 30.0, 2), (60.0, 20.0, 3), (120.0, 30.0, 4), (60.0, 60.0, 1), (60.0, 120.0, 1), (60.0, 40.0, 2),
        ])
    func preferredRate(display: Double, preferred: Double, every: Int) throws {
        let (source, loop) = makeLoop(rate: FrameRate(framesPerSecond: display))
        let frames = Recorder<Int64>()
        let link = DisplayLink { link in frames.append(link.frameIndex) }
        link.preferredFrameRate = FrameRate(framesPerSecond: preferred)
        link.add(to: loop, forMode: .common)
        source.advance(frames: 12)
        let gaps = zip(frames.values.dropFirst(), frames.values).map { $0 - $1 }
        #expect(frames.values.count == 12 / every)
        #expect(gaps.allSatisfy { $0 == Int64(every) })
        // The target is the grid point `every` frames after the callback's frame.
        let rate = loop.refreshRate
        #expect(link.targetTimestamp.nanoseconds == rate.offsetNanoseconds(ofFrame: link.frameIndex + Int64(every)))
        link.preferredFrameRate = nil
        let before = frames.values.count
        source.advance(frames: 4)
        #expect(frames.values.count == before + 4)
    }

    @Test("pausing a link suspends its calls; the loop keeps it")
    func pause() throws {
        let (source, loop) = makeLoop()
        var calls = 0
        let link = DisplayLink { _ in calls += 1 }
        link.add(to: loop, forMode: .default)
        source.advance(frames: 3)
        link.isPaused = true
        source.advance(frames: 3)
        #expect(calls == 3 && loop.linkCount == 1)
        link.isPaused = false
        source.advance(frames: 3)
        #expect(calls == 6)
    }

    @Test(
        "invalidate() is idempotent, safe inside the callback, and nothing fires after it — not even later in that frame"
    )
    func invalidate() throws {
        let (source, loop) = makeLoop()
        var firstCalls = 0
        var secondCalls = 0
        var second: DisplayLink?
        let first = DisplayLink { link in
            firstCalls += 1
            if firstCalls == 2 {
                link.invalidate()
                link.invalidate()
                second?.invalidate()  // later in the same frame
            }
        }
        second = DisplayLink { _ in secondCalls += 1 }
        first.add(to: loop, forMode: .default)
        second?.add(to: loop, forMode: .default)
        source.advance(frames: 5)
        #expect(firstCalls == 2 && secondCalls == 1)
        #expect(loop.linkCount == 0)
        first.add(to: loop, forMode: .default)  // an invalidated link cannot come back
        source.advance(frames: 1)
        #expect(firstCalls == 2 && loop.linkCount == 0)
    }

    @Test("a link added from inside a callback is first called on the next frame")
    func addDuringFrame() throws {
        let (source, loop) = makeLoop()
        let order = Recorder<String>()
        let late = DisplayLink { _ in order.append("late") }
        let first = DisplayLink { link in
            order.append("first")
            late.add(to: loop, forMode: .default)
        }
        first.add(to: loop, forMode: .default)
        source.advance(frames: 2)
        #expect(order.values == ["first", "first", "late"])
    }

    @Test("phases run in order: events, timers, links, render")
    func phaseOrder() throws {
        let (source, loop) = makeLoop()
        let order = Recorder<String>()
        loop.eventHandler = { _ in order.append("events") }
        loop.renderHandler = { _ in order.append("render") }
        DisplayLink { _ in order.append("link") }.add(to: loop, forMode: .default)
        let timer = FrameTimer(interval: .nanoseconds(1), repeats: false) { _ in order.append("timer") }
        timer.add(to: loop, forMode: .default)
        source.advance(frames: 1)
        #expect(order.values == ["events", "timer", "link", "render"])
    }

    @Test("run(until:) and run(frames:) stop where asked, and stop() ends run() after the current frame")
    func running() throws {
        let (source, loop) = makeLoop()
        var calls = 0
        DisplayLink { _ in
            calls += 1
            if calls == 100 { loop.stop() }
        }.add(to: loop, forMode: .common)
        loop.run(until: .seconds(0.5))
        #expect(calls == 30)
        #expect(source.now == .seconds(0.5))
        loop.run(frames: 10)
        #expect(calls == 40)
        loop.run()
        #expect(calls == 100)
        #expect(!loop.isRunning)
    }

    @Test("with no active link the loop sleeps until the next timer deadline instead of waiting for frames")
    func idleSleepsToDeadline() throws {
        let source = RecordingIdleSource()
        let loop = FrameLoop(source: source)
        let timer = FrameTimer(interval: .seconds(2), repeats: true) { _ in }
        timer.add(to: loop, forMode: .default)
        loop.run(frames: 3)
        #expect(source.framesWaited == 0)
        #expect(source.idleDeadlines == [.seconds(2), .seconds(4), .seconds(6)])
        #expect(timer.fireCount == 3)

        let link = DisplayLink { _ in }
        link.add(to: loop, forMode: .default)
        loop.run(frames: 2)
        #expect(source.framesWaited == 2)
        link.isPaused = true
        loop.run(frames: 1)
        #expect(source.framesWaited == 2 && source.idleDeadlines.count == 4)
    }

    @Test("a timer in a mode the loop is not in does not wake an idle loop")
    func idleIgnoresOtherModes() throws {
        let source = RecordingIdleSource()
        let loop = FrameLoop(source: source)
        let timer = FrameTimer(interval: .seconds(1), repeats: true) { _ in }
        timer.add(to: loop, forMode: .tracking)
        loop.runFrame()
        #expect(source.idleDeadlines == [nil])
    }
}
