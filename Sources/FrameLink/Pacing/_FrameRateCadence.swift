/// The cadence a ``PresentSource`` presents at, as the game asks for it: a requested frame-rate
/// range, and the automatic frame rate's halving.
///
/// A range on a fixed display is a divisor of the display's rate (the present goes out on every
/// k-th vsync: ``FrameRateRange/divisor(dividing:)``), chosen once for a rate and kept while the
/// measured rate wobbles in its last digits; on a variable-refresh display, while pacing is
/// automatic or by deadline, the preferred rate is paced directly. The automatic frame rate
/// (``_AutoFrameRate``) doubles the interval while frames run over budget. The source says what
/// the display is and how it paces; the cadence says how many vsyncs (or deadlines) a frame takes
/// and which rate the deadline grid keeps.
struct _FrameRateCadence {
    /// The requested frame-rate range, if any.
    private(set) var requestedRange: FrameRateRange?
    /// The divisor chosen for the range and the display rate it was chosen for.
    private var chosenDivisor: (base: FrameRate, interval: Int)?
    /// The automatic frame rate's state.
    private(set) var autoFrameRate = _AutoFrameRate()

    /// Whether the automatic frame rate has halved the rate.
    var halvesRate: Bool { autoFrameRate.isHalved }

    /// What the halving multiplies the interval by: 2 while halved, else 1.
    var halvingFactor: Int { halvesRate ? _AutoFrameRate.halvingFactor : 1 }

    /// Asks for `range` (`nil`: none). Returns whether that changed the request; the divisor is
    /// then chosen afresh.
    mutating func request(_ range: FrameRateRange?) -> Bool {
        guard range != requestedRange else { return false }
        requestedRange = range
        chosenDivisor = nil
        return true
    }

    /// Forgets the chosen divisor: chosen again at the next read (the range is applied afresh).
    mutating func chooseAgain() {
        chosenDivisor = nil
    }

    /// Whether a rate the game asked for (`rateAskedFor`: a requested range, or a cap below the
    /// display's maximum) is paced directly: on a variable-refresh display (`variableRefresh`),
    /// while pacing is automatic or deadline (forced vsync divides the display's maximum instead;
    /// pacing off ignores ranges).
    func pacesDirectly(
        rateAskedFor: Bool, variableRefresh: ClosedRange<FrameRate>?, pacing: PresentSource.Pacing
    ) -> Bool {
        rateAskedFor && variableRefresh != nil && (pacing == .automatic || pacing == .deadline)
    }

    /// The divisor of `base` (the display's rate, measured when known) for the requested range,
    /// and the rate it was chosen for: chosen again only when the rate moves by more than 0.5 %
    /// (another display, ``FrameRate/isClose(to:)``), so a measurement that wobbles in its last
    /// digits never changes the cadence. `nil` without a range.
    mutating func divisor(of base: FrameRate) -> (base: FrameRate, interval: Int)? {
        guard let requestedRange else { return nil }
        if let chosenDivisor, base.isClose(to: chosenDivisor.base) { return chosenDivisor }
        let chosen = (base, requestedRange.divisor(dividing: base).divisor)
        chosenDivisor = chosen
        return chosen
    }

    /// The vsyncs per frame for the requested range while frames follow the vsync: the divisor,
    /// or 1 without a range or while the range is paced directly.
    mutating func rangeInterval(of base: FrameRate, pacedDirectly: Bool) -> Int {
        guard !pacedDirectly else { return 1 }
        return divisor(of: base)?.interval ?? 1
    }

    /// The vsyncs (or deadlines) from one present to the next: the range's interval while frames
    /// follow the vsync (1 in deadline mode, where the range is in the deadline grid's rate), times
    /// the halving.
    mutating func presentInterval(followsVsync: Bool, base: FrameRate, pacedDirectly: Bool) -> Int {
        (followsVsync ? rangeInterval(of: base, pacedDirectly: pacedDirectly) : 1) * halvingFactor
    }

    /// The rate the deadline grid keeps for the requested range (`nil` without one): on a
    /// variable-refresh display paced directly, the range's choice there; once a vsync of the
    /// display is known (`vsyncBase`, its measured rate), the same division of it as under vsync
    /// (a hidden window keeps its cadence); else the preferred rate directly, never above
    /// `display`. Never above `cap` on a variable-refresh display (a cap the game set: see
    /// `PresentSource.capsAtDisplayRefreshRate`).
    mutating func deadlineChoice(
        pacedDirectlyOn variableRefresh: ClosedRange<FrameRate>?, cap: FrameRate? = nil, vsyncBase: FrameRate?,
        display: FrameRate
    ) -> FrameRateChoice? {
        guard let range = requestedRange else { return nil }
        if let variableRefresh { return range.choice(onVariableRefresh: variableRefresh, cappedAt: cap) }
        if let vsyncBase, let chosen = divisor(of: vsyncBase) {
            return range.choice(dividing: chosen.base, by: chosen.interval)
        }
        return range.directChoice(atMost: display)
    }

    /// Notes what a frame's work cost against the budget of a frame at `rate` (the effective rate,
    /// halved while halved): what the automatic frame rate does.
    mutating func noteFrameCost(_ cost: Int64, rate: FrameRate) -> _AutoFrameRate.Action {
        autoFrameRate.noteFrameCost(cost, budget: rate.periodNanoseconds / Int64(halvingFactor))
    }

    /// Turns the automatic frame rate off: back to the full rate if halved.
    mutating func turnOffAutomaticFrameRate() -> _AutoFrameRate.Action {
        autoFrameRate.turnOff()
    }
}
