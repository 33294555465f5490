/// The display links of one ``LinkPhase`` of a ``FrameLoop``, in the order they were added, and the
/// pass that calls them each frame.
///
/// The list holds each link strongly until it leaves the loop (removed from every mode, or
/// invalidated). Links that leave during a pass stay in the list until the pass ends, so that
/// positions do not move under it; links added during a pass land past the pass's end and are
/// first called in the next frame.
@MainActor
final class _LinkList {
    private var links: ContiguousArray<DisplayLink> = []
    private var needsCompaction = false
    private var isDelivering = false
    /// The links with a weak target, checked once per frame for a target that is gone.
    private var weakTargetLinks: ContiguousArray<DisplayLink> = []

    /// The number of links in the loop (in any mode, paused or not).
    var count: Int { links.count { $0.modeMask != 0 } }

    /// The links in the loop (in any mode, paused or not), in the order they were added.
    var members: [DisplayLink] { links.filter { $0.modeMask != 0 } }

    /// Whether the list holds any link.
    var hasLinks: Bool { !links.isEmpty }

    /// Holds `link`, at the end of the list, unless it is already held.
    func register(_ link: DisplayLink) {
        guard !link.isInLoopList else { return }
        link.isInLoopList = true
        links.append(link)
        if link.hasWeakTarget { weakTargetLinks.append(link) }
    }

    /// Notes that `link` left every mode; it is dropped from the list at once, or after the pass
    /// under way.
    func linkDidLeave(_ link: DisplayLink) {
        needsCompaction = true
        if !isDelivering { compact() }
    }

    /// Whether a link runs in `mask` and is not paused: then the loop paces frames.
    func hasActiveLink(mask: UInt64) -> Bool {
        // Loops, not `contains(where:)`: a closure over main-actor state passed to a generic
        // function is checked for isolation at run time on every call.
        for link in links where link.modeMask & mask != 0 && !link.isPaused { return true }
        return false
    }

    /// Calls every link that runs in `mask` (and wants this frame) in the order they were added.
    /// Each call is timed for blame when `clock` is given.
    func deliver(
        _ frame: _LinkFrame, mask: UInt64, source: any FrameSource, blame: inout _FrameBlame,
        clock: (any FrameSource)?
    ) {
        let count = links.count
        guard count > 0 else { return }
        isDelivering = true
        var mark = clock?.now.nanoseconds ?? 0
        for position in 0..<count {
            let link = links[position]  // the pass's own reference, for the call
            guard link.deliver(frame, mask: mask, source: source) else { continue }
            if let clock {
                let end = clock.now.nanoseconds
                blame.note(.link(link), from: mark, to: end)
                mark = end
            }
        }
        isDelivering = false
        compact()
    }

    /// Drops the links that left the loop.
    private func compact() {
        guard needsCompaction else { return }
        needsCompaction = false
        var kept = 0
        for position in links.indices {
            let link = links[position]
            if link.modeMask == 0 {
                link.isInLoopList = false
            } else {
                if kept != position { links[kept] = link }
                kept += 1
            }
        }
        links.removeLast(links.count - kept)
    }

    /// Invalidates the links whose weak target is gone (see ``_WeakTargetItem``).
    func sweepWeakTargets(frameIndex: Int64) {
        guard !weakTargetLinks.isEmpty else { return }
        var items = ContiguousArray<DisplayLink>()
        swap(&items, &weakTargetLinks)  // taken out: the sweep calls out, and may add items
        DisplayLink.sweep(&items, frameIndex: frameIndex)
        if !weakTargetLinks.isEmpty { items.append(contentsOf: weakTargetLinks) }  // added during the sweep
        swap(&items, &weakTargetLinks)
    }
}
