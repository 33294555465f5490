import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// Scenarios an independent review wrote against this session's pacing changes: each failed on the
/// commit it names before its fix.
@MainActor
@Suite("Pacing review scenarios")
struct PacingReviewTests {
    /// The distance from `time` to the lab's nearest true refresh.
    static func nearestRefreshError(_ lab: DisplayLab, _ time: FrameInstant) -> Int64 {
        let refreshes = lab.refreshTimes
        var low = 0
        var high = refreshes.count
        while low < high {
            let middle = (low + high) / 2
            if refreshes[middle] <= time { low = middle + 1 } else { high = middle }
        }
        var best = Int64.max
        if low > 0 { best = min(best, (time - refreshes[low - 1]).wholeNanoseconds) }
        if low < refreshes.count { best = min(best, (refreshes[low] - time).wholeNanoseconds) }
        return best
    }

    @Test("pacingDescription says phase-locked exactly when isPhaseLocked is true (a chain that drains after a load)")
    func descriptionAgreesWithIsPhaseLocked() {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .microseconds(3_700)), buffers: 3, jitter: .uniform(upTo: .microseconds(300)))
        let source = lab.makeSource()
        source.swapChainBuffers = 3
        let loop = FrameLoop(source: source)
        var disagreements: [Int64] = []
        DisplayLink { link in
            if source.pacingDescription.contains("phase-locked") != source.isPhaseLocked {
                disagreements.append(link.frameIndex)
            }
            let load: Duration = (300..<400).contains(link.frameIndex) ? .milliseconds(40) : .zero
            lab.work(for: .milliseconds(3) + load)
        }.add(to: loop, forMode: .common)
        loop.run(frames: 1_800)
        #expect(disagreements.isEmpty, "disagree at \(disagreements.count) frames from \(disagreements.first ?? -1)")
    }

    @Test("VRR at its fastest rate with feedback, presents 60 µs before each refresh: vsync, locked, no false drops")
    func variableRefreshPresentJustBeforeRefresh() {
        let lab = DisplayLab(refresh: .variable(minimum: FrameRate(numerator: 48), maximum: .hz144), feedback: true)
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        var locked = 0
        var judged = 0
        DisplayLink { link in
            if link.frameIndex > 300 {
                judged += 1
                if source.isPhaseLocked { locked += 1 }
            }
            lab.work(for: .nanoseconds(FrameRate.hz144.periodNanoseconds - 60_000))
        }.add(to: loop, forMode: .common)
        loop.run(frames: 1_200)
        #expect(source.mode == .vsync, "\(source.pacingDescription)")
        #expect(locked == judged, "phase-locked \(locked) of \(judged)")
        #expect(loop.statistics.droppedFrames == lab.missedRefreshes)
    }

    @Test(
        "VRR at its fastest rate with feedback, presents just before a refresh with jitter: vsync and locked",
        arguments: [6_800, 6_850])
    func variableRefreshAtMaximum(workMicroseconds: Int) {
        let lab = DisplayLab(
            refresh: .variable(minimum: FrameRate(numerator: 48), maximum: .hz144),
            jitter: .uniform(upTo: .microseconds(60)), feedback: true)
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        var locked = 0
        var judged = 0
        var worst: Int64 = 0
        DisplayLink { link in
            if link.frameIndex > 300 {
                judged += 1
                if source.isPhaseLocked { locked += 1 }
                if source.timestampFollowsVsync { worst = max(worst, Self.nearestRefreshError(lab, link.timestamp)) }
            }
            lab.work(for: .microseconds(Int64(workMicroseconds)))
        }.add(to: loop, forMode: .common)
        loop.run(frames: 1_500)
        #expect(source.mode == .vsync, "\(source.pacingDescription)")
        #expect(locked * 10 >= judged * 9, "phase-locked \(locked) of \(judged)")
        #expect(worst <= 100_000, "a claimed vsync \(worst) ns from the truth")
        #expect(loop.statistics.droppedFrames == lab.missedRefreshes)
    }

    @Test(
        "VRR at its fastest rate with feedback and varying work: the lock holds (92 % before the fix's cause), no false drops"
    )
    func variableRefreshVaryingWork() {
        let lab = DisplayLab(
            refresh: .variable(minimum: FrameRate(numerator: 48), maximum: .hz144),
            jitter: .uniform(upTo: .microseconds(100)), feedback: true)
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        var random = SplitMix64(seed: 3)
        var locked = 0
        var judged = 0
        DisplayLink { link in
            if link.frameIndex > 300 {
                judged += 1
                if source.isPhaseLocked { locked += 1 }
            }
            let unit = Double(random.next() >> 11) / Double(1 << 53)
            lab.work(for: .nanoseconds(2_000_000 + Int64(unit * 4_900_000)))
        }.add(to: loop, forMode: .common)
        loop.run(frames: 3_000)
        #expect(locked * 10 >= judged * 9, "phase-locked \(locked) of \(judged)")
        #expect(loop.statistics.droppedFrames == lab.missedRefreshes)
    }

    @Test("the stated precision never traps, whatever vsync it is asked about")
    func uncertaintyFarAway() {
        var grid = _VsyncGrid(nominalPeriod: 16_666_667)
        var random = SplitMix64(seed: 9)
        for vsync in 0..<Int64(200) {
            grid.add(returnTime: 1_000_000 + vsync * 16_666_667 + Int64(random.next() % 300_000))
        }
        for number: Int64 in [.min / 2, -1_000_000_000_000, 0, 200, 1_000_000_000_000, .max / 2] {
            #expect(grid.uncertainty(ofNumber: number) >= 0)
        }
    }
}
