import Foundation

/// Runs work queued for the main thread (main-queue blocks and `Task { @MainActor in … }` jobs)
/// without blocking, when called on the process main thread.
///
/// A frame loop that blocks the main thread starves that work unless it pumps the main run loop; on
/// any other thread (Swift Testing runs `@MainActor` tests off the main thread on Linux) this does
/// nothing.
enum MainQueueDrain {
    static func drainIfOnMainThread() {
        guard Thread.isMainThread else { return }
        _ = RunLoop.main.run(mode: .default, before: .distantPast)
    }
}
