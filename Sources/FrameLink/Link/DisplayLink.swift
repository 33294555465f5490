/// A display link: a callback run once per frame of a ``FrameLoop``, in step with the display's
/// refresh (the FrameLink counterpart of `CADisplayLink`).
///
/// Create it with a closure, or with a weak target that is handed to the closure, then add it to a
/// loop for one or more modes. The loop keeps it until ``invalidate()``; a weak-target link also
/// invalidates itself once its target is gone, so a forgotten `invalidate()` never keeps a scene
/// alive.
///
/// ```swift
/// let link = DisplayLink(target: scene) { scene, link in
///     scene.update(dt: link.deltaTime)
/// }
/// link.preferredFrameRate = .hz30     // every 2nd frame of a 60 Hz display
/// // or a range: 48 Hz (every 3rd frame) on a 144 Hz display
/// link.preferredFrameRateRange = FrameRateRange(minimum: 40, maximum: 50)
/// link.add(to: loop, forMode: .common)
/// ```
///
/// A link runs in a ``LinkPhase`` of the frame (``LinkPhase/update`` unless told): input links
/// before timers, then update and late-update links, then render links before the render handler;
/// within a phase, in the order they were added.
///
/// A closure that captures its owner strongly (`DisplayLink { _ in self.step() }`) keeps the owner
/// alive until `invalidate()`, exactly as a strong `CADisplayLink` target does. Use the
/// `target:` form, or capture `[weak self]`, and the link cannot leak.
@MainActor
public final class DisplayLink {
    /// A label that names the link in statistics and drop reports.
    public var label: String?

    /// The timestamp of the frame being (or last) delivered: when the frame began, on the loop's
    /// clock.
    public var timestamp: FrameInstant { state.timestamp }

    /// The time the frame this link is building is expected to be shown: the loop's
    /// ``FrameLoop/targetTimestamp`` (where the source models its swap chain, the refresh the frame
    /// will reach, which may be more than a period away), or, for a link called every k-th frame, the
    /// k-th grid point after ``timestamp`` (never before the loop's target). Never before
    /// ``timestamp``. Step animations to this time.
    public var targetTimestamp: FrameInstant { state.targetTimestamp }

    /// The refresh period of the display (the interval between two frames of the loop): the loop's
    /// exact rational period (``FrameRate/period``), rounded to the nearest nanosecond.
    ///
    /// The frame grid itself is exact: frame `k` lands at `k × 1e9 / rate` nanoseconds rounded
    /// down, so at 60 Hz one grid interval in three is 16,666,666 ns and the others 16,666,667 ns,
    /// while `duration` is always 16,666,667 ns. It is the display's period, not the time to
    /// simulate: after a dropped frame the time shown moved by more. Simulate ``deltaTime``.
    public var duration: Duration { .nanoseconds(state.durationNanoseconds) }

    /// The time to simulate this frame: the time since the link's previous call, clamped to the
    /// loop's ``FrameLoop/maximumFrameDelta`` (one period of the link's rate on the first call and
    /// after a resync).
    ///
    /// FrameLink has one rule for simulation time: a variable-step simulation steps by
    /// `deltaTime`, which over a run sums to the time really shown, dropped frames included (up to
    /// the grid's 1 ns rounding); a fixed-step simulation feeds ``targetTimestamp`` to a
    /// ``GameClock`` and runs the steps it returns. Animation is a pure function of
    /// ``targetTimestamp``. (`targetTimestamp - timestamp` is one frame of latency, not a step:
    /// summed, it loses every dropped frame's time.)
    public var deltaTime: Duration { .nanoseconds(state.deltaTimeNanoseconds) }

    /// The loop's frame index at the last callback.
    public var frameIndex: Int64 { state.frameIndex }

    /// The number of times the link has been called.
    public var callCount: Int64 { state.callCount }

    /// Whether callbacks are suspended. A paused link stays in its loop; a loop whose links are all
    /// paused sleeps between timers.
    public var isPaused: Bool {
        get { state.isPaused }
        set { state.isPaused = newValue }
    }

    /// The rates at which the link wants to be called, or `nil` (the default) for every frame of
    /// its loop.
    ///
    /// The link is called on every k-th frame of its loop, so that its calls are evenly spaced:
    /// the loop's rate divided by k is the even rate inside the range closest to its preferred
    /// rate (see ``FrameRateRange``). On a 144 Hz display, a range of 60–90 Hz preferring 72 is
    /// every 2nd frame (72 Hz), and 40–50 Hz is every 3rd (48 Hz). Links with different ranges
    /// share the loop's frames, each at its own rate; ``frameRateChoice`` says what was chosen and
    /// why, and so does ``FrameStatistics/frameRateChoices``.
    public var preferredFrameRateRange: FrameRateRange? {
        didSet {
            cachedDivisor = nil
            state.hasPreferredFrameRate = preferredFrameRateRange != nil
        }
    }

    /// The rate at which the link wants to be called, or `nil` for every frame: a
    /// ``preferredFrameRateRange`` of exactly this rate.
    ///
    /// The link is called on every k-th frame of its loop, the k that brings the loop's rate
    /// closest to this one, so the calls are evenly spaced: 30 on a 60 Hz display is every 2nd
    /// frame; 40 on 60 Hz is every 2nd frame too (30 Hz is closer to 40 than 60 Hz is).
    public var preferredFrameRate: FrameRate? {
        get { preferredFrameRateRange?.preferred }
        set { preferredFrameRateRange = newValue.map { FrameRateRange(exactly: $0) } }
    }

    /// The rate the link is called at and why, for its ``preferredFrameRateRange`` on its loop's
    /// current rate; `nil` without a range or outside a loop.
    public var frameRateChoice: FrameRateChoice? {
        guard let range = preferredFrameRateRange, let loop else { return nil }
        let divisor = frameDivisor(refreshRate: loop.refreshRate)
        var choice = range.choice(dividing: loop.refreshRate, by: Int(divisor))
        choice.subject = label ?? "link"
        return choice
    }

    /// Whether the link can still be called: false after ``invalidate()``.
    public private(set) var isValid = true

    /// What the link pass reads and writes on every call, kept together so that a call costs one
    /// read and one write of the link's storage (each access of a class's stored property is
    /// checked for exclusivity at run time).
    private struct State {
        /// The modes the link was added for, as its loop's mode bits (0 once it has left the loop).
        var modeMask: UInt64 = 0
        var isPaused = false
        var hasPreferredFrameRate = false
        var hasFrameStreams = false
        var frameIndex: Int64 = 0
        var callCount: Int64 = 0
        var timestamp: FrameInstant = .zero
        var targetTimestamp: FrameInstant = .zero
        var durationNanoseconds: Int64 = 0
        var deltaTimeNanoseconds: Int64 = 0
    }

    private var state = State()
    /// The modes the link was added for, as its loop's mode bits (0 once it has left the loop).
    var modeMask: UInt64 {
        get { state.modeMask }
        set { state.modeMask = newValue }
    }
    /// Whether the loop's link list holds the link (until the list next compacts after it left).
    var isInLoopList = false
    let hasWeakTarget: Bool
    private weak var loop: FrameLoop?
    private var frameContinuations: [Int: AsyncStream<FrameSnapshot>.Continuation] = [:] {
        didSet { state.hasFrameStreams = !frameContinuations.isEmpty }
    }
    private var nextContinuationID = 0
    /// The closure; released by ``invalidate()``.
    private var callback: (@MainActor (DisplayLink) -> Void)?
    private weak var weakTarget: AnyObject?
    private var cachedDivisor: (refresh: FrameRate, divisor: Int64)?

    /// The part of each frame in which the link runs (see ``LinkPhase``).
    public let phase: LinkPhase

    /// Creates a link that calls `body` once per frame, once added to a loop.
    ///
    /// - Parameters:
    ///   - phase: The part of the frame in which the link runs (``LinkPhase/update`` by default).
    ///   - body: Called once per frame with the link.
    public init(phase: LinkPhase = .update, _ body: @escaping @MainActor (DisplayLink) -> Void) {
        self.phase = phase
        callback = body
        hasWeakTarget = false
    }

    /// Creates a link that holds `target` weakly and hands it to `body` on each call; the link
    /// invalidates itself once `target` is gone.
    ///
    /// - Parameters:
    ///   - target: The object handed to `body`, held weakly.
    ///   - phase: The part of the frame in which the link runs (``LinkPhase/update`` by default).
    ///   - body: Called once per frame with the target and the link.
    public init<Target: AnyObject>(
        target: Target, phase: LinkPhase = .update, _ body: @escaping @MainActor (Target, DisplayLink) -> Void
    ) {
        self.phase = phase
        hasWeakTarget = true
        weakTarget = target
        callback = { [weak target] link in
            guard let target else {
                link.invalidate()
                return
            }
            body(target, link)
        }
    }

    /// Adds the link to `loop` for `mode`; call again to add it for more modes.
    ///
    /// Adding an invalidated link does nothing. A link belongs to one loop at a time.
    public func add(to loop: FrameLoop, forMode mode: RunLoopMode) {
        guard isValid else { return }
        if let current = self.loop, current !== loop {
            preconditionFailure("DisplayLink.add(to:forMode:): the link is already in another loop; remove it first")
        }
        self.loop = loop
        modeMask |= loop.bit(for: mode)
        state.durationNanoseconds = loop.refreshRate.periodNanoseconds
        loop.links[phase].register(self)
    }

    /// Removes the link from `mode` of `loop`; once removed from every mode the loop releases it.
    public func remove(from loop: FrameLoop, forMode mode: RunLoopMode) {
        guard self.loop === loop else { return }
        modeMask &= ~loop.bit(for: mode)
        if modeMask == 0 {
            self.loop = nil
            loop.links[phase].linkDidLeave(self)
        }
    }

    /// Removes the link from its loop for good and releases its closure. It is never called again,
    /// not even later in the current frame. Calling it twice, or from inside the link's own
    /// callback, is safe.
    public func invalidate() {
        guard isValid else { return }
        isValid = false
        isPaused = true
        callback = nil
        weakTarget = nil
        modeMask = 0
        for continuation in frameContinuations.values { continuation.finish() }
        frameContinuations.removeAll()
        if let loop {
            self.loop = nil
            loop.links[phase].linkDidLeave(self)
        }
    }

    /// The k of ``preferredFrameRateRange`` on `refreshRate`: the link runs on every k-th frame.
    /// Cached, and chosen again only when the loop's rate moves by more than 0.5 % (a measured rate
    /// that wobbles in its last digits never changes the cadence); allocates nothing.
    func frameDivisor(refreshRate: FrameRate) -> Int64 {
        guard let range = preferredFrameRateRange else { return 1 }
        if let cached = cachedDivisor, refreshRate == cached.refresh || refreshRate.isClose(to: cached.refresh) {
            return cached.divisor
        }
        let divisor = Int64(range.divisor(dividing: refreshRate).divisor)
        cachedDivisor = (refreshRate, divisor)
        return divisor
    }

    /// Calls the link for `frame` if it runs in `mask`, is not paused, and its preferred rate
    /// wants this frame; returns whether it called. Called by the loop's link pass, which holds
    /// the link for the call.
    func deliver(_ frame: _LinkFrame, mask: UInt64, source: any FrameSource) -> Bool {
        var state = self.state
        guard state.modeMask & mask != 0, !state.isPaused else { return false }
        var target = frame.targetTimestamp
        if state.hasPreferredFrameRate {
            let divisor = frameDivisor(refreshRate: frame.refreshRate)
            if divisor > 1 {
                guard frame.index % divisor == 0 else { return false }
                // (Measured: never before the frame's own target.)
                target = max(source.expectedTimestamp(frames: divisor, after: frame.timestamp), target)
            }
        }
        guard let callback else { return false }
        state.deltaTimeNanoseconds =
            state.callCount == 0 || frame.resynchronizes
            ? target.nanoseconds - frame.timestamp.nanoseconds
            : min(frame.timestamp.nanoseconds - state.timestamp.nanoseconds, frame.maximumDeltaNanoseconds)
        state.frameIndex = frame.index
        state.timestamp = frame.timestamp
        state.targetTimestamp = target
        state.durationNanoseconds = frame.periodNanoseconds
        state.callCount &+= 1
        self.state = state
        callback(self)  // a copy: the call may invalidate the link, which releases the closure
        if self.state.hasFrameStreams { yieldSnapshot() }
        return true
    }
}

extension DisplayLink {
    /// The link's frames as an asynchronous sequence: each element is a ``FrameSnapshot`` of a frame
    /// the link was called for. Only the newest frame is buffered, so a slow consumer skips frames
    /// rather than falling behind; the sequence ends when the link is invalidated (at once, if it
    /// already is). Each access makes a new, independent sequence.
    ///
    /// ```swift
    /// Task { @MainActor in
    ///     for await frame in link.frames { hud.show(frame.deltaTime) }
    /// }
    /// ```
    public var frames: AsyncStream<FrameSnapshot> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: FrameSnapshot.self, bufferingPolicy: .bufferingNewest(1))
        guard isValid else {
            continuation.finish()
            return stream
        }
        let id = nextContinuationID
        nextContinuationID += 1
        frameContinuations[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.frameContinuations[id] = nil }
        }
        return stream
    }

    private func yieldSnapshot() {
        let snapshot = FrameSnapshot(
            frameIndex: frameIndex, timestamp: timestamp, targetTimestamp: targetTimestamp, duration: duration,
            deltaTime: deltaTime)
        for continuation in frameContinuations.values { continuation.yield(snapshot) }
    }
}

extension DisplayLink: _WeakTargetItem {
    var targetIsGone: Bool { hasWeakTarget && weakTarget == nil }
    var isStillValid: Bool { isValid }
    var lastCalledFrame: Int64 { callCount > 0 ? frameIndex : -1 }
}
