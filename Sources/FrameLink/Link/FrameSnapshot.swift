/// The timing of one frame as a `Sendable` value: what `for await frame in link.frames` and
/// `await loop.nextFrame()` deliver.
public struct FrameSnapshot: Hashable, Sendable {
    /// The loop's frame index.
    public var frameIndex: Int64
    /// When the frame began.
    public var timestamp: FrameInstant
    /// When the frame will be shown (the next frame of the link's rate).
    public var targetTimestamp: FrameInstant
    /// The refresh period.
    public var duration: Duration
    /// Time since the previous frame delivered to this consumer's source, clamped to the loop's
    /// maximum frame delta.
    public var deltaTime: Duration

    /// Creates a snapshot.
    public init(
        frameIndex: Int64, timestamp: FrameInstant, targetTimestamp: FrameInstant, duration: Duration,
        deltaTime: Duration
    ) {
        self.frameIndex = frameIndex
        self.timestamp = timestamp
        self.targetTimestamp = targetTimestamp
        self.duration = duration
        self.deltaTime = deltaTime
    }
}
