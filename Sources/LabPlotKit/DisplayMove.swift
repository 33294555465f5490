import FrameLink

/// A move of the window to a display with another refresh rate, in the middle of a run.
package struct DisplayMove: Sendable, Equatable {
    /// The loop frame in whose callback the window moves; the new display's refreshes start at the
    /// old display's next refresh.
    package var frame: Int64

    /// The refresh rate of the display the window moves to.
    package var refreshRate: FrameRate

    /// Creates a move at loop frame `frame` to a display that refreshes at `refreshRate`.
    ///
    /// - Parameters:
    ///   - frame: The loop frame (counted from 1) in whose callback the window moves.
    ///   - refreshRate: The new display's rate.
    package init(frame: Int64, refreshRate: FrameRate) {
        self.frame = frame
        self.refreshRate = refreshRate
    }
}
