import Testing

@testable import LabPlotKit

/// The chart's small parts: the mapping to pixels (values beyond the range pinned to its edge), the
/// axis ticks, the number text and the escaping.
@Suite("Chart parts: pixels, ticks, numbers, escaping")
struct ChartPartsTests {
    @Test("values beyond a panel's range are pinned to its edge and flagged")
    func pinning() {
        let area = _PlotArea(left: 100, top: 50, width: 800, height: 200, seconds: 0...10, values: -2...2)
        #expect(area.x(0) == 100 && area.x(5) == 500 && area.x(10) == 900)
        #expect(area.y(0) == (150, false))
        #expect(area.y(2) == (50, false))
        #expect(area.y(-2) == (250, false))
        #expect(area.y(3.5) == (50, true))
        #expect(area.y(-40) == (250, true))
    }

    @Test("ticks are round numbers 1, 2 or 5 times a power of ten apart, within the range")
    func ticks() {
        let milliseconds = _AxisTicks(for: -2...2, about: 8)
        #expect(milliseconds.values == [-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2])
        #expect(
            milliseconds.values.map(milliseconds.label) == ["-2", "-1.5", "-1", "-0.5", "0", "0.5", "1", "1.5", "2"])
        let seconds = _AxisTicks(for: 0...15.02, about: 10)
        #expect(seconds.values == [0, 2, 4, 6, 8, 10, 12, 14])
        let microseconds = _AxisTicks(for: -100...100, about: 8)
        #expect(microseconds.values.first == -100 && microseconds.values.last == 100 && microseconds.step == 20)
        #expect(_AxisTicks(for: 1...1, about: 5).values == [1])
    }

    @Test("numbers are written with a point, no exponent and no negative zero")
    func numbers() {
        #expect(_NumberText.fixed(1.25, digits: 1) == "1.3")
        #expect(_NumberText.fixed(-0.04, digits: 1) == "0.0")
        #expect(_NumberText.fixed(-3.05, digits: 2) == "-3.05")
        #expect(_NumberText.fixed(0.000_01, digits: 1) == "0.0")
        #expect(_NumberText.fixed(.nan, digits: 1) == "0")
        #expect(_NumberText.short(2.50, digits: 3) == "2.5")
        #expect(_NumberText.short(-0.0001, digits: 1) == "0")
        #expect(_NumberText.short(120, digits: 1) == "120")
        #expect(_NumberText.milliseconds(.microseconds(300)) == "0.3")
        #expect(_NumberText.microseconds(58_549) == "58.5")
    }

    @Test("the characters XML reserves are escaped")
    func escaping() {
        #expect(_SVGWriter.escaped("a < b & \"c\" > 'd'") == "a &lt; b &amp; &quot;c&quot; &gt; &apos;d&apos;")
        var writer = _SVGWriter()
        writer.label("p50 < 5 µs & more", x: 1, y: 2.25)
        #expect(writer.text == "<text x=\"1\" y=\"2.3\">p50 &lt; 5 µs &amp; more</text>\n")
    }
}
