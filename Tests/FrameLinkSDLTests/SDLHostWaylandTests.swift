import CSDL2
import Foundation
import FrameLink
import FrameLinkSDL
import XCTest

/// An SDLHost in this process on Weston (SDL's Wayland driver): it binds presentation-time, and a
/// game may close it from its report handler.
final class SDLHostWaylandTests: XCTestCase {
    func testAHostOnWestonGetsFeedbackAndCanBeClosedFromItsReportHandler() throws {
        let weston = try WestonCompositor.started()
        defer { weston.stop() }
        let saved = ["XDG_RUNTIME_DIR", "WAYLAND_DISPLAY"].map { ($0, ProcessInfo.processInfo.environment[$0]) }
        setenv("XDG_RUNTIME_DIR", weston.runtimeFolder, 1)
        setenv("WAYLAND_DISPLAY", weston.socketName, 1)
        SDLTestSupport.useVideoDriver("wayland")
        defer {
            if SDL_WasInit(0) != 0 { SDL_Quit() }
            for (name, value) in saved {
                if let value { setenv(name, value, 1) } else { unsetenv(name) }
            }
            SDLTestSupport.useVideoDriver("dummy")
        }
        try MainActor.assumeIsolated { () throws in
            let host = try SDLHost(title: "FrameLink Wayland test", width: 160, height: 120)
            XCTAssertTrue(host.presentationFeedback.isAvailable, "\(host.presentationFeedback)")
            XCTAssertTrue(host.pacingDescription.contains("presentation feedback: Wayland presentation-time"))
            var reports: [PresentationReport] = []
            host.presentationReportHandler = { [weak host] report in
                reports.append(report)
                if reports.count == 3 { host?.close() }
            }
            host.renderHandler = { renderer in SDL_RenderClear(renderer) }
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)
            host.run(frames: 300)
            XCTAssertFalse(host.isOpen, "the handler closed the host")
            XCTAssertEqual(reports.count, 3, "no report is handed over once the host is closed")
            XCTAssertTrue(reports.allSatisfy { if case .shown = $0.outcome { true } else { false } }, "\(reports)")
            XCTAssertEqual(reports.map(\.frame), reports.map(\.frame).sorted())
            host.close()  // twice is fine
        }
    }
}
