import ArgumentParser
import FrameLink
import PacingSweepKit

/// `make sweep`: PresentSource on random simulated displays and workloads, each judged against the
/// display lab's ground truth; prints the violations per check and a line to reproduce each
/// failing scenario.
@main
struct PacingSweep: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run PresentSource on random simulated displays and judge it against the lab's ground truth.")

    @Option(help: "The sweep's seed (the same seed, the same scenarios).")
    var seed: UInt64 = 1

    @Option(help: "How many scenarios to run (1...10000000).")
    var scenarios = 1_000

    @Option(help: "Run only this scenario of the seed, and describe it.")
    var scenario: Int?

    @Flag(help: "With --scenario: print every judged frame (timestamp, target, when presented and shown).")
    var frames = false

    @Option(
        help: """
            Exit 0 while at most this many scenarios fail (a ceiling that only goes down, as fixes land: \
            make test's ratchet on the way to zero); 0 unless given.
            """)
    var allowedFailures = 0

    @Flag(help: "With --scenario: print the source's pacing decisions (FrameLink's log at debug level).")
    var verbose = false

    @Option(help: "Print at most this many failing scenarios (0...100000).")
    var show = 20

    func validate() throws {
        guard (1...10_000_000).contains(scenarios) else {
            throw ValidationError("--scenarios \(scenarios): use 1...10000000")
        }
        guard (0...100_000).contains(show) else { throw ValidationError("--show \(show): use 0...100000") }
        guard allowedFailures >= 0 else {
            throw ValidationError("--allowed-failures \(allowedFailures): use 0 or more")
        }
        if let scenario, scenario < 0 { throw ValidationError("--scenario \(scenario): use 0 or more") }
    }

    func run() throws {
        let failed = MainActor.assumeIsolated { () -> Int in
            // Notices about measured data are what some scenarios are made of: not shown here.
            FrameLinkLogging.logger.logLevel = verbose && scenario != nil ? .debug : .warning
            var counts: [SweepCheck: (failed: Int, judged: Int)] = [:]
            var failing = 0
            var failingOnlyByUnseenFloor = 0
            let indices = scenario.map { [$0] } ?? Array(0..<scenarios)
            for index in indices {
                let drawn = SweepScenario(seed: seed, index: index)
                let run = SweepRun(drawn)
                let verdict = SweepVerdict(run)
                for check in verdict.judged {
                    var count = counts[check] ?? (0, 0)
                    count.judged += 1
                    if verdict.failures[check] != nil { count.failed += 1 }
                    counts[check] = count
                }
                if scenario != nil {
                    print("scenario \(index) of seed \(seed): \(drawn)")
                    print("pacing: \(run.source.pacingDescription)")
                    if frames { printFrames(of: run) }
                }
                guard !verdict.passes else { continue }
                failing += 1
                let onlyTheFloor = SweepVerdict(run, beyondUnseenFloor: true).passes
                if onlyTheFloor { failingOnlyByUnseenFloor += 1 }
                if failing <= show || scenario != nil {
                    // By first frame, then in the checks' order: the same line on every run.
                    let order = SweepCheck.allCases
                    let what = verdict.failures.sorted {
                        ($0.value, order.firstIndex(of: $0.key) ?? 0) < ($1.value, order.firstIndex(of: $1.key) ?? 0)
                    }
                    .map { "\($0.key.rawValue) from frame \($0.value)" }.joined(separator: "; ")
                    let floorNote = onlyTheFloor ? " (passes beyond the delay's unseen floor)" : ""
                    print("FAIL --seed \(seed) --scenario \(index): \(what) — \(drawn)\(floorNote)")
                }
            }
            print("\(indices.count - failing) of \(indices.count) scenarios pass every check (seed \(seed))")
            print(
                "  of the \(failing) failing, \(failingOnlyByUnseenFloor) pass when timestamps and targets may be late by "
                    + "the present delay's least value, a floor no pacer sees without presentation feedback")
            for check in SweepCheck.allCases {
                let count = counts[check] ?? (0, 0)
                print("  \(check.rawValue): \(count.failed) of \(count.judged) judged scenarios fail")
            }
            return failing
        }
        if allowedFailures > 0 {
            print(
                failed <= allowedFailures
                    ? "ratchet: \(failed) failing, at most \(allowedFailures) allowed"
                    : "error: \(failed) scenarios fail, more than the \(allowedFailures) allowed: a pacing change made them worse"
            )
        }
        if failed > allowedFailures { throw ExitCode(1) }
    }

    /// Every frame of `run` next to the lab's truth for it, in milliseconds.
    @MainActor
    func printFrames(of run: SweepRun) {
        func ms(_ nanoseconds: Int64?) -> String {
            nanoseconds.map { String(format: "%.3f", Double($0) / 1e6) } ?? "-"
        }
        func micro(_ nanoseconds: Int64?) -> String {
            nanoseconds.map { String(format: "%.1f", Double($0) / 1e3) } ?? "-"
        }
        print(
            "frame timestamp target presented shown missed locked vsync dropped-so-far phase-locked"
                + " timestamp-error-µs target-error-µs")
        for frame in run.frames {
            let truth = Int(frame.index) < run.lab.frames.count ? run.lab.frames[Int(frame.index)] : nil
            print(
                "\(frame.index) \(ms(frame.timestamp)) \(ms(frame.target)) \(ms(truth?.presentedAt.nanoseconds)) "
                    + "\(ms(truth?.shownAt?.nanoseconds)) \(truth?.missedRefreshes ?? 0) \(frame.followsVsync) "
                    + "\(frame.isVsync) \(frame.droppedSoFar) \(frame.isPhaseLocked) "
                    + "\(micro(frame.timestamp - SweepVerdict.nearestRefresh(to: frame.timestamp, in: run.lab.refreshTimes))) "
                    + "\(micro(truth?.shownAt.map { frame.target - $0.nanoseconds }))")
        }
    }
}
