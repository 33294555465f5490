/// A main-thread frame loop with run-loop modes: the FrameLink counterpart of the main `RunLoop`
/// driving `CADisplayLink`s and `Timer`s.
///
/// Each iteration (``runFrame()``) waits for a frame boundary from its ``FrameSource``, then, in
/// order: runs the event handler, fires the timers that are due in the current mode, calls the
/// display links of the current mode, runs the render handler, and drains work queued for the main
/// actor. While no display link is active it sleeps until the next timer deadline instead (or until
/// input), so an idle loop uses no CPU.
///
/// The loop keeps every link and timer added to it until it is invalidated, as a run loop keeps its
/// timers, so you need not hold on to them yourself. Links and timers made with a weak target
/// invalidate themselves when the target is gone, so forgetting `invalidate()` never leaks.
///
/// ```swift
/// let loop = FrameLoop(source: DeadlineSource(refreshRate: .hz60))
/// let link = DisplayLink(target: scene) { scene, link in scene.step(to: link.targetTimestamp) }
/// link.add(to: loop, forMode: .common)
/// loop.run()   // until loop.stop()
/// ```
@MainActor
public final class FrameLoop {
    /// The source of frame boundaries and of time.
    public let source: any FrameSource

    /// The mode the loop runs in; only items added for this mode (or for `.common`, when this mode
    /// is in ``commonModes``) are called. Changes take effect at the next phase of the frame.
    public var currentMode: RunLoopMode = .default {
        didSet { updateActiveMask() }
    }

    /// The modes that `.common` stands for: `.default` and `.tracking` unless you add more.
    public private(set) var commonModes: Set<RunLoopMode> = [.default, .tracking]

    /// The number of frames the loop has run; the index of the current frame while one runs.
    @exclusivity(unchecked) public private(set) var frameIndex: Int64 = 0

    /// The timestamp of the current (or last) frame, from the frame source.
    @exclusivity(unchecked) public private(set) var timestamp: FrameInstant = .zero

    /// The time the next frame is expected: the next point of the source's frame grid.
    public var targetTimestamp: FrameInstant {
        source.expectedTimestamp(frames: 1, after: timestamp)
    }

    /// Whether ``run()`` (or another `run` variant) is executing.
    public private(set) var isRunning = false

    /// Whether the loop runs work queued for the main thread, so that `DispatchQueue.main` blocks
    /// and `Task { @MainActor in … }` work keep running (true by default): once per frame, during
    /// the deadline pacer's waits (as the work arrives), and while idle. `Foundation.Timer`s on the
    /// main run loop fire in the frame they fall due; other run-loop sources are served every 60th
    /// frame. It has an effect only on the process main thread.
    public var drainsMainQueue = true

    /// Frame-pacing statistics: dropped frames, hitches, percentiles and blame.
    public let statistics: FrameStatistics

    /// Whether each display-link and timer callback is timed, so that a drop report can name the
    /// slowest one (true by default).
    ///
    /// It costs one clock read per callback: about 22 ns with the system clock on a typical x86
    /// virtual machine, so 0.45 ms per frame for 20,000 callbacks and nothing noticeable for a few
    /// hundred. Turn it off when a frame dispatches many thousands of callbacks; phases are still
    /// timed and drops still name the phase.
    public var measuresCallbacks = true

    /// A log of every frame, if set: assign a ``FrameLog`` to start recording.
    public var frameLog: FrameLog?

    /// The longest time step handed to game logic in ``DisplayLink/deltaTime``: after a stall (a
    /// debugger pause, a slow load) the delta is clamped to it so that simulations do not explode
    /// (250 ms by default).
    public var maximumFrameDelta: Duration = .milliseconds(250) {
        didSet {
            precondition(maximumFrameDelta > .zero, "FrameLoop.maximumFrameDelta must be positive")
            maximumFrameDeltaNanoseconds = maximumFrameDelta.wholeNanoseconds
        }
    }

    /// Called at the start of every frame, before timers: pump input here. FrameLinkSDL sets it.
    public var eventHandler: (@MainActor (FrameLoop) -> Void)?

    /// Called at the end of every frame, after display links: draw here.
    public var renderHandler: (@MainActor (FrameLoop) -> Void)?

    // Items ------------------------------------------------------------------------------------
    // Properties touched on every frame are marked `@exclusivity(unchecked)`: the loop only ever
    // reads or writes them in instantaneous accesses on the main actor (no access is held across a
    // callback), so the run-time exclusivity check would cost time and prove nothing. The same holds
    // for the hot storage of DisplayLink, FrameTimer and _TimerQueue.
    @exclusivity(unchecked) var links: ContiguousArray<DisplayLink> = []
    /// `links` as unretained references, for the link pass (`links` keeps them alive).
    @exclusivity(unchecked) private var linkReferences: ContiguousArray<Unmanaged<DisplayLink>> = []
    @exclusivity(unchecked) private var linksNeedCompaction = false
    @exclusivity(unchecked) private var isDispatchingLinks = false

    let timerQueue = _TimerQueue()
    @exclusivity(unchecked) var timerSlots: ContiguousArray<FrameTimer?> = []
    /// `timerSlots` as unretained references, for the timer pass (`timerSlots` keeps them alive).
    @exclusivity(unchecked) private var timerReferences: ContiguousArray<Unmanaged<FrameTimer>?> = []
    @exclusivity(unchecked) var slotSequences: ContiguousArray<UInt64> = []
    @exclusivity(unchecked) var slotModeMasks: ContiguousArray<UInt64> = []
    @exclusivity(unchecked) private var freeSlots: [Int32] = []
    @exclusivity(unchecked) private var isFiringTimers = false
    @exclusivity(unchecked) private var releasedDuringPass: [Int32] = []

    @exclusivity(unchecked) private var weakItems: ContiguousArray<any _WeakTargetItem> = []

    // Modes -----------------------------------------------------------------------------------
    private var modeBits: [RunLoopMode: UInt64] = [.common: 1, .default: 2, .tracking: 4]
    @exclusivity(unchecked) private(set) var activeMask: UInt64 = 1 | 2

    @exclusivity(unchecked) private var workPhases = PhaseDurations()
    @exclusivity(unchecked) private var slowestCallback: _Culprit = .none
    @exclusivity(unchecked) private var slowestDuration: Int64 = 0
    @exclusivity(unchecked) private(set) var maximumFrameDeltaNanoseconds: Int64 = 250_000_000
    private var previousWasFrame = false
    private var isResynchronizing = false
    private var nextFrameWaiters: [CheckedContinuation<FrameSnapshot, Never>] = []
    private var stopRequested = false
    private var isInFrame = false

    /// The number of link and timer passes under way, in all loops (a callback may run another
    /// loop's frame).
    @exclusivity(unchecked) private static var passDepth = 0
    /// Callback boxes released during a pass: a pass borrows boxes without retaining them, so they
    /// are kept until the outermost pass ends.
    private static var retiredCallbacks: [AnyObject] = []

    private static weak var lastCreated: FrameLoop?
    private static var runningLoops: [FrameLoop] = []

    /// Creates a loop driven by `source`.
    public init(source: any FrameSource) {
        self.source = source
        statistics = FrameStatistics(period: source.refreshRate.period)
        statistics.source = source
        source.attach(to: self)
        Self.lastCreated = self
    }

    /// The loop that ``FrameTimer/scheduledTimer(withTimeInterval:repeats:block:)`` schedules on:
    /// the innermost loop that is running or inside ``runFrame()``, else the most recently created
    /// loop that still exists.
    public static var current: FrameLoop? {
        runningLoops.last ?? lastCreated
    }

    /// The refresh rate of the source.
    public var refreshRate: FrameRate { source.refreshRate }

    /// The current time on the source's clock.
    public var now: FrameInstant { source.now }

    // MARK: Modes

    /// Adds `mode` to the set that `.common` stands for: items added for `.common` now run in it too.
    public func addCommonMode(_ mode: RunLoopMode) {
        precondition(mode != .common, "addCommonMode(.common): .common is the set itself, not a mode to add")
        commonModes.insert(mode)
        updateActiveMask()
    }

    func bit(for mode: RunLoopMode) -> UInt64 {
        if let bit = modeBits[mode] { return bit }
        precondition(modeBits.count < 64, "FrameLoop supports at most 63 distinct run-loop modes")
        let bit = UInt64(1) << UInt64(modeBits.count)
        modeBits[mode] = bit
        return bit
    }

    private func updateActiveMask() {
        var mask = bit(for: currentMode)
        if commonModes.contains(currentMode) { mask |= 1 }
        activeMask = mask
    }

    // MARK: Running

    /// Runs frames until ``stop()`` is called.
    public func run() {
        run(while: { _ in true })
    }

    /// Runs frames until the source's clock reaches `deadline` or ``stop()`` is called.
    public func run(until deadline: FrameInstant) {
        run(while: { $0.source.now < deadline })
    }

    /// Runs `frames` frames, or fewer if ``stop()`` is called.
    public func run(frames: Int) {
        var remaining = frames
        run(while: { _ in
            remaining -= 1
            return remaining >= 0
        })
    }

    /// Runs frames while `condition` returns true (checked before each frame) and ``stop()`` has
    /// not been called.
    public func run(while condition: (FrameLoop) -> Bool) {
        stopRequested = false
        isRunning = true
        Self.runningLoops.append(self)
        defer {
            isRunning = false
            if let index = Self.runningLoops.lastIndex(where: { $0 === self }) {
                Self.runningLoops.remove(at: index)
            }
        }
        while !stopRequested && condition(self) {
            runFrame()
        }
    }

    /// Makes the running ``run()`` return after the current frame.
    public func stop() {
        stopRequested = true
    }

    /// Runs one iteration of the loop: waits for the frame boundary (or, with no active link,
    /// sleeps until the next timer or input), then events, timers, links and render.
    ///
    /// Call it from your own game loop to embed FrameLink without giving up your `while` loop.
    public func runFrame() {
        precondition(!isInFrame, "FrameLoop.runFrame() was called from inside a frame callback; it is not re-entrant")
        isInFrame = true
        defer { isInFrame = false }

        let waitStart = source.now.nanoseconds
        let frameTime: FrameInstant
        let isFrame = hasActiveLinks()
        if isFrame {
            frameTime = source.waitForNextFrame()
        } else {
            prepareTimers()
            let wake = timerQueue.idleWake(isActive: isActiveEntry)
            frameTime = source.waitIdle(until: wake.map(FrameInstant.init(nanoseconds:)), drainMainQueue: drain)
        }
        frameIndex += 1
        let previous = timestamp
        timestamp = frameTime
        if isFrame && previousWasFrame {
            recordInterval(from: previous.nanoseconds, waitStart: waitStart)
        }
        previousWasFrame = isFrame

        // The work of this frame, phase by phase; it is reported with the next frame's interval.
        slowestCallback = .none
        slowestDuration = 0
        var mark = source.now.nanoseconds
        if let eventHandler {
            eventHandler(self)
            mark = endPhase(.events, startedAt: mark, culprit: .handler("event handler"))
        } else {
            workPhases[.events] = 0
        }
        fireTimers(now: frameTime.nanoseconds)
        mark = endPhase(.timers, startedAt: mark, culprit: nil)
        dispatchLinks()
        mark = endPhase(.links, startedAt: mark, culprit: nil)
        if let renderHandler {
            renderHandler(self)
            mark = endPhase(.render, startedAt: mark, culprit: .handler("render handler"))
        } else {
            workPhases[.render] = 0
        }
        sweepWeakItems()
        isResynchronizing = false
        if !nextFrameWaiters.isEmpty { resumeNextFrameWaiters(previous: previous) }
        drain()
    }

    /// Starts over after a long pause (a level load, a modal dialog): the next frame is not counted
    /// as a hitch, display links get one period as their ``DisplayLink/deltaTime``, and timers
    /// coalesce what they missed, so nothing tries to catch up.
    public func resync() {
        previousWasFrame = false
        isResynchronizing = true
    }

    /// Waits for the next frame of the loop and returns its timing. While a task waits, the loop
    /// runs frames at the display's rate even if no display link is active.
    public func nextFrame() async -> FrameSnapshot {
        await withCheckedContinuation { continuation in
            nextFrameWaiters.append(continuation)
        }
    }

    private func resumeNextFrameWaiters(previous: FrameInstant) {
        let snapshot = FrameSnapshot(
            frameIndex: frameIndex, timestamp: timestamp, targetTimestamp: targetTimestamp,
            duration: source.refreshRate.period,
            deltaTime: .nanoseconds(min(timestamp.nanoseconds - previous.nanoseconds, maximumFrameDeltaNanoseconds)))
        let waiters = nextFrameWaiters
        nextFrameWaiters.removeAll()
        for waiter in waiters { waiter.resume(returning: snapshot) }
    }

    /// Records the interval that ended with the current frame, with the work phases of the
    /// previous frame and the wait that just ended.
    private func recordInterval(from previous: Int64, waitStart: Int64) {
        let now = timestamp.nanoseconds
        let period = source.refreshRate.periodNanoseconds
        var phases = workPhases
        let wait = max(0, now - waitStart)
        let present = min(max(0, source.lastPresentDuration), wait)
        phases[.present] = present
        phases[.presentWait] = wait - present
        let interval = now - previous
        let record = FrameRecord(
            index: frameIndex, timestamp: now, interval: interval,
            droppedFrames: FrameRecord.droppedFrames(interval: interval, period: period), phases: phases)
        frameLog?.append(record)
        statistics.periodNanoseconds = period
        if record.droppedFrames > 0 {
            statistics.record(record, culprit: slowestCallback.name, culpritDuration: slowestDuration)
        } else {
            statistics.record(record)
        }
    }

    /// Ends `phase` now, records its duration, and returns the time, so the next phase starts there.
    private func endPhase(_ phase: FramePhase, startedAt start: Int64, culprit: _Culprit?) -> Int64 {
        let end = source.now.nanoseconds
        let duration = end - start
        workPhases[phase] = duration
        if let culprit, measuresCallbacks, duration > slowestDuration {
            slowestCallback = culprit
            slowestDuration = duration
        }
        return end
    }

    private func drain() {
        if drainsMainQueue { MainQueueDrain.drainIfOnMainThread() }
    }

    // MARK: Links

    /// Takes ownership of a link's or timer's callback box being released, and keeps it until no
    /// pass can be running it.
    static func retire(_ callback: AnyObject) {
        if passDepth > 0 { retiredCallbacks.append(callback) }
    }

    private static func beginPass() {
        passDepth += 1
    }

    private static func endPass() {
        passDepth -= 1
        if passDepth == 0 && !retiredCallbacks.isEmpty {
            // Released outside the access: their closures' captures may run deinitializers that
            // invalidate more links or timers.
            var retired: [AnyObject] = []
            swap(&retired, &retiredCallbacks)
            retired.removeAll()
        }
    }

    func hasActiveLinks() -> Bool {
        if !nextFrameWaiters.isEmpty { return true }
        let mask = activeMask
        for link in links where link.modeMask & mask != 0 && !link._isPaused {
            return true
        }
        return false
    }

    func register(_ link: DisplayLink) {
        if !link.isInLoopArray {
            link.isInLoopArray = true
            links.append(link)
            linkReferences.append(.passUnretained(link))
            if link.hasWeakTarget { weakItems.append(link) }
        }
    }

    func linkDidLeave(_ link: DisplayLink) {
        linksNeedCompaction = true
        if !isDispatchingLinks { compactLinks() }
    }

    private func compactLinks() {
        guard linksNeedCompaction else { return }
        linksNeedCompaction = false
        var kept = 0
        for position in links.indices {
            let link = links[position]
            if link.modeMask == 0 {
                link.isInLoopArray = false
            } else {
                if kept != position {
                    links[kept] = link
                    linkReferences[kept] = linkReferences[position]
                }
                kept += 1
            }
        }
        links.removeLast(links.count - kept)
        linkReferences.removeLast(linkReferences.count - kept)
    }

    private func dispatchLinks() {
        let count = links.count
        guard count > 0 else { return }
        let mask = activeMask
        let index = frameIndex
        let time = timestamp
        let rate = source.refreshRate
        let period = rate.periodNanoseconds
        let nextFrame = source.expectedTimestamp(frames: 1, after: time)
        isDispatchingLinks = true
        Self.beginPass()
        defer { Self.endPass() }
        // `links` keeps every element alive for the whole pass (removals are compacted afterwards)
        // and retired callbacks are kept until it ends, so links and closures are borrowed through
        // `linkReferences` without a retain. The borrowing closures are nonisolated (`@Sendable`):
        // a main-actor closure handed to a generic function gets a run-time isolation check on
        // every call.
        let measure = measuresCallbacks
        let maximumDelta = maximumFrameDeltaNanoseconds
        let resynchronizes = isResynchronizing
        var mark = measure ? source.now.nanoseconds : 0
        for position in 0..<count {
            let reference = linkReferences[position]
            let delivery = reference._withUnsafeGuaranteedRef { @Sendable link in
                link._deliverFromLoop(
                    mask: mask, frameIndex: index, timestamp: time, targetTimestamp: nextFrame, period: period,
                    maximumDelta: maximumDelta, resynchronizes: resynchronizes)
            }
            switch delivery {
            case .skipped:
                continue
            case .delivered:
                break
            case .deliveredWithStreams:
                links[position].feedFrameStreams()
            case .needsRate:
                let link = links[position]
                let divisor = link.frameDivisor(refreshRate: rate)
                guard divisor == 1 || index % divisor == 0 else { continue }
                let target = divisor == 1 ? nextFrame : source.expectedTimestamp(frames: divisor, after: time)
                link.deliver(
                    frameIndex: index, timestamp: time, targetTimestamp: target, period: period,
                    maximumDelta: maximumDelta, resynchronizes: resynchronizes)
            }
            if measure {
                let end = source.now.nanoseconds
                if end - mark > slowestDuration {
                    slowestCallback = .link(links[position])
                    slowestDuration = end - mark
                }
                mark = end
            }
        }
        isDispatchingLinks = false
        compactLinks()
    }

    // MARK: Timers

    func schedule(_ timer: FrameTimer, fireDate: Int64) {
        schedule(slot: Int(timer.slot), fireDate: fireDate, tolerance: timer.toleranceNanoseconds, in: timerQueue)
    }

    /// Schedules the timer in `slot` (the loop's `timerQueue`, passed in so that the timer pass
    /// does not load and retain it for every timer).
    @inline(__always)
    private func schedule(slot: Int, fireDate: Int64, tolerance: Int64, in queue: _TimerQueue) {
        let sequence = queue.makeSequence()
        slotSequences[slot] = sequence
        queue.insert(
            _TimerEntry(deadline: fireDate, sequence: sequence, slot: Int32(slot), latest: fireDate &+ tolerance))
    }

    func unschedule(_ timer: FrameTimer) {
        guard timer.slot >= 0 else { return }
        slotSequences[Int(timer.slot)] = 0
    }

    func register(_ timer: FrameTimer, modeBit: UInt64) {
        if timer.slot < 0 {
            let slot: Int32
            if let free = freeSlots.popLast() {
                slot = free
                timerSlots[Int(slot)] = timer
                timerReferences[Int(slot)] = .passUnretained(timer)
                slotModeMasks[Int(slot)] = 0
            } else {
                slot = Int32(timerSlots.count)
                timerSlots.append(timer)
                timerReferences.append(.passUnretained(timer))
                slotSequences.append(0)
                slotModeMasks.append(0)
            }
            timer.slot = slot
            if timer.hasWeakTarget { weakItems.append(timer) }
        }
        slotModeMasks[Int(timer.slot)] |= modeBit
    }

    func release(_ timer: FrameTimer) {
        let slot = Int(timer.slot)
        guard slot >= 0 else { return }
        slotSequences[slot] = 0
        slotModeMasks[slot] = 0
        timer.slot = -1
        if isFiringTimers {
            // The timer pass borrows timers without retaining them: keep this one until it ends.
            releasedDuringPass.append(Int32(slot))
        } else {
            timerSlots[slot] = nil
            timerReferences[slot] = nil
            freeSlots.append(Int32(slot))
        }
    }

    private func prepareTimers() {
        guard !isFiringTimers else { return }
        timerQueue.prepare(isLive: { self.slotSequences[Int($0.slot)] == $0.sequence })
    }

    private func isActiveEntry(_ entry: _TimerEntry) -> Bool {
        let slot = Int(entry.slot)
        return slotSequences[slot] == entry.sequence && slotModeMasks[slot] & activeMask != 0
    }

    private func fireTimers(now: Int64) {
        prepareTimers()
        isFiringTimers = true
        defer {
            isFiringTimers = false
            for slot in releasedDuringPass {
                timerSlots[Int(slot)] = nil
                timerReferences[Int(slot)] = nil
                freeSlots.append(slot)
            }
            releasedDuringPass.removeAll(keepingCapacity: true)
        }
        let queue = timerQueue
        let mask = activeMask
        let index = frameIndex
        let measure = measuresCallbacks
        Self.beginPass()
        defer { Self.endPass() }
        var mark = measure ? source.now.nanoseconds : 0
        queue.kept.removeAll(keepingCapacity: true)
        var position = queue.head
        while position < queue.entries.count {
            let entry = queue.entries[position]
            if entry.deadline > now { break }
            position += 1
            let slot = Int(entry.slot)
            guard slotSequences[slot] == entry.sequence else { continue }  // stale
            guard slotModeMasks[slot] & mask != 0 else {
                queue.kept.append(entry)  // not in this mode: stays due
                continue
            }
            // Borrowed without a retain: `timerSlots` keeps the timer until the pass ends (see
            // `release`), and retired callbacks are kept as well. Nonisolated borrowing closures, as
            // in `dispatchLinks`.
            let reference = timerReferences[slot].unsafelyUnwrapped
            let next = reference._withUnsafeGuaranteedRef { @Sendable timer in
                timer._beginFireFromLoop(now: now, scheduledFor: entry.deadline, frameIndex: index)
            }
            if let next {
                // Scheduled before the call, so that the callback may reschedule or invalidate.
                let tolerance = reference._withUnsafeGuaranteedRef { @Sendable timer in timer.toleranceNanoseconds }
                schedule(slot: slot, fireDate: next, tolerance: tolerance, in: queue)
                reference._withUnsafeGuaranteedRef { @Sendable timer in timer._callFromLoop() }
            } else {
                let timer = timerSlots[slot].unsafelyUnwrapped
                timer._callFromLoop()
                timer.invalidate()
            }
            if measure {
                let end = source.now.nanoseconds
                if end - mark > slowestDuration, let timer = timerSlots[slot] {
                    slowestCallback = .timer(timer)
                    slowestDuration = end - mark
                }
                mark = end
            }
        }
        queue.restoreKept(before: position)
    }

    /// The earliest fire date among the timers that would fire in the current mode, if any.
    public var nextTimerFireDate: FrameInstant? {
        prepareTimers()
        var earliest: Int64?
        for slot in timerSlots.indices where slotSequences[slot] != 0 && slotModeMasks[slot] & activeMask != 0 {
            if let timer = timerSlots[slot] {
                earliest = min(earliest ?? .max, timer.fireDate.nanoseconds)
            }
        }
        return earliest.map(FrameInstant.init(nanoseconds:))
    }

    // MARK: Inspection

    /// The number of display links the loop holds (in any mode, paused or not).
    public var linkCount: Int { links.count { $0.modeMask != 0 } }

    /// The number of timers the loop holds (in any mode, paused or not).
    public var timerCount: Int { timerSlots.count { $0 != nil } }

    // MARK: Weak targets

    private func sweepWeakItems() {
        guard !weakItems.isEmpty else { return }
        var kept = 0
        for position in weakItems.indices {
            let item = weakItems[position]
            // An item called this frame already found its target alive (or invalidated itself).
            if item.isStillValid && item.lastCalledFrame != frameIndex && item.targetIsGone { item.invalidate() }
            if item.isStillValid {
                if kept != position { weakItems[kept] = item }
                kept += 1
            }
        }
        weakItems.removeLast(weakItems.count - kept)
    }
}

/// The slowest callback of a frame, named only when a drop report needs it.
@MainActor
enum _Culprit {
    case none
    case link(DisplayLink)
    case timer(FrameTimer)
    case handler(StaticString)

    var name: String? {
        switch self {
        case .none: nil
        case .link(let link): link.label ?? "a display link"
        case .timer(let timer): timer.label ?? "a \(timer.interval) timer"
        case .handler(let name): name.description
        }
    }
}

/// A link or timer whose target is held weakly, checked once per frame so that it leaves the loop
/// as soon as its target is gone, even if it is paused or not due.
@MainActor
protocol _WeakTargetItem: AnyObject {
    var targetIsGone: Bool { get }
    var lastCalledFrame: Int64 { get }
    var isStillValid: Bool { get }
    func invalidate()
}
