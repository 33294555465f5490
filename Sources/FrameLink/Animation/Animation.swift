/// An animation: a value that is a pure function of time, with a finite duration.
///
/// ``Tween``, ``Keyframes``, ``SpringAnimation`` and ``DecayAnimation`` conform; hand one to an
/// ``Animator`` to run it on a display link, or evaluate it yourself with ``value(at:)`` — the value
/// at time `t` depends on `t` alone, never on how many frames came before, so a dropped frame never
/// changes a trajectory.
///
/// Time is in seconds since the animation began. Before 0 an animation shows its start value; from
/// ``duration`` on, its end value. Repeats, reversal, delay and speed belong to ``AnimationTiming``,
/// which the animator applies on top.
///
/// Conform your own types to run any pure function of time:
///
/// ```swift
/// struct Orbit: Animation {
///     var radius: Double
///     var duration: Double { 2 }
///     func value(at time: Double) -> SIMD2<Double> {
///         let angle = 2 * .pi * time / duration
///         return SIMD2(cos(angle), sin(angle)) * radius
///     }
/// }
/// ```
public protocol Animation<Value>: Sendable {
    /// The type of value the animation produces.
    associatedtype Value: Interpolatable

    /// The time in seconds the animation takes to reach its end value (zero or more, finite).
    var duration: Double { get }

    /// Seconds to wait before the animation starts, added once to the ``AnimationTiming/delay``
    /// (repeats do not wait again). The default is zero; ``Tween`` lets you set it.
    var delay: Double { get }

    /// The value at `time` seconds after the animation began.
    func value(at time: Double) -> Value

    /// The rate of change of the value at `time`, in value units per second.
    ///
    /// The default differentiates ``value(at:)`` numerically; springs and decays give it exactly.
    func velocity(at time: Double) -> Value

    /// This animation changed to begin at `value` moving at `velocity`: how an ``Animator`` continues
    /// smoothly when it replaces an animation that is still running on the same property or key.
    ///
    /// The default returns the animation unchanged.
    func retargeted(from value: Value, velocity: Value) -> Self
}

extension Animation {
    /// No delay.
    public var delay: Double { 0 }

    /// The numerical derivative of ``value(at:)``: a central difference over 0.1 ms, one-sided at
    /// the ends of the animation, zero outside it.
    public func velocity(at time: Double) -> Value {
        let step = 1e-4
        let end = duration
        guard time >= 0, time <= end, end > 0 else { return .zero }
        let low = max(0, time - step)
        let high = min(end, time + step)
        guard high > low else { return .zero }
        return (value(at: high) - value(at: low)).scaled(by: 1 / (high - low))
    }

    /// Returns the animation unchanged.
    public func retargeted(from value: Value, velocity: Value) -> Self { self }
}
