import FrameLink

/// The monotonic clock plus the time skipped so far: a "sleep" skips ahead instead of waiting, so
/// the loop never waits while its clock reads (and costs) what the real one does.
@MainActor
final class SkippingClock: PacingClock {
    private var skipped: Int64 = 0
    var sleepsInRealTime: Bool { false }
    func nanoseconds() -> Int64 { MonotonicClock.nanoseconds() &+ skipped }
    func sleep(untilNanoseconds deadline: Int64) {
        let current = nanoseconds()
        if deadline > current { skipped += deadline - current }
    }
}
