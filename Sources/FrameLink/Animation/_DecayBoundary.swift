/// Where a bounded decay meets its bound, and the spring that follows.
@usableFromInline
struct _DecayBoundary<Value: Interpolatable>: Sendable {
    @usableFromInline let time: Double
    @usableFromInline let bound: Value
    @usableFromInline let bounce: SpringAnimation<Value>?
}
