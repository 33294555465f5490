import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// A second independent review's scenarios against the pacing changes of 8b99f3f..6213d74 (the
/// fit at the returns' mean number, a slow return placed by the first vsync after its call, the
/// frame before placed by the vsync that released its present when frames come onto the grid):
/// each run on the display lab and judged by outcomes against its ground truth.
@MainActor
final class ReviewRun {
    struct Frame {
        var index: Int64
        var timestamp: FrameInstant
        var target: FrameInstant
        var follows: Bool
        var dropped: Int
        var mode: PresentSource.Mode
        var interval: Int
    }

    let lab: DisplayLab
    let source: PresentSource
    let loop: FrameLoop
    let link: DisplayLink
    var frames: [Frame] = []
    /// The work of frame `index` (and anything the scenario does at it: hide, move).
    var script: (Int64) -> Duration

    init(
        _ lab: DisplayLab, nominal: FrameRate? = nil, declaredBuffers: Int? = nil,
        setUp: (PresentSource, FrameLoop) -> Void = { _, _ in }, script: @escaping (Int64) -> Duration
    ) {
        self.lab = lab
        source = lab.makeSource(nominalRate: nominal)
        if let declaredBuffers { source.swapChainBuffers = declaredBuffers }
        loop = FrameLoop(source: source)
        self.script = script
        setUp(source, loop)
        let recorder = Recorder<Frame>()
        let (source, loop) = (source, loop)
        let work = WorkBox()
        link = DisplayLink { link in
            recorder.append(
                Frame(
                    index: link.frameIndex, timestamp: link.timestamp, target: link.targetTimestamp,
                    follows: source.timestampFollowsVsync, dropped: loop.statistics.droppedFrames,
                    mode: source.mode, interval: source.presentInterval))
            lab.work(for: work.body(link.frameIndex))
        }
        link.add(to: loop, forMode: .common)
        self.recorder = recorder
        work.body = { [unowned self] in self.script($0) }
    }

    @MainActor final class WorkBox {
        var body: (Int64) -> Duration = { _ in .zero }
    }

    private let recorder: Recorder<Frame>

    func run(frames count: Int) {
        loop.run(frames: count)
        frames = recorder.values
    }

    /// Prints loop frames `range` against the lab's truth (times in µs from the frame's nearest
    /// refresh): a debugging aid.
    func dump(_ range: ClosedRange<Int64>) {
        guard ProcessInfo.processInfo.environment["REVIEW_DUMP"] != nil else { return }
        for frame in frames where range.contains(frame.index) {
            let ts = frame.timestamp.nanoseconds
            let near = Self.nearest(ts, in: lab.refreshTimes)
            var line =
                "#\(frame.index) ts \(ts / 1_000) (\((ts - near) / 1_000)) follows \(frame.follows) dropped \(frame.dropped) mode \(frame.mode) k \(frame.interval) target \(frame.target.nanoseconds / 1_000)"
            if Int(frame.index) < lab.frames.count {
                let lf = lab.frames[Int(frame.index)]
                line +=
                    " | presented \(lf.presentedAt.nanoseconds / 1_000) returned \(lf.returnedAt.nanoseconds / 1_000) shown \((lf.shownAt?.nanoseconds ?? -1_000) / 1_000) missed \(lf.missedRefreshes) ahead \(lf.framesQueuedAhead)"
            }
            print(line)
        }
    }

    /// What a run showed against the truth, over the judged frames.
    struct Verdict: CustomStringConvertible {
        var timestampsJudged = 0
        var timestampsOff = 0
        var worstTimestamp: Int64 = 0
        var worstTimestampFrame: Int64 = -1
        var targetsJudged = 0
        var targetsOff = 0
        var worstTarget: Int64 = 0
        var worstTargetFrame: Int64 = -1
        /// Frames at which booked-minus-truth drops moved and stayed moved (beyond the chain's
        /// depth): (frame, booked − truth before, after).
        var dropShifts: [(Int64, Int, Int)] = []
        var booked = 0
        var missed = 0
        /// The truth's drops, in frames of the interval asked for.
        var truthTotal = 0
        /// The shortest span of 60 present intervals, in periods of the interval asked for.
        var fastestWindow = Double.infinity
        var fastestWindowFrame = -1

        var description: String {
            "timestamps off \(timestampsOff)/\(timestampsJudged) (worst \(worstTimestamp) ns at \(worstTimestampFrame)); "
                + "targets off \(targetsOff)/\(targetsJudged) (worst \(worstTarget) ns at \(worstTargetFrame)); "
                + "drop shifts \(dropShifts.prefix(6)) booked \(booked) truth \(truthTotal) (missed refreshes \(missed)); "
                + "fastest 60 intervals \(fastestWindow) periods at \(fastestWindowFrame)"
        }

        var passes: Bool {
            timestampsOff == 0 && targetsOff == 0 && dropShifts.isEmpty && fastestWindow >= 59.75
        }
    }

    static func nearest(_ time: Int64, in refreshes: [FrameInstant]) -> Int64 {
        var low = 0
        var high = refreshes.count
        while low < high {
            let middle = (low + high) / 2
            if refreshes[middle].nanoseconds <= time { low = middle + 1 } else { high = middle }
        }
        var best = Int64.max
        var at = time
        if low > 0, time - refreshes[low - 1].nanoseconds < best {
            best = time - refreshes[low - 1].nanoseconds
            at = refreshes[low - 1].nanoseconds
        }
        if low < refreshes.count, refreshes[low].nanoseconds - time < best { at = refreshes[low].nanoseconds }
        return at
    }

    /// Judges frames from `from` on (not within `after` frames after, nor the chain's depth before,
    /// any of `events`), as the pacing sweep does: timestamps of frames said to follow the vsync
    /// within 100 µs (plus the unseen floor of the present delay, without feedback) of a true
    /// refresh, their targets when the frame was shown, drops booked as the display missed them, and
    /// never 60 presents in under 59.75 × `vsyncsPerFrame` periods of `period`.
    func judge(
        from: Int64 = 120, events: [Int64] = [], after: Int64 = 120, period: Int64, vsyncsPerFrame: Int = 1,
        tolerance: Int64 = 100_000
    ) -> Verdict {
        var verdict = Verdict()
        let floor = lab.providesFeedback ? 0 : (lab.leastPresentDelay?.wholeNanoseconds ?? 0)
        let allowed = tolerance + floor
        let depth = Int64(lab.buffers)
        let lastJudged = Int64(frames.count) - 8
        func isJudged(_ index: Int64) -> Bool {
            index >= from && index <= lastJudged && !events.contains { index >= $0 - depth && index < $0 + after }
        }
        // The truth in frames of the interval asked for: a frame shown `missed` refreshes after the
        // one before, under an interval of k vsyncs, dropped as many frames as that many refreshes
        // past k − 1 are worth at k (none up to half a frame late).
        var intervals: [Int64: Int] = [:]
        for frame in frames { intervals[frame.index] = frame.interval }
        var truth = [0]
        for (position, frame) in lab.frames.enumerated() {
            let interval = Int64(intervals[Int64(position) + 1] ?? intervals[Int64(position)] ?? 1)
            let late = Int64(frame.missedRefreshes) - (interval - 1)
            truth.append(truth[truth.count - 1] + _SwapChainModel.drops(missedRefreshes: late, interval: interval))
        }
        verdict.truthTotal = truth[truth.count - 1]
        var base: Int?
        var deviating = 0
        var previous = 0
        for frame in frames {
            let index = frame.index
            guard isJudged(index), Int(index) < truth.count else {
                base = nil
                continue
            }
            let difference = frame.dropped - truth[Int(index)]
            if let known = base {
                deviating = difference == known ? 0 : deviating + 1
                if deviating > lab.buffers {
                    verdict.dropShifts.append((index - Int64(deviating) + 1, known, difference))
                    base = difference
                    deviating = 0
                }
            } else {
                base = difference
            }
            previous = difference
            if frame.follows {
                let refresh = Self.nearest(frame.timestamp.nanoseconds, in: lab.refreshTimes)
                let error = abs(frame.timestamp.nanoseconds - refresh)
                verdict.timestampsJudged += 1
                if error > allowed { verdict.timestampsOff += 1 }
                if error > verdict.worstTimestamp {
                    (verdict.worstTimestamp, verdict.worstTimestampFrame) = (error, index)
                }
                if Int(index) < lab.frames.count, let shown = lab.frames[Int(index)].shownAt {
                    let aimed = Self.nearest(frame.target.nanoseconds, in: lab.refreshTimes)
                    let target = abs(aimed - frame.target.nanoseconds) <= allowed ? aimed : frame.target.nanoseconds
                    // (A frame shown later or earlier than its call allows by other than the
                    // pipeline's lateness, the most common of the frames before it, was so by its
                    // own work and drawing, which no pacer knows at its start: judged by the drops.)
                    // (Presented in time: before the target less that lateness.)
                    let labFrame = lab.frames[Int(index)]
                    let pipeline = lab.pipelineLateness(beforeFrame: Int(index))
                    if let pipeline, lab.refreshesLate(frame: Int(index)) == pipeline,
                        labFrame.presentedAt.nanoseconds < target - Int64(pipeline) * period
                    {
                        let miss = abs(shown.nanoseconds - frame.target.nanoseconds)
                        verdict.targetsJudged += 1
                        if miss > allowed { verdict.targetsOff += 1 }
                        if miss > verdict.worstTarget {
                            (verdict.worstTarget, verdict.worstTargetFrame) = (miss, index)
                        }
                    }
                }
            }
        }
        _ = previous
        verdict.booked = loop.statistics.droppedFrames
        verdict.missed = lab.missedRefreshes
        let unit = Double(period * Int64(vsyncsPerFrame))
        if frames.count > 60 {
            for start in 0..<(frames.count - 60)
            where isJudged(frames[start].index) && isJudged(frames[start + 60].index) {
                let span = Double(frames[start + 60].timestamp.nanoseconds - frames[start].timestamp.nanoseconds) / unit
                if span < verdict.fastestWindow {
                    (verdict.fastestWindow, verdict.fastestWindowFrame) = (span, Int(frames[start].index))
                }
            }
        }
        return verdict
    }
}

@MainActor
@Suite("Pacing review 2: scenarios judged against the lab's truth")
struct PacingReview2Tests {
    static let p60 = FrameRate.hz60.periodNanoseconds
    static let p144 = FrameRate.hz144.periodNanoseconds

    // MARK: Divisors

    @Test(
        "a requested range's divisor (every k-th vsync), tail returns: timestamps, targets and drops follow the truth",
        arguments: [(2, 2, 60), (2, 3, 60), (3, 2, 144), (3, 3, 144), (2, 2, 144)])
    func divisor(every k: Int, buffers: Int, hz: Int) {
        let rate = FrameRate(numerator: Int64(hz))
        let lab = DisplayLab(
            refresh: .fixed(rate, phase: .microseconds(2_300)), buffers: buffers,
            jitter: .lognormal(median: .microseconds(150), percentile99: .microseconds(4_000)), seed: 11)
        let period = rate.periodNanoseconds
        var random = SplitMix64(seed: 5)
        let run = ReviewRun(lab, declaredBuffers: buffers) { _, loop in
            loop.preferredFrameRateRange = FrameRateRange(
                exactly: FrameRate(numerator: Int64(hz), denominator: Int64(k)))
        } script: { index in
            // Now and then a frame that overruns its k vsyncs (a true drop).
            if index % 97 == 50 { return .nanoseconds(period * Int64(k * (buffers - 1)) + period / 3) }
            return .nanoseconds(Int64(random.next() % UInt64(period / 2)) + 500_000)
        }
        run.run(frames: 1_500)
        let verdict = run.judge(period: period, vsyncsPerFrame: k)
        print("divisor \(k) buffers \(buffers) \(hz) Hz: \(verdict)")
        #expect(run.source.presentInterval == k)
        #expect(verdict.passes, "\(verdict)")
        #expect(verdict.truthTotal > 0)
    }

    // MARK: A compositor slower than a period now and then

    @Test(
        "a compositor whose delay passes a period now and then (Wayland-style): no false drops, timestamps on the vsync",
        arguments: [2, 3])
    func compositorPastAPeriod(buffers: Int) {
        // 1 in 40 returns 18–24 ms late on a 60 Hz display; the rest 0.1–0.5 ms.
        var delays: [Duration] = Array(repeating: .microseconds(100), count: 0)
        for index in 0..<400 {
            delays.append(
                index % 40 == 7
                    ? .microseconds(18_000 + Int64(index % 7) * 1_000) : .microseconds(100 + Int64(index % 5) * 100))
        }
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .microseconds(5_100)), buffers: buffers, jitter: .sampled(delays), seed: 3)
        let run = ReviewRun(lab, declaredBuffers: buffers) { _ in .milliseconds(4) }
        run.run(frames: 1_500)
        let verdict = run.judge(period: Self.p60)
        print("compositor past a period, \(buffers) buffers: \(verdict)")
        #expect(verdict.passes, "\(verdict)")
    }

    // MARK: Presents called about a vsync

    @Test(
        "frames that cost about a period: presents called from 20 µs before to 30 µs after a vsync, real drops booked")
    func presentsAboutAVsyncDoubleBuffered() { presentsAboutAVsync(buffers: 2) }

    @Test(
        "3 buffers, frames that cost about a period: real drops booked, no claimed vsync off the truth")
    func presentsAboutAVsyncTripleBuffered() { presentsAboutAVsync(buffers: 3) }

    func presentsAboutAVsync(buffers: Int) {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .microseconds(700)), buffers: buffers,
            jitter: .uniform(upTo: .microseconds(50)),
            seed: 4)
        let run = ReviewRun(lab, declaredBuffers: buffers) { index in
            index < 200 ? .milliseconds(5) : .nanoseconds(Self.p60 - 20_000)
        }
        run.run(frames: 1_200)
        let verdict = run.judge(from: 20, period: Self.p60)
        print("presents about a vsync, \(buffers) buffers: \(verdict)")
        #expect(verdict.passes, "\(verdict)")
    }

    // MARK: Triple buffering with a GPU and a latch deadline

    @Test(
        "3 buffers, a GPU time and a latch deadline: a released present's frame is shown later; truth kept",
        .disabled(
            "defect (pre-existing, also on 8b99f3f): after a 40 ms hitch whose late frame also misses the latch, the source books 1 drop where the display missed 2 (11 of 20 over the run) and the next target is a period early, though the next present's blocking return shows where the late frame went"
        ))
    func tripleBufferingWithGPU() {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .microseconds(9_000)), buffers: 3,
            jitter: .exponential(mean: .microseconds(300)), seed: 8)
        lab.gpuTime = .milliseconds(9)
        lab.latchDeadline = .milliseconds(1)
        var random = SplitMix64(seed: 2)
        let run = ReviewRun(lab, declaredBuffers: 3) { index in
            if index % 150 == 70 { return .milliseconds(40) }
            return .nanoseconds(4_000_000 + Int64(random.next() % 8_000_000))
        }
        run.run(frames: 1_500)
        let verdict = run.judge(period: Self.p60)
        print("3 buffers, GPU, latch: \(verdict)")
        #expect(verdict.passes, "\(verdict)")
    }

    // MARK: Hidden windows

    @Test(
        "hidden as on Wayland (present waits for frame callbacks, 50 ms timeout), the host told: the show books the truth",
        arguments: [2, 3])
    func hiddenOnWaylandHostKnows(buffers: Int) { hiddenOnWayland(buffers: buffers, hostKnows: true) }

    @Test(
        "hidden as on Wayland, the host not told (no occlusion event): no claimed vsync off the truth after the show (the 50 ms timeouts fitted the grid as returns: claims 300-476 µs off for ~190 frames)"
    )
    func hiddenOnWaylandHostNotTold() { hiddenOnWayland(buffers: 2, hostKnows: false) }

    func hiddenOnWayland(buffers: Int, hostKnows: Bool) {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .microseconds(3_300)), buffers: buffers,
            jitter: .lognormal(median: .microseconds(200), percentile99: .microseconds(2_500)), seed: 21)
        lab.hiddenPresent = .waitsForFrameCallbacks(timeout: .milliseconds(50))
        var run: ReviewRun!
        run = ReviewRun(lab, declaredBuffers: buffers) { index in
            if index == 400 || index == 900 {
                lab.isHidden = true
                if hostKnows { run.source.isWindowHidden = true }
            }
            if index == 460 || index == 1_000 {
                lab.isHidden = false
                if hostKnows { run.source.isWindowHidden = false }
            }
            return .milliseconds(6)
        }
        run.run(frames: 1_400)
        let verdict = run.judge(events: [400, 460, 900, 1_000], period: Self.p60)
        // Around each show: the drops booked over the 30 frames after it, against the truth.
        var truth = [0]
        for frame in lab.frames { truth.append(truth[truth.count - 1] + frame.missedRefreshes) }
        var shows: [String] = []
        var wrong = false
        for show in [Int64(460), 1_000] {
            let first = run.frames.first { $0.index == show + 1 }!
            let last = run.frames.first { $0.index == show + 30 }!
            let booked = last.dropped - first.dropped
            let real = truth[Int(show + 30)] - truth[Int(show + 1)]
            shows.append("show at \(show): booked \(booked), truth \(real)")
            if booked != real { wrong = true }
        }
        print("hidden on Wayland, \(buffers) buffers, host knows \(hostKnows): \(shows) \(verdict)")
        if hostKnows {
            #expect(!wrong, "\(shows)")
        } else {
            // Known defect: the host not told, the show's one real drop is not booked (the
            // frame-callback timeouts no longer fit the grid; what the show dropped is still
            // unknown to the source).
            withKnownIssue("the show's drop, the host not told") { #expect(!wrong, "\(shows)") }
        }
        #expect(verdict.passes, "\(verdict)")
    }

    // MARK: Moves, halving, idle

    @Test(
        "a move from 60 Hz to 75 Hz and back, with a blank gap: the truth kept after each relock",
        arguments: [2, 3])
    func moves(buffers: Int) {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .microseconds(1_100)), buffers: buffers,
            jitter: .exponential(mean: .microseconds(250)), seed: 13)
        var run: ReviewRun!
        run = ReviewRun(lab, declaredBuffers: buffers) { index in
            if index == 500 {
                lab.changeRefresh(to: .fixed(FrameRate(numerator: 75)), blankingFor: .milliseconds(300))
                run.source.displayRefreshRate = FrameRate(numerator: 75)
            }
            if index == 1_000 {
                lab.changeRefresh(to: .fixed(.hz60), blankingFor: .zero)
                run.source.displayRefreshRate = .hz60
            }
            return .milliseconds(5)
        }
        run.run(frames: 1_500)
        let first = run.judge(from: 120, events: [500], after: 10_000, period: Self.p60)
        let second = run.judge(
            from: 620, events: [1_000], after: 10_000, period: FrameRate(numerator: 75).periodNanoseconds)
        let third = run.judge(from: 1_120, period: Self.p60)
        print("moves, \(buffers) buffers: \(first) || \(second) || \(third)")
        #expect(first.passes && second.passes && third.passes, "\(first) || \(second) || \(third)")
    }

    @Test("the automatic frame rate halves under heavy frames and comes back: truth kept", arguments: [2, 3])
    func halving(buffers: Int) {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .microseconds(4_200)), buffers: buffers,
            jitter: .exponential(mean: .microseconds(200)), seed: 17)
        let run = ReviewRun(lab, declaredBuffers: buffers) { source, _ in
            source.automaticFrameRate = true
        } script: { index in
            (300..<700).contains(index) ? .milliseconds(18) : .milliseconds(4)
        }
        run.run(frames: 1_200)
        let changes = run.frames.indices.dropFirst().filter { run.frames[$0].interval != run.frames[$0 - 1].interval }
            .map { run.frames[$0].index }
        // (A target given at a frame's start, before its own cost halves or restores the rate, is
        // not judged: the frame just before each change.)
        let verdict = run.judge(from: 120, events: changes, after: 1, period: Self.p60)
        #expect(changes.count == 2, "\(changes)")
        print("halving (changes at \(changes)), \(buffers) buffers: \(verdict)")
        #expect(verdict.passes, "\(verdict)")
    }

    @Test("idle waits between bursts of frames: the first frames after each wait book no false drops")
    func idleWaits() {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .microseconds(2_000)), jitter: .exponential(mean: .microseconds(200)), seed: 5
        )
        var run: ReviewRun!
        run = ReviewRun(lab) { index in
            if index % 300 == 299 {
                run.link.isPaused = true
                let link = run.link
                FrameTimer(timeInterval: 0.7371, repeats: false) { _ in link.isPaused = false }.add(
                    to: run.loop, forMode: .common)
            }
            return .milliseconds(5)
        }
        run.run(frames: 1_500)
        // (The refreshes the display repeated while the game idled are no drops: each burst is
        // judged on its own, from its second frame.)
        let wakes = run.frames.indices.dropFirst().filter {
            run.frames[$0].timestamp.nanoseconds - run.frames[$0 - 1].timestamp.nanoseconds > 500_000_000
        }.map { run.frames[$0].index }
        let verdict = run.judge(from: 120, events: wakes.map { $0 + Int64(lab.buffers) }, after: 1, period: Self.p60)
        print("idle waits (woke at \(wakes)): \(verdict)")
        #expect(wakes.count >= 4)
        #expect(verdict.timestampsOff == 0 && verdict.targetsOff == 0 && verdict.dropShifts.isEmpty, "\(verdict)")
    }

    // MARK: Emulated vsync

    @Test("an emulated vsync (Xvfb's 62.5 Hz on a 60 Hz report) with slow presents: never faster than 60 Hz")
    func emulatedVsyncSlowPresents() {
        let lab = DisplayLab(
            refresh: .emulated(FrameRate(framesPerSecond: 62.5)), jitter: .uniform(upTo: .microseconds(400)))
        lab.presentCost = .milliseconds(3)
        let run = ReviewRun(lab, nominal: .hz60) { source, _ in
            source.capsAtDisplayRefreshRate = true
        } script: { _ in
            .milliseconds(6)
        }
        run.run(frames: 1_200)
        let verdict = run.judge(from: 120, period: Self.p60)
        print("emulated: \(verdict) mode \(run.source.mode)")
        #expect(verdict.fastestWindow >= 59.75, "\(verdict)")
        // (The lab counts no refresh as missed on an emulated vsync; the source books an interval of
        // two 60 Hz periods as a drop, which is what the game saw: not judged.)
    }
}
