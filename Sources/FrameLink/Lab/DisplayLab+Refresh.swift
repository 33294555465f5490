extension DisplayLab {
    /// How a simulated display refreshes.
    public enum Refresh: Sendable, Equatable, CustomStringConvertible {
        /// A real vsync: refreshes exactly `rate` apart, the first at `phase` after the lab's start.
        /// Each refresh shows the oldest queued frame if it was ready (presented, plus the lab's
        /// ``DisplayLab/gpuTime``) more than the lab's ``DisplayLab/latchDeadline`` before it.
        case fixed(FrameRate, phase: Duration = .zero)
        /// Variable refresh (VRR, FreeSync, G-Sync): a frame is shown as soon as it is ready
        /// (presented, plus the lab's ``DisplayLab/gpuTime``), but no sooner than one period of
        /// `maximum` after the last refresh; without a ready frame the display refreshes again
        /// (repeating the old one) one period of `minimum` after the last.
        case variable(minimum: FrameRate, maximum: FrameRate)
        /// An emulated vsync like Xvfb's: a free-running timer, not a display's refresh.
        ///
        /// The timer starts at the first present's call (and again at the first present after a
        /// change of refresh). Each tick is one period of `rate` after the tick before it, moved by
        /// a draw of the lab's jitter less the jitter's mean: the ticks keep `rate` on average, but
        /// their phase wanders (not phase-stable), and the jitter moves the ticks instead of
        /// delaying present's return. A present blocks until the first tick after its call (one
        /// called exactly on a tick waits for the next; ticks that passed while the game was busy
        /// are skipped, not caught up), the frame counts as shown at that tick (or when it is
        /// ready, if the lab's ``DisplayLab/gpuTime`` makes that later), and present returns the
        /// lab's ``DisplayLab/presentCost`` after the tick. There is no swap chain (the lab's
        /// buffers do not matter), no refresh is recorded in ``DisplayLab/refreshTimes`` and none
        /// counts as missed, and a hidden window changes none of this.
        case emulated(FrameRate)
        /// No vsync at all (SDL's dummy driver): present returns after the lab's
        /// ``DisplayLab/presentCost`` and the frame counts as shown when it is ready: when present
        /// was called, unless the lab's ``DisplayLab/gpuTime`` is set. A hidden window changes
        /// none of this.
        case none

        /// The kind and rate, such as `"fixed 59.94 Hz"` or `"variable 48–144 Hz"`.
        public var description: String {
            switch self {
            case .fixed(let rate, let phase):
                phase == .zero ? "fixed \(rate)" : "fixed \(rate), phase \(Milliseconds(phase.wholeNanoseconds)) ms"
            case .variable(let minimum, let maximum): "variable \(minimum.framesPerSecond)–\(maximum)"
            case .emulated(let rate): "emulated \(rate)"
            case .none: "no vsync"
            }
        }

        /// Checks the refresh: rates a display can have (1 to 1,000 Hz), a phase from zero up to one
        /// period, a variable range with minimum ≤ maximum.
        func validated() -> Refresh {
            for rate in rates where !Self.isDisplayRate(rate) {
                FrameLinkError.trap(
                    .invalidFrameRate("DisplayLab.Refresh \(self): \(rate) is not a display's rate; use 1 to 1000 Hz"))
            }
            switch self {
            case .fixed(let rate, let phase):
                let nanoseconds = phase.wholeNanoseconds
                guard nanoseconds >= 0 && nanoseconds < rate.periodNanoseconds else {
                    FrameLinkError.trap(
                        .invalidInterval(
                            "DisplayLab.Refresh.fixed: phase \(phase) must be at least zero and under one period "
                                + "(\(rate.period))"))
                }
            case .variable(let minimum, let maximum):
                // Exactly, as the lab compares them (a Double comparison let equal-looking
                // fractions through).
                guard
                    Int128(minimum.numerator) * Int128(maximum.denominator)
                        <= Int128(maximum.numerator) * Int128(minimum.denominator)
                else {
                    FrameLinkError.trap(
                        .invalidFrameRate(
                            "DisplayLab.Refresh.variable: minimum \(minimum) is above maximum \(maximum)"))
                }
            case .emulated, .none:
                break
            }
            return self
        }

        /// The rates the refresh names.
        private var rates: [FrameRate] {
            switch self {
            case .fixed(let rate, _), .emulated(let rate): [rate]
            case .variable(let minimum, let maximum): [minimum, maximum]
            case .none: []
            }
        }

        /// The fastest rate a simulated display refreshes at: 1,000 Hz (the vsync grid discards a
        /// fit with a period under 1 ms as one no display has).
        static let fastestDisplayHertz: Int128 = 1_000

        /// Whether a display can refresh at `rate`: 1 Hz to ``fastestDisplayHertz``, compared exactly.
        static func isDisplayRate(_ rate: FrameRate) -> Bool {
            let numerator = Int128(rate.numerator)
            let denominator = Int128(rate.denominator)
            return numerator >= denominator && numerator <= fastestDisplayHertz * denominator
        }
    }
}
