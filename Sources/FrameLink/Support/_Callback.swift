/// A main-actor closure in a box that the frame path can borrow without retaining it.
///
/// The loop's link and timer passes call through `Unmanaged._withUnsafeGuaranteedRef`, so that
/// neither the box nor the closure context is retained per call; the owner keeps the box alive (a
/// box released during a pass is kept until the pass ends: `FrameLoop.retire`). The closure is
/// stored as a plain function value, the same representation as the main-actor closure it was made
/// from, so that the borrowing call, made from a `@Sendable` closure, needs no run-time isolation
/// check. It is only ever called on the main actor.
final class _Callback<Argument: AnyObject>: @unchecked Sendable {
    // Same-layout wrappers: casting them (not the closures themselves) strips the isolation from
    // the type without a reabstraction thunk.
    private struct Isolated {
        let body: @MainActor (Argument) -> Void
    }
    private struct Plain {
        let body: (Argument) -> Void
    }

    /// The closure; call it on the main actor only.
    let call: (Argument) -> Void

    @MainActor
    init(_ body: @escaping @MainActor (Argument) -> Void) {
        call = unsafeBitCast(Isolated(body: body), to: Plain.self).body
    }
}
