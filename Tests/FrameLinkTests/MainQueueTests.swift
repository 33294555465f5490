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
}
