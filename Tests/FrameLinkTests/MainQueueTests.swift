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
        try MainActor.assumeIsolated {
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
            try source.advance(frames: 5)
            XCTAssertTrue(flags.taskRan, "a Task { @MainActor in … } must run while the loop runs")
            XCTAssertTrue(flags.blockRan, "a DispatchQueue.main.async block must run while the loop runs")
            XCTAssertEqual(flags.taskFrames.count, 3)
        }
    }

    func testWithoutDrainingTheMainQueueTasksStarve() throws {
        try MainActor.assumeIsolated {
            let source = ManualFrameSource()
            let loop = FrameLoop(source: source)
            loop.drainsMainQueue = false
            DisplayLink { _ in }.add(to: loop, forMode: .common)
            let flags = Flags()
            Task { @MainActor in flags.taskRan = true }
            try source.advance(frames: 5)
            XCTAssertFalse(flags.taskRan, "the control case: a loop that does not pump starves main-actor work")
            loop.drainsMainQueue = true
            try source.advance(frames: 1)
            XCTAssertTrue(flags.taskRan)
        }
    }

    func testAnIdleLoopRunsMainActorWorkWhileItSleeps() throws {
        try MainActor.assumeIsolated {
            // A real clock: the loop is idle (no links) and sleeps to a timer 50 ms away.
            let source = DeadlineSource(refreshRate: .hz60)
            let loop = FrameLoop(source: source)
            let flags = Flags()
            let timer = try FrameTimer(interval: .milliseconds(50), repeats: false) { _ in loop.stop() }
            timer.add(to: loop, forMode: .default)
            Task { @MainActor in flags.taskRan = true }
            loop.run()
            XCTAssertTrue(flags.taskRan)
            XCTAssertEqual(timer.fireCount, 1)
            XCTAssertGreaterThanOrEqual(loop.timestamp.nanoseconds, 50_000_000)
        }
    }

    func testWorkQueuedDuringAFrameWaitRunsDuringTheWaitNotAtTheNextFrame() throws {
        try MainActor.assumeIsolated {
            // 20 Hz on the real clock: each frame waits about 50 ms for its deadline.
            let source = DeadlineSource(refreshRate: try FrameRate(numerator: 20))
            let loop = FrameLoop(source: source)
            let flags = Flags()
            var queuedDuringFrame: [Int64] = []
            DisplayLink { link in
                guard link.callCount <= 3 else {
                    link.invalidate()  // the closure holds the loop: break the cycle
                    return loop.stop()
                }
                // Queued from another thread 10 ms into the frame's wait for the next one.
                let frame = link.frameIndex
                queuedDuringFrame.append(frame)
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) {
                    Task { @MainActor in flags.ranDuringFrame.append(loop.frameIndex) }
                }
            }.add(to: loop, forMode: .common)
            loop.run()
            XCTAssertEqual(
                flags.ranDuringFrame, queuedDuringFrame,
                "each task runs while the loop waits for the next frame, not when that frame begins")
        }
    }

    func testBlocksScheduledOnTheMainRunLoopStillRun() {
        MainActor.assumeIsolated {
            // The loop waits on the main queue directly and passes through the main run loop only
            // when a run-loop timer is due and every 60th frame: run-loop sources (here a block
            // scheduled on the run loop itself, which the main queue never sees) are served there.
            let source = DeadlineSource(refreshRate: try! FrameRate(numerator: 120))
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
            XCTAssertEqual(runs.value, 4, "every block scheduled on the main run loop ran")
        }
    }

    func testARunLoopTimerFiresInTheFrameItFallsDue() {
        MainActor.assumeIsolated {
            // A timer on the main run loop (what Foundation.Timer is built on; created through
            // CoreFoundation here because Foundation.Timer leaks on Linux) is served in the frame
            // it falls due, not only at the periodic pass every 60th frame: 40 frames of a 50 ms
            // timer at 60 Hz see about 13 fires, a pass every 60th frame would see at most one.
            let source = DeadlineSource(refreshRate: .hz60)
            let loop = FrameLoop(source: source)
            let fires = Counter()
            let timer = CFRunLoopTimerCreateWithHandler(nil, CFAbsoluteTimeGetCurrent() + 0.05, 0.05, 0, 0) { _ in
                fires.increment()
            }
            CFRunLoopAddTimer(CFRunLoopGetMain(), timer, kCFRunLoopDefaultMode)
            defer { CFRunLoopTimerInvalidate(timer) }
            let link = DisplayLink { _ in }
            link.add(to: loop, forMode: .common)
            loop.run(frames: 40)
            link.invalidate()
            XCTAssertGreaterThanOrEqual(fires.value, 8, "fires: \(fires.value)")
        }
    }

    /// A count that a run-loop block (a Sendable closure) can bump: it runs on the main thread.
    final class Counter: @unchecked Sendable {
        private(set) var value = 0
        func increment() { value += 1 }
    }
}
