/// The ticks of an axis: round values (1, 2 or 5 times a power of ten apart) from its lower end to
/// its upper end, and their labels.
struct _AxisTicks {
    /// The tick values, lowest first.
    let values: [Double]
    /// The distance between two ticks.
    let step: Double

    /// Ticks for `range`, about `count` of them.
    ///
    /// - Parameters:
    ///   - range: The axis's range; an empty one gets a single tick.
    ///   - count: About how many ticks (at least 1).
    init(for range: ClosedRange<Double>, about count: Int) {
        let span = range.upperBound - range.lowerBound
        guard span > 0, span.isFinite else {
            values = [range.lowerBound]
            step = 1
            return
        }
        let rough = span / Double(max(count, 1))
        var magnitude = 1.0
        while magnitude > rough { magnitude /= 10 }
        while magnitude * 10 <= rough { magnitude *= 10 }
        let multiple = rough / magnitude
        step = (multiple < 1.5 ? 1 : multiple < 3.5 ? 2 : multiple < 7.5 ? 5 : 10) * magnitude
        let first = (range.lowerBound / step).rounded(.up)
        let last = (range.upperBound / step).rounded(.down)
        var values: [Double] = []
        var multipleOfStep = first
        while multipleOfStep <= last {
            values.append(multipleOfStep * step)
            multipleOfStep += 1
        }
        self.values = values
    }

    /// The label of tick `value`: as many digits after the point as the step needs, no more.
    ///
    /// - Parameter value: One of ``values``.
    func label(_ value: Double) -> String {
        var digits = 0
        var scaled = step
        while digits < 6 && abs(scaled - scaled.rounded()) > 1e-9 * max(1, abs(scaled)) {
            scaled *= 10
            digits += 1
        }
        return _NumberText.short(value, digits: digits)
    }
}
