#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Robert Penner's easing equations, in the form and with the names of https://easings.net.
extension TimingCurve {
    /// Sine ease-in: `1 − cos(x·π/2)`.
    public static let easeInSine = TimingCurve(kind: .easeInSine)
    /// Sine ease-out: `sin(x·π/2)`.
    public static let easeOutSine = TimingCurve(kind: .easeOutSine)
    /// Sine ease-in-out: `−(cos(π·x) − 1) / 2`.
    public static let easeInOutSine = TimingCurve(kind: .easeInOutSine)
    /// Quadratic ease-in: `x²`.
    public static let easeInQuad = TimingCurve(kind: .easeInQuad)
    /// Quadratic ease-out: `1 − (1 − x)²`.
    public static let easeOutQuad = TimingCurve(kind: .easeOutQuad)
    /// Quadratic ease-in-out: `2x²`, then `1 − (2 − 2x)² / 2`.
    public static let easeInOutQuad = TimingCurve(kind: .easeInOutQuad)
    /// Cubic ease-in: `x³`.
    public static let easeInCubic = TimingCurve(kind: .easeInCubic)
    /// Cubic ease-out: `1 − (1 − x)³`.
    public static let easeOutCubic = TimingCurve(kind: .easeOutCubic)
    /// Cubic ease-in-out: `4x³`, then `1 − (2 − 2x)³ / 2`.
    public static let easeInOutCubic = TimingCurve(kind: .easeInOutCubic)
    /// Quartic ease-in: `x⁴`.
    public static let easeInQuart = TimingCurve(kind: .easeInQuart)
    /// Quartic ease-out: `1 − (1 − x)⁴`.
    public static let easeOutQuart = TimingCurve(kind: .easeOutQuart)
    /// Quartic ease-in-out: `8x⁴`, then `1 − (2 − 2x)⁴ / 2`.
    public static let easeInOutQuart = TimingCurve(kind: .easeInOutQuart)
    /// Quintic ease-in: `x⁵`.
    public static let easeInQuint = TimingCurve(kind: .easeInQuint)
    /// Quintic ease-out: `1 − (1 − x)⁵`.
    public static let easeOutQuint = TimingCurve(kind: .easeOutQuint)
    /// Quintic ease-in-out: `16x⁵`, then `1 − (2 − 2x)⁵ / 2`.
    public static let easeInOutQuint = TimingCurve(kind: .easeInOutQuint)
    /// Exponential ease-in: `2^(10x − 10)` (exactly 0 at 0).
    public static let easeInExpo = TimingCurve(kind: .easeInExpo)
    /// Exponential ease-out: `1 − 2^(−10x)` (exactly 1 at 1).
    public static let easeOutExpo = TimingCurve(kind: .easeOutExpo)
    /// Exponential ease-in-out: `2^(20x − 10) / 2`, then `(2 − 2^(10 − 20x)) / 2`.
    public static let easeInOutExpo = TimingCurve(kind: .easeInOutExpo)
    /// Circular ease-in: `1 − √(1 − x²)`.
    public static let easeInCirc = TimingCurve(kind: .easeInCirc)
    /// Circular ease-out: `√(1 − (x − 1)²)`.
    public static let easeOutCirc = TimingCurve(kind: .easeOutCirc)
    /// Circular ease-in-out: `(1 − √(1 − 4x²)) / 2`, then `(√(1 − (2 − 2x)²) + 1) / 2`.
    public static let easeInOutCirc = TimingCurve(kind: .easeInOutCirc)
    /// Back ease-in: pulls back about 10 % before moving (`2.70158x³ − 1.70158x²`).
    public static let easeInBack = TimingCurve(kind: .easeInBack)
    /// Back ease-out: overshoots about 10 %, then settles.
    public static let easeOutBack = TimingCurve(kind: .easeOutBack)
    /// Back ease-in-out: anticipates and overshoots.
    public static let easeInOutBack = TimingCurve(kind: .easeInOutBack)
    /// Elastic ease-in: a growing oscillation (`−2^(10x − 10)·sin((10x − 10.75)·2π/3)`).
    public static let easeInElastic = TimingCurve(kind: .easeInElastic)
    /// Elastic ease-out: a decaying oscillation around the end value.
    public static let easeOutElastic = TimingCurve(kind: .easeOutElastic)
    /// Elastic ease-in-out: grows, then decays.
    public static let easeInOutElastic = TimingCurve(kind: .easeInOutElastic)
    /// Bounce ease-in: bounces off the start value (`1 − easeOutBounce(1 − x)`).
    public static let easeInBounce = TimingCurve(kind: .easeInBounce)
    /// Bounce ease-out: falls onto the end value and bounces three times, like a dropped ball.
    public static let easeOutBounce = TimingCurve(kind: .easeOutBounce)
    /// Bounce ease-in-out: bounces at both ends.
    public static let easeInOutBounce = TimingCurve(kind: .easeInOutBounce)

    /// Penner's equation `kind` at `x` in 0...1.
    @usableFromInline
    static func penner(_ kind: Kind, _ x: Double) -> Double {
        switch kind {
        case .easeInSine: return 1 - cos(x * .pi / 2)
        case .easeOutSine: return sin(x * .pi / 2)
        case .easeInOutSine: return -(cos(.pi * x) - 1) / 2
        case .easeInQuad: return x * x
        case .easeOutQuad: return 1 - (1 - x) * (1 - x)
        case .easeInOutQuad: return x < 0.5 ? 2 * x * x : 1 - power(-2 * x + 2, 2) / 2
        case .easeInCubic: return x * x * x
        case .easeOutCubic: return 1 - power(1 - x, 3)
        case .easeInOutCubic: return x < 0.5 ? 4 * x * x * x : 1 - power(-2 * x + 2, 3) / 2
        case .easeInQuart: return power(x, 4)
        case .easeOutQuart: return 1 - power(1 - x, 4)
        case .easeInOutQuart: return x < 0.5 ? 8 * power(x, 4) : 1 - power(-2 * x + 2, 4) / 2
        case .easeInQuint: return power(x, 5)
        case .easeOutQuint: return 1 - power(1 - x, 5)
        case .easeInOutQuint: return x < 0.5 ? 16 * power(x, 5) : 1 - power(-2 * x + 2, 5) / 2
        case .easeInExpo: return x == 0 ? 0 : pow(2, 10 * x - 10)
        case .easeOutExpo: return x == 1 ? 1 : 1 - pow(2, -10 * x)
        case .easeInOutExpo:
            if x == 0 || x == 1 { return x }
            return x < 0.5 ? pow(2, 20 * x - 10) / 2 : (2 - pow(2, -20 * x + 10)) / 2
        case .easeInCirc: return 1 - (1 - x * x).squareRoot()
        case .easeOutCirc: return (1 - (x - 1) * (x - 1)).squareRoot()
        case .easeInOutCirc:
            return x < 0.5
                ? (1 - (1 - 4 * x * x).squareRoot()) / 2
                : ((1 - power(-2 * x + 2, 2)).squareRoot() + 1) / 2
        case .easeInBack:
            return backC3 * x * x * x - backC1 * x * x
        case .easeOutBack:
            return 1 + backC3 * power(x - 1, 3) + backC1 * power(x - 1, 2)
        case .easeInOutBack:
            let c2 = backC1 * 1.525
            return x < 0.5
                ? (power(2 * x, 2) * ((c2 + 1) * 2 * x - c2)) / 2
                : (power(2 * x - 2, 2) * ((c2 + 1) * (x * 2 - 2) + c2) + 2) / 2
        case .easeInElastic:
            if x == 0 || x == 1 { return x }
            return -pow(2, 10 * x - 10) * sin((x * 10 - 10.75) * elasticC4)
        case .easeOutElastic:
            if x == 0 || x == 1 { return x }
            return pow(2, -10 * x) * sin((x * 10 - 0.75) * elasticC4) + 1
        case .easeInOutElastic:
            if x == 0 || x == 1 { return x }
            return x < 0.5
                ? -(pow(2, 20 * x - 10) * sin((20 * x - 11.125) * elasticC5)) / 2
                : (pow(2, -20 * x + 10) * sin((20 * x - 11.125) * elasticC5)) / 2 + 1
        case .easeInBounce: return 1 - bounceOut(1 - x)
        case .easeOutBounce: return bounceOut(x)
        case .easeInOutBounce:
            return x < 0.5 ? (1 - bounceOut(1 - 2 * x)) / 2 : (1 + bounceOut(2 * x - 1)) / 2
        case .linear, .cubicBezier, .jumpStart, .jumpEnd: return x
        }
    }

    private static let backC1 = 1.70158
    private static let backC3 = backC1 + 1
    private static let elasticC4 = 2 * Double.pi / 3
    private static let elasticC5 = 2 * Double.pi / 4.5

    /// `base` raised to a small whole power, by multiplication.
    @inline(__always)
    private static func power(_ base: Double, _ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<exponent { result *= base }
        return result
    }

    private static func bounceOut(_ x: Double) -> Double {
        let n1 = 7.5625
        let d1 = 2.75
        if x < 1 / d1 {
            return n1 * x * x
        } else if x < 2 / d1 {
            let u = x - 1.5 / d1
            return n1 * u * u + 0.75
        } else if x < 2.5 / d1 {
            let u = x - 2.25 / d1
            return n1 * u * u + 0.9375
        } else {
            let u = x - 2.625 / d1
            return n1 * u * u + 0.984375
        }
    }
}
