/// An animation handle held weakly.
@MainActor
struct _WeakHandle {
    /// The handle, while something else keeps it.
    weak var handle: AnimationHandle?

    /// Holds `handle` weakly.
    init(_ handle: AnimationHandle) {
        self.handle = handle
    }
}
