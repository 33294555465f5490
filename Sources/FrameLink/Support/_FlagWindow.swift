/// The last `capacity` yes/no outcomes and how many of them were yes, kept up to date as outcomes
/// arrive (no pass over the window to count them).
struct _FlagWindow {
    private var flags: _Ring<Bool>
    /// The number of outcomes kept (at most the capacity).
    var count: Int { flags.count }
    /// How many of the kept outcomes were yes.
    private(set) var marked = 0

    /// An empty window for `capacity` outcomes.
    init(capacity: Int) {
        flags = _Ring(capacity: capacity, filler: false)
    }

    /// Adds an outcome, forgetting the oldest when the window is full.
    mutating func append(_ flag: Bool) {
        if flags.count == flags.capacity, flags[age: flags.count - 1] { marked -= 1 }
        flags.append(flag)
        if flag { marked += 1 }
    }

    /// Forgets every outcome.
    mutating func removeAll() {
        flags.removeAll()
        marked = 0
    }
}
