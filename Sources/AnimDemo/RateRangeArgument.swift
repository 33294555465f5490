import FrameLink

/// The frame-rate arguments of AnimDemo's command line, read as data from outside the program:
/// every number through ``FrameRate/init(validating:)``, every range through the throwing
/// ``FrameRateRange/init(validatingMinimum:maximum:preferred:)``.
enum RateRangeArgument {
    /// Reads `--frame-rate-range`: `30` (exactly 30 Hz), `40-50` (preferring 50) or `40-50@45`.
    ///
    /// - Throws: ``DemoError`` saying what is wrong with `text`.
    static func range(_ text: String) throws(DemoError) -> FrameRateRange {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw problem(text, "more than one @") }
        let bounds = try rates(String(parts[0]), in: text)
        let preferred = parts.count == 2 ? try rate(String(parts[1]), in: text) : nil
        do {
            return try FrameRateRange(
                validatingMinimum: bounds.lowerBound, maximum: bounds.upperBound, preferred: preferred)
        } catch {
            throw problem(text, "\(error)")
        }
    }

    /// Reads `--variable-refresh`: the display's range, such as `48-144`.
    ///
    /// - Throws: ``DemoError`` saying what is wrong with `text`.
    static func variableRefresh(_ text: String) throws(DemoError) -> ClosedRange<FrameRate> {
        try rates(text, in: text)
    }

    /// `a-b` (or a single rate `a`, as `a-a`), each a number of hertz, the first at most the second.
    private static func rates(_ text: String, in whole: String) throws(DemoError) -> ClosedRange<FrameRate> {
        let ends = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(ends.count) else { throw problem(whole, "use MIN-MAX, such as 40-50") }
        let low = try rate(String(ends[0]), in: whole)
        let high = ends.count == 2 ? try rate(String(ends[1]), in: whole) : low
        guard low <= high else { throw problem(whole, "the minimum \(low) is above the maximum \(high)") }
        return low...high
    }

    private static func rate(_ text: String, in whole: String) throws(DemoError) -> FrameRate {
        guard let value = Double(text) else { throw problem(whole, "`\(text)` is not a number of hertz") }
        do {
            return try FrameRate(validating: value)
        } catch {
            throw problem(whole, "\(error)")
        }
    }

    private static func problem(_ text: String, _ why: String) -> DemoError {
        DemoError(description: "`\(text)`: \(why)")
    }
}
