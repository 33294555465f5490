extension FrameLog {
    /// One run of a named callback during a recorded frame: a labelled display link or timer, or the
    /// loop's event or render handler; what a trace shows on its `callbacks` track.
    public struct CallbackSlice: Hashable, Sendable {
        /// The callback's label (a link's or timer's ``DisplayLink/label``, or the handler's name).
        public var label: String
        /// When the call began, on the loop's clock.
        public var start: FrameInstant {
            get { FrameInstant(nanoseconds: startNanoseconds) }
            set { startNanoseconds = newValue.nanoseconds }
        }
        /// How long the call took.
        public var duration: Duration {
            get { .nanoseconds(durationNanoseconds) }
            set { durationNanoseconds = newValue.wholeNanoseconds }
        }
        /// ``start`` in nanoseconds.
        package var startNanoseconds: Int64
        /// ``duration`` in nanoseconds.
        package var durationNanoseconds: Int64

        /// Creates a slice.
        ///
        /// - Parameters:
        ///   - label: The callback's label.
        ///   - start: When the call began, on the loop's clock.
        ///   - duration: How long it took.
        public init(label: String, start: FrameInstant, duration: Duration) {
            self.init(label: label, start: start.nanoseconds, duration: duration.wholeNanoseconds)
        }

        /// Creates a slice from nanoseconds.
        package init(label: String, start: Int64, duration: Int64) {
            self.label = label
            startNanoseconds = start
            durationNanoseconds = duration
        }
    }
}
