extension Animator {
    /// Runs `animation` on the ``AnimatedProperty`` at `property` of `object`, writing straight
    /// into its storage: no allocation and no callback per frame. `object` is held weakly: when it
    /// is deallocated (and its properties with it), the animation ends (cancelled) at the next
    /// frame.
    ///
    /// If the property is already animating, the running animation is replaced (its completion
    /// says cancelled) and `animation` continues from its current value and velocity.
    ///
    /// ```swift
    /// animator.animate(board, \.$scale, with: Tween(from: 0.5, to: 1.0, duration: 0.3))
    /// ```
    ///
    /// - Returns: A handle to pause, resume, seek or cancel the animation.
    @discardableResult
    public func animate<A: Animation, Object: AnyObject>(
        _ object: Object, _ property: KeyPath<Object, AnimatedProperty<A.Value>>, with animation: A,
        timing: AnimationTiming = .default, completion: (@MainActor (AnimationResult) -> Void)? = nil
    ) -> AnimationHandle {
        let property = object[keyPath: property]
        let handle = addLeaf(
            animation, timing: timing, name: nil, key: property.animationKey, target: object,
            sink: property.storage.makeSink(), completion: completion)
        property.addWriter(handle)
        return handle
    }

    /// Tweens the ``AnimatedProperty`` at `property` of `object` from its current value to
    /// `value`, allocating nothing per frame.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError` message, for a bad duration or delay, or a value that is not finite.
    @discardableResult
    public func animate<Object: AnyObject, Value: Interpolatable>(
        _ object: Object, _ property: KeyPath<Object, AnimatedProperty<Value>>, to value: Value,
        duration: Double, curve: TimingCurve = .easeInOut, delay: Double = 0, timing: AnimationTiming = .default,
        completion: (@MainActor (AnimationResult) -> Void)? = nil
    ) -> AnimationHandle {
        let tween = Tween(
            from: object[keyPath: property].wrappedValue, to: value, duration: duration, curve: curve, delay: delay)
        return animate(object, property, with: tween, timing: timing, completion: completion)
    }

    /// Springs the ``AnimatedProperty`` at `property` of `object` from its current value to
    /// `value`, allocating nothing per frame; if it is already animating, the spring starts with
    /// its current velocity instead of `initialVelocity`.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError` message, for a value or threshold that is not finite.
    @discardableResult
    public func animate<Object: AnyObject, Value: Interpolatable>(
        _ object: Object, _ property: KeyPath<Object, AnimatedProperty<Value>>, to value: Value,
        spring: Spring = .smooth, initialVelocity: Value = .zero, threshold: Double = 0.001,
        timing: AnimationTiming = .default, completion: (@MainActor (AnimationResult) -> Void)? = nil
    ) -> AnimationHandle {
        let animation = SpringAnimation(
            from: object[keyPath: property].wrappedValue, to: value, initialVelocity: initialVelocity,
            spring: spring, threshold: threshold)
        return animate(object, property, with: animation, timing: timing, completion: completion)
    }

    /// The animation of the ``AnimatedProperty`` at `property` of `object`, if one is running or
    /// paused (for a part of a group, the group).
    public func animation<Object: AnyObject, Value>(
        of object: Object, _ property: KeyPath<Object, AnimatedProperty<Value>>
    ) -> AnimationHandle? {
        animations(forKey: object[keyPath: property].animationKey).first?.root
    }

    /// Cancels the animation of the ``AnimatedProperty`` at `property` of `object` (for a part of a
    /// group, that part only).
    public func cancelAnimation<Object: AnyObject, Value>(
        of object: Object, _ property: KeyPath<Object, AnimatedProperty<Value>>
    ) {
        for leaf in animations(forKey: object[keyPath: property].animationKey) { leaf.cancel() }
    }
}
