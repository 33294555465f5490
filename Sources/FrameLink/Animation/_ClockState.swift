/// The bits of `_Clock.state`.
enum _ClockState {
    /// Uses a `_Placement` (timing, group window or pause).
    static let complex: UInt32 = 1
    /// Frozen by `AnimationHandle.pause()`.
    static let paused: UInt32 = 2
    /// Writes nothing this frame (waiting, or outside its window in a group).
    static let silent: UInt32 = 4
    /// Finished or cancelled; removed at the end of the frame.
    static let done: UInt32 = 8
    /// Cancelled, replaced, or its target is gone.
    static let cancelled: UInt32 = 16
    /// Writes straight into ``AnimatedValues`` storage in the first pass: no callback.
    static let direct: UInt32 = 32

    /// Entries that receive no callback this frame.
    static let skipDelivery: UInt32 = paused | silent | cancelled | direct
}
