import FrameLink
import LabPlotKit
import Testing

/// The checks of a scenario's command-line values: every bad value is refused with an error that
/// names the option.
@Suite("Plot scenarios: command-line values are checked")
struct PlotScenarioTests {
    /// Makes a scenario from command-line values, the defaults unless told.
    static func scenario(
        rate: Double = 60, jitter: Double = 1, buffers: Int = 2, work: Double = 3, frames: Int = 900,
        moveAt: Int? = nil, moveTo: Double? = nil, hide: String? = nil
    ) throws(ScenarioError) -> PlotScenario {
        try PlotScenario(
            rateHertz: rate, jitterMilliseconds: jitter, buffers: buffers, workMilliseconds: work, frames: frames,
            seed: 1, moveAtFrame: moveAt, moveToHertz: moveTo, hide: hide)
    }

    /// Whether making a scenario with `make` throws an error whose text contains `option`.
    static func refuses(_ option: String, _ make: () throws(ScenarioError) -> PlotScenario) -> Bool {
        do {
            _ = try make()
            return false
        } catch {
            return error.description.contains(option)
        }
    }

    @Test("the defaults make the documented scenario")
    func defaults() throws {
        let scenario = try Self.scenario()
        #expect(scenario.refreshRate == .hz60)
        #expect(scenario.jitter == .milliseconds(1))
        #expect(scenario.buffers == 2 && scenario.work == .milliseconds(3) && scenario.frames == 900)
        #expect(scenario.move == nil && scenario.hiddenFrames == nil)
        #expect(scenario.description == "60 Hz, 2 buffers, jitter 0–1 ms, work 3 ms, 900 frames, seed 1")
    }

    @Test("NaN, infinite, negative and out-of-range numbers are refused, naming the option")
    func badNumbers() {
        #expect(Self.refuses("--rate") { () throws(ScenarioError) in try Self.scenario(rate: .nan) })
        #expect(Self.refuses("--rate") { () throws(ScenarioError) in try Self.scenario(rate: .infinity) })
        #expect(Self.refuses("--rate") { () throws(ScenarioError) in try Self.scenario(rate: -60) })
        #expect(Self.refuses("--rate") { () throws(ScenarioError) in try Self.scenario(rate: 9.9) })
        #expect(Self.refuses("--jitter") { () throws(ScenarioError) in try Self.scenario(jitter: -0.1) })
        #expect(Self.refuses("--jitter") { () throws(ScenarioError) in try Self.scenario(jitter: .nan) })
        #expect(Self.refuses("--jitter") { () throws(ScenarioError) in try Self.scenario(jitter: 5.001) })
        #expect(Self.refuses("--buffers") { () throws(ScenarioError) in try Self.scenario(buffers: 1) })
        #expect(Self.refuses("--buffers") { () throws(ScenarioError) in try Self.scenario(buffers: 9) })
        #expect(Self.refuses("--work") { () throws(ScenarioError) in try Self.scenario(work: -1) })
        #expect(Self.refuses("--work") { () throws(ScenarioError) in try Self.scenario(work: 100.5) })
        #expect(Self.refuses("--frames") { () throws(ScenarioError) in try Self.scenario(frames: 9) })
        #expect(Self.refuses("--frames") { () throws(ScenarioError) in try Self.scenario(frames: 20_001) })
        // A delay of a period or more could not be told from the next vsync's.
        #expect(Self.refuses("jitter") { () throws(ScenarioError) in try Self.scenario(rate: 250, jitter: 4) })
        #expect(
            Self.refuses("jitter") { () throws(ScenarioError) in try Self.scenario(jitter: 3, moveAt: 5, moveTo: 400) })
    }

    @Test("a move needs both its frame and its rate, within the run")
    func moves() throws {
        #expect(Self.refuses("--move-to") { () throws(ScenarioError) in try Self.scenario(moveAt: 300) })
        #expect(Self.refuses("--move-at") { () throws(ScenarioError) in try Self.scenario(moveTo: 144) })
        #expect(Self.refuses("--move-at") { () throws(ScenarioError) in try Self.scenario(moveAt: 900, moveTo: 144) })
        #expect(Self.refuses("--move-to") { () throws(ScenarioError) in try Self.scenario(moveAt: 300, moveTo: .nan) })
        let moved = try Self.scenario(moveAt: 300, moveTo: 144)
        #expect(moved.move == DisplayMove(frame: 300, refreshRate: FrameRate(numerator: 144)))
    }

    @Test("--hide takes FROM-TO within the run and nothing else")
    func hide() throws {
        for text in [
            "", "200", "200-", "-300", "300-200", "200-200", "0-10", "200-901", "a-b", "1-2-3", "+2-5", "2 -5",
        ] {
            #expect(
                Self.refuses("--hide") { () throws(ScenarioError) in try Self.scenario(hide: text) }, "\"\(text)\"")
        }
        #expect(try Self.scenario(hide: "200-300").hiddenFrames == 200...300)
    }

    @Test("59.94 Hz and other NTSC rates are taken exactly; other rates to a thousandth of a hertz")
    func rates() throws {
        let ntsc = try PlotScenario.frameRate(hertz: 59.94, option: "--rate")
        #expect(ntsc.numerator == 60_000 && ntsc.denominator == 1_001)
        let doubled = try PlotScenario.frameRate(hertz: 119.88, option: "--rate")
        #expect(doubled.numerator == 120_000 && doubled.denominator == 1_001)
        #expect(try PlotScenario.frameRate(hertz: 144, option: "--rate") == FrameRate(numerator: 144))
        #expect(try PlotScenario.frameRate(hertz: 74.5, option: "--rate") == FrameRate(numerator: 149, denominator: 2))
    }

    @Test("the scenario's own initializer checks its values too")
    func directInitializer() {
        #expect(throws: ScenarioError.self) { try PlotScenario(buffers: 9) }
        #expect(throws: ScenarioError.self) { try PlotScenario(jitter: .milliseconds(-1)) }
        #expect(throws: ScenarioError.self) { try PlotScenario(hiddenFrames: 300...300) }
        #expect(throws: ScenarioError.self) { try PlotScenario(move: DisplayMove(frame: 1, refreshRate: .hz60)) }
        #expect(throws: ScenarioError.self) { try PlotScenario(refreshRate: FrameRate(numerator: 1_000)) }
    }
}
