/// The per-frame state of one stored animation.
struct _Clock {
    /// The animator time at which the animation's timeline starts (before any delay).
    var begin: Double
    /// The index of the entry's `_Placement`, or −1 on the fast path.
    var placement: Int32
    /// `_ClockState` bits; 0 on the fast path while running.
    var state: UInt32
}
