import Foundation

/// A value guarded by a lock, for state shared between threads (QueueTimer).
///
/// Built on `NSLock` (a pthread mutex), which ThreadSanitizer understands: the standard library's
/// `Mutex` uses raw futexes on Linux, and TSan then reports races it cannot see are ordered.
final class _Protected<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
