#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A timing curve: how an animation's progress (0 to 1 over its duration) maps to the fraction of
/// the way from its start value to its end value — `CAMediaTimingFunction` and CSS
/// `animation-timing-function` in one value type.
///
/// FrameLink ships Core Animation's named curves (``linear``, ``easeIn``, ``easeOut``,
/// ``easeInOut``, ``default``), any cubic Bézier curve (``init(controlPoints:_:_:_:)``, solved to
/// better than 1e-6), CSS-style ``steps(_:position:)``, and Robert Penner's easing equations in the
/// names of [easings.net](https://easings.net) (``easeInSine`` … ``easeInOutBounce``).
///
/// ```swift
/// let curve = TimingCurve(controlPoints: 0.34, 1.56, 0.64, 1)   // overshoots, then settles
/// curve.value(at: 0.5)                                              // 1.0 or a little more
/// let tween = Tween(from: 0.0, to: 100.0, duration: 0.3, curve: .easeOutBack)
/// ```
///
/// Curves are pure functions: ``value(at:)`` depends on nothing but its argument.
public struct TimingCurve: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline
    enum Kind: UInt8, Sendable {
        case linear, cubicBezier, jumpStart, jumpEnd
        case easeInSine, easeOutSine, easeInOutSine
        case easeInQuad, easeOutQuad, easeInOutQuad
        case easeInCubic, easeOutCubic, easeInOutCubic
        case easeInQuart, easeOutQuart, easeInOutQuart
        case easeInQuint, easeOutQuint, easeInOutQuint
        case easeInExpo, easeOutExpo, easeInOutExpo
        case easeInCirc, easeOutCirc, easeInOutCirc
        case easeInBack, easeOutBack, easeInOutBack
        case easeInElastic, easeOutElastic, easeInOutElastic
        case easeInBounce, easeOutBounce, easeInOutBounce
    }

    /// Where a ``TimingCurve/steps(_:position:)`` curve jumps: CSS `jump-start` or `jump-end`.
    public enum StepPosition: Sendable, Hashable {
        /// The first jump happens as the animation starts (CSS `steps(n, start)`).
        case start
        /// The last jump happens as the animation ends (CSS `steps(n, end)`, the default).
        case end
    }

    @usableFromInline let kind: Kind
    // Bézier control points (x1, y1, x2, y2), or the number of steps in `a`.
    @usableFromInline let a: Double
    @usableFromInline let b: Double
    @usableFromInline let c: Double
    @usableFromInline let d: Double

    init(kind: Kind, _ a: Double = 0, _ b: Double = 0, _ c: Double = 0, _ d: Double = 0) {
        self.kind = kind
        self.a = a
        self.b = b
        self.c = c
        self.d = d
    }

    // MARK: Named curves

    /// Progress maps to itself: constant speed (`CAMediaTimingFunctionName.linear`).
    public static let linear = TimingCurve(kind: .linear)

    /// Core Animation's ease-in: starts slowly, then speeds up; the Bézier curve (0.42, 0, 1, 1).
    public static let easeIn = TimingCurve(kind: .cubicBezier, 0.42, 0, 1, 1)

    /// Core Animation's ease-out: starts quickly, then slows down; the Bézier curve (0, 0, 0.58, 1).
    public static let easeOut = TimingCurve(kind: .cubicBezier, 0, 0, 0.58, 1)

    /// Core Animation's ease-in-ease-out: slow at both ends; the Bézier curve (0.42, 0, 0.58, 1).
    /// The curve `UIView.animate` uses by default.
    public static let easeInOut = TimingCurve(kind: .cubicBezier, 0.42, 0, 0.58, 1)

    /// Core Animation's default curve, CSS `ease`: the Bézier curve (0.25, 0.1, 0.25, 1).
    public static let `default` = TimingCurve(kind: .cubicBezier, 0.25, 0.1, 0.25, 1)

    // MARK: Making curves

    /// Creates a cubic Bézier timing curve from (0, 0) to (1, 1) with control points (x1, y1) and
    /// (x2, y2), as `CAMediaTimingFunction(controlPoints:)` and CSS `cubic-bezier()` do.
    ///
    /// The y coordinates may leave 0...1 (the curve then overshoots or anticipates).
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidValue` message, if a coordinate is NaN or infinite, or an x coordinate
    ///   is outside 0...1 (the curve would not be a function of time).
    public init(controlPoints x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self = FrameLinkError.require { () throws(FrameLinkError) in
            try TimingCurve(validatingControlPoints: x1, y1, x2, y2)
        }
    }

    /// Creates a cubic Bézier timing curve from control points read at run time (a level file, a
    /// CSS value).
    ///
    /// - Throws: ``FrameLinkError/invalidValue(_:)`` if a coordinate is NaN or infinite, or an x
    ///   coordinate is outside 0...1.
    public init(validatingControlPoints x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) throws(FrameLinkError) {
        guard x1.isFinite, y1.isFinite, x2.isFinite, y2.isFinite else {
            throw .invalidValue("cubic Bézier control points (\(x1), \(y1), \(x2), \(y2)) must be finite")
        }
        guard (0...1).contains(x1), (0...1).contains(x2) else {
            throw .invalidValue(
                "cubic Bézier control points (\(x1), \(y1), \(x2), \(y2)): x1 and x2 must be within 0...1")
        }
        // A curve whose control points lie on the diagonal is linear in value, but keeps its points:
        // `controlPoints` and `description` give back what was asked for.
        self.init(kind: .cubicBezier, x1, y1, x2, y2)
    }

    /// A cubic Bézier timing curve; the same as ``init(controlPoints:_:_:_:)``.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidValue` message, for non-finite points or x outside 0...1.
    public static func cubicBezier(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double
    ) -> TimingCurve {
        TimingCurve(controlPoints: x1, y1, x2, y2)
    }

    /// A staircase of `count` equal jumps, as CSS `steps(count, start | end)`: a sprite-sheet flip
    /// or a ticking clock hand.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidCount` message, if `count` is below 1.
    public static func steps(_ count: Int, position: StepPosition = .end) -> TimingCurve {
        FrameLinkError.require { () throws(FrameLinkError) in try steps(validatingCount: count, position: position) }
    }

    /// A staircase of `count` equal jumps read at run time (a level file, a CSS value).
    ///
    /// - Throws: ``FrameLinkError/invalidCount(_:)`` if `count` is below 1.
    public static func steps(validatingCount count: Int, position: StepPosition = .end) throws(FrameLinkError)
        -> TimingCurve
    {
        guard count >= 1 else { throw .invalidCount("steps(\(count)): a step curve needs at least 1 step") }
        return TimingCurve(kind: position == .start ? .jumpStart : .jumpEnd, Double(count))
    }

    /// The control points (x1, y1, x2, y2) if this is a cubic Bézier curve (the named Core Animation
    /// curves are), else `nil`.
    public var controlPoints: (x1: Double, y1: Double, x2: Double, y2: Double)? {
        kind == .cubicBezier ? (a, b, c, d) : nil
    }

    // MARK: Evaluating

    /// The eased fraction at `progress`: 0 at 0, 1 at 1, the curve in between (a jump-start step
    /// curve is already at its first step at 0). Progress outside 0...1 is clamped; NaN gives NaN.
    @inlinable @inline(__always)
    public func value(at progress: Double) -> Double {
        if kind == .linear { return min(max(progress, 0), 1) }
        if kind == .cubicBezier { return Self.solveBezier(progress, a, b, c, d) }
        return evaluateOther(progress)
    }

    /// Evaluates the curves other than linear and Bézier.
    @usableFromInline
    func evaluateOther(_ progress: Double) -> Double {
        if kind == .jumpStart || kind == .jumpEnd {
            // CSS: step = ⌊x·n⌋, plus one for jump-start, at most n.
            guard !progress.isNaN else { return progress }
            var step = (min(max(progress, 0), 1) * a).rounded(.down)
            if kind == .jumpStart { step += 1 }
            return min(step, a) / a
        }
        guard progress > 0 else { return progress.isNaN ? progress : 0 }
        guard progress < 1 else { return 1 }
        switch kind {
        case .linear: return progress
        case .cubicBezier: return Self.solveBezier(progress, a, b, c, d)
        default: return Self.penner(kind, progress)
        }
    }

    /// The y value of the cubic Bézier (x1, y1, x2, y2) at `x`, at the t where x(t) = x
    /// (``bezierParameter(_:_:_:)``: Newton's method, bisection where the curve is too flat).
    @inlinable @inline(__always)
    static func solveBezier(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        if !(x > 0) { return x.isNaN ? x : 0 }
        if x >= 1 { return 1 }
        let t = bezierParameter(x, x1, x2)
        // y(t) in Bernstein form: each term is at most 4/9 of its control value, so no finite y,
        // however large, overflows (the power form's 3 × y1 − … does, and gives ∞ − ∞ = NaN).
        let u = 1 - t
        return 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t
    }

    /// The t in 0...1 at which x(t) = x, by bisection to 1e-11 in t (x(t) rises monotonically when
    /// x1 and x2 lie in 0...1). Used where the curve is too flat for Newton's method, so the test is
    /// on t, not on x: a flat x(t) meets x long before t is right.
    @usableFromInline
    static func bisectBezier(_ x: Double, _ ax: Double, _ bx: Double, _ cx: Double) -> Double {
        var low = 0.0
        var high = 1.0
        while high - low > 1e-11 {
            let middle = (low + high) / 2
            if ((ax * middle + bx) * middle + cx) * middle < x { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// A description such as `"easeInOut"`, `"cubicBezier(0.34, 1.56, 0.64, 1.0)"` or `"steps(4, end)"`.
    public var description: String {
        switch kind {
        case .linear: return "linear"
        case .cubicBezier:
            switch self {
            case .easeIn: return "easeIn"
            case .easeOut: return "easeOut"
            case .easeInOut: return "easeInOut"
            case .default: return "default"
            default: return "cubicBezier(\(a), \(b), \(c), \(d))"
            }
        case .jumpStart: return "steps(\(Int(a)), start)"
        case .jumpEnd: return "steps(\(Int(a)), end)"
        default: return "\(kind)"
        }
    }
}
