/// The display links of one ``FrameLoop``, one ``_LinkList`` per ``LinkPhase``.
@MainActor
final class _LinkPhases {
    private let lists: [_LinkList] = LinkPhase.allCases.map { _ in _LinkList() }

    /// The links of `phase`, in the order they were added.
    subscript(phase: LinkPhase) -> _LinkList { lists[phase.rawValue] }

    /// The number of links in the loop (in any mode and phase, paused or not).
    var count: Int {
        var total = 0
        for list in lists { total += list.count }
        return total
    }

    /// The links in the loop, phase by phase, each in the order they were added.
    var members: [DisplayLink] { lists.flatMap(\.members) }

    /// Whether a link of any phase runs in `mask` and is not paused: then the loop paces frames.
    func hasActiveLink(mask: UInt64) -> Bool {
        for list in lists where list.hasActiveLink(mask: mask) { return true }
        return false
    }

    /// Invalidates the links whose weak target is gone, in every phase.
    func sweepWeakTargets(frameIndex: Int64) {
        for list in lists { list.sweepWeakTargets(frameIndex: frameIndex) }
    }
}
