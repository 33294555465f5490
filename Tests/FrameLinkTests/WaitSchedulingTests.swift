import CFrameLinkShims
import Dispatch
import Foundation
import XCTest

@testable import FrameLink

/// A deadline source on the real clock raises its thread to real-time priority for each wait, and
/// only for the wait; where that is refused it waits at normal priority and says so.
///
/// XCTest, not Swift Testing: the waits serve the main queue only on the process main thread.
final class WaitSchedulingTests: XCTestCase {
    /// What a run saw: the policy during each frame's work, and during main-queue work served in
    /// the waits.
    @MainActor
    final class Policies {
        var duringFrames: [Int32] = []
        var duringMainQueueWork: [Int32] = []
    }

    /// Runs `frames` frames at 200 Hz on the real clock; each frame releases a thread that queues a
    /// main-queue block at once, which the loop serves in its wait. With `untilMainQueueWorkRan`, the
    /// run goes on (up to 30 s of frames) until a block has run in it: the order is certain, how soon
    /// a busy machine lets the other thread queue it is not. Blocks still queued when the run ends
    /// record nothing.
    @MainActor
    static func run(_ loop: FrameLoop, frames: Int = 6, untilMainQueueWorkRan: Bool = false) -> Policies {
        let policies = Policies()
        let released = DispatchSemaphore(value: 0)
        let isRunning = Flag()
        isRunning.value = true
        let queuer = Thread {
            while released.wait(timeout: .now() + .seconds(60)) == .success, isRunning.value {
                DispatchQueue.main.async {
                    MainActor.assumeIsolated {
                        guard isRunning.value else { return }
                        policies.duringMainQueueWork.append(CFrameLinkShims_currentPolicy())
                    }
                }
            }
        }
        queuer.start()
        let link = DisplayLink { _ in
            policies.duringFrames.append(CFrameLinkShims_currentPolicy())
            released.signal()
        }
        link.add(to: loop, forMode: .common)
        var remaining = frames
        loop.run(while: { _ in
            remaining -= 1
            return remaining >= 0
                || (untilMainQueueWorkRan && policies.duringMainQueueWork.isEmpty && remaining > -6_000)
        })
        link.invalidate()
        isRunning.value = false
        released.signal()  // the thread ends
        return policies
    }

    /// A flag the queueing thread and the main thread share.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var storage = false
        var value: Bool {
            get { lock.withLock { storage } }
            set { lock.withLock { storage = newValue } }
        }
    }

    func testOnlyTheWaitRunsAtRealTimePriority() throws {
        try MainActor.assumeIsolated {
            try MainQueueTests.onBothPaths { path in try Self.checkOnlyTheWaitRunsAtRealTimePriority(path: path) }
        }
    }

    @MainActor
    static func checkOnlyTheWaitRunsAtRealTimePriority(path: String) throws {
        do {
            let before = CFrameLinkShims_currentPolicy()
            let source = DeadlineSource(refreshRate: FrameRate(numerator: 200))
            let loop = FrameLoop(source: source)
            let policies = Self.run(loop, untilMainQueueWorkRan: true)
            switch loop.waiter.waitScheduling {
            case .realTime(let priority):
                XCTAssertEqual(priority, Int(_RealTimeWait.priority))
                XCTAssertTrue(
                    source.pacingDescription.contains("waits at real-time priority 10 (SCHED_FIFO), timer slack 1 ns"),
                    source.pacingDescription)
            case .refused(let reason):
                throw XCTSkip("this machine refuses real-time scheduling (\(reason)); the fallback test covers it")
            case let other:
                return XCTFail("a first wait on the real clock asks for real-time scheduling; got \(other)")
            }
            XCTAssertFalse(policies.duringFrames.isEmpty)
            XCTAssertFalse(
                policies.duringFrames.contains { CFrameLinkShims_isRealTimePolicy($0) },
                "a frame's work runs at the thread's own priority: \(policies.duringFrames)")
            XCTAssertFalse(policies.duringMainQueueWork.isEmpty, "main-queue work ran during the waits (\(path))")
            XCTAssertFalse(
                policies.duringMainQueueWork.contains { CFrameLinkShims_isRealTimePolicy($0) },
                "main-queue work served during a wait runs at the thread's own priority (\(path)):"
                    + " \(policies.duringMainQueueWork)")
            XCTAssertEqual(CFrameLinkShims_currentPolicy(), before, "the thread ends the run with its own policy")
        }
    }

    func testARefusalFallsBackToNormalPriorityAndSaysSo() throws {
        MainActor.assumeIsolated {
            _RealTimeWait.simulatesRefusal = true
            defer { _RealTimeWait.simulatesRefusal = false }
            let source = DeadlineSource(refreshRate: FrameRate(numerator: 200))
            let loop = FrameLoop(source: source)
            let policies = Self.run(loop)
            XCTAssertEqual(loop.waiter.waitScheduling, .refused(reason: "refusal simulated"))
            XCTAssertEqual(policies.duringFrames.count, 6, "the frames are paced all the same")
            XCTAssertFalse(policies.duringFrames.contains { CFrameLinkShims_isRealTimePolicy($0) })
            let description = source.pacingDescription
            XCTAssertTrue(
                description.contains(
                    "real-time scheduling refused (refusal simulated): waits at normal priority, timer slack 1 ns"),
                description)
            XCTAssertEqual(
                description.components(separatedBy: "refused").count - 1, 1, "said once: \(description)")
            _ = loop
        }
    }

    func testTurnedOffTheThreadIsLeftAlone() throws {
        MainActor.assumeIsolated {
            let source = DeadlineSource(refreshRate: FrameRate(numerator: 200))
            let loop = FrameLoop(source: source)
            loop.waiter.usesRealTimeScheduling = false
            let policies = Self.run(loop)
            XCTAssertEqual(loop.waiter.waitScheduling, .off)
            XCTAssertFalse(policies.duringFrames.contains { CFrameLinkShims_isRealTimePolicy($0) })
            XCTAssertTrue(source.pacingDescription.contains("real-time scheduling off"), source.pacingDescription)
        }
    }

    func testAThreadAlreadyAtRealTimePriorityKeepsIt() throws {
        try MainActor.assumeIsolated {
            // As if the game were started under `chrt -f 5`.
            var granted: Int32 = 0
            guard CFrameLinkShims_enterRealTime(5, &granted) == 0 else {
                throw XCTSkip("this machine refuses real-time scheduling: nothing to inherit")
            }
            defer { XCTAssertEqual(CFrameLinkShims_leaveRealTime(), 0) }
            let source = DeadlineSource(refreshRate: FrameRate(numerator: 200))
            let loop = FrameLoop(source: source)
            let policies = Self.run(loop, frames: 3)
            XCTAssertEqual(loop.waiter.waitScheduling, .inherited(priority: 5))
            XCTAssertTrue(
                policies.duringFrames.allSatisfy { CFrameLinkShims_isRealTimePolicy($0) },
                "the source leaves the thread's own real-time policy alone")
            XCTAssertTrue(CFrameLinkShims_isRealTimePolicy(CFrameLinkShims_currentPolicy()))
        }
    }

    func testAVirtualClockNeverAsks() {
        MainActor.assumeIsolated {
            let source = DeadlineSource(refreshRate: .hz60, clock: VirtualClock())
            let loop = FrameLoop(source: source)
            loop.run(frames: 5)
            XCTAssertEqual(loop.waiter.waitScheduling, .off)
            XCTAssertFalse(source.pacingDescription.contains("real-time"), source.pacingDescription)
        }
    }

    func testARefusalIsNeverTakenForAPriorityOfTheThreadsOwn() {
        MainActor.assumeIsolated {
            // An unprivileged player's answer (EPERM, which is 1) is a refusal, said in words; only
            // the shim's own "already real-time" answer leaves a priority of the thread's own.
            XCTAssertEqual(
                _RealTimeWait.outcome(ofRequest: EPERM, granted: 0),
                .refused(reason: "not permitted: no CAP_SYS_NICE and no real-time limit (ulimit -r)"))
            XCTAssertEqual(
                _RealTimeWait.outcome(ofRequest: CFrameLinkShims_alreadyRealTime, granted: 20), .inherited(priority: 20)
            )
            XCTAssertEqual(_RealTimeWait.outcome(ofRequest: 0, granted: 10), .realTime(priority: 10))
            XCTAssertEqual(
                _RealTimeWait.outcome(ofRequest: ENOSYS, granted: 0), .refused(reason: "not available on this system"))
        }
    }
}
