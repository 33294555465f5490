extension FrameReport {
    /// Input-to-screen latency in a report: from each input event the loop was told of
    /// (``FrameLoop/noteInput(at:)``) to when the frame that read it was shown.
    public struct InputLatency: Codable, Hashable, Sendable {
        /// The number of input events measured.
        public var events: Int
        /// The mean latency, in milliseconds.
        public var meanMilliseconds: Double
        /// The median latency, in milliseconds.
        public var p50Milliseconds: Double
        /// The 99th-percentile latency, in milliseconds.
        public var p99Milliseconds: Double
        /// The longest latency, in milliseconds.
        public var maxMilliseconds: Double

        /// Creates a latency summary from its figures.
        public init(
            events: Int, meanMilliseconds: Double, p50Milliseconds: Double, p99Milliseconds: Double,
            maxMilliseconds: Double
        ) {
            self.events = events
            self.meanMilliseconds = meanMilliseconds
            self.p50Milliseconds = p50Milliseconds
            self.p99Milliseconds = p99Milliseconds
            self.maxMilliseconds = maxMilliseconds
        }
    }
}
