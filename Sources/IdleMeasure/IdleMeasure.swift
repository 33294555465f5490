import ArgumentParser
import CSDL2
import Foundation
import FrameLink
import FrameLinkSDL

/// `make idle`: what an idle game costs. An SDLHost with a hidden window and no display link, one
/// repeating 1 s timer, for a number of seconds: the main thread's wake-ups (its context switches,
/// read from /proc, from outside the loop), its CPU time, and how late the timer fired.
@main
struct IdleMeasure: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "IdleMeasure",
        abstract: "Measure an idle SDLHost loop: wake-ups per second, CPU and timer lateness with a 1 s timer.")

    @Option(help: "Seconds to idle (2...600).")
    var seconds = 10

    @Flag(
        help: ArgumentHelp(
            "Start SDL's joystick subsystem first, so the loop asks for input every idle slice (the way it idles "
                + "while SDL polls devices itself), for comparison."))
    var polled = false

    func validate() throws {
        guard (2...600).contains(seconds) else { throw ValidationError("--seconds takes 2...600, not \(seconds)") }
    }

    func run() throws {
        let result = try MainActor.assumeIsolated { () throws -> String in
            let host = try SDLHost(title: "idle", width: 160, height: 120, hidden: true)
            defer { host.close() }
            if polled { _ = SDL_InitSubSystem(SDL_INIT_JOYSTICK) }
            defer { if polled { SDL_QuitSubSystem(SDL_INIT_JOYSTICK) } }
            let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "?"
            let tally = Tally()
            let measured = FrameTimer(interval: .seconds(1), repeats: true) { timer in
                tally.late.append(host.loop.now.nanoseconds - tally.due)
                tally.due += 1_000_000_000
                tally.fires += 1
                if tally.fires == seconds { host.loop.stop() }
            }
            tally.due = host.loop.now.nanoseconds + 1_000_000_000
            measured.fireDate = FrameInstant(nanoseconds: tally.due)
            measured.add(to: host.loop, forMode: .common)
            let switchesBefore = Self.contextSwitches()
            let cpuBefore = Self.threadCPUNanoseconds()
            let wakesBefore = host.loop.waiter.idleWakeUps
            let start = ContinuousClock.now
            host.run()
            let elapsed = ContinuousClock.now - start
            let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let switches = Self.contextSwitches() - switchesBefore
            let cpu = Double(Self.threadCPUNanoseconds() - cpuBefore) / 1e9
            let wakes = host.loop.waiter.idleWakeUps - wakesBefore
            let worst = Double(tally.late.max() ?? 0) / 1e6
            return String(
                format:
                    "%@ driver%@: %d s, %d timer fires; %.1f context switches/s (%.2f per fire), %.1f idle wake-ups/s; "
                    + "CPU %.3f %% of a core; timer late by at most %.3f ms",
                driver, polled ? " (polled)" : "", seconds, tally.fires, Double(switches) / wall,
                Double(switches) / Double(max(tally.fires, 1)),
                Double(wakes) / wall, cpu / wall * 100, worst)
        }
        print(result)
    }

    /// The main thread's voluntary and involuntary context switches so far.
    static func contextSwitches() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8) else { return 0 }
        return text.split(separator: "\n").filter { $0.contains("ctxt_switches") }.compactMap {
            Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "")
        }.reduce(0, +)
    }

    /// The calling thread's CPU time in nanoseconds.
    static func threadCPUNanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}

/// What the measured timer saw.
@MainActor final class Tally {
    var due: Int64 = 0
    var fires = 0
    var late: [Int64] = []
}
