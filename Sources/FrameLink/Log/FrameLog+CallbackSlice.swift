extension FrameLog {
    /// One run of a named callback during a recorded frame: a labelled display link or timer, or the
    /// loop's event or render handler; what a trace shows on its `callbacks` track.
    public struct CallbackSlice: Hashable, Sendable {
        /// The callback's label (a link's or timer's ``DisplayLink/label``, or the handler's name).
        public var label: String
        /// When the call began, in nanoseconds of the loop's clock.
        public var start: Int64
        /// How long the call took, in nanoseconds.
        public var duration: Int64

        /// Creates a slice.
        ///
        /// - Parameters:
        ///   - label: The callback's label.
        ///   - start: When the call began, in nanoseconds of the loop's clock.
        ///   - duration: How long it took, in nanoseconds.
        public init(label: String, start: Int64, duration: Int64) {
            self.label = label
            self.start = start
            self.duration = duration
        }
    }
}
