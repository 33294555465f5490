import Foundation
import Synchronization

/// SIGINT and SIGTERM, turned into a flag that the frame loop polls: the demo then ends like a
/// closed window — the loop stops, the screenshot and the report are written, SDL shuts down — and
/// exits with 128 + the signal's number.
///
/// The handler only stores the signal number (an atomic store is async-signal-safe). Installing it
/// before SDL starts also keeps SDL from installing its own handlers, which would turn the signal
/// into an indistinguishable `SDL_QUIT`.
enum InterruptSignal {
    private static let received = Atomic<Int32>(0)

    /// Routes SIGINT and SIGTERM to the flag.
    static func install() {
        signal(SIGINT, recordSignal)
        signal(SIGTERM, recordSignal)
    }

    /// The signal received so far (SIGINT or SIGTERM), or `nil`.
    static var pending: Int32? {
        let value = received.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }
}

/// The C signal handler: records the signal and returns.
private func recordSignal(_ number: Int32) {
    InterruptSignal.storeFromHandler(number)
}

extension InterruptSignal {
    fileprivate static func storeFromHandler(_ number: Int32) {
        received.store(number, ordering: .relaxed)
    }
}
