/// Latency mode's controller (``FrameLoop/minimizesInputLatency``): when a frame should begin so
/// that it reads input as late as it can and still makes the vsync it targets.
///
/// The latest start is the frame's target minus the predicted frame cost minus a safety margin.
/// The prediction is the 99th percentile of the last 120 frame costs (2 s at 60 Hz), so that one
/// slow frame in a hundred is covered without letting a single outlier set it. The margin is closed
/// loop: a frame that runs past its target widens it at once (to twice itself, or by what the frame
/// ran over, whichever is more, so the next frame makes it), and every 300 frames in a row with
/// time to spare narrow it by a tenth (5 s at 60 Hz: slowly, so a rare spike is not invited back),
/// never under 0.5 ms (the wake-up and the present's own cost need some room) nor over half a
/// period (beyond that latency mode buys little).
struct _LatencyPacer {
    /// Frame costs remembered.
    static let window = 120
    /// The percentile of recent costs the prediction covers.
    static let coveredPercentile = 99
    /// Costs needed before frames are started late: 8 (until then they start at their boundary).
    static let minimumSamples = 8
    /// The margin at start: 1 ms.
    static let initialMargin: Int64 = 1_000_000
    /// The smallest margin: 0.5 ms.
    static let minimumMargin: Int64 = 500_000
    /// Frames in a row with time to spare before the margin narrows by a tenth.
    static let narrowingRun = 300
    /// After ``narrowingRun`` frames with room, the margin narrows by itself divided by this: a
    /// tenth, slowly (a miss widens it at once, by at least double).
    static let narrowingDivisor: Int64 = 10
    /// The margin never grows beyond a period divided by this: half (beyond that latency mode buys
    /// little).
    static let widestMarginDivisor: Int64 = 2

    private var costs = _Ring(capacity: window)
    /// The safety margin now, in nanoseconds.
    private(set) var margin = initialMargin
    private var framesWithRoom = 0

    /// The latest time a frame targeting `target` may begin (nanoseconds on the source's timeline),
    /// or nil while costs are still being learnt.
    mutating func latestStart(target: Int64) -> Int64? {
        guard costs.count >= Self.minimumSamples else { return nil }
        return target - costs.percentile(Self.coveredPercentile) - margin
    }

    /// Takes in a frame that began at `start`, targeted `target`, and whose work took `cost`.
    mutating func noteFrame(start: Int64, target: Int64, cost: Int64, period: Int64) {
        costs.append(max(0, cost))
        let overrun = start + cost - target
        if overrun > 0 {
            framesWithRoom = 0
            margin = min(max(margin * 2, margin + overrun), max(Self.minimumMargin, period / Self.widestMarginDivisor))
        } else {
            framesWithRoom += 1
            if framesWithRoom >= Self.narrowingRun {
                framesWithRoom = 0
                margin = max(Self.minimumMargin, margin - margin / Self.narrowingDivisor)
            }
        }
    }

    /// Takes in a frame the display really showed late (a drop booked while in latency mode): the
    /// margin widens as for a predicted overrun.
    mutating func noteMiss(period: Int64) {
        framesWithRoom = 0
        margin = min(margin * 2, max(Self.minimumMargin, period / Self.widestMarginDivisor))
    }

    /// Starts over (latency mode turned off and on again).
    mutating func reset() {
        costs.removeAll()
        margin = Self.initialMargin
        framesWithRoom = 0
    }
}
