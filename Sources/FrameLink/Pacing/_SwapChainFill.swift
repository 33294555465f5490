/// Whether a present that returned at once says present does not wait for the display's vsync:
/// only when a FIFO swap chain must have been full at its call.
///
/// A present on a FIFO swap chain returns at once while the chain has room for the frame, and
/// blocks (until a refresh frees a buffer) once it is full. So a present that returned at once
/// says nothing about vsync while frames come no faster than the display: the chain never fills.
/// It is evidence only when more frames were presented, without blocking, than the display can
/// have shown plus what the chain holds. The count uses the fastest rate the display may really
/// have (its nominal rate plus 1 Hz and 0.5 %, as the rate verdict allows) and at least
/// ``assumedBuffers`` buffers, so it never mistakes a chain with room for one that ignores vsync:
/// frames that cost the whole period or more never produce evidence at all (they cannot fill a
/// chain), and light ones produce it within a few frames presented back to back.
struct _SwapChainFill {
    /// The fewest buffers the count assumes: 3. Timing alone cannot tell 2 buffers from 3 (both
    /// block once per refresh when full), and assuming too few would call a triple-buffered
    /// chain's room a vsync ignored.
    static let assumedBuffers = 3

    /// Presents into a chain that must have been full that returned at once, in a row, needed for
    /// the verdict: 2. One such present can be a real vsync's that was called just before a
    /// refresh (it waits only a moment); the next one, presented into a chain still full, would
    /// wait a whole period.
    static let requiredEvidence = 2

    /// When the first present of the current run of presents that returned at once was called.
    private var runStart: Int64?
    /// The presents of the run so far.
    private var runPresents: Int64 = 0
    /// Presents of the run that returned at once although the chain must have been full.
    private(set) var unblockedWhileFull = 0

    /// Whether the evidence says present does not wait for a vsync.
    var showsPresentDoesNotBlock: Bool { unblockedWhileFull >= Self.requiredEvidence }

    /// Notes a present called at `time` that `blocked` or not, on a display whose fastest period is
    /// `fastestPeriod` with a swap chain of `buffers` (as the game says; at least
    /// ``assumedBuffers`` are assumed).
    mutating func note(calledAt time: Int64, blocked: Bool, fastestPeriod: Int64, buffers: Int) {
        guard !blocked, fastestPeriod > 0 else {
            forget()
            return
        }
        let start = runStart ?? time
        runStart = start
        // Refreshes since the run began, each showing at most one of its frames: the frames of the
        // run still waiting at this call are at least the rest.
        let refreshes = (time - start + fastestPeriod - 1) / fastestPeriod
        let waiting = runPresents - refreshes
        guard waiting >= 0 else {
            // The display showed every frame of the run and more: the chain may be empty. No frame
            // carries over; the run starts again at this present.
            runStart = time
            runPresents = 1
            return
        }
        // Full: one frame on screen, the other buffers all waiting.
        if waiting >= Int64(max(buffers, Self.assumedBuffers) - 1) { unblockedWhileFull += 1 }
        runPresents += 1
    }

    /// Starts afresh: a present blocked, or frames were paced (a deadline wait, a hidden window).
    mutating func forget() {
        runStart = nil
        runPresents = 0
        unblockedWhileFull = 0
    }
}
