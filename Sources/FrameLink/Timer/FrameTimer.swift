/// A timer on a ``FrameLoop`` with `Timer` (NSTimer) semantics, on FrameLink's own deadline queue.
///
/// - A repeating timer stays on the grid of its first fire date: after firing late it reschedules to
///   the next grid date in the future, and fire dates it missed (a long frame, or a mode it is not
///   in) coalesce into one fire. Every 2 s from t0 with a 5.5 s stall from t3 fires at t2, t8.5, t10.
/// - A timer created with `scheduledTimer` is added to ``FrameLoop/current`` in `.default`; one
///   created with an initializer fires only once you ``add(to:forMode:)`` it, in any mode.
/// - ``fire()`` fires now without disturbing a repeating schedule, and ends a one-shot timer.
/// - ``tolerance`` lets an idle loop wake up to that much late to serve several timers at once; it
///   never moves the grid.
/// - ``repeatCount`` stops a timer after that many fires; ``isPaused`` suspends it. Resuming a
///   repeating timer keeps it on its grid and skips the fire dates that passed meanwhile (no burst
///   of catch-up fires); resuming a one-shot timer postpones it by the length of the pause (an 8 s
///   one-shot paused from 1 s to 6 s fires at 13 s).
/// - On **game time**: ``add(to:)`` puts the timer on a ``GameClock`` instead of a loop. Its
///   interval and fire dates are then game time: it stops while the clock is paused, runs slower
///   under a time scale, fires on single steps, and fires from the clock's
///   ``GameClock/update(at:)``.
///
/// The loop keeps the timer until it is invalidated; a one-shot timer invalidates itself after it
/// fires and releases its closure. A timer made with a weak target invalidates itself once the target
/// is gone. A closure that captures its owner strongly keeps the owner alive until ``invalidate()``.
///
/// Invalid arguments (a zero, negative, NaN or infinite interval, a repeat count below 1, a negative
/// ``tolerance``) are programmer errors: they stop the program with a ``FrameLinkError`` message
/// that says what to pass instead.
///
/// ```swift
/// let timer = FrameTimer(target: clock, interval: .seconds(1)) { clock, _ in clock.tick() }
/// timer.add(to: loop, forMode: .default)    // stops while the loop is in .tracking
/// ```
@MainActor
public final class FrameTimer {
    /// The time between fire dates of a repeating timer, or the delay of a one-shot timer.
    public let interval: Duration

    /// Whether the timer fires more than once.
    public let repeats: Bool

    /// The number of fires after which the timer invalidates itself, or `nil` for no limit.
    public let repeatCount: Int?

    /// A label that names the timer in statistics and drop reports.
    public var label: String?

    /// The number of times the timer has fired (including calls to ``fire()``).
    public var fireCount: Int { _fireCount }

    /// Whether the timer can still fire: false once invalidated.
    public var isValid: Bool { _isValid }

    /// How late the timer may fire when that lets an idle loop wake once for several timers; zero by
    /// default. It never shifts the timer's grid.
    public var tolerance: Duration = .zero {
        didSet {
            guard tolerance >= .zero else {
                FrameLinkError.trap(.invalidInterval("FrameTimer.tolerance \(tolerance): must be zero or more"))
            }
            toleranceNanoseconds = tolerance.wholeNanoseconds
            rescheduleIfActive()
        }
    }

    /// The next date at which the timer fires, on its loop's time. Before the timer is added to a
    /// loop this is ``interval`` after time zero, unless you set it; when it is added without an
    /// explicit date it becomes the loop's current time plus ``interval``. Setting it reschedules
    /// the timer, and a repeating timer's grid follows the new date.
    ///
    /// - Precondition: The timer is not on a ``GameClock``: game time is not loop time, and a timer
    ///   on a clock has a ``gameFireDate`` instead. Reading or setting this one there stops the
    ///   program with a `FrameLinkError` message.
    public var fireDate: FrameInstant {
        get {
            requireTime(.loop, "fireDate")
            return FrameInstant(nanoseconds: fireDateNanoseconds)
        }
        set {
            requireTime(.loop, "fireDate")
            setFireDate(newValue.nanoseconds, on: .loop)
        }
    }

    /// The next date at which the timer fires, in game time, for a timer on a ``GameClock`` (see
    /// ``add(to:)``). Before the timer is added this is ``interval`` after game time zero, unless
    /// you set it (`clock.now + .seconds(8)`); when it is added without an explicit date it
    /// becomes the clock's ``GameClock/now`` plus ``interval``. Setting it reschedules the timer.
    ///
    /// - Precondition: The timer is not on a ``FrameLoop`` (which has ``fireDate``); reading or
    ///   setting this one there stops the program with a `FrameLinkError` message.
    public var gameFireDate: GameInstant {
        get {
            requireTime(.game, "gameFireDate")
            return GameInstant(nanoseconds: fireDateNanoseconds)
        }
        set {
            requireTime(.game, "gameFireDate")
            setFireDate(newValue.nanoseconds, on: .game)
        }
    }

    /// Whether the timer is suspended.
    ///
    /// Resuming a repeating timer schedules its next fire on its grid after the current time: fire
    /// dates that passed while paused are skipped, not replayed. Resuming a one-shot timer postpones
    /// it by the length of the pause, so it fires as late as it would have without the pause
    /// (paused 1 s before its fire date, it fires 1 s after the resume). The time is the loop's,
    /// or the game clock's for a timer on a ``GameClock``.
    public var isPaused: Bool {
        get { _isPaused }
        set {
            let oldValue = _isPaused
            _isPaused = newValue
            guard newValue != oldValue, _isValid, let now = scheduleNow else { return }
            if newValue {
                pausedAt = now
                unschedule()
            } else {
                let pauseLength = pausedAt.map { max(0, now - $0) } ?? 0
                pausedAt = nil
                fireDateNanoseconds =
                    repeats
                    ? nextGridDate(after: now, from: fireDateNanoseconds) : fireDateNanoseconds &+ pauseLength
                schedule()
            }
        }
    }

    /// The game clock that runs the timer, if it is on game time (see ``add(to:)``).
    public var gameClock: GameClock? { clock }

    let intervalNanoseconds: Int64
    /// The loop's frame index at the last fire from the loop's timer pass.
    /// What the timer pass reads and writes on every fire, kept together so that a fire costs one
    /// read and one write of the timer's storage (each access of a class's stored property is
    /// checked for exclusivity at run time).
    private struct Fires {
        /// The loop's frame index at the last fire from the loop's timer pass.
        var lastCalledFrame: Int64 = -1
        var count = 0
        var dateNanoseconds: Int64
    }

    private var fires: Fires
    /// The loop's frame index at the last fire from the loop's timer pass.
    var lastCalledFrame: Int64 { fires.lastCalledFrame }
    private var _fireCount: Int {
        get { fires.count }
        set { fires.count = newValue }
    }
    private var fireDateNanoseconds: Int64 {
        get { fires.dateNanoseconds }
        set { fires.dateNanoseconds = newValue }
    }
    private var _isValid = true
    private var _isPaused = false
    private(set) var toleranceNanoseconds: Int64 = 0
    /// The timer's slot in its loop's timer schedule, or -1 while no loop holds it.
    var slot: Int32 = -1
    let hasWeakTarget: Bool
    /// Which time an explicitly set fire date is in, if one was set before the timer was added.
    private var explicitDate: _TimerTime?
    private weak var loop: FrameLoop?
    private weak var clock: GameClock?
    /// The time (the loop's or the clock's) at which the timer was paused, while it is paused.
    private var pausedAt: Int64?
    /// The closure; released by ``invalidate()``.
    private var callback: (@MainActor (FrameTimer) -> Void)?
    private weak var weakTarget: AnyObject?
    /// Whether the number of fires is limited (a one-shot timer, or a ``repeatCount``).
    private let limitsFires: Bool

    // MARK: Creating timers

    /// Creates a timer that calls `block` after `interval` (and every `interval`, if it repeats),
    /// once you add it to a loop.
    ///
    /// - Parameters:
    ///   - interval: The delay to the first fire and, for a repeating timer, between fires.
    ///   - repeats: Whether the timer keeps firing until invalidated.
    ///   - repeatCount: For a repeating timer, the number of fires after which it stops; `nil` for
    ///     no limit.
    ///   - block: Called with the timer each time it fires.
    /// - Precondition: Stops the program, with a `FrameLinkError` message, for an interval that is not positive or a repeat count below 1.
    public convenience init(
        interval: Duration, repeats: Bool, repeatCount: Int? = nil,
        block: @escaping @MainActor (FrameTimer) -> Void
    ) {
        self.init(validating: interval, repeats: repeats, repeatCount: repeatCount, target: nil, body: block)
    }

    /// Checks an interval and a repeat count read at run time (a level file, a settings panel):
    /// once it returns, every `FrameTimer` initializer accepts them. The initializers stop the
    /// program on the same values, with the same message.
    ///
    /// - Throws: ``FrameLinkError/invalidInterval(_:)`` for an interval that is not positive;
    ///   ``FrameLinkError/invalidCount(_:)`` for a repeat count below 1.
    public nonisolated static func validate(interval: Duration, repeatCount: Int? = nil) throws(FrameLinkError) {
        _ = try checkedIntervalNanoseconds(interval, repeatCount: repeatCount)
    }

    /// The interval in nanoseconds, after the checks ``validate(interval:repeatCount:)`` makes.
    private nonisolated static func checkedIntervalNanoseconds(
        _ interval: Duration, repeatCount: Int?
    ) throws(FrameLinkError) -> Int64 {
        let nanoseconds = try FrameLinkError.checkedNanoseconds(interval, what: "timer interval")
        if let repeatCount, repeatCount < 1 {
            throw .invalidCount("repeatCount \(repeatCount): must be at least 1 (or nil for no limit)")
        }
        return nanoseconds
    }

    /// The one initializer every form goes through: validates, then stores.
    private init(
        validating interval: Duration, repeats: Bool, repeatCount: Int?, target: AnyObject?,
        body: @escaping @MainActor (FrameTimer) -> Void
    ) {
        intervalNanoseconds = FrameLinkError.require { () throws(FrameLinkError) in
            try Self.checkedIntervalNanoseconds(interval, repeatCount: repeatCount)
        }
        self.interval = interval
        self.repeats = repeats
        self.repeatCount = repeatCount
        fires = Fires(dateNanoseconds: intervalNanoseconds)
        hasWeakTarget = target != nil
        weakTarget = target
        limitsFires = !repeats || repeatCount != nil
        callback = body
    }

    /// Creates a timer from an interval in seconds, as `Timer(timeInterval:repeats:block:)` does.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError` message, for an interval that is zero, negative, NaN or infinite.
    public convenience init(
        timeInterval: Double, repeats: Bool, repeatCount: Int? = nil,
        block: @escaping @MainActor (FrameTimer) -> Void
    ) {
        let nanoseconds = FrameLinkError.requiredNanoseconds(seconds: timeInterval, what: "timer interval")
        self.init(interval: .nanoseconds(nanoseconds), repeats: repeats, repeatCount: repeatCount, block: block)
    }

    /// Creates a timer that first fires at `fireDate`, then every `interval` if it repeats.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError` message, for an interval that is not positive or a repeat count below 1.
    public convenience init(
        fireAt fireDate: FrameInstant, interval: Duration, repeats: Bool, repeatCount: Int? = nil,
        block: @escaping @MainActor (FrameTimer) -> Void
    ) {
        self.init(interval: interval, repeats: repeats, repeatCount: repeatCount, block: block)
        self.fireDate = fireDate
    }

    /// Creates a timer for a ``GameClock`` that first fires at the game time `gameFireDate`, then
    /// every `interval` of game time if it repeats. Add it with ``add(to:)``.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError` message, for an interval that is not positive or a repeat count below 1.
    public convenience init(
        fireAt gameFireDate: GameInstant, interval: Duration, repeats: Bool, repeatCount: Int? = nil,
        block: @escaping @MainActor (FrameTimer) -> Void
    ) {
        self.init(interval: interval, repeats: repeats, repeatCount: repeatCount, block: block)
        self.gameFireDate = gameFireDate
    }

    /// Creates a timer that holds `target` weakly and hands it to `block` on each fire; the timer
    /// invalidates itself once `target` is gone.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError` message, for an interval that is not positive or a repeat count below 1.
    public convenience init<Target: AnyObject>(
        target: Target, interval: Duration, repeats: Bool = true, repeatCount: Int? = nil,
        block: @escaping @MainActor (Target, FrameTimer) -> Void
    ) {
        self.init(
            validating: interval, repeats: repeats, repeatCount: repeatCount, target: target,
            body: { @MainActor [weak target] timer in
                guard let target else {
                    timer.invalidate()
                    return
                }
                block(target, timer)
            })
    }

    /// Creates a timer and adds it to ``FrameLoop/current`` in `.default` mode, as
    /// `Timer.scheduledTimer(withTimeInterval:repeats:block:)` does.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError` message, for an invalid interval, or `.unsupported` if no loop exists.
    @discardableResult
    public static func scheduledTimer(
        withTimeInterval interval: Double, repeats: Bool,
        block: @escaping @MainActor (FrameTimer) -> Void
    ) -> FrameTimer {
        let timer = FrameTimer(timeInterval: interval, repeats: repeats, block: block)
        timer.addToCurrentLoop()
        return timer
    }

    /// Creates a timer with a `Duration` interval and adds it to ``FrameLoop/current`` in `.default`.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError` message, for an invalid interval, or `.unsupported` if no loop exists.
    @discardableResult
    public static func scheduledTimer(
        withInterval interval: Duration, repeats: Bool, repeatCount: Int? = nil,
        block: @escaping @MainActor (FrameTimer) -> Void
    ) -> FrameTimer {
        let timer = FrameTimer(interval: interval, repeats: repeats, repeatCount: repeatCount, block: block)
        timer.addToCurrentLoop()
        return timer
    }

    /// Creates a weak-target timer and adds it to ``FrameLoop/current`` in `.default`.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError` message, for an invalid interval, or `.unsupported` if no loop exists.
    @discardableResult
    public static func scheduledTimer<Target: AnyObject>(
        target: Target, interval: Duration, repeats: Bool = true, repeatCount: Int? = nil,
        block: @escaping @MainActor (Target, FrameTimer) -> Void
    ) -> FrameTimer {
        let timer = FrameTimer(
            target: target, interval: interval, repeats: repeats, repeatCount: repeatCount, block: block)
        timer.addToCurrentLoop()
        return timer
    }

    private func addToCurrentLoop() {
        guard let loop = FrameLoop.current else {
            FrameLinkError.trap(
                .unsupported("scheduledTimer needs a FrameLoop; create one first or use add(to:forMode:)"))
        }
        add(to: loop, forMode: .default)
    }

    // MARK: Adding and firing

    /// Adds the timer to `loop` for `mode`; call again to add it for more modes. The first add
    /// schedules it. Adding an invalidated timer does nothing; a timer belongs to one loop.
    public func add(to loop: FrameLoop, forMode mode: RunLoopMode) {
        guard isValid else { return }
        if let current = self.loop, current !== loop {
            preconditionFailure("FrameTimer.add(to:forMode:): the timer is already in another loop")
        }
        if clock != nil {
            preconditionFailure("FrameTimer.add(to:forMode:): the timer is on a game clock; a timer runs on one clock")
        }
        if explicitDate == .game {
            FrameLinkError.trap(
                .unsupported(
                    "FrameTimer.add(to:forMode:): the timer has a gameFireDate (game time); add it to a GameClock with add(to:), or set fireDate (loop time) instead"
                ))
        }
        let isFirstAdd = self.loop == nil
        self.loop = loop
        loop.timers.register(self, modeBit: loop.bit(for: mode))
        if isFirstAdd { start(at: loop.now.nanoseconds) }
    }

    /// Puts the timer on game time: `clock` fires it from ``GameClock/update(at:)`` once the game
    /// time reaches its fire date, so it stops while the clock is paused, runs slower or faster with
    /// the clock's time scale and fires on single steps. The first fire date is the clock's
    /// ``GameClock/now`` plus ``interval`` unless ``gameFireDate`` was set. Each fire is timed on its
    /// own inside a loop's frame, so drop reports and traces name the timer by its ``label``. The
    /// clock keeps the timer until it is invalidated. Adding an invalidated timer does nothing.
    ///
    /// - Parameter clock: The game clock whose time the timer runs on.
    /// - Precondition: The timer is on no loop and no other clock, and has no ``fireDate`` (loop
    ///   time) set: each stops the program with a message.
    public func add(to clock: GameClock) {
        guard isValid else { return }
        guard loop == nil, self.clock == nil || self.clock === clock else {
            preconditionFailure("FrameTimer.add(to:): the timer already runs on a loop or another game clock")
        }
        guard self.clock == nil else { return }
        if explicitDate == .loop {
            FrameLinkError.trap(
                .unsupported(
                    "FrameTimer.add(to: GameClock): the timer has a fireDate, which is loop time; set gameFireDate (clock.now + delay) instead"
                ))
        }
        self.clock = clock
        start(at: clock.timeNanoseconds)
    }

    /// Sets the first fire date (unless one was set) and schedules the timer, or notes when its
    /// pause began.
    private func start(at now: Int64) {
        if explicitDate == nil {
            fireDateNanoseconds = now + intervalNanoseconds
        }
        if isPaused {
            pausedAt = now
        } else {
            schedule()
        }
    }

    /// Stops the program when the timer runs on the other kind of time than `time`.
    private func requireTime(_ time: _TimerTime, _ property: String) {
        if loop == nil && clock == nil, let explicitDate, explicitDate != time {
            FrameLinkError.trap(
                .unsupported(
                    "FrameTimer.\(property): the timer's date was set as \(explicitDate == .game ? "game time (gameFireDate)" : "loop time (fireDate)"); use that property"
                ))
        }
        if time == .loop && clock != nil {
            FrameLinkError.trap(
                .unsupported("FrameTimer.\(property): the timer runs on a GameClock; use gameFireDate (game time)"))
        }
        if time == .game && loop != nil {
            FrameLinkError.trap(
                .unsupported("FrameTimer.\(property): the timer runs on a FrameLoop; use fireDate (loop time)"))
        }
    }

    /// Sets the next fire date (in nanoseconds of `time`) and reschedules the timer.
    private func setFireDate(_ nanoseconds: Int64, on time: _TimerTime) {
        fireDateNanoseconds = nanoseconds
        if loop == nil && clock == nil { explicitDate = time }
        rescheduleIfActive()
    }

    /// The current time of the loop or clock that runs the timer.
    private var scheduleNow: Int64? {
        if let loop { return loop.now.nanoseconds }
        return clock?.timeNanoseconds
    }

    private func schedule() {
        if let loop {
            loop.timers.schedule(self, fireDate: fireDateNanoseconds)
        } else {
            clock?.schedule(self)
        }
    }

    private func unschedule() {
        if let loop {
            loop.timers.unschedule(self)
        } else {
            clock?.unschedule(self)
        }
    }

    /// Fires the timer now. A repeating timer keeps its schedule; a one-shot timer is invalidated.
    /// The fire counts toward ``repeatCount``. Does nothing on an invalidated timer.
    public func fire() {
        guard _isValid, let callback else { return }
        _fireCount += 1
        callback(self)  // a copy: the call may invalidate the timer, which releases the closure
        if !repeats || (repeatCount.map { _fireCount >= $0 } ?? false) {
            invalidate()
        }
    }

    /// Stops the timer for good, removes it from its loop and releases its closure (and with it
    /// whatever the closure captured). Safe to call twice, or from inside the timer's own closure.
    public func invalidate() {
        guard _isValid else { return }
        _isValid = false
        callback = nil
        weakTarget = nil
        if let loop {
            self.loop = nil
            loop.timers.release(self)
        }
        if let clock {
            self.clock = nil
            clock.unschedule(self)
        }
    }

    /// The next fire date in nanoseconds of the loop's or clock's time.
    var nextFireNanoseconds: Int64 { fireDateNanoseconds }

    /// Counts a fire of the entry scheduled for `scheduledFor`, due at `now`, and returns the next
    /// fire date, or nil when this fire is the last. Called by the loop's timer pass, which then
    /// schedules the next date and calls ``callFromLoop()``.
    func beginFire(now: Int64, scheduledFor: Int64, frameIndex: Int64) -> Int64? {
        var fires = self.fires
        fires.lastCalledFrame = frameIndex
        fires.count &+= 1
        if limitsFires, !repeats || fires.count >= (repeatCount ?? .max) {
            self.fires = fires
            return nil
        }
        fires.dateNanoseconds = nextGridDate(after: now, from: scheduledFor)
        self.fires = fires
        return fires.dateNanoseconds
    }

    /// Calls the closure for a fire begun by ``beginFire(now:scheduledFor:frameIndex:)``.
    func callFromLoop() {
        guard let callback else { return }
        callback(self)  // a copy: the call may invalidate the timer, which releases the closure
    }

    /// The first date `from + k × interval` (k ≥ 0) that is after `now`.
    private func nextGridDate(after now: Int64, from date: Int64) -> Int64 {
        guard date <= now else { return date }
        let next = date &+ intervalNanoseconds
        if next > now { return next }  // the usual case: on time, no division
        let steps = (now - date) / intervalNanoseconds + 1
        return date + steps * intervalNanoseconds
    }

    private func rescheduleIfActive() {
        guard isValid, !isPaused else { return }
        schedule()
    }
}

extension FrameTimer: _WeakTargetItem {
    var targetIsGone: Bool { hasWeakTarget && weakTarget == nil }
    var isStillValid: Bool { isValid }
}
