import Foundation

/// Runs work queued for the main thread (main-queue blocks and `Task { @MainActor in … }` jobs)
/// while a frame loop blocks the main thread.
///
/// A loop that blocks the main thread starves that work unless it runs the main run loop: FrameLink
/// does so once per frame without waiting, and, where a source sleeps (the deadline pacer, idle
/// waits), sleeps *in* the main run loop for all but the last 2 ms, so tasks run during the
/// sleep. On any other thread (Swift Testing runs `@MainActor` tests off the main thread on Linux)
/// these do nothing but sleep.
enum MainQueueDrain {
    /// One pass of the main run loop that does not wait.
    static func drainIfOnMainThread() {
        guard Thread.isMainThread else { return }
        _ = RunLoop.main.run(mode: .default, before: .distantPast)
    }

    /// One pass of the main run loop that waits up to `seconds` for work (a pass with a past date
    /// does not see jobs enqueued during the previous pass).
    static func drainIfOnMainThread(waitingUpTo seconds: Double) {
        guard Thread.isMainThread else { return }
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: seconds))
    }

    /// Sleeps in the main run loop until the monotonic clock reads `deadline` (give or take the
    /// run loop's wake-up latency of a few hundred microseconds), running main-queue work that
    /// arrives meanwhile. Returns at once when not on the main thread.
    static func sleepInMainRunLoop(untilNanoseconds deadline: Int64) {
        guard Thread.isMainThread else { return }
        while true {
            let remaining = deadline - MonotonicClock.nanoseconds()
            if remaining <= 0 { return }
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: Double(remaining) / 1e9))
        }
    }
}
