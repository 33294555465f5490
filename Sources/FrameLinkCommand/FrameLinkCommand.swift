import ArgumentParser

/// `framelink`: look at a recorded frame log — its statistics, a frame-time chart, a Perfetto trace,
/// and a replay that checks the statistics come out the same.
@main
struct FrameLinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "framelink",
        abstract: "Summarise, plot, trace and replay FrameLink frame logs (CSV or JSON lines).",
        discussion: """
            A frame log is what a FrameLoop records into `loop.frameLog` (AnimDemo and MinimalGame \
            write one with --log FILE). Bad input — a missing, empty, truncated or foreign file, an \
            output that cannot be written — ends with one line on standard error and exit status 1.
            """,
        subcommands: [Summary.self, Plot.self, Trace.self, Replay.self])
}
