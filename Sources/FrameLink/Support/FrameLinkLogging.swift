public import Logging

/// Where FrameLink reports what it decides about pacing: a swift-log `Logger` labelled
/// `framelink`.
///
/// FrameLink logs only when something changes, never per frame: the pacing mode (vsync, deadline,
/// unpaced) and why, a vsync phase lock and each re-lock, an automatic frame-rate switch (every
/// 2nd vsync and back), whether frame waits got real-time priority, and the run-loop fallback for
/// main-queue work. Levels: `notice` for a pacing-mode change, a refused real-time request and the
/// fallback; `info` for the rest.
///
/// Bootstrap swift-log (`LoggingSystem.bootstrap`) before the first frame to choose where the
/// messages go, or replace ``logger`` (a level, a handler of your own); without either, swift-log
/// prints `info` and above to standard error.
///
/// ```swift
/// FrameLinkLogging.logger.logLevel = .notice   // only mode changes and refusals
/// ```
public enum FrameLinkLogging {
    /// The label of FrameLink's logger.
    public static let label = "framelink"

    /// The logger FrameLink writes to (created with ``label`` on first use, so a bootstrap before
    /// the first frame takes effect).
    @MainActor public static var logger = Logger(label: label)
}
