/// A leaf of a flattened timeline and where it starts.
struct _FlatLeaf {
    let leaf: _TrackLeaf
    /// The start within a cycle of the timeline, the animation's own delay included.
    let start: Double
}
