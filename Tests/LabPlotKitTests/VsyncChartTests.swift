import Foundation
import FrameLink
import LabPlotKit
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The SVG chart: well-formed, with the three series, figures computed from the run, and values
/// beyond a panel's range drawn at its edge.
@MainActor
@Suite("The vsync chart (SVG)")
struct VsyncChartTests {
    /// The names of the elements of `svg` left open at its end, or a description of the first
    /// mismatch; empty for a balanced document. Attribute values never hold `>` (they are escaped).
    static func unbalancedElements(in svg: String) -> [String] {
        var open: [String] = []
        var rest = Substring(svg)
        while let start = rest.firstIndex(of: "<") {
            guard let end = rest[start...].firstIndex(of: ">") else { return open + ["an unterminated tag"] }
            let tag = rest[rest.index(after: start)..<end]
            rest = rest[rest.index(after: end)...]
            if tag.hasPrefix("?") || tag.hasPrefix("!") || tag.hasSuffix("/") { continue }
            let name = String(tag.prefix { $0 != " " && $0 != "\n" })
            if name.hasPrefix("/") {
                guard open.last == String(name.dropFirst()) else { return open + ["</\(name.dropFirst())> mismatched"] }
                open.removeLast()
            } else {
                open.append(name)
            }
        }
        return open
    }

    /// How many times `part` occurs in `text`.
    static func occurrences(of part: String, in text: String) -> Int {
        text.split(separator: part, omittingEmptySubsequences: false).count - 1
    }

    @Test("the chart is one balanced <svg> element with the three series")
    func structure() throws {
        let run = try ScenarioRun(try PlotScenario(jitter: .microseconds(300), frames: 300))
        let svg = VsyncChart(run: run).svg()
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(Self.unbalancedElements(in: svg).isEmpty, "\(Self.unbalancedElements(in: svg))")
        #expect(Self.occurrences(of: "<svg", in: svg) == 1)
        for id in ["raw-returns", "timestamp-error", "true-vsync", "timestamp-error-zoomed", "legend", "lock-strip"] {
            #expect(svg.contains("id=\"\(id)\""), "\(id)")
        }
        // A dot for every present that waited (hollow ones beyond the range included).
        let returns = run.samples.compactMap(\.returnDelay).count
        let dotsStart = try #require(svg.range(of: "<g id=\"raw-returns\""))
        let dotsEnd = try #require(svg.range(of: "<g id=\"timestamp-error\""))
        #expect(Self.occurrences(of: "<circle", in: String(svg[dotsStart.lowerBound..<dotsEnd.lowerBound])) == returns)
        #expect(svg.contains("class=\"lock-marker\""))
        #expect(!svg.contains("NaN") && !svg.contains("inf"))
    }

    @Test("the title gives the scenario and the errors after the lock, computed from the run")
    func title() throws {
        let run = try ScenarioRun(try PlotScenario(jitter: .microseconds(300), frames: 300))
        let svg = VsyncChart(run: run).svg()
        let errors = try #require(run.lockedTimestampErrors)
        let locked = try #require(run.firstLockedFrame)
        #expect(svg.contains("Scenario: 60 Hz, 2 buffers, jitter 0–0.3 ms, work 3 ms, 300 frames, seed 1"))
        #expect(svg.contains("Phase-locked at frame \(locked.index) "))
        #expect(svg.contains("|timestamp − true vsync|: \(errors)"))
        // The figures themselves, computed here from the run's frames: the locked frames' count, and
        // the median and largest of their timestamps' distances to the true vsync, in µs.
        let magnitudes = run.samples.filter(\.isPhaseLocked).compactMap(\.timestampError).map { abs($0) }.sorted()
        let median = magnitudes[(magnitudes.count + 1) / 2 - 1]
        let largest = try #require(magnitudes.last)
        func microseconds(_ nanoseconds: Int64) -> String { String(format: "%.1f", Double(nanoseconds) / 1e3) }
        #expect(svg.contains("While locked (\(magnitudes.count) frames)"))
        #expect(svg.contains("p50 \(microseconds(median)) µs"), "median \(median) ns")
        #expect(svg.contains("max \(microseconds(largest)) µs"), "largest \(largest) ns")
    }

    @Test("the chart is well-formed XML (an XML parser reads all of it)")
    func wellFormed() throws {
        // No text of the chart holds a character XML reserves, so escaping itself is tested on the
        // writer (ChartPartsTests); this checks the whole document as a parser sees it.
        let run = try ScenarioRun(try PlotScenario(jitter: .microseconds(300), frames: 100))
        let svg = VsyncChart(run: run).svg()
        let parser = XMLParser(data: Data(svg.utf8))
        // Foundation on Linux returns true for some errors (content after the root): check both.
        let parsed = parser.parse()
        #expect(parsed && parser.parserError == nil, "\(parser.parserError.map { "\($0)" } ?? "")")
    }
}
