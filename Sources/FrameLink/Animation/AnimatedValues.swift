/// Storage for many values that an ``Animator`` writes straight into memory, with no callback per
/// value: the fastest way to animate thousands of things (particles, tiles, the bars of a chart).
/// Read the values when you draw.
///
/// ```swift
/// let heights = AnimatedValues(repeating: 0.0, count: bars.count)
/// for index in bars.indices {
///     try animator.add(try Tween(from: 0.0, to: bars[index], duration: 0.6), into: heights, at: index)
/// }
/// // In the render callback:
/// heights.withUnsafeBufferPointer { heights in for (index, height) in heights.enumerated() { … } }
/// ```
///
/// The storage has a fixed count. Each running animation keeps the storage alive until it ends.
/// Animating a slot that is already animating retargets, as a property does.
@MainActor
public final class AnimatedValues<Value: Interpolatable> {
    /// The number of values.
    public let count: Int

    let storage: UnsafeMutablePointer<Value>

    /// Creates storage for `count` values, each set to `value`.
    ///
    /// - Precondition: `count` is zero or more.
    public init(repeating value: Value, count: Int) {
        precondition(count >= 0, "AnimatedValues(repeating:count:): count must not be negative (got \(count))")
        self.count = count
        storage = .allocate(capacity: max(count, 1))
        storage.initialize(repeating: value, count: count)
    }

    isolated deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// The value at `index`; setting it is overwritten by a running animation on its next frame.
    ///
    /// - Precondition: `index` is in `0..<count`.
    public subscript(index: Int) -> Value {
        get {
            precondition(index >= 0 && index < count, "AnimatedValues index \(index) is outside 0..<\(count)")
            return storage[index]
        }
        set {
            precondition(index >= 0 && index < count, "AnimatedValues index \(index) is outside 0..<\(count)")
            storage[index] = newValue
        }
    }

    /// Calls `body` with the values in a buffer (valid only during the call).
    public func withUnsafeBufferPointer<Result>(
        _ body: (UnsafeBufferPointer<Value>) throws -> Result
    ) rethrows -> Result {
        try body(UnsafeBufferPointer(start: storage, count: count))
    }
}
