import Foundation

@testable import FrameLinkSDL

#if canImport(Glibc)
    import Glibc
#endif

/// A display as `GLX_OML_sync_control` tells of it, in the semantics of Mesa's DRI3 GLX: refreshes
/// every `period` from `firstRefresh`; each swap is shown at the first refresh after it is made
/// (after `latchMargin` before that refresh; one later otherwise) and never at the refresh of the
/// swap before (first in, first out); `glXGetSyncValuesOML` gives the latest refresh's UST and MSC
/// and the swaps completed by now; `glXWaitForSbcOML` gives the newest completed swap's UST and
/// MSC. UST counts `ustNanoseconds` of `ustClock` (`CLOCK_MONOTONIC` plus `ustOffset`).
///
/// It keeps the truth: when and at which refresh each swap was shown.
final class FakeSyncControlDisplay {
    let period: Int64
    let firstRefresh: Int64
    var latchMargin: Int64 = 0
    var ustNanoseconds: Int64 = 1_000
    var ustOffset: Int64 = 0
    /// The wall clock's lead over `CLOCK_MONOTONIC`: `ustOffset` unless set (a UST on the wall clock).
    var wallClockOffset: Int64?
    /// The SBC before the first swap (swaps made before the test).
    var baseSBC: Int64 = 0
    /// Swaps counted that nobody made (another client swapping the window): added to the SBC.
    var foreignSwaps: Int64 = 0
    /// The clock: `CLOCK_MONOTONIC` nanoseconds.
    let now: () -> Int64
    /// Waits until a time on that clock (`glXWaitForSbcOML(0)` blocks until every swap is shown),
    /// or `nil` to answer at once.
    var waitUntil: ((Int64) -> Void)?

    /// When and at which refresh each swap made is shown, in order.
    private(set) var shown: [(time: Int64, msc: Int64)] = []

    init(period: Int64, firstRefresh: Int64, now: @escaping () -> Int64) {
        self.period = period
        self.firstRefresh = firstRefresh
        self.now = now
    }

    /// The refresh count at `time`: refreshes at or before it.
    func msc(at time: Int64) -> Int64 { time < firstRefresh ? 0 : (time - firstRefresh) / period }

    /// When refresh `msc` happened.
    func refreshTime(_ msc: Int64) -> Int64 { firstRefresh + msc * period }

    /// Makes a swap now.
    func swap() {
        let time = now()
        var target = msc(at: time) + 1
        if refreshTime(target) - time < latchMargin { target += 1 }
        if let last = shown.last { target = max(target, last.msc + 1) }
        shown.append((refreshTime(target), target))
    }

    /// Swaps completed by now.
    var completed: Int64 { Int64(shown.prefix { $0.time <= now() }.count) }

    func ust(ofTime time: Int64) -> Int64 { (time + ustOffset) / ustNanoseconds }

    /// `glXGetSyncValuesOML`.
    func latestRefresh() -> _SyncControlLedger.Values {
        let refresh = msc(at: now())
        return .init(ust: ust(ofTime: refreshTime(refresh)), msc: refresh, sbc: baseSBC + foreignSwaps + completed)
    }

    /// `glXWaitForSbcOML` for a count reached, or 0: every swap made (waiting with `waitUntil`).
    func newestSwap(target: Int64) -> _SyncControlLedger.Values? {
        if target == 0, let last = shown.last, last.time > now() { waitUntil?(last.time) }
        let done = completed
        guard target == 0 || target <= baseSBC + foreignSwaps + done else { return nil }
        guard done > 0 else { return .init(ust: 0, msc: 0, sbc: baseSBC + foreignSwaps) }
        let newest = shown[Int(done) - 1]
        return .init(ust: ust(ofTime: newest.time), msc: newest.msc, sbc: baseSBC + foreignSwaps + done)
    }

    /// Reads a clock in nanoseconds: `CLOCK_MONOTONIC`, and the UST's other clock.
    func readClock(_ id: Int32) -> Int64? {
        switch id {
        case Int32(CLOCK_MONOTONIC): now()
        case Int32(CLOCK_REALTIME): now() + (wallClockOffset ?? ustOffset)
        default: nil
        }
    }

    /// The readers a `_GLXSyncControl` takes.
    func readers() -> _GLXSyncControl.Readers {
        _GLXSyncControl.Readers(
            latestRefresh: { [self] in latestRefresh() },
            newestSwap: { [self] target in newestSwap(target: target) },
            clock: { [self] id in readClock(id) })
    }
}
