/// Where an animation's values go: a closure, a weakly held target's property, or
/// ``AnimatedValues`` storage written directly (no callback at all).
@MainActor
final class _Sink<Value> {
    /// Where the values go without a callback (``AnimatedValues`` storage), or nil.
    let destination: UnsafeMutablePointer<Value>?
    /// Keeps the storage of `destination` alive.
    private let storage: AnyObject?

    /// Called with every value, unless the sink writes to a weak target.
    private let update: @MainActor (Value) -> Void
    /// Writes to a weakly held target and returns false once it is gone.
    private let write: @MainActor (Value) -> Bool
    private let writesToWeakTarget: Bool

    /// A sink that calls `update` with every value.
    init(update: @escaping @MainActor (Value) -> Void) {
        self.update = update
        write = { _ in true }
        writesToWeakTarget = false
        destination = nil
        storage = nil
    }

    /// A sink that writes straight into `destination`, kept alive by `storage`.
    init(destination: UnsafeMutablePointer<Value>, storage: AnyObject) {
        update = { _ in }
        write = { _ in true }
        writesToWeakTarget = false
        self.destination = destination
        self.storage = storage
    }

    /// A sink whose `write` reports whether its weakly held target still exists.
    init(weakTarget write: @escaping @MainActor (Value) -> Bool) {
        update = { _ in }
        self.write = write
        writesToWeakTarget = true
        destination = nil
        storage = nil
    }

    /// Hands `value` over; returns false once a weakly held target is gone.
    func send(_ value: Value) -> Bool {
        if writesToWeakTarget { return write(value) }
        update(value)
        return true
    }
}
