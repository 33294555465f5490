import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// Review 17 (of 970a397: a fit further than the lock's tolerance, 50 µs, from the published line
/// drops the lock, and the line follows by an eighth), by an independent reviewer, with scenarios
/// of its own judged against the display lab's truth (`R17`). Every run is 3,000 frames or more,
/// judged from frame 600 (a full window of returns) to its end: how often the lock flaps, whether
/// consecutive locked frames keep `deltaTime` within 2 µs of the true vsyncs' distance, whether
/// locked timestamps are within 50 µs of the true vsync (beyond the delay's floor, which no pacer
/// without feedback can see), and whether booked drops equal the display's missed refreshes.
@MainActor
struct Review17Tests {
    /// One display of the long-run matrix.
    struct R17Case: Sendable, CustomStringConvertible {
        var hertz: Int64
        var buffers: Int
        var jitter: String
        var description: String { "\(hertz) Hz, \(buffers) buffers, \(jitter)" }
        var presentJitter: PresentJitter {
            switch jitter {
            case "uniform": .uniform(upTo: .microseconds(300))
            case "exponential": .exponential(mean: .microseconds(150))
            default: .lognormal(median: .microseconds(250), percentile99: .microseconds(800))
            }
        }
    }

    nonisolated static let matrix: [R17Case] = [Int64(60), 144, 240].flatMap { hertz in
        [2, 3].flatMap { buffers in
            ["uniform", "exponential", "lognormal"].map { R17Case(hertz: hertz, buffers: buffers, jitter: $0) }
        }
    }

    /// Judges figures: the lock holds once taken (at most `flaps` transitions), locked `deltaTime`s
    /// within 2 µs, locked timestamps within 50 µs, booked drops the display's.
    static func expectSteady(_ figures: R17.R17Figures, flaps: Int = 2) {
        #expect(figures.locked > 0, "\(figures)")
        #expect(figures.transitions <= flaps, "\(figures)")
        #expect(figures.deltasOver2us == 0, "\(figures)")
        #expect(figures.lockedOver50us == 0, "\(figures)")
        #expect(figures.booked == figures.missed, "\(figures)")
    }

    /// Judges `figures` as ``expectSteady(_:flaps:)``, as a known issue where `known` names one
    /// (the figures measured at 970a397 and at its parent e32c8f6).
    static func expectSteady(_ figures: R17.R17Figures, flaps: Int = 2, known: String?) {
        if let known {
            withKnownIssue(Comment(rawValue: known)) { expectSteady(figures, flaps: flaps) }
        } else {
            expectSteady(figures, flaps: flaps)
        }
    }

    // MARK: Long steady runs

    /// 3,000 frames at 60, 144 and 240 Hz, 2 and 3 buffers, delays spread evenly up to 0.3 ms,
    /// exponential (mean 0.15 ms) and log-normal (median 0.25 ms, 99th percentile 0.8 ms), work
    /// 30 % of a period: from frame 600 the lock is taken and kept (at most two transitions),
    /// locked `deltaTime`s stay within 2 µs, locked timestamps within 50 µs of the vsync beyond
    /// the least delay, drops booked are the display's.
    @Test("long steady runs keep the lock", arguments: matrix)
    func longSteadyRun(_ matrixCase: R17Case) {
        var scenario = R17.R17Scenario(refresh: .fixed(FrameRate(numerator: matrixCase.hertz)))
        scenario.buffers = matrixCase.buffers
        scenario.jitter = matrixCase.presentJitter
        // (A seed of its own per rate: the grid works in vsync numbers, so one seed gave every
        // rate the same figures.)
        scenario.seed = UInt64(matrixCase.hertz)
        let run = R17.run(scenario)
        let figures = R17.figures(run, 600, 2_999)
        print("R17 steady \(matrixCase): \(figures)")
        Self.expectSteady(figures, known: Self.knownSteady[matrixCase.description])
    }

    // MARK: Delays that change mid-run

    /// A delay distribution that changes mid-run.
    struct R17Change: Sendable, CustomStringConvertible {
        var name: String
        var hertz: Int64
        var buffers: Int
        var description: String { "\(name), \(hertz) Hz, \(buffers) buffers" }
    }

    nonisolated static let changes: [R17Change] = ["uniform", "exponential", "floor step", "wandering floor"].flatMap {
        name in
        [Int64(60), 144].flatMap { hertz in [2, 3].map { R17Change(name: name, hertz: hertz, buffers: $0) } }
    }

    /// The delay of a change scenario at loop frame `index` (ns), and its floor.
    static func changeDelay(_ change: R17Change) -> (R17.R17Delay, @MainActor (Int64) -> Int64) {
        let wide = change.hertz >= 144 ? 1_000_000.0 : 1_500_000.0
        switch change.name {
        case "uniform":
            // Narrow (up to 50 µs), wide (up to 1–1.5 ms) from frame 1,200, narrow from 2,400.
            return (
                { index, random in
                    let scale = index >= 1_200 && index < 2_400 ? wide : 50_000
                    return Int64(random.unit() * scale)
                }, { _ in 0 }
            )
        case "exponential":
            // Mean 20 µs, 400 µs from frame 1,200, 20 µs from 2,400.
            return (
                { index, random in
                    let mean = index >= 1_200 && index < 2_400 ? 400_000.0 : 20_000
                    return Int64(min(-log(1 - random.unit()) * mean, 20 * mean))
                }, { _ in 0 }
            )
        case "floor step":
            // Up to 100 µs, then 200–300 µs from frame 1,200 (the compositor's latency steps up).
            return (
                { index, random in (index >= 1_200 ? 200_000 : 0) + Int64(random.unit() * 100_000) },
                { index in index >= 1_200 ? 200_000 : 0 }
            )
        default:
            // A floor that wanders 0–80 µs over 600 frames, plus up to 60 µs.
            let floor: @MainActor (Int64) -> Int64 = { index in
                Int64(40_000 * (1 - cos(2 * Double.pi * Double(index) / 600)))
            }
            return ({ index, random in floor(index) + Int64(random.unit() * 60_000) }, floor)
        }
    }

    /// Delays whose distribution changes mid-run, 3,600 frames at 60 and 144 Hz, 2 and 3 buffers:
    /// narrow → wide → narrow (spread evenly: up to 50 µs, 1–1.5 ms, 50 µs; exponential: mean
    /// 20 µs, 0.4 ms, 20 µs), a floor that steps from 0 to 200 µs at frame 1,200, and a floor that
    /// wanders 0–80 µs over 600 frames. Judged from frame 600: the lock flaps at most 4 times,
    /// locked `deltaTime`s within 2 µs, locked timestamps within 50 µs of the vsync beyond the
    /// floor in force, drops booked are the display's.
    @Test("delays whose distribution changes mid-run", arguments: changes)
    func changingDelays(_ change: R17Change) {
        let (delay, floor) = Self.changeDelay(change)
        var scenario = R17.R17Scenario(refresh: .fixed(FrameRate(numerator: change.hertz)))
        scenario.buffers = change.buffers
        scenario.delay = delay
        scenario.seed = UInt64(change.hertz)
        scenario.frames = 3_600
        let run = R17.run(scenario)
        let figures = R17.figures(run, 600, 3_599, floor: floor)
        print("R17 change \(change): \(figures)")
        Self.expectSteady(figures, flaps: 4, known: Self.knownChanges[change.description])
    }

    // MARK: A display whose true rate is not the report

    /// A display off its report.
    struct R17Drift: Sendable, CustomStringConvertible {
        var name: String
        var hertz: Double
        var buffers: Int
        var description: String { "\(name), \(hertz) Hz, \(buffers) buffers" }
    }

    nonisolated static let drifts: [R17Drift] = ["ramp 100 ppm", "ramp 300 ppm", "steady 80 ppm", "steady 300 ppm"]
        .flatMap {
            name in [60.0, 144].flatMap { hertz in [2, 3].map { R17Drift(name: name, hertz: hertz, buffers: $0) } }
        }

    /// A display whose true period drifts slowly behind the source's back (its rate ramps down by
    /// 100 or 300 ppm over 3,000 frames, changed every 10 frames at a refresh, phase continuous),
    /// or sits a steady 80 or 300 ppm under a fractional report (1/1,000 Hz) the source trusts to
    /// 100 ppm; 60 and 144 Hz, 2 and 3 buffers, delays up to 0.3 ms. Judged from frame 600 as the
    /// matrix: at most two lock transitions, locked `deltaTime`s within 2 µs of the true vsyncs'
    /// distance, locked timestamps within 50 µs, drops booked are the display's.
    @Test("a display off its report, or drifting", arguments: drifts)
    func drifting(_ drift: R17Drift) {
        let ppm: Double = drift.name.contains("300") ? 300 : drift.name.contains("80") ? 80 : 100
        let ramp = drift.name.hasPrefix("ramp")
        let report = R17.microhertz(drift.hertz + 0.001)
        let start = ramp ? report : R17.microhertz((drift.hertz + 0.001) * (1 - ppm * 1e-6))
        var scenario = R17.R17Scenario(refresh: .fixed(start))
        scenario.report = report
        scenario.buffers = drift.buffers
        scenario.seed = UInt64(drift.hertz)
        if ramp {
            scenario.events = { index, run in
                guard index > 0, index % 10 == 0, index <= 3_000 else { return }
                let hertz = (drift.hertz + 0.001) * (1 - ppm * 1e-6 * Double(index) / 3_000)
                run.lab.changeRefresh(to: .fixed(R17.microhertz(hertz)))
            }
        }
        let run = R17.run(scenario)
        let figures = R17.figures(run, 600, 2_999)
        print("R17 drift \(drift): \(figures)")
        Self.expectSteady(figures, known: Self.knownDrifts[drift.description])
    }

    // MARK: Known issues (figures from frame 600; at 970a397, and at its parent e32c8f6)

    nonisolated static let lognormalFlaps =
        "log-normal delays (median 0.25 ms, p99 0.8 ms): the lock flaps on and off, and locked timestamps stray "
        + "past 50 µs beyond the least delay; the same at the parent, so not this commit's: "
    nonisolated static let knownSteady: [String: String] = [
        "60 Hz, 2 buffers, lognormal": lognormalFlaps
            + "14 transitions, 2,364/2,400 locked, 18 locked timestamps > 50 µs (worst 50.2 µs); parent identical",
        "60 Hz, 3 buffers, lognormal": lognormalFlaps
            + "14 transitions, 2,364/2,400 locked, 18 locked timestamps > 50 µs (worst 50.2 µs); parent identical",
        "240 Hz, 2 buffers, lognormal": lognormalFlaps
            + "48 transitions, 1,830/2,400 locked, 77 locked timestamps > 50 µs (worst 53.9 µs); "
            + "parent 46 transitions, 1,831 locked, 77 (53.9 µs)",
        "240 Hz, 3 buffers, lognormal": lognormalFlaps
            + "48 transitions, 1,830/2,400 locked, 76 locked timestamps > 50 µs (worst 53.9 µs); "
            + "parent 46 transitions, 1,831 locked, 76 (53.9 µs)",
    ]

    nonisolated static let wanderingFlaps =
        "a delay floor wandering 0–80 µs over 600 frames: the lock flaps (the fit moves past the line's 50 µs "
        + "tolerance, or a quarter's low return sits past 50 µs; since the lock's hysteresis a lock is taken again "
        + "only within 20 µs, and the transitions fell to 94/92/76/78 from 106/104/86/88 in these four cases), and "
        + "locked timestamps stray past 50 µs beyond the floor in force as at the parent. At 970a397: "
    nonisolated static let wideningFlaps =
        "delays narrow → wide (up to 1–1.5 ms) → narrow: the lock drops and is retaken more than 4 times, or "
        + "locked timestamps pass 50 µs (since the grid states 40 mean delays per return from 160 returns: 4 "
        + "transitions and 2 past 50 µs (80.3 µs) at 60 Hz, 24/22 transitions and 28 past 50 µs (76.5 µs) at "
        + "144 Hz, with the lock's hysteresis); the rule of 970a397 halves or removes the locked timestamps "
        + "> 50 µs. At 970a397: "
    nonisolated static let knownChanges: [String: String] = [
        "uniform, 60 Hz, 2 buffers": wideningFlaps
            + "10 transitions, 0 locked timestamps > 50 µs (worst 47.1 µs); parent 10, 24 (61.5 µs)",
        "uniform, 60 Hz, 3 buffers": wideningFlaps
            + "10 transitions, 0 locked timestamps > 50 µs (worst 47.2 µs); parent 10, 24 (61.6 µs)",
        "uniform, 144 Hz, 2 buffers": wideningFlaps
            + "22 transitions, 14 locked timestamps > 50 µs (worst 76.1 µs); parent 20, 61 (76.1 µs)",
        "uniform, 144 Hz, 3 buffers": wideningFlaps
            + "22 transitions, 14 locked timestamps > 50 µs (worst 76.6 µs); parent 20, 62 (76.6 µs)",
        "wandering floor, 60 Hz, 2 buffers": wanderingFlaps
            + "108 transitions, 85 locked timestamps > 50 µs (worst 56.7 µs); parent 88, 85 (56.7 µs)",
        "wandering floor, 60 Hz, 3 buffers": wanderingFlaps
            + "106 transitions, 81 locked timestamps > 50 µs (worst 56.1 µs); parent 86, 81 (56.1 µs)",
        "wandering floor, 144 Hz, 2 buffers": wanderingFlaps
            + "118 transitions, 165 locked timestamps > 50 µs (worst 58.8 µs); parent 94, 165 (58.8 µs)",
        "wandering floor, 144 Hz, 3 buffers": wanderingFlaps
            + "126 transitions, 156 locked timestamps > 50 µs (worst 57.8 µs); parent 102, 156 (57.8 µs)",
    ]

    nonisolated static let rampLag =
        "a 60 Hz display whose rate ramps down 300 ppm over 3,000 frames: the lock never drops (0 transitions) "
        + "while the line, a straight fit to a curving phase, is up to 77 µs off the true vsync; the new rule "
        + "compares the fit to the published line, not to the truth, so it cannot see it; parent identical: "
    nonisolated static let knownDrifts: [String: String] = [
        "ramp 300 ppm, 60.0 Hz, 2 buffers": rampLag + "2,367/2,400 locked timestamps > 50 µs (worst 77.3 µs)",
        "ramp 300 ppm, 60.0 Hz, 3 buffers": rampLag + "2,368/2,400 locked timestamps > 50 µs (worst 77.3 µs)",
    ]
}
