import FrameLink
import LabPlotKit
import Testing

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
    }

    @Test("text is escaped")
    func escaping() throws {
        let run = try ScenarioRun(try PlotScenario(jitter: .microseconds(300), frames: 100))
        let svg = VsyncChart(run: run).svg()
        #expect(!svg.contains("& "))
        #expect(Self.unbalancedElements(in: svg).isEmpty)
    }
}
