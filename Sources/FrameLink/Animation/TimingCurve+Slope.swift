extension TimingCurve {
    /// The step of the central difference that differentiates the curves with no closed-form
    /// slope here (Penner's): 1e-6 of the progress, small next to their features (a bounce's
    /// shortest arc is 1/11 of the progress) and large enough that `Double`'s rounding of the
    /// values (about 1e-16) stays below 1e-9 in the slope.
    static let differenceStep = 1e-6

    /// How fast the eased fraction changes with progress at `progress`: the curve's slope, dy/dx.
    /// A ``Tween``'s velocity is its change times this slope over its duration.
    ///
    /// For a cubic Bézier curve the slope is exact: the ratio of the derivatives of y(t) and x(t)
    /// at the t where x(t) = `progress`, so Core Animation's ``easeIn``, ``easeOut`` and
    /// ``easeInOut`` start (and end) at exactly 0. Where both derivatives vanish (a control point
    /// on an end point) the slope is their limit, from the second derivatives. Where x(t) stands
    /// still while y(t) moves (a vertical tangent, as `cubic-bezier(0, 1, 0, 1)` starts) the
    /// slope is unbounded; it is given as the largest finite `Double` of its sign, and so is any
    /// slope beyond it (control values near `Double.greatestFiniteMagnitude`): every finite curve
    /// has a finite slope.
    ///
    /// ``linear`` has slope 1 and step curves 0 (their jumps take no time). Penner's curves
    /// (``easeInSine`` …) are differentiated numerically, to about 1e-9.
    ///
    /// Outside 0...1, where ``value(at:)`` holds still, the slope is 0; at 0 and 1 it is the
    /// slope from inside the curve. NaN gives NaN.
    public func slope(at progress: Double) -> Double {
        guard !progress.isNaN else { return progress }
        guard progress >= 0, progress <= 1 else { return 0 }
        switch kind {
        case .linear: return 1
        case .jumpStart, .jumpEnd: return 0
        case .cubicBezier: return Self.bezierSlope(progress, a, b, c, d)
        default:
            let low = max(0, progress - Self.differenceStep)
            let high = min(1, progress + Self.differenceStep)
            return (Self.penner(kind, high) - Self.penner(kind, low)) / (high - low)
        }
    }

    /// The slope dy/dx of the cubic Bézier (x1, y1, x2, y2) at `x` in 0...1.
    static func bezierSlope(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        let t = bezierParameter(x, x1, x2)
        let u = 1 - t
        // The derivative of the Bernstein form B(t) = 3u²t·p1 + 3ut²·p2 + t³ (p0 = 0, p3 = 1):
        // B′(t) = 3u(u − 2t)·p1 + 3t(2u − t)·p2 + 3t². The y values are scaled down by the largest of them first, so that no finite control
        // value overflows; the ratio is scaled back at the end.
        let scale = max(1, abs(y1), abs(y2))
        let (sy1, sy2, sy3) = (y1 / scale, y2 / scale, 1 / scale)
        let dx = 3 * u * (u - 2 * t) * x1 + 3 * t * (2 * u - t) * x2 + 3 * t * t
        let dy = 3 * u * (u - 2 * t) * sy1 + 3 * t * (2 * u - t) * sy2 + 3 * t * t * sy3
        if dx != 0 { return finite(dy / dx, scale: scale) }
        // x′(t) = 0: the limit of y′/x′ is y″/x″ where y′ vanishes too; else a vertical tangent.
        guard dy == 0 else { return dy > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude }
        let ddx = secondDerivative(t, x1, x2, 1)
        let ddy = secondDerivative(t, sy1, sy2, sy3)
        if ddx != 0 { return finite(ddy / ddx, scale: scale) }
        return ddy == 0 ? 0 : (ddy > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude)
    }

    /// B″(t) = 6(3t − 2)·p1 + 6(1 − 3t)·p2 + 6t·p3, the second derivative of
    /// B(t) = 3(1 − t)²t·p1 + 3(1 − t)t²·p2 + t³·p3.
    static func secondDerivative(_ t: Double, _ p1: Double, _ p2: Double, _ p3: Double) -> Double {
        6 * (3 * t - 2) * p1 + 6 * (1 - 3 * t) * p2 + 6 * t * p3
    }

    /// `ratio × scale`, kept within the finite `Double`s.
    static func finite(_ ratio: Double, scale: Double) -> Double {
        let slope = ratio * scale
        if slope.isFinite { return slope }
        return ratio > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude
    }

    /// The t in 0...1 at which x(t) = `x` for the x control values `x1` and `x2`: Newton's method
    /// (until a step is below 1e-7, which leaves t good to about 1e-11), falling back to bisection
    /// (to 1e-11 in t) where the curve is too flat for Newton.
    @usableFromInline @inline(__always)
    static func bezierParameter(_ x: Double, _ x1: Double, _ x2: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        // Polynomial coefficients of x(t), as WebKit's UnitBezier.
        let cx = 3 * x1
        let bx = 3 * (x2 - x1) - cx
        let ax = 1 - cx - bx
        var t = x
        for _ in 0..<8 {
            let error = ((ax * t + bx) * t + cx) * t - x
            let slope = (3 * ax * t + 2 * bx) * t + cx
            if abs(slope) < 1e-7 { break }
            let step = error / slope
            let next = t - step
            if !(next >= 0 && next <= 1) { break }
            t = next
            if abs(step) < 1e-7 { return t }
        }
        return bisectBezier(x, ax, bx, cx)
    }
}
