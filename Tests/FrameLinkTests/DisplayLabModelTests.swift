import Testing

@testable import FrameLink

/// The display lab's models of what real displays do, each off unless turned on: the latch
/// deadline, GPU time after present, the blank gap of a mode change, a hidden window on Wayland,
/// and present delays with a floor or measured on a real machine. Each is checked against ground
/// truth computed by hand on a small scenario.
@MainActor
@Suite("Display lab: latch deadline, GPU time, modeset gap, Wayland hidden window, floored delays")
struct DisplayLabModelTests {
    /// A time on the lab's clock, in nanoseconds.
    static func at(_ nanoseconds: Int64) -> FrameInstant { FrameInstant(nanoseconds: nanoseconds) }

    /// The refreshes of a 60 Hz display whose phase is zero: 0, 16_666_666, 33_333_333, 50 ms, ….
    nonisolated static let refresh60 = [0, 16_666_666, 33_333_333, 50_000_000, 66_666_666] as [Int64]

    // MARK: The latch deadline

    /// A second frame presented 100 µs before the third refresh, with a latch deadline.
    struct LatchCase: Sendable, CustomTestStringConvertible {
        let latch: Duration
        let shownAt: Int64
        let refresh: Int64
        let missed: Int
        var testDescription: String { "latch deadline \(latch)" }
    }

    nonisolated static let latchCases = [
        LatchCase(latch: .zero, shownAt: refresh60[2], refresh: 3, missed: 0),
        LatchCase(latch: .nanoseconds(99_999), shownAt: refresh60[2], refresh: 3, missed: 0),
        // Exactly the deadline before the refresh is too late: shown one refresh later.
        LatchCase(latch: .microseconds(100), shownAt: refresh60[3], refresh: 4, missed: 1),
        LatchCase(latch: .microseconds(200), shownAt: refresh60[3], refresh: 4, missed: 1),
    ]

    @Test("a frame presented within the latch deadline of a refresh is shown at the next", arguments: latchCases)
    func latchDeadline(_ row: LatchCase) {
        let lab = DisplayLab(refresh: .fixed(.hz60))
        lab.latchDeadline = row.latch
        lab.work(for: .milliseconds(10))
        lab.present()
        #expect(lab.frames[0].shownAt == Self.at(Self.refresh60[1]), "10 ms is well before the 16.7 ms refresh")
        lab.work(for: .nanoseconds(Self.refresh60[2] - 100_000 - Self.refresh60[1]))
        lab.present()
        let frame = lab.frames[1]
        #expect(frame.presentedAt == Self.at(33_233_333))
        #expect(frame.readyAt == frame.presentedAt)
        #expect(frame.shownAt == Self.at(row.shownAt))
        #expect(frame.refresh == row.refresh)
        #expect(frame.missedRefreshes == row.missed, "the refresh that repeated the old frame counts")
        #expect(lab.missedRefreshes == row.missed)
        #expect(frame.returnedAt == Self.at(row.shownAt), "double buffering: present blocks until it is shown")
    }

    @Test("a blocked present waits while its chain is full, for the refresh that latches the frame ahead")
    func latchWithBlockingPresent() {
        let lab = DisplayLab(refresh: .fixed(.hz60), buffers: 3)
        lab.latchDeadline = .microseconds(200)
        lab.work(for: .nanoseconds(16_566_667))  // 100 µs before the second refresh
        lab.present()
        #expect(lab.frames[0].returnedAt == Self.at(16_616_667), "a frame may wait: returns after its cost")
        lab.present()  // the chain is full, and the frame ahead missed the latch at 16.7 ms
        #expect(lab.frames[0].shownAt == Self.at(Self.refresh60[2]))
        #expect(lab.frames[0].refresh == 3)
        #expect(lab.frames[0].missedRefreshes == 0, "the first frame shown")
        #expect(lab.frames[1].returnedAt == Self.at(Self.refresh60[2]))
        #expect(lab.frames[1].shownAt == nil, "its own frame waits in the chain")
        lab.work(for: .milliseconds(20))
        #expect(lab.frames[1].shownAt == Self.at(Self.refresh60[3]))
        #expect(lab.frames[1].missedRefreshes == 0)
        #expect(lab.refreshTimes.prefix(4).map(\.nanoseconds) == Array(Self.refresh60.prefix(4)))
    }

    // MARK: GPU time

    /// One frame presented at 15 ms on a 60 Hz display, with a GPU time and a latch deadline.
    struct GPUCase: Sendable, CustomTestStringConvertible {
        let gpuTime: Duration
        let latch: Duration
        let readyAt: Int64
        let shownAt: Int64
        var testDescription: String { "GPU time \(gpuTime), latch deadline \(latch)" }
    }

    nonisolated static let gpuCases = [
        GPUCase(gpuTime: .zero, latch: .zero, readyAt: 15_000_000, shownAt: refresh60[1]),
        GPUCase(gpuTime: .milliseconds(1), latch: .zero, readyAt: 16_000_000, shownAt: refresh60[1]),
        GPUCase(gpuTime: .milliseconds(2), latch: .zero, readyAt: 17_000_000, shownAt: refresh60[2]),
        // Ready 16.4 ms, latched by 16.467 ms: in time. Ready 16.5 ms: too late for the latch.
        GPUCase(gpuTime: .microseconds(1_400), latch: .microseconds(200), readyAt: 16_400_000, shownAt: refresh60[1]),
        GPUCase(gpuTime: .microseconds(1_500), latch: .microseconds(200), readyAt: 16_500_000, shownAt: refresh60[2]),
    ]

    @Test("GPU time after present: the frame is ready later, and no refresh shows it before", arguments: gpuCases)
    func gpuTime(_ row: GPUCase) throws {
        let lab = DisplayLab(refresh: .fixed(.hz60))
        lab.gpuTime = row.gpuTime
        lab.latchDeadline = row.latch
        lab.work(for: .milliseconds(15))
        lab.present()
        let frame = lab.frames[0]
        #expect(frame.presentedAt == Self.at(15_000_000))
        #expect(frame.readyAt == Self.at(row.readyAt))
        #expect(frame.shownAt == Self.at(row.shownAt))
        #expect(try #require(frame.shownAt) > frame.readyAt)
        #expect(frame.returnedAt == Self.at(row.shownAt))
    }

    @Test("a variable display refreshes when the frame is ready, and at its minimum rate while it is not")
    func gpuTimeOnVariableDisplay() {
        let lab = DisplayLab(refresh: .variable(minimum: .hz48, maximum: .hz120))
        lab.gpuTime = .milliseconds(3)
        lab.work(for: .milliseconds(10))
        lab.present()
        #expect(lab.frames[0].readyAt == Self.at(13_000_000))
        #expect(lab.frames[0].shownAt == Self.at(13_000_000), "refreshed for the frame when it was ready")
        #expect(lab.frames[0].returnedAt == Self.at(13_000_000))

        lab.gpuTime = .milliseconds(25)  // per frame: only the next one takes this long
        lab.work(for: .milliseconds(2))
        lab.present()
        // Ready at 40 ms: the display repeats the old frame one 48 Hz period (20.833 ms) after
        // its last refresh, then refreshes for the frame, one 120 Hz period (8.333 ms) later still.
        let frame = lab.frames[1]
        #expect(frame.readyAt == Self.at(40_000_000))
        #expect(lab.refreshTimes.map(\.nanoseconds) == [13_000_000, 33_833_333, 42_166_666])
        #expect(frame.shownAt == Self.at(42_166_666))
        #expect(frame.refresh == 3)
        #expect(frame.missedRefreshes == 1, "the minimum rate's refresh repeated the old frame")
    }

    @Test("GPU time on a display with no vsync: the frame counts as shown when it is ready")
    func gpuTimeWithoutVsync() {
        let lab = DisplayLab(refresh: .none)
        lab.gpuTime = .milliseconds(4)
        lab.work(for: .milliseconds(1))
        lab.present()
        #expect(lab.frames[0].readyAt == Self.at(5_000_000))
        #expect(lab.frames[0].shownAt == Self.at(5_000_000))
        #expect(lab.frames[0].returnedAt == Self.at(1_050_000), "present returns after its cost, as ever")
    }

    // MARK: The modeset gap

    /// A 60 Hz display changes mode at 16.7 ms (effective at its next refresh, 33.3 ms); a frame
    /// is presented at 36.7 ms and another 3 ms after that one returns.
    struct GapCase: Sendable, CustomTestStringConvertible {
        let newRefresh: DisplayLab.Refresh
        let gap: Duration
        let shown: [Int64]
        let refreshes: [Int64]
        let missed: [Int]
        let refreshTimes: [Int64]
        var testDescription: String { "to \(newRefresh), gap \(gap)" }
    }

    nonisolated static let vrr = DisplayLab.Refresh.variable(minimum: .hz48, maximum: .hz120)

    nonisolated static let gapCases = [
        // No gap: 33.3 ms is the last 60 Hz refresh (it repeats frame 1) and the new grid's phase.
        GapCase(
            newRefresh: .fixed(.hz120), gap: .zero, shown: [41_666_666, 49_999_999], refreshes: [4, 5],
            missed: [1, 0], refreshTimes: [0, 16_666_666, 33_333_333, 41_666_666, 49_999_999]),
        // A 50 ms gap: no refresh from 33.3 ms to 83.3 ms, which starts the new grid.
        GapCase(
            newRefresh: .fixed(.hz120), gap: .milliseconds(50), shown: [83_333_333, 91_666_666], refreshes: [3, 4],
            missed: [0, 0], refreshTimes: [0, 16_666_666, 83_333_333, 91_666_666]),
        GapCase(
            newRefresh: vrr, gap: .zero, shown: [41_666_666, 49_999_999], refreshes: [4, 5], missed: [1, 0],
            refreshTimes: [0, 16_666_666, 33_333_333, 41_666_666, 49_999_999]),
        GapCase(
            newRefresh: vrr, gap: .milliseconds(50), shown: [83_333_333, 91_666_666], refreshes: [3, 4],
            missed: [0, 0], refreshTimes: [0, 16_666_666, 83_333_333, 91_666_666]),
    ]

    @Test("a mode change blanks the display for its gap; frames wait, and the gap repeats nothing", arguments: gapCases)
    func modesetGap(_ row: GapCase) {
        let lab = DisplayLab(refresh: .fixed(.hz60))
        lab.work(for: .milliseconds(5))
        lab.present()
        #expect(lab.frames[0].shownAt == Self.at(16_666_666))
        lab.changeRefresh(to: row.newRefresh, blankingFor: row.gap)
        lab.work(for: .milliseconds(20))
        lab.present()  // double buffering: blocks until the frame is shown
        lab.work(for: .milliseconds(3))
        lab.present()
        let frames = lab.frames.dropFirst()
        #expect(frames.map { $0.shownAt?.nanoseconds } == row.shown)
        #expect(frames.map(\.refresh) == row.refreshes)
        #expect(frames.map(\.missedRefreshes) == row.missed)
        #expect(frames.map(\.returnedAt.nanoseconds) == row.shown)
        #expect(lab.missedRefreshes == row.missed.reduce(0, +))
        #expect(lab.refreshTimes.map(\.nanoseconds) == row.refreshTimes)
        let gapEnd = 33_333_333 + row.gap.wholeNanoseconds
        #expect(!lab.refreshTimes.contains { $0.nanoseconds > 33_333_333 && $0.nanoseconds < gapEnd })
    }

    @Test("the first frame after a gap has no missed refreshes, even when it comes after the gap's first refresh")
    func firstFrameAfterGap() {
        let lab = DisplayLab(refresh: .fixed(.hz60))
        lab.work(for: .milliseconds(5))
        lab.present()
        lab.changeRefresh(to: .fixed(.hz120), blankingFor: .milliseconds(50))
        lab.work(for: .nanoseconds(85_000_000 - 16_666_666))  // past the gap: 83.3 ms had no new frame
        lab.present()
        #expect(lab.frames[1].shownAt == Self.at(91_666_666))
        #expect(lab.frames[1].refresh == 4)
        #expect(lab.frames[1].missedRefreshes == 0, "a blank display showed nothing, so repeated nothing")
        #expect(lab.missedRefreshes == 0)
        #expect(lab.refreshTimes.map(\.nanoseconds) == [0, 16_666_666, 83_333_333, 91_666_666])
    }

    @Test("from a display with no refreshes, the gap starts at once, and the frame waits through it")
    func gapFromEmulatedVsync() {
        let lab = DisplayLab(refresh: .emulated(.hz60))
        lab.work(for: .milliseconds(5))
        lab.changeRefresh(to: .fixed(.hz60), blankingFor: .milliseconds(10))
        lab.present()
        #expect(lab.frames[0].shownAt == Self.at(15_000_000), "the first refresh, at the end of the gap")
        #expect(lab.frames[0].returnedAt == Self.at(15_000_000))
        lab.work(for: .milliseconds(1))
        lab.present()
        #expect(lab.frames[1].shownAt == Self.at(31_666_666), "the new grid's phase is the gap's end")
        #expect(lab.refreshTimes.map(\.nanoseconds) == [15_000_000, 31_666_666])
    }

    // MARK: A hidden window

    /// A present while the window is hidden, in one style, on one display.
    struct HiddenCase: Sendable, CustomTestStringConvertible {
        let refresh: DisplayLab.Refresh
        let style: DisplayLab.HiddenPresent
        let returnedAt: Int64
        var testDescription: String { "\(refresh), \(style)" }
    }

    nonisolated static let hiddenCases = [
        HiddenCase(refresh: .fixed(.hz60), style: .returnsAtOnce, returnedAt: 50_000),
        HiddenCase(
            refresh: .fixed(.hz60), style: .waitsForFrameCallbacks(timeout: .milliseconds(100)), returnedAt: 100_000_000
        ),
        HiddenCase(refresh: vrr, style: .returnsAtOnce, returnedAt: 50_000),
        HiddenCase(refresh: vrr, style: .waitsForFrameCallbacks(timeout: .milliseconds(250)), returnedAt: 250_000_000),
    ]

    @Test("a hidden present: X11 returns at once, Wayland after its timeout; neither shows", arguments: hiddenCases)
    func hiddenPresent(_ row: HiddenCase) {
        let lab = DisplayLab(refresh: row.refresh)
        #expect(lab.hiddenPresent == .returnsAtOnce, "X11's unless set")
        lab.hiddenPresent = row.style
        lab.isHidden = true
        lab.present()
        #expect(lab.frames[0].returnedAt == Self.at(row.returnedAt))
        #expect(lab.now == Self.at(row.returnedAt))
        #expect(lab.frames[0].shownAt == nil)
        #expect(lab.frames[0].refresh == nil)
        lab.present()
        #expect(lab.frames[1].returnedAt == Self.at(2 * row.returnedAt), "every hidden present alike")
        #expect(lab.frames[1].shownAt == nil)
        #expect(lab.missedRefreshes == 0)
    }

    @Test("shown again after a Wayland hidden present, the next frame is shown with no missed refreshes")
    func waylandShownAgain() {
        let lab = DisplayLab(refresh: .fixed(.hz60))
        lab.work(for: .milliseconds(5))
        lab.present()
        lab.hiddenPresent = .waitsForFrameCallbacks(timeout: .milliseconds(100))
        lab.isHidden = true
        lab.present()  // from 16.7 ms to 116.7 ms, which is a refresh
        #expect(lab.frames[1].returnedAt == Self.at(116_666_666))
        lab.isHidden = false
        lab.present()
        #expect(lab.frames[2].shownAt == Self.at(133_333_333))
        #expect(lab.frames[2].missedRefreshes == 0)
        #expect(lab.missedRefreshes == 0)
    }

    // MARK: Present delays

    /// The delays of `count` blocking presents: each returns its delay after the refresh that
    /// showed its frame.
    static func delays(_ jitter: PresentJitter, count: Int, seed: UInt64 = 11) -> [Int64] {
        let lab = DisplayLab(refresh: .fixed(.hz60), jitter: jitter, seed: seed)
        for _ in 0..<count {
            lab.work(for: .milliseconds(2))
            lab.present()
        }
        return lab.frames.map { $0.returnedAt.nanoseconds - ($0.shownAt?.nanoseconds ?? .max) }
    }

    @Test("a log-normal delay has the median and the 99th percentile asked for, and a floor")
    func lognormal() {
        let jitter = PresentJitter.lognormal(median: .microseconds(250), percentile99: .microseconds(800))
        #expect(jitter.description == "log-normal, median 0.3 ms, 99th percentile 0.8 ms")
        let sorted = Self.delays(jitter, count: 20_000).sorted()
        let median = Double(sorted[sorted.count / 2])
        let percentile99 = Double(sorted[sorted.count * 99 / 100])
        #expect(abs(median / 250_000 - 1) < 0.05, "median \(median) ns")
        #expect(abs(percentile99 / 800_000 - 1) < 0.10, "99th percentile \(percentile99) ns")
        #expect(sorted[0] > 0, "never negative, and never instant: \(sorted[0]) ns")
        #expect(sorted[0] > 10_000, "a floor: no wake-up under 10 µs in 20,000")
        #expect(sorted.last! <= 16_000_000, "the tail is cut at 20 times the 99th percentile")
    }

    @Test("the mean of a delay, which keeps an emulated vsync's rate true, is the mean of its draws")
    func means() {
        let jitters: [PresentJitter] = [
            .lognormal(median: .microseconds(250), percentile99: .microseconds(800)),
            .lognormal(median: .microseconds(100), percentile99: .milliseconds(5)),
            .sampled([.microseconds(100), .microseconds(300), .microseconds(300), .milliseconds(2)]),
        ]
        for jitter in jitters {
            var random = _SplitMix64(seed: 3)
            let count = 200_000
            let sum = (0..<count).reduce(0.0) { total, _ in total + Double(jitter.draw(&random)) }
            let mean = Double(jitter.meanNanoseconds)
            #expect(abs(sum / Double(count) / mean - 1) < 0.02, "\(jitter): mean \(mean), drawn \(sum / Double(count))")
        }
        // 250 µs × e^(σ²/2), σ = ln(3.2) / 2.326: the cap at 16 ms takes almost nothing off.
        #expect(jitters[0].meanNanoseconds == 283_286)
        #expect(jitters[2].meanNanoseconds == 675_000)
        // The public mean is the same figure, for every shape.
        #expect(jitters[0].mean == .nanoseconds(283_286))
        #expect(PresentJitter.none.mean == .zero)
        #expect(PresentJitter.uniform(upTo: .milliseconds(1)).mean == .microseconds(500))
        #expect(PresentJitter.exponential(mean: .microseconds(300)).mean == .microseconds(300))
    }

    @Test("a log-normal delay whose 99th percentile is its median is that delay every time")
    func lognormalWithoutSpread() {
        let delays = Self.delays(.lognormal(median: .microseconds(300), percentile99: .microseconds(300)), count: 50)
        #expect(delays == Array(repeating: 300_000, count: 50))
    }

    @Test("a sampled delay is one of the given ones, each drawn")
    func sampled() {
        let given: [Duration] = [.microseconds(100), .microseconds(300), .microseconds(300), .milliseconds(2)]
        let jitter = PresentJitter.sampled(given)
        #expect(jitter.description == "sampled from 4 delays, mean 0.7 ms")
        let delays = Self.delays(jitter, count: 2_000)
        #expect(Set(delays) == [100_000, 300_000, 2_000_000])
        let threes = delays.filter { $0 == 300_000 }.count
        let ones = delays.filter { $0 == 100_000 }.count
        #expect(threes > ones * 3 / 2, "a value given twice is drawn about twice as often: \(threes) and \(ones)")
        #expect(jitter == .sampled(given))
    }

    // MARK: Off by default

    /// A run with a triple-buffered fixed display, overruns, a hide and a move to another display;
    /// `configure` runs before the first frame, `move` makes the move.
    static func run(
        _ refresh: DisplayLab.Refresh, configure: (DisplayLab) -> Void, move: (DisplayLab, DisplayLab.Refresh) -> Void
    ) -> (frames: [LabFrame], refreshTimes: [FrameInstant]) {
        let lab = DisplayLab(refresh: refresh, buffers: 3, jitter: .exponential(mean: .microseconds(300)), seed: 5)
        configure(lab)
        for frame in 1...150 {
            if frame == 40 { lab.isHidden = true }
            if frame == 50 { lab.isHidden = false }
            if frame == 90 { move(lab, .fixed(.hz75)) }
            lab.work(for: .milliseconds(frame % 17 == 0 ? 25 : 3))
            lab.present()
        }
        return (lab.frames, lab.refreshTimes)
    }

    @Test(
        "the models are off by default: a run is the same as with each set to nothing",
        arguments: [DisplayLab.Refresh.fixed(.hz60, phase: .milliseconds(3)), vrr, .emulated(.hz60), .none])
    func offByDefault(_ refresh: DisplayLab.Refresh) {
        let plain = Self.run(refresh, configure: { _ in }, move: { $0.changeRefresh(to: $1) })
        let zeroed = Self.run(
            refresh,
            configure: { lab in
                #expect(lab.latchDeadline == .zero && lab.gpuTime == .zero && lab.hiddenPresent == .returnsAtOnce)
                lab.latchDeadline = .zero
                lab.gpuTime = .zero
                lab.hiddenPresent = .returnsAtOnce
            },
            move: { $0.changeRefresh(to: $1, blankingFor: .zero) })
        #expect(plain.frames == zeroed.frames)
        #expect(plain.refreshTimes == zeroed.refreshTimes)
        #expect(plain.frames.allSatisfy { $0.readyAt == $0.presentedAt })
        #expect(plain.frames.count == 150)
    }

    // MARK: The emulated vsync, as documented

    @Test("an emulated vsync is a free-running timer from the first present; a busy frame skips its ticks")
    func emulatedAsDocumented() {
        // 60 Hz: a period of 16_666_667 ns (rounded); no jitter, so the ticks keep the grid exactly.
        let lab = DisplayLab(refresh: .emulated(.hz60))
        lab.work(for: .milliseconds(1))
        lab.present()  // starts the timer at 1 ms: its first tick is one period later
        #expect(lab.frames[0].shownAt == Self.at(17_666_667))
        #expect(lab.frames[0].returnedAt == Self.at(17_716_667), "the present's cost after the tick")
        lab.work(for: .nanoseconds(16_616_667))  // exactly on the next tick: waits for the one after
        lab.present()
        #expect(lab.frames[1].presentedAt == Self.at(34_333_334))
        #expect(lab.frames[1].shownAt == Self.at(51_000_001))
        lab.work(for: .milliseconds(40))  // busy past two ticks: they are skipped, not caught up
        lab.present()
        #expect(lab.frames[2].shownAt == Self.at(101_000_002))
        #expect(lab.refreshTimes.isEmpty, "no refreshes recorded")
        #expect(lab.missedRefreshes == 0)
    }

    @Test("the lab keeps the least delay a blocking present returned with: the floor no pacer sees without feedback")
    func leastPresentDelay() {
        let delays: [Duration] = [.microseconds(300), .microseconds(180), .microseconds(650)]
        let lab = DisplayLab(refresh: .fixed(.hz60), jitter: .sampled(delays))
        #expect(lab.leastPresentDelay == nil)
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        DisplayLink { _ in lab.work(for: .milliseconds(2)) }.add(to: loop, forMode: .common)
        loop.run(frames: 300)
        #expect(lab.leastPresentDelay == .microseconds(180))
    }
}
