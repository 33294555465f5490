import Testing

@testable import FrameLink

/// The phase probe: frames moved half a period off a grid fitted to returns the source timed tell a
/// vsync (returns stay on the grid) from a slow or throttled present (returns follow the calls).
@Suite("_PhaseProbe: is a grid of timed returns the display's vsync?")
struct PhaseProbeTests {
    static let period: Int64 = 16_666_667

    /// A probe whose frames all ran, each present blocking (or not) and returning `distance` from
    /// the grid.
    static func probe(blocked: Bool = true, distance: Int64) -> _PhaseProbe {
        var probe = _PhaseProbe(relocks: 0)
        for _ in 0..<_PhaseProbe.frames { probe.noteFrame(blocked: blocked) { distance } }
        return probe
    }

    @Test(
        "returns within a quarter period of a vsync stay on the grid; further off, they follow the frames",
        arguments: [
            (distance: Int64(0), onGrid: true), (distance: 300_000, onGrid: true),
            (distance: period / 4, onGrid: true), (distance: period / 4 + 1, onGrid: false),
            (distance: period / 2, onGrid: false),
        ])
    func verdictByDistance(distance: Int64, onGrid: Bool) {
        let probe = Self.probe(distance: distance)
        #expect(probe.isOver)
        #expect(probe.measured == _PhaseProbe.frames - 1)
        let verdict = probe.verdict(period: Self.period, relocksNow: 0)
        #expect(verdict == (onGrid ? .returnsStayOnGrid : .returnsFollowFrames(offGrid: distance)))
    }

    @Test("the first frame's present was called before frames moved: it is not measured")
    func firstFrameNotMeasured() {
        var probe = _PhaseProbe(relocks: 0)
        probe.noteFrame(blocked: true) { Self.period / 2 }
        #expect(probe.measured == 0)
        for _ in 1..<_PhaseProbe.frames { probe.noteFrame(blocked: true) { 0 } }
        #expect(probe.verdict(period: Self.period, relocksNow: 0) == .returnsStayOnGrid)
    }

    @Test("too few presents blocked (a window hidden meanwhile): inconclusive, unless the grid relocked")
    func tooFewSamples() {
        var probe = _PhaseProbe(relocks: 2)
        for index in 0..<_PhaseProbe.frames { probe.noteFrame(blocked: index < _PhaseProbe.minimumSamples) { 0 } }
        #expect(probe.measured == _PhaseProbe.minimumSamples - 1)
        #expect(probe.verdict(period: Self.period, relocksNow: 2) == .inconclusive)
        #expect(probe.verdict(period: Self.period, relocksNow: 3) == .returnsFollowFrames(offGrid: 0))
    }

    @Test("a relock during the probe means the returns stopped fitting the grid; the distance is at most a period")
    func relockFollowsFrames() {
        let probe = Self.probe(blocked: false, distance: 0)
        #expect(probe.verdict(period: Self.period, relocksNow: 1) == .returnsFollowFrames(offGrid: Self.period))
    }

    @Test("the first frame starts half a period off the grid, never sooner than a period from now")
    func firstFrameStart() {
        let vsync: Int64 = 100 * Self.period
        let start = _PhaseProbe.firstFrameStart(
            vsyncAfterNext: vsync, period: Self.period, returnOffset: 2_000_000, now: vsync - 2 * Self.period)
        #expect(start == vsync + Self.period / 2 - 2_000_000)
        let later = _PhaseProbe.firstFrameStart(
            vsyncAfterNext: vsync, period: Self.period, returnOffset: 2_000_000, now: vsync)
        #expect(later >= vsync + Self.period && (later - (vsync + Self.period / 2 - 2_000_000)) % Self.period == 0)
        #expect(_PhaseProbe.firstFrameStart(vsyncAfterNext: 0, period: 0, returnOffset: 0, now: 5) == 5)
    }
}
