import CFrameLinkSDLShims
import Foundation
import Testing

@testable import FrameLink
@testable import FrameLinkSDL

#if canImport(Glibc)
    import Glibc
#endif

/// What `GLX_OML_sync_control`'s readings mean (`_SyncControlLedger`), on displays the tests make
/// (`FakeSyncControlDisplay`, virtual time): which clock a UST counts, which frame a swap made,
/// when it was shown and how many refreshes were missed, and the readings that are refused or end
/// the feedback.
@Suite struct SyncControlLedgerTests {
    typealias Values = _SyncControlLedger.Values

    /// A virtual `CLOCK_MONOTONIC`, in nanoseconds.
    final class VirtualTime {
        var now: Int64
        init(_ now: Int64) { self.now = now }
    }

    static let monotonic = Int32(CLOCK_MONOTONIC)
    static let realtime = Int32(CLOCK_REALTIME)

    /// Ten minutes after boot, and the wall clock of November 2026.
    static let bootTime: Int64 = 600_000_000_000
    static let wallClockOffset: Int64 = 1_795_000_000_000_000_000 - bootTime

    /// A clock reader for a virtual time: the monotonic clock, and the wall clock ahead of it.
    static func reader(_ time: VirtualTime) -> (Int32) -> Int64? {
        { id in
            switch id {
            case monotonic: time.now
            case realtime: time.now + wallClockOffset
            default: nil
            }
        }
    }

    /// The clock and unit of a UST are found from the latest refresh, read `age` after it.
    @Test(arguments: [
        // (UST of a refresh at bootTime, read at bootTime + age) → clock, unit, or none
        (bootTime / 1_000, Int64(5_000_000), monotonic, Int64(1_000)),  // Mesa: µs of CLOCK_MONOTONIC
        (bootTime, Int64(5_000_000), monotonic, Int64(1)),  // ns of CLOCK_MONOTONIC
        ((bootTime + wallClockOffset) / 1_000, Int64(5_000_000), realtime, Int64(1_000)),  // µs of the wall clock
        (bootTime / 1_000, Int64(-1_500_000), monotonic, Int64(1_000)),  // 1.5 ms ahead: end of blanking
        (bootTime / 1_000, Int64(1_900_000_000), monotonic, Int64(1_000)),  // 1.9 s old: no display's timer
    ])
    func theClockIsFoundFromTheLatestRefresh(ust: Int64, age: Int64, clockID: Int32, unit: Int64) throws {
        let time = VirtualTime(Self.bootTime + age)
        let opening = _SyncControlLedger.open(opening: Values(ust: ust, msc: 100, sbc: 7), read: Self.reader(time))
        guard case .opened(let ledger) = opening else {
            Issue.record("refused: \(opening)")
            return
        }
        #expect(ledger.ustClock.clockID == clockID)
        #expect(ledger.nanosecondsPerUnit == unit)
        #expect(ledger.baseSBC == 7)
    }

    /// A UST that fits no clock (milliseconds, a time in the future, a refresh older than two
    /// seconds, zero, negative counters) rules the readings out with a reason.
    @Test(arguments: [
        (Values(ust: bootTime / 1_000_000, msc: 1, sbc: 0), PresentationFeedback.SyncControlFault.unknownClock),
        (Values(ust: (bootTime + 3_000_000) / 1_000, msc: 1, sbc: 0), .unknownClock),
        (Values(ust: (bootTime - 2_100_000_000) / 1_000, msc: 1, sbc: 0), .unknownClock),
        (Values(ust: 0, msc: 0, sbc: 0), .unknownClock),
        (Values(ust: Int64.max, msc: 0, sbc: 0), .unknownClock),
        (Values(ust: bootTime / 1_000, msc: -1, sbc: 0), .countOutOfRange),
        (Values(ust: bootTime / 1_000, msc: 1, sbc: -5), .countOutOfRange),
        (Values(ust: bootTime / 1_000, msc: 1, sbc: Int64.max - 3), .countOutOfRange),
    ])
    func readingsThatFitNoClockAreRuledOut(opening: Values, fault: PresentationFeedback.SyncControlFault) {
        let time = VirtualTime(Self.bootTime)
        let result = _SyncControlLedger.open(opening: opening, read: Self.reader(time))
        guard case .unusable(let found) = result else {
            Issue.record("accepted \(opening)")
            return
        }
        #expect(found == fault)
    }

    /// A ledger on `display`, opened now.
    static func ledger(on display: FakeSyncControlDisplay) throws -> _SyncControlLedger {
        let opening = _SyncControlLedger.open(opening: display.latestRefresh(), read: display.readClock)
        guard case .opened(let ledger) = opening else { throw CocoaError(.featureUnsupported) }
        return ledger
    }

    /// Frames at every refresh: each swap is reported at its refresh, with its frame, and none
    /// missed; a frame that takes two refreshes is reported with one missed.
    @Test func eachSwapIsReportedWithItsFrameRefreshAndMissedRefreshes() throws {
        let time = VirtualTime(Self.bootTime)
        let display = FakeSyncControlDisplay(period: 16_666_667, firstRefresh: Self.bootTime - 1_000_000) { time.now }
        display.baseSBC = 40
        var ledger = try Self.ledger(on: display)
        var reports: [(frame: Int64?, time: Int64, msc: Int64, missed: Int?)] = []
        for (index, cost) in [4, 4, 4, 20, 4, 4].map({ Int64($0) * 1_000_000 }).enumerated() {
            ledger.swapWillBegin(frame: Int64(index + 1) * 10)
            display.swap()
            time.now = display.refreshTime(display.shown.last!.msc) + cost
            guard case .readNewestSwap(let target) = ledger.latestRefreshRead(display.latestRefresh()) else {
                Issue.record("swap \(index) not read as completed")
                continue
            }
            guard
                case .shown(let frame, let shown, _, let msc, let missed) = ledger.newestSwapRead(
                    try #require(display.newestSwap(target: target)))
            else {
                Issue.record("swap \(index) not shown")
                continue
            }
            reports.append((frame, shown, msc, missed))
        }
        #expect(reports.map(\.frame) == [10, 20, 30, 40, 50, 60])
        #expect(reports.map(\.time) == display.shown.map { $0.time / 1_000 * 1_000 })
        #expect(reports.map(\.msc) == display.shown.map(\.msc))
        // The first has no swap before it; the fourth frame's 20 ms made the fifth miss one refresh.
        #expect(reports.map(\.missed) == [nil, 0, 0, 0, 1, 0])
        #expect(ledger.swapsInFlight == 0)
    }

    /// A swap count that goes back or beyond the swaps made ends the feedback; a latest refresh
    /// whose time does not fit the clock now is no reading; a refresh count that goes back is a
    /// counter that restarted (no missed count across it); a newest swap at a refresh after the
    /// latest read (DRI2 answers with the server's newest) is taken when its time fits.
    @Test func brokenRulesStopTheFeedbackAndUnfitTimesAreNoReading() throws {
        let time = VirtualTime(Self.bootTime)
        let display = FakeSyncControlDisplay(period: 16_666_667, firstRefresh: Self.bootTime - 1_000_000) { time.now }
        var ledger = try Self.ledger(on: display)
        ledger.swapWillBegin(frame: 1)
        display.swap()
        time.now += 20_000_000
        var latest = display.latestRefresh()
        // A refresh time 5 ms in the future, then one 3 s old, then UST 0: no reading, nothing changes.
        let nowInMicroseconds = time.now / 1_000
        for ust in [nowInMicroseconds + 5_000, nowInMicroseconds - 3_000_000, 0] {
            #expect(ledger.latestRefreshRead(Values(ust: ust, msc: latest.msc, sbc: 1)) == .unusable)
        }
        // Refresh counts beyond any display's.
        var copy = ledger
        #expect(copy.latestRefreshRead(Values(ust: latest.ust, msc: 1 << 61, sbc: 1)) == .stop(.countOutOfRange))
        #expect(copy.latestRefreshRead(latest) == .nothing, "a stopped ledger reads nothing more")
        #expect(copy.state == .stopped(.countOutOfRange))
        #expect(ledger.latestRefreshRead(latest) == .readNewestSwap(target: 1))
        // The newest swap at a refresh after the latest read, at a time that fits: taken.
        copy = ledger
        let later = Values(ust: latest.ust + 16_667, msc: latest.msc + 1, sbc: 1)
        time.now += 16_667_000
        guard case .shown(1, _, _, let msc, _) = copy.newestSwapRead(later) else {
            Issue.record("a newest swap after the latest refresh read is not taken")
            return
        }
        #expect(msc == later.msc)
        time.now -= 16_667_000
        // Two swaps counted where the host made one.
        copy = ledger
        #expect(copy.latestRefreshRead(Values(ust: latest.ust, msc: latest.msc, sbc: 2)) == .stop(.swapNotMade))
        // The swap count going back, once a swap was read.
        guard case .shown = ledger.newestSwapRead(try #require(display.newestSwap(target: 1))) else {
            Issue.record("the swap is not shown")
            return
        }
        latest = display.latestRefresh()
        copy = ledger
        #expect(copy.latestRefreshRead(Values(ust: latest.ust, msc: latest.msc, sbc: 0)) == .stop(.countersWentBack))
        // The refresh count going back: a restart, read on.
        ledger.swapWillBegin(frame: 2)
        #expect(latest.msc > 0)
        #expect(ledger.latestRefreshRead(Values(ust: latest.ust, msc: 0, sbc: 1)) == .nothing)
        time.now += 16_667_000
        #expect(
            ledger.latestRefreshRead(Values(ust: latest.ust + 16_667, msc: 1, sbc: 2)) == .readNewestSwap(target: 2))
        guard
            case .shown(2, _, _, 1, let missed) = ledger.newestSwapRead(
                Values(ust: latest.ust + 16_667, msc: 1, sbc: 2))
        else {
            Issue.record("the swap after a counter restart is not shown")
            return
        }
        #expect(missed == nil, "no missed count across a restart")
    }

    /// A swap still in flight when the ledger opened (opening did not wait for it) shifts every
    /// count by one; the ledger stops at the first reading that shows it, at the latest once the
    /// swaps drain (a frame slower than the swaps waiting): a count beyond the swaps made, or a swap shown
    /// before it was made.
    @Test(arguments: [Int64(4_000_000), 12_000_000, 30_000_000])
    func aSwapInFlightAtOpeningIsCaughtWhenTheSwapsDrain(cost: Int64) throws {
        let time = VirtualTime(Self.bootTime)
        let display = FakeSyncControlDisplay(period: 16_666_667, firstRefresh: Self.bootTime - 1_000_000) { time.now }
        display.swap()
        var ledger = try Self.ledger(on: display)
        var stopped: PresentationFeedback.SyncControlFault?
        for frame in 1...10 {
            ledger.swapWillBegin(frame: Int64(frame))
            display.swap()
            // Frames at `cost`, and the tenth long enough for every swap to be shown (this display
            // queues swaps without limit, where a swap chain would block).
            time.now += frame == 10 ? 300_000_000 : cost
            var action = ledger.latestRefreshRead(display.latestRefresh())
            if case .readNewestSwap(let target) = action {
                action = ledger.newestSwapRead(try #require(display.newestSwap(target: target)))
            }
            if case .stop(let fault) = action {
                stopped = fault
                break
            }
        }
        #expect(stopped == .swapNotMade || stopped == .shownBeforeMade, "\(String(describing: stopped))")
    }

    /// Without vsync two swaps can complete at one refresh: both are shown, and no missed count is
    /// made up for the second (its refresh step is zero).
    @Test func twoSwapsAtOneRefreshClaimNoMissedCount() throws {
        let time = VirtualTime(Self.bootTime)
        let display = FakeSyncControlDisplay(period: 16_666_667, firstRefresh: Self.bootTime - 1_000_000) { time.now }
        var ledger = try Self.ledger(on: display)
        let latest = display.latestRefresh()
        ledger.swapWillBegin(frame: 1)
        ledger.swapWillBegin(frame: 2)
        time.now += 16_666_667
        let refresh = display.latestRefresh()
        #expect(
            ledger.latestRefreshRead(Values(ust: refresh.ust, msc: refresh.msc, sbc: 1)) == .readNewestSwap(target: 1))
        let first = ledger.newestSwapRead(Values(ust: refresh.ust, msc: refresh.msc, sbc: 1))
        #expect(
            ledger.latestRefreshRead(Values(ust: refresh.ust, msc: refresh.msc, sbc: 2)) == .readNewestSwap(target: 2))
        let second = ledger.newestSwapRead(Values(ust: refresh.ust, msc: refresh.msc, sbc: 2))
        guard case .shown(1, _, _, _, _) = first, case .shown(2, _, _, let msc, let missed) = second else {
            Issue.record("\(first) \(second)")
            return
        }
        #expect(msc == latest.msc + 1)
        #expect(missed == nil)
    }

    /// A swap shown long before it is read (the game slept in an idle loop after presenting it) is
    /// reported with its true time; a swap time after the latest refresh read is refused.
    @Test func aSwapShownLongAgoIsReportedAndOneAfterTheLatestRefreshIsRefused() throws {
        let time = VirtualTime(Self.bootTime)
        let display = FakeSyncControlDisplay(period: 16_666_667, firstRefresh: Self.bootTime - 1_000_000) { time.now }
        var ledger = try Self.ledger(on: display)
        ledger.swapWillBegin(frame: 1)
        display.swap()
        #expect(ledger.latestRefreshRead(display.latestRefresh()) == .nothing, "not shown yet")
        time.now += 5_000_000_000
        ledger.swapWillBegin(frame: 2)
        display.swap()
        let latest = display.latestRefresh()
        #expect(ledger.latestRefreshRead(latest) == .readNewestSwap(target: 1))
        var copy = ledger
        let newest = try #require(display.newestSwap(target: 1))
        #expect(copy.newestSwapRead(Values(ust: latest.ust + 1, msc: newest.msc, sbc: 1)) == .refuse)
        guard case .shown(1, let shown, _, let msc, _) = ledger.newestSwapRead(newest) else {
            Issue.record("the swap shown 5 s ago is not reported")
            return
        }
        #expect(shown == display.shown[0].time / 1_000 * 1_000)
        #expect(msc == display.shown[0].msc)
    }

    /// A run's start waits for every swap and takes the count afresh: swaps the game made itself
    /// since (two here) are not the host's, and the host's next swap is reported with its own
    /// frame; a count below the swaps the host made ends the feedback.
    @Test func resynchronizingTakesTheGamesOwnSwapsOut() throws {
        let time = VirtualTime(Self.bootTime)
        let display = FakeSyncControlDisplay(period: 16_666_667, firstRefresh: Self.bootTime - 1_000_000) { time.now }
        display.waitUntil = { time.now = max(time.now, $0) }
        var ledger = try Self.ledger(on: display)
        for frame in 1...Int64(3) {
            ledger.swapWillBegin(frame: frame)
            display.swap()
            time.now += 16_666_667
            if case .readNewestSwap(let target) = ledger.latestRefreshRead(display.latestRefresh()) {
                _ = ledger.newestSwapRead(try #require(display.newestSwap(target: target)))
            }
        }
        // The game's own two swaps (the fake counts them as made by nobody it knows).
        display.swap()
        display.swap()
        _ = try #require(display.newestSwap(target: 0))
        var broken = ledger
        #expect(ledger.resynchronize(drained: display.latestRefresh(), newestSwap: nil) == .nothing)
        #expect(ledger.baseSBC == display.baseSBC + 2)
        ledger.swapWillBegin(frame: 40)
        display.swap()
        time.now = display.shown.last!.time + 1_000_000
        let target = try #require(
            { if case .readNewestSwap(let target) = $0 { target } else { nil } }(
                ledger.latestRefreshRead(display.latestRefresh())))
        guard
            case .shown(40, let shown, _, _, _) = ledger.newestSwapRead(
                try #require(display.newestSwap(target: target)))
        else {
            Issue.record("the host's swap after the game's is not reported as its own")
            return
        }
        #expect(shown == display.shown.last!.time / 1_000 * 1_000)
        // A drained count below the host's swaps.
        var drained = display.latestRefresh()
        drained.sbc = broken.baseSBC + broken.swapsMade - 1
        #expect(broken.resynchronize(drained: drained, newestSwap: nil) == .stop(.countersWentBack))
    }

    /// The host reads GLX only where the X server offers the extension and is not Xwayland.
    @MainActor
    @Test func theHostReadsGLXOnlyWhereItCanBeTrue() {
        var opened = 0
        for (status, isXwayland, expected) in [
            (CFrameLinkSDLShims_offersSyncControl, false, "opened"),
            (CFrameLinkSDLShims_offersSyncControl, true, "xwayland"),
            (CFrameLinkSDLShims_noSyncControl, false, "without"),
            (CFrameLinkSDLShims_noOpenGL, false, "notWayland"),
            (CFrameLinkSDLShims_notX11, true, "notWayland"),
        ] {
            let opening = SDLHost.syncControlOpening(
                status: status, isXwayland: { isXwayland },
                open: {
                    opened += 1
                    return .absent(.glxSyncControlUnusable(.noReading))
                })
            let found: String =
                switch opening {
                case .absent(.glxSyncControlUnusable(.noReading)): "opened"
                case .absent(.glxSyncControlUnusable(.xwayland)): "xwayland"
                case .absent(.glxWithoutSyncControl): "without"
                case .absent(.notWayland): "notWayland"
                default: "\(opening)"
                }
            #expect(found == expected, "\(status) xwayland \(isXwayland)")
        }
        #expect(opened == 1)
        // Xwayland without its extension (before 21.1): a Wayland session says it.
        #expect(SDLHost.isXwayland(window: nil, waylandDisplay: "wayland-0"))
        #expect(!SDLHost.isXwayland(window: nil, waylandDisplay: nil))
        #expect(!SDLHost.isXwayland(window: nil, waylandDisplay: ""))
    }

    /// A swap older than the frames remembered is shown with no frame (nobody to report to).
    @Test func aSwapTooOldToRememberHasNoFrame() throws {
        let time = VirtualTime(Self.bootTime)
        let display = FakeSyncControlDisplay(period: 16_666_667, firstRefresh: Self.bootTime - 1_000_000) { time.now }
        var ledger = try Self.ledger(on: display)
        for frame in 1...Int64(_SyncControlLedger.rememberedSwaps + 1) {
            ledger.swapWillBegin(frame: frame)
            display.swap()
        }
        // Only the first swap completed, and 65 were made since: its frame is forgotten.
        time.now = display.shown[0].time + 1_000_000
        #expect(ledger.latestRefreshRead(display.latestRefresh()) == .readNewestSwap(target: 1))
        guard case .shown(let frame, _, _, _, _) = ledger.newestSwapRead(try #require(display.newestSwap(target: 1)))
        else {
            Issue.record("not shown")
            return
        }
        #expect(frame == nil)
        #expect(ledger.swapsInFlight == _SyncControlLedger.rememberedSwaps)
    }

    /// Random displays and workloads, judged against the display's truth: every report names the
    /// frame the swap made, its time is the refresh's (to the UST's unit), and its missed count
    /// is the refreshes that showed nothing new. Rates 30–240 Hz, random phases, UST on each
    /// clock a driver may use, a latch deadline before each refresh, frames from a third of a
    /// period to three periods, readings from right after the swap to a period later.
    @Test func reportsMatchTheTruthOnRandomDisplays() throws {
        var random = _SplitMix64(seed: 0x6C78_0057)
        var checked = 0
        for scenario in 0..<500 {
            let period = Int64(1_000_000_000 / (30 + random.unit() * 210))
            let time = VirtualTime(Self.bootTime + Int64(random.unit() * 1e12))
            let display = FakeSyncControlDisplay(
                period: period, firstRefresh: time.now - Int64(random.unit() * 1e9) - period
            ) { time.now }
            display.latchMargin = Int64(random.unit() * 2_000_000)
            display.baseSBC = Int64(random.unit() * 100_000)
            switch scenario % 3 {
            case 0: break
            case 1: display.ustNanoseconds = 1
            default: display.ustOffset = Self.wallClockOffset
            }
            var ledger = try Self.ledger(on: display)
            var frames: [Int64] = []
            var lastReported: (swap: Int, msc: Int64)?
            for swap in 0..<120 {
                let frame = Int64(swap) * 3 + Int64(random.unit() * 3)
                frames.append(frame)
                ledger.swapWillBegin(frame: frame)
                display.swap()
                time.now += Int64(random.unit() * Double(period))
                switch ledger.latestRefreshRead(display.latestRefresh()) {
                case .nothing: break
                case .readNewestSwap(let target):
                    let values = try #require(display.newestSwap(target: target))
                    guard case .shown(let reported, let shown, _, let msc, let missed) = ledger.newestSwapRead(values)
                    else {
                        Issue.record("scenario \(scenario) swap \(swap): not shown")
                        continue
                    }
                    let index = Int(values.sbc - display.baseSBC) - 1
                    let truth = display.shown[index]
                    #expect(reported == frames[index], "scenario \(scenario) swap \(index)")
                    let unit = display.ustNanoseconds
                    #expect(shown == (truth.time + display.ustOffset) / unit * unit - display.ustOffset)
                    #expect(msc == truth.msc)
                    if let lastReported, lastReported.swap == index - 1 {
                        #expect(missed == Int(truth.msc - lastReported.msc - 1), "scenario \(scenario) swap \(index)")
                    } else {
                        #expect(missed == nil)
                    }
                    lastReported = (index, truth.msc)
                    checked += 1
                default:
                    Issue.record("scenario \(scenario) swap \(swap): \(ledger.state)")
                }
                // A frame that costs up to three periods.
                time.now += Int64(random.unit() * Double(2 * period))
            }
        }
        // Most swaps are read (a reading between two completions sees only the newest).
        #expect(checked > 500 * 120 / 2, "\(checked) swaps reported")
    }
}
