extension DisplayLab {
    /// What a present does while the window is hidden (``DisplayLab/isHidden``), which depends on
    /// the window system.
    ///
    /// Nothing is shown while the window is hidden, whichever the style.
    public enum HiddenPresent: Sendable, Equatable, CustomStringConvertible {
        /// As on X11: present does not wait for the display, and returns at once (after the lab's
        /// ``DisplayLab/presentCost``).
        case returnsAtOnce
        /// As on Wayland: the compositor stops sending frame callbacks to a hidden surface, so a
        /// present that waits for one (a FIFO swap chain, `eglSwapInterval(1)`) blocks until the
        /// window is shown again or until the client's `timeout` runs out, whichever comes first
        /// (Qt's Wayland plugin, for one, counts a window with no frame callback for 100 ms as not
        /// exposed).
        ///
        /// The lab runs on virtual time, and only your own code, between frames, can show the
        /// window again, so a present while hidden returns exactly `timeout` after it was called.
        /// The timeout is above zero and at most 10 seconds (the lab checks it when it is set on
        /// ``DisplayLab/hiddenPresent``).
        case waitsForFrameCallbacks(timeout: Duration)

        /// The longest timeout a hidden present may wait: 10 s, far longer than any client waits
        /// for a frame callback before it gives up (and long enough to stand for "until shown").
        static let longestTimeoutNanoseconds: Int64 = 10_000_000_000

        /// The style, such as `"waits for frame callbacks, 100.0 ms timeout"`.
        public var description: String {
            switch self {
            case .returnsAtOnce: "returns at once"
            case .waitsForFrameCallbacks(let timeout):
                "waits for frame callbacks, \(Milliseconds(timeout.wholeNanoseconds)) ms timeout"
            }
        }

        /// Checks the style: a timeout above zero and at most 10 seconds.
        func validated() -> HiddenPresent {
            if case .waitsForFrameCallbacks(let timeout) = self {
                let nanoseconds = timeout.wholeNanoseconds
                guard nanoseconds > 0 && nanoseconds <= Self.longestTimeoutNanoseconds else {
                    FrameLinkError.trap(
                        .invalidInterval(
                            "DisplayLab.HiddenPresent.waitsForFrameCallbacks(timeout: \(timeout)): the timeout must "
                                + "be above zero and at most \(Duration.nanoseconds(Self.longestTimeoutNanoseconds))"))
                }
            }
            return self
        }
    }
}
