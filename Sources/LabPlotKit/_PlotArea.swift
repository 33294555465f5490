/// A rectangle of the chart and the data ranges it shows: maps seconds and values to pixels,
/// pinning values beyond the vertical range to its edge.
struct _PlotArea {
    /// The left edge, in pixels.
    let left: Double
    /// The top edge, in pixels.
    let top: Double
    /// The width, in pixels.
    let width: Double
    /// The height, in pixels.
    let height: Double
    /// The seconds the horizontal axis spans.
    let seconds: ClosedRange<Double>
    /// The values the vertical axis spans (in the panel's unit).
    let values: ClosedRange<Double>

    /// The right edge, in pixels.
    var right: Double { left + width }
    /// The bottom edge, in pixels.
    var bottom: Double { top + height }

    /// The horizontal pixel of a time, in seconds.
    ///
    /// - Parameter time: Seconds from the start of the run.
    func x(_ time: Double) -> Double {
        let span = seconds.upperBound - seconds.lowerBound
        return left + (span > 0 ? (time - seconds.lowerBound) / span : 0) * width
    }

    /// The vertical pixel of a value, and whether the value lay beyond the range and was pinned to
    /// its edge.
    ///
    /// - Parameter value: A value in the panel's unit.
    func y(_ value: Double) -> (pixel: Double, isClipped: Bool) {
        let pinned = min(max(value, values.lowerBound), values.upperBound)
        let span = values.upperBound - values.lowerBound
        let pixel = bottom - (span > 0 ? (pinned - values.lowerBound) / span : 0.5) * height
        return (pixel, pinned != value)
    }
}
