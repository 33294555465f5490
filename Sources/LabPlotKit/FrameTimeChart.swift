import FrameLink

/// A frame-time chart of a ``FrameLog`` as SVG: one bar per frame (or per group of frames in a long
/// log), its work phases stacked under the wait, the frame budget and twice the budget as lines,
/// frames that dropped in red, and a legend.
///
/// SVG is written directly rather than PNG through a library: it needs no dependency, stays sharp
/// at any zoom, opens in every browser and in the DocC articles, and its bars can be counted by a test.
package struct FrameTimeChart {
    /// The most bars a chart draws; a longer log is drawn in groups of consecutive frames, each bar
    /// showing its group's longest frame (so no hitch disappears).
    package static let maximumBars = 2_000

    /// The SVG document.
    package let svg: String

    /// The number of bars drawn.
    package let barCount: Int

    /// The number of bars drawn in red (a frame, or a group, that dropped frames).
    package let droppedBarCount: Int

    /// The work phases, bottom to top, and their colours.
    static let phases: [(FramePhase, String)] = [
        (.events, "#8e6bbf"), (.timers, "#e0a030"), (.links, "#3f7fbf"), (.render, "#3aa776"), (.present, "#7a7a7a"),
    ]

    /// Draws `log`.
    ///
    /// - Parameters:
    ///   - log: The frame log (at least one record, a positive period).
    ///   - title: The chart's title, such as the log's file name.
    @MainActor
    package init(log: FrameLog, title: String) {
        let records = log.records
        let period = Double(max(log.periodNanoseconds, 1)) / 1e6
        let groupSize = max(1, (records.count + Self.maximumBars - 1) / Self.maximumBars)
        var bars: [FrameRecord] = []
        bars.reserveCapacity(records.count / groupSize + 1)
        var start = 0
        while start < records.count {
            let group = records[start..<min(start + groupSize, records.count)]
            var longest = group[group.startIndex]
            var dropped = 0
            for record in group {
                if record.intervalNanoseconds > longest.intervalNanoseconds { longest = record }
                dropped += record.droppedFrames
            }
            longest.droppedFrames = dropped
            bars.append(longest)
            start += groupSize
        }

        let width = 1_000.0
        let height = 420.0
        let plot = (left: 60.0, top: 40.0, right: width - 20, bottom: height - 70)
        let longestMilliseconds = bars.map { Double($0.intervalNanoseconds) / 1e6 }.max() ?? period
        let top = max(period * 2.5, longestMilliseconds * 1.05)
        func y(_ milliseconds: Double) -> Double {
            plot.bottom - (plot.bottom - plot.top) * min(milliseconds, top) / top
        }
        let slot = (plot.right - plot.left) / Double(max(bars.count, 1))
        let barWidth = max(slot * 0.8, 0.1)

        var svg = _SVGWriter()
        svg.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        svg.open(
            "svg",
            [
                "xmlns": "http://www.w3.org/2000/svg", "width": _SVGWriter.number(width),
                "height": _SVGWriter.number(height), "viewBox": "0 0 \(Int(width)) \(Int(height))",
                "font-family": "sans-serif", "font-size": "12",
            ])
        svg.element("rect", ["width": "100%", "height": "100%", "fill": "white"])
        let groupNote = groupSize > 1 ? ", each bar the longest of \(groupSize) frames" : ""
        svg.label(
            "\(title): \(records.count) frames at \(_NumberText.fixed(1000 / period, digits: 2)) Hz\(groupNote)",
            x: plot.left, y: 22, ["font-size": "14"])
        var dropped = 0
        svg.open("g", ["id": "bars"])
        for (index, record) in bars.enumerated() {
            let x = plot.left + Double(index) * slot
            let interval = Double(record.intervalNanoseconds) / 1e6
            let isDrop = record.droppedFrames > 0
            if isDrop { dropped += 1 }
            svg.element(
                "rect",
                [
                    "class": isDrop ? "bar dropped" : "bar", "x": _SVGWriter.number(x),
                    "y": _SVGWriter.number(y(interval)), "width": _SVGWriter.number(barWidth),
                    "height": _SVGWriter.number(plot.bottom - y(interval)),
                    "fill": isDrop ? "#e04040" : "#d8dde6",
                ])
            var base = 0.0
            for (phase, colour) in Self.phases {
                let milliseconds = Double(record.phases[nanoseconds: phase]) / 1e6
                guard milliseconds > 0 else { continue }
                svg.element(
                    "rect",
                    [
                        "class": "phase", "x": _SVGWriter.number(x), "y": _SVGWriter.number(y(base + milliseconds)),
                        "width": _SVGWriter.number(barWidth),
                        "height": _SVGWriter.number(y(base) - y(base + milliseconds)), "fill": colour,
                    ])
                base += milliseconds
            }
        }
        svg.close("g")
        for (multiple, name) in [(1.0, "budget"), (2.0, "2× budget")] {
            let lineY = y(period * multiple)
            svg.element(
                "line",
                [
                    "x1": _SVGWriter.number(plot.left), "y1": _SVGWriter.number(lineY),
                    "x2": _SVGWriter.number(plot.right), "y2": _SVGWriter.number(lineY), "stroke": "#202020",
                    "stroke-dasharray": multiple == 1 ? "6 4" : "2 3",
                ])
            svg.label(
                "\(name) \(_NumberText.fixed(period * multiple, digits: 2)) ms", x: plot.right, y: lineY - 4,
                ["text-anchor": "end"])
        }
        svg.element(
            "line",
            [
                "x1": _SVGWriter.number(plot.left), "y1": _SVGWriter.number(plot.bottom),
                "x2": _SVGWriter.number(plot.right), "y2": _SVGWriter.number(plot.bottom), "stroke": "#202020",
            ])
        svg.label("ms", x: plot.left - 8, y: plot.top, ["text-anchor": "end"])
        svg.label("0", x: plot.left - 8, y: plot.bottom, ["text-anchor": "end"])
        svg.label(_NumberText.fixed(top, digits: 1), x: plot.left - 8, y: plot.top + 12, ["text-anchor": "end"])
        var legendX = plot.left
        let legend: [(String, String)] =
            [("frame (wait on top)", "#d8dde6"), ("dropped", "#e04040")]
            + Self.phases.map { ($0.0.description, $0.1) }
        for (name, colour) in legend {
            svg.element(
                "rect",
                [
                    "x": _SVGWriter.number(legendX), "y": _SVGWriter.number(height - 40), "width": "12",
                    "height": "12", "fill": colour,
                ])
            svg.label(name, x: legendX + 16, y: height - 30)
            legendX += 30 + Double(name.count) * 7
        }
        svg.close("svg")
        self.svg = svg.text
        barCount = bars.count
        droppedBarCount = dropped
    }
}
