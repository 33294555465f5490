/// A simulation value kept at its last two fixed steps, for rendering in between: the
/// interpolation half of the "fix your timestep" loop.
///
/// A fixed-step simulation produces states at step times; the display shows moments between them.
/// Keep each rendered quantity in an `Interpolated`, ``advance(to:)`` it once per step, and draw
/// ``value(at:)`` with the frame's ``GameFrame/alpha``: motion is smooth at any display rate, and
/// the renderer never shows a state the simulation did not reach.
///
/// ```swift
/// var ball = Interpolated(SIMD2<Double>(0, 0))
/// let frame = clock.update(at: link.targetTimestamp)
/// for _ in frame.stepTimes {
///     ball.advance(to: ball.current + velocity * 0.010)   // one 10 ms step
/// }
/// sprite.position = ball.value(at: frame.alpha)           // between the last two steps
/// ```
///
/// After a teleport (a respawn, a level change), ``reset(to:)`` sets both states, so the renderer
/// does not draw the jump as motion.
public struct Interpolated<Value: Interpolatable>: Sendable {
    /// The state before the last step.
    public private(set) var previous: Value
    /// The state after the last step.
    public private(set) var current: Value

    /// Creates a value at rest at `value`: both states are `value`.
    public init(_ value: Value) {
        previous = value
        current = value
    }

    /// Records one step's result: the current state becomes the previous one.
    public mutating func advance(to value: Value) {
        previous = current
        current = value
    }

    /// Moves both states to `value`, so the next frames show no motion toward it.
    public mutating func reset(to value: Value) {
        previous = value
        current = value
    }

    /// The state to render `alpha` of the way from ``previous`` to ``current`` (a ``GameFrame``'s
    /// ``GameFrame/alpha``, in 0..<1).
    ///
    /// - Precondition: `alpha` is finite; a NaN or infinite factor stops the program with a
    ///   `FrameLinkError` message (a ``GameClock`` never gives one).
    public func value(at alpha: Double) -> Value {
        guard alpha.isFinite else {
            FrameLinkError.trap(
                .invalidValue("Interpolated.value(at: \(alpha)): pass a GameFrame's alpha, a finite factor in 0..<1"))
        }
        return previous.interpolated(to: current, fraction: alpha)
    }
}

extension Interpolated: Equatable where Value: Equatable {}
extension Interpolated: Hashable where Value: Hashable {}
