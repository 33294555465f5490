public import Logging

/// Where FrameLink reports what it decides about pacing: a swift-log `Logger` labelled
/// `framelink`.
///
/// FrameLink logs only when something changes, never per frame, and leaves the level to your game,
/// as libraries of the Swift server ecosystem do:
/// - `debug`: routine decisions — the pacing mode (vsync, deadline, unpaced) and why, a vsync phase
///   lock, an automatic frame-rate switch (every 2nd vsync and back), what scheduling frame waits
///   got (real-time priority, or normal priority when it is refused, as it is for most players).
/// - `trace`: the vsync grid's re-locks and a lock lost for 60 frames in a row.
/// - `notice`: a real problem with something outside — measured present times that fit no display
///   (said once), main-queue work served through the run-loop fallback.
/// - `warning`: a request FrameLink cannot follow (a frame-rate range the source takes no request for).
///
/// A game that sets nothing up sees only notices and warnings: swift-log's default handler prints
/// `info` and above to standard error. To see FrameLink's decisions, lower the logger's level (or
/// bootstrap swift-log with a handler of your own before the first frame):
///
/// ```swift
/// FrameLinkLogging.logger.logLevel = .debug   // pacing decisions as they happen
/// ```
public enum FrameLinkLogging {
    /// The label of FrameLink's logger.
    public static let label = "framelink"

    /// The logger FrameLink writes to (created with ``label`` on first use, so a bootstrap before
    /// the first frame takes effect).
    @MainActor public static var logger = Logger(label: label)
}
