import Dispatch
import Foundation
import Synchronization

/// SIGINT, SIGTERM and SIGHUP, which end AnimDemo at any point with exit status 128 + the signal's
/// number, and SIGQUIT, left to its default action (the process is terminated by the signal).
///
/// The three signals are blocked in the main thread before any other thread starts (threads inherit
/// the mask) and observed by libdispatch signal sources on a background queue (a `signalfd` on
/// Linux), so a busy or blocked main thread does not matter. Blocking, not `SIG_IGN`: on Linux
/// libdispatch installs its own handler when a source registers, and a signal that arrives while the
/// disposition is still `SIG_IGN` is discarded; a blocked one stays pending until the source reads
/// it. The sources exist before SDL starts, so SDL does not install its own handlers (it only
/// replaces `SIG_DFL`), which would turn the signal into an indistinguishable `SDL_QUIT`.
///
/// What a signal does depends on how far the run is:
///
/// - Before the frame loop starts (options, atlas, window, building the sprites): one line on
///   stderr and an immediate exit with 128 + the signal's number.
/// - Once the loop runs: the signal is recorded in a flag the loop polls (``pending``), and the run
///   winds down like a closed window: the loop stops, the screenshot and the report are written,
///   SDL shuts down, and `main` exits with 128 + the signal's number. A watchdog exits the same way
///   if winding down takes longer than ``windDownLimit`` (a slow frame, a slow disk), and a second
///   signal exits at once; either removes the temporary files in flight (``OutputFile``), and says
///   which outputs were not written. Outputs are renamed into place, so each is whole or untouched.
///
/// These exits use `_exit`, not `exit`: they run on the background queue while the main thread may
/// be inside SDL or blocked in a system call, and `exit` would run `atexit` handlers and static
/// destructors (SDL's, Mesa's, the runtime's) concurrently with it. The line goes straight to a
/// duplicate of file descriptor 2 taken at start-up, so no buffer is lost and a temporary
/// redirection of stderr does not hide it.
enum InterruptSignal {
    /// The signals that end the run: SIGINT, SIGTERM and SIGHUP.
    static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// How long the run may take to wind down after a signal before the watchdog ends the process, in
    /// seconds: short enough that AnimDemo is gone within half a second of any signal.
    static let windDownLimit = 0.4

    private static let received = Atomic<Int32>(0)
    private static let loopHasStarted = Atomic<Bool>(false)
    private static let standardError = Atomic<Int32>(STDERR_FILENO)
    private static let queue = DispatchQueue(label: "AnimDemo.signals")
    private static let sources = Mutex<[any DispatchSourceSignal]>([])

    /// Restores SIGQUIT's default action, blocks SIGINT, SIGTERM and SIGHUP in the calling thread and
    /// starts observing them; returns once the observers are registered. Call it first in `main`,
    /// before any other thread exists.
    static func install() {
        signal(SIGQUIT, SIG_DFL)
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for number in handled { sigaddset(&blocked, number) }
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        let copy = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0)
        if copy >= 0 { standardError.store(copy, ordering: .sequentiallyConsistent) }

        let registered = DispatchSemaphore(value: 0)
        sources.withLock { sources in
            for number in handled {
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { handle(number) }
                source.setRegistrationHandler { registered.signal() }
                source.activate()
                sources.append(source)
            }
        }
        var complete = true
        for _ in handled where registered.wait(timeout: .now() + .seconds(5)) == .timedOut {
            complete = false
        }
        if !complete {
            // No observer: let the signals end the process by their default action rather than never.
            pthread_sigmask(SIG_UNBLOCK, &blocked, nil)
        }
    }

    /// Notes that the frame loop is about to run: from now on a signal lets the run wind down and
    /// write its outputs, instead of ending the process at once.
    static func loopWillRun() {
        loopHasStarted.store(true, ordering: .sequentiallyConsistent)
    }

    /// The signal received so far (SIGINT, SIGTERM or SIGHUP), or `nil`.
    static var pending: Int32? {
        let value = received.load(ordering: .sequentiallyConsistent)
        return value == 0 ? nil : value
    }

    /// The conventional name of `number`: "SIGINT", "SIGTERM", "SIGHUP", else "signal N".
    static func name(of number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }

    // MARK: On the signal queue

    /// Why the process is ending before `main` could end it.
    private enum Ending {
        /// The signal came before the frame loop ran.
        case startUp
        /// The run did not wind down within ``windDownLimit``.
        case tooSlow
        /// A second signal came while the run was winding down.
        case secondSignal
    }

    /// Handles one delivery of signal `number` (on the signal queue).
    private static func handle(_ number: Int32) {
        let (isFirst, _) = received.compareExchange(
            expected: 0, desired: number, ordering: .sequentiallyConsistent)
        guard isFirst else { exitNow(number, .secondSignal) }
        guard loopHasStarted.load(ordering: .sequentiallyConsistent) else { exitNow(number, .startUp) }
        queue.asyncAfter(deadline: .now() + windDownLimit) { exitNow(number, .tooSlow) }
    }

    /// Removes the temporary files in flight, prints one line and ends the process with 128 + `number`.
    private static func exitNow(_ number: Int32, _ ending: Ending) -> Never {
        OutputFile.abandon { unwritten in
            let signal = name(of: number)
            var missing = ""
            if !unwritten.isEmpty {
                missing =
                    "; \(unwritten.joined(separator: " and ")) \(unwritten.count == 1 ? "was" : "were") not written"
            }
            let line: String
            switch ending {
            case .startUp:
                line = "stopped by \(signal) during start-up, before the frame loop ran: nothing was written"
            case .tooSlow:
                line = "stopped by \(signal): the run did not wind down within \(windDownLimit) s\(missing)"
            case .secondSignal:
                line = "stopped by a second signal (\(signal)) while winding down\(missing)"
            }
            let bytes = Array("AnimDemo: \(line)\n".utf8)
            _ = bytes.withUnsafeBytes {
                write(standardError.load(ordering: .sequentiallyConsistent), $0.baseAddress, $0.count)
            }
            _exit(128 + number)
        }
    }
}
