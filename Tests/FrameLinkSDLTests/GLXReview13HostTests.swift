import CSDL2
import Foundation
@_spi(FrameSourceImplementation) import FrameLink
import Testing
import XCTest

@testable import FrameLinkSDL

#if canImport(Glibc)
    import Glibc
#endif

@MainActor
@Suite("GLXReview13 host", .serialized, .enabled(if: R13Host.hasDisplay, "needs an X server (xvfb-run)"))
struct GLXReview13HostTests {
    /// glXWaitForSbcOML fails for every swap (glXGetSyncValuesOML still answers): no report ever
    /// comes. Expected: after the host's limit of frames without an answer, the feedback is said
    /// to have stopped and the pacing goes back to its estimate.
    @Test("R13 host: a newest-swap reading that never answers stops the feedback")
    func aNewestSwapReadingThatNeverAnswers() throws {
        defer { R13Host.finish() }
        let (_, readers) = SDLHostSyncControlTests.display()
        var silent = readers
        silent.newestSwap = { target in target == 0 ? readers.newestSwap(0) : nil }
        var reports = 0
        guard let host = try R13Host.open(readers: silent) else { return }
        defer { host.close() }
        host.presentationReportHandler = { _ in reports += 1 }
        host.run(frames: _FeedbackRequests.unansweredFrameLimit + 30)
        #expect(reports == 0)
        #expect(!host.presentationFeedback.isAvailable, "\(host.presentationFeedback)")
    }

    /// The game swaps its adopted window once itself between two `run(frames:)` (a loading
    /// screen), on a display whose queue never drains. Expected: no report gives a frame another
    /// swap's time, or the feedback stops; what the pacing takes must be true.
    @Test("R13 host: a swap the game made itself between two runs never gives a frame another swap's time")
    func aSwapTheGameMadeItselfBetweenTwoRuns() throws {
        defer { R13Host.finish() }
        let swapFrames = SDLHostSyncControlTests.SwapFrames()
        let (display, readers) = SDLHostSyncControlTests.display(swapFrames: swapFrames)
        guard let host = try R13Host.open(readers: readers) else { return }
        defer { host.close() }
        swapFrames.source = host.source
        var reports: [PresentationReport] = []
        host.presentationReportHandler = { reports.append($0) }
        host.run(frames: 30)
        display.swap()  // the game's own SDL_GL_SwapWindow
        swapFrames.frames.append(-1)
        reports.removeAll()
        host.run(frames: 120)
        var wrong: [String] = []
        for report in reports {
            guard let sequence = report.refreshSequence,
                let index = display.shown.firstIndex(where: { $0.msc == Int64(sequence) })
            else { continue }
            if report.frame != swapFrames.frames[index] {
                wrong.append("frame \(report.frame) given swap \(index)'s time (frame \(swapFrames.frames[index]))")
            }
        }
        #expect(reports.count > 60)
        // (The run begins by waiting for the window's swaps and taking the game's as not the host's.)
        #expect(wrong.isEmpty, "\(wrong.count) of \(reports.count) wrong, e.g. \(wrong.first ?? "")")
        #expect(host.presentationFeedback.isAvailable, "\(host.presentationFeedback)")
    }

    /// The display blanks: its refresh counter stops and the latest refresh's UST ages past 2 s
    /// while frames go on (80 frames), then it comes back. Expected: the feedback is back once the
    /// display is, and while it was away the reason given is not that the times are untrue.
    @Test("R13 host: a display that blanks and comes back gets its feedback back")
    func aDisplayThatBlanksAndComesBack() throws {
        defer { R13Host.finish() }
        let (display, readers) = SDLHostSyncControlTests.display()
        var blanked: _SyncControlLedger.Values?
        var blanking = readers
        blanking.latestRefresh = {
            guard let values = readers.latestRefresh() else { return nil }
            guard let frozen = blanked else { return values }
            return .init(ust: frozen.ust, msc: frozen.msc, sbc: values.sbc)
        }
        guard let host = try R13Host.open(readers: blanking) else { return }
        defer { host.close() }
        host.run(frames: 20)
        #expect(host.source.receivesPresentationFeedback)
        let now = SDLHostSyncControlTests.monotonicNow()
        let latest = display.latestRefresh()
        blanked = .init(ust: (now - 2_500_000_000) / 1_000, msc: latest.msc, sbc: 0)
        host.run(frames: 80)
        let whileBlank = host.presentationFeedback
        blanked = nil
        host.run(frames: 30)
        #expect(
            whileBlank != .none(.untrueTimes(refusedInARow: _FeedbackRequests.refusedReportLimit)), "\(whileBlank)")
        #expect(host.presentationFeedback.isAvailable, "\(host.presentationFeedback)")
    }
}

/// Host scenarios that hold (XCTest under Xvfb, as SDLHostSyncControlTests).
final class GLXReview13HostXCTests: XCTestCase {
    override func tearDown() {
        MainActor.assumeIsolated { SDLHost.syncControlReadersForTesting = nil }
        if SDL_WasInit(0) != 0 { SDL_Quit() }
        super.tearDown()
    }

    /// A report handler that closes the host on the first report it gets: no trap, no report
    /// after, the loop ends, and a run after returns at once.
    func testR13AReportHandlerThatClosesTheHostMidCollection() throws {
        try MainActor.assumeIsolated { () throws in
            let (_, readers) = SDLHostSyncControlTests.display()
            let host = try SDLHostSyncControlTests.host(readers: readers)
            var reports = 0
            host.presentationReportHandler = { [weak host] _ in
                reports += 1
                host?.close()
            }
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)
            host.run(frames: 120)
            XCTAssertEqual(reports, 1)
            XCTAssertFalse(host.isOpen)
            XCTAssertNil(host.glxSyncControl)
            host.run(frames: 5)
            XCTAssertEqual(reports, 1)
        }
    }

    /// Frames the host presents while the feedback is stopped (GLX gave no reading for 64+ swaps)
    /// are still counted: when readings come back, each report names the frame its swap made.
    func testR13FramesPresentedWhileStoppedAreStillCounted() throws {
        try MainActor.assumeIsolated { () throws in
            let swapFrames = SDLHostSyncControlTests.SwapFrames()
            let (display, readers) = SDLHostSyncControlTests.display(swapFrames: swapFrames)
            var failing = false
            var flaky = readers
            flaky.latestRefresh = {
                let values = readers.latestRefresh()
                return failing ? nil : values
            }
            let host = try SDLHostSyncControlTests.host(readers: flaky)
            defer { host.close() }
            swapFrames.source = host.source
            var reports: [PresentationReport] = []
            host.presentationReportHandler = { reports.append($0) }
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)
            host.run(frames: 10)
            failing = true
            host.run(frames: _FeedbackRequests.unansweredFrameLimit + 10)
            failing = false
            reports.removeAll()
            host.run(frames: 30)
            XCTAssertGreaterThan(reports.count, 10)
            for report in reports {
                // (A swap read as completed with a newer one is shown at no time GLX gives.)
                guard case .shown = report.outcome else {
                    XCTAssertTrue(swapFrames.frames.contains(report.frame), "frame \(report.frame): \(report.outcome)")
                    continue
                }
                guard let sequence = report.refreshSequence,
                    let index = display.shown.firstIndex(where: { $0.msc == Int64(sequence) })
                else {
                    XCTFail("frame \(report.frame): no swap shown at \(String(describing: report.refreshSequence))")
                    continue
                }
                XCTAssertEqual(report.frame, swapFrames.frames[index], "the frame of the swap shown")
            }
        }
    }
}
