import Logging
import Testing

@_spi(FrameSourceImplementation) @testable import FrameLink

/// FrameLink logs pacing decisions through swift-log (label `framelink`) when they change, never per
/// frame; on the display lab, with a handler that keeps the messages.
@MainActor
@Suite("Pacing decisions go to swift-log", .serialized)
struct PacingLogTests {
    /// A log handler that keeps every message.
    final class Capture: LogHandler, @unchecked Sendable {
        // Written and read on the main actor only (the tests and the frame loop run there).
        var messages: [(level: Logger.Level, text: String)] = []
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        /// Called with each message, as a game's handler might (annotating it with the loop's state).
        var onLog: (@MainActor () -> Void)?

        func log(event: LogEvent) {
            messages.append((event.level, "\(event.message)"))
            MainActor.assumeIsolated { onLog?() }
        }
    }

    /// Runs `body` with FrameLink's logger writing into a capture, and returns what it kept.
    /// `level` is the capture's level (every message unless told).
    func capturing(
        level: Logger.Level = .trace, onLog: (@MainActor () -> Void)? = nil, _ body: () -> Void
    ) -> [(level: Logger.Level, text: String)] {
        let capture = Capture()
        capture.logLevel = level
        capture.onLog = onLog
        let previous = FrameLinkLogging.logger
        FrameLinkLogging.logger = Logger(label: FrameLinkLogging.label) { _ in capture }
        defer { FrameLinkLogging.logger = previous }
        body()
        return capture.messages
    }

    @Test("a game that never sets up logging sees nothing routine: locks, mode changes, re-locks, frame-rate switches")
    func routineDecisionsAreQuietByDefault() throws {
        // swift-log's default handler prints info and above.
        var frames = 0
        let messages = capturing(level: .info) {
            let lab = DisplayLab(
                refresh: .fixed(.hz60, phase: .milliseconds(3)), jitter: .uniform(upTo: .microseconds(300)))
            let source = lab.makeSource()
            source.automaticFrameRate = true
            let loop = FrameLoop(source: source)
            DisplayLink { link in
                frames += 1
                lab.work(for: .milliseconds(link.frameIndex >= 700 && link.frameIndex < 900 ? 20 : 2))
                if link.frameIndex == 300 { lab.isHidden = true }
                if link.frameIndex == 400 { lab.isHidden = false }
                if link.frameIndex == 500 { lab.changeRefresh(to: .fixed(.hz75)) }
            }.add(to: loop, forMode: .common)
            loop.run(frames: 1_200)
        }
        #expect(frames == 1_200)
        #expect(messages.isEmpty, "\(messages.map(\.text))")
    }

    @Test("a fit no display can have is a problem worth a notice, said once")
    func implausibleFitIsANotice() throws {
        // A present that blocks to a 1,000 Hz grid, then to one 0.99 ms apart: a rate no display has.
        var fits = 0
        let messages = capturing(level: .info) {
            let clock = VirtualClock()
            let source = PresentSource(displayRefreshRate: FrameRate(numerator: 1_000), clock: clock)
            var vsync: Int64 = 0
            source.present = {
                vsync += vsync < 300_000_000 ? 1_000_000 : 990_000
                clock.sleep(untilNanoseconds: vsync)
            }
            let loop = FrameLoop(source: source)
            DisplayLink { _ in clock.advance(nanoseconds: 100_000) }.add(to: loop, forMode: .common)
            loop.run(frames: 1_000)
            fits = source.pacer.discardedImplausibleFits
        }
        #expect(fits >= 1)
        let notices = messages.filter { $0.level == .notice && $0.text.contains("no display has") }
        #expect(notices.count == 1, "\(messages.map(\.text))")
        #expect(messages.count == notices.count, "\(messages.map(\.text))")
    }

    @Test("a phase lock and a switch to deadline pacing are logged once each")
    func lockAndModeChanges() throws {
        var frames = 0
        let messages = capturing {
            let lab = DisplayLab(refresh: .fixed(.hz60, phase: .milliseconds(3)))
            let source = lab.makeSource()
            let loop = FrameLoop(source: source)
            DisplayLink { link in
                frames += 1
                lab.work(for: .milliseconds(2))
                if link.frameIndex == 600 { source.pacing = .deadline }
            }.add(to: loop, forMode: .common)
            loop.run(frames: 1_200)
        }
        #expect(frames == 1_200)
        let texts = messages.map(\.text)
        #expect(texts.contains { $0.hasPrefix("vsync: phase-locked") }, "\(texts)")
        let switches = messages.filter { $0.text.hasPrefix("pacing: vsync → deadline") }
        #expect(switches.count == 1, "\(texts)")
        // A routine decision: debug, which swift-log's default handler (info and above) does not print.
        #expect(switches.first?.level == .debug)
        #expect(messages.count < 10, "logged on changes, not per frame: \(texts)")
    }

    @Test("under jitter and overruns, a phase lock that a stray return breaks for a frame is not logged each time")
    func lockDoesNotFlap() throws {
        var lockChanges = 0
        let messages = capturing {
            let lab = DisplayLab(
                refresh: .fixed(.hz60, phase: .milliseconds(1)), jitter: .uniform(upTo: .microseconds(300)), seed: 7)
            let source = lab.makeSource()
            // Every 97th present returns 3 ms late (a compositor hiccup): later than any delay seen,
            // a return the grid cannot explain, which ends the lock until the next returns fit.
            var presents = 0
            source.present = {
                lab.present()
                presents += 1
                if presents % 97 == 0 { lab.work(for: .milliseconds(3)) }
            }
            let loop = FrameLoop(source: source)
            var wasLocked = false
            DisplayLink { _ in
                lab.work(for: .milliseconds(2))
                if source.isPhaseLocked != wasLocked { lockChanges += 1 }
                wasLocked = source.isPhaseLocked
            }.add(to: loop, forMode: .common)
            loop.run(frames: 4_000)
        }
        let lock = messages.filter { $0.text.hasPrefix("vsync: phase") }
        #expect(lockChanges > 10, "the scenario breaks the lock often: \(lockChanges) changes")
        #expect(lock.count <= 3, "\(lockChanges) lock changes, logged as \(lock.map(\.text))")
    }

    @Test("a move to a display of another rate logs the re-lock")
    func relock() throws {
        let messages = capturing {
            let lab = DisplayLab(refresh: .fixed(.hz60))
            let source = lab.makeSource()
            let loop = FrameLoop(source: source)
            DisplayLink { link in
                lab.work(for: .milliseconds(2))
                if link.frameIndex == 600 { lab.changeRefresh(to: .fixed(.hz75)) }
            }.add(to: loop, forMode: .common)
            loop.run(frames: 1_500)
        }
        #expect(messages.contains { $0.text.hasPrefix("vsync: re-locked") }, "\(messages.map(\.text))")
    }

    @Test("the automatic frame rate logs its switch to every 2nd vsync")
    func automaticFrameRate() throws {
        let messages = capturing {
            let lab = DisplayLab(refresh: .fixed(.hz60))
            let source = lab.makeSource()
            source.automaticFrameRate = true
            let loop = FrameLoop(source: source)
            DisplayLink { _ in lab.work(for: .milliseconds(20)) }.add(to: loop, forMode: .common)
            loop.run(frames: 300)
        }
        #expect(
            messages.contains { $0.text.hasPrefix("automatic frame rate: presenting every 2nd vsync") },
            "\(messages.map(\.text))")
    }

    @Test(
        "a loop's first real-time wait logs what scheduling it got, once, even after waits with it turned off",
        arguments: [false, true])
    func waitScheduling(startsTurnedOff: Bool) throws {
        let messages = capturing {
            let source = DeadlineSource(refreshRate: 1_000)
            let loop = FrameLoop(source: source)
            loop.drainsMainQueue = false
            DisplayLink { _ in }.add(to: loop, forMode: .common)
            if startsTurnedOff {
                loop.waiter.usesRealTimeScheduling = false
                loop.run(frames: 2)
                loop.waiter.usesRealTimeScheduling = true
            }
            loop.run(frames: 3)  // 3 ms of real waits: the decision is made on the first
        }
        let waits = messages.filter { $0.text.hasPrefix("frame waits:") }
        #expect(waits.count == 1, "\(messages.map(\.text))")
    }

    /// Runs `frames` frames on a 60 Hz lab display with 0.3 ms of jitter that moves to 75 Hz at
    /// frame 500 without the source being told; `setUp` gets the source first, and `work` says each
    /// frame's work (and may change the lab). Returns the frames run.
    static func runMovingDisplay(
        frames: Int, setUp: (PresentSource) -> Void, work: @escaping @MainActor (Int64, DisplayLab) -> Duration
    ) -> Int {
        let lab = DisplayLab(
            refresh: .fixed(.hz60, phase: .milliseconds(3)), jitter: .uniform(upTo: .microseconds(300)))
        let source = lab.makeSource()
        setUp(source)
        let loop = FrameLoop(source: source)
        var count = 0
        DisplayLink { link in
            count += 1
            lab.work(for: work(link.frameIndex, lab))
            if link.frameIndex == 500 { lab.changeRefresh(to: .fixed(.hz75)) }
        }.add(to: loop, forMode: .common)
        loop.run(frames: frames)
        return count
    }

    @Test(
        "a log handler may read the source for every message (mode changes, a lock gained and lost, a re-lock, the automatic frame rate both ways): lines are written once the pacer's work is done, never inside it (a read there was a fatal access conflict)"
    )
    func handlerReadsTheSource() throws {
        var reads = 0
        var source: PresentSource?
        let readTheSource: @MainActor () -> Void = {
            guard let source else { return }
            // What a game's handler might add to each line: the pacing state, the rate, the lock.
            _ = source.pacingDescription
            _ = (source.mode, source.reason, source.pacingState, source.refreshRate, source.measuredRefreshRate)
            _ = (source.isPhaseLocked, source.targetTimestamp, source.presentInterval, source.frameRateChoice)
            _ = (source.now, source.presentCount, source.receivesPresentationFeedback, source.acceptsLateFrames)
            reads += 1
        }
        let messages = capturing(onLog: readTheSource) {
            let frames = Self.runMovingDisplay(frames: 1_200) { made in
                source = made
                made.automaticFrameRate = true
            } work: { index, lab in
                if index == 300 { lab.isHidden = true }
                if index == 400 { lab.isHidden = false }
                return .milliseconds(index >= 700 && index < 900 ? 20 : 2)
            }
            #expect(frames == 1_200)
        }
        #expect(reads == messages.count)
        let texts = messages.map(\.text)
        for said in [
            "pacing: deadline → vsync", "vsync: phase-locked", "re-locked", "pacing: vsync → deadline",
            "phase lock lost", "presenting every 2nd vsync", "back to the full rate",
        ] {
            #expect(texts.contains { $0.contains(said) }, "\(said): \(texts)")
        }
    }

    @Test(
        "a log handler may change the source for every message (hide and show it, switch the automatic frame rate): the change takes effect after the pacer's work, never in the middle of a decision"
    )
    func handlerChangesTheSource() throws {
        var changes = 0
        var source: PresentSource?
        let changeTheSource: @MainActor () -> Void = {
            guard let source else { return }
            // Written inside the pacer's work, a hide there reached a rule that holds only for
            // shown windows ("a hidden window's frames are paced before any present is measured").
            source.isWindowHidden = !source.isWindowHidden
            source.automaticFrameRate.toggle()
            changes += 1
        }
        var frames = 0
        let messages = capturing(onLog: changeTheSource) {
            frames = Self.runMovingDisplay(frames: 1_000) {
                source = $0
            } work: { index, _ in
                .milliseconds(index % 97 == 0 ? 40 : 2)
            }
        }
        #expect(frames == 1_000)
        #expect(changes == messages.count && changes > 0)
    }
}
