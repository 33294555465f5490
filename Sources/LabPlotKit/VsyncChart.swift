import FrameLink

/// An SVG chart of a scenario's run over time: for every frame, the raw present return and
/// FrameLink's timestamp, each minus the true vsync the timestamp stands for, with the true vsync as
/// the zero line; a second panel zooms in on the timestamp's error in microseconds.
///
/// The first panel spans ±(jitter + 1) ms, the second ±100 µs; a value beyond a panel's range is
/// drawn at its edge (a return as a hollow dot). Vertical lines mark where the source phase-locked
/// and where the window moved, a grey band the frames the window was hidden; the title gives the
/// scenario and the errors while phase-locked, computed from the run.
///
/// ```swift
/// let run = try ScenarioRun(try PlotScenario())
/// let svg = VsyncChart(run: run).svg()
/// ```
package struct VsyncChart: Sendable {
    /// The run to draw.
    package let run: ScenarioRun

    /// The range of the zoomed panel, in microseconds either side of the true vsync.
    package static let zoomedRange: Double = 100

    /// The chart's width, in pixels.
    private static let width = 1000.0
    /// The top of the legend, in pixels (under the time axis).
    private static let legendTop = 716.0
    /// The distance between two rows of the legend, in pixels.
    private static let legendRowHeight = 18.0
    /// The left edge of both panels (room for the value labels and the axis titles).
    private static let left = 84.0
    /// The width of both panels.
    private static let plotWidth = 890.0
    /// The colour of the present returns.
    private static let returnColour = "#1f77b4"
    /// The colour of FrameLink's timestamps.
    private static let timestampColour = "#d62728"
    /// The colour of the phase-lock marks.
    private static let lockColour = "#2ca02c"
    /// The colour of the move marks.
    private static let moveColour = "#ff7f0e"
    /// The colour of the band of hidden frames.
    private static let hiddenColour = "#e6e6e6"

    /// Creates the chart of `run`.
    ///
    /// - Parameter run: The run to draw.
    package init(run: ScenarioRun) {
        self.run = run
    }

    /// The chart as a standalone SVG document: UTF-8 XML (the default encoding, so no declaration)
    /// with its own white background, starting with `<svg`.
    package func svg() -> String {
        let endSeconds = max(run.samples.last?.timestamp.seconds ?? 0, 0.001)
        let main = _PlotArea(
            left: Self.left, top: 136, width: Self.plotWidth, height: 320, seconds: 0...endSeconds,
            values: -millisecondRange...millisecondRange)
        let zoomed = _PlotArea(
            left: Self.left, top: 504, width: Self.plotWidth, height: 150, seconds: 0...endSeconds,
            values: -Self.zoomedRange...Self.zoomedRange)

        var writer = _SVGWriter()
        writer.open(
            "svg",
            [
                "xmlns": "http://www.w3.org/2000/svg", "width": _SVGWriter.number(Self.width),
                "height": _SVGWriter.number(height),
                "viewBox": "0 0 \(_SVGWriter.number(Self.width)) \(_SVGWriter.number(height))",
                "font-family": "DejaVu Sans, Helvetica, Arial, sans-serif", "font-size": "12", "fill": "#222",
            ])
        writer.open("title")
        writer.raw(_SVGWriter.escaped("FrameLink display lab: \(run.scenario)") + "\n")
        writer.close("title")
        writer.element("rect", ["width": "100%", "height": "100%", "fill": "white"])
        drawTitle(&writer)

        drawFrame(
            main, in: &writer, id: "milliseconds",
            title: "present return and FrameLink timestamp, minus the true vsync (ms)", axisTitle: "ms")
        drawReturns(main, in: &writer)
        drawTimestamps(main, scale: 1e6, in: &writer, id: "timestamp-error")
        drawLockStrip(under: main, in: &writer)

        drawFrame(
            zoomed, in: &writer, id: "microseconds",
            title:
                "FrameLink timestamp minus the true vsync, zoomed (µs; beyond ±\(Int(Self.zoomedRange)) at the edge); "
                + "dashed: ±50 µs",
            axisTitle: "µs")
        for tolerance in [-50.0, 50.0] {
            let y = _SVGWriter.number(zoomed.y(tolerance).pixel)
            writer.element(
                "line",
                [
                    "x1": _SVGWriter.number(zoomed.left), "x2": _SVGWriter.number(zoomed.right), "y1": y, "y2": y,
                    "stroke": "#888", "stroke-dasharray": "5 4",
                ])
        }
        drawTimestamps(zoomed, scale: 1e3, in: &writer, id: "timestamp-error-zoomed")

        drawEvents(from: main, to: zoomed, in: &writer)
        drawTimeAxis(zoomed, in: &writer)
        drawLegend(top: Self.legendTop, in: &writer)
        writer.close("svg")
        return writer.text
    }

    /// The main panel's range either side of the true vsync, in milliseconds: the jitter plus 1 ms.
    private var millisecondRange: Double {
        Double(run.scenario.jitter.wholeNanoseconds) / 1e6 + 1
    }

    /// Whether a return lies beyond the main panel's range (none does while returns come at most the
    /// jitter after their vsync, as the lab's do).
    private var hasReturnsBeyondRange: Bool {
        run.samples.contains { sample in
            sample.returnDelay.map { abs(Double($0) / 1e6) > millisecondRange } ?? false
        }
    }

    /// The legend's entries: the three series and the first lock, and the marks this run has.
    private var legendEntries: Int {
        4 + (hasReturnsBeyondRange ? 1 : 0) + (run.scenario.move != nil ? 1 : 0)
            + (run.scenario.hiddenFrames != nil ? 1 : 0)
    }

    /// The chart's height, in pixels: down to the legend's last row (two entries a row).
    private var height: Double {
        Self.legendTop + Double((legendEntries + 1) / 2 - 1) * Self.legendRowHeight + 16
    }

    // MARK: Parts

    /// The title, the scenario, and the figures computed from the run.
    private func drawTitle(_ writer: inout _SVGWriter) {
        writer.label(
            "FrameLink display lab: vsync timestamps against the true vsync", x: Self.left, y: 26,
            ["font-size": "17", "font-weight": "bold"])
        writer.label("Scenario: \(run.scenario)", x: Self.left, y: 48, ["font-size": "13"])
        for (position, line) in figureLines.enumerated() {
            writer.label(line, x: Self.left, y: 68 + Double(position) * 20, ["font-size": "13"])
        }
        var pacing = "Measured rate: \(run.measuredRefreshRate.map { "\($0)" } ?? "none")"
        pacing += " · dropped frames counted \(run.droppedFrames), true \(run.missedRefreshes)"
        if run.vsyncRelocks > 0 { pacing += " · grid re-fitted \(run.vsyncRelocks)×" }
        pacing += " · drawn by LabPlot (make plot)"
        writer.label(pacing, x: Self.left, y: 108, ["font-size": "12", "fill": "#555"])
    }

    /// The two figure lines: the timestamps' errors while phase-locked, and the raw returns' on the
    /// same frames (over every frame if the grid never locked).
    private var figureLines: [String] {
        guard let locked = run.firstLockedFrame, let errors = run.lockedTimestampErrors else {
            let timestamps = ErrorStatistics(errors: run.samples.compactMap(\.timestampError))
            let returns = ErrorStatistics(errors: run.samples.compactMap(\.returnDelay))
            return [
                "Never phase-locked. Over every frame, |timestamp − true vsync|: "
                    + (timestamps?.description ?? "no frame matched"),
                "present return − true vsync: " + (returns?.description ?? "no present waited for a vsync"),
            ]
        }
        let returns = run.lockedReturnDelays
        return [
            "Phase-locked at frame \(locked.index) (\(_NumberText.fixed(locked.timestamp.seconds, digits: 2)) s). "
                + "While locked (\(errors.count) frames), |timestamp − true vsync|: \(errors)",
            "On the same frames, present return − true vsync: "
                + (returns?.description ?? "no present waited for a vsync"),
        ]
    }

    /// A panel's frame: its background, grid, value labels, zero line (the true vsync), titles.
    private func drawFrame(
        _ area: _PlotArea, in writer: inout _SVGWriter, id: String, title: String, axisTitle: String
    ) {
        writer.open("g", ["id": "panel-\(id)"])
        writer.element(
            "rect",
            [
                "x": _SVGWriter.number(area.left), "y": _SVGWriter.number(area.top),
                "width": _SVGWriter.number(area.width), "height": _SVGWriter.number(area.height), "fill": "#fbfbfb",
                "stroke": "#999",
            ])
        for band in hiddenBands(area) {
            writer.element(
                "rect",
                [
                    "class": "hidden", "x": _SVGWriter.number(band.lowerBound), "y": _SVGWriter.number(area.top),
                    "width": _SVGWriter.number(band.upperBound - band.lowerBound),
                    "height": _SVGWriter.number(area.height), "fill": Self.hiddenColour,
                ])
        }
        let valueTicks = _AxisTicks(for: area.values, about: 8)
        for value in valueTicks.values {
            let y = _SVGWriter.number(area.y(value).pixel)
            writer.element(
                "line",
                [
                    "x1": _SVGWriter.number(area.left), "x2": _SVGWriter.number(area.right), "y1": y, "y2": y,
                    "stroke": "#e3e3e3",
                ])
            writer.element(
                "line",
                [
                    "x1": _SVGWriter.number(area.left - 5), "x2": _SVGWriter.number(area.left), "y1": y, "y2": y,
                    "stroke": "#444",
                ])
            writer.label(
                valueTicks.label(value), x: area.left - 8, y: area.y(value).pixel + 4, ["text-anchor": "end"])
        }
        for time in _AxisTicks(for: area.seconds, about: 10).values {
            let x = _SVGWriter.number(area.x(time))
            writer.element(
                "line",
                [
                    "x1": x, "x2": x, "y1": _SVGWriter.number(area.top), "y2": _SVGWriter.number(area.bottom),
                    "stroke": "#ececec",
                ])
        }
        let zero = _SVGWriter.number(area.y(0).pixel)
        writer.element(
            "line",
            [
                "id": id == "milliseconds" ? "true-vsync" : "true-vsync-zoomed", "x1": _SVGWriter.number(area.left),
                "x2": _SVGWriter.number(area.right), "y1": zero, "y2": zero, "stroke": "#111", "stroke-width": "1.5",
            ])
        writer.label(title, x: area.left, y: area.top - 8, ["font-size": "13", "font-weight": "bold"])
        let middle = (area.top + area.bottom) / 2
        writer.label(
            axisTitle, x: area.left - 52, y: middle,
            [
                "text-anchor": "middle",
                "transform": "rotate(-90 \(_SVGWriter.number(area.left - 52)) \(_SVGWriter.number(middle)))",
            ])
        writer.close("g")
    }

    /// The returns of presents that waited for a vsync, minus the true vsync, as dots (hollow when
    /// pinned to the panel's edge).
    private func drawReturns(_ area: _PlotArea, in writer: inout _SVGWriter) {
        writer.open("g", ["id": "raw-returns", "fill": Self.returnColour, "fill-opacity": "0.6"])
        var clipped: [(x: Double, y: Double)] = []
        for sample in run.samples {
            guard let delay = sample.returnDelay else { continue }
            let x = area.x(sample.timestamp.seconds)
            let (y, isClipped) = area.y(Double(delay) / 1e6)
            if isClipped {
                clipped.append((x, y))
            } else {
                writer.element("circle", ["cx": _SVGWriter.number(x), "cy": _SVGWriter.number(y), "r": "1.8"])
            }
        }
        writer.close("g")
        writer.open("g", ["id": "raw-returns-beyond-range", "fill": "none", "stroke": Self.returnColour])
        for point in clipped {
            writer.element("circle", ["cx": _SVGWriter.number(point.x), "cy": _SVGWriter.number(point.y), "r": "2.5"])
        }
        writer.close("g")
    }

    /// The timestamps minus the true vsync, as a line broken where a frame has no match, in the
    /// panel's unit (`scale` nanoseconds per unit).
    private func drawTimestamps(_ area: _PlotArea, scale: Double, in writer: inout _SVGWriter, id: String) {
        writer.open(
            "g",
            [
                "id": id, "fill": "none", "stroke": Self.timestampColour, "stroke-width": "1.4",
                "stroke-linejoin": "round",
            ])
        var points = ""
        func flush() {
            if !points.isEmpty { writer.element("polyline", ["points": points]) }
            points = ""
        }
        for sample in run.samples {
            guard let error = sample.timestampError else {
                flush()
                continue
            }
            if !points.isEmpty { points += " " }
            points +=
                _SVGWriter.number(area.x(sample.timestamp.seconds)) + ","
                + _SVGWriter.number(area.y(Double(error) / scale).pixel)
        }
        flush()
        writer.close("g")
    }

    /// The horizontal extents, in pixels, of the hidden frames.
    private func hiddenBands(_ area: _PlotArea) -> [ClosedRange<Double>] {
        run.events.compactMap { event in
            guard case .hidden(_, let from, let to) = event else { return nil }
            return area.x(from.seconds)...area.x(to.seconds)
        }
    }

    /// The first phase lock, and the first after each move or hide, as a line through both panels;
    /// the moves as lines too; labels above (rows staggered so that close events do not overlap).
    /// The other times the grid locked again show in the strip of locked frames.
    private func drawEvents(from top: _PlotArea, to bottom: _PlotArea, in writer: inout _SVGWriter) {
        writer.open("g", ["id": "events", "font-size": "11"])
        var awaitsLock = true
        var row = 0
        func labelY() -> Double {
            defer { row += 1 }
            return top.top + 14 + Double(row % 3) * 14
        }
        for event in run.events {
            switch event {
            case .phaseLocked(let frame, let at, let isFirst):
                guard awaitsLock else { continue }
                awaitsLock = false
                let x = top.x(at.seconds)
                marker(
                    x: x, from: top.top, to: bottom.bottom, colour: Self.lockColour, dashed: true, id: "lock-marker",
                    in: &writer)
                writer.label(
                    "\(isFirst ? "phase-locked" : "locked again"), frame \(frame)", x: x + 4, y: labelY(),
                    ["fill": Self.lockColour])
            case .moved(let frame, let at, let rate):
                awaitsLock = true
                let x = top.x(at.seconds)
                marker(
                    x: x, from: top.top, to: bottom.bottom, colour: Self.moveColour, dashed: false, id: "move-marker",
                    in: &writer)
                writer.label("moved to \(rate), frame \(frame)", x: x + 4, y: labelY(), ["fill": Self.moveColour])
            case .hidden(let frames, let from, _):
                awaitsLock = true
                writer.label(
                    "hidden, frames \(frames.lowerBound)–\(frames.upperBound)", x: top.x(from.seconds) + 4, y: labelY(),
                    ["fill": "#555"])
            }
        }
        writer.close("g")
    }

    /// A strip under `area` that is green where the source's grid was phase-locked.
    private func drawLockStrip(under area: _PlotArea, in writer: inout _SVGWriter) {
        let y = area.bottom + 10
        writer.open("g", ["id": "lock-strip", "fill": Self.lockColour, "fill-opacity": "0.7"])
        writer.label(
            "locked", x: area.left - 6, y: y + 6, ["text-anchor": "end", "font-size": "10", "fill": Self.lockColour])
        var start: Double?
        var previous = 0.0
        for sample in run.samples {
            let x = area.x(sample.timestamp.seconds)
            if sample.isPhaseLocked {
                if start == nil { start = x }
            } else if let from = start {
                lockRectangle(from: from, to: x, y: y, in: &writer)
                start = nil
            }
            previous = x
        }
        if let from = start { lockRectangle(from: from, to: previous, y: y, in: &writer) }
        writer.close("g")
    }

    /// One run of locked frames in the lock strip.
    private func lockRectangle(from: Double, to: Double, y: Double, in writer: inout _SVGWriter) {
        writer.element(
            "rect",
            [
                "x": _SVGWriter.number(from), "y": _SVGWriter.number(y),
                "width": _SVGWriter.number(max(to - from, 0.5)),
                "height": "6",
            ])
    }

    /// A vertical line from `from` to `to` at `x`.
    private func marker(
        x: Double, from: Double, to: Double, colour: String, dashed: Bool, id: String, in writer: inout _SVGWriter
    ) {
        writer.element(
            "line",
            [
                "class": id, "x1": _SVGWriter.number(x), "x2": _SVGWriter.number(x), "y1": _SVGWriter.number(from),
                "y2": _SVGWriter.number(to), "stroke": colour, "stroke-width": "1.5",
                "stroke-dasharray": dashed ? "6 4" : "none",
            ])
    }

    /// The time axis under the lower panel: ticks, labels in seconds, and its title.
    private func drawTimeAxis(_ area: _PlotArea, in writer: inout _SVGWriter) {
        let ticks = _AxisTicks(for: area.seconds, about: 10)
        writer.open("g", ["id": "time-axis"])
        for time in ticks.values {
            let x = area.x(time)
            writer.element(
                "line",
                [
                    "x1": _SVGWriter.number(x), "x2": _SVGWriter.number(x), "y1": _SVGWriter.number(area.bottom),
                    "y2": _SVGWriter.number(area.bottom + 5), "stroke": "#444",
                ])
            writer.label(ticks.label(time), x: x, y: area.bottom + 19, ["text-anchor": "middle"])
        }
        writer.label(
            "time since the start of the run (s)", x: area.left + area.width / 2, y: area.bottom + 38,
            ["text-anchor": "middle"])
        writer.close("g")
    }

    /// The legend: a swatch and a line of text for each series and mark.
    private func drawLegend(top: Double, in writer: inout _SVGWriter) {
        writer.open("g", ["id": "legend", "font-size": "12"])
        let column = 445.0
        var items: [(swatch: (Double, Double, inout _SVGWriter) -> Void, text: String)] = [
            (
                { x, y, writer in
                    writer.element(
                        "circle",
                        [
                            "cx": _SVGWriter.number(x + 9), "cy": _SVGWriter.number(y), "r": "3",
                            "fill": Self.returnColour,
                        ])
                }, "present return − true vsync (raw)"
            ),
            (
                { x, y, writer in self.swatchLine(x: x, y: y, colour: Self.timestampColour, dashed: false, in: &writer)
                },
                "FrameLink timestamp − true vsync (the estimate's error)"
            ),
            (
                { x, y, writer in self.swatchLine(x: x, y: y, colour: "#111", dashed: false, in: &writer) },
                "the true vsync the timestamp stands for (zero)"
            ),
            (
                { x, y, writer in self.swatchLine(x: x, y: y, colour: Self.lockColour, dashed: true, in: &writer) },
                "phase-locked (line: first lock; strip: every locked frame)"
            ),
        ]
        if hasReturnsBeyondRange {
            items.append(
                (
                    { x, y, writer in
                        writer.element(
                            "circle",
                            [
                                "cx": _SVGWriter.number(x + 9), "cy": _SVGWriter.number(y), "r": "3", "fill": "none",
                                "stroke": Self.returnColour,
                            ])
                    }, "a return beyond the panel's range, at its edge"
                ))
        }
        if run.scenario.move != nil {
            items.append(
                (
                    { x, y, writer in self.swatchLine(x: x, y: y, colour: Self.moveColour, dashed: false, in: &writer)
                    },
                    "the window moved to a display with another rate"
                ))
        }
        if run.scenario.hiddenFrames != nil {
            items.append(
                (
                    { x, y, writer in
                        writer.element(
                            "rect",
                            [
                                "x": _SVGWriter.number(x), "y": _SVGWriter.number(y - 6), "width": "18", "height": "12",
                                "fill": Self.hiddenColour, "stroke": "#bbb",
                            ])
                    }, "the window was hidden"
                ))
        }
        assert(
            items.count == legendEntries,
            "VsyncChart: the legend has \(items.count) entries, the height counts \(legendEntries)")
        for (position, item) in items.enumerated() {
            let x = Self.left + Double(position % 2) * column
            let y = top + Double(position / 2) * Self.legendRowHeight
            item.swatch(x, y, &writer)
            writer.label(item.text, x: x + 24, y: y + 4)
        }
        writer.close("g")
    }

    /// A short horizontal line as a legend swatch.
    private func swatchLine(x: Double, y: Double, colour: String, dashed: Bool, in writer: inout _SVGWriter) {
        writer.element(
            "line",
            [
                "x1": _SVGWriter.number(x), "x2": _SVGWriter.number(x + 18), "y1": _SVGWriter.number(y),
                "y2": _SVGWriter.number(y), "stroke": colour, "stroke-width": "2",
                "stroke-dasharray": dashed ? "6 4" : "none",
            ])
    }
}
