import CFrameLinkSDLShims
import CSDL2
import Foundation
@_spi(FrameSourceImplementation) import FrameLink
import XCTest

@testable import FrameLinkSDL

#if canImport(Glibc)
    import Glibc
#endif

/// `GLX_OML_sync_control` in a host on a real X11 window (Xvfb): Xvfb's GLX offers none, so the
/// readings come from a display the test makes (`FakeSyncControlDisplay` on the real monotonic
/// clock, given through `SDLHost.syncControlReadersForTesting`), and what the host does with them
/// is checked against that display's truth: shown times, refreshes, missed refreshes, the pacing
/// note, and the readings that end the feedback. Also: the C readers on Xvfb answer nothing and
/// change nothing.
final class SDLHostSyncControlTests: XCTestCase {
    override func tearDown() {
        MainActor.assumeIsolated { SDLHost.syncControlReadersForTesting = nil }
        if SDL_WasInit(0) != 0 { SDL_Quit() }
        super.tearDown()
    }

    static func monotonicNow() -> Int64 { _CompositorClock.systemReading(Int32(CLOCK_MONOTONIC))! }

    /// The frame each swap made, as the host's source counted it when the swap was read.
    @MainActor
    final class SwapFrames {
        var source: PresentSource?
        var frames: [Int64] = []
    }

    /// The host the test displays' swaps come from (set by ``host(readers:)``).
    @MainActor static weak var currentHost: SDLHost?

    /// A display refreshing at 60 Hz from now, told of each swap of ``currentHost`` when the host
    /// next reads (noting its frame in `swapFrames`), with readers for the host.
    @MainActor
    static func display(swapFrames: SwapFrames = SwapFrames()) -> (FakeSyncControlDisplay, _GLXSyncControl.Readers) {
        let display = FakeSyncControlDisplay(period: 16_683_333, firstRefresh: monotonicNow() - 1_000_000) {
            monotonicNow()
        }
        display.baseSBC = 12
        // (The drain blocks as GLX's does: until the last swap is shown, a refresh or two.)
        display.waitUntil = { time in
            let wait = time - monotonicNow()
            if wait > 0 { usleep(useconds_t(wait / 1_000 + 1)) }
        }
        var readers = display.readers()
        // The display is told of the host's swaps as it makes them: at any reading, every present
        // the host has made (its `presentCount`, counted right after SDL's present) is a swap.
        var registered = 0
        func catchUp() {
            guard let host = currentHost else { return }
            while registered < host.presentCount {
                display.swap()
                registered += 1
                // (Read inside the present: the frame is the source's count after it.)
                swapFrames.frames.append((swapFrames.source ?? host.source).presentCount + 1)
            }
        }
        let latestRefresh = readers.latestRefresh
        let newestSwap = readers.newestSwap
        readers.latestRefresh = {
            catchUp()
            return latestRefresh()
        }
        readers.newestSwap = { target in
            catchUp()
            return newestSwap(target)
        }
        return (display, readers)
    }

    /// Opens an OpenGL host under Xvfb with `readers` in place of GLX's, or skips.
    @MainActor
    static func host(readers: _GLXSyncControl.Readers?) throws -> SDLHost {
        guard ProcessInfo.processInfo.environment["DISPLAY"].map({ !$0.isEmpty }) == true else {
            throw XCTSkip("DISPLAY is not set: run under an X server, e.g. `xvfb-run -a swift test`")
        }
        SDLTestSupport.useVideoDriver("x11")
        SDLHost.syncControlReadersForTesting = readers
        let host = try X11Retry.retrying { try SDLHost(title: "FrameLinkSDL GLX test", width: 160, height: 120) }
        currentHost = host
        guard host.presentsWithGLSwaps else {
            host.close()
            throw XCTSkip("SDL chose a renderer without OpenGL swaps here: \(host.rendererDescription)")
        }
        host.renderHandler = { renderer in
            SDL_SetRenderDrawColor(renderer, 30, 30, 30, 255)
            SDL_RenderClear(renderer)
        }
        return host
    }

    /// Every report names a frame the host presented, with the refresh and time the display showed
    /// it at (to the microsecond of the UST), the refreshes missed before it, and the display's
    /// period; the pacing takes the times, and the note says where they came from.
    func testReadingsReachThePacingAndTheReportsAsTheDisplayShowedThem() throws {
        try MainActor.assumeIsolated { () throws in
            let swapFrames = SwapFrames()
            let (display, readers) = Self.display(swapFrames: swapFrames)
            let host = try Self.host(readers: readers)
            defer { host.close() }
            swapFrames.source = host.source
            XCTAssertEqual(
                host.presentationFeedback, .glxSyncControl(clockID: Int32(CLOCK_MONOTONIC), ustUnit: .microseconds(1)))
            XCTAssertTrue(
                host.pacingDescription.contains(
                    "presentation feedback: GLX_OML_sync_control (UST in microseconds of CLOCK_MONOTONIC)"),
                host.pacingDescription)
            var reports: [PresentationReport] = []
            host.presentationReportHandler = { reports.append($0) }
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)
            host.run(frames: 120)
            let epoch = host.source.epochNanoseconds

            XCTAssertGreaterThan(reports.count, 60, "most swaps are read as shown")
            XCTAssertEqual(reports.map(\.frame), reports.map(\.frame).sorted(), "reports in frame order")
            XCTAssertEqual(Set(reports.map(\.frame)).count, reports.count, "no frame reported twice")
            // The host's swaps are the display's swaps, in order: the n-th present is swap n.
            var previous: (index: Int, msc: Int64)?
            for report in reports {
                // (A swap read as completed with a newer one is shown at no time GLX gives.)
                guard case .shown(let at, let ust) = report.outcome else {
                    XCTAssertEqual(report.outcome, .shownAtUnusableTime, "frame \(report.frame)")
                    XCTAssertTrue(swapFrames.frames.contains(report.frame), "frame \(report.frame)")
                    previous = nil
                    continue
                }
                let sequence = try XCTUnwrap(report.refreshSequence)
                let index = try XCTUnwrap(display.shown.firstIndex { $0.msc == Int64(sequence) })
                let truth = display.shown[index]
                XCTAssertEqual(report.frame, swapFrames.frames[index], "the frame of the swap shown")
                XCTAssertEqual(at.nanoseconds + epoch, truth.time / 1_000 * 1_000, "frame \(report.frame)")
                XCTAssertEqual(ust, .microseconds(truth.time / 1_000))
                // Measured from the refreshes read: within a microsecond (the UST's unit), once eight
                // refreshes agree.
                if let period = report.refreshPeriod {
                    XCTAssertLessThan(abs((period - .nanoseconds(16_683_333)) / .nanoseconds(1)), 1_000, "\(period)")
                }
                if let previous, previous.index == index - 1 {
                    XCTAssertEqual(report.missedRefreshes, Int(truth.msc - previous.msc - 1), "frame \(report.frame)")
                } else {
                    XCTAssertNil(report.missedRefreshes)
                }
                previous = (index, truth.msc)
            }
            XCTAssertGreaterThan(reports.filter { $0.refreshPeriod != nil }.count, reports.count / 2)
            XCTAssertTrue(host.source.receivesPresentationFeedback, "the pacing took the shown times")
            XCTAssertTrue(host.presentationFeedback.isAvailable, "\(host.presentationFeedback)")
        }
    }

    /// A UST on no clock FrameLink knows, or no reading at all: no feedback, said once, and the
    /// frames run on the pacing's own estimate.
    func testReadingsThatCannotBeUsedAreSaidAndTheFramesRun() throws {
        try MainActor.assumeIsolated { () throws in
            let (display, readers) = Self.display()
            display.ustNanoseconds = 1_000_000  // milliseconds: no driver's unit
            for (readers, fault) in [
                (readers, PresentationFeedback.SyncControlFault.unknownClock),
                (
                    _GLXSyncControl.Readers(latestRefresh: { nil }, newestSwap: { _ in nil }),
                    .noReading
                ),
            ] {
                let host = try Self.host(readers: readers)
                defer { host.close() }
                XCTAssertEqual(host.presentationFeedback, .none(.glxSyncControlUnusable(fault)))
                XCTAssertTrue(
                    host.pacingDescription.contains(
                        "no presentation feedback (the X server offers GLX_OML_sync_control, but \(fault))"),
                    host.pacingDescription)
                let link = DisplayLink { _ in }
                link.add(to: host.loop, forMode: .common)
                host.run(frames: 10)
                XCTAssertEqual(link.callCount, 10)
                XCTAssertFalse(host.source.receivesPresentationFeedback)
            }
        }
    }

    /// Swaps the host did not make counted during a run (another client swapping the window) end
    /// the feedback for good: the pacing goes back to its estimate, the note says why, and the
    /// frames run on. Swaps made between two runs (the game's own, on an adopted window) are taken
    /// as not the host's when the next run begins, and the feedback goes on.
    func testSwapsTheHostDidNotMakeEndTheFeedback() throws {
        try MainActor.assumeIsolated { () throws in
            let (display, readers) = Self.display()
            let host = try Self.host(readers: readers)
            defer { host.close() }
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)
            host.run(frames: 20)
            XCTAssertTrue(host.source.receivesPresentationFeedback)
            display.foreignSwaps = 2
            host.run(frames: 20)
            XCTAssertTrue(host.presentationFeedback.isAvailable, "between runs: \(host.presentationFeedback)")
            let during = DisplayLink { link in
                if link.callCount == 10 { display.foreignSwaps += 3 }
            }
            during.add(to: host.loop, forMode: .common)
            host.run(frames: 20)
            XCTAssertEqual(link.callCount, 60)
            XCTAssertEqual(host.presentationFeedback, .none(.glxSyncControlUnusable(.swapNotMade)))
            XCTAssertFalse(host.source.receivesPresentationFeedback)
            XCTAssertNil(host.glxSyncControl)
        }
    }

    /// Readings that stop coming (GLX failing for the window) stop the feedback once as many swaps
    /// wait as the host allows, and it resumes once they come back.
    func testReadingsThatStopComingStopTheFeedbackUntilTheyComeBack() throws {
        try MainActor.assumeIsolated { () throws in
            let (_, readers) = Self.display()
            var failing = false
            var flaky = readers
            // (The display still sees every swap: only the answer is lost.)
            flaky.latestRefresh = {
                let values = readers.latestRefresh()
                return failing ? nil : values
            }
            let host = try Self.host(readers: flaky)
            defer { host.close() }
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)
            host.run(frames: 10)
            failing = true
            host.run(frames: _FeedbackRequests.unansweredFrameLimit + 5)
            guard case .none(.compositorStoppedAnswering) = host.presentationFeedback else {
                return XCTFail("\(host.presentationFeedback)")
            }
            XCTAssertFalse(host.source.receivesPresentationFeedback)
            failing = false
            host.run(frames: 10)
            XCTAssertEqual(
                host.presentationFeedback, .glxSyncControl(clockID: Int32(CLOCK_MONOTONIC), ustUnit: .microseconds(1)))
            XCTAssertTrue(host.source.receivesPresentationFeedback)
        }
    }

    /// Shown times 1.5 s before the frames were presented (a UST whose clock is off, or counts
    /// that are not the host's swaps) end the feedback at the first: a swap cannot be shown before
    /// it is made. The pacing never takes one.
    func testTimesBeforeTheSwapsWereMadeEndTheFeedback() throws {
        try MainActor.assumeIsolated { () throws in
            let (display, readers) = Self.display()
            display.ustOffset = -1_500_000_000
            display.wallClockOffset = 1_795_000_000_000_000_000
            let host = try Self.host(readers: readers)
            defer { host.close() }
            XCTAssertTrue(host.presentationFeedback.isAvailable, "\(host.presentationFeedback)")
            var shown = 0
            host.presentationReportHandler = { report in
                if case .shown = report.outcome { shown += 1 }
            }
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)
            host.run(frames: 30)
            XCTAssertEqual(host.presentationFeedback, .none(.glxSyncControlUnusable(.shownBeforeMade)))
            XCTAssertFalse(host.source.receivesPresentationFeedback)
            XCTAssertEqual(shown, 0)
            XCTAssertEqual(link.callCount, 30)
        }
    }

    /// On Xvfb, GLX's own readers answer nothing (Mesa's software GLX has no refresh counter), for
    /// any window or none, and a host there says the extension is absent.
    func testGLXReadersOnXvfbAnswerNothing() throws {
        try MainActor.assumeIsolated { () throws in
            let host = try Self.host(readers: nil)
            defer { host.close() }
            XCTAssertEqual(host.presentationFeedback, .none(.glxWithoutSyncControl))
            XCTAssertNil(host.glxSyncControl)
            let window = try XCTUnwrap(host.window).map { UnsafeMutableRawPointer($0) }
            var values = CFrameLinkSDLShims_SyncValues(ust: -1, msc: -1, sbc: -1)
            for pointer in [window, nil] {
                XCTAssertEqual(CFrameLinkSDLShims_readSyncValues(pointer, &values), 0)
                XCTAssertEqual(CFrameLinkSDLShims_waitForSwap(pointer, 0, &values), 0)
                XCTAssertEqual(CFrameLinkSDLShims_waitForSwap(pointer, -1, &values), 0)
            }
            XCTAssertEqual([values.ust, values.msc, values.sbc], [-1, -1, -1], "nothing written")
            XCTAssertEqual(CFrameLinkSDLShims_isXwayland(window), 0, "Xvfb is not Xwayland")
            XCTAssertEqual(CFrameLinkSDLShims_isXwayland(nil), 0)
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)
            host.run(frames: 5)
            XCTAssertEqual(link.callCount, 5)
        }
    }
}
