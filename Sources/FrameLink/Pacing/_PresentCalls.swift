/// When the last ``capacity`` frames' presents were called, by frame number (``PresentSource``'s
/// `presentCount` after the present), in fixed storage: a presentation report is checked against
/// its frame's call without allocating.
struct _PresentCalls {
    /// Frames remembered: 64, more than any swap chain or compositor keeps in flight.
    static let capacity = 64

    private var frames = [Int64](repeating: -1, count: capacity)
    private var times = [Int64](repeating: 0, count: capacity)

    /// Notes that frame `frame`'s present was called at `time`.
    mutating func record(_ time: Int64, ofFrame frame: Int64) {
        let slot = Self.slot(of: frame)
        frames[slot] = frame
        times[slot] = time
    }

    /// When frame `frame`'s present was called, if it is among the last ``capacity``.
    func time(ofFrame frame: Int64) -> Int64? {
        guard frame >= 0 else { return nil }
        let slot = Self.slot(of: frame)
        return frames[slot] == frame ? times[slot] : nil
    }

    private static func slot(of frame: Int64) -> Int { Int(frame.magnitude % UInt64(capacity)) }
}
