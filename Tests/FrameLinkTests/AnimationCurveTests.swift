import FrameLink
import Testing

/// Timing curves against reference values: cubic Béziers solved to 1e-6 (the points browsers agree
/// on, from a 40-digit bisection), Penner's equations at fixed points, CSS steps.
@Suite("Animation: timing curves")
struct AnimationCurveTests {
    /// Reference y values of cubic-bezier curves at x = 0.001, 0.1, 0.25, 0.5, 0.75, 0.9, 0.999
    /// (mpmath, 40 digits).
    static let bezierReferences: [(String, TimingCurve, [Double])] = [
        (
            "CSS ease / CA default", .default,
            [
                0.0004048078221549123, 0.09479630571604325, 0.40851059135539586, 0.802403387584857,
                0.9604589783489741, 0.9943164774845564, 0.9999994663416039,
            ]
        ),
        (
            "ease-in", .easeIn,
            [
                1.8875054558443416e-06, 0.017026609651562944, 0.09346465071882486, 0.31535681257253934,
                0.6218618691748902, 0.8394278457624665, 0.9982859943663716,
            ]
        ),
        (
            "ease-out", .easeOut,
            [
                0.0017140056336284928, 0.1605721542375335, 0.37813813082510983, 0.6846431874274607,
                0.9065353492811752, 0.9829733903484371, 0.9999981124945442,
            ]
        ),
        (
            "ease-in-out", .easeInOut,
            [
                1.8905015519453908e-06, 0.0197224535483112, 0.12916193104731982, 0.5, 0.8708380689526802,
                0.9802775464516889, 0.999998109498448,
            ]
        ),
        (
            "overshooting (0.68, -0.55, 0.265, 1.55)", TimingCurve(controlPoints: 0.68, -0.55, 0.265, 1.55),
            [
                -0.0008075500594442195, -0.06629147733352875, -0.0828071088283226, 0.6066798972237716,
                1.0891657748134211, 1.06237319516637, 1.000747193946564,
            ]
        ),
        (
            "vertical ends (0, 1, 1, 0)", TimingCurve(controlPoints: 0, 1, 1, 0),
            [
                0.05311076157643484, 0.38740031697727517, 0.479055466999209, 0.5, 0.520944533000791,
                0.6125996830227248, 0.9468892384235651,
            ]
        ),
    ]

    @Test("cubic Béziers match the reference points to 1e-6", arguments: 0..<6)
    func bezierReferencePoints(curveIndex: Int) {
        let (name, curve, expected) = Self.bezierReferences[curveIndex]
        let inputs = [0.001, 0.1, 0.25, 0.5, 0.75, 0.9, 0.999]
        for (x, y) in zip(inputs, expected) {
            #expect(abs(curve.value(at: x) - y) < 1e-6, "\(name) at \(x): \(curve.value(at: x)) vs \(y)")
        }
    }

    @Test("CSS ease at 0.5 is the well-known 0.8024033877")
    func cssEaseHalfway() {
        #expect(abs(TimingCurve.default.value(at: 0.5) - 0.8024033877) < 1e-9)
    }

    @Test("Core Animation's named curves have Core Animation's control points")
    func namedControlPoints() {
        #expect(TimingCurve.easeIn.controlPoints! == (0.42, 0, 1, 1))
        #expect(TimingCurve.easeOut.controlPoints! == (0, 0, 0.58, 1))
        #expect(TimingCurve.easeInOut.controlPoints! == (0.42, 0, 0.58, 1))
        #expect(TimingCurve.default.controlPoints! == (0.25, 0.1, 0.25, 1))
        #expect(TimingCurve.linear.controlPoints == nil)
    }

    @Test("control points on the diagonal keep their points and evaluate as linear", arguments: [0.0, 0.3, 1.0])
    func diagonalControlPoints(point: Double) throws {
        let curve = TimingCurve(controlPoints: point, point, 1 - point, 1 - point)
        #expect(curve.controlPoints! == (point, point, 1 - point, 1 - point))
        #expect(curve.description.hasPrefix("cubicBezier("))
        for index in 0...100 {
            let x = Double(index) / 100
            #expect(abs(curve.value(at: x) - x) < 1e-9, "x \(x)")
        }
    }

    @Test("huge control values give large finite values, never NaN")
    func hugeControlValues() throws {
        for y in [1e300, -1e300, Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude] {
            for curve in [
                TimingCurve(controlPoints: 0.25, y, 0.75, -y), TimingCurve(controlPoints: 0.25, y, 0.75, y),
            ] {
                for index in 0...20 {
                    let value = curve.value(at: Double(index) / 20)
                    #expect(value.isFinite, "y \(y), x \(Double(index) / 20): \(value)")
                }
                #expect(curve.value(at: 0) == 0 && curve.value(at: 1) == 1)
            }
        }
    }

    @Test("random cubic Béziers agree with a bisection solver to 1e-6, ends included (seeded, 20,000 points)")
    func randomBeziers() throws {
        var random = AnimationRandom(seed: 42)
        let extremes: [(Double, Double)] = [(0, 0), (1, 1), (0, 1), (1, 0), (0, 0.5), (0.5, 1)]
        for curveIndex in 0..<2_000 {
            // Flat starts or ends (x1 or x2 at 0 or 1) first: the hard cases for Newton's method.
            let (x1, x2) = curveIndex < 300 ? extremes[curveIndex % extremes.count] : (random.unit(), random.unit())
            let y1 = random.unit() * 4 - 1.5
            let y2 = random.unit() * 4 - 1.5
            let curve = TimingCurve(controlPoints: x1, y1, x2, y2)
            for sample in 0..<10 {
                // Uniform points, and points crowded near the ends where Newton's method struggles.
                let u = random.unit()
                let x = sample < 6 ? u : (sample < 8 ? u * u * u * u * u * u : 1 - u * u * u * u * u * u)
                let expected = Self.referenceBezier(x1, y1, x2, y2, x)
                #expect(abs(curve.value(at: x) - expected) < 1e-6, "(\(x1), \(y1), \(x2), \(y2)) at \(x)")
            }
        }
    }

    /// y at x by 200 bisection steps on t (independent of FrameLink's Newton solver).
    static func referenceBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x: Double) -> Double {
        func bezier(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
            3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t
        }
        var low = 0.0
        var high = 1.0
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if bezier(x1, x2, middle) < x { low = middle } else { high = middle }
        }
        return bezier(y1, y2, (low + high) / 2)
    }

    @Test("every curve runs from 0 at 0 to 1 at 1 and clamps outside")
    func endpoints() throws {
        let curves: [TimingCurve] =
            Self.penner.map(\.1) + [.linear, .easeIn, .easeOut, .easeInOut, .default, .steps(4)]
        for curve in curves {
            #expect(curve.value(at: 0) == 0, "\(curve) at 0")
            #expect(curve.value(at: 1) == 1, "\(curve) at 1")
            #expect(curve.value(at: -3) == curve.value(at: 0), "\(curve) clamps below 0")
            #expect(curve.value(at: 7) == 1, "\(curve) clamps above 1")
        }
        #expect(TimingCurve.easeInOut.value(at: .nan).isNaN)
    }

    /// Penner's equations at 0.2, 0.5 and 0.7, from an independent 30-digit implementation of the
    /// easings.net formulas.
    static let penner: [(String, TimingCurve, [Double])] = [
        ("easeInSine", .easeInSine, [0.04894348370484643, 0.2928932188134525, 0.5460095002604533]),
        ("easeOutSine", .easeOutSine, [0.30901699437494745, 0.7071067811865476, 0.8910065241883679]),
        ("easeInOutSine", .easeInOutSine, [0.09549150281252629, 0.5, 0.7938926261462366]),
        ("easeInQuad", .easeInQuad, [0.04, 0.25, 0.49]),
        ("easeOutQuad", .easeOutQuad, [0.36, 0.75, 0.91]),
        ("easeInOutQuad", .easeInOutQuad, [0.08, 0.5, 0.82]),
        ("easeInCubic", .easeInCubic, [0.008, 0.125, 0.343]),
        ("easeOutCubic", .easeOutCubic, [0.488, 0.875, 0.973]),
        ("easeInOutCubic", .easeInOutCubic, [0.032, 0.5, 0.892]),
        ("easeInQuart", .easeInQuart, [0.0016, 0.0625, 0.2401]),
        ("easeOutQuart", .easeOutQuart, [0.5904, 0.9375, 0.9919]),
        ("easeInOutQuart", .easeInOutQuart, [0.0128, 0.5, 0.9352]),
        ("easeInQuint", .easeInQuint, [0.00032, 0.03125, 0.16807]),
        ("easeOutQuint", .easeOutQuint, [0.67232, 0.96875, 0.99757]),
        ("easeInOutQuint", .easeInOutQuint, [0.00512, 0.5, 0.96112]),
        ("easeInExpo", .easeInExpo, [0.00390625, 0.03125, 0.125]),
        ("easeOutExpo", .easeOutExpo, [0.75, 0.96875, 0.9921875]),
        ("easeInOutExpo", .easeInOutExpo, [0.0078125, 0.5, 0.96875]),
        ("easeInCirc", .easeInCirc, [0.02020410288672876, 0.13397459621556135, 0.285857157145715]),
        ("easeOutCirc", .easeOutCirc, [0.6, 0.8660254037844386, 0.9539392014169457]),
        ("easeInOutCirc", .easeInOutCirc, [0.041742430504416, 0.5, 0.9]),
        ("easeInBack", .easeInBack, [-0.04645056, -0.0876975, 0.09286774]),
        ("easeOutBack", .easeOutBack, [0.70580224, 1.0876975, 1.08019954]),
        ("easeInOutBack", .easeInOutBack, [-0.092555656, 0.5, 1.078833484]),
        ("easeInElastic", .easeInElastic, [-0.001953125, -0.015625, 0.125]),
        ("easeOutElastic", .easeOutElastic, [1.125, 1.015625, 1.00390625]),
        ("easeInOutElastic", .easeInOutElastic, [-0.00390625, 0.5, 0.9760611111525319]),
        ("easeInBounce", .easeInBounce, [0.06, 0.234375, 0.319375]),
        ("easeOutBounce", .easeOutBounce, [0.3025, 0.765625, 0.930625]),
        ("easeInOutBounce", .easeInOutBounce, [0.11375, 0.5, 0.955]),
    ]

    @Test("Penner's equations match the reference values at 0.2, 0.5 and 0.7", arguments: 0..<30)
    func pennerReferencePoints(index: Int) {
        let (name, curve, expected) = Self.penner[index]
        for (x, y) in zip([0.2, 0.5, 0.7], expected) {
            #expect(abs(curve.value(at: x) - y) < 1e-12, "\(name) at \(x): \(curve.value(at: x)) vs \(y)")
        }
        #expect(curve.description == name)
    }

    @Test("in and out variants mirror each other: out(x) = 1 − in(1 − x)")
    func pennerMirror() {
        let pairs: [(TimingCurve, TimingCurve)] = [
            (.easeInSine, .easeOutSine), (.easeInQuad, .easeOutQuad), (.easeInCubic, .easeOutCubic),
            (.easeInQuart, .easeOutQuart), (.easeInQuint, .easeOutQuint), (.easeInExpo, .easeOutExpo),
            (.easeInCirc, .easeOutCirc), (.easeInBack, .easeOutBack), (.easeInBounce, .easeOutBounce),
            (.easeInElastic, .easeOutElastic),
        ]
        for (easeIn, easeOut) in pairs {
            for step in 0...20 {
                let x = Double(step) / 20
                #expect(abs(easeOut.value(at: x) - (1 - easeIn.value(at: 1 - x))) < 1e-12, "\(easeIn) at \(x)")
            }
        }
    }

    @Test("steps(n) jumps like CSS steps(n, end) and steps(n, start)")
    func steps() throws {
        let end = TimingCurve.steps(4)
        #expect([0, 0.24, 0.25, 0.5, 0.99, 1].map(end.value(at:)) == [0, 0, 0.25, 0.5, 0.75, 1])
        let start = TimingCurve.steps(4, position: .start)
        #expect([0, 0.24, 0.25, 0.5, 0.99, 1].map(start.value(at:)) == [0.25, 0.25, 0.5, 0.75, 1, 1])
        #expect(end.description == "steps(4, end)")
    }

    @Test("descriptions name the curve")
    func descriptions() throws {
        #expect(TimingCurve.easeInOut.description == "easeInOut")
        #expect(TimingCurve.linear.description == "linear")
        #expect(TimingCurve(controlPoints: 0.1, 0.2, 0.3, 0.4).description == "cubicBezier(0.1, 0.2, 0.3, 0.4)")
    }
}

/// A small seeded generator for the animation property-based tests (SplitMix64).
struct AnimationRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in 0..<1.
    mutating func unit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }
}
