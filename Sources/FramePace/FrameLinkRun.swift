import FrameLink

/// FrameLink's deadline pacing as a `make pace` pacer: a `FrameLoop` on a `DeadlineSource` at
/// 60 Hz with one empty display link (nothing drawn), kept from one run to the next as a game
/// keeps its loop.
@MainActor
final class FrameLinkRun {
    /// The source being measured.
    let source: DeadlineSource
    /// The loop, whose waiter says what scheduling it obtained.
    let loop: FrameLoop
    private var stamps: [Int64] = []

    /// Creates the loop; `realTime` says whether its waits ask for real-time scheduling.
    init(realTime: Bool) {
        source = DeadlineSource(refreshRate: .hz60)
        loop = FrameLoop(source: source)
        loop.waiter.usesRealTimeScheduling = realTime
        DisplayLink { [unowned self] link in self.stamps.append(link.timestamp.nanoseconds) }
            .add(to: loop, forMode: .common)
    }

    /// Paces `intervals` + 1 frames; returns the intervals in milliseconds and the CPU time used
    /// over the run time, in percent of one core.
    func run(intervals: Int) -> (intervals: [Double], cpuPercent: Double) {
        stamps.removeAll(keepingCapacity: true)
        stamps.reserveCapacity(intervals + 1)
        let cpuStart = CPUTime.ofThisProcess()
        let wallStart = MonotonicClock.nanoseconds()
        loop.run(frames: intervals + 1)
        let wall = Double(MonotonicClock.nanoseconds() - wallStart) / 1e9
        let cpu = CPUTime.ofThisProcess() - cpuStart
        return (zip(stamps.dropFirst(), stamps).map { Double($0 - $1) / 1e6 }, cpu / wall * 100)
    }
}
