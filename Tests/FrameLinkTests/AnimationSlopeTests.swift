import FrameLink
import Testing

/// Curve slopes and tween velocities: exact for Bézier curves (at rest at the ends of ease
/// curves), finite for every finite curve.
@Suite("Timing-curve slopes: exact for Béziers, finite for every finite curve")
struct AnimationSlopeTests {
    @Test("Core Animation's ease curves start and end at rest, exactly")
    func easeCurvesAreAtRestAtTheirEnds() {
        #expect(TimingCurve.easeInOut.slope(at: 0) == 0)
        #expect(TimingCurve.easeInOut.slope(at: 1) == 0)
        #expect(TimingCurve.easeIn.slope(at: 0) == 0)
        #expect(TimingCurve.easeOut.slope(at: 1) == 0)
        #expect(TimingCurve.default.slope(at: 1) == 0)
        // Where a control point sits on the end point, both derivatives vanish: the slope is the
        // ratio of the second derivatives, 6 / 3.48 for easeOut at 0 and easeIn at 1.
        #expect(abs(TimingCurve.easeOut.slope(at: 0) - 6 / 3.48) < 1e-12)
        #expect(abs(TimingCurve.easeIn.slope(at: 1) - 6 / 3.48) < 1e-12)
    }

    @Test("a Bézier's slope agrees with the derivative of its values (seeded random curves, 5,000 points)")
    func slopeMatchesTheValues() {
        var generator = SplitMix64(seed: 7)
        func unit() -> Double { Double.random(in: 0...1, using: &generator) }
        for _ in 0..<500 {
            let curve = TimingCurve(
                controlPoints: unit(), unit() * 4 - 1.5, unit(),
                unit() * 4 - 1.5)
            for _ in 0..<10 {
                let x = 0.02 + unit() * 0.96
                let step = 1e-6
                let numeric = (curve.value(at: x + step) - curve.value(at: x - step)) / (2 * step)
                let exact = curve.slope(at: x)
                // Steep spots (a near-vertical tangent) make the difference quotient itself coarse.
                #expect(abs(exact - numeric) <= 1e-4 * max(1, abs(exact)), "\(curve) at \(x): \(exact) vs \(numeric)")
            }
        }
    }

    @Test("huge control values, vertical tangents and flat spots give finite slopes")
    func everyFiniteCurveHasAFiniteSlope() {
        let huge = Double.greatestFiniteMagnitude
        let curves = [
            TimingCurve(controlPoints: 0.25, huge, 0.75, -huge), TimingCurve(controlPoints: 0.25, -huge, 0.75, huge),
            TimingCurve(controlPoints: 0.25, huge, 0.75, huge), TimingCurve(controlPoints: 0.3, 1e300, 0.7, 1e300),
            TimingCurve(controlPoints: 0, 1, 0, 1), TimingCurve(controlPoints: 1, 0, 0, 1),
            TimingCurve(controlPoints: 1, 0, 1, 0), TimingCurve(controlPoints: 0, 0, 0, 0),
            TimingCurve(controlPoints: 0, 0, 1, 1), TimingCurve(controlPoints: 1, 1, 0, 0),
        ]
        for curve in curves {
            for index in 0...1_000 {
                let x = Double(index) / 1_000
                #expect(curve.slope(at: x).isFinite, "\(curve) at \(x): \(curve.slope(at: x))")
            }
        }
        // cubic-bezier(0, 1, 0, 1) leaves 0 straight up: the largest finite slope.
        #expect(TimingCurve(controlPoints: 0, 1, 0, 1).slope(at: 0) == .greatestFiniteMagnitude)
        // (1, 0, 0, 1) stands still in time at its middle while its value moves: steep, and finite.
        #expect(TimingCurve(controlPoints: 1, 0, 0, 1).slope(at: 0.5) > 1e9)
    }

    @Test("linear, steps, Penner's curves, outside 0...1 and NaN")
    func otherCurves() {
        #expect(TimingCurve.linear.slope(at: 0.3) == 1)
        #expect(TimingCurve.steps(4).slope(at: 0.3) == 0)
        #expect(TimingCurve.easeInOut.slope(at: -0.5) == 0)
        #expect(TimingCurve.easeInOut.slope(at: 1.5) == 0)
        #expect(TimingCurve.easeInOut.slope(at: .nan).isNaN)
        // easeInQuad is x², slope 2x; easeOutSine is sin(πx/2), slope π/2·cos(πx/2).
        #expect(abs(TimingCurve.easeInQuad.slope(at: 0.5) - 1) < 1e-8)
        #expect(abs(TimingCurve.easeInQuad.slope(at: 0) - 0) < 1e-5)
        #expect(abs(TimingCurve.easeOutSine.slope(at: 0) - Double.pi / 2) < 1e-6)
        for curve in [TimingCurve.easeInOutBounce, .easeOutElastic, .easeInBack, .easeInOutExpo, .easeOutCirc] {
            for index in 0...200 {
                #expect(curve.slope(at: Double(index) / 200).isFinite, "\(curve)")
            }
        }
    }

    @Test("a tween's velocity is its change times the curve's slope over its duration: zero at the ends of an ease")
    func tweenVelocity() {
        let tween = Tween(from: 10.0, to: 110.0, duration: 2, curve: .easeInOut)
        #expect(tween.velocity(at: 0) == 0)
        #expect(tween.velocity(at: 2) == 0)
        #expect(tween.velocity(at: -1) == 0 && tween.velocity(at: 3) == 0)
        #expect(abs(tween.velocity(at: 1) - 100 * TimingCurve.easeInOut.slope(at: 0.5) / 2) < 1e-12)
        let vector = Tween(from: SIMD3<Float>(0, 0, 0), to: SIMD3(2, 4, 8), duration: 1, curve: .linear)
        #expect(vector.velocity(at: 0.5) == SIMD3(2, 4, 8))
        #expect(Tween(from: 0.0, to: 1.0, duration: 0).velocity(at: 0) == 0)
    }
}
