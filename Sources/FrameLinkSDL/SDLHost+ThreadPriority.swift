internal import CSDL2

#if canImport(Glibc)
    import Glibc
#endif

extension SDLHost {
    /// Whether a host with a display raises the main thread's priority through SDL when it opens
    /// (true by default; set it before creating the host). Headless hosts never do.
    ///
    /// The host calls `SDL_SetThreadPriority(SDL_THREAD_PRIORITY_TIME_CRITICAL)` on the main thread.
    /// SDL sets the thread's nice level (−20) where the process may, and on a desktop session asks
    /// rtkit, the desktop's priority daemon, over D-Bus where it may not: rtkit grants nice −15 to
    /// a user's thread (SDL asks it for real-time scheduling instead only when the game sets
    /// `SDL_HINT_THREAD_FORCE_REALTIME_TIME_CRITICAL`). A player's game has no privilege for the
    /// real-time waits FrameLink asks for (`WaitScheduling`), so this is what keeps its frames on
    /// time when other programs load the machine: with both cores busy, nice −15 cut the intervals
    /// off by more than 0.25 ms from 4,700–5,800 per 10,000 to 880–1,480 (`make pace`, three runs
    /// of 3,000 frames). It is a nice level, not real-time scheduling: a frame that computes for
    /// seconds (a level load) runs as long as it needs, and other programs still get the CPU.
    /// ``pacingDescription`` says what the thread got.
    public static var raisesMainThreadPriority = true

    /// Asks SDL for time-critical priority for the calling (main) thread, and says what it got.
    static func raiseMainThreadPriority() -> String {
        let before = currentNiceLevel()
        guard SDL_SetThreadPriority(SDL_THREAD_PRIORITY_TIME_CRITICAL) == 0 else {
            return "main thread at nice \(before): SDL could not raise it (\(String(cString: SDL_GetError())))"
        }
        return "main thread at nice \(currentNiceLevel()) (SDL_SetThreadPriority; was \(before))"
    }

    /// The calling thread's nice level (on Linux, `getpriority` of the calling process is the
    /// calling thread's).
    static func currentNiceLevel() -> Int32 {
        getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }
}
