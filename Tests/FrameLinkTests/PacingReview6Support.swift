import Foundation
import Testing

@testable @_spi(FrameSourceImplementation) import FrameLink

/// Review 6 harness (written by the independent reviewer): a scenario on the display lab with per-frame events, judged against the lab's
/// ground truth (loop frame i draws lab frame i, presented at the start of loop frame i + 1).
@MainActor
final class R6 {
    struct Frame {
        var index: Int64
        var timestamp: Int64
        var target: Int64
        var delta: Int64
        var dropped: Int
        var follows: Bool
        var locked: Bool
        var mode: PresentSource.Mode
        var state: PacingState
        var rate: FrameRate
    }

    struct Config {
        var refresh: DisplayLab.Refresh
        var buffers = 2
        var declaredBuffers: Int?
        var jitter = PresentJitter.uniform(upTo: .microseconds(300))
        var seed: UInt64 = 3
        var feedback = false
        var frames = 1200
        var cap: FrameRate?
        var pacing = PresentSource.Pacing.automatic
        /// Work in ns for loop frame `index`.
        var work: @MainActor (Int64) -> Int64 = { _ in 5_000_000 }
        /// Events run inside the link before the work.
        var events: @MainActor (Int64, R6) -> Void = { _, _ in }
        var range: FrameRateRange?
        var log = false
    }

    let config: Config
    let lab: DisplayLab
    let source: PresentSource
    let loop: FrameLoop
    var frames: [Frame] = []
    var mainLink: DisplayLink?

    init(_ config: Config, run: Bool = true) {
        self.config = config
        lab = DisplayLab(
            refresh: config.refresh, buffers: config.buffers, jitter: config.jitter, seed: config.seed,
            feedback: config.feedback)
        source = lab.makeSource(pacing: config.pacing, nominalRate: config.cap)
        source.capsAtDisplayRefreshRate = config.cap != nil
        source.swapChainBuffers = config.declaredBuffers ?? config.buffers
        loop = FrameLoop(source: source)
        loop.drainsMainQueue = false
        if let range = config.range { loop.preferredFrameRateRange = range }
        if config.log { loop.frameLog = FrameLog(capacity: config.frames + 10) }
        let link = DisplayLink { [unowned self] link in
            self.frames.append(
                Frame(
                    index: link.frameIndex, timestamp: link.timestamp.nanoseconds,
                    target: link.targetTimestamp.nanoseconds, delta: link.deltaTime.ns,
                    dropped: self.loop.statistics.droppedFrames, follows: self.source.timestampFollowsVsync,
                    locked: self.source.isPhaseLocked, mode: self.source.mode, state: self.source.pacingState,
                    rate: self.source.refreshRate))
            self.config.events(link.frameIndex, self)
            self.lab.work(for: .nanoseconds(self.config.work(link.frameIndex)))
        }
        link.add(to: loop, forMode: .common)
        mainLink = link
        if run { loop.run(frames: config.frames) }
    }

    // MARK: Judging

    var truthPrefix: [Int] {
        var prefix = [0]
        for frame in lab.frames { prefix.append(prefix.last! + frame.missedRefreshes) }
        return prefix
    }

    /// Booked drops from loop frame `a` to `b` (the running total at each).
    func booked(_ a: Int64, _ b: Int64) -> Int {
        let by = Dictionary(frames.map { ($0.index, $0.dropped) }, uniquingKeysWith: { x, _ in x })
        return (by[b] ?? frames.last!.dropped) - (by[a] ?? 0)
    }

    /// Missed refreshes of lab frames presented by loop frames a..<b.
    func missed(_ a: Int64, _ b: Int64) -> Int {
        let hi = min(Int(b), lab.frames.count)
        let lo = min(Int(a), hi)
        return lab.frames[lo..<hi].reduce(0) { $0 + $1.missedRefreshes }
    }

    /// The index of the first true refresh after `t` (the count when there is none).
    func firstRefreshIndex(after t: Int64) -> Int {
        let times = lab.refreshTimes
        var lo = 0
        var hi = times.count
        while lo < hi {
            let m = (lo + hi) / 2
            if times[m].nanoseconds <= t { lo = m + 1 } else { hi = m }
        }
        return lo
    }

    /// The distance from `t` to the nearest true refresh.
    func nearestDistance(_ t: Int64) -> Int64 {
        let times = lab.refreshTimes
        let lo = firstRefreshIndex(after: t)
        var best = Int64.max
        if lo < times.count { best = times[lo].nanoseconds - t }
        if lo > 0 { best = min(best, t - times[lo - 1].nanoseconds) }
        return best
    }

    /// The true period about `t`: the shorter of the last two refresh intervals before it.
    func truePeriod(at t: Int64) -> Int64 {
        let times = lab.refreshTimes
        let last = min(max(firstRefreshIndex(after: t) - 1, 1), times.count - 1)
        var s = Int64.max
        for i in max(1, last - 1)...last { s = min(s, times[i].nanoseconds - times[i - 1].nanoseconds) }
        return s
    }

    struct Verdict: CustomStringConvertible {
        var booked = 0
        var missed = 0
        var followed = 0
        var judged = 0
        var tsOff: [(Int64, Int64)] = []  // (frame, error ns) > 100 µs
        var targetOff: [(Int64, Int64)] = []  // (frame, shown - target)
        var deltaOff: [(Int64, Int64)] = []
        var lockedFrames = 0
        var fastest60: Int64 = .max  // shortest 60-interval span / 60
        var description: String {
            "booked \(booked) missed \(missed); followed \(followed)/\(judged) locked \(lockedFrames); "
                + "ts off \(tsOff.count) \(tsOff.prefix(4).map { "\($0.0):\(Double($0.1) / 1e6)" }); "
                + "target off \(targetOff.count) \(targetOff.prefix(4).map { "\($0.0):\(Double($0.1) / 1e6)" }); "
                + "delta off \(deltaOff.count) \(deltaOff.prefix(4).map { "\($0.0):\(Double($0.1) / 1e6)" }); "
                + "fastest mean interval over 60 \(Double(fastest60) / 1e6) ms"
        }
    }

    /// Judges frames `a...b` (loop indices).
    func judge(_ a: Int64, _ b: Int64, fixed: Bool = true) -> Verdict {
        var v = Verdict()
        v.booked = booked(a, b)
        v.missed = missed(a, b)
        var previousFollowed = false
        for f in frames where f.index >= a && f.index <= b {
            v.judged += 1
            if f.locked { v.lockedFrames += 1 }
            defer { previousFollowed = f.follows }
            guard f.follows else { continue }
            v.followed += 1
            if fixed {
                let e = nearestDistance(f.timestamp)
                if e > 100_000 { v.tsOff.append((f.index, e)) }
                if previousFollowed {
                    let p = truePeriod(at: f.timestamp)
                    let k = max(1, (f.delta + p / 2) / p)
                    if abs(f.delta - k * p) > 100_000 { v.deltaOff.append((f.index, f.delta - k * p)) }
                }
            }
            if Int(f.index) < lab.frames.count, let shown = lab.frames[Int(f.index)].shownAt,
                lab.frames[Int(f.index)].presentedAt.nanoseconds < f.target - 100_000
            {
                let d = shown.nanoseconds - f.target
                if abs(d) > 100_000 { v.targetOff.append((f.index, d)) }
            }
        }
        let sel = frames.filter { $0.index >= a && $0.index <= b }
        if sel.count > 61 {
            for s in 0..<(sel.count - 60) {
                let span = (sel[s + 60].timestamp - sel[s].timestamp) / 60
                v.fastest60 = min(v.fastest60, span)
            }
        }
        return v
    }

    /// First frames where the booked-minus-truth running difference changes, from `a`.
    func departures(from a: Int64, limit: Int = 6) -> [String] {
        let truth = truthPrefix
        var base: Int?
        var out: [String] = []
        for f in frames where f.index >= a && Int(f.index) < truth.count {
            let d = f.dropped - truth[Int(f.index)]
            if let b = base, d != b {
                out.append("\(f.index): \(b)→\(d) \(f.mode) \(f.state.reason)")
                if out.count >= limit { break }
            }
            base = d
        }
        return out
    }
}

extension Duration {
    var ns: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }
}

extension R6 {
    /// The truth's drops under a divisor of `k` refreshes per frame, for lab frames a..<b: a frame
    /// shown (1 + missed) refreshes after the one before is an interval of that many refreshes; it
    /// drops round((1 + missed) / k) - 1 frames when over 1.5 k refreshes (half up).
    func missedAtDivisor(_ a: Int64, _ b: Int64, k: Int) -> Int {
        let hi = min(Int(b), lab.frames.count)
        let lo = min(Int(a), hi)
        var total = 0
        for frame in lab.frames[lo..<hi] where frame.shownAt != nil {
            let interval = 1 + frame.missedRefreshes
            if 2 * interval > 3 * k { total += (2 * interval + k) / (2 * k) - 1 }
        }
        return total
    }
}
