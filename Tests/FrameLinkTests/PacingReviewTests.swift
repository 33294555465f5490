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

    /// What a run on a 48–144 Hz variable-refresh display with presentation feedback showed from
    /// frame 300 on: how many frames were phase-locked of how many, the worst claimed vsync's
    /// distance from the truth, and the source's mode, drops and the lab's truth.
    struct VariableRefreshRun {
        var locked = 0
        var judged = 0
        var worstClaimed: Int64 = 0
        var mode = PresentSource.Mode.deadline
        var description = ""
        var dropped = 0
        var missed = 0
    }

    static func runVariableRefresh(
        jitter: PresentJitter, frames: Int, work: @escaping @MainActor () -> Duration
    ) -> VariableRefreshRun {
        let lab = DisplayLab(
            refresh: .variable(minimum: FrameRate(numerator: 48), maximum: .hz144), jitter: jitter, feedback: true)
        let source = lab.makeSource()
        let loop = FrameLoop(source: source)
        var run = VariableRefreshRun()
        DisplayLink { link in
            if link.frameIndex > 300 {
                run.judged += 1
                if source.isPhaseLocked { run.locked += 1 }
                if source.timestampFollowsVsync {
                    run.worstClaimed = max(run.worstClaimed, nearestRefreshError(lab, link.timestamp))
                }
            }
            lab.work(for: work())
        }.add(to: loop, forMode: .common)
        loop.run(frames: frames)
        run.mode = source.mode
        run.description = source.pacingDescription
        run.dropped = loop.statistics.droppedFrames
        run.missed = lab.missedRefreshes
        return run
    }

    @Test("VRR at its fastest rate with feedback, presents 60 µs before each refresh: vsync, locked, no false drops")
    func variableRefreshPresentJustBeforeRefresh() {
        let run = Self.runVariableRefresh(jitter: .none, frames: 1_200) {
            .nanoseconds(FrameRate.hz144.periodNanoseconds - 60_000)
        }
        #expect(run.mode == .vsync, "\(run.description)")
        #expect(run.locked == run.judged, "phase-locked \(run.locked) of \(run.judged)")
        #expect(run.dropped == run.missed)
    }

    @Test(
        "VRR at its fastest rate with feedback, presents just before a refresh with jitter: vsync and locked",
        arguments: [6_800, 6_850])
    func variableRefreshAtMaximum(workMicroseconds: Int) {
        let run = Self.runVariableRefresh(jitter: .uniform(upTo: .microseconds(60)), frames: 1_500) {
            .microseconds(Int64(workMicroseconds))
        }
        #expect(run.mode == .vsync, "\(run.description)")
        #expect(run.locked * 10 >= run.judged * 9, "phase-locked \(run.locked) of \(run.judged)")
        #expect(run.worstClaimed <= 100_000, "a claimed vsync \(run.worstClaimed) ns from the truth")
        #expect(run.dropped == run.missed)
    }

    @Test(
        "VRR at its fastest rate with feedback and varying work: the lock holds (92 % before the fix's cause), no false drops"
    )
    func variableRefreshVaryingWork() {
        var random = SplitMix64(seed: 3)
        let run = Self.runVariableRefresh(jitter: .uniform(upTo: .microseconds(100)), frames: 3_000) {
            let unit = Double(random.next() >> 11) / Double(1 << 53)
            return .nanoseconds(2_000_000 + Int64(unit * 4_900_000))
        }
        #expect(run.locked * 10 >= run.judged * 9, "phase-locked \(run.locked) of \(run.judged)")
        #expect(run.dropped == run.missed)
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
