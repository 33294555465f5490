import CoreFoundation
import Dispatch
import FrameLink
import XCTest

/// Work queued for the main actor keeps running while a frame loop runs on the main thread.
///
/// XCTest, not Swift Testing: only XCTest runs test methods on the process main thread on Linux,
/// and only there does a blocking loop starve the main queue (see DESIGN.md).
final class MainQueueTests: XCTestCase {
    @MainActor
    final class Flags {
        var taskRan = false
        var blockRan = false
        var taskFrames: [Int64] = []
        var ranDuringFrame: [Int64] = []
    }

    func testMainActorTasksAndMainQueueBlocksRunBetweenFrames() throws {
        MainActor.assumeIsolated {
            Self.onBothPaths { path in
                XCTAssertTrue(Thread.isMainThread)
                let source = ManualFrameSource()
                let loop = FrameLoop(source: source)
                DisplayLink { _ in }.add(to: loop, forMode: .common)
                let flags = Flags()
                Task { @MainActor in
                    flags.taskRan = true
                    // A task that awaits keeps making progress across frames.
                    for _ in 0..<3 {
                        flags.taskFrames.append(loop.frameIndex)
                        await Task.yield()
                    }
                }
                DispatchQueue.main.async { MainActor.assumeIsolated { flags.blockRan = true } }
                source.advance(frames: 5)
                // Each `Task.yield()` may resume through another thread, which takes real time that
                // virtual frames do not give: wait for it on the main run loop (a hang after 30 s).
                let giveUp = ContinuousClock.now + .seconds(30)
                while flags.taskFrames.count < 3, ContinuousClock.now < giveUp {
                    source.advance(frames: 1)
                    _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.001))
                }
                if flags.taskFrames.count < 3 {
                    XCTFail("timed out after 30 s: the task took \(flags.taskFrames.count) of its 3 steps (\(path))")
                }
                XCTAssertTrue(flags.taskRan, "a Task { @MainActor in … } must run while the loop runs (\(path))")
                XCTAssertTrue(flags.blockRan, "a DispatchQueue.main.async block must run while the loop runs (\(path))")
                XCTAssertEqual(flags.taskFrames.count, 3, path)
            }
        }
    }

    func testWithoutDrainingTheMainQueueTasksStarve() throws {
        MainActor.assumeIsolated {
            let source = ManualFrameSource()
            let loop = FrameLoop(source: source)
            loop.drainsMainQueue = false
            DisplayLink { _ in }.add(to: loop, forMode: .common)
            let flags = Flags()
            Task { @MainActor in flags.taskRan = true }
            source.advance(frames: 5)
            XCTAssertFalse(flags.taskRan, "the control case: a loop that does not pump starves main-actor work")
            loop.drainsMainQueue = true
            source.advance(frames: 1)
            XCTAssertTrue(flags.taskRan)
        }
    }

    func testAnIdleLoopRunsMainActorWorkWhileItSleeps() throws {
        MainActor.assumeIsolated {
            Self.onBothPaths { path in
                // A real clock: the loop is idle (no links) and sleeps to a timer 50 ms away.
                let source = DeadlineSource(refreshRate: .hz60)
                let loop = FrameLoop(source: source)
                let flags = Flags()
                let timer = FrameTimer(interval: .milliseconds(50), repeats: false) { _ in loop.stop() }
                timer.add(to: loop, forMode: .default)
                Task { @MainActor in flags.taskRan = true }
                loop.run()
                XCTAssertTrue(flags.taskRan, path)
                XCTAssertEqual(timer.fireCount, 1, path)
                XCTAssertGreaterThanOrEqual(loop.timestamp.nanoseconds, 50_000_000, path)
            }
        }
    }

    func testWorkQueuedDuringAFrameWaitRunsDuringTheWaitNotAtTheNextFrame() throws {
        MainActor.assumeIsolated {
            Self.onBothPaths { path in
                // 1 Hz on the real clock: each frame waits about a second for its deadline.
                Self.checkWorkQueuedDuringAFrameWaitRunsDuringTheWait(
                    DeadlineSource(refreshRate: FrameRate(numerator: 1)), path: path)
            }
        }
    }

    func testASystemClockMadeByHandPacesExactlyAsTheDefaultClock() throws {
        // `SystemClock()` is a second handle on the same clock, not a virtual one: the source serves
        // the main queue during its waits, as the default source does.
        MainActor.assumeIsolated {
            Self.onBothPaths { path in
                Self.checkWorkQueuedDuringAFrameWaitRunsDuringTheWait(
                    DeadlineSource(refreshRate: FrameRate(numerator: 1), clock: SystemClock()), path: path)
            }
        }
    }

    /// Work queued from another thread while a frame ends (released by the frame's link) runs during
    /// that frame's wait, not when the next frame begins: the task queued in frame n sees frame n.
    ///
    /// Order, not time: the work is queued at once, and the wait lasts a period of the source (a
    /// second at 1 Hz), which the queueing thread needs a tiny part of, however busy the machine.
    @MainActor
    static func checkWorkQueuedDuringAFrameWaitRunsDuringTheWait(_ source: DeadlineSource, path: String) {
        let loop = FrameLoop(source: source)
        let flags = Flags()
        var queuedDuringFrame: [Int64] = []
        let frameEnded = DispatchSemaphore(value: 0)
        let queuer = Thread {
            for _ in 0..<2 {
                guard frameEnded.wait(timeout: .now() + .seconds(60)) == .success else { return }
                Task { @MainActor in flags.ranDuringFrame.append(loop.frameIndex) }
            }
        }
        queuer.start()
        DisplayLink { link in
            guard link.callCount <= 2 else {
                link.invalidate()  // the closure holds the loop: break the cycle
                return loop.stop()
            }
            queuedDuringFrame.append(link.frameIndex)
            frameEnded.signal()
        }.add(to: loop, forMode: .common)
        loop.run()
        XCTAssertEqual(queuedDuringFrame.count, 2, path)
        XCTAssertEqual(
            flags.ranDuringFrame, queuedDuringFrame,
            "each task runs while the loop waits for the next frame, not when that frame begins (\(path))")
    }

    func testBlocksScheduledOnTheMainRunLoopStillRun() {
        MainActor.assumeIsolated {
            Self.onBothPaths { path in
                // The loop waits on the main queue directly and passes through the main run loop only
                // when a run-loop timer is due and every 60th frame: run-loop sources (here a block
                // scheduled on the run loop itself, which the main queue never sees) are served there.
                let source = DeadlineSource(refreshRate: FrameRate(numerator: 120))
                let loop = FrameLoop(source: source)
                let runs = Counter()
                let link = DisplayLink { link in
                    // Four blocks; at least 60 frames follow the last one, so a pass serves it.
                    if link.callCount % 40 == 1 && link.callCount < 140 {
                        RunLoop.main.perform { runs.increment() }
                    }
                }
                link.add(to: loop, forMode: .common)
                loop.run(frames: 200)
                link.invalidate()  // the closure holds the loop: break the cycle
                XCTAssertEqual(runs.value, 4, "every block scheduled on the main run loop ran (\(path))")
            }
        }
    }

    func testARunLoopTimerFiresInTheFrameItFallsDue() {
        MainActor.assumeIsolated {
            Self.onBothPaths { path in
                // A timer on the main run loop (what Foundation.Timer is built on; created through
                // CoreFoundation here because Foundation.Timer leaks on Linux) is served in the frame
                // it falls due, not only at the periodic pass every 60th frame. Three one-shot timers
                // in a row, each 50 ms after the last fired: each must fire in a frame whose previous
                // frame began before the timer fell due (a frame that began later would have served
                // it). Load only delays frames; the order stays.
                let source = DeadlineSource(refreshRate: .hz60)
                let loop = FrameLoop(source: source)
                let fires = Fires()
                @Sendable func schedule() {
                    let due = CFAbsoluteTimeGetCurrent() + 0.05
                    fires.due.append(due)
                    let timer = CFRunLoopTimerCreateWithHandler(nil, due, 0, 0, 0) { _ in
                        MainActor.assumeIsolated { fires.frames.append(loop.frameIndex) }
                        if fires.frames.count < 3 && !fires.isOver { schedule() }
                    }
                    CFRunLoopAddTimer(CFRunLoopGetMain(), timer, kCFRunLoopDefaultMode)
                }
                var linkTimes: [Int64: CFAbsoluteTime] = [:]
                let link = DisplayLink { link in
                    linkTimes[link.frameIndex] = CFAbsoluteTimeGetCurrent()
                    if link.callCount == 2 { schedule() }  // after a frame that began before it
                }
                link.add(to: loop, forMode: .common)
                // At most a minute of frames: a timer that never fires fails below, it does not hang.
                loop.run(while: { $0.frameIndex < 3_600 && fires.frames.count < 3 })
                fires.isOver = true
                link.invalidate()
                XCTAssertEqual(fires.frames.count, 3, "fires: \(fires.frames) (\(path))")
                for (due, frame) in zip(fires.due, fires.frames) {
                    let previous = linkTimes[frame - 1]
                    XCTAssertNotNil(previous, "frame \(frame - 1) ran (\(path))")
                    XCTAssertLessThan(
                        previous ?? .infinity, due,
                        "the timer due at \(due) fired in frame \(frame), but frame \(frame - 1) began after it was due,"
                            + " at \(previous ?? 0) (\(path))")
                }
            }
        }
    }

    /// What the run-loop timers of a test did: when each was due, and in which frame it fired (set on
    /// the main thread only, by the timers' handlers).
    final class Fires: @unchecked Sendable {
        var due: [CFAbsoluteTime] = []
        var frames: [Int64] = []
        /// Set when the test is over: a timer still pending then schedules no other.
        var isOver = false
    }

    /// Runs `body` twice: on the path a game gets here (libdispatch's main-queue hooks, checked at
    /// the first wait), then with the run-loop fallback forced. Both must pass: the fallback is
    /// what runs where a toolchain drops or reroutes the hooks.
    @MainActor
    static func onBothPaths(_ body: (_ path: String) throws -> Void) rethrows {
        for forced in [false, true] {
            MainQueueDrain.forcesRunLoopFallback = forced
            defer { MainQueueDrain.forcesRunLoopFallback = false }
            try body(forced ? "run-loop fallback forced" : "main-queue hooks")
        }
    }

    func testTheHookPathIsCheckedAndUsedWhereItWorks() {
        MainActor.assumeIsolated {
            MainQueueDrain.forcesRunLoopFallback = false  // decide again
            let source = DeadlineSource(refreshRate: .hz60)
            let loop = FrameLoop(source: source)
            let link = DisplayLink { _ in }
            link.add(to: loop, forMode: .common)
            loop.run(frames: 2)
            link.invalidate()
            guard case .descriptor = MainQueueDrain.path else {
                return XCTFail("this toolchain's libdispatch has the hooks; the check chose \(MainQueueDrain.path)")
            }
            XCTAssertNil(MainQueueDrain.note)
            XCTAssertFalse(source.pacingDescription.contains("run loop"), source.pacingDescription)
        }
    }

    func testAHookThatRunsNothingIsDetectedAndTheRunLoopServesTheQueue() {
        MainActor.assumeIsolated {
            // As if a toolchain kept the symbols but no longer ran the main queue through them: the
            // check's probe block does not run, so the loop falls back and says so, once.
            MainQueueDrain.simulatesInertHook = true
            defer { MainQueueDrain.simulatesInertHook = false }
            let source = DeadlineSource(refreshRate: .hz60)
            let loop = FrameLoop(source: source)
            let flags = Flags()
            DispatchQueue.main.async { MainActor.assumeIsolated { flags.blockRan = true } }
            let link = DisplayLink { _ in }
            link.add(to: loop, forMode: .common)
            loop.run(frames: 3)
            link.invalidate()
            XCTAssertEqual(MainQueueDrain.path, .runLoop)
            XCTAssertTrue(flags.blockRan, "the run loop served the main queue instead")
            let description = loop.statistics.pacingDescription
            XCTAssertTrue(
                description.contains("main-queue hook did not run queued work"), "pacing description: \(description)")
            XCTAssertEqual(description.components(separatedBy: "run loop").count - 1, 1, "said once: \(description)")
        }
    }

    /// A count that a run-loop block (a Sendable closure) can bump: it runs on the main thread.
    final class Counter: @unchecked Sendable {
        private(set) var value = 0
        func increment() { value += 1 }
    }
}
