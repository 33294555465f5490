/// Storage for many values that an ``Animator`` writes straight into memory, with no callback per
/// value: the fastest way to animate thousands of things (particles, tiles, the bars of a chart).
/// Read the values when you draw.
///
/// ```swift
/// let heights = AnimatedValues(repeating: 0.0, count: bars.count)
/// for index in bars.indices {
///     animator.add(Tween(from: 0.0, to: bars[index], duration: 0.6), into: heights, at: index)
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
        guard count >= 0 else {
            FrameLinkError.trap(.invalidCount("AnimatedValues(repeating:count: \(count)): count must be zero or more"))
        }
        self.count = count
        storage = .allocate(capacity: max(count, 1))
        storage.initialize(repeating: value, count: count)
    }

    private static func trapOutside(_ index: Int, _ count: Int) -> Never {
        FrameLinkError.trap(.invalidCount("AnimatedValues index \(index) is outside 0..<\(count)"))
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
            guard index >= 0 && index < count else { Self.trapOutside(index, count) }
            return storage[index]
        }
        set {
            guard index >= 0 && index < count else { Self.trapOutside(index, count) }
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
