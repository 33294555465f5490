/// Decimal text for numbers, with no locale and no exponent: coordinates and labels in the SVG,
/// figures in titles.
enum _NumberText {
    /// `value` with exactly `digits` digits after the point (0 to 6), rounded half away from zero;
    /// `"0"` for NaN, infinities and magnitudes of 10¹² or more.
    ///
    /// - Parameters:
    ///   - value: The number.
    ///   - digits: The digits after the point.
    static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return "0" }
        let digits = min(max(digits, 0), 6)
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let units = Int64((abs(value) * Double(scale)).rounded())
        let sign = value < 0 && units != 0 ? "-" : ""
        guard digits > 0 else { return sign + String(units) }
        let fraction = String(units % scale)
        return sign + String(units / scale) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    /// `value` with at most `digits` digits after the point, trailing zeros (and a bare point)
    /// dropped: `1.5`, `2`, `0.25`.
    ///
    /// - Parameters:
    ///   - value: The number.
    ///   - digits: The most digits after the point.
    static func short(_ value: Double, digits: Int) -> String {
        var text = fixed(value, digits: digits)
        guard text.contains(".") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// A duration in milliseconds, to the microsecond, trailing zeros dropped: `"1"`, `"0.3"`.
    ///
    /// - Parameter duration: The duration.
    static func milliseconds(_ duration: Duration) -> String {
        short(Double(duration.wholeNanoseconds) / 1e6, digits: 3)
    }

    /// A number of nanoseconds in microseconds, to a tenth: `"3.2"`.
    ///
    /// - Parameter nanoseconds: The number of nanoseconds.
    static func microseconds(_ nanoseconds: Int64) -> String {
        fixed(Double(nanoseconds) / 1e3, digits: 1)
    }
}
