import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// A variable-refresh display shows a frame as it comes when it was waiting for one: its refreshes
/// then take the frames' own phase, and it drops a frame only when its slowest refresh runs out.
@MainActor
@Suite("Variable refresh: frames shown as they come")
struct VariableRefreshShownAsPresentedTests {
    /// How close a target must be to when its frame is shown: 100 µs, as the sweep judges it.
    static let tolerance: Int64 = 100_000

    /// The frames from `first` on that the source puts on the vsync, presented before their target,
    /// whose target is not when the display showed them.
    static func targetsNotShown(in run: LabRun, from first: Int64) -> [Int64] {
        run.frames.filter { frame in
            guard frame.index >= first, frame.followsVsync, let shown = run.labFrame(presentedBy: frame.index),
                let shownAt = shown.shownAt, shown.presentedAt < frame.target
            else { return false }
            return abs((shownAt - frame.target).wholeNanoseconds) > tolerance
        }.map(\.index)
    }

    /// Scenarios where the display waits for frames that never fill its swap chain, and the frame
    /// each is judged from.
    nonisolated static let waitingDisplays: [(scenario: LabScenario, judgedFrom: Int64)] = [
        // Feedback reports each frame shown at its present's call: the frames' own cadence, not a
        // vsync grid (the grid was fitted to it and re-locked, chasing the frames' work, 64 times).
        (
            LabScenario(
                name: "capped at 66 Hz on 44–131 Hz, feedback",
                refresh: .variable(minimum: FrameRate(numerator: 44), maximum: FrameRate(numerator: 131)),
                jitter: .lognormal(median: .microseconds(200), percentile99: .microseconds(300)), feedback: true,
                nominal: FrameRate(numerator: 66), work: .microseconds(6_800), frames: 1_000, mode: .vsync,
                neverFasterThanNominal: true),
            120
        ),
        // A hidden window: the display refreshed on its own meanwhile and shows the first frame
        // after it as it comes; the grid's old phase was carried across the window.
        (
            LabScenario(
                name: "3 buffers on 46–144 Hz, hidden 270...321, light frames",
                refresh: .variable(minimum: FrameRate(numerator: 46), maximum: .hz144), buffers: 3,
                work: .microseconds(1_200), frames: 810, hidden: 270...321),
            441
        ),
        // Frames at 61 % of a period, 3 buffers: after the show the frames waited for the grid's
        // next vsync, the chain never filled, and each frame was shown as its present came, its
        // work after the target (2.8 ms). The display waited for the first frame after the show.
        (
            LabScenario(
                name: "3 buffers on 47–139 Hz, hidden 217...251, frames 61 % of a period, feedback",
                refresh: .variable(minimum: FrameRate(numerator: 47), maximum: FrameRate(numerator: 139)),
                buffers: 3, jitter: .uniform(upTo: .microseconds(100)), feedback: true,
                work: .microseconds(4_390), frames: 605, hidden: 217...251),
            256
        ),
        // (Without feedback the source claimed no target there before the fix either: a guard.)
        (
            LabScenario(
                name: "3 buffers on 47–139 Hz, hidden 217...251, frames 61 % of a period, no feedback",
                refresh: .variable(minimum: FrameRate(numerator: 47), maximum: FrameRate(numerator: 139)),
                buffers: 3, jitter: .uniform(upTo: .microseconds(100)), work: .microseconds(4_390), frames: 605,
                hidden: 217...251),
            256
        ),
        (
            LabScenario(
                name: "2 buffers on 45–137 Hz, hidden 433...481, frames 34 % of a period, feedback",
                refresh: .variable(minimum: FrameRate(numerator: 45), maximum: FrameRate(numerator: 137)),
                feedback: true, work: .microseconds(2_480), frames: 652, hidden: 433...481),
            486
        ),
    ]

    @Test("a target the source claims is when its frame is shown", arguments: waitingDisplays)
    func targetsAreWhenShown(scenario: LabScenario, judgedFrom first: Int64) throws {
        let run = try LabRun(scenario)
        #expect(Self.targetsNotShown(in: run, from: first) == [], "\(scenario.name)")
    }

    @Test(
        "a report is the frame's own time when it is shown as its present was called",
        arguments: [
            (shownAt: 10_000_000 as Int64, calledAt: 10_000_000 as Int64, asPresented: true),
            (10_100_000, 10_000_000, true),
            (10_100_001, 10_000_000, false),
            // Waited for the display's fastest refresh after the last: a refresh's time.
            (16_000_000, 10_000_000, false),
        ])
    func shownAsPresented(shownAt: Int64, calledAt: Int64, asPresented: Bool) {
        #expect(_VariableRefreshModel.showedAsPresented(shownAt: shownAt, calledAt: calledAt) == asPresented)
    }

    /// Capped at 100 Hz on 48–136 Hz, with a lab seed whose phase probe moves a frame by half
    /// a period: an interval of 1.5 periods, booked as a drop, that the display, waiting for the
    /// frame, does not drop.
    @Test(
        "frames paced by deadline drop only when the display's slowest refresh runs out, not where the phase probe moves one",
        arguments: [11] as [UInt64])
    func deadlineDropsAreTheDisplays(seed: UInt64) throws {
        let scenario = LabScenario(
            name: "capped at 100 Hz on 48–136 Hz",
            refresh: .variable(minimum: FrameRate(numerator: 48), maximum: FrameRate(numerator: 136)),
            jitter: .lognormal(median: .microseconds(400), percentile99: .microseconds(1_300)),
            seed: seed, nominal: FrameRate(numerator: 100), work: .microseconds(7_200), frames: 1_000, mode: .deadline,
            neverFasterThanNominal: true)
        let run = try LabRun(scenario)
        // From the end of the start allowance to a little before the run's end (a drop is booked
        // up to a swap chain's frames after it).
        let (first, last): (Int64, Int64) = (120, Int64(scenario.frames) - 10)
        let dropped = Dictionary(uniqueKeysWithValues: run.frames.map { ($0.index, $0.droppedSoFar) })
        let booked = try #require(dropped[last]) - (try #require(dropped[first]))
        let missed = run.lab.frames[Int(first)..<Int(last)].reduce(0) { $0 + $1.missedRefreshes }
        #expect(booked == missed)
    }

    /// Frames that outrun a 48–144 Hz display (3 ms of work, 2 buffers, returns late by exponential
    /// delays of mean 0.5 ms), with three late frames (11 ms) that restart its grid's phase.
    @Test(
        "after a late frame, the grid keeps its period: frames are timed by the lowest return since, not each at its own"
    )
    func framesAfterALateOneKeepThePeriod() throws {
        let scenario = LabScenario(
            name: "2 buffers on 48–144 Hz, late frames at 300, 600, 900",
            refresh: .variable(minimum: FrameRate(numerator: 48), maximum: .hz144),
            jitter: .exponential(mean: .microseconds(500)), seed: 5, work: .milliseconds(3), frames: 1_200,
            overruns: [300: .milliseconds(8), 600: .milliseconds(8), 900: .milliseconds(8)])
        let run = try LabRun(scenario)
        // Loop frame i begins when the present of lab frame i − 1 returns, late by a delay after
        // the refresh that showed that frame. While the grid refits after a late frame (its period
        // kept) each frame is timed by the line below every return since: late by no more than the
        // least delay so far, not by its own return's.
        var worse: [(Int64, Double, Double)] = []
        for late in scenario.overruns.keys.sorted() {
            var least = Int64.max
            for frame in run.frames where frame.index >= late + 2 && frame.index < late + 12 {
                let before = try #require(run.labFrame(presentedBy: frame.index - 1))
                let shown = try #require(before.shownAt)
                least = min(least, (before.returnedAt - shown).wholeNanoseconds)
                let error = (frame.timestamp - shown).wholeNanoseconds
                if abs(error) > least + 1_000 { worse.append((frame.index, Double(error) / 1e6, Double(least) / 1e6)) }
            }
        }
        #expect(
            worse.isEmpty,
            "frames later than the least delay since the late frame (index, ms, least ms): \(worse.prefix(12))")
        // Never more frames than the display shows: any 60 intervals span its fastest 60 periods
        // (less a quarter period, the sweep's allowance).
        let fastest = FrameRate.hz144.periodNanoseconds
        let stamps = run.frames.filter { $0.index >= 130 }.map(\.timestamp.nanoseconds)
        let shortest = zip(stamps, stamps.dropFirst(60)).map { $1 - $0 }.min() ?? .max
        #expect(shortest >= 60 * fastest - fastest / 4, "60 intervals spanned \(shortest) ns")
    }
}
