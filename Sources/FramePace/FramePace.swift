import ArgumentParser
import Foundation
import FrameLink

/// `make pace`: FrameLink's deadline pacing against the C probe `../shared/probes/vs.c`, on a quiet
/// machine and under CPU load, counted over thousands of frames.
///
/// Each pacer paces 60 Hz in runs of 300 frames (the probe's run), interleaved so that all of them
/// see the same machine; for each load the table counts, per 10,000 intervals, those off the period
/// by more than 0.25, 0.5, 1 and 2 ms, with the CPU each used. The load is busy-loop copies of this
/// program at normal priority, started and stopped by it.
@main
struct FramePace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "FramePace",
        abstract: "Measure FrameLink's deadline pacing against the C probe, quiet and under CPU load.")

    /// The probe's run: vs.c paces 300 frames a run.
    static let runLength = 300
    /// The period paced, in milliseconds.
    static let period = 1000.0 / 60

    @Option(help: "Frames each pacer paces under each load (rounded up to runs of 300; 300...100000).")
    var frames = 6000

    @Option(help: ArgumentHelp("The vs probe built with scripts/vs-intervals.h.", valueName: "path"))
    var probe: String?

    @Option(
        help: ArgumentHelp(
            "Loads, as numbers of busy-loop processes, comma-separated (each 0...8).", valueName: "list"))
    var loads = "0,1,2"

    @Option(
        help: ArgumentHelp(
            "Pacers, comma-separated: \(Pacer.allCases.map(\.rawValue).joined(separator: ", ")); or all.",
            valueName: "list"))
    var pacers = Pacer.defaults.map(\.rawValue).joined(separator: ",")

    @Option(help: ArgumentHelp("Write every interval to this file (load, pacer, interval in ms).", valueName: "path"))
    var intervals: String?

    @Option(help: "Seeds per display-lab scenario in the vsync table (1...50; 0 skips the table).")
    var labSeeds = 20

    @Option(help: "Frames per display-lab run (300...20000).")
    var labFrames = 2000

    @Flag(help: "Print only the display-lab vsync table (no real-time pacing runs).")
    var labOnly = false

    @Flag(help: .hidden)
    var busyLoop = false

    /// Set in a child process that serves a ``ChildPacer``: the grant it takes.
    @Option(help: .hidden)
    var servePacer: String?

    /// The loads asked for.
    var loadList: [Load] {
        get throws {
            try loads.split(separator: ",").map { item in
                guard let count = Int(item.trimmingCharacters(in: .whitespaces)), (0...8).contains(count) else {
                    throw ValidationError("--loads takes numbers of busy-loop processes in 0...8, not '\(item)'")
                }
                return Load(busyProcesses: count)
            }
        }
    }

    /// The pacers asked for.
    var pacerList: [Pacer] {
        get throws {
            if pacers.trimmingCharacters(in: .whitespaces) == "all" { return Pacer.allCases }
            return try pacers.split(separator: ",").map { item in
                guard let pacer = Pacer(rawValue: item.trimmingCharacters(in: .whitespaces)) else {
                    throw ValidationError(
                        "unknown pacer '\(item)' (use \(Pacer.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                return pacer
            }
        }
    }

    func validate() throws {
        if busyLoop { return }
        if let servePacer {
            guard SchedulingGrant(argument: servePacer) != nil else {
                throw ValidationError(
                    "--serve-pacer takes none, rtprio:PRIORITY or rtkit-realtime:PRIORITY (1...99),"
                        + " rtkit-nice:LEVEL (-20...19) or slice:MICROSECONDS (100...100000), not '\(servePacer)'")
            }
            return
        }
        guard (300...100_000).contains(frames) else { throw ValidationError("--frames takes 300...100000") }
        guard (0...50).contains(labSeeds) else { throw ValidationError("--lab-seeds takes 0...50") }
        guard (300...20_000).contains(labFrames) else { throw ValidationError("--lab-frames takes 300...20000") }
        if labOnly && labSeeds == 0 { throw ValidationError("--lab-only needs --lab-seeds of at least 1") }
        if labOnly { return }
        _ = try loadList
        let chosen = try pacerList
        if chosen.isEmpty { throw ValidationError("--pacers names no pacer") }
        if chosen.contains(where: \.isProbe) {
            guard let probe else { throw ValidationError("the probe pacers need --probe PATH (make pace builds it)") }
            guard FileManager.default.isExecutableFile(atPath: probe) else {
                throw ValidationError("--probe \(probe) is not an executable file")
            }
        }
        if let intervals, !FileManager.default.createFile(atPath: intervals, contents: nil) {
            throw ValidationError("cannot create --intervals \(intervals)")
        }
    }

    func run() throws {
        if busyLoop { BusyLoops.spin() }
        if let grant = servePacer.flatMap(SchedulingGrant.init(argument:)) {
            MainActor.assumeIsolated { PacerServer.serve(grant) }
        }
        if labSeeds > 0 {
            try MainActor.assumeIsolated { try LabTable.print(seeds: labSeeds, frames: labFrames) }
        }
        if labOnly { return }
        let loads = try loadList
        let pacers = try pacerList
        let runs = (frames + Self.runLength - 1) / Self.runLength
        print(
            "\nDeadline pacing at 60 Hz: \(runs * Self.runLength) frames per pacer and load, interleaved in runs of"
                + " \(Self.runLength); counts are intervals off the 16.667 ms period by more than each"
                + " threshold, per 10,000 intervals.")
        var log = intervals.flatMap { FileHandle(forWritingAtPath: $0) }
        for load in loads {
            print(
                "Measuring under: \(load.title) (\(runs) rounds of \(pacers.count) runs, about \(runs * pacers.count * 5) s)"
            )
            // Flushed at once, also into a pipe (`make pace` tees it): the run takes many minutes.
            fflush(nil)
            let tallies = try MainActor.assumeIsolated {
                try measure(pacers, under: load, runs: runs, log: &log)
            }
            PaceReport.print(tallies, load: load, period: Self.period)
            fflush(nil)
        }
        try log?.close()
    }

    /// Runs `runs` runs of each pacer under `load`, interleaved (the order turns each round, so that
    /// no pacer always follows the same one).
    @MainActor
    func measure(_ pacers: [Pacer], under load: Load, runs: Int, log: inout FileHandle?) throws -> [PaceReport.Row] {
        let frameLinks = Dictionary(
            uniqueKeysWithValues: pacers.filter { !$0.isProbe && $0.grant == nil }.map {
                ($0, FrameLinkRun(realTime: $0 == .frameLink))
            })
        // Started before the load, so that the grants are asked for on a quiet machine.
        var children: [Pacer: ChildPacer] = [:]
        defer { for child in children.values { child.stop() } }
        for pacer in pacers {
            if let grant = pacer.grant { children[pacer] = try ChildPacer(grant: grant) }
        }
        // A pacer whose child could not take its grant has no runs: its row says why.
        let running = pacers.filter { children[$0]?.unavailableReason == nil }
        var tallies = Dictionary(uniqueKeysWithValues: pacers.map { ($0, PaceTally()) })
        let busy = try BusyLoops(count: load.busyProcesses)
        defer { busy.stop() }
        for round in 0..<runs {
            for offset in running.indices {
                let pacer = running[(round + offset) % running.count]
                let result =
                    if let frameLink = frameLinks[pacer] {
                        frameLink.run(intervals: Self.runLength)
                    } else if let child = children[pacer] {
                        try child.run(intervals: Self.runLength)
                    } else {
                        try ProbeRun.run(probe ?? "", mode: pacer.rawValue)
                    }
                tallies[pacer]?.add(result)
                if let handle = log {
                    let lines = result.intervals.map { "\(load.busyProcesses) \(pacer.rawValue) \($0)\n" }
                    handle.write(Data(lines.joined().utf8))
                }
            }
        }
        return pacers.map { pacer in
            let child = children[pacer]
            return PaceReport.Row(
                pacer: pacer, tally: tallies[pacer] ?? PaceTally(),
                scheduling: frameLinks[pacer].map { "\($0.loop.waiter.waitScheduling)" }
                    ?? child.map { "\($0.identity); \($0.scheduling)" },
                unavailableReason: child?.unavailableReason)
        }
    }
}
