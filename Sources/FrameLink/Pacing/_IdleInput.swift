/// How a host's input can wake an idle loop (the host says; the waiter sleeps accordingly).
package enum _IdleInput: Equatable, Sendable {
    /// Input can only be found by asking (`inputPending`): the loop wakes every idle slice to ask
    /// (devices SDL polls itself, such as game controllers, are open).
    case polled
    /// Input makes `connection` readable (the display connection; `nil` for a display-less driver,
    /// which has none), and an event added from another thread signals the eventfd `wake`: the loop
    /// sleeps on them, the main queue and its next timer, and nothing else.
    case descriptors(connection: Int32?, wake: Int32?)
}

/// A source whose host says how its input can wake an idle loop.
@MainActor
package protocol _IdleInputWatching {
    /// How input can wake the idle loop now, or `nil` when the host has not said (polled).
    var idleInput: (@MainActor () -> _IdleInput)? { get }
}
