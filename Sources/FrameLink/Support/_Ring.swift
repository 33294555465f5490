/// A fixed-capacity ring of the latest values: appending past the capacity overwrites the oldest.
/// Its storage is allocated once, so appending, reading and (for numbers) the statistics below
/// allocate nothing.
struct _Ring<Element> {
    private var storage: [Element]
    /// A buffer for ``percentile(_:)`` to sort into, made at its first use and kept.
    private var scratch: [Element] = []
    private var next = 0
    /// The number of values kept (at most ``capacity``).
    private(set) var count = 0

    /// The most values the ring keeps.
    var capacity: Int { storage.count }

    /// Creates an empty ring for `capacity` values (at least 1); `filler` only occupies the storage.
    init(capacity: Int, filler: Element) {
        precondition(capacity > 0, "_Ring needs a capacity of at least 1")
        storage = Array(repeating: filler, count: capacity)
    }

    /// Adds `value`, overwriting the oldest when the ring is full.
    mutating func append(_ value: Element) {
        storage[next] = value
        next = next + 1 == storage.count ? 0 : next + 1
        count = Swift.min(count + 1, storage.count)
    }

    /// Forgets every value (the storage is kept).
    mutating func removeAll() {
        count = 0
        next = 0
    }

    /// The value kept `age` appends ago: 0 is the newest, `count - 1` the oldest.
    subscript(age age: Int) -> Element {
        precondition(age >= 0 && age < count, "_Ring: age \(age) out of 0..<\(count)")
        let position = next - 1 - age
        return storage[position < 0 ? position + storage.count : position]
    }

    /// The newest value, if any.
    var last: Element? { count == 0 ? nil : self[age: 0] }
}

extension _Ring where Element == Int64 {
    /// An empty ring of `capacity` nanosecond values.
    init(capacity: Int) {
        self.init(capacity: capacity, filler: 0)
    }

    /// The mean of the newest `n` values (or of all, if fewer); 0 when empty.
    func mean(last n: Int) -> Int64 {
        let taken = Swift.min(n, count)
        guard taken > 0 else { return 0 }
        var sum: Int64 = 0
        for age in 0..<taken { sum += self[age: age] }
        return sum / Int64(taken)
    }

    /// The median of the kept values; 0 when empty.
    var median: Int64 {
        mutating get { percentile(50) }
    }

    /// The value at `percent` of the kept values (0 when empty). It sorts them into a buffer kept
    /// between calls (insertion sort: the rings are small), so it allocates only on its first use.
    mutating func percentile(_ percent: Int) -> Int64 {
        guard count > 0 else { return 0 }
        if scratch.count != storage.count { scratch = storage }
        for age in 0..<count {
            let value = self[age: age]
            var position = age
            while position > 0 && scratch[position - 1] > value {
                scratch[position] = scratch[position - 1]
                position -= 1
            }
            scratch[position] = value
        }
        return scratch[Swift.min(count - 1, count * percent / 100)]
    }
}
