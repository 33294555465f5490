import Dispatch
import Foundation
import Synchronization
import XCTest

@_spi(FrameSourceImplementation) @testable import FrameLink

/// The idle loop without slices: with nothing to run it sleeps until its next timer, input on the
/// host's descriptor, or main-queue work, and wakes for nothing else. On the process main thread
/// (XCTest), where the main queue's descriptor is served; verdicts are what woke the loop, never how
/// long it took.
final class IdleWakeTests: XCTestCase {
    /// A pipe standing in for a display connection: readable when "input" arrived.
    struct Pipe: Sendable {
        let read: Int32
        let write: Int32
        init() {
            var ends: [Int32] = [0, 0]
            _ = pipe(&ends)
            read = ends[0]
            write = ends[1]
            _ = fcntl(read, F_SETFL, O_NONBLOCK)
        }
        func send() { _ = Foundation.write(write, "x", 1) }
        /// Whether a byte was there (and takes it), as a pump reads the connection.
        func take() -> Bool {
            var byte: UInt8 = 0
            return Foundation.read(read, &byte, 1) == 1
        }
        func close() {
            _ = Foundation.close(read)
            _ = Foundation.close(write)
        }
    }

    /// A loop on the real clock whose host says how input wakes it, with a timer `timerIn` away.
    @MainActor
    static func idleLoop(input: _IdleInput, inputPending: (@MainActor () -> Bool)?, timerIn: Duration) -> (
        FrameLoop, FrameTimer
    ) {
        let source = DeadlineSource(refreshRate: .hz60)
        source.idleInput = { input }
        source.inputPending = inputPending
        let loop = FrameLoop(source: source)
        let timer = FrameTimer(interval: timerIn, repeats: false) { _ in }
        timer.add(to: loop, forMode: .common)
        return (loop, timer)
    }

    func testInputOnTheDescriptorWakesTheIdleLoopWithoutSlices() throws {
        try XCTSkipUnless(Thread.isMainThread, "the idle path serves the main queue: main thread only")
        let pipe = Pipe()
        defer { pipe.close() }
        MainActor.assumeIsolated {
            var sawInput = false
            let (loop, timer) = Self.idleLoop(
                input: .descriptors(connection: pipe.read, wake: nil),
                inputPending: {
                    if pipe.take() { sawInput = true }
                    return sawInput
                }, timerIn: .seconds(30))
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { pipe.send() }
            loop.run(frames: 1)
            XCTAssertTrue(sawInput, "the loop woke for the input")
            XCTAssertTrue(timer.isValid, "not for the timer, 30 s away")
            XCTAssertLessThanOrEqual(loop.waiter.idleWakeUps, 3, "no slices: one sleep until the input")
        }
    }

    func testTheWakeUpDescriptorWakesTheIdleLoopForAnEventPushedFromAnotherThread() throws {
        try XCTSkipUnless(Thread.isMainThread, "the idle path serves the main queue: main thread only")
        let wake = Pipe()  // standing in for the host's eventfd: readable when signalled
        defer { wake.close() }
        let pushed = LockedFlag()
        MainActor.assumeIsolated {
            let (loop, timer) = Self.idleLoop(
                input: .descriptors(connection: nil, wake: wake.read), inputPending: { pushed.value },
                timerIn: .seconds(30))
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
                pushed.set()  // an event into the host's queue, as SDL_PushEvent would...
                wake.send()  // ...and the host's event watch signalling it
            }
            loop.run(frames: 1)
            XCTAssertTrue(pushed.value)
            XCTAssertTrue(timer.isValid, "woken by the push, not the timer 30 s away")
            XCTAssertLessThanOrEqual(loop.waiter.idleWakeUps, 3)
        }
    }

    func testMainQueueWorkWakesTheIdleLoopAndRuns() throws {
        try XCTSkipUnless(Thread.isMainThread, "the idle path serves the main queue: main thread only")
        MainActor.assumeIsolated {
            let (loop, timer) = Self.idleLoop(
                input: .descriptors(connection: nil, wake: nil), inputPending: { false }, timerIn: .seconds(30))
            let ran = LockedFlag()
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
                DispatchQueue.main.async { ran.set() }
            }
            loop.run(frames: 1)
            XCTAssertTrue(ran.value, "the main-queue work ran and ended the idle wait")
            XCTAssertTrue(timer.isValid)
            XCTAssertLessThanOrEqual(loop.waiter.idleWakeUps, 3)
        }
    }

    func testATimerIsReachedInTwoWakeUps() throws {
        try XCTSkipUnless(Thread.isMainThread, "the idle path serves the main queue: main thread only")
        MainActor.assumeIsolated {
            let (loop, timer) = Self.idleLoop(
                input: .descriptors(connection: nil, wake: nil), inputPending: { false }, timerIn: .milliseconds(200))
            loop.run(frames: 1)
            XCTAssertFalse(timer.isValid, "the timer fired")
            // One sleep to 2 ms before the timer, one to the timer (a signal could add one).
            XCTAssertLessThanOrEqual(loop.waiter.idleWakeUps, 3)
            XCTAssertGreaterThanOrEqual(loop.waiter.idleWakeUps, 1)
        }
    }

    func testADescriptorThatStaysReadableWithoutInputDoesNotSpin() throws {
        try XCTSkipUnless(Thread.isMainThread, "the idle path serves the main queue: main thread only")
        let pipe = Pipe()
        defer { pipe.close() }
        pipe.send()  // readable for good: nothing takes it
        MainActor.assumeIsolated {
            let (loop, timer) = Self.idleLoop(
                input: .descriptors(connection: pipe.read, wake: nil), inputPending: { false },
                timerIn: .milliseconds(300))
            loop.run(frames: 1)
            XCTAssertFalse(timer.isValid)
            // Every other sleep is a slice (4 ms) without the descriptor: a few hundred at most, not
            // the millions of a spin.
            XCTAssertLessThan(loop.waiter.idleWakeUps, 1_000, "\(loop.waiter.idleWakeUps) wake-ups")
        }
    }
}

extension IdleWakeTests {
    func testADescriptorClosedUnderTheWaitDoesNotSpin() throws {
        try XCTSkipUnless(Thread.isMainThread, "the idle path serves the main queue: main thread only")
        let pipe = Pipe()
        pipe.close()  // both ends closed: the "connection" is not open
        MainActor.assumeIsolated {
            let (loop, timer) = Self.idleLoop(
                input: .descriptors(connection: pipe.read, wake: pipe.write), inputPending: { false },
                timerIn: .milliseconds(300))
            loop.run(frames: 1)
            XCTAssertFalse(timer.isValid)
            // Each failed wait is followed by a plain slice (4 ms): under a hundred, not a spin.
            XCTAssertLessThan(loop.waiter.idleWakeUps, 1_000, "\(loop.waiter.idleWakeUps) wake-ups")
        }
    }
}

/// A flag set from the main queue and read by the test.
final class LockedFlag: Sendable {
    private let state = Mutex(false)
    func set() { state.withLock { $0 = true } }
    var value: Bool { state.withLock { $0 } }
}
