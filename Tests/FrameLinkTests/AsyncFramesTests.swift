import FrameLink
import XCTest

/// `for await frame in link.frames` and `await loop.nextFrame()` on the process main thread, where
/// the loop's main-queue draining runs the consuming tasks between frames (XCTest: see DESIGN.md).
final class AsyncFramesTests: XCTestCase {
    @MainActor
    final class Consumer {
        var frames: [Int64] = []
        var finished = false
    }

    /// Lets main-actor work run, without running frames, until `condition` holds (a failure, not a
    /// wrong value later, if it has not after 30 s). A consumer's `for await` hops off the main
    /// actor and back for each element, through another thread: that takes real time, which virtual
    /// frames do not give, so the test waits for it on the main run loop (which runs the main queue
    /// as the work comes back). It returns as soon as `condition` holds.
    ///
    /// With `failing` false, giving up is not a failure: the caller tries again (a frame that came
    /// before the task waited for it).
    @MainActor
    static func settle(
        _ source: ManualFrameSource, within seconds: Int = 30, failing: Bool = true, file: StaticString = #filePath,
        line: UInt = #line, until condition: () -> Bool
    ) throws {
        let giveUp = ContinuousClock.now + .seconds(seconds)
        while !condition(), ContinuousClock.now < giveUp {
            source.advance(frames: 0)
            if !condition() { _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.001)) }
        }
        if failing && !condition() {
            XCTFail("timed out after \(seconds) s waiting for the consuming task", file: file, line: line)
        }
    }

    func testLinkFramesArriveInOrderAndEndOnInvalidate() throws {
        try MainActor.assumeIsolated {
            let source = ManualFrameSource()
            let loop = FrameLoop(source: source)
            let link = DisplayLink { _ in }
            link.add(to: loop, forMode: .common)
            let consumer = Consumer()
            weak var weakConsumer: Consumer?
            weakConsumer = consumer
            let stream = link.frames
            Task { @MainActor [consumer] in
                for await frame in stream { consumer.frames.append(frame.frameIndex) }
                consumer.finished = true
            }
            for frame in Int64(1)...5 {
                source.advance(frames: 1)
                try Self.settle(source) { consumer.frames.last == frame }
            }
            XCTAssertEqual(consumer.frames, [1, 2, 3, 4, 5])
            link.invalidate()
            source.advance(frames: 2)
            try Self.settle(source) { consumer.finished }
            XCTAssertTrue(consumer.finished, "the sequence ends when the link is invalidated")
            XCTAssertEqual(consumer.frames.count, 5)
            _ = weakConsumer
        }
    }

    func testTheConsumingTaskIsNotLeaked() throws {
        try MainActor.assumeIsolated {
            let source = ManualFrameSource()
            let loop = FrameLoop(source: source)
            weak var weakConsumer: Consumer?
            do {
                let link = DisplayLink { _ in }
                link.add(to: loop, forMode: .common)
                let consumer = Consumer()
                weakConsumer = consumer
                let stream = link.frames
                Task { @MainActor [consumer] in
                    for await _ in stream { consumer.frames.append(0) }
                    consumer.finished = true
                }
                source.advance(frames: 3)
                link.invalidate()
            }
            source.advance(frames: 3)
            // The task ends after a hop through another thread: give it the real time that takes.
            try Self.settle(source) { weakConsumer == nil }
            XCTAssertNil(weakConsumer, "the task finished and released what it captured")
        }
    }

    func testASlowConsumerGetsOnlyTheNewestFrame() throws {
        try MainActor.assumeIsolated {
            let source = ManualFrameSource()
            let loop = FrameLoop(source: source)
            loop.drainsMainQueue = false  // the consumer cannot run until we let it
            let link = DisplayLink { _ in }
            link.add(to: loop, forMode: .common)
            let consumer = Consumer()
            let stream = link.frames
            Task { @MainActor [consumer] in
                for await frame in stream { consumer.frames.append(frame.frameIndex) }
            }
            source.advance(frames: 10)
            loop.drainsMainQueue = true
            try Self.settle(source) { !consumer.frames.isEmpty }
            // Only the newest frame is buffered: frames 1…9 were dropped, not queued.
            XCTAssertEqual(consumer.frames, [10])
            source.advance(frames: 1)
            try Self.settle(source) { consumer.frames.count == 2 }
            XCTAssertEqual(consumer.frames, [10, 11])
            link.invalidate()
        }
    }

    func testNextFrameWakesAnAwaitingTaskAndDrivesFramesWithoutALink() throws {
        try MainActor.assumeIsolated {
            let source = ManualFrameSource()
            let loop = FrameLoop(source: source)
            let consumer = Consumer()
            Task { @MainActor [consumer] in
                for _ in 0..<3 {
                    let frame = await loop.nextFrame()
                    consumer.frames.append(frame.frameIndex)
                }
                consumer.finished = true
            }
            // A frame wakes the task only once it waits: keep running frames (each given time to
            // reach the task) until it has seen three, within 60 s.
            let giveUp = ContinuousClock.now + .seconds(60)
            while !consumer.finished, ContinuousClock.now < giveUp {
                let count = consumer.frames.count
                source.advance(frames: 1)
                try Self.settle(source, within: 1, failing: false) { consumer.frames.count > count }
            }
            XCTAssertTrue(consumer.finished)
            XCTAssertEqual(consumer.frames.count, 3)
            XCTAssertEqual(consumer.frames, consumer.frames.sorted())
        }
    }
}
