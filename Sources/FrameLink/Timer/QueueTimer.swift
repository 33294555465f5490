import Dispatch

/// A timer on a dispatch queue — a leak-free, trap-free wrapper of `DispatchSourceTimer` for work off
/// the main thread (the third timer kind of the seeds: TGCDTimer, SwiftTimer, JK's GCD holder).
///
/// - Created suspended, like a dispatch source; ``resume()`` starts it (``scheduled(interval:repeats:repeatCount:leeway:queue:handler:)``
///   creates and starts in one step). The first fire comes one interval after it starts.
/// - ``suspend()`` and ``resume()`` are idempotent and may be called in any order and any number of
///   times from any thread: libdispatch traps on an unbalanced resume and on releasing a suspended
///   source, and neither is reachable through this API.
/// - ``cancel()`` is idempotent; the timer cancels itself when released (also while suspended), after
///   ``repeatCount`` fires, after a one-shot fire, and — in the weak-target form — once the target is
///   gone. The handler never runs after `cancel()` returns on the timer's own queue, and at most once
///   more if cancelled from another thread while a fire is already running.
/// - Keep a reference while you need it, as with any dispatch source: the queue does not keep the
///   timer alive, so a forgotten timer stops instead of leaking.
///
/// ```swift
/// let autosave = QueueTimer.scheduled(target: game, interval: .seconds(30), queue: saveQueue) { game, _ in
///     game.saveSnapshot()
/// }
/// ```
public final class QueueTimer: Sendable {
    /// The timer's mutable state, only ever reached under ``state``'s lock. Unchecked only for the
    /// dispatch source: libdispatch objects are thread-safe, but Dispatch's `DispatchSourceTimer`
    /// protocol is not marked `Sendable` on Linux.
    private struct State: @unchecked Sendable {
        var isSuspended = true
        var isCancelled = false
        var fireCount = 0
        var intervalNanoseconds: Int64
        var leewayNanoseconds: Int64
        /// The dispatch source: thread-safe itself, but every change of its schedule or suspension
        /// count goes with a change of the fields above, so it is reached under the same lock.
        let source: any DispatchSourceTimer
    }

    /// The number of fires after which the timer cancels itself, or `nil` for no limit.
    public let repeatCount: Int?

    /// Whether the timer fires more than once.
    public let repeats: Bool

    /// The queue the handler runs on.
    public let queue: DispatchQueue

    private let state: _Protected<State>
    private let handler: @Sendable (QueueTimer) -> Bool

    /// Creates a suspended timer that calls `handler` on `queue` every `interval` (or once).
    ///
    /// - Parameters:
    ///   - interval: The time between fires, and before the first one.
    ///   - repeats: Whether the timer keeps firing (true by default).
    ///   - repeatCount: For a repeating timer, the number of fires after which it cancels itself.
    ///   - leeway: How late the system may fire to save power (zero by default).
    ///   - queue: The queue to run `handler` on (a global queue by default).
    ///   - handler: Called with the timer on each fire.
    /// - Precondition: Stops the program, with a `FrameLinkError` message, for an interval that is not positive, a negative leeway, or a
    ///   repeat count below 1.
    public convenience init(
        interval: Duration, repeats: Bool = true, repeatCount: Int? = nil, leeway: Duration = .zero,
        queue: DispatchQueue = .global(), handler: @escaping @Sendable (QueueTimer) -> Void
    ) {
        self.init(
            checkedInterval: interval, repeats: repeats, repeatCount: repeatCount, leeway: leeway, queue: queue
        ) { timer in
            handler(timer)
            return true
        }
    }

    /// Creates a suspended timer that holds `target` weakly and hands it to `handler` on each fire;
    /// the timer cancels itself once `target` is gone.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError` message, for an invalid interval, leeway or repeat count.
    public convenience init<Target: AnyObject & Sendable>(
        target: Target, interval: Duration, repeats: Bool = true, repeatCount: Int? = nil,
        leeway: Duration = .zero, queue: DispatchQueue = .global(),
        handler: @escaping @Sendable (Target, QueueTimer) -> Void
    ) {
        self.init(
            checkedInterval: interval, repeats: repeats, repeatCount: repeatCount, leeway: leeway, queue: queue
        ) { [weak target] timer in
            guard let target else { return false }
            handler(target, timer)
            return true
        }
    }

    /// Checks an interval, a leeway and a repeat count read at run time: once it returns, every
    /// `QueueTimer` initializer accepts them. The initializers stop the program on the same values,
    /// with the same message.
    ///
    /// - Throws: ``FrameLinkError/invalidInterval(_:)`` for an interval that is not positive or a
    ///   negative leeway; ``FrameLinkError/invalidCount(_:)`` for a repeat count below 1.
    public static func validate(
        interval: Duration, leeway: Duration = .zero, repeatCount: Int? = nil
    ) throws(FrameLinkError) {
        _ = try checked(interval: interval, leeway: leeway, repeatCount: repeatCount)
    }

    /// The interval and leeway in nanoseconds, after the checks ``validate(interval:leeway:repeatCount:)`` makes.
    private static func checked(
        interval: Duration, leeway: Duration, repeatCount: Int?
    ) throws(FrameLinkError) -> (interval: Int64, leeway: Int64) {
        let nanoseconds = try FrameLinkError.checkedNanoseconds(interval, what: "queue timer interval")
        let leewayNanoseconds = try FrameLinkError.checkedNanoseconds(leeway, what: "leeway", allowZero: true)
        if let repeatCount, repeatCount < 1 {
            throw .invalidCount("repeatCount \(repeatCount): must be at least 1 (or nil for no limit)")
        }
        return (nanoseconds, leewayNanoseconds)
    }

    private init(
        checkedInterval interval: Duration, repeats: Bool, repeatCount: Int?, leeway: Duration,
        queue: DispatchQueue, handler: @escaping @Sendable (QueueTimer) -> Bool
    ) {
        let (nanoseconds, leewayNanoseconds) = FrameLinkError.require { () throws(FrameLinkError) in
            try Self.checked(interval: interval, leeway: leeway, repeatCount: repeatCount)
        }
        self.repeats = repeats
        self.repeatCount = repeatCount
        self.queue = queue
        self.handler = handler
        state = _Protected(
            State(
                intervalNanoseconds: nanoseconds, leewayNanoseconds: leewayNanoseconds,
                source: DispatchSource.makeTimerSource(queue: queue)))
        state.withLock { state in state.source.setEventHandler { [weak self] in self?.fire() } }
    }

    /// Creates a timer and starts it at once.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError` message, for an invalid interval, leeway or repeat count.
    public static func scheduled(
        interval: Duration, repeats: Bool = true, repeatCount: Int? = nil, leeway: Duration = .zero,
        queue: DispatchQueue = .global(), handler: @escaping @Sendable (QueueTimer) -> Void
    ) -> QueueTimer {
        let timer = QueueTimer(
            interval: interval, repeats: repeats, repeatCount: repeatCount, leeway: leeway, queue: queue,
            handler: handler)
        timer.resume()
        return timer
    }

    /// Creates a weak-target timer and starts it at once.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError` message, for an invalid interval, leeway or repeat count.
    public static func scheduled<Target: AnyObject & Sendable>(
        target: Target, interval: Duration, repeats: Bool = true, repeatCount: Int? = nil,
        leeway: Duration = .zero, queue: DispatchQueue = .global(),
        handler: @escaping @Sendable (Target, QueueTimer) -> Void
    ) -> QueueTimer {
        let timer = QueueTimer(
            target: target, interval: interval, repeats: repeats, repeatCount: repeatCount, leeway: leeway,
            queue: queue, handler: handler)
        timer.resume()
        return timer
    }

    /// A countdown: calls `tick` with the number of ticks left (`count − 1` down to 0) every
    /// `interval`, then `completion`, then cancels itself.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError` message, for an invalid interval or a count below 1.
    public static func countdown(
        from count: Int, interval: Duration, queue: DispatchQueue = .global(),
        tick: @escaping @Sendable (_ remaining: Int) -> Void, completion: @escaping @Sendable () -> Void
    ) -> QueueTimer {
        guard count >= 1 else { FrameLinkError.trap(.invalidCount("countdown from \(count): must be at least 1")) }
        return scheduled(interval: interval, repeats: true, repeatCount: count, queue: queue) { timer in
            let remaining = count - timer.fireCount
            tick(remaining)
            if remaining == 0 { completion() }
        }
    }

    deinit {
        // Releasing a suspended source traps in libdispatch: resume it before cancelling.
        state.withLock { state in
            if !state.isCancelled {
                state.isCancelled = true
                state.source.cancel()
            }
            if state.isSuspended {
                state.isSuspended = false
                state.source.resume()
            }
        }
    }

    // MARK: Control

    /// Starts or continues the timer. Does nothing if it is running or cancelled.
    public func resume() {
        state.withLock { state in
            guard state.isSuspended, !state.isCancelled else { return }
            if state.fireCount == 0 { schedule(state) }
            state.isSuspended = false
            state.source.resume()
        }
    }

    /// Pauses the timer; fires that come due meanwhile coalesce into one after ``resume()``. Does
    /// nothing if it is already suspended or cancelled.
    public func suspend() {
        state.withLock { state in
            guard !state.isSuspended, !state.isCancelled else { return }
            state.isSuspended = true
            state.source.suspend()
        }
    }

    /// Stops the timer for good. Safe to call any number of times, from any thread, in any state.
    public func cancel() {
        state.withLock { state in
            guard !state.isCancelled else { return }
            state.isCancelled = true
            state.source.cancel()
            // A cancelled source must still be resumed once if suspended, or its release traps.
            if state.isSuspended {
                state.isSuspended = false
                state.source.resume()
            }
        }
    }

    /// Changes the interval; a running timer's next fire comes one new interval from now.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidInterval` message, if `interval` is not positive.
    public func setInterval(_ interval: Duration) {
        let nanoseconds = FrameLinkError.requiredNanoseconds(interval, what: "queue timer interval")
        state.withLock { state in
            state.intervalNanoseconds = nanoseconds
            if !state.isCancelled { schedule(state) }
        }
    }

    /// The interval between fires.
    public var interval: Duration { .nanoseconds(state.withLock { $0.intervalNanoseconds }) }

    /// The number of times the handler has run.
    public var fireCount: Int { state.withLock { $0.fireCount } }

    /// Whether the timer is suspended (true until first resumed).
    public var isSuspended: Bool { state.withLock { $0.isSuspended } }

    /// Whether the timer has been cancelled.
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    // MARK: Firing

    private func schedule(_ state: State) {
        let interval = DispatchTimeInterval.nanoseconds(Int(state.intervalNanoseconds))
        state.source.schedule(
            deadline: .now() + interval, repeating: repeats ? interval : .never,
            leeway: .nanoseconds(Int(state.leewayNanoseconds)))
    }

    private func fire() {
        let shouldRun = state.withLock { state -> Bool in
            guard !state.isCancelled else { return false }
            state.fireCount += 1
            return true
        }
        guard shouldRun else { return }
        let targetAlive = handler(self)
        let finished = state.withLock { state in
            !targetAlive || !repeats || (repeatCount.map { state.fireCount >= $0 } ?? false)
        }
        if finished { cancel() }
    }
}
