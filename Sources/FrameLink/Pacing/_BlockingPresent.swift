/// Whether a present blocked until a vsync released it, from how long it took and where it
/// returned.
enum _BlockingPresent {
    /// How long a present that waited for a vsync takes at least: 0.5 ms, ten times what a present
    /// that does not wait costs (tens of microseconds: a swap-chain entry queued). A present whose
    /// own work is that slow (a software renderer drawing in it) is told apart by its returns,
    /// which follow the calls (the phase probe, ``_PhaseProbe``).
    static let shortestBlock: Int64 = 500_000

    /// The shortest block as a fraction of the period, for fast displays: an eighth. (An eighth of
    /// a period alone missed frames of 90 % of a period on two buffers, whose presents wait about
    /// a tenth of one: no return was ever taken, and the source measured for good; so the lesser
    /// of the two counts.)
    static let periodFraction: Int64 = 8

    /// Whether a present that took `duration` on a display of `period` nanoseconds blocked: it
    /// took ``shortestBlock`` or more (an eighth of a period, if that is less), or it returned on
    /// the vsync after its call (`returnedOnVsync`: called just before one, it waits a moment, as
    /// latency mode calls it and as frames that cost about a period do).
    static func blocked(duration: Int64, period: Int64, returnedOnVsync: Bool) -> Bool {
        duration >= min(period / periodFraction, shortestBlock) || returnedOnVsync
    }
}
