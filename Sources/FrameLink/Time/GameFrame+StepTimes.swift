extension GameFrame {
    /// The game times of one frame's fixed steps, oldest first: a collection of ``GameInstant``
    /// that costs no allocation.
    public struct StepTimes: RandomAccessCollection, Hashable, Sendable {
        /// The time the last step simulates to.
        private let lastNanoseconds: Int64
        /// The length of one step.
        private let stepNanoseconds: Int64
        /// The number of steps.
        private let count_: Int

        /// The times of `count` steps of `stepNanoseconds` each, the last one ending at `last`.
        init(count: Int, stepNanoseconds: Int64, last: Int64) {
            count_ = count
            self.stepNanoseconds = stepNanoseconds
            lastNanoseconds = last
        }

        /// The position of the first step: 0.
        public var startIndex: Int { 0 }

        /// One past the position of the last step: the number of steps.
        public var endIndex: Int { count_ }

        /// The game time step `index` simulates to.
        ///
        /// - Precondition: `index` is in `indices`; any other stops the program with a `FrameLinkError`
        ///   message.
        public subscript(index: Int) -> GameInstant {
            guard index >= 0 && index < count_ else {
                FrameLinkError.trap(
                    .invalidCount(
                        "GameFrame.stepTimes[\(index)]: the frame has \(count_) steps, at indices 0..<\(count_)"))
            }
            return GameInstant(nanoseconds: lastNanoseconds - Int64(count_ - 1 - index) * stepNanoseconds)
        }
    }
}
