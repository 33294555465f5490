/// A frame source on virtual time, for deterministic tests of games and of FrameLink itself.
///
/// A manual source is a ``VirtualClock`` and a frame grid: time starts at zero and moves only when
/// you say so, and never backwards, and nothing waits in real time. Frames land on an exact
/// nanosecond grid at ``refreshRate``: `advance(frames:)` runs the attached loop one frame per grid
/// point; `advance(by:)` runs a single long frame, as a stall or a dropped frame would. Nothing
/// sleeps, so a test of 24 hours of frames runs in seconds.
///
/// ```swift
/// let source = ManualFrameSource(refreshRate: .hz60)
/// let loop = FrameLoop(source: source)
/// let link = DisplayLink { link in print(link.timestamp) }
/// link.add(to: loop, forMode: .common)
/// source.advance(frames: 3)          // 0.016666666 s, 0.033333333 s, 0.050000000 s
/// source.advance(by: .seconds(5.5))  // one frame, 5.5 s later
/// ```
@MainActor
public final class ManualFrameSource: FrameSource {
    /// The rate of the frame grid: the virtual display's (``displayRefreshRate``), or while a
    /// frame-rate range is requested (`requestFrameRate(in:)`) the even rate chosen for it.
    public private(set) var refreshRate: FrameRate

    /// The rate of the virtual display.
    public let displayRefreshRate: FrameRate

    /// The rate chosen for the requested range, and why; `nil` while none is requested.
    public private(set) var frameRateChoice: FrameRateChoice?

    /// The virtual clock: it moves only when the source advances it.
    private let virtualClock = VirtualClock()

    /// The source's ``VirtualClock``, which the loop's waits jump.
    public var clock: any PacingClock { virtualClock }

    /// Zero: virtual time starts at zero.
    @_spi(FrameSourceImplementation) public var epochNanoseconds: Int64 { 0 }

    /// The current virtual time; starts at zero.
    public var now: FrameInstant { FrameInstant(nanoseconds: virtualClock.now) }

    private weak var loop: FrameLoop?
    private var pendingInterval: Int64?
    private var lastFrameTime: Int64 = 0
    private var replayTimestamps: [Int64] = []
    /// The recorded drops of the interval ending at each replayed timestamp.
    private var replayDrops: [Int] = []
    /// Whether each replayed frame ends an idle gap: its interval is not booked.
    private var replayResynchronizes: [Bool] = []
    private var replayPosition = 0
    private var replayedDrops: Int?
    /// The recorded intervals, by replay position (nil for a frame the replay adds before the first
    /// record or after an idle gap).
    private var replayRecords: [FrameRecord?] = []
    /// The record of the interval that ended at the last frame boundary, while replaying: the loop
    /// books it with the recording's phases (see ``FrameStatistics``'s booking).
    private(set) var recordAtLastBoundary: FrameRecord?
    private let isReplay: Bool

    /// Creates a virtual display refreshing at `refreshRate` (60 Hz unless told otherwise).
    public init(refreshRate: FrameRate = .hz60) {
        self.refreshRate = refreshRate
        displayRefreshRate = refreshRate
        isReplay = false
    }

    /// Creates a source that replays a recorded ``FrameLog``: the first frame lands where the first
    /// recorded interval began and each later frame at a record's timestamp, so a loop driven for
    /// ``replayFrameCount`` frames reproduces the recording's intervals, dropped frames and
    /// percentiles. After the last recorded frame, frames continue on the grid.
    ///
    /// A recording with idle stretches (no display link active, so no frames were booked) has gaps
    /// between records; each gap is replayed as one frame at the start of the next recorded
    /// interval, whose own interval is not booked (the loop resynchronizes there), so the idle time
    /// never shows up as a long frame. (The replaying loop's frame numbers then count its own
    /// frames, one per gap, not the idle frames of the recording.)
    ///
    /// The log is checked first (``FrameLog/validate()``), as a log read from a file is.
    ///
    /// - Throws: ``FrameLinkError/frameLog(_:)`` naming the first wrong record and field.
    public init(replaying log: FrameLog) throws(FrameLinkError) {
        try log.validate()
        refreshRate = FrameRate(period: .nanoseconds(log.periodNanoseconds))
        displayRefreshRate = refreshRate
        isReplay = true
        var previous: Int64?
        for record in log.records {
            // The start of an interval that does not begin at the previous record: the frame
            // before the first record, or the end of an idle gap. Validation keeps it at or after
            // time zero and after the previous record.
            let start = record.timestampNanoseconds - record.intervalNanoseconds
            if let previous, start > previous {
                appendReplayed(start, drops: 0, resynchronizes: true, record: nil)
            } else if previous == nil, record.intervalNanoseconds > 0 {
                appendReplayed(start, drops: 0, resynchronizes: false, record: nil)
            }
            appendReplayed(
                record.timestampNanoseconds, drops: record.droppedFrames, resynchronizes: false, record: record)
            previous = record.timestampNanoseconds
        }
    }

    /// The number of frames that replay the whole recording: its records, the frame before the
    /// first, and one frame per idle gap (0 for a source that does not replay).
    public var replayFrameCount: Int { replayTimestamps.count }

    private func appendReplayed(_ timestamp: Int64, drops: Int, resynchronizes: Bool, record: FrameRecord?) {
        replayRecords.append(record)
        replayTimestamps.append(timestamp)
        replayDrops.append(drops)
        replayResynchronizes.append(resynchronizes)
    }

    /// Describes the virtual display.
    public var pacingDescription: String {
        isReplay ? "replay of a recorded frame log at \(refreshRate)" : "virtual time at \(refreshRate)"
    }

    /// Creates a virtual display whose frames are `period` apart.
    ///
    /// - Precondition: Stops the program, with a `FrameLinkError.invalidFrameRate` message, if `period` is not positive.
    public convenience init(period: Duration) {
        self.init(refreshRate: FrameRate(period: period))
    }

    /// Runs frames at the even rate in `range` closest to its preferred rate, a whole division of
    /// the virtual display's (``FrameRateRange/choice(dividing:)``), or on every refresh again for
    /// `nil`. The grid keeps its origin: frames land on every k-th refresh of the display.
    @_spi(FrameSourceImplementation) public func requestFrameRate(in range: FrameRateRange?) {
        frameRateChoice = range.map { $0.choice(dividing: displayRefreshRate) }
        refreshRate = frameRateChoice?.rate ?? displayRefreshRate
    }

    /// Remembers the loop that `advance` drives.
    @_spi(FrameSourceImplementation) public func attach(to loop: FrameLoop) {
        self.loop = loop
    }

    /// Runs `frames` frames of the attached loop, each on the next point of the frame grid.
    ///
    /// Without an attached loop it only moves time. Virtual time never goes backwards: a negative
    /// count runs nothing (see <doc:TestingWithManualFrameSource>, "Time never goes backwards").
    public func advance(frames: Int = 1) {
        for _ in 0..<max(0, frames) {
            if let loop {
                loop.runFrame()
            } else {
                virtualClock.sleep(untilNanoseconds: nextGridPoint().nanoseconds)
                lastFrameTime = now.nanoseconds
            }
        }
        settleMainQueue()
    }

    /// On the main thread, lets tasks woken by the last frame run before `advance` returns, so a
    /// test sees their effects at once. Nothing waits in real time.
    private func settleMainQueue() {
        guard loop?.drainsMainQueue == true else { return }
        MainQueueDrain.drainWithoutWaiting()
    }

    /// Runs one frame of the attached loop `interval` after the last frame: a long frame, as after
    /// a stall. Later frames continue on the grid. (Without an attached loop it moves time by
    /// `interval` from now.)
    ///
    /// Virtual time never goes backwards: an interval of zero or less does nothing.
    public func advance(by interval: Duration) {
        guard interval > .zero else { return }
        let nanoseconds = FrameLinkError.requiredNanoseconds(interval, what: "advance(by:)")
        if let loop {
            pendingInterval = nanoseconds
            loop.runFrame()
            settleMainQueue()
        } else {
            virtualClock.advance(nanoseconds: nanoseconds)
            lastFrameTime = now.nanoseconds
        }
    }

    /// Moves virtual time forward inside the current frame, as if a callback had worked that long;
    /// call it from a callback to simulate a slow one (the next frame then comes late, and the drop
    /// is blamed on that callback).
    ///
    /// Virtual time never goes backwards: a duration of zero or less does nothing.
    public func simulateWork(for duration: Duration) {
        guard duration > .zero else { return }
        virtualClock.advance(nanoseconds: FrameLinkError.requiredNanoseconds(duration, what: "simulateWork(for:)"))
    }

    /// Runs frames on the grid until the time is at or after `instant`.
    ///
    /// Virtual time never goes backwards: an instant at or before now runs nothing and leaves the
    /// time as it is, as swift-nio's `EmbeddedEventLoop` does ("we can't time travel"). A test that
    /// asks for the past then fails on its own expectations, and the other tests of the run go on.
    public func advance(to instant: FrameInstant) {
        while now < instant {
            advance(frames: 1)
        }
    }

    /// A wait until the next frame: the next grid point, the end of a pending long frame
    /// (``advance(by:)``), or the next recorded timestamp while replaying. The loop's waiter jumps
    /// the virtual clock there.
    @_spi(FrameSourceImplementation) public func nextFrameWait() -> FrameWait {
        let next: Int64
        if let interval = pendingInterval {
            pendingInterval = nil
            next = lastFrameTime + interval
            replayedDrops = nil
            recordAtLastBoundary = nil
        } else if replayPosition < replayTimestamps.count {
            next = replayTimestamps[replayPosition]
            replayedDrops = replayDrops[replayPosition]
            recordAtLastBoundary = replayRecords[replayPosition]
            if replayResynchronizes[replayPosition] { loop?.resync() }
            replayPosition += 1
        } else {
            replayedDrops = nil
            recordAtLastBoundary = nil
            next = nextGridPoint().nanoseconds
        }
        return .sleep(until: FrameInstant(nanoseconds: next))
    }

    /// The same wait as `nextFrameWait()`: the virtual display keeps refreshing while the loop
    /// is idle, so tests advance in frames whether or not a link is active.
    @_spi(FrameSourceImplementation) public func idleWait(until deadline: FrameInstant?) -> FrameWait {
        nextFrameWait()
    }

    /// The virtual time the wait reached: the frame's timestamp.
    @_spi(FrameSourceImplementation) public func beginFrame(at instant: FrameInstant) -> FrameInstant {
        lastFrameTime = instant.nanoseconds
        return instant
    }

    /// While replaying, the drops recorded for the interval that just ended (a vsync-locked source
    /// may have counted fewer than the interval holds); else `nil`.
    @_spi(FrameSourceImplementation) public var droppedFramesAtLastBoundary: Int? { replayedDrops }

    /// The grid point `frames` frames after `timestamp` (the time of the next grid point when
    /// `timestamp` is off the grid, after a long frame).
    @_spi(FrameSourceImplementation) public func expectedTimestamp(frames: Int64, after timestamp: FrameInstant)
        -> FrameInstant
    {
        let index = refreshRate.frameIndex(atOrAfter: timestamp.nanoseconds + 1) + frames - 1
        return FrameInstant(nanoseconds: refreshRate.offsetNanoseconds(ofFrame: index))
    }

    private func nextGridPoint() -> FrameInstant {
        let index = refreshRate.frameIndex(atOrAfter: now.nanoseconds + 1)
        return FrameInstant(nanoseconds: refreshRate.offsetNanoseconds(ofFrame: index))
    }
}
