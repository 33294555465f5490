/// Runs animations on one ``DisplayLink``: tweens, keyframes, springs, decays, groups and
/// sequences, written to closures or to properties by key path — the FrameLink counterpart of Core
/// Animation's render loop, with Pop's retargeting springs.
///
/// - **One link.** The animator adds a single display link to its loop (for ``RunLoopMode/common``
///   unless told otherwise, in the ``LinkPhase/lateUpdate`` phase, after the game's update links,
///   so what they start shows in the same frame) and pauses it whenever no animation is running, so
///   an idle animator costs nothing and lets the loop sleep.
/// - **Time-based.** On each frame the animator evaluates every animation at the link's
///   ``DisplayLink/targetTimestamp`` — the time the frame will be shown — as a pure function of
///   time. Dropped frames, or 30 Hz instead of 60 Hz, never change a trajectory.
/// - **Leak-free.** A key-path animation holds its object weakly: when the object is deallocated,
///   its animations end (completion ``AnimationResult/cancelled``) and the animator lets go of
///   everything for them within one frame. Closures are kept until their animation ends.
/// - **Retargeting.** Animating a property (or key) that is already animating replaces the running
///   animation and continues from its current value and velocity: a spring interrupted by a spring
///   keeps its momentum.
/// - **Fast.** Animations of one type are stored together and stepped in tight loops that allocate
///   nothing. For many thousands of values, ``add(_:timing:into:at:completion:)`` writes them into
///   ``AnimatedValues`` with no callback at all; a closure per value costs what the call costs; a
///   key path to an ordinary property costs what Swift's key-path write costs (it allocates on
///   every write), while a key path to an ``AnimatedProperty`` (`\.$scale`) writes straight into
///   its storage, as ``AnimatedValues`` does.
///
/// ```swift
/// let animator = Animator(loop: loop)
/// animator.animate(sprite, \.position, to: SIMD2(400, 300), spring: .bouncy)
/// animator.add(Tween(from: 0.0, to: 1, duration: 0.5)) { hud.alpha = $0 }
/// let heights = AnimatedValues(repeating: 0.0, count: 10_000)
/// animator.add(Tween(from: 0.0, to: 80, duration: 0.6), into: heights, at: 42)
/// animator.timeScale = 0.25   // slow motion
/// ```
///
/// Time inside the animator (``currentTime``) is in seconds: the loop's clock, scaled by
/// ``timeScale``. Animations added between frames start at ``currentTime``.
///
/// **On game time.** An animator made with ``init(loop:gameClock:mode:)`` runs on a
/// ``GameClock``'s time instead of the loop's: pausing the clock freezes every animation, the
/// clock's time scale applies (times the animator's own), and single steps move them a step. Each
/// frame it shows the clock's ``GameClock/time`` as the game's update links left it.
@MainActor
public final class Animator {
    /// The loop whose frames drive the animations.
    public let loop: FrameLoop

    /// How fast animation time runs against the loop's clock: 1 is normal, 0.25 is slow motion, 0
    /// freezes every animation. A change applies from the loop's current time on, so animation time
    /// stays continuous and the same at any frame rate (the frame shown just before a slow-down may
    /// have run a few milliseconds ahead of it).
    ///
    /// Must be finite and zero or more (a precondition).
    public var timeScale: Double {
        get { scale }
        set {
            guard newValue.isFinite && newValue >= 0 else {
                FrameLinkError.trap(.invalidValue("Animator.timeScale \(newValue): must be finite and zero or more"))
            }
            let base = baseNow
            anchorClock = clockTime(base)
            anchorReal = base
            scale = newValue
        }
    }

    /// The animator's current time in seconds: the loop's clock (``FrameLoop/now``) scaled by
    /// ``timeScale``. New animations start at this time, so when an animation begins depends only
    /// on when it was added, never on the frame rate.
    public var currentTime: Double { clockTime(baseNow) }

    /// The game clock whose time the animator runs on, or `nil` when it runs on the loop's time.
    public let gameClock: GameClock?

    /// The animator time (in seconds, as ``currentTime``) at the game time `instant`: the
    /// ``AnimationTiming/beginTime`` of an effect set off by the fixed step that ends at `instant`
    /// (one of a ``GameFrame``'s ``GameFrame/stepTimes``).
    ///
    /// - Precondition: The animator runs on a game clock (``init(loop:gameClock:mode:)``); an
    ///   animator on loop time takes a ``FrameInstant``. Otherwise stops the program with a message.
    public func time(at instant: GameInstant) -> Double {
        guard gameClock != nil else {
            FrameLinkError.trap(
                .unsupported(
                    "Animator.time(at: GameInstant): this animator runs on loop time; pass a FrameInstant, or make it with Animator(loop:gameClock:)"
                ))
        }
        return clockTime(instant.nanoseconds)
    }

    /// The animator time (in seconds, as ``currentTime``) at the loop time `instant`: the
    /// ``AnimationTiming/beginTime`` of an effect that began then.
    ///
    /// - Precondition: The animator runs on loop time (``init(loop:mode:)``); an animator on a game
    ///   clock takes a ``GameInstant``. Otherwise stops the program with a message.
    public func time(at instant: FrameInstant) -> Double {
        guard gameClock == nil else {
            FrameLinkError.trap(
                .unsupported(
                    "Animator.time(at: FrameInstant): this animator runs on a GameClock's time; pass a GameInstant (clock.now, a GameFrame's stepTimes)"
                ))
        }
        return clockTime(instant.nanoseconds)
    }

    /// The time animation time is measured from, in nanoseconds: the loop's or the game clock's.
    private var baseNow: Int64 { gameClock?.timeNanoseconds ?? loop.now.nanoseconds }

    /// The loop time of the frame animated last: its link's ``DisplayLink/targetTimestamp``, the
    /// time the frame is shown (also for an animator on game time, whose animations were evaluated
    /// at the game clock's time then).
    public var targetTimestamp: FrameInstant { FrameInstant(nanoseconds: max(lastTarget, 0)) }

    /// The number of animations running or paused (a group or sequence counts once).
    public private(set) var animationCount = 0

    /// Whether the animator's display link is paused because no animation is running.
    public var isIdle: Bool { link.isPaused }

    /// The rate at which the animator wants frames, or `nil` for every frame of the display (see
    /// ``DisplayLink/preferredFrameRate``). Animations stay pure functions of time at any rate.
    public var preferredFrameRate: FrameRate? {
        get { link.preferredFrameRate }
        set { link.preferredFrameRate = newValue }
    }

    // The display link, labelled "Animator" in drop reports; it holds the animator weakly.
    private var link: DisplayLink!

    private var stores: ContiguousArray<_AnimationStoreBase> = []
    private var storeIndex: [ObjectIdentifier: Int] = [:]
    private var keyed: [_AnimationKey: [AnimationHandle]] = [:]
    private var finished: ContiguousArray<AnimationHandle> = []
    private var activeLeaves = 0
    private var pausedLeaves = 0
    private var hasPendingRemovals = false
    /// Leaves whose target was deallocated since the last frame, to be cancelled at the next.
    private var departedLeaves: ContiguousArray<AnimationHandle> = []

    // Animation time = anchorClock + (base − anchorReal) × scale, with the base time (the loop's
    // or the game clock's) in nanoseconds.
    private var anchorReal: Int64 = 0
    private var anchorClock: Double = 0
    private var scale: Double = 1
    private var lastTarget: Int64 = .min

    /// Creates an animator that runs on `loop`, in `mode` (``RunLoopMode/common`` by default, so
    /// that animations keep running while the loop tracks a drag).
    public init(loop: FrameLoop, mode: RunLoopMode = .common) {
        self.loop = loop
        gameClock = nil
        anchorReal = loop.now.nanoseconds
        addLink(to: loop, mode: mode)
    }

    /// Creates an animator that runs on `gameClock`'s time: its animations stop while the game is
    /// paused, follow the clock's time scale and advance on single steps. Each frame, in the
    /// late-update phase, it shows the clock's time as the game's update links left it.
    ///
    /// - Parameters:
    ///   - loop: The loop whose frames show the animations.
    ///   - gameClock: The clock whose time the animations run on.
    ///   - mode: The loop mode in which the animator runs (``RunLoopMode/common`` by default).
    public init(loop: FrameLoop, gameClock: GameClock, mode: RunLoopMode = .common) {
        self.loop = loop
        self.gameClock = gameClock
        anchorReal = gameClock.timeNanoseconds
        addLink(to: loop, mode: mode)
    }

    private func addLink(to loop: FrameLoop, mode: RunLoopMode) {
        let link = DisplayLink(target: self, phase: .lateUpdate) { animator, link in animator.step(link) }
        link.label = "Animator"
        link.isPaused = true
        link.add(to: loop, forMode: mode)
        self.link = link
    }

    /// Leaves the loop; running animations end, their completions saying cancelled.
    isolated deinit {
        link.invalidate()
        cancelAllAnimations()
    }

    // MARK: Time

    @inline(__always)
    private func clockTime(_ real: Int64) -> Double {
        anchorClock + Double(real &- anchorReal) * 1e-9 * scale
    }

    // MARK: The frame

    private func step(_ link: DisplayLink) {
        lastTarget = link.targetTimestamp.nanoseconds
        let target = gameClock?.timeNanoseconds ?? lastTarget
        let now = clockTime(target)
        if !departedLeaves.isEmpty { cancelDepartedLeaves() }
        let count = stores.count
        for index in 0..<count {
            stores[index].step(at: now)
        }
        compactStores()
        if activeLeaves == pausedLeaves && !hasPendingRemovals { link.isPaused = true }
    }

    /// Marks cancelled the leaves whose target was deallocated since the last frame.
    private func cancelDepartedLeaves() {
        var position = 0
        while position < departedLeaves.count {
            departedLeaves[position].markTargetGone()
            position += 1
        }
        departedLeaves.removeAll(keepingCapacity: true)
    }

    private func compactStores() {
        hasPendingRemovals = false
        let count = stores.count
        for index in 0..<count {
            let store = stores[index]
            if store.needsCompaction { store.compact(into: &finished) }
        }
        guard !finished.isEmpty else { return }
        var position = 0
        while position < finished.count {
            finished[position].finishLeafIfNeeded()
            position += 1
        }
        finished.removeAll(keepingCapacity: true)
    }

    // MARK: Adding animations

    /// Runs `animation`, handing each frame's value to `update`.
    ///
    /// - Parameters:
    ///   - animation: The animation.
    ///   - timing: Delay, speed, repeats, autoreverse and fill (``AnimationTiming/default``: once).
    ///   - key: A key that names the animation: adding another animation for the same key replaces
    ///     this one, continuing from its current value and velocity.
    ///   - update: Called on every frame with the value to show. The animator keeps the closure (and
    ///     what it captures) until the animation ends; capture objects weakly or use
    ///     ``add(_:timing:forKey:target:update:completion:)`` to avoid keeping them alive.
    ///   - completion: Called once when the animation finishes or is cancelled.
    /// - Returns: A handle to pause, resume, seek or cancel the animation.
    @discardableResult
    public func add<A: Animation>(
        _ animation: A, timing: AnimationTiming = .default, forKey key: String? = nil,
        update: @escaping @MainActor (A.Value) -> Void,
        completion: (@MainActor (AnimationResult) -> Void)? = nil
    ) -> AnimationHandle {
        addLeaf(
            animation, timing: timing, name: key, key: key.map(_AnimationKey.name), target: nil,
            sink: _Sink(update: update), completion: completion)
    }

    /// Runs `animation`, handing each frame's value and `target` to `update`; `target` is held
    /// weakly, and the animation ends (cancelled) once it is deallocated.
    ///
    /// - Returns: A handle to pause, resume, seek or cancel the animation.
    @discardableResult
    public func add<A: Animation, Target: AnyObject>(
        _ animation: A, timing: AnimationTiming = .default, forKey key: String? = nil, target: Target,
        update: @escaping @MainActor (Target, A.Value) -> Void,
        completion: (@MainActor (AnimationResult) -> Void)? = nil
    ) -> AnimationHandle {
        let sink = _Sink<A.Value>(
            weakTarget: { [weak target] value in
                guard let target else { return false }
                update(target, value)
                return true
            })
        return addLeaf(
            animation, timing: timing, name: key, key: key.map(_AnimationKey.name), target: target, sink: sink,
            completion: completion)
    }

    /// Runs `animation` on `object[keyPath: keyPath]`, holding `object` weakly: when it is
    /// deallocated, the animation ends (cancelled) and the animator lets go of it within a frame.
    ///
    /// If the property is already animating, the running animation is replaced (its completion
    /// says cancelled) and `animation` continues from its current value and velocity.
    ///
    /// - Returns: A handle to pause, resume, seek or cancel the animation.
    @discardableResult
    public func animate<A: Animation, Object: AnyObject>(
        _ object: Object, _ keyPath: ReferenceWritableKeyPath<Object, A.Value>, with animation: A,
        timing: AnimationTiming = .default, completion: (@MainActor (AnimationResult) -> Void)? = nil
    ) -> AnimationHandle {
        let sink = _Sink<A.Value>(
            weakTarget: { [weak object] value in
                guard let object else { return false }
                object[keyPath: keyPath] = value
                return true
            })
        return addLeaf(
            animation, timing: timing, name: nil, key: .property(ObjectIdentifier(object), keyPath), target: object,
            sink: sink, completion: completion)
    }

    /// Runs `animation`, writing each frame's value into `values[index]` with no callback: the
    /// fastest form for many animations. Animating a slot that is already animating replaces that
    /// animation and continues from its current value and velocity.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidCount` message, if `index` is outside `0..<values.count`.
    /// - Returns: A handle to pause, resume, seek or cancel the animation.
    @discardableResult
    public func add<A: Animation>(
        _ animation: A, timing: AnimationTiming = .default, into values: AnimatedValues<A.Value>, at index: Int,
        completion: (@MainActor (AnimationResult) -> Void)? = nil
    ) -> AnimationHandle {
        guard index >= 0 && index < values.count else {
            FrameLinkError.trap(
                .invalidCount("index \(index) is outside the \(values.count) animated values (0..<\(values.count))"))
        }
        let sink = _Sink<A.Value>(destination: values.storage + index, storage: values)
        return addLeaf(
            animation, timing: timing, name: nil, key: .slot(ObjectIdentifier(values), index), target: nil,
            sink: sink, completion: completion)
    }

    /// Tweens `object[keyPath: keyPath]` from its current value to `value`.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError` message, for a bad duration or delay, or a value that is not finite.
    @discardableResult
    public func animate<Object: AnyObject, Value: Interpolatable>(
        _ object: Object, _ keyPath: ReferenceWritableKeyPath<Object, Value>, to value: Value, duration: Double,
        curve: TimingCurve = .easeInOut, delay: Double = 0, timing: AnimationTiming = .default,
        completion: (@MainActor (AnimationResult) -> Void)? = nil
    ) -> AnimationHandle {
        let tween = Tween(from: object[keyPath: keyPath], to: value, duration: duration, curve: curve, delay: delay)
        return animate(object, keyPath, with: tween, timing: timing, completion: completion)
    }

    /// Springs `object[keyPath: keyPath]` from its current value to `value`; if it is already
    /// animating, the spring starts with its current velocity instead of `initialVelocity`.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError` message, for a value or threshold that is not finite.
    @discardableResult
    public func animate<Object: AnyObject, Value: Interpolatable>(
        _ object: Object, _ keyPath: ReferenceWritableKeyPath<Object, Value>, to value: Value,
        spring: Spring = .smooth, initialVelocity: Value = .zero, threshold: Double = 0.001,
        timing: AnimationTiming = .default, completion: (@MainActor (AnimationResult) -> Void)? = nil
    ) -> AnimationHandle {
        let animation = SpringAnimation(
            from: object[keyPath: keyPath], to: value, initialVelocity: initialVelocity, spring: spring,
            threshold: threshold)
        return animate(object, keyPath, with: animation, timing: timing, completion: completion)
    }

    /// Runs the parts of `group` together; `timing` applies to the group as a whole and
    /// `completion` is called once every part has ended.
    @discardableResult
    public func add(
        _ group: AnimationGroup, timing: AnimationTiming = .default,
        completion: (@MainActor (AnimationResult) -> Void)? = nil
    ) -> AnimationHandle {
        add(AnimationTrack(group), timing: timing, completion: completion)
    }

    /// Runs the parts of `sequence` one after another; `timing` applies to the sequence as a whole
    /// and `completion` is called once every part has ended.
    @discardableResult
    public func add(
        _ sequence: AnimationSequence, timing: AnimationTiming = .default,
        completion: (@MainActor (AnimationResult) -> Void)? = nil
    ) -> AnimationHandle {
        add(AnimationTrack(sequence), timing: timing, completion: completion)
    }

    /// Runs `track` (a single bound animation, a group or a sequence) with `timing` applied to it
    /// as a whole.
    @discardableResult
    public func add(
        _ track: AnimationTrack, timing: AnimationTiming = .default,
        completion: (@MainActor (AnimationResult) -> Void)? = nil
    ) -> AnimationHandle {
        var leaves: [_FlatLeaf] = []
        track.flatten(at: 0, into: &leaves)
        let cycle = track.duration
        let root = AnimationHandle(
            animator: self, key: nil, duration: timing.totalDuration(forDuration: cycle), isGroup: true,
            completion: completion)
        animationCount += 1
        guard !leaves.isEmpty else {
            root.complete(.finished)
            return root
        }
        // Parts that animate the same property take turns: each writes from its start until the
        // next one of the same key starts.
        var windowStarts = [Double](repeating: -.infinity, count: leaves.count)
        var windowEnds = [Double](repeating: .infinity, count: leaves.count)
        var byKey: [_AnimationKey: [Int]] = [:]
        for (index, flat) in leaves.enumerated() {
            if let key = flat.leaf.key { byKey[key, default: []].append(index) }
        }
        for indices in byKey.values where indices.count > 1 {
            let ordered = indices.sorted { (leaves[$0].start, $0) < (leaves[$1].start, $1) }
            for (position, index) in ordered.enumerated() {
                if position > 0 { windowStarts[index] = leaves[index].start }
                if position + 1 < ordered.count { windowEnds[index] = leaves[ordered[position + 1]].start }
            }
        }
        let begin = timing.beginTime ?? currentTime
        for flat in leaves {
            let child = AnimationHandle(
                animator: self, key: nil, duration: root.duration, isGroup: false, completion: nil)
            child.animationKey = flat.leaf.key
            child.target = flat.leaf.target
            child.hasWeakTarget = flat.leaf.hasWeakTarget
            root.addChild(child)
            activeLeaves += 1
        }
        let children = root.children
        for (index, flat) in leaves.enumerated() {
            let placement = _Placement(
                timing: timing, cycle: cycle, start: flat.start, windowStart: windowStarts[index],
                windowEnd: windowEnds[index], pausedElapsed: .nan)
            let retargets = windowStarts[index] == -.infinity && flat.start == 0
            flat.leaf.insert(self, placement, begin, children[index], retargets)
        }
        return root
    }

    /// Stores one animation, not part of a group, under a new handle.
    func addLeaf<A: Animation>(
        _ animation: A, timing: AnimationTiming, name: String?, key: _AnimationKey?, target: AnyObject?,
        sink: _Sink<A.Value>, completion: (@MainActor (AnimationResult) -> Void)?
    ) -> AnimationHandle {
        let placement: _Placement? =
            timing.isDefault && animation.delay == 0
            ? nil : .standalone(timing: timing, delay: animation.delay, duration: animation.duration)
        let duration = placement?.timing.totalDuration(forDuration: animation.duration) ?? animation.duration
        let handle = AnimationHandle(
            animator: self, key: name, duration: duration, isGroup: false, completion: completion)
        handle.animationKey = key
        handle.target = target
        handle.hasWeakTarget = target != nil
        animationCount += 1
        activeLeaves += 1
        insertLeaf(
            animation, sink: sink, placement: placement, begin: timing.beginTime ?? currentTime, handle: handle,
            retargets: true)
        return handle
    }

    /// Stores one animation for `handle`, first replacing (and retargeting from) the animations of
    /// its key that belong to other animations.
    func insertLeaf<A: Animation>(
        _ animation: A, sink: _Sink<A.Value>, placement: _Placement?, begin: Double, handle: AnimationHandle,
        retargets: Bool
    ) {
        var animation = animation
        if let key = handle.animationKey {
            animation = replaceAnimations(forKey: key, excluding: handle.root, with: animation, retargets: retargets)
        }
        // Replacing may have run completions that cancelled this very animation.
        guard handle.isActive else { return }
        if let key = handle.animationKey { keyed[key, default: []].append(handle) }
        let store = store(for: A.self)
        handle.store = store
        handle.slot = store.insert(animation, sink: sink, placement: placement, begin: begin, handle: handle)
        wake()
    }

    private func replaceAnimations<A: Animation>(
        forKey key: _AnimationKey, excluding root: AnimationHandle, with animation: A, retargets: Bool
    ) -> A {
        guard let existing = keyed[key] else { return animation }
        var result = animation
        var needsRetarget = retargets
        let now = currentTime
        for leaf in existing where leaf.root !== root && needsRetarget {
            guard let store = leaf.store, !store.targetIsGone(leaf.slot),
                let state = store.presentation(leaf.slot, at: now),
                let value = state.value as? A.Value, let velocity = state.velocity as? A.Value
            else { continue }
            result = animation.retargeted(from: value, velocity: velocity)
            needsRetarget = false
        }
        for leaf in existing where leaf.root !== root {
            leaf.cancel()
        }
        return result
    }

    private func store<A: Animation>(for type: A.Type) -> _AnimationStore<A> {
        let identifier = ObjectIdentifier(type)
        if let index = storeIndex[identifier] {
            return stores[index] as! _AnimationStore<A>  // stored under its own type's identifier
        }
        let store = _AnimationStore<A>()
        storeIndex[identifier] = stores.count
        stores.append(store)
        return store
    }

    // MARK: Finding and cancelling

    /// The animation added for `key`, if it is still running or paused.
    public func animation(forKey key: String) -> AnimationHandle? {
        keyed[.name(key)]?.first?.root
    }

    /// The animation of `object[keyPath: keyPath]`, if one is running or paused (for a part of a
    /// group, the group).
    public func animation<Object: AnyObject, Value>(
        of object: Object, _ keyPath: ReferenceWritableKeyPath<Object, Value>
    ) -> AnimationHandle? {
        keyed[.property(ObjectIdentifier(object), keyPath)]?.first?.root
    }

    /// The animations stored under `key` (parts of groups included).
    func animations(forKey key: _AnimationKey) -> [AnimationHandle] {
        keyed[key] ?? []
    }

    /// Cancels the animation added for `key`; its completion says cancelled.
    public func cancelAnimation(forKey key: String) {
        for leaf in keyed[.name(key)] ?? [] { leaf.root.cancel() }
    }

    /// Cancels the animation of `object[keyPath: keyPath]` (for a part of a group, that part only).
    public func cancelAnimation<Object: AnyObject, Value>(
        of object: Object, _ keyPath: ReferenceWritableKeyPath<Object, Value>
    ) {
        for leaf in keyed[.property(ObjectIdentifier(object), keyPath)] ?? [] { leaf.cancel() }
    }

    /// Cancels every animation of `object`: those of its key paths and those with it as target.
    public func cancelAnimations(of object: AnyObject) {
        var matching: [AnimationHandle] = []
        for store in stores {
            store.forEachHandle { if $0.target === object { matching.append($0) } }
        }
        for leaf in matching { leaf.cancel() }
    }

    /// Cancels every animation.
    public func cancelAllAnimations() {
        var roots: [AnimationHandle] = []
        for store in stores {
            store.forEachHandle { roots.append($0.root) }
        }
        for root in roots { root.cancel() }
    }

    // MARK: Bookkeeping (called by handles)

    func leafDidPause() {
        pausedLeaves += 1
    }

    func leafDidResume() {
        pausedLeaves -= 1
        wake()
    }

    func leafDidEnd(_ leaf: AnimationHandle, wasPaused: Bool) {
        activeLeaves -= 1
        if wasPaused { pausedLeaves -= 1 }
        // No closure-taking collection APIs here: this runs on the frame path, where a main-actor
        // closure would get a run-time isolation check per call.
        if let key = leaf.animationKey, var leaves = keyed[key] {
            var position = 0
            while position < leaves.count {
                if leaves[position] === leaf {
                    leaves.remove(at: position)
                } else {
                    position += 1
                }
            }
            keyed[key] = leaves.isEmpty ? nil : leaves
        }
    }

    func animationDidEnd() {
        animationCount -= 1
    }

    func leafTargetWasDeallocated(_ leaf: AnimationHandle) {
        departedLeaves.append(leaf)
        wake()
    }

    func storeNeedsCompaction() {
        hasPendingRemovals = true
        wake()
    }

    /// Resumes the display link for the next frame.
    private func wake() {
        link.isPaused = false
    }
}
