/// The timing of one frame as the link pass hands it to each ``DisplayLink``.
struct _LinkFrame {
    /// The loop's frame index.
    var index: Int64
    /// The frame's timestamp.
    var timestamp: FrameInstant
    /// The next frame's expected time: the target of a link called on every frame.
    var targetTimestamp: FrameInstant
    /// The loop's refresh rate.
    var refreshRate: FrameRate
    /// Its period in nanoseconds (computed once per frame: it takes a 128-bit division).
    var periodNanoseconds: Int64
    /// The loop's ``FrameLoop/maximumFrameDelta`` in nanoseconds.
    var maximumDeltaNanoseconds: Int64
    /// Whether the loop is resynchronizing (``FrameLoop/resync()``): links get one period as delta.
    var resynchronizes: Bool
}
