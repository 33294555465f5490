import Foundation
@_spi(FrameSourceImplementation) import FrameLink
import FuzzCorpus

/// Runs one input as a script for a frame loop on virtual time: the first bytes choose a pacing
/// source (``PresentSource``, ``DeadlineSource`` or ``ManualFrameSource``), the display rate the
/// host would report (0, 1, 23, 59, 59.94, 60, 144, 500, 1,000 Hz — 0 is "unreported", as SDL says
/// under Xvfb), the display's true rate and the source's settings; then each frame reads its work,
/// how its present returns (at once, zero-length, blocking to the true vsync with a delay, exactly
/// on it, a nanosecond before or after it, a fixed time, a 10 s gap), and at most one event
/// (a presentation report that may be out of order, repeated, in the future or for a frame never
/// presented; a hidden window; another reported rate; a frame-rate range; a forced pacing mode;
/// a stall). Everything goes through the public API.
///
/// Nothing may trap or hang, and every frame's timestamp, target, delta and rate stays finite and
/// ordered: a violation stops the process (libFuzzer saves the input).
@MainActor
func exercise(_ bytes: [UInt8]) {
    // Warnings for requests a source cannot follow are expected here, and slow the fuzzer down.
    FrameLinkLogging.logger.logLevel = .critical
    var script = Script(bytes)
    switch script.byte() % 4 {
    case 0: runPresentSource(&script)
    case 1: runDeadlineSource(&script)
    case 2: runManualFrameSource(&script)
    default: runDisplayLab(&script)
    }
}

/// The most frames one input runs (each takes at least one byte).
let maximumFrames = 3_000

/// Rates a host may report: what SDL says on real displays and under Xvfb (0: unknown).
let reportedRates: [FrameRate?] = [
    nil, FrameRate(numerator: 1), FrameRate(numerator: 23), FrameRate(numerator: 59), .hz59_94, .hz60,
    FrameRate(numerator: 144), FrameRate(numerator: 500), FrameRate(numerator: 1_000),
]

/// The input, read a byte at a time; past its end every byte is 0.
struct Script {
    let bytes: [UInt8]
    var position = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var isAtEnd: Bool { position >= bytes.count }
    mutating func byte() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }
    mutating func word() -> Int { Int(byte()) << 8 | Int(byte()) }
    /// Up to `maximum` nanoseconds, in 256 steps.
    mutating func nanoseconds(upTo maximum: Int64) -> Int64 { Int64(byte()) * maximum / 255 }
    mutating func reportedRate() -> FrameRate? { reportedRates[Int(byte()) % reportedRates.count] }
}

/// A display with a true vsync on virtual time, which a present may block on.
@MainActor
final class TrueDisplay {
    let clock: VirtualClock
    var period: Int64
    var phase: Int64
    init(clock: VirtualClock, period: Int64, phase: Int64) {
        self.clock = clock
        self.period = period
        self.phase = phase
    }
    /// The first vsync after now.
    var nextVsync: Int64 {
        let now = clock.now
        let index = (now - phase) >= 0 ? (now - phase) / period + 1 : 0
        return phase + index * period
    }
}

/// Checks what the loop hands a link each frame: finite, ordered times and rates a display can have.
@MainActor
final class FrameChecker {
    var lastTimestamp: FrameInstant?
    var frames = 0

    func check(_ link: DisplayLink, measured: FrameRate?) {
        frames += 1
        let timestamp = link.timestamp
        // (Equal only when nothing took any time: a present, a frame and a wait of zero length.)
        if let lastTimestamp, timestamp < lastTimestamp {
            fatalError("frame \(link.frameIndex): timestamp \(timestamp) before the last one, \(lastTimestamp)")
        }
        lastTimestamp = timestamp
        guard link.targetTimestamp >= timestamp else {
            fatalError("frame \(link.frameIndex): target \(link.targetTimestamp) before the timestamp \(timestamp)")
        }
        guard link.deltaTime >= .zero, link.duration > .zero else {
            fatalError("frame \(link.frameIndex): deltaTime \(link.deltaTime), duration \(link.duration)")
        }
        let seconds = link.deltaTime.components.seconds
        guard seconds < 1_000_000 else { fatalError("frame \(link.frameIndex): deltaTime \(link.deltaTime)") }
        if let measured, !(1...1_000).contains(measured.framesPerSecond) {
            fatalError("frame \(link.frameIndex): a measured rate of \(measured), not a display's")
        }
    }

    /// The statistics stay finite, and their report and drops print.
    func checkStatistics(of loop: FrameLoop) {
        let report = loop.statistics.report
        for value in [report.meanFramesPerSecond, report.hitchTimeRatio, report.frameTimeP99Milliseconds] {
            guard value.isFinite, value >= 0 else { fatalError("statistics: \(value) in \(report.summary)") }
        }
        guard loop.statistics.droppedFrames >= 0 else { fatalError("negative drops") }
        _ = report.summary
        for drop in loop.statistics.drops { _ = drop.description }
    }
}

@MainActor
func runPresentSource(_ script: inout Script) {
    let clock = VirtualClock(start: Int64(script.word()) * 1_000_000)
    let reported = script.reportedRate()
    let trueHertz = 20 + Double(script.word()) / 65_535 * 480
    let period = Int64(1e9 / trueHertz)
    let display = TrueDisplay(clock: clock, period: period, phase: Int64(script.byte()) * period / 256)
    let settings = script.byte()
    let pacing: PresentSource.Pacing = [.automatic, .vsync, .deadline, .unpaced][Int(settings & 3)]
    let source = PresentSource(displayRefreshRate: reported ?? .hz60, pacing: pacing, clock: clock)
    // As SDLHost does: a rate assumed for a display that reports none is a cap.
    source.capsAtDisplayRefreshRate = reported == nil
    source.swapChainBuffers = settings & 4 == 0 ? 2 : 3
    source.automaticFrameRate = settings & 8 != 0
    if settings & 16 != 0 {
        source.variableRefreshRange = FrameRate(numerator: 48)...FrameRate(numerator: 144)
    }
    let loop = FrameLoop(source: source)
    loop.drainsMainQueue = false
    loop.minimizesInputLatency = settings & 32 != 0

    var isHidden = false
    var presentKind: UInt8 = 0
    var presentArgument: Int64 = 0
    source.present = {
        switch presentKind % 8 {
        case _ where isHidden: break
        case 0: break  // returns at once
        case 1: clock.sleep(untilNanoseconds: display.nextVsync + presentArgument)  // blocks, then a delay
        case 2: clock.sleep(untilNanoseconds: display.nextVsync)  // exactly on the vsync
        case 3: clock.sleep(untilNanoseconds: display.nextVsync - 1)  // a nanosecond before it
        case 4: clock.sleep(untilNanoseconds: display.nextVsync + 1)  // a nanosecond after it
        case 5: clock.advance(nanoseconds: presentArgument)  // a fixed time
        case 6: clock.advance(nanoseconds: 10_000_000_000)  // a 10 s gap
        default: clock.sleep(untilNanoseconds: display.nextVsync + display.period)  // a missed vsync
        }
    }
    let checker = FrameChecker()
    var frameScript = script
    let link = DisplayLink { link in
        checker.check(link, measured: source.measuredRefreshRate)
        presentKind = frameScript.byte()
        presentArgument = frameScript.nanoseconds(upTo: 4_000_000)
        clock.advance(nanoseconds: frameScript.nanoseconds(upTo: 40_000_000))
        let event = frameScript.byte()
        switch event % 16 {
        case 0:
            // A presentation report, right or wrong.
            let frame = source.presentCount + Int64(frameScript.byte() % 7) - 3
            let offset = Int64(Int8(bitPattern: frameScript.byte())) * 500_000
            source.reportPresentation(ofFrame: frame, at: FrameInstant(nanoseconds: source.now.nanoseconds + offset))
        case 1:
            let extremes: [Int64] = [.max, .min, 0, -1, .max - 1]
            source.reportPresentation(
                ofFrame: source.presentCount, at: FrameInstant(nanoseconds: extremes[Int(event >> 4) % extremes.count]))
        case 2: isHidden.toggle()
        case 3: source.displayRefreshRate = frameScript.reportedRate() ?? .hz60
        case 4:
            let low = Int64(frameScript.byte() % 120) + 1
            let high = low + Int64(frameScript.byte() % 120)
            loop.preferredFrameRateRange = FrameRateRange(
                minimum: FrameRate(numerator: low), maximum: FrameRate(numerator: high),
                preferred: FrameRate(numerator: high))
        case 5: loop.preferredFrameRateRange = nil
        case 6: source.pacing = [.automatic, .vsync, .deadline, .unpaced][Int(event >> 4) % 4]
        case 7: display.period = Int64(1e9 / (20 + Double(frameScript.byte()) / 255 * 480))  // another display
        case 8: clock.advance(nanoseconds: 10_000_000_000)  // a 10 s stall in the frame
        default: break
        }
    }
    link.add(to: loop, forMode: .common)
    runFrames(of: loop, with: link, checkedBy: checker) { !frameScript.isAtEnd }
    _ = source.pacingDescription
}

/// PresentSource on a ``DisplayLab`` display (a swap chain of 2 or 3 buffers, a present delay, a
/// fixed, variable or emulated refresh), with frame costs, hidden windows and moves from the script.
@MainActor
func runDisplayLab(_ script: inout Script) {
    let hertz = 20 + Double(script.word()) / 65_535 * 480
    let rate = FrameRate(numerator: Int64((hertz * 100).rounded()), denominator: 100)
    let settings = script.byte()
    let refresh: DisplayLab.Refresh
    switch settings % 4 {
    case 0, 1:
        refresh = .fixed(rate, phase: .nanoseconds(Int64(script.byte()) * rate.periodNanoseconds / 256))
    case 2: refresh = .variable(minimum: FrameRate(numerator: 20), maximum: rate)
    default: refresh = .emulated(rate)
    }
    let delay = Duration.nanoseconds(Int64(script.word()) * 50)  // up to 3.3 ms
    let jitter: PresentJitter =
        switch settings >> 2 % 3 {
        case 0: .none
        case 1: .uniform(upTo: delay)
        default: .exponential(mean: delay)
        }
    let lab = DisplayLab(
        refresh: refresh, buffers: settings & 16 == 0 ? 2 : 3, jitter: jitter, seed: UInt64(script.byte()),
        feedback: settings & 32 != 0)
    let source = lab.makeSource()
    let loop = FrameLoop(source: source)
    loop.drainsMainQueue = false
    let checker = FrameChecker()
    var frameScript = script
    let period = rate.periodNanoseconds
    let link = DisplayLink { link in
        checker.check(link, measured: source.measuredRefreshRate)
        // Work from nothing to 1.5 periods, in 256 steps.
        lab.work(for: .nanoseconds(Int64(frameScript.byte()) * period * 3 / 512))
        let event = frameScript.byte()
        switch event % 32 {
        case 0: lab.isHidden.toggle()
        case 1:
            let other = FrameRate(numerator: Int64(frameScript.byte()) % 220 + 24)
            lab.changeRefresh(to: .fixed(other))
            source.displayRefreshRate = other
        case 2: lab.work(for: .milliseconds(Int64(frameScript.byte())))  // an overrun
        default: break
        }
    }
    link.add(to: loop, forMode: .common)
    runFrames(of: loop, with: link, checkedBy: checker) { !frameScript.isAtEnd }
}

@MainActor
func runDeadlineSource(_ script: inout Script) {
    let clock = VirtualClock(start: Int64(script.word()) * 1_000_000)
    let source = DeadlineSource(refreshRate: script.reportedRate() ?? .hz60, clock: clock)
    let loop = FrameLoop(source: source)
    loop.drainsMainQueue = false
    loop.minimizesInputLatency = script.byte() & 1 != 0
    let checker = FrameChecker()
    var frameScript = script
    let link = DisplayLink { link in
        checker.check(link, measured: nil)
        clock.advance(nanoseconds: frameScript.nanoseconds(upTo: 60_000_000))
        let event = frameScript.byte()
        switch event % 8 {
        case 0: source.refreshRate = frameScript.reportedRate() ?? .hz60
        case 1: clock.advance(nanoseconds: 10_000_000_000)
        case 2:
            let rate = Int64(frameScript.byte() % 240) + 1
            loop.preferredFrameRateRange = FrameRateRange(exactly: FrameRate(numerator: rate))
        case 3: link.isPaused = frameScript.byte() & 1 == 0
        default: break
        }
    }
    link.add(to: loop, forMode: .common)
    // A timer keeps the loop waking while the link is paused.
    let timer = FrameTimer(timeInterval: 0.05, repeats: true) { _ in }
    timer.add(to: loop, forMode: .common)
    var iterations = 0
    while iterations < maximumFrames && !frameScript.isAtEnd {
        loop.runFrame()
        iterations += 1
        if link.isPaused { _ = frameScript.byte() }
    }
    link.invalidate()
    timer.invalidate()
    checker.checkStatistics(of: loop)
}

@MainActor
func runManualFrameSource(_ script: inout Script) {
    let rate = script.reportedRate() ?? .hz60
    let source = ManualFrameSource(refreshRate: rate)
    let loop = FrameLoop(source: source)
    loop.drainsMainQueue = false
    let checker = FrameChecker()
    // Each frame's work, set by the script between frames.
    let work = FrameWork()
    let link = DisplayLink { link in
        checker.check(link, measured: nil)
        if work.nanoseconds != 0 { source.simulateWork(for: .nanoseconds(work.nanoseconds)) }
    }
    link.add(to: loop, forMode: .common)
    while checker.frames < maximumFrames && !script.isAtEnd {
        let operation = script.byte()
        let argument = Int64(Int16(bitPattern: UInt16(script.word())))
        work.nanoseconds = operation & 0x80 != 0 ? argument * 100_000 : 0
        switch operation % 5 {
        case 0: source.advance(frames: Int(argument % 8))
        case 1: source.advance(by: .nanoseconds(argument * 1_000_000))
        case 2: source.advance(to: source.now + .nanoseconds(argument * 1_000_000))
        case 3: source.advance(to: FrameInstant(nanoseconds: argument))
        default: source.simulateWork(for: .nanoseconds(argument * 1_000))
        }
    }
    link.invalidate()
    checker.checkStatistics(of: loop)
}

/// Runs frames of `loop` while the script has bytes (`hasScript`), at most ``maximumFrames``, then
/// ends `link` and checks the statistics.
@MainActor
func runFrames(of loop: FrameLoop, with link: DisplayLink, checkedBy checker: FrameChecker, while hasScript: () -> Bool)
{
    while checker.frames < maximumFrames && hasScript() {
        loop.runFrame()
    }
    link.invalidate()
    checker.checkStatistics(of: loop)
}

/// The work of a ManualFrameSource frame, which the script sets between frames.
@MainActor
final class FrameWork {
    var nanoseconds: Int64 = 0
}

#if FRAMELINK_LIBFUZZER
    /// libFuzzer's entry point: one input per call, on the main thread.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        MainActor.assumeIsolated { exercise(bytes) }
        return 0
    }
#else
    /// Without libFuzzer: runs the named files or folders once (see `runCorpus(named:_:)`).
    @main
    struct PacingFuzz {
        static func main() throws {
            try MainActor.assumeIsolated { try runCorpus(named: "PacingFuzz", exercise) }
        }
    }
#endif
