/// The bits that stand for run-loop modes in a loop's link and timer mode masks: `.common` is bit
/// 0, `.default` bit 1, `.tracking` bit 2, and other modes get the next bit on first use.
struct _ModeBits {
    private var bits: [RunLoopMode: UInt64] = [.common: 1, .default: 2, .tracking: 4]

    /// The bit for `mode`, given out on first use (at most 63 modes).
    mutating func bit(for mode: RunLoopMode) -> UInt64 {
        if let bit = bits[mode] { return bit }
        precondition(bits.count < 64, "FrameLoop supports at most 63 distinct run-loop modes")
        let bit = UInt64(1) << UInt64(bits.count)
        bits[mode] = bit
        return bit
    }

    /// The mask of what runs in `mode`: its own bit, plus `.common`'s when `mode` is one of
    /// `commonModes`.
    mutating func activeMask(in mode: RunLoopMode, commonModes: Set<RunLoopMode>) -> UInt64 {
        bit(for: mode) | (commonModes.contains(mode) ? 1 : 0)
    }
}
