/// The value of an ``AnimatedProperty``, at an address that stays valid for as long as the storage
/// lives: the property and every animation writing it hold the storage.
final class _PropertyStorage<Value> {
    /// The value's address.
    let pointer: UnsafeMutablePointer<Value>

    /// Creates storage holding `value`.
    init(_ value: Value) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: value)
    }

    /// A sink that writes straight into this storage, keeping it alive.
    @MainActor func makeSink() -> _Sink<Value> {
        _Sink(destination: pointer, storage: self)
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
