import CSDL2
import Foundation
@_spi(FrameSourceImplementation) import FrameLink
import Testing
import XCTest

@testable import FrameLinkSDL

#if canImport(Glibc)
    import Glibc
#endif

// Review 13: GLX_OML_sync_control (48c3d6d), scenarios the author's tests do not make.
//
// `R13Display` is a display in the X server's Present semantics as Mesa reads it (sources read for
// this review: Mesa src/loader/loader_dri3_helper.c, src/glx/glxcmds.c; xserver present/present.c,
// present_scmd.c, present_vblank.c, present_fake.c, hw/xfree86/dri2/dri2.c,
// hw/xwayland/xwayland-present.c), with what the author's `FakeSyncControlDisplay` leaves out: a swap
// chain that blocks (back-pressure), swap intervals 0 and -1 (Mesa's XCB_PRESENT_OPTION_ASYNC: a swap
// whose target refresh has passed is executed at once and completes with the latest refresh's UST
// and MSC), DRI2's second round trip (glXWaitForSbcOML answers the server's state at that moment),
// refresh counters that jump, and a compositing manager that shows a copy a refresh later. Every
// scenario asserts what a game developer expects; what fails is a finding, kept green with
// `withKnownIssue` and a one-line description of the defect.

/// A virtual `CLOCK_MONOTONIC` and a wall clock ahead of it.
final class R13Clock {
    var now: Int64
    var wallOffset: Int64
    init(now: Int64, wallOffset: Int64 = 1_795_000_000_000_000_000 - 600_000_000_000) {
        self.now = now
        self.wallOffset = wallOffset
    }

    func read(_ id: Int32) -> Int64? {
        switch id {
        case Int32(CLOCK_MONOTONIC): now
        case Int32(CLOCK_REALTIME): now + wallOffset
        default: nil
        }
    }
}

/// A display in Present's semantics (see the file's comment), on virtual time. Refresh `i` happens
/// at `refreshTimes[i]` and is window MSC `mscBase + i` (plus any jump before the moment it is read).
final class R13Display {
    enum Server { case dri3, dri2 }

    struct Swap {
        var made: Int64
        /// The refresh the X server executed it at.
        var target: Int
        var completion: Int64
        /// What the server reports: the UST's time (ns) and the refresh.
        var reportedTime: Int64
        var reportedIndex: Int
        /// The truth: when the frame turned into light, and at which refresh.
        var shownTime: Int64
        var shownIndex: Int
        /// The host's frame, `nil` for a swap the host did not make.
        var frame: Int64?
        /// Made while the window was on no CRTC under DRI2: reported as UST 0, MSC 0.
        var reportsZeros = false
    }

    let clock: R13Clock
    var refreshTimes: [Int64]
    /// GLX swap interval: 1, 2, 0 (vsync off) or -1 (adaptive, FrameLink's first choice).
    var interval = 1
    var server = Server.dri3
    /// Refreshes between the X server's copy and the light (an X11 compositing manager: 1).
    var compositorDelay = 0
    var baseSBC: Int64 = 0
    var mscBase: Int64 = 5_000
    /// Jumps of the window's refresh counter (DRI2 has no per-window offset when a window moves).
    var mscJumps: [(time: Int64, by: Int64)] = []
    var ustNanoseconds: Int64 = 1_000
    /// DRI2 on the modesetting driver with the window on no CRTC: readings are UST 0, MSC 0, and
    /// swaps complete at once as blits reported so.
    var offEveryCRTC = false
    private(set) var swaps: [Swap] = []
    /// DRI3: when Mesa last processed Present's events (glXWaitForSbcOML answers from that).
    private var processedAt: Int64 = 0

    init(clock: R13Clock, firstRefresh: Int64, count: Int = 4_000, period: (Int) -> Int64) {
        self.clock = clock
        var times: [Int64] = []
        var time = firstRefresh
        for index in 0..<count {
            times.append(time)
            time += period(index)
        }
        refreshTimes = times
    }

    /// The latest refresh at or before `time`.
    func index(at time: Int64) -> Int {
        var low = 0
        var high = refreshTimes.count - 1
        guard refreshTimes[0] <= time else { return 0 }
        while low < high {
            let middle = (low + high + 1) / 2
            if refreshTimes[middle] <= time { low = middle } else { high = middle - 1 }
        }
        return low
    }

    func msc(ofIndex index: Int, at time: Int64) -> Int64 {
        mscBase + Int64(index) + mscJumps.filter { $0.time <= time }.reduce(0) { $0 + $1.by }
    }

    func ust(_ time: Int64) -> Int64 { time / ustNanoseconds }

    /// A swap made now, as Mesa asks for it and the X server executes it.
    func swap(frame: Int64?) {
        let time = clock.now
        let current = index(at: time)
        let previous = swaps.last?.target
        if offEveryCRTC {
            swaps.append(
                Swap(
                    made: time, target: current, completion: time, reportedTime: 0, reportedIndex: 0,
                    shownTime: time, shownIndex: current, frame: frame, reportsZeros: true))
            return
        }
        var immediate = false
        var target = current
        switch interval {
        case 0:
            immediate = true
        case ..<0:
            // Mesa: target = last completed MSC + 1 per swap pending; ASYNC: one already passed is
            // executed at once (a tear), with the refresh the server last saw.
            let desired = (previous ?? current) + 1
            if desired > current { target = desired } else { immediate = true }
        default:
            target = max(current + 1, (previous ?? Int.min / 2) + interval)
        }
        if immediate {
            swaps.append(
                Swap(
                    made: time, target: current, completion: time, reportedTime: refreshTimes[current],
                    reportedIndex: current, shownTime: time, shownIndex: current, frame: frame))
        } else {
            let shownIndex = target + compositorDelay
            swaps.append(
                Swap(
                    made: time, target: target, completion: refreshTimes[target], reportedTime: refreshTimes[target],
                    reportedIndex: target, shownTime: refreshTimes[shownIndex], shownIndex: shownIndex, frame: frame))
        }
    }

    func completed(at time: Int64) -> Int { swaps.prefix { $0.completion <= time }.count }

    /// `glXGetSyncValuesOML`: the latest refresh, and the swaps completed.
    func latestRefresh() -> _SyncControlLedger.Values {
        let time = clock.now
        processedAt = time
        let latest = index(at: time)
        if offEveryCRTC { return .init(ust: 0, msc: 0, sbc: baseSBC + Int64(completed(at: time))) }
        return .init(
            ust: ust(refreshTimes[latest]), msc: msc(ofIndex: latest, at: time),
            sbc: baseSBC + Int64(completed(at: time)))
    }

    /// `glXWaitForSbcOML(target)`: DRI3 answers what Mesa processed; DRI2 the server's state now.
    func newestSwap(target: Int64) -> _SyncControlLedger.Values? {
        if target == 0, let last = swaps.last, last.completion > clock.now { clock.now = last.completion }
        let horizon = server == .dri3 && target != 0 ? processedAt : clock.now
        let done = completed(at: horizon)
        guard target == 0 || baseSBC + Int64(done) >= target else { return nil }
        guard done > 0 else { return .init(ust: 0, msc: 0, sbc: baseSBC) }
        let swap = swaps[done - 1]
        if swap.reportsZeros { return .init(ust: 0, msc: 0, sbc: baseSBC + Int64(done)) }
        return .init(
            ust: ust(swap.reportedTime), msc: msc(ofIndex: swap.reportedIndex, at: swap.completion),
            sbc: baseSBC + Int64(done))
    }

    /// The readers a `_GLXSyncControl` takes.
    func readers() -> _GLXSyncControl.Readers {
        _GLXSyncControl.Readers(
            latestRefresh: { [self] in latestRefresh() },
            newestSwap: { [self] target in newestSwap(target: target) },
            clock: { [clock] id in clock.read(id) })
    }
}

/// What a run of the ledger said.
struct R13Outcome {
    struct Report {
        var frame: Int64?
        var time: Int64
        var msc: Int64
        var missed: Int?
        /// The display's swap it is about (from the SBC).
        var swap: Int
    }

    var reports: [Report] = []
    var stop: PresentationFeedback.SyncControlFault?
    var refused = 0
    /// Latest refreshes that were no reading (their time does not fit the clock now).
    var unusable = 0
    /// Swaps shown at a time GLX cannot tell (they did not wait for a refresh).
    var unknownTimes = 0
}

enum R13 {
    static let monotonic = Int32(CLOCK_MONOTONIC)
    static let realtime = Int32(CLOCK_REALTIME)
    static let boot: Int64 = 600_000_000_000
    static let period60: Int64 = 16_666_667

    /// A 60 Hz display from 1 ms before `clock.now`.
    static func display(_ clock: R13Clock, period: Int64 = period60) -> R13Display {
        R13Display(clock: clock, firstRefresh: clock.now - 1_000_000) { _ in period }
    }

    /// Opens a ledger as the host does: every swap before waited for, then the latest refresh.
    static func open(_ display: R13Display) throws -> _SyncControlLedger {
        _ = display.newestSwap(target: 0)
        let opening = _SyncControlLedger.open(opening: display.latestRefresh(), read: display.clock.read)
        guard case .opened(let ledger) = opening else {
            Issue.record("not opened: \(opening)")
            throw CocoaError(.featureUnsupported)
        }
        return ledger
    }

    /// The reading after a swap, as `_GLXSyncControl.collect` makes it (`roundTrip` between the
    /// two requests), noted in `outcome`.
    static func read(
        _ display: R13Display, _ ledger: inout _SyncControlLedger, _ outcome: inout R13Outcome,
        roundTrip: Int64 = 80_000
    ) {
        guard outcome.stop == nil else { return }
        var action = ledger.latestRefreshRead(display.latestRefresh())
        var sbc: Int64 = 0
        if case .readNewestSwap(let target) = action {
            display.clock.now += roundTrip
            guard let values = display.newestSwap(target: target) else {
                Issue.record("glXWaitForSbcOML(\(target)) would block")
                return
            }
            sbc = values.sbc
            action = ledger.newestSwapRead(values)
        }
        switch action {
        case .shown(let frame, let time, _, let msc, let missed):
            outcome.reports.append(
                .init(frame: frame, time: time, msc: msc, missed: missed, swap: Int(sbc - display.baseSBC) - 1))
        case .stop(let fault): outcome.stop = fault
        case .refuse: outcome.refused += 1
        case .unusable: outcome.unusable += 1
        case .shownAtUnknownTime: outcome.unknownTimes += 1
        case .nothing, .readNewestSwap: break
        }
    }

    /// Frames `frames` (numbered from `firstFrame`), each `cost(k)` of work after a back buffer is
    /// free (`buffers`: the swap chain's; `nil` for none), a swap, and the reading after it.
    static func run(
        _ display: R13Display, _ ledger: inout _SyncControlLedger, _ outcome: inout R13Outcome, frames: Int,
        firstFrame: Int64 = 1, buffers: Int? = 2, roundTrip: Int64 = 80_000, cost: (Int) -> Int64
    ) {
        for k in 0..<frames {
            if let buffers, display.swaps.count >= buffers {
                display.clock.now = max(display.clock.now, display.swaps[display.swaps.count - buffers].completion)
            }
            display.clock.now += cost(k)
            let frame = firstFrame + Int64(k)
            ledger.swapWillBegin(frame: frame)
            display.swap(frame: frame)
            display.clock.now += 100_000
            read(display, &ledger, &outcome, roundTrip: roundTrip)
            if outcome.stop != nil { return }
        }
    }

    /// The reports that do not say the truth: the wrong frame, a time other than the light's (to the
    /// UST's microsecond), another refresh, or missed refreshes other than those the display made.
    static func untrue(_ outcome: R13Outcome, _ display: R13Display) -> [String] {
        var found: [String] = []
        var previous: Int?
        for report in outcome.reports {
            let truth = display.swaps[report.swap]
            var wrong: [String] = []
            if report.frame != truth.frame {
                wrong.append(
                    "frame \(report.frame.map(String.init) ?? "nil") for \(truth.frame.map(String.init) ?? "a swap not the host's")"
                )
            }
            let light = truth.shownTime / 1_000 * 1_000
            if report.time != light { wrong.append("shown \(Double(report.time - light) / 1e6) ms off") }
            let shownMSC = display.msc(ofIndex: truth.shownIndex, at: truth.completion)
            if report.msc != shownMSC { wrong.append("msc \(report.msc) for \(shownMSC)") }
            if let previous, previous == report.swap - 1 {
                let truthMissed = truth.shownIndex - display.swaps[previous].shownIndex - 1
                if report.missed != truthMissed {
                    wrong.append("missed \(report.missed.map(String.init) ?? "nil") for \(truthMissed)")
                }
            }
            if !wrong.isEmpty { found.append("swap \(report.swap): " + wrong.joined(separator: ", ")) }
            previous = report.swap
        }
        return found
    }

    /// A short summary for a failure message.
    static func summary(_ list: [String]) -> String {
        list.isEmpty ? "none" : "\(list.count): " + list.prefix(4).joined(separator: "; ")
    }
}

// MARK: - Host scenarios under Xvfb (known issues: Swift Testing; XCTExpectFailure is not in
// corelibs XCTest)

/// Opens an OpenGL host under Xvfb with `readers` in place of GLX's.
enum R13Host {
    static var hasDisplay: Bool { ProcessInfo.processInfo.environment["DISPLAY"].map { !$0.isEmpty } == true }

    @MainActor
    static func open(readers: _GLXSyncControl.Readers) throws -> SDLHost? {
        SDLTestSupport.useVideoDriver("x11")
        SDLHost.syncControlReadersForTesting = readers
        defer { SDLHost.syncControlReadersForTesting = nil }
        let host = try X11Retry.retrying { try SDLHost(title: "FrameLinkSDL GLX review 13", width: 160, height: 120) }
        SDLHostSyncControlTests.currentHost = host
        guard host.presentsWithGLSwaps else {
            host.close()
            return nil
        }
        host.renderHandler = { renderer in
            SDL_SetRenderDrawColor(renderer, 30, 30, 30, 255)
            SDL_RenderClear(renderer)
        }
        let link = DisplayLink { _ in }
        link.add(to: host.loop, forMode: .common)
        return host
    }

    @MainActor
    static func finish() {
        if SDL_WasInit(0) != 0 { SDL_Quit() }
    }
}
