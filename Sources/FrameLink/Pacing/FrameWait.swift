/// What the loop waits for between presenting a frame and beginning the next: a frame source's
/// pacing decision, carried out by the loop's ``FrameWaiter``.
///
/// A source decides *until when*; the waiter decides *how* (sleeping, spinning, serving main-queue
/// work, real-time priority), so every source waits the same way and a virtual clock never waits in
/// real time.
public enum FrameWait: Sendable, Equatable {
    /// No wait: the next frame begins at once (a present that blocked until its vsync, pacing off,
    /// or a frame already late).
    case none

    /// A sleep until an instant on the source's timeline, where waking a little late is harmless
    /// because the frame's timestamp does not come from the wake-up (the next vsync of a fitted
    /// grid after a present that did not block).
    case sleep(until: FrameInstant)

    /// A sleep that ends in a spin, to reach an instant on the source's timeline as precisely as the
    /// machine allows: the frame's timestamp is the moment reached (deadline pacing).
    case deadline(FrameInstant)

    /// Nothing to draw: a sleep until an instant (a timer's fire date; `nil` for none) or until
    /// input arrives, whichever comes first, serving main-queue work and never spinning.
    case idle(until: FrameInstant?)
}
