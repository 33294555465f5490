import Dispatch
import Foundation
import FrameLink
import Testing

/// A thread-safe counter and log for handlers running on dispatch queues (an NSLock, which the
/// thread sanitizer understands).
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Int] = []
    func append(_ value: Int) { lock.withLock { storage.append(value) } }
    var values: [Int] { lock.withLock { storage } }
    var count: Int { lock.withLock { storage.count } }
}

/// A weak target for queue timers.
final class QueueTarget: Sendable {
    let tally = Tally()
    let onDeinit: @Sendable () -> Void
    init(onDeinit: @escaping @Sendable () -> Void = {}) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}

/// Waits (polling, up to `seconds`: a hang, not a speed; it returns as soon as `condition` holds)
/// until `condition` holds; returns whether it did.
func eventually(within seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return condition()
}

@Suite("QueueTimer")
struct QueueTimerTests {
    @Test("fires on its queue, after the interval, until cancelled")
    func firesOnItsQueue() async throws {
        let queue = DispatchQueue(label: "framelink.test.queue")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 42)
        let onQueue = Tally()
        let timer = QueueTimer.scheduled(interval: .milliseconds(5), queue: queue) { _ in
            onQueue.append(DispatchQueue.getSpecific(key: key) ?? 0)
        }
        #expect(await eventually { onQueue.count >= 3 })
        timer.cancel()
        // A fire counts itself only while the timer is not cancelled, under the timer's lock: the
        // count is final now. A barrier on the queue lets a fire already running finish its handler.
        let fired = timer.fireCount
        queue.sync {}
        #expect(onQueue.count == fired, "every fire counted ran its handler on the queue, and none came after")
        #expect(timer.fireCount == fired)
        #expect(fired >= 3)
        #expect(onQueue.values.allSatisfy { $0 == 42 })
    }

    @Test("a timer starts suspended until resumed, and a one-shot fires once")
    func suspendedUntilResumed() async throws {
        let tally = Tally()
        let timer = QueueTimer(interval: .milliseconds(2), repeats: false) { _ in tally.append(1) }
        // Suspended: its dispatch source cannot fire until resumed.
        #expect(timer.isSuspended && !timer.isCancelled)
        #expect(tally.count == 0 && timer.fireCount == 0)
        timer.resume()
        #expect(!timer.isSuspended)
        // A one-shot cancels itself after its handler ran, so the counts are final once it is cancelled.
        #expect(await eventually { timer.isCancelled })
        #expect(tally.count == 1 && timer.fireCount == 1)
    }

    @Test("repeatCount and countdown are exact")
    func exactCounts() async throws {
        let tally = Tally()
        let timer = QueueTimer.scheduled(interval: .milliseconds(2), repeatCount: 7) { _ in tally.append(1) }
        // Cancelled after the 7th handler returned: the counts are final.
        #expect(await eventually { timer.isCancelled })
        #expect(tally.count == 7 && timer.fireCount == 7)

        let ticks = Tally()
        let done = Tally()
        let countdown = QueueTimer.countdown(
            from: 5, interval: .milliseconds(2), tick: { ticks.append($0) }, completion: { done.append(1) })
        #expect(await eventually { countdown.isCancelled && done.count == 1 })
        #expect(ticks.values == [4, 3, 2, 1, 0])
        #expect(done.count == 1)
    }

    @Test("a released weak target cancels the timer, and nothing keeps the target or the timer alive")
    func weakTarget() async throws {
        let deinitialized = Tally()
        var target: QueueTarget? = QueueTarget { deinitialized.append(1) }
        let timer = QueueTimer.scheduled(target: target!, interval: .milliseconds(2)) { target, _ in
            target.tally.append(1)
        }
        #expect(await eventually { (target?.tally.count ?? 0) >= 2 })
        target = nil
        #expect(await eventually { deinitialized.count == 1 })
        #expect(await eventually { timer.isCancelled })

        weak var weakTimer: QueueTimer?
        do {
            let transient = QueueTimer.scheduled(interval: .milliseconds(1)) { _ in }
            weakTimer = transient
        }
        #expect(await eventually { weakTimer == nil }, "the queue does not keep a timer alive")
    }

    @Test("suspend, resume and cancel in any order and count, from several threads, never trap, and keep their state")
    func noTraps() async throws {
        for seed in 0..<200 {
            var generator = SplitMix64(seed: UInt64(seed))
            let queue = DispatchQueue(label: "framelink.test.noTraps")
            let timer = QueueTimer(interval: .microseconds(200), queue: queue) { _ in }
            let operations = (0..<12).map { _ in generator.next() % 5 }
            await withTaskGroup(of: Void.self) { group in
                for operation in operations {
                    group.addTask {
                        switch operation {
                        case 0, 1: timer.resume()
                        case 2, 3: timer.suspend()
                        default: timer.cancel()
                        }
                    }
                }
            }
            let context = "seed \(seed), operations \(operations)"
            // Cancelled exactly when a cancel ran; a cancelled timer is never left suspended (its
            // source must be resumed once to be released).
            #expect(timer.isCancelled == operations.contains(4), "\(context)")
            #expect(!(timer.isCancelled && timer.isSuspended), "\(context)")
            if !operations.contains(4) && !operations.contains(where: { $0 < 2 }) {
                #expect(timer.isSuspended && timer.fireCount == 0, "never resumed: \(context)")
            }
            if seed.isMultiple(of: 3) { timer.cancel() }
            #expect(timer.isCancelled == (operations.contains(4) || seed.isMultiple(of: 3)), "\(context)")
            if timer.isCancelled {
                // No fire is counted after a cancel (a barrier lets one already running finish).
                let fired = timer.fireCount
                queue.sync {}
                #expect(timer.fireCount == fired, "\(context)")
            }
            if seed.isMultiple(of: 2) {
                timer.suspend()  // released while suspended
                #expect(timer.isSuspended == !timer.isCancelled, "\(context)")
            }
        }
        // Release while suspended, never resumed: the classic crash.
        do { _ = QueueTimer(interval: .seconds(1)) { _ in } }
        do {
            let timer = QueueTimer.scheduled(interval: .seconds(1)) { _ in }
            timer.suspend()
            timer.suspend()
        }
        do {
            let timer = QueueTimer(interval: .seconds(1)) { _ in }
            timer.cancel()
            timer.cancel()
            timer.resume()
            timer.suspend()
        }
    }

    @Test("the interval can change while the timer runs")
    func changeInterval() async throws {
        let tally = Tally()
        let timer = QueueTimer.scheduled(interval: .seconds(10)) { _ in tally.append(1) }
        timer.setInterval(.milliseconds(2))
        #expect(timer.interval == .milliseconds(2))
        #expect(await eventually { tally.count >= 3 })
        timer.cancel()
    }
}

/// A small seeded generator for randomized tests.
struct SplitMix64: RandomNumberGenerator, Sendable {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
