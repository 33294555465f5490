@_spi(FrameSourceImplementation) import FrameLink
import Testing

/// Frame-rate ranges and frame caps on the display lab: what the display truly showed.
@MainActor
@Suite("Frame-rate ranges and caps on the display lab")
struct FrameRateRangeLabTests {
    /// The refresh numbers the lab showed frames on, from `frame` on.
    func shownRefreshes(_ lab: DisplayLab, from frame: Int) -> [Int64] {
        lab.frames.dropFirst(frame).compactMap(\.refresh)
    }

    @Test("a 144 Hz display, the loop at 60–90 Hz preferring 72: every 2nd vsync, evenly, no drops")
    func loopOnFixedDisplay() {
        let lab = DisplayLab(
            refresh: .fixed(.hz144, phase: .milliseconds(2)), jitter: .uniform(upTo: .microseconds(300)))
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        loop.preferredFrameRateRange = FrameRateRange(minimum: 60, maximum: 90, preferred: 72)
        DisplayLink { _ in lab.work(for: .milliseconds(3)) }.add(to: loop, forMode: .common)
        loop.run(frames: 1_000)
        let shown = shownRefreshes(lab, from: 200)
        let steps = Set(zip(shown, shown.dropFirst()).map { $1 - $0 })
        #expect(steps == [2], "refreshes between frames shown: \(steps)")
        #expect(source.presentInterval == 2)
        #expect(loop.refreshRate == 72)
        #expect(loop.statistics.droppedFrames == 0)
        let choice = loop.statistics.frameRateChoices.first
        // Half the measured rate (144 Hz to within a thousandth of a hertz).
        #expect(choice.map { abs($0.rate.framesPerSecond - 72) < 0.001 } == true, "\(String(describing: choice))")
        #expect(choice?.divisor == 2)
        #expect(choice?.reason.hasPrefix("every 2nd frame of 144") == true)
        #expect(choice?.reason.hasSuffix("Hz: the even rate in 60–90 Hz closest to 72 Hz") == true)
    }

    @Test("under a divisor the present is held by a wait the loop carries out, into the interval before the k-th vsync")
    func divisorHoldIsAWait() {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .milliseconds(1)), jitter: .uniform(upTo: .microseconds(200)))
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        loop.preferredFrameRateRange = FrameRateRange(exactly: 30)
        DisplayLink { _ in lab.work(for: .milliseconds(2)) }.add(to: loop, forMode: .common)
        loop.run(frames: 300)
        #expect(source.presentInterval == 2)
        // The frame's work is done: the source asks to be held, not to present at once.
        lab.work(for: .milliseconds(2))
        let period = FrameRate.hz60.periodNanoseconds
        let hold = source.presentWait()
        #expect(hold == .sleep(until: loop.timestamp + .nanoseconds(period + period / 2)), "\(hold)")
        // The present itself no longer sleeps: it takes only what the display makes it block.
        let before = source.now
        let presents = source.presentCount
        source.presentFrame()
        #expect(source.presentCount == presents + 1)
        #expect(source.now - before < .nanoseconds(period + period / 2), "present took \(source.now - before)")
    }

    @Test("40–50 Hz on 144 Hz is every 3rd vsync (48 Hz); 30 on 60 Hz every 2nd")
    func otherDivisors() {
        for (display, range, every) in [
            (FrameRate.hz144, FrameRateRange(minimum: 40, maximum: 50), Int64(3)),
            (FrameRate.hz60, FrameRateRange(exactly: 30), Int64(2)),
        ] {
            let lab = DisplayLab(
                refresh: .fixed(display, phase: .milliseconds(1)), jitter: .uniform(upTo: .microseconds(200)))
            let loop = FrameLoop(source: lab.makeSource())
            loop.preferredFrameRateRange = range
            DisplayLink { _ in lab.work(for: .milliseconds(2)) }.add(to: loop, forMode: .common)
            loop.run(frames: 600)
            let shown = shownRefreshes(lab, from: 200)
            #expect(Set(zip(shown, shown.dropFirst()).map { $1 - $0 }) == [every], "\(range) on \(display)")
            #expect(loop.statistics.droppedFrames == 0, "\(loop.statistics.summary)")
        }
    }

    @Test(
        "drops under a divisor: a frame more than half a frame of the chosen rate late drops one, less does not",
        arguments: [(2, 1, 0), (2, 2, 1), (3, 1, 0), (3, 2, 1), (3, 3, 1)])
    func dropsUnderADivisor(every: Int, lateRefreshes: Int, drops: Int) {
        let refresh = FrameRate.hz144
        let lab = DisplayLab(
            refresh: .fixed(refresh, phase: .milliseconds(1)), jitter: .uniform(upTo: .microseconds(200)))
        let loop = FrameLoop(source: lab.makeSource())
        loop.preferredFrameRateRange = FrameRateRange(exactly: refresh.divided(by: every))
        // Frame 400's work runs `lateRefreshes` refreshes past its budget.
        let budget = refresh.periodNanoseconds * Int64(every)
        DisplayLink { link in
            let extra =
                link.frameIndex == 400 ? budget - 1_000_000 + refresh.periodNanoseconds * Int64(lateRefreshes) : 0
            lab.work(for: .nanoseconds(1_000_000 + extra - 400_000))
        }.add(to: loop, forMode: .common)
        loop.run(frames: 600)
        #expect(loop.statistics.droppedFrames == drops, "\(loop.statistics.summary)")
        // The truth: the display showed the old frame `lateRefreshes` refreshes longer, once.
        let shown = lab.frames.dropFirst(100).compactMap(\.refresh)
        let steps = zip(shown, shown.dropFirst()).map { $1 - $0 }
        #expect(steps.filter { $0 != Int64(every) } == [Int64(every + lateRefreshes)], "\(Set(steps))")
    }

    @Test("drops under a divisor with presentation feedback: the same exact count")
    func dropsWithFeedback() {
        for (lateRefreshes, drops) in [(0, 0), (1, 0), (2, 1)] {
            let lab = DisplayLab(
                refresh: .fixed(.hz144, phase: .milliseconds(1)), jitter: .uniform(upTo: .microseconds(200)),
                feedback: true)
            let loop = FrameLoop(source: lab.makeSource())
            loop.preferredFrameRateRange = FrameRateRange(exactly: 72)
            let period = FrameRate.hz144.periodNanoseconds
            DisplayLink { link in
                let extra = link.frameIndex == 400 ? period * Int64(1 + lateRefreshes) : 0
                lab.work(for: .nanoseconds(1_000_000 + extra))
            }.add(to: loop, forMode: .common)
            loop.run(frames: 600)
            #expect(loop.statistics.droppedFrames == drops, "\(lateRefreshes) late: \(loop.statistics.summary)")
        }
    }

    @Test("input latency under a divisor counts a frame shown a refresh late, as the lab saw it")
    func latencyUnderADivisor() {
        let lab = DisplayLab(
            refresh: .fixed(.hz144, phase: .milliseconds(1)), jitter: .uniform(upTo: .microseconds(200)))
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        loop.preferredFrameRateRange = FrameRateRange(minimum: 40, maximum: 50)
        let input = ScriptedInput(every: 3_100_000, lab: lab, loop: loop, source: source)
        // Every 5th frame runs one refresh over its budget: shown a refresh late, not a drop.
        DisplayLink { link in
            lab.work(for: .milliseconds(link.frameIndex % 5 == 0 ? 24 : 3))
        }.add(to: loop, forMode: .common)
        loop.run(frames: 1_500)
        let trueMean = input.trueMeanLatency(skippingFrames: 300)
        let measured = loop.statistics.meanInputLatency.secondsValue * 1e3
        #expect(abs(measured - trueMean) < 0.3, "measured \(measured) ms, true \(trueMean) ms")
        #expect(loop.statistics.droppedFrames == 0)
    }

    @Test("pacing forced to vsync and back to automatic on a variable-refresh display: the range is paced again")
    func pacingToggled() {
        let lab = DisplayLab(refresh: .variable(minimum: .hz48, maximum: .hz144))
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        loop.preferredFrameRateRange = FrameRateRange(minimum: 48, maximum: 100)
        DisplayLink { _ in lab.work(for: .milliseconds(2)) }.add(to: loop, forMode: .common)
        loop.run(frames: 200)
        source.pacing = .vsync
        loop.run(frames: 200)
        source.pacing = .automatic
        let back = lab.frames.count
        loop.run(frames: 400)
        #expect(source.mode == .deadline, "\(source.pacingDescription)")
        #expect(loop.refreshRate == 100)
        let shown = lab.frames.dropFirst(back + 5).compactMap(\.shownAt)
        #expect(Set(zip(shown, shown.dropFirst()).map { ($1 - $0).wholeNanoseconds }) == [10_000_000])
    }

    @Test("a range above an emulated vsync that runs faster than the display: never faster than the display")
    func emulatedFasterVsync() {
        let lab = DisplayLab(
            refresh: .emulated(FrameRate(framesPerSecond: 62.5)), jitter: .uniform(upTo: .milliseconds(1)))
        let source = lab.makeSource(nominalRate: .hz60)
        source.capsAtDisplayRefreshRate = true
        let loop = FrameLoop(source: source)
        loop.preferredFrameRateRange = FrameRateRange(minimum: 60, maximum: 90)
        DisplayLink { _ in lab.work(for: .milliseconds(2)) }.add(to: loop, forMode: .common)
        loop.run(frames: 900)
        let presented = lab.frames.dropFirst(100).map(\.presentedAt.nanoseconds)
        let shortest = zip(presented, presented.dropFirst()).map { $1 - $0 }.min() ?? 0
        #expect(shortest >= FrameRate.hz60.periodNanoseconds - 1_000_000, "\(shortest) ns")
        #expect(loop.refreshRate <= .hz60, "\(source.pacingDescription)")
    }

    @Test("a frame log recorded across a change of rate still validates and writes")
    func logAcrossRateChange() throws {
        let lab = DisplayLab(refresh: .fixed(.hz144, phase: .milliseconds(1)))
        let loop = FrameLoop(source: lab.makeSource())
        loop.preferredFrameRateRange = FrameRateRange(minimum: 40, maximum: 50)
        loop.frameLog = FrameLog()
        // At 144 Hz, frame 450 overruns by two refreshes: 2 drops at 144 Hz, none at the log's 48 Hz.
        DisplayLink { link in lab.work(for: .milliseconds(link.frameIndex == 450 ? 15 : 2)) }
            .add(to: loop, forMode: .common)
        loop.run(frames: 300)
        loop.preferredFrameRateRange = nil
        loop.run(frames: 300)
        #expect(loop.statistics.droppedFrames >= 2)
        let log = try #require(loop.frameLog)
        try log.validate()
        #expect(log.records.count > 500)
    }

    @Test("a range asked for mid-run under vsync takes effect at once and keeps its cadence; lifted, every vsync again")
    func midRun() {
        let lab = DisplayLab(
            refresh: .fixed(.hz144, phase: .milliseconds(2)), jitter: .uniform(upTo: .microseconds(300)))
        let loop = FrameLoop(source: lab.makeSource())
        DisplayLink { _ in lab.work(for: .milliseconds(2)) }.add(to: loop, forMode: .common)
        loop.run(frames: 300)
        loop.preferredFrameRateRange = FrameRateRange(minimum: 60, maximum: 90, preferred: 72)
        let asked = lab.frames.count
        loop.run(frames: 600)
        let shown = shownRefreshes(lab, from: asked + 5)
        #expect(Set(zip(shown, shown.dropFirst()).map { $1 - $0 }) == [2])
        #expect(loop.statistics.droppedFrames == 0)
        loop.preferredFrameRateRange = nil
        let lifted = lab.frames.count
        loop.run(frames: 300)
        let again = shownRefreshes(lab, from: lifted + 5)
        #expect(Set(zip(again, again.dropFirst()).map { $1 - $0 }) == [1])
        #expect(loop.statistics.droppedFrames == 0)
    }

    @Test("a hidden window keeps the range's cadence on the display's grid, never faster than the display")
    func hiddenKeepsCadence() {
        for (range, expected) in [
            (FrameRateRange(minimum: 40, maximum: 50), 3.0),  // 48 Hz on 144: not 50 Hz while hidden
            (FrameRateRange(minimum: 30, maximum: 240), 1.0),  // 144 Hz, not 240 Hz while hidden
        ] {
            let lab = DisplayLab(
                refresh: .fixed(.hz144, phase: .milliseconds(1)), jitter: .uniform(upTo: .microseconds(200)))
            let loop = FrameLoop(source: lab.makeSource())
            loop.preferredFrameRateRange = range
            DisplayLink { link in
                if link.frameIndex == 400 { lab.isHidden = true }
                if link.frameIndex == 600 { lab.isHidden = false }
                lab.work(for: .milliseconds(2))
            }.add(to: loop, forMode: .common)
            loop.run(frames: 900)
            // Presents while hidden (after the switch to deadline pacing settles).
            let hidden = lab.frames.filter { $0.shownAt == nil }.map(\.presentedAt.nanoseconds).dropFirst(20)
            let period = 1e9 / 144 * expected
            let gaps = zip(hidden, hidden.dropFirst()).map { Double($1 - $0) }
            #expect(!gaps.isEmpty)
            #expect(gaps.allSatisfy { abs($0 - period) < 50_000 }, "\(range): \(gaps.prefix(5)) vs \(period)")
            let shown = lab.frames.suffix(150).compactMap(\.refresh)
            #expect(Set(zip(shown, shown.dropFirst()).map { $1 - $0 }) == [Int64(expected)], "\(range)")
        }
    }

    @Test("a display measured a little fast (60.001 Hz) stays inside a range that ends at 60")
    func measuredNearBound() {
        let lab = DisplayLab(
            refresh: .fixed(FrameRate(framesPerSecond: 60.001), phase: .milliseconds(1)),
            jitter: .uniform(upTo: .microseconds(300)))
        let loop = FrameLoop(source: lab.makeSource(nominalRate: .hz60))
        loop.preferredFrameRateRange = FrameRateRange(minimum: 30, maximum: 60)
        DisplayLink { _ in lab.work(for: .milliseconds(3)) }.add(to: loop, forMode: .common)
        loop.run(frames: 900)
        let shown = shownRefreshes(lab, from: 100)
        #expect(Set(zip(shown, shown.dropFirst()).map { $1 - $0 }) == [1])
        #expect(loop.statistics.frameRateChoices.first?.divisor == 1)
    }

    @Test("vsync forced on a variable-refresh display divides its maximum; the choice says what runs")
    func forcedVsyncOnVariableRefresh() {
        let lab = DisplayLab(refresh: .variable(minimum: .hz48, maximum: .hz144))
        let source = lab.makeSource(pacing: .vsync)
        let loop = FrameLoop(source: source)
        loop.preferredFrameRateRange = FrameRateRange(minimum: 60, maximum: 90, preferred: 72)
        DisplayLink { _ in lab.work(for: .milliseconds(2)) }.add(to: loop, forMode: .common)
        loop.run(frames: 600)
        let choice = loop.statistics.frameRateChoices.first
        #expect(choice?.divisor == 2, "\(String(describing: choice))")
        #expect(choice.map { abs($0.rate.framesPerSecond - loop.refreshRate.framesPerSecond) < 0.01 } == true)
        #expect(source.mode == .vsync)
    }

    @Test("the automatic frame rate halves a range's rate: 30 Hz on 60 Hz becomes every 4th vsync, and comes back")
    func automaticFrameRateOnARange() {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .milliseconds(1)), jitter: .uniform(upTo: .microseconds(200)))
        let source = lab.makeSource()
        source.automaticFrameRate = true
        let loop = FrameLoop(source: source)
        loop.preferredFrameRateRange = FrameRateRange(exactly: 30)
        // Light frames, then frames over the 33 ms budget of 30 Hz, then light ones again.
        DisplayLink { link in
            lab.work(for: (300..<600).contains(link.frameIndex) ? .milliseconds(40) : .milliseconds(5))
        }.add(to: loop, forMode: .common)
        loop.run(frames: 300)
        #expect(source.presentInterval == 2, "\(source.pacingDescription)")
        loop.run(frames: 300)
        #expect(source.presentInterval == 4, "\(source.pacingDescription)")
        #expect(loop.refreshRate == 15)
        #expect(source.pacingDescription.contains("presenting every 4th vsync"), "\(source.pacingDescription)")
        let slow = lab.frames[400..<590].compactMap(\.refresh)
        #expect(Set(zip(slow, slow.dropFirst()).map { $1 - $0 }) == [4])
        loop.run(frames: 300)
        #expect(source.presentInterval == 2, "\(source.pacingDescription)")
        let fast = shownRefreshes(lab, from: 750)
        #expect(Set(zip(fast, fast.dropFirst()).map { $1 - $0 }) == [2])
    }

    @Test("links with their own ranges share one vsync stream on a 144 Hz display, each on the true vsync, evenly")
    func linksOnOneVsyncStream() {
        let lab = DisplayLab(
            refresh: .fixed(.hz144, phase: .milliseconds(3)), jitter: .uniform(upTo: .microseconds(300)))
        let loop = FrameLoop(source: lab.makeSource())
        var calls: [Int: [FrameInstant]] = [:]
        let ranges: [FrameRateRange?] = [
            nil, FrameRateRange(minimum: 60, maximum: 90, preferred: 72), FrameRateRange(minimum: 40, maximum: 50),
        ]
        for (slot, range) in ranges.enumerated() {
            let link = DisplayLink { link in
                calls[slot, default: []].append(link.timestamp)
                if slot == 0 { lab.work(for: .milliseconds(2)) }
            }
            link.preferredFrameRateRange = range
            link.add(to: loop, forMode: .common)
        }
        loop.run(frames: 1_440)
        let period = 1e9 / 144
        for (slot, every) in [(0, 1.0), (1, 2.0), (2, 3.0)] {
            let times = (calls[slot] ?? []).filter { $0.nanoseconds > 1_000_000_000 }
            #expect(times.count > 100)
            for (a, b) in zip(times, times.dropFirst()) {
                let gap = Double((b - a).wholeNanoseconds)
                // On the phase-locked grid: within 0.1 ms of exactly `every` refreshes.
                #expect(abs(gap - every * period) < 100_000, "slot \(slot): \(gap) ns")
                let refresh = lab.lastRefresh(atOrBefore: b + .microseconds(100))
                #expect(refresh.map { abs(($0 - b).wholeNanoseconds) < 100_000 } == true)
            }
        }
        #expect(loop.statistics.droppedFrames == 0)
        #expect(loop.statistics.frameRateChoices.map(\.rate) == [72, 48])
    }

    @Test("a variable-refresh display paces the loop's preferred rate directly: 100 Hz shown every 10 ms")
    func variableRefreshAtPreferred() {
        let lab = DisplayLab(
            refresh: .variable(minimum: .hz48, maximum: .hz144), jitter: .uniform(upTo: .microseconds(300)))
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        loop.preferredFrameRateRange = FrameRateRange(minimum: 48, maximum: 144, preferred: 100)
        var halfRate = 0
        let link = DisplayLink { _ in halfRate += 1 }
        link.preferredFrameRate = 50
        link.add(to: loop, forMode: .common)
        DisplayLink { _ in lab.work(for: .milliseconds(3)) }.add(to: loop, forMode: .common)
        loop.run(frames: 1_000)
        let shown = lab.frames.dropFirst(5).compactMap(\.shownAt)
        let intervals = Set(zip(shown, shown.dropFirst()).map { ($1 - $0).wholeNanoseconds })
        #expect(intervals == [10_000_000], "\(intervals.sorted().prefix(5))")
        #expect(lab.frames.dropFirst(5).allSatisfy { $0.shownAt == $0.presentedAt })
        #expect(source.mode == .deadline)
        #expect(loop.refreshRate == 100)
        #expect(halfRate == 500)
        #expect(loop.statistics.droppedFrames == 0)
        let choice = loop.statistics.frameRateChoices.first
        #expect(
            choice?.reason.hasPrefix("paced directly at 100 Hz: a variable-refresh display") == true,
            "\(String(describing: choice))")
        #expect(loop.statistics.pacingDescription.contains("frame-rate range"), "\(loop.statistics.pacingDescription)")
    }

    @Test("a cap lifted on a variable-refresh display: frames at the display's maximum again")
    func capLifted() {
        let lab = DisplayLab(
            refresh: .variable(minimum: .hz48, maximum: .hz144), jitter: .uniform(upTo: .microseconds(300)))
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        loop.preferredFrameRateRange = FrameRateRange(minimum: 48, maximum: 100)
        DisplayLink { _ in lab.work(for: .milliseconds(2)) }.add(to: loop, forMode: .common)
        loop.run(frames: 300)
        #expect(loop.refreshRate == 100)
        loop.preferredFrameRateRange = nil
        loop.run(frames: 600)
        // At the display's maximum: present returns at once, so frames are paced by deadline at it.
        #expect(loop.refreshRate == 144, "\(source.pacingDescription)")
        #expect(!source.pacingDescription.contains("frame-rate range"), "\(source.pacingDescription)")
        #expect(loop.statistics.frameRateChoices.isEmpty)
        let shown = lab.frames.suffix(200).compactMap(\.shownAt)
        let intervals = zip(shown, shown.dropFirst()).map { ($1 - $0).wholeNanoseconds }
        #expect(intervals.allSatisfy { abs($0 - 6_944_444) <= 1 }, "\(Set(intervals).sorted())")
    }

    /// A run on a variable-refresh display (48–144 Hz, three buffers) with 2 ms frames and input
    /// every 1.3 ms: the loop's and the lab's input-to-screen latency, and the frames queued.
    struct CapRun {
        var meanLatency: Double
        var trueMeanLatency: Double
        var queuedAhead: [Int]
        var drops: Int
        var pacing: String
    }

    func capRun(cap: FrameRateRange?, refresh: DisplayLab.Refresh, frames: Int = 3_000) -> CapRun {
        let lab = DisplayLab(refresh: refresh, buffers: 3, jitter: .uniform(upTo: .microseconds(300)), seed: 5)
        let source = lab.makeSource()
        source.swapChainBuffers = 3  // as the host that configured the chain says
        let loop = FrameLoop(source: source)
        loop.preferredFrameRateRange = cap
        let input = ScriptedInput(every: 1_300_000, lab: lab, loop: loop, source: source)
        DisplayLink { _ in lab.work(for: .milliseconds(2)) }.add(to: loop, forMode: .common)
        loop.run(frames: frames)
        // Skip the start-up.
        return CapRun(
            meanLatency: loop.statistics.meanInputLatency.secondsValue * 1e3,
            trueMeanLatency: input.trueMeanLatency(skippingFrames: 300),
            queuedAhead: lab.frames.dropFirst(300).map(\.framesQueuedAhead), drops: loop.statistics.droppedFrames,
            pacing: loop.statistics.pacingDescription)
    }

    @Test("a 141 Hz cap on a 144 Hz variable-refresh display: the queue stays at one frame and latency drops")
    func capOnVariableRefresh() {
        let vrr = DisplayLab.Refresh.variable(minimum: .hz48, maximum: .hz144)
        let uncapped = capRun(cap: nil, refresh: vrr)
        let capped = capRun(cap: FrameRateRange(minimum: 48, maximum: 141), refresh: vrr)
        let uncappedQueue = Double(uncapped.queuedAhead.reduce(0, +)) / Double(uncapped.queuedAhead.count)
        print(
            "VRR 48–144 Hz, 3 buffers, 2 ms frames: uncapped: queued ahead mean \(uncappedQueue), latency \(uncapped.meanLatency) ms (true \(uncapped.trueMeanLatency)); capped at 141: queued ahead max \(capped.queuedAhead.max() ?? -1), latency \(capped.meanLatency) ms (true \(capped.trueMeanLatency))"
        )
        // Capped: every frame found the chain empty: shown as it comes.
        #expect(capped.queuedAhead.allSatisfy { $0 == 0 }, "\(Set(capped.queuedAhead))")
        #expect(uncappedQueue >= 0.9, "uncapped, frames wait behind others: \(uncappedQueue)")
        #expect(capped.drops == 0)
        #expect(capped.trueMeanLatency < uncapped.trueMeanLatency - 4)
        #expect(capped.meanLatency < uncapped.meanLatency - 4)
        // The loop's measure is the truth's, capped and uncapped.
        #expect(abs(capped.meanLatency - capped.trueMeanLatency) < 0.2)
        #expect(abs(uncapped.meanLatency - uncapped.trueMeanLatency) < 0.5)
        #expect(capped.pacing.hasPrefix("deadline 141 Hz"), "\(capped.pacing)")
    }

    @Test("a 141 Hz cap with no vsync: frames on the 141 Hz grid exactly")
    func capWithoutVsync() {
        let lab = DisplayLab(refresh: .none)
        let source = lab.makeSource(nominalRate: .hz144)
        let loop = FrameLoop(source: source)
        loop.preferredFrameRateRange = FrameRateRange(exactly: 141)
        DisplayLink { _ in lab.work(for: .milliseconds(2)) }.add(to: loop, forMode: .common)
        loop.run(frames: 2_000)
        let presented = lab.frames.dropFirst(100).map(\.presentedAt.nanoseconds)
        let intervals = Set(zip(presented, presented.dropFirst()).map { $1 - $0 })
        #expect(intervals.isSubset(of: [7_092_198, 7_092_199]), "\(intervals.sorted())")
        #expect(loop.refreshRate == 141)
        #expect(source.mode == .deadline)
        #expect(loop.statistics.droppedFrames == 0)
        #expect(
            loop.statistics.frameRateChoices.first?.reason
                == "paced directly at 141 Hz by deadline: no vsync paces the frames")
    }
}
