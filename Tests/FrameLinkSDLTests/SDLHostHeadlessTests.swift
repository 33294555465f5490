import CSDL2
import Foundation
import FrameLink
import FrameLinkSDL
import XCTest

/// The headless host: SDL's dummy driver chosen for the caller, and virtual time that runs N frames
/// at once with an ideal display's statistics. XCTest on the process main thread.
final class SDLHostHeadlessTests: XCTestCase {
    override func tearDown() {
        if SDL_WasInit(0) != 0 { SDL_Quit() }
        unsetenv("SDL_VIDEODRIVER")
        super.tearDown()
    }

    /// One headless run on virtual time: the frame log, the link's calls and the timer's fires.
    @MainActor
    static func runHeadless(frames: Int) throws -> (log: [FrameRecord], calls: Int, fires: Int, host: SDLHost) {
        let host = try SDLHost.headless(width: 320, height: 180)
        host.loop.frameLog = FrameLog(periodNanoseconds: host.loop.refreshRate.periodNanoseconds)
        var calls = 0
        var fires = 0
        DisplayLink { _ in calls += 1 }.add(to: host.loop, forMode: .common)
        FrameTimer(interval: .seconds(1), repeats: true) { _ in fires += 1 }.add(to: host.loop, forMode: .default)
        host.renderHandler = { renderer in
            SDL_SetRenderDrawColor(renderer, 10, 20, 30, 255)
            SDL_RenderClear(renderer)
        }
        let start = host.loop.now
        host.run(frames: frames)
        XCTAssertEqual(host.loop.now - start, .seconds(10), "600 frames at 60 Hz are exactly 10 s of virtual time")
        return (host.loop.frameLog?.records ?? [], calls, fires, host)
    }

    func testAHeadlessHostUsesTheDummyDriverWhateverTheEnvironmentSays() throws {
        try MainActor.assumeIsolated { () throws in
            setenv("SDL_VIDEODRIVER", "no-such-driver", 1)
            let host = try SDLHost.headless()
            XCTAssertTrue(host.isHeadless)
            XCTAssertEqual(host.headlessTime, .virtual)
            XCTAssertEqual(String(cString: SDL_GetCurrentVideoDriver()), "dummy")
            XCTAssertTrue(host.pacingDescription.contains("headless: the dummy video driver, virtual time at 60 Hz"))
            XCTAssertEqual(host.presentationFeedback, .none(.headless))
            XCTAssertFalse(host.pacingDescription.contains("presentation feedback"), "said only with a display")
            XCTAssertEqual(
                SDL_GetHint(SDL_HINT_VIDEODRIVER).map { String(cString: $0) }, "no-such-driver",
                "SDL reads the environment again")
            host.close()
            // A failed headless start leaves the environment in charge too.
            XCTAssertThrowsError(try SDLHost.headless(height: 20_000))
            setenv("SDL_VIDEODRIVER", "dummy", 1)
            XCTAssertEqual(SDL_GetHint(SDL_HINT_VIDEODRIVER).map { String(cString: $0) }, "dummy")
        }
    }

    func testVirtualTimeRunsSixHundredFramesExactlyOnTheGridWithNoDrops() throws {
        try MainActor.assumeIsolated { () throws in
            let run = try Self.runHeadless(frames: 600)
            XCTAssertEqual(run.calls, 600)
            XCTAssertEqual(run.fires, 10)
            let statistics = run.host.loop.statistics
            XCTAssertEqual(statistics.droppedFrames, 0)
            XCTAssertEqual(run.log.count, 599)
            for record in run.log {
                XCTAssertEqual(record.droppedFrames, 0)
                XCTAssertTrue(
                    record.intervalNanoseconds == 16_666_666 || record.intervalNanoseconds == 16_666_667,
                    "interval \(record.intervalNanoseconds) off the grid")
            }
            run.host.close()
        }
    }

    func testInputEventsAreMeasuredToTheScreenAndLatencyModeReadsThemLater() throws {
        try MainActor.assumeIsolated { () throws in
            for latencyMode in [false, true] {
                let host = try SDLHost.headless(width: 160, height: 90)
                host.loop.minimizesInputLatency = latencyMode
                var keys = 0
                host.eventHandler = { event in if event.type == SDL_KEYDOWN.rawValue { keys += 1 } }
                // Every 10th frame a key press arrives (the user types); a 2 ms frame of work.
                var clock: VirtualClock?
                if let virtual = host.source.clock as? VirtualClock { clock = virtual }
                DisplayLink { link in
                    clock?.advance(nanoseconds: 2_000_000)
                    if link.frameIndex % 10 == 0 { SDLTestSupport.push(SDL_KEYDOWN) }
                }.add(to: host.loop, forMode: .common)
                host.run(frames: 600)
                let statistics = host.loop.statistics
                XCTAssertEqual(statistics.inputEvents, keys, "every key press is measured")
                XCTAssertGreaterThan(keys, 50)
                // Pumped at the start of the next frame, shown at that frame's target: one period
                // on virtual time, less in latency mode (the frame begins late).
                let mean = statistics.meanInputLatency
                if latencyMode {
                    XCTAssertLessThan(mean, .milliseconds(8), "\(statistics.summary)")
                } else {
                    XCTAssertEqual(mean.secondsValue, 1.0 / 60, accuracy: 0.0002, "\(statistics.summary)")
                }
                XCTAssertTrue(statistics.summary.contains("input to screen: mean"), statistics.summary)
                host.close()
            }
        }
    }

    func testTwoHeadlessRunsAreIdentical() throws {
        try MainActor.assumeIsolated { () throws in
            let first = try Self.runHeadless(frames: 600)
            first.host.close()
            let second = try Self.runHeadless(frames: 600)
            second.host.close()
            XCTAssertEqual(first.log.map(\.timestamp), second.log.map(\.timestamp))
            XCTAssertEqual(first.log.map(\.interval), second.log.map(\.interval))
            XCTAssertEqual(first.calls, second.calls)
        }
    }

    func testRealTimeHeadlessPacesByDeadline() throws {
        try MainActor.assumeIsolated { () throws in
            let host = try SDLHost.headless(refreshRate: 120, time: .real)
            XCTAssertEqual(host.headlessTime, .real)
            XCTAssertTrue(host.pacingDescription.contains("real time at 120 Hz"), host.pacingDescription)
            var calls = 0
            DisplayLink { _ in calls += 1 }.add(to: host.loop, forMode: .common)
            host.run(frames: 12)
            XCTAssertEqual(calls, 12)
            XCTAssertEqual(host.source.mode, .deadline)
            host.close()
        }
    }

    func testABadSizeIsAnSDLErrorNotACrash() throws {
        try MainActor.assumeIsolated { () throws in
            XCTAssertThrowsError(try SDLHost.headless(width: 0)) { error in
                XCTAssertTrue("\(error)".contains("width 0 is out of range"), "\(error)")
            }
        }
    }
}
