import CSDL2
import Foundation
import FrameLink
import XCTest

@testable import FrameLinkSDL

/// Window options on SDL's dummy video driver (one display, 1024 × 768): the flags, the display,
/// the position, and what is refused.
final class SDLHostWindowOptionsTests: SDLDummyDriverTestCase {
    func testFullscreenResizableAndBorderlessWindowsGetTheirFlags() throws {
        try MainActor.assumeIsolated { () throws in
            var options = WindowOptions()
            options.mode = .fullscreenDesktop
            options.isResizable = true
            options.isBorderless = true
            options.allowsHighDPI = false
            options.isHidden = true
            let host = try SDLHost(title: "options", width: 320, height: 240, options: options)
            defer { host.close() }
            let flags = SDL_GetWindowFlags(try XCTUnwrap(host.window))
            XCTAssertEqual(flags & SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue, SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue)
            XCTAssertNotEqual(flags & SDL_WINDOW_RESIZABLE.rawValue, 0)
            XCTAssertNotEqual(flags & SDL_WINDOW_BORDERLESS.rawValue, 0)
            XCTAssertEqual(flags & SDL_WINDOW_ALLOW_HIGHDPI.rawValue, 0)
            // Fullscreen at the desktop's mode covers the display.
            var bounds = SDL_Rect()
            XCTAssertEqual(SDL_GetDisplayBounds(0, &bounds), 0)
            var width: Int32 = 0
            var height: Int32 = 0
            SDL_GetWindowSize(host.window, &width, &height)
            XCTAssertEqual([width, height], [bounds.w, bounds.h])
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)
            host.run(frames: 5)
            XCTAssertEqual(link.callCount, 5)
        }
    }

    func testAWindowOpensWhereItIsAsked() throws {
        try MainActor.assumeIsolated { () throws in
            var options = WindowOptions()
            options.position = .at(x: 30, y: 40)
            options.display = 0
            options.isHidden = true
            let host = try SDLHost(title: "placed", width: 200, height: 100, options: options)
            defer { host.close() }
            var x: Int32 = 0
            var y: Int32 = 0
            SDL_GetWindowPosition(host.window, &x, &y)
            XCTAssertEqual([x, y], [30, 40])
            XCTAssertEqual(SDL_GetWindowDisplayIndex(host.window), 0)
        }
    }

    func testADisplayThatDoesNotExistOrAPositionOutOfRangeIsRefused() throws {
        try MainActor.assumeIsolated { () throws in
            var options = WindowOptions()
            options.display = 5
            options.isHidden = true
            XCTAssertThrowsError(try SDLHost(title: "nowhere", width: 200, height: 100, options: options)) { error in
                XCTAssertTrue(
                    "\(error)".contains("display 5 does not exist: SDL reports 1 display (0...0)"), "\(error)")
            }
            XCTAssertEqual(SDL_WasInit(SDL_INIT_VIDEO), 0, "a refused window leaves SDL's video shut down")
            options.display = nil
            options.position = .at(x: 100_000, y: 0)
            XCTAssertThrowsError(try SDLHost(title: "far", width: 200, height: 100, options: options)) { error in
                XCTAssertTrue("\(error)".contains("window position (100000, 0) is out of range"), "\(error)")
            }
        }
    }

    func testAnIdleLoopOnTheDummyDriverWaitsForNoInputAndPollsWhileSDLPollsDevices() throws {
        try MainActor.assumeIsolated { () throws in
            let host = try SDLHost(title: "idle", width: 160, height: 120, hidden: true)
            defer { host.close() }
            guard case .descriptors(connection: nil, wake: let wake?) = host.idleInput() else {
                return XCTFail("the dummy driver has no connection, and pushed events wake: \(host.idleInput())")
            }
            XCTAssertGreaterThanOrEqual(wake, 0)
            XCTAssertEqual(SDL_InitSubSystem(SDL_INIT_JOYSTICK), 0)
            XCTAssertEqual(host.idleInput(), .polled, "SDL polls joysticks itself: ask every slice")
            SDL_QuitSubSystem(SDL_INIT_JOYSTICK)
            XCTAssertEqual(host.idleInput(), .descriptors(connection: nil, wake: wake))
            // With one timer and no link, the loop sleeps to the timer: two wake-ups, not a slice's worth.
            var fired = false
            FrameTimer(interval: .milliseconds(100), repeats: false) { _ in fired = true }.add(
                to: host.loop, forMode: .common)
            let before = host.loop.waiter.idleWakeUps
            while !fired { host.run(frames: 1) }
            XCTAssertLessThanOrEqual(host.loop.waiter.idleWakeUps - before, 3)
        }
    }

    func testTheRefreshRateIsReadAgainWhenTheWindowMovesOrChangesSize() {
        XCTAssertTrue(SDLHost.mayChangeRefreshRate(UInt8(SDL_WINDOWEVENT_DISPLAY_CHANGED.rawValue)))
        XCTAssertTrue(SDLHost.mayChangeRefreshRate(UInt8(SDL_WINDOWEVENT_SIZE_CHANGED.rawValue)))
        XCTAssertFalse(SDLHost.mayChangeRefreshRate(UInt8(SDL_WINDOWEVENT_MOVED.rawValue)))
        XCTAssertFalse(SDLHost.mayChangeRefreshRate(UInt8(SDL_WINDOWEVENT_FOCUS_LOST.rawValue)))
    }
}
