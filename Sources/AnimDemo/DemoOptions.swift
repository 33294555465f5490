import FrameLink

/// The settings AnimDemo runs with, as the command line checked them.
struct DemoOptions: Sendable {
    /// The most sprites the demo draws (`--sprites`, and the `+` key's limit).
    static let maximumSprites = 100_000

    var sprites: Int
    var frames: Int?
    var headless: Bool
    var screenshotPath: String?
    var reportPath: String?
    /// Where to write the frame log (`--log`), if anywhere.
    var logPath: String?
    /// Where to write the compositor's presentation feedback (`--presentation-log`), if anywhere.
    var presentationLogPath: String?
    var seed: UInt64
    var assetsFolder: String
    var width: Int
    var height: Int
    var refreshRate: FrameRate?
    /// Whether the renderer is asked for vsync (false with `--no-vsync` and with `--pacing off`).
    var vsync: Bool
    var pacing: PacingChoice
    var stallEvery: Int?
    var stallDuration: Duration
    var showsHUD: Bool
    var fontPath: String
    var motion: MotionChoice = .engine
    /// Whether the loop starts in latency mode (``FrameLoop/minimizesInputLatency``).
    var latencyMode = false
    /// The loop's frame-rate range (`--frame-rate-range`), if one was asked for.
    var frameRateRange: FrameRateRange?
    /// The display's variable refresh range (`--variable-refresh`), if it was given.
    var variableRefresh: ClosedRange<FrameRate>?
}

/// An error that ends AnimDemo with one line on stderr and a non-zero exit status.
struct DemoError: Error, CustomStringConvertible {
    /// The line to print.
    var description: String
}
