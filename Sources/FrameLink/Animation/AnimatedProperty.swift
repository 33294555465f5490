/// A property that an ``Animator`` animates by key path without allocating: declared with
/// `@AnimatedProperty`, read and written as a plain value, and animated through its projected
/// value's key path (`\.$scale`).
///
/// A key path to an ordinary stored property (`\.scale`) is the most convenient way to animate,
/// but Swift's key-path write allocates a small block on every write, so every frame of every
/// such animation allocates. An animated property keeps its value in storage of its own that the
/// animator writes straight into, as it writes ``AnimatedValues``: no allocation, no callback, and
/// the cost of ``AnimatedValues`` (see <doc:Performance>).
///
/// ```swift
/// @MainActor final class Scoreboard {
///     @AnimatedProperty var scale = 1.0
///     @AnimatedProperty var offset = SIMD2<Double>.zero
/// }
///
/// let board = Scoreboard()
/// animator.animate(board, \.$scale, to: 1.4, spring: .bouncy)
/// animator.animate(board, \.$offset, to: SIMD2(0, -20), duration: 0.3)
/// // In the render callback:
/// draw(scale: board.scale, offset: board.offset)
/// ```
///
/// The object is held weakly, as for a key-path animation: when it is deallocated, its animated
/// properties are too, and their animations end (completion ``AnimationResult/cancelled``) at the
/// animator's next frame, paused ones included. Strictly, the animations end when the property
/// goes: a reference to `board.$scale` kept elsewhere keeps the property, and its animations,
/// alive. Animating a property that is already animating retargets: the new animation starts from
/// its current value and velocity. A value set while an animation runs is overwritten by the
/// animation's next frame.
///
/// Animate it through `\.$scale` only. `\.scale` compiles too (the value is writable), but it is
/// an ordinary key path: it allocates on every write, and it is another key, so it neither
/// replaces nor retargets an animation of `\.$scale` (both would write the same value in turn).
///
/// Like the animator, an animated property belongs to the main actor: declare it in a
/// `@MainActor` class. (In a structure, a copy would share the storage of the original.)
@MainActor
@propertyWrapper
public final class AnimatedProperty<Value: Interpolatable> {
    /// The storage the animator writes into; the animator keeps it alive while it writes.
    let storage: _PropertyStorage<Value>

    /// The animations that write this property (possibly ended: pruned when one is added).
    private var writers: ContiguousArray<_WeakHandle> = []

    /// Creates a property with the value `wrappedValue`; this is what `@AnimatedProperty var scale
    /// = 1.0` calls.
    public init(wrappedValue: Value) {
        storage = _PropertyStorage(wrappedValue)
    }

    /// The property's value: the current value of its animation while one runs.
    public var wrappedValue: Value {
        get { storage.pointer.pointee }
        set { storage.pointer.pointee = newValue }
    }

    /// The property itself, so that `\.$scale` is the key path to give an ``Animator``.
    public var projectedValue: AnimatedProperty<Value> { self }

    /// The animation writing this property, if one is running or paused (for a part of a group,
    /// the group).
    public var animation: AnimationHandle? {
        for writer in writers.reversed() {
            if let handle = writer.handle, handle.isActive { return handle.root }
        }
        return nil
    }

    /// The key under which the animator keeps the animations of this property.
    var animationKey: _AnimationKey { .slot(ObjectIdentifier(storage), 0) }

    /// Remembers `handle` as a writer of this property, to end it when the property goes.
    func addWriter(_ handle: AnimationHandle) {
        var kept = 0
        for index in writers.indices where writers[index].handle?.isActive == true {
            writers[kept] = writers[index]
            kept += 1
        }
        writers.removeLast(writers.count - kept)
        writers.append(_WeakHandle(handle))
    }

    isolated deinit {
        // The animator still holds the storage, so it stays valid; the animations are cancelled
        // at the animator's next frame, paused ones too.
        for writer in writers {
            writer.handle?.targetWasDeallocated()
        }
    }
}
