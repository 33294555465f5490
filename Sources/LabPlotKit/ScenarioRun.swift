@_spi(FrameSourceImplementation) import FrameLink

/// A plotted scenario's run: a ``FrameLoop`` and a ``DisplayLink`` driven by a ``PresentSource`` on
/// a ``DisplayLab``, on the lab's virtual time (nothing sleeps), and every frame's timestamp matched
/// to the lab's ground truth.
///
/// ```swift
/// let run = try ScenarioRun(try PlotScenario(jitter: .microseconds(300)))
/// print(run.lockedTimestampErrors?.description ?? "never phase-locked")
/// try VsyncChart(run: run).svg().write(…)
/// ```
package struct ScenarioRun: Sendable {
    /// The scenario that ran.
    package let scenario: PlotScenario
    /// Every frame of the loop, in order.
    package let samples: [FrameSample]
    /// The phase locks, the move and the hide, in the order they happened.
    package let events: [PlotEvent]
    /// The source's pacing description at the end, such as
    /// `"vsync (60 Hz measured, phase-locked): present blocks for 16.1 ms …"`.
    package let pacingDescription: String
    /// The refresh rate the source measured by the end, if it did.
    package let measuredRefreshRate: FrameRate?
    /// The dropped frames the loop counted.
    package let droppedFrames: Int
    /// The refreshes on which the display really showed an old frame again (the lab's truth).
    package let missedRefreshes: Int
    /// How many times the source re-fitted its grid after returns stopped fitting it.
    package let vsyncRelocks: Int

    /// Runs `scenario` to its last frame.
    ///
    /// - Parameter scenario: The scenario to run.
    /// - Throws: ``ScenarioError`` if the lab refuses the display (a scenario's checks make that
    ///   unlikely).
    @MainActor
    package init(_ scenario: PlotScenario) throws(ScenarioError) {
        let lab: DisplayLab
        do {
            lab = try DisplayLab(
                refresh: .fixed(scenario.refreshRate), buffers: scenario.buffers,
                jitter: PresentJitter.uniform(upTo: scenario.jitter), seed: scenario.seed)
        } catch {
            throw ScenarioError("the display lab refused the scenario: \(error)")
        }
        let source = lab.makeSource()
        source.swapChainBuffers = scenario.buffers
        let loop = FrameLoop(source: source)
        let recorder = _FrameRecorder(frames: scenario.frames)
        let link = DisplayLink { link in
            let index = link.frameIndex
            let period: Int64
            if case .fixed(let rate, _) = lab.refresh { period = rate.periodNanoseconds } else { period = 0 }
            recorder.record(
                FrameSample(
                    index: index, timestamp: link.timestamp, trueVsync: nil, presentReturn: nil,
                    isPhaseLocked: source.isPhaseLocked, mode: source.mode),
                presentIndex: lab.frames.count - 1, period: period)
            if let hidden = scenario.hiddenFrames {
                if index == hidden.lowerBound { lab.isHidden = true }
                if index == hidden.upperBound { lab.isHidden = false }
            }
            if let move = scenario.move, index == move.frame {
                do throws(FrameLinkError) {
                    try lab.changeRefresh(to: .fixed(move.refreshRate))
                    // The host learns of the move (SDL's display-changed event) and says so.
                    source.displayRefreshRate = move.refreshRate
                } catch {
                    recorder.labError = error
                }
            }
            lab.work(for: scenario.work)
        }
        link.label = "lab frame work"
        link.add(to: loop, forMode: .common)
        loop.run(frames: scenario.frames)
        link.invalidate()
        if let labError = recorder.labError {
            throw ScenarioError("the display lab refused the move: \(labError)")
        }

        self.scenario = scenario
        samples = Self.matched(recorder, to: lab.frames, refreshes: _RefreshTimes(times: lab.refreshTimes))
        events = Self.events(of: samples, in: scenario)
        pacingDescription = source.pacingDescription
        measuredRefreshRate = source.measuredRefreshRate
        droppedFrames = loop.statistics.droppedFrames
        missedRefreshes = lab.missedRefreshes
        vsyncRelocks = source.vsyncRelocks
    }

    /// The first frame whose grid was phase-locked, if any.
    package var firstLockedFrame: FrameSample? {
        samples.first { $0.isPhaseLocked }
    }

    /// The size of the timestamps' errors on every frame the grid was phase-locked, if any was.
    package var lockedTimestampErrors: ErrorStatistics? {
        ErrorStatistics(errors: samples.filter(\.isPhaseLocked).compactMap(\.timestampError))
    }

    /// The size of the present returns' delays on the same frames: the error a timestamp taken at
    /// the return would have.
    package var lockedReturnDelays: ErrorStatistics? {
        ErrorStatistics(errors: samples.filter(\.isPhaseLocked).compactMap(\.returnDelay))
    }

    /// The recorded frames with their ground truth: the boundary's present return, if it waited for
    /// a vsync, and the true vsync the timestamp stands for (see ``FrameSample``).
    @MainActor
    private static func matched(
        _ recorder: _FrameRecorder, to frames: [LabFrame], refreshes: _RefreshTimes
    ) -> [FrameSample] {
        var samples = recorder.samples
        for position in samples.indices {
            let presentIndex = recorder.presentIndices[position]
            guard frames.indices.contains(presentIndex) else { continue }
            let present = frames[presentIndex]
            let waited = (present.returnedAt - present.presentedAt).wholeNanoseconds >= recorder.periods[position] / 8
            if waited {
                samples[position].presentReturn = present.returnedAt
                samples[position].trueVsync = refreshes.last(atOrBefore: present.returnedAt)
            } else {
                samples[position].trueVsync = refreshes.first(after: present.returnedAt)
            }
        }
        return samples
    }

    /// The phase locks (each time the grid became locked), the move and the hide, in time order
    /// (events at the same time in the order they were found).
    private static func events(of samples: [FrameSample], in scenario: PlotScenario) -> [PlotEvent] {
        var events: [PlotEvent] = []
        var wasLocked = false
        var locks = 0
        for sample in samples {
            if sample.isPhaseLocked && !wasLocked {
                events.append(.phaseLocked(frame: sample.index, at: sample.timestamp, isFirst: locks == 0))
                locks += 1
            }
            wasLocked = sample.isPhaseLocked
            if let move = scenario.move, sample.index == move.frame {
                events.append(.moved(frame: move.frame, at: sample.timestamp, rate: move.refreshRate))
            }
            if let hidden = scenario.hiddenFrames, sample.index == hidden.upperBound,
                let from = samples.first(where: { $0.index == hidden.lowerBound })
            {
                events.append(.hidden(frames: hidden, from: from.timestamp, to: sample.timestamp))
            }
        }
        return events.sorted { $0.instant < $1.instant }
    }
}
