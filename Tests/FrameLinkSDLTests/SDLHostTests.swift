import CSDL2
import Foundation
@_spi(FrameSourceImplementation) import FrameLink
import FrameLinkSDL
import XCTest

/// SDLHost on SDL's dummy video driver: no display needed, the software renderer, present that
/// never blocks.
///
/// XCTest, not Swift Testing: SDL and the frame loop must run on the process main thread, where
/// XCTest runs its test methods (`MainActor.assumeIsolated` then holds). Do not mark these methods
/// `@MainActor`: on Linux that breaks XCTest's test discovery. SDL runs one video subsystem per
/// process, so each test opens and closes its own host and the tests run one after another.
final class SDLHostTests: SDLDummyDriverTestCase {
    func testADisplayLinkRunsThirtyFramesAtAboutTheDisplayRate() throws {
        try MainActor.assumeIsolated { () throws in
            let host = try SDLHost(title: "FrameLinkSDL test", width: 320, height: 240, hidden: true)
            defer { host.close() }
            XCTAssertTrue(host.isOpen)
            XCTAssertNotNil(host.window)
            if host.displayRefreshRate == nil {
                XCTAssertEqual(host.refreshRate, .hz60, "an unknown refresh rate must default to 60 Hz")
            }
            XCTAssertFalse(host.rendererName.isEmpty)
            XCTAssertTrue(host.isSoftwareRenderer, "the dummy driver has only the software renderer")
            XCTAssertTrue(host.rendererDescription.contains("software"), host.rendererDescription)
            XCTAssertTrue(host.pacingDescription.contains("deadline"), host.pacingDescription)

            var timestamps: [FrameInstant] = []
            let link = DisplayLink { link in timestamps.append(link.timestamp) }
            link.add(to: host.loop, forMode: .common)
            host.run(frames: 30)

            XCTAssertEqual(link.callCount, 30)
            XCTAssertEqual(timestamps.count, 30)
            for (earlier, later) in zip(timestamps, timestamps.dropFirst()) {
                XCTAssertLessThan(earlier, later, "frame timestamps must strictly increase")
            }
            // Paced at the display rate: never faster than its grid (load only makes frames later).
            PacingAssertions.assertPaced(timestamps, period: Double(host.loop.refreshRate.periodNanoseconds) / 1e9)
            link.invalidate()
        }
    }

    func testTheLoopsOwnHandlersAddToTheHostsInsteadOfReplacingThem() throws {
        try MainActor.assumeIsolated { () throws in
            let host = try SDLHost(title: "handlers", width: 160, height: 120, hidden: true)
            defer { host.close() }
            var order: [String] = []
            host.eventHandler = { event in
                if event.type == SDL_USEREVENT.rawValue { order.append("host event") }
            }
            host.renderHandler = { _ in order.append("host render") }
            // A game that sets the loop's own handlers, as FrameLoop's docs invite.
            host.loop.eventHandler = { _ in order.append("loop events") }
            host.loop.renderHandler = { _ in order.append("loop render") }
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)
            SDLTestSupport.push(SDL_USEREVENT)
            let presentsBefore = host.presentCount
            host.run(frames: 3)
            link.invalidate()
            XCTAssertEqual(
                Array(order.prefix(4)), ["host event", "loop events", "loop render", "host render"],
                "the host pumps first and marks the frame after the game drew: \(order)")
            XCTAssertGreaterThanOrEqual(host.presentCount - presentsBefore, 2, "frames are still presented")
            SDLTestSupport.push(SDL_QUIT)
            let framesBefore = host.loop.frameIndex
            host.run(frames: 5)
            XCTAssertEqual(host.loop.frameIndex - framesBefore, 1, "SDL_QUIT still stops the loop after its frame")
        }
    }

    func testAQuitEventStopsRun() throws {
        try MainActor.assumeIsolated { () throws in
            let host = try SDLHost(title: "quit", width: 160, height: 120, hidden: true)
            defer { host.close() }
            var quitSeen = false
            host.eventHandler = { event in
                if event.type == SDL_QUIT.rawValue { quitSeen = true }
            }
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)
            host.run(frames: 3)

            var timedOut = false
            let safety = FrameTimer(interval: .seconds(5), repeats: false) { _ in
                timedOut = true
                host.loop.stop()
            }
            safety.add(to: host.loop, forMode: .common)
            SDLTestSupport.push(SDL_QUIT)
            let framesBefore = host.loop.frameIndex
            host.run()

            XCTAssertFalse(timedOut, "run() did not return after SDL_QUIT")
            XCTAssertTrue(quitSeen, "the event handler must see SDL_QUIT before the loop stops")
            XCTAssertEqual(host.loop.frameIndex - framesBefore, 1, "the loop stops after the frame that saw SDL_QUIT")
            XCTAssertFalse(host.loop.isRunning)
            safety.invalidate()
        }
    }

    func testPushedEventsReachTheEventHandlerInOrder() throws {
        try MainActor.assumeIsolated { () throws in
            let host = try SDLHost(title: "events", width: 160, height: 120, hidden: true)
            defer { host.close() }
            let userType = SDL_RegisterEvents(1)
            XCTAssertNotEqual(userType, UInt32.max, "SDL_RegisterEvents failed")
            var codes: [Int32] = []
            var keys: [Int32] = []
            host.eventHandler = { event in
                if event.type == userType { codes.append(event.user.code) }
                if event.type == SDL_KEYDOWN.rawValue { keys.append(event.key.keysym.sym) }
            }
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)

            SDLTestSupport.push(rawType: userType) { $0.user.code = 1 }
            SDLTestSupport.push(SDL_KEYDOWN) { $0.key.keysym.sym = Int32(SDLK_SPACE.rawValue) }
            SDLTestSupport.push(rawType: userType) { $0.user.code = 2 }
            host.run(frames: 2)

            XCTAssertEqual(codes, [1, 2])
            XCTAssertEqual(keys, [Int32(SDLK_SPACE.rawValue)])
        }
    }

    func testALeftButtonDragSwitchesToTrackingWhereOnlyCommonTimersFire() throws {
        try MainActor.assumeIsolated { () throws in
            let host = try SDLHost(title: "drag", width: 160, height: 120, hidden: true)
            defer { host.close() }
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)
            var defaultFires = 0
            var commonFires = 0
            let defaultTimer = FrameTimer(interval: .milliseconds(1), repeats: true) { _ in defaultFires += 1 }
            defaultTimer.add(to: host.loop, forMode: .default)
            let commonTimer = FrameTimer(interval: .milliseconds(1), repeats: true) { _ in commonFires += 1 }
            commonTimer.add(to: host.loop, forMode: .common)

            host.run(frames: 6)  // after the three start-up frames presented back to back
            XCTAssertEqual(host.loop.currentMode, .default)
            XCTAssertGreaterThan(defaultFires, 0)

            // Motion without a button is not a drag.
            SDLTestSupport.pushMotion(x: 20, y: 20, leftHeld: false)
            host.run(frames: 1)
            XCTAssertEqual(host.loop.currentMode, .default)
            XCTAssertFalse(host.isTrackingDrag)

            // Button down alone is a click so far; the first motion with the button held starts the drag.
            var modeSeenByHandler: RunLoopMode?
            host.eventHandler = { event in
                if event.type == SDL_MOUSEMOTION.rawValue { modeSeenByHandler = host.loop.currentMode }
            }
            SDLTestSupport.pushLeftButton(SDL_MOUSEBUTTONDOWN)
            host.run(frames: 1)
            XCTAssertEqual(host.loop.currentMode, .default, "a press without motion is not a drag yet")
            SDLTestSupport.pushMotion(x: 30, y: 30, leftHeld: true)
            host.run(frames: 1)
            XCTAssertEqual(host.loop.currentMode, .tracking)
            XCTAssertTrue(host.isTrackingDrag)
            XCTAssertEqual(modeSeenByHandler, .tracking, "the handler sees the event after the mode switch")

            let defaultBefore = defaultFires
            let commonBefore = commonFires
            host.run(frames: 10)
            XCTAssertEqual(defaultFires, defaultBefore, "a .default timer must not fire while tracking")
            XCTAssertEqual(commonFires - commonBefore, 10, "a .common timer fires once per frame while tracking")

            SDLTestSupport.pushLeftButton(SDL_MOUSEBUTTONUP)
            host.run(frames: 2)
            XCTAssertEqual(host.loop.currentMode, .default)
            XCTAssertFalse(host.isTrackingDrag)
            XCTAssertGreaterThan(defaultFires, defaultBefore, "the .default timer resumes after the drag")
            host.eventHandler = nil
        }
    }

    func testDragTrackingCanBeTurnedOff() throws {
        try MainActor.assumeIsolated { () throws in
            let host = try SDLHost(title: "no drag", width: 160, height: 120, hidden: true)
            defer { host.close() }
            host.tracksMouseDrags = false
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)
            SDLTestSupport.pushLeftButton(SDL_MOUSEBUTTONDOWN)
            SDLTestSupport.pushMotion(x: 30, y: 30, leftHeld: true)
            host.run(frames: 2)
            XCTAssertEqual(host.loop.currentMode, .default)
            XCTAssertFalse(host.isTrackingDrag)
        }
    }

    func testAnIdleLoopWakesForInputWithoutSpinning() throws {
        try MainActor.assumeIsolated { () throws in
            let host = try SDLHost(title: "idle", width: 160, height: 120, hidden: true)
            defer { host.close() }
            let userType = SDL_RegisterEvents(1)
            let pushedAt = Shared<Int64?>(nil)
            var wokeAt: Int64?
            host.eventHandler = { event in
                if event.type == userType {
                    wokeAt = Self.monotonicNanoseconds()
                    host.loop.stop()
                }
            }
            var timedOut = false
            let safety = FrameTimer(interval: .seconds(60), repeats: false) { _ in
                timedOut = true
                host.loop.stop()
            }
            safety.add(to: host.loop, forMode: .common)

            // Count the idle loop's checks for input: one per sleep of at most `idleSlice`, so a loop
            // that sleeps makes few, one that spins makes millions. The first tells the pusher the
            // loop is idle.
            let idle = DispatchSemaphore(value: 0)
            var checks = 0
            let check = try XCTUnwrap(host.source.inputPending)
            host.source.inputPending = {
                checks += 1
                if checks == 1 { idle.signal() }
                return check()
            }

            // No display link: the loop sleeps until input. SDL_PushEvent is thread-safe. The pusher
            // lets the loop idle a while (how long does not matter), then pushes and notes when.
            Thread.detachNewThread {
                guard idle.wait(timeout: .now() + .seconds(30)) == .success else { return }
                Thread.sleep(forTimeInterval: 0.3)
                var event = SDL_Event()
                event.type = userType
                pushedAt.value = Self.monotonicNanoseconds()
                SDL_PushEvent(&event)
            }
            let start = Self.monotonicNanoseconds()
            host.run()
            let end = Self.monotonicNanoseconds()

            XCTAssertFalse(timedOut, "the idle loop did not wake for input")
            let pushed = try XCTUnwrap(pushedAt.value, "the loop never checked for input while idle")
            let woke = try XCTUnwrap(wokeAt)
            XCTAssertGreaterThanOrEqual(woke, pushed, "the loop woke for the event, after it was pushed")
            XCTAssertLessThan(Double(woke - pushed) / 1e9, 10, "input wakes the idle loop (within 10 s, however busy)")
            // A sleeping loop checks once per slice at most (a busy machine makes the sleeps longer, so
            // fewer checks), plus once per wake-up for a timer or main-queue work.
            let slice =
                Double(host.loop.waiter.idleSlice.components.attoseconds) / 1e18
                + Double(host.loop.waiter.idleSlice.components.seconds)
            let most = Int(Double(end - start) / 1e9 / slice) + 50
            XCTAssertLessThanOrEqual(checks, most, "an idle loop must sleep, not spin: \(checks) checks for input")
            XCTAssertGreaterThan(checks, 1)
            safety.invalidate()
        }
    }

    /// CLOCK_MONOTONIC, in nanoseconds, on any thread.
    private static func monotonicNanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    func testFramesDrawnWhileIdleArePresentedOnceEach() throws {
        try MainActor.assumeIsolated { () throws in
            let host = try SDLHost(title: "idle present", width: 64, height: 48, hidden: true)
            defer { host.close() }
            var drawn = 0
            host.renderHandler = { _ in drawn += 1 }
            // No display link: the loop wakes only for the timer, and must still show what it drew.
            let timer = FrameTimer(interval: .milliseconds(20), repeats: true, repeatCount: 5) { timer in
                if timer.fireCount == 5 { host.loop.stop() }
            }
            timer.add(to: host.loop, forMode: .common)
            let presentsBefore = host.presentCount
            host.run()

            XCTAssertGreaterThanOrEqual(drawn, 5)
            // Each drawn frame is presented once, before the next wait; the last one when the loop
            // next waits (not yet, so the screenshot can still read it).
            XCTAssertGreaterThanOrEqual(host.presentCount - presentsBefore, drawn - 1)
            XCTAssertLessThanOrEqual(host.presentCount - presentsBefore, drawn)
        }
    }

    func testScreenshotSavesTheDrawnFrameAsAPNG() throws {
        try MainActor.assumeIsolated { () throws in
            let host = try SDLHost(title: "screenshot", width: 64, height: 48, hidden: true)
            defer { host.close() }
            host.renderHandler = { renderer in
                SDL_SetRenderDrawColor(renderer, 200, 30, 40, 255)
                SDL_RenderClear(renderer)
                SDL_SetRenderDrawColor(renderer, 20, 220, 60, 255)
                var square = SDL_Rect(x: 0, y: 0, w: 16, h: 16)
                SDL_RenderFillRect(renderer, &square)
            }
            let link = DisplayLink { _ in }
            link.add(to: host.loop, forMode: .common)
            host.run(frames: 3)

            let path = SDLTestSupport.temporaryPath(".png")
            defer { try? FileManager.default.removeItem(atPath: path) }
            try host.screenshot(to: path)
            let size = host.outputSize
            XCTAssertEqual(SDLTestSupport.imageSize(at: path)?.width, size.width)
            XCTAssertEqual(SDLTestSupport.imageSize(at: path)?.height, size.height)
            let corner = try XCTUnwrap(SDLTestSupport.pixel(ofImageAt: path, x: 2, y: 2))
            XCTAssertEqual([corner.red, corner.green, corner.blue, corner.alpha], [20, 220, 60, 255])
            let middle = try XCTUnwrap(SDLTestSupport.pixel(ofImageAt: path, x: size.width / 2, y: size.height / 2))
            XCTAssertEqual([middle.red, middle.green, middle.blue, middle.alpha], [200, 30, 40, 255])
        }
    }

    func testBadInputThrowsClearErrorsInsteadOfCrashing() throws {
        try MainActor.assumeIsolated { () throws in
            XCTAssertThrowsError(try SDLHost(title: "zero", width: 0, height: 100, hidden: true)) { error in
                XCTAssertTrue("\(error)".contains("width 0"), "\(error)")
            }
            XCTAssertThrowsError(try SDLHost(title: "huge", width: 100, height: 100_000, hidden: true))
            XCTAssertEqual(SDL_WasInit(0), 0, "a refused host must not leave SDL initialized")

            let host = try SDLHost(title: "bad paths", width: 64, height: 48, hidden: true)
            XCTAssertThrowsError(try host.screenshot(to: "")) { error in
                XCTAssertTrue("\(error)".contains("empty"), "\(error)")
            }
            XCTAssertThrowsError(try host.screenshot(to: "/nonexistent-folder-\(UUID().uuidString)/shot.png")) {
                error in
                XCTAssertTrue(error is SDLError)
                XCTAssertTrue("\(error)".contains("IMG_SavePNG"), "\(error)")
            }
            host.close()
            host.close()  // twice is fine
            XCTAssertFalse(host.isOpen)
            XCTAssertNil(host.renderer)
            XCTAssertEqual(SDL_WasInit(0), 0, "close() must shut SDL down")
            host.run(frames: 5)  // returns at once
            host.run()
            XCTAssertEqual(host.loop.frameIndex, 0)
            XCTAssertThrowsError(try host.screenshot(to: SDLTestSupport.temporaryPath(".png"))) { error in
                XCTAssertTrue("\(error)".contains("closed"), "\(error)")
            }
        }
    }

    func testAReleasedHostClosesItself() throws {
        try MainActor.assumeIsolated { () throws in
            weak var weakHost: SDLHost?
            do {
                let host = try SDLHost(title: "released", width: 64, height: 48, hidden: true)
                host.eventHandler = { _ in _ = host.isOpen }  // a cycle that close() breaks
                host.renderHandler = { _ in }
                DisplayLink { _ in }.add(to: host.loop, forMode: .common)
                weakHost = host
                host.run(frames: 2)
                host.close()
            }
            XCTAssertNil(weakHost, "a closed host must not be kept alive by its handlers or its loop")

            do {
                let host = try SDLHost(title: "dropped", width: 64, height: 48, hidden: true)
                DisplayLink { _ in }.add(to: host.loop, forMode: .common)
                weakHost = host
                host.run(frames: 1)
            }
            XCTAssertNil(weakHost)
            XCTAssertEqual(SDL_WasInit(0), 0, "deinit must close the host and shut SDL down")
        }
    }

    /// The main thread's nice level (on Linux, `getpriority` of the calling process is the
    /// calling thread's).
    static func niceLevel() -> Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }

    func testAHostRaisesTheMainThreadsPriorityThroughSDLAndSaysWhatItGot() throws {
        try MainActor.assumeIsolated { () throws in
            let original = Self.niceLevel()
            // Back to the level the test process had, whatever the host got (root may lower it).
            defer { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, original) }
            // From the default level (any thread may raise its nice level; earlier hosts lowered it).
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 0)
            let before = Self.niceLevel()
            let host = try SDLHost(title: "priority", width: 160, height: 120, hidden: true)
            defer { host.close() }
            XCTAssertTrue(host.pacingDescription.contains("main thread at nice"), host.pacingDescription)
            let after = Self.niceLevel()
            XCTAssertLessThanOrEqual(after, before, "SDL never lowers the priority it was asked to raise")
            if after < before {
                XCTAssertTrue(
                    host.pacingDescription.contains("nice \(after) (SDL_SetThreadPriority"), host.pacingDescription)
            } else {
                // Refused (no privilege and no rtkit): said so, with SDL's reason.
                XCTAssertTrue(host.pacingDescription.contains("could not raise it"), host.pacingDescription)
            }
        }
    }

    func testAGameThatTurnsItOffKeepsItsOwnPriority() throws {
        try MainActor.assumeIsolated { () throws in
            SDLHost.raisesMainThreadPriority = false
            defer { SDLHost.raisesMainThreadPriority = true }
            let before = Self.niceLevel()
            let host = try SDLHost(title: "own priority", width: 160, height: 120, hidden: true)
            defer { host.close() }
            XCTAssertEqual(Self.niceLevel(), before)
            XCTAssertFalse(host.pacingDescription.contains("main thread"), host.pacingDescription)
        }
    }
}
