/// The display's refresh period, measured from the refreshes `GLX_OML_sync_control` reports (their
/// UST over their MSC), for ``PresentationReport/refreshPeriod``.
///
/// The period is the time between an anchor refresh and the latest over the refreshes between:
/// precise to the UST's unit over that many (a microsecond over 600 refreshes is 2 ns). The anchor
/// moves when the rate changes: at once when one step's period differs from the measured one by
/// more than ``rateChangeShare`` (a mode change, a move to another monitor; the step itself is not
/// measured, as it may be a counter that jumped), and within two
/// ``recentWindow``s when the last window's period differs by more than ``slowChangeShare`` (a
/// move from 60 to 59.94 Hz). A display whose rate changes again within ``steadyRefreshes`` of the
/// last change has no period to state (variable refresh: each refresh comes when a frame does);
/// ``period`` is then `nil`, as Wayland's presentation-time says 0 for it.
struct _RefreshPeriodMeter {
    /// A refresh: its time (nanoseconds of the UST's clock) and count.
    struct Refresh: Equatable {
        var time: Int64
        var msc: Int64
    }

    /// How far one refresh's period may differ from the measured one before the rate counts as
    /// changed: 1 %. One refresh's period read from microsecond USTs is within a microsecond, 0.01 %
    /// at 100 Hz.
    static let rateChangeShare = 0.01

    /// How far a ``recentWindow``'s period may differ from the measured one before the rate counts
    /// as changed: 0.02 % (3.3 µs at 60 Hz). A window's period is within 1 µs / 60 (17 ns) of the
    /// truth; 60 to 59.94 Hz is 0.1 %.
    static let slowChangeShare = 0.000_2

    /// The refreshes of the window a slow change is looked for in: 60, a second at 60 Hz.
    static let recentWindow: Int64 = 60

    /// The refreshes after a rate change within which another makes the rate variable: 120, two
    /// seconds at 60 Hz. A display changes its mode far more seldom; a variable-refresh display
    /// changes its period with every late frame.
    static let steadyRefreshes: Int64 = 120

    /// The refreshes a rate must hold (since the first read, or its last change) before it is
    /// stated: 8. Two refreshes say nothing of whether the next comes as far apart (on a
    /// variable-refresh display each comes with a frame); eight that agree do.
    static let confirmingRefreshes: Int64 = 8

    /// The periods a display can have: 1 ms (1,000 Hz, `FrameRate`'s fastest) to 1 s (the X
    /// server's stand-in refresh for a window on no display).
    static let plausiblePeriods: ClosedRange<Int64> = 1_000_000...1_000_000_000

    private var anchor: Refresh?
    private var recent: Refresh?
    private var previous: Refresh?
    private var lastChange: Int64?
    private var first: Int64?
    private var awaitsNewRate = false
    private(set) var isVariable = false
    /// The period measured since the anchor, variable or not.
    private(set) var measured: Int64?

    /// The display's refresh period, or `nil` until a rate has held ``confirmingRefreshes`` and
    /// while it is variable.
    var period: Int64? {
        guard !isVariable, let since = lastChange ?? first, let latest = previous?.msc,
            latest - since >= Self.confirmingRefreshes
        else { return nil }
        return measured
    }

    /// Whether `period` differs from `measured` by more than `share` of it.
    static func differs(_ period: Double, from measured: Int64, by share: Double) -> Bool {
        let reference = Double(measured)
        return abs(period - reference) > reference * share
    }

    /// Forgets every refresh: the counter restarted (DRI2 counts per display).
    mutating func restart() {
        self = _RefreshPeriodMeter()
    }

    /// Takes in a refresh read.
    mutating func note(_ refresh: Refresh) {
        guard let previous, refresh.msc > previous.msc, refresh.time > previous.time else {
            if previous == nil {
                first = refresh.msc
                anchor = refresh
                recent = refresh
                self.previous = refresh
            }
            return
        }
        let step = Double(refresh.time - previous.time) / Double(refresh.msc - previous.msc)
        if awaitsNewRate {
            // (The step after a change is the new rate's first: not compared with the old one.)
            awaitsNewRate = false
        } else if let measured, Self.differs(step, from: measured, by: Self.rateChangeShare) {
            // A new rate, or a counter that jumped (DRI2, a window moved to another display): the
            // step itself is not measured; the next ones are.
            if let lastChange, refresh.msc - lastChange < Self.steadyRefreshes { isVariable = true }
            lastChange = refresh.msc
            anchor = refresh
            recent = refresh
            awaitsNewRate = true
            self.previous = refresh
            return
        } else if let lastChange, refresh.msc - lastChange >= Self.steadyRefreshes {
            isVariable = false
        }
        if let recent, refresh.msc - recent.msc >= Self.recentWindow {
            let windowPeriod = Double(refresh.time - recent.time) / Double(refresh.msc - recent.msc)
            if let measured, let anchor, anchor.msc < recent.msc,
                Self.differs(windowPeriod, from: measured, by: Self.slowChangeShare)
            {
                self.anchor = recent
            }
            self.recent = refresh
        }
        if let anchor, refresh.msc > anchor.msc {
            let period = (refresh.time - anchor.time) / (refresh.msc - anchor.msc)
            if Self.plausiblePeriods.contains(period) { measured = period }
        }
        self.previous = refresh
    }
}
