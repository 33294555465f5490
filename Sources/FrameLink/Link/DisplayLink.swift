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
///     scene.update(dt: link.targetTimestamp - link.timestamp)
/// }
/// link.preferredFrameRate = .hz30     // every 2nd frame of a 60 Hz display
/// link.add(to: loop, forMode: .common)
/// ```
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
    public var timestamp: FrameInstant { _timestamp }

    /// The time the next frame this link receives will be shown: the frame grid point one period of
    /// the link's rate after ``timestamp``. Step simulations and animations to this time.
    public var targetTimestamp: FrameInstant { _targetTimestamp }

    /// The refresh period of the display (the interval between two frames of the loop).
    public var duration: Duration { .nanoseconds(durationNanoseconds) }

    /// The time since the link's previous call, clamped to the loop's
    /// ``FrameLoop/maximumFrameDelta`` (one period of the link's rate on the first call). Step
    /// fixed-rate simulations with it; for animation, prefer a pure function of ``targetTimestamp``.
    public var deltaTime: Duration { .nanoseconds(_deltaTime) }

    /// The loop's frame index at the last callback.
    public var frameIndex: Int64 { _frameIndex }

    /// The number of times the link has been called.
    public var callCount: Int64 { _callCount }

    /// Whether callbacks are suspended. A paused link stays in its loop; a loop whose links are all
    /// paused sleeps between timers.
    public var isPaused: Bool {
        get { _isPaused }
        set { _isPaused = newValue }
    }

    /// The rate at which the link wants to be called, or `nil` for every frame.
    ///
    /// The link is called on every k-th frame of the loop's refresh, where k is the refresh rate
    /// divided by this rate, rounded (at least 1), so the calls are evenly spaced: 30 on a 60 Hz
    /// display is every 2nd frame; 40 on 60 Hz rounds to every 2nd frame too.
    public var preferredFrameRate: FrameRate? {
        get { _preferredFrameRate }
        set {
            _preferredFrameRate = newValue
            cachedDivisor = nil
        }
    }

    /// Whether the link can still be called: false after ``invalidate()``.
    public var isValid: Bool { _isValid }

    // Storage is internal, behind public computed properties, so that whole-module optimization
    // sees every access and can drop the run-time exclusivity checks on the frame path. What the
    // loop's link pass touches is `nonisolated(unsafe)`: the pass borrows the link without a retain
    // through a nonisolated call (see `FrameLoop.dispatchLinks`); it is only ever used on the main
    // actor.
    @exclusivity(unchecked) nonisolated(unsafe) private var durationNanoseconds: Int64 = 0
    @exclusivity(unchecked) nonisolated(unsafe) private var _timestamp: FrameInstant = .zero
    @exclusivity(unchecked) nonisolated(unsafe) private var _deltaTime: Int64 = 0
    @exclusivity(unchecked) nonisolated(unsafe) private var _targetTimestamp: FrameInstant = .zero
    @exclusivity(unchecked) nonisolated(unsafe) private var _frameIndex: Int64 = 0
    @exclusivity(unchecked) nonisolated(unsafe) private var _callCount: Int64 = 0
    @exclusivity(unchecked) nonisolated(unsafe) var _isPaused = false
    @exclusivity(unchecked) var _preferredFrameRate: FrameRate? {
        didSet { hasPreferredFrameRate = _preferredFrameRate != nil }
    }
    @exclusivity(unchecked) nonisolated(unsafe) private var hasPreferredFrameRate = false
    @exclusivity(unchecked) private var _isValid = true
    @exclusivity(unchecked) nonisolated(unsafe) var modeMask: UInt64 = 0
    @exclusivity(unchecked) var isInLoopArray = false
    let hasWeakTarget: Bool
    private weak var loop: FrameLoop?
    private var frameContinuations: [Int: AsyncStream<FrameSnapshot>.Continuation] = [:] {
        didSet { hasFrameStreams = !frameContinuations.isEmpty }
    }
    @exclusivity(unchecked) nonisolated(unsafe) private var hasFrameStreams = false
    private var nextContinuationID = 0
    /// The closure, owned through a manual retain so the frame path can call it without one; see
    /// `_Callback`.
    @exclusivity(unchecked) nonisolated(unsafe) private var callback: Unmanaged<_Callback<DisplayLink>>?
    private weak var weakTarget: AnyObject?
    private var cachedDivisor: (refresh: FrameRate, divisor: Int64)?

    /// What the link pass did with a link.
    enum _Delivery {
        case skipped
        case delivered
        /// Delivered, and the link has frame streams to feed on the main actor.
        case deliveredWithStreams
        /// The link has a preferred frame rate: the loop delivers it on the main actor.
        case needsRate
    }

    /// Creates a link that calls `body` once per frame, once added to a loop.
    public init(_ body: @escaping @MainActor (DisplayLink) -> Void) {
        callback = .passRetained(_Callback<DisplayLink>(body))
        hasWeakTarget = false
    }

    /// Creates a link that holds `target` weakly and hands it to `body` on each call; the link
    /// invalidates itself once `target` is gone.
    public init<Target: AnyObject>(
        target: Target, _ body: @escaping @MainActor (Target, DisplayLink) -> Void
    ) {
        hasWeakTarget = true
        weakTarget = target
        callback = .passRetained(
            _Callback<DisplayLink> { @MainActor [weak target] link in
                guard let target else {
                    link.invalidate()
                    return
                }
                body(target, link)
            })
    }

    deinit {
        callback?.release()
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
        durationNanoseconds = loop.refreshRate.periodNanoseconds
        loop.register(self)
    }

    /// Removes the link from `mode` of `loop`; once removed from every mode the loop releases it.
    public func remove(from loop: FrameLoop, forMode mode: RunLoopMode) {
        guard self.loop === loop else { return }
        modeMask &= ~loop.bit(for: mode)
        if modeMask == 0 {
            self.loop = nil
            loop.linkDidLeave(self)
        }
    }

    /// Removes the link from its loop for good and releases its closure. It is never called again,
    /// not even later in the current frame. Calling it twice, or from inside the link's own
    /// callback, is safe.
    public func invalidate() {
        guard _isValid else { return }
        _isValid = false
        _isPaused = true
        if let callback {
            self.callback = nil
            FrameLoop.retire(callback.takeRetainedValue())
        }
        weakTarget = nil
        modeMask = 0
        for continuation in frameContinuations.values { continuation.finish() }
        frameContinuations.removeAll()
        if let loop {
            self.loop = nil
            loop.linkDidLeave(self)
        }
    }

    func frameDivisor(refreshRate: FrameRate) -> Int64 {
        guard let preferred = _preferredFrameRate else { return 1 }
        if let cached = cachedDivisor, cached.refresh == refreshRate { return cached.divisor }
        let ratio = refreshRate.framesPerSecond / preferred.framesPerSecond
        let divisor = max(1, Int64(ratio.rounded()))
        cachedDivisor = (refreshRate, divisor)
        return divisor
    }

    /// Delivers the frame if the link runs in `mask` and is not paused; called by the loop's link
    /// pass, which keeps the link alive. Nonisolated so that the pass can borrow the link without a
    /// retain; it is only ever called on the main actor.
    @inline(__always)
    nonisolated func _deliverFromLoop(
        mask: UInt64, frameIndex: Int64, timestamp: FrameInstant, targetTimestamp: FrameInstant, period: Int64,
        maximumDelta: Int64, resynchronizes: Bool
    ) -> _Delivery {
        guard modeMask & mask != 0, !_isPaused else { return .skipped }
        guard !hasPreferredFrameRate else { return .needsRate }
        _deliver(
            frameIndex: frameIndex, timestamp: timestamp, targetTimestamp: targetTimestamp, period: period,
            maximumDelta: maximumDelta, resynchronizes: resynchronizes)
        return hasFrameStreams ? .deliveredWithStreams : .delivered
    }

    /// Delivers a frame to a link with a preferred frame rate, on the main actor.
    func deliver(
        frameIndex: Int64, timestamp: FrameInstant, targetTimestamp: FrameInstant, period: Int64,
        maximumDelta: Int64, resynchronizes: Bool
    ) {
        _deliver(
            frameIndex: frameIndex, timestamp: timestamp, targetTimestamp: targetTimestamp, period: period,
            maximumDelta: maximumDelta, resynchronizes: resynchronizes)
        feedFrameStreams()
    }

    @inline(__always)
    private nonisolated func _deliver(
        frameIndex: Int64, timestamp: FrameInstant, targetTimestamp: FrameInstant, period: Int64,
        maximumDelta: Int64, resynchronizes: Bool
    ) {
        _deltaTime =
            _callCount == 0 || resynchronizes
            ? targetTimestamp.nanoseconds - timestamp.nanoseconds
            : min(timestamp.nanoseconds - _timestamp.nanoseconds, maximumDelta)
        _frameIndex = frameIndex
        _timestamp = timestamp
        _targetTimestamp = targetTimestamp
        durationNanoseconds = period
        _callCount &+= 1
        // Borrowed: `invalidate()` during the call retires the box until the pass ends.
        callback?._withUnsafeGuaranteedRef { $0.call(self) }
    }

    /// Yields the current frame to the link's frame streams, if it has any.
    func feedFrameStreams() {
        if hasFrameStreams { yieldSnapshot() }
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
    var lastCalledFrame: Int64 { _callCount > 0 ? _frameIndex : -1 }
}
