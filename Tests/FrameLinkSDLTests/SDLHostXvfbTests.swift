import CSDL2
import Foundation
import FrameLink
import XCTest

@testable import FrameLinkSDL

/// SDLHost with a real X11 window: runs under Xvfb (`xvfb-run -a swift test …`, as the Makefile
/// does) and skips when no `DISPLAY` is set.
final class SDLHostXvfbTests: XCTestCase {
    override func tearDown() {
        if SDL_WasInit(0) != 0 { SDL_Quit() }
        super.tearDown()
    }

    func testARealWindowRunsFramesAndSavesAScreenshot() throws {
        guard let display = ProcessInfo.processInfo.environment["DISPLAY"], !display.isEmpty else {
            throw XCTSkip("DISPLAY is not set: run under an X server, e.g. `xvfb-run -a swift test`")
        }
        SDLTestSupport.useVideoDriver("x11")
        try MainActor.assumeIsolated { () throws in
            let host = try X11Retry.retrying { try SDLHost(title: "FrameLinkSDL Xvfb test", width: 320, height: 240) }
            defer { host.close() }
            XCTAssertTrue(host.isOpen)
            // Xvfb's GLX lists no GLX_OML_sync_control: an OpenGL window is told so, others have no GLX.
            let expected: PresentationFeedback.Absence =
                host.rendererName == "opengl" ? .glxWithoutSyncControl : .notWayland
            XCTAssertEqual(host.presentationFeedback, .none(expected), host.rendererDescription)
            XCTAssertTrue(
                host.pacingDescription.contains(
                    "no presentation feedback (\(expected)): shown times estimated from present's returns"),
                host.pacingDescription)
            var frames = 0
            host.renderHandler = { renderer in
                frames += 1
                SDL_SetRenderDrawColor(renderer, 10, 40, 200, 255)
                SDL_RenderClear(renderer)
                SDL_SetRenderDrawColor(renderer, 250, 250, 250, 255)
                var bar = SDL_Rect(x: 0, y: 0, w: 40, h: 40)
                SDL_RenderFillRect(renderer, &bar)
            }
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)
            host.run(frames: 10)
            XCTAssertEqual(link.callCount, 10)
            XCTAssertEqual(frames, 10)

            let path = SDLTestSupport.temporaryPath(".png")
            defer { try? FileManager.default.removeItem(atPath: path) }
            try host.screenshot(to: path)
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let bytes = try XCTUnwrap(attributes[.size] as? NSNumber).intValue
            XCTAssertGreaterThan(bytes, 0, "the screenshot file is empty")
            let header = try XCTUnwrap(FileManager.default.contents(atPath: path)).prefix(8)
            XCTAssertEqual(Array(header), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "not a PNG")
            let size = host.outputSize
            XCTAssertEqual(SDLTestSupport.imageSize(at: path)?.width, size.width)
            XCTAssertEqual(SDLTestSupport.imageSize(at: path)?.height, size.height)
            let middle = try XCTUnwrap(SDLTestSupport.pixel(ofImageAt: path, x: size.width / 2, y: size.height / 2))
            XCTAssertEqual(
                [middle.red, middle.green, middle.blue], [10, 40, 200], "renderer: \(host.rendererDescription)")
            let corner = try XCTUnwrap(SDLTestSupport.pixel(ofImageAt: path, x: 5, y: 5))
            XCTAssertEqual([corner.red, corner.green, corner.blue], [250, 250, 250])
        }
    }
}

/// A window on X11 with SDL's software renderer has no GLX to ask: no presentation feedback, and
/// pacing as before.
final class SDLHostSoftwareRendererFeedbackTests: XCTestCase {
    func testASoftwareRendererOnX11HasNoGLXToAsk() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"].map({ !$0.isEmpty }) == true else {
            throw XCTSkip("DISPLAY is not set: run under an X server, e.g. `xvfb-run -a swift test`")
        }
        SDLTestSupport.useVideoDriver("x11")
        defer { if SDL_WasInit(0) != 0 { SDL_Quit() } }
        try MainActor.assumeIsolated { () throws in
            try X11Retry.initVideo()
            let window = try SDLError.check(SDL_CreateWindow("software", 0, 0, 160, 120, 0), "SDL_CreateWindow")
            defer { SDL_DestroyWindow(window) }
            let renderer = try SDLError.check(
                SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue), "SDL_CreateRenderer")
            defer { SDL_DestroyRenderer(renderer) }
            let host = try SDLHost(adopting: window, renderer: renderer)
            defer { host.close() }
            XCTAssertEqual(host.presentationFeedback, .none(.notWayland))
            XCTAssertTrue(host.pacingDescription.contains("no presentation feedback (the window is not on Wayland)"))
            guard case .descriptors(connection: let descriptor?, wake: _) = host.idleInput(), descriptor >= 0 else {
                return XCTFail("an X11 window's idle loop sleeps on the X connection: \(host.idleInput())")
            }
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)
            host.run(frames: 10)
            XCTAssertEqual(link.callCount, 10)
            XCTAssertFalse(host.source.receivesPresentationFeedback)
        }
    }
}
