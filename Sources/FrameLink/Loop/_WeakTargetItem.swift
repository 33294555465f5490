/// A link or timer whose target is held weakly, checked once per frame so that it leaves the loop
/// as soon as its target is gone, even if it is paused or not due.
@MainActor
protocol _WeakTargetItem: AnyObject {
    var targetIsGone: Bool { get }
    var lastCalledFrame: Int64 { get }
    var isStillValid: Bool { get }
    func invalidate()
}

extension _WeakTargetItem {
    /// Invalidates the items of `items` whose target is gone and drops every invalid item from it.
    /// An item called in frame `frameIndex` already found its target alive (or invalidated itself).
    ///
    /// `invalidate()` releases closures, whose captures may run code that adds or invalidates
    /// items: `items` must be a local array (the owner takes its list out for the sweep and puts it
    /// back after, with any items added meanwhile), so that no access to the owner's list is held
    /// while an item is invalidated.
    static func sweep(_ items: inout ContiguousArray<Self>, frameIndex: Int64) {
        var kept = 0
        for position in items.indices {
            let item = items[position]
            if item.isStillValid && item.lastCalledFrame != frameIndex && item.targetIsGone { item.invalidate() }
            if item.isStillValid {
                if kept != position { items[kept] = item }
                kept += 1
            }
        }
        items.removeLast(items.count - kept)
    }
}
