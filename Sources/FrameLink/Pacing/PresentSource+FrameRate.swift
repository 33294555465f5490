// PresentSource's frame-rate ranges and effective rate, as the game and the loop see them (decided
// by the pacer's `_FrameRateCadence`).
extension PresentSource {
    /// The vsyncs from one present to the next while frames follow the vsync: 1 (every vsync), the
    /// divisor chosen for a requested frame-rate range (`requestFrameRate(in:)`), doubled while
    /// auto frame rate has halved the rate. In deadline mode, 2 while auto frame rate has halved
    /// the rate, else 1 (a requested range is then in the deadline grid's rate).
    public var presentInterval: Int { pacer.presentInterval }

    /// The effective frame rate: the display's (measured when known) divided by ``presentInterval``
    /// while frames follow the vsync; the deadline grid's rate (a requested range's, when one is
    /// requested) divided by it in deadline mode.
    public var refreshRate: FrameRate { pacer.refreshRate }

    /// Paces frames at a rate in `range`, or as the display goes again for `nil`
    /// (``FrameLoop/preferredFrameRateRange`` calls it):
    /// - while frames follow a fixed vsync, the present goes out on every k-th vsync, the k that
    ///   puts the display's rate in the range closest to the preferred rate (30 on 60 Hz, 72 on
    ///   144 Hz for 60–90 Hz preferring 72, 48 on 144 Hz for 40–50 Hz);
    /// - on a variable-refresh display (``variableRefreshRange``), frames are paced by deadline at
    ///   the preferred rate (never above the display's maximum), and the display shows each as it
    ///   comes;
    /// - in deadline mode (no vsync honoured), the deadline grid runs at the preferred rate.
    @_spi(FrameSourceImplementation) public func requestFrameRate(in range: FrameRateRange?) {
        withPacer { $0.requestFrameRate(in: range) }
    }

    /// The rate chosen for the requested range and why, for the current mode; `nil` while none
    /// is requested, and while pacing is off.
    public var frameRateChoice: FrameRateChoice? { pacer.frameRateChoice }
}
