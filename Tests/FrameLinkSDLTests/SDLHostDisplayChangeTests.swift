import CSDL2
@_spi(FrameSourceImplementation) import FrameLink
import XCTest

@testable import FrameLinkSDL

/// A window moved to another display: the host takes that display's refresh rate, so that pacing
/// follows it (and a vsync faster than the rate it was told is never taken for the display's).
///
/// XCTest on the process main thread, SDL's dummy driver (see `SDLHostTests`).
final class SDLHostDisplayChangeTests: SDLDummyDriverTestCase {
    func testAMoveToA144HertzDisplayChangesTheRateTheLoopPacesTo() throws {
        try MainActor.assumeIsolated { () throws in
            let host = try SDLHost(title: "moved", width: 160, height: 120, hidden: true)
            defer { host.close() }
            host.displayChanged(reportedRate: 144)
            XCTAssertEqual(host.displayRefreshRate, 144)
            XCTAssertEqual(host.refreshRate, FrameRate(numerator: 144))
            XCTAssertEqual(host.source.displayRefreshRate, FrameRate(numerator: 144))
            XCTAssertFalse(host.source.capsAtDisplayRefreshRate, "a reported rate is the display's, not a cap")
            XCTAssertTrue(
                host.source.pacingDescription.contains("the display's reported refresh rate (144 Hz)"),
                host.source.pacingDescription)
            // Back on a display that reports no rate: 60 Hz assumed, and said.
            host.displayChanged(reportedRate: nil)
            XCTAssertEqual(host.source.displayRefreshRate, .hz60)
            XCTAssertTrue(host.source.capsAtDisplayRefreshRate, "an assumed rate is a cap from the first frame")
            XCTAssertTrue(
                host.source.pacingDescription.contains("the display reports no refresh rate, 60 Hz assumed"),
                host.source.pacingDescription)
        }
    }

    func testHidingMinimizingShowingAndRestoringTheWindowTellThePacing() throws {
        try MainActor.assumeIsolated { () throws in
            let host = try SDLHost(title: "hidden", width: 160, height: 120, hidden: true)
            defer { host.close() }
            XCTAssertFalse(host.source.isWindowHidden, "a window is taken as shown until SDL says otherwise")
            @MainActor func send(_ kind: SDL_WindowEventID) {
                var event = SDL_Event()
                event.type = SDL_WINDOWEVENT.rawValue
                event.window.event = UInt8(kind.rawValue)
                host.handle(event)
            }
            let expected: [(SDL_WindowEventID, Bool)] = [
                (SDL_WINDOWEVENT_HIDDEN, true), (SDL_WINDOWEVENT_SHOWN, false), (SDL_WINDOWEVENT_MINIMIZED, true),
                (SDL_WINDOWEVENT_FOCUS_LOST, true), (SDL_WINDOWEVENT_RESTORED, false),
                (SDL_WINDOWEVENT_MINIMIZED, true), (SDL_WINDOWEVENT_EXPOSED, false), (SDL_WINDOWEVENT_HIDDEN, true),
                (SDL_WINDOWEVENT_MAXIMIZED, false), (SDL_WINDOWEVENT_MOVED, false),
            ]
            for (kind, hidden) in expected {
                send(kind)
                XCTAssertEqual(host.source.isWindowHidden, hidden, "after window event \(kind.rawValue)")
                XCTAssertEqual(host.loop.isOutputHidden, hidden, "after window event \(kind.rawValue)")
            }
        }
    }

    func testAMinimizedWindowRunsNoFramesPresentsNothingAndCountsNoDropWhenRestored() throws {
        try MainActor.assumeIsolated { () throws in
            let host = try SDLHost(title: "minimized", width: 160, height: 120, hidden: true)
            defer { host.close() }
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)
            var renders = 0
            host.renderHandler = { _ in renders += 1 }
            var ticks = 0
            FrameTimer(interval: .milliseconds(20), repeats: true) { _ in ticks += 1 }.add(
                to: host.loop, forMode: .common)
            host.run(frames: 10)
            XCTAssertEqual(link.callCount, 10)
            let presents = host.presentCount
            SDLTestSupport.push(SDL_WINDOWEVENT) { $0.window.event = UInt8(SDL_WINDOWEVENT_MINIMIZED.rawValue) }
            host.run(frames: 1)  // reads the event
            let callsWhenMinimized = link.callCount
            let presentsWhenMinimized = host.presentCount
            XCTAssertTrue(host.loop.isOutputHidden)
            let ticksBefore = ticks
            host.run(frames: 5)
            XCTAssertEqual(link.callCount, callsWhenMinimized, "no display-link frames while minimized")
            XCTAssertEqual(host.presentCount, presentsWhenMinimized, "nothing presented while minimized")
            XCTAssertEqual(ticks, ticksBefore + 5, "each idle wake was a timer fire")
            XCTAssertLessThanOrEqual(presentsWhenMinimized, presents + 1)
            SDLTestSupport.push(SDL_WINDOWEVENT) { $0.window.event = UInt8(SDL_WINDOWEVENT_RESTORED.rawValue) }
            host.run(frames: 10)
            XCTAssertFalse(host.loop.isOutputHidden)
            XCTAssertGreaterThan(link.callCount, callsWhenMinimized)
            XCTAssertEqual(host.loop.statistics.droppedFrames, 0, "the time minimized is no drop")
            XCTAssertGreaterThan(renders, 0)
        }
    }

    func testARateGivenToTheHostIsKeptAcrossMoves() throws {
        try MainActor.assumeIsolated { () throws in
            let cap = FrameRate(numerator: 50)
            let host = try SDLHost(title: "capped", width: 160, height: 120, refreshRate: cap, hidden: true)
            defer { host.close() }
            host.displayChanged(reportedRate: 144)
            XCTAssertEqual(host.displayRefreshRate, 144)
            XCTAssertEqual(host.refreshRate, cap)
            XCTAssertEqual(host.source.displayRefreshRate, cap)
            XCTAssertTrue(host.source.capsAtDisplayRefreshRate, "a rate given to the host is a cap")
        }
    }

    func testTheDisplayChangedEventIsHandled() throws {
        try MainActor.assumeIsolated { () throws in
            let host = try SDLHost(title: "event", width: 160, height: 120, hidden: true)
            defer { host.close() }
            // The dummy driver's one display: the event makes the host ask again, and the answer is
            // what it was (the rate stays; nothing else changes).
            let before = host.displayRefreshRate
            var event = SDL_Event()
            event.type = SDL_WINDOWEVENT.rawValue
            event.window.event = UInt8(SDL_WINDOWEVENT_DISPLAY_CHANGED.rawValue)
            host.handle(event)
            XCTAssertEqual(host.displayRefreshRate, before)
            host.displayChanged(reportedRate: 75)
            host.handle(event)
            XCTAssertEqual(host.displayRefreshRate, before, "the event replaces a stale rate with the display's")
        }
    }
}
