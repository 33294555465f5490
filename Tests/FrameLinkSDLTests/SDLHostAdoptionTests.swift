import CSDL2
import Foundation
import FrameLink
import FrameLinkSDL
import XCTest

/// An SDLHost that adopts a game's own window and renderer (dummy driver) or GL window (Xvfb):
/// frames are paced, the game's own presenter is the one presented, and closing the host leaves
/// the game's objects and SDL running.
final class SDLHostAdoptionTests: SDLDummyDriverTestCase {
    func testAnAdoptedRendererIsPacedPresentsTheGamesDrawingAndSurvivesClose() throws {
        try MainActor.assumeIsolated { () throws in
            // The game: its own SDL, window and renderer.
            try SDLError.check(SDL_Init(SDL_INIT_VIDEO), "SDL_Init")
            let window = try SDLError.check(
                SDL_CreateWindow("game", 0, 0, 96, 64, SDL_WINDOW_HIDDEN.rawValue), "SDL_CreateWindow")
            let renderer = try SDLError.check(
                SDL_CreateRenderer(window, -1, SDL_RENDERER_PRESENTVSYNC.rawValue), "SDL_CreateRenderer")

            let host = try SDLHost(adopting: window, renderer: renderer)
            XCTAssertTrue(host.isAdopted)
            XCTAssertEqual(host.presentMethod, .renderer)
            XCTAssertEqual(host.window, window)
            XCTAssertEqual(host.renderer, renderer)
            XCTAssertEqual(host.title, "game", "an adopted host reads the window's title")
            XCTAssertTrue(host.rendererDescription.contains("adopted"), host.rendererDescription)

            var handedRenderers: Set<OpaquePointer> = []
            host.renderHandler = { drawingTo in
                handedRenderers.insert(drawingTo)
                SDL_SetRenderDrawColor(drawingTo, 30, 160, 90, 255)
                SDL_RenderClear(drawingTo)
            }
            var timestamps: [FrameInstant] = []
            let link = DisplayLink { link in timestamps.append(link.timestamp) }
            link.add(to: host.loop, forMode: .common)
            host.run(frames: 30)

            XCTAssertEqual(timestamps.count, 30)
            for (earlier, later) in zip(timestamps, timestamps.dropFirst()) {
                XCTAssertLessThan(earlier, later, "frame timestamps must strictly increase")
            }
            // Paced: never faster than the grid (load only makes frames later).
            PacingAssertions.assertPaced(timestamps, period: Double(host.loop.refreshRate.periodNanoseconds) / 1e9)
            XCTAssertEqual(handedRenderers, [renderer], "the render handler must get the game's own renderer")
            XCTAssertEqual(host.presentCount, 29, "every frame but the last (still to be shown) is presented")
            XCTAssertEqual(
                SDLTestSupport.readPixel(renderer, x: 48, y: 32)?.rgb, [30, 160, 90],
                "the game's renderer holds what the handler drew")

            link.invalidate()
            host.close()
            XCTAssertFalse(host.isOpen)
            XCTAssertNil(host.renderer)
            XCTAssertNotEqual(SDL_WasInit(SDL_INIT_VIDEO), 0, "close() must not quit the game's SDL video")
            XCTAssertNotEqual(SDL_GetWindowID(window), 0, "close() must not destroy the adopted window")
            XCTAssertEqual(SDL_RenderGetWindow(renderer), window, "close() must not destroy the adopted renderer")
            // Still the game's, and still working.
            SDL_SetRenderDrawColor(renderer, 200, 10, 10, 255)
            XCTAssertEqual(SDL_RenderClear(renderer), 0)
            XCTAssertEqual(SDLTestSupport.readPixel(renderer, x: 1, y: 1)?.rgb, [200, 10, 10])

            SDL_DestroyRenderer(renderer)
            SDL_DestroyWindow(window)
            SDL_Quit()
        }
    }

    func testAReleasedAdoptingHostLeavesTheGamesObjectsAlone() throws {
        try MainActor.assumeIsolated { () throws in
            try SDLError.check(SDL_Init(SDL_INIT_VIDEO), "SDL_Init")
            let window = try SDLError.check(
                SDL_CreateWindow("game", 0, 0, 64, 48, SDL_WINDOW_HIDDEN.rawValue), "SDL_CreateWindow")
            let renderer = try SDLError.check(SDL_CreateRenderer(window, -1, 0), "SDL_CreateRenderer")
            weak var weakHost: SDLHost?
            do {
                let host = try SDLHost(adopting: window, renderer: renderer)
                host.renderHandler = { _ in _ = host.isOpen }  // a cycle that deinit must not need
                DisplayLink { _ in }.add(to: host.loop, forMode: .common)
                host.run(frames: 3)
                weakHost = host
                host.close()
            }
            XCTAssertNil(weakHost)
            do {
                let host = try SDLHost(adopting: window, renderer: renderer)
                DisplayLink { _ in }.add(to: host.loop, forMode: .common)
                host.run(frames: 3)
                weakHost = host
            }
            XCTAssertNil(weakHost, "a released host closes itself")
            XCTAssertNotEqual(SDL_WasInit(SDL_INIT_VIDEO), 0)
            XCTAssertNotEqual(SDL_GetWindowID(window), 0)
            XCTAssertEqual(SDL_RenderGetWindow(renderer), window)
            // Adopting the same objects again, after a host let go of them, works.
            let again = try SDLHost(adopting: window, renderer: renderer)
            again.close()
            SDL_DestroyRenderer(renderer)
            SDL_DestroyWindow(window)
        }
    }

    func testAnAdoptedRendererWithoutTheVSyncFlagIsPacedByDeadline() throws {
        try MainActor.assumeIsolated { () throws in
            try SDLError.check(SDL_Init(SDL_INIT_VIDEO), "SDL_Init")
            let window = try SDLError.check(
                SDL_CreateWindow("game", 0, 0, 64, 48, SDL_WINDOW_HIDDEN.rawValue), "SDL_CreateWindow")
            let renderer = try SDLError.check(SDL_CreateRenderer(window, -1, 0), "SDL_CreateRenderer")
            defer {
                SDL_DestroyRenderer(renderer)
                SDL_DestroyWindow(window)
            }
            // The game turns vsync off on its renderer (the dummy driver's software renderer
            // reports the flag by default).
            try SDLError.check(SDL_RenderSetVSync(renderer, 0), "SDL_RenderSetVSync(0)")
            let host = try SDLHost(adopting: window, renderer: renderer, refreshRate: .hz30)
            defer { host.close() }
            XCTAssertFalse(host.hasVSyncFlag)
            XCTAssertEqual(host.refreshRate, .hz30)
            XCTAssertEqual(host.source.pacing, .deadline)
            XCTAssertTrue(host.pacingDescription.contains("no vsync flag"), host.pacingDescription)
            XCTAssertTrue(host.pacingDescription.contains("30 Hz"), host.pacingDescription)
        }
    }

    func testAdoptionRefusesWhatItCannotDrive() throws {
        try MainActor.assumeIsolated { () throws in
            // Without SDL video, nothing can be adopted (and nothing is started).
            XCTAssertEqual(SDL_WasInit(0), 0)
            try SDLError.check(SDL_Init(SDL_INIT_VIDEO), "SDL_Init")
            let window = try SDLError.check(
                SDL_CreateWindow("a", 0, 0, 64, 48, SDL_WINDOW_HIDDEN.rawValue), "SDL_CreateWindow")
            let other = try SDLError.check(
                SDL_CreateWindow("b", 0, 0, 64, 48, SDL_WINDOW_HIDDEN.rawValue), "SDL_CreateWindow")
            let otherRenderer = try SDLError.check(SDL_CreateRenderer(other, -1, 0), "SDL_CreateRenderer")
            defer {
                SDL_DestroyRenderer(otherRenderer)
                SDL_DestroyWindow(other)
                SDL_DestroyWindow(window)
            }

            XCTAssertThrowsError(try SDLHost(adopting: window, renderer: otherRenderer)) { error in
                XCTAssertTrue("\(error)".contains("another window"), "\(error)")
            }
            XCTAssertThrowsError(try SDLHost(adoptingGLWindow: window)) { error in
                XCTAssertTrue("\(error)".contains("SDL_WINDOW_OPENGL"), "\(error)")
            }
            XCTAssertNotEqual(SDL_GetWindowID(window), 0, "a refused adoption destroys nothing")
            XCTAssertNotEqual(SDL_GetWindowID(other), 0)

            let windowID = SDL_GetWindowID(window)
            SDL_QuitSubSystem(SDL_INIT_VIDEO)
            XCTAssertThrowsError(try SDLHost(adopting: window, renderer: otherRenderer)) { error in
                XCTAssertTrue("\(error)".contains("not initialized"), "\(error)")
            }
            XCTAssertEqual(SDL_WasInit(SDL_INIT_VIDEO), 0, "a refused adoption must not start SDL video")
            _ = windowID
        }
    }

    func testTheDummyDriverIsDetectedAsNotHonouringVSyncAndPacedByDeadline() throws {
        try MainActor.assumeIsolated { () throws in
            let host = try SDLHost(title: "vsync detection", width: 64, height: 48, vsync: true, hidden: true)
            defer { host.close() }
            XCTAssertEqual(host.source.pacing, .automatic, "a vsync renderer starts with automatic detection")
            XCTAssertEqual(
                host.presentationFeedback, .none(.notWayland), "the dummy driver has neither Wayland nor GLX")
            var timestamps: [FrameInstant] = []
            let link = DisplayLink { link in timestamps.append(link.timestamp) }
            link.add(to: host.loop, forMode: .common)
            host.renderHandler = { renderer in SDL_RenderClear(renderer) }
            host.run(frames: 30)

            XCTAssertEqual(host.source.mode, .deadline)
            guard case .presentReturnsAtOnce = host.pacingState.reason else {
                return XCTFail("expected present returns at once: \(host.pacingState)")
            }
            XCTAssertTrue(host.pacingDescription.hasPrefix("deadline"), host.pacingDescription)
            XCTAssertTrue(host.pacingDescription.contains("vsync not honoured"), host.pacingDescription)
            XCTAssertEqual(host.loop.statistics.pacingDescription, host.pacingDescription)
            XCTAssertEqual(host.loop.statistics.report.pacing, host.pacingDescription)
            // Paced by deadline rather than presented flat out.
            let meanInterval = (timestamps.last!.seconds - timestamps.first!.seconds) / Double(timestamps.count - 1)
            XCTAssertGreaterThan(meanInterval, 0.010, "mean interval \(meanInterval) s")
            link.invalidate()
        }
    }
}

/// Adoption and pacing reports with a real X11 window: run under Xvfb (`xvfb-run -a swift test`);
/// skipped without a `DISPLAY`.
final class SDLHostAdoptionXvfbTests: XCTestCase {
    override func tearDown() {
        if SDL_WasInit(0) != 0 { SDL_Quit() }
        super.tearDown()
    }

    private func requireDisplay() throws {
        guard let display = ProcessInfo.processInfo.environment["DISPLAY"], !display.isEmpty else {
            throw XCTSkip("DISPLAY is not set: run under an X server, e.g. `xvfb-run -a swift test`")
        }
        SDLTestSupport.useVideoDriver("x11")
    }

    func testUnderXvfbThePacingReportIsConsistentWithTheDetectedMode() throws {
        try requireDisplay()
        try MainActor.assumeIsolated { () throws in
            let host = try X11Retry.retrying { try SDLHost(title: "Xvfb pacing", width: 160, height: 120) }
            defer { host.close() }
            host.renderHandler = { renderer in SDL_RenderClear(renderer) }
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)
            host.run(frames: 90)
            XCTAssertEqual(link.callCount, 90)
            assertPacingReportIsConsistent(host)
            link.invalidate()
        }
    }

    func testAnAdoptedGLWindowIsPacedSwappedAndLeftToTheGame() throws {
        try requireDisplay()
        try MainActor.assumeIsolated { () throws in
            try X11Retry.initVideo()
            let flags = SDL_WINDOW_OPENGL.rawValue | SDL_WINDOW_HIDDEN.rawValue
            let window = try SDLError.check(SDL_CreateWindow("gl game", 0, 0, 96, 64, flags), "SDL_CreateWindow")
            defer { SDL_DestroyWindow(window) }
            guard let context = SDL_GL_CreateContext(window) else {
                throw XCTSkip("no OpenGL context on this display: \(String(cString: SDL_GetError()))")
            }
            defer { SDL_GL_DeleteContext(context) }
            let gl = try XCTUnwrap(GLFunctions(), "glClearColor/glClear not found")

            let host = try SDLHost(adoptingGLWindow: window)
            XCTAssertTrue(host.isAdopted)
            XCTAssertEqual(host.presentMethod, .openGL)
            XCTAssertNil(host.renderer)
            XCTAssertEqual(host.glContext, context)
            XCTAssertNotNil(host.swapInterval)
            XCTAssertEqual(host.hasVSyncFlag, host.swapInterval != 0)
            XCTAssertTrue(host.rendererName.hasPrefix("OpenGL"), host.rendererName)

            var draws = 0
            host.drawHandler = {
                draws += 1
                gl.clearColor(0.2, 0.4, 0.8, 1)
                gl.clear(0x4000)  // GL_COLOR_BUFFER_BIT
            }
            var timestamps: [FrameInstant] = []
            let link = DisplayLink { link in timestamps.append(link.timestamp) }
            link.add(to: host.loop, forMode: .common)
            host.run(frames: 30)

            XCTAssertEqual(draws, 30)
            XCTAssertEqual(host.presentCount, 29, "each drawn frame is swapped once (the last one next frame)")
            for (earlier, later) in zip(timestamps, timestamps.dropFirst()) {
                XCTAssertLessThan(earlier, later)
            }
            // Paced: never faster than the grid (load only makes frames later).
            PacingAssertions.assertPaced(timestamps, period: Double(host.loop.refreshRate.periodNanoseconds) / 1e9)
            assertPacingReportIsConsistent(host)
            XCTAssertTrue(host.pacingDescription.contains("swap interval"), host.pacingDescription)

            // The game's GL context holds what the handler drew.
            let path = SDLTestSupport.temporaryPath(".png")
            defer { try? FileManager.default.removeItem(atPath: path) }
            try host.screenshot(to: path)
            let pixel = try XCTUnwrap(SDLTestSupport.pixel(ofImageAt: path, x: 48, y: 32))
            XCTAssertEqual(Double(pixel.red), 0.2 * 255, accuracy: 2)
            XCTAssertEqual(Double(pixel.green), 0.4 * 255, accuracy: 2)
            XCTAssertEqual(Double(pixel.blue), 0.8 * 255, accuracy: 2)

            link.invalidate()
            host.close()
            XCTAssertNil(host.glContext)
            XCTAssertNotEqual(SDL_WasInit(SDL_INIT_VIDEO), 0, "close() must not quit the game's SDL video")
            XCTAssertNotEqual(SDL_GetWindowID(window), 0, "close() must not destroy the adopted window")
            XCTAssertEqual(SDL_GL_GetCurrentContext(), context, "close() must leave the game's context current")
            XCTAssertEqual(SDL_GL_MakeCurrent(window, context), 0, "the context still works")
        }
    }

    func testAnAdoptedRendererOnARealWindowReportsConsistentPacing() throws {
        try requireDisplay()
        try MainActor.assumeIsolated { () throws in
            try X11Retry.initVideo()
            let window = try SDLError.check(SDL_CreateWindow("game", 0, 0, 160, 120, 0), "SDL_CreateWindow")
            defer { SDL_DestroyWindow(window) }
            let renderer = try SDLError.check(
                SDL_CreateRenderer(window, -1, SDL_RENDERER_PRESENTVSYNC.rawValue), "SDL_CreateRenderer")
            defer { SDL_DestroyRenderer(renderer) }
            let host = try SDLHost(adopting: window, renderer: renderer)
            host.renderHandler = { renderer in
                SDL_SetRenderDrawColor(renderer, 240, 120, 0, 255)
                SDL_RenderClear(renderer)
            }
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)
            host.run(frames: 60)
            assertPacingReportIsConsistent(host)
            XCTAssertEqual(SDLTestSupport.readPixel(renderer, x: 80, y: 60)?.rgb, [240, 120, 0])
            // Xvfb's GLX lists no GLX_OML_sync_control; a software renderer has no GLX to ask.
            XCTAssertEqual(
                host.presentationFeedback,
                .none(host.isSoftwareRenderer ? .notWayland : .glxWithoutSyncControl), host.rendererDescription)
            link.invalidate()
            host.close()
            XCTAssertEqual(SDL_RenderGetWindow(renderer), window)
        }
    }
}

/// Whatever the detection decides under Xvfb (vsync or deadline), the report says it coherently.
@MainActor
func assertPacingReportIsConsistent(_ host: SDLHost, file: StaticString = #filePath, line: UInt = #line) {
    let description = host.pacingDescription
    XCTAssertTrue(
        description.hasPrefix(host.source.mode.rawValue),
        "the description '\(description)' must start with the mode \(host.source.mode)", file: file, line: line)
    let otherMode: PresentSource.Mode = host.source.mode == .vsync ? .deadline : .vsync
    XCTAssertFalse(description.hasPrefix(otherMode.rawValue), file: file, line: line)
    XCTAssertFalse(host.source.reason.isEmpty, "the mode needs a reason", file: file, line: line)
    XCTAssertTrue(description.contains(host.source.reason), description, file: file, line: line)
    XCTAssertEqual(host.loop.statistics.pacingDescription, description, file: file, line: line)
    XCTAssertEqual(host.loop.statistics.report.pacing, description, file: file, line: line)
}

/// glClearColor and glClear, looked up with `SDL_GL_GetProcAddress` (no GL headers needed).
private struct GLFunctions {
    typealias ClearColor = @convention(c) (Float, Float, Float, Float) -> Void
    typealias Clear = @convention(c) (UInt32) -> Void
    let clearColor: ClearColor
    let clear: Clear

    init?() {
        guard let clearColor = SDL_GL_GetProcAddress("glClearColor"), let clear = SDL_GL_GetProcAddress("glClear")
        else { return nil }
        self.clearColor = unsafeBitCast(clearColor, to: ClearColor.self)
        self.clear = unsafeBitCast(clear, to: Clear.self)
    }
}
