import Foundation

#if canImport(CoreFoundation)
    import CoreFoundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// Runs work queued for the main thread (main-queue blocks and `Task { @MainActor in … }` jobs)
/// while a frame loop blocks the main thread.
///
/// A loop that blocks the main thread starves that work unless it services the main queue. Where
/// libdispatch exposes the main queue's wake-up descriptor (an eventfd on Linux, the hook
/// CoreFoundation's run loop itself uses), FrameLink waits on that descriptor directly: a frame wait
/// is then one `ppoll` that sleeps to its deadline with nanosecond precision and wakes early only
/// to run work that arrives, and a frame's drain is one non-blocking check. That costs a fraction
/// of a full `RunLoop` pass (which also allocates), so a pass is made only when a `Foundation.Timer`
/// on the main run loop is due and on every 60th frame, for other run-loop sources. Without the
/// hook, FrameLink falls back to running the main run loop. On any other thread (Swift Testing runs `@MainActor` tests off the main thread on
/// Linux) these do nothing but sleep.
enum MainQueueDrain {
    /// libdispatch's main-queue hooks and `ppoll`, looked up at run time: none of them is in a
    /// module Swift imports.
    private struct Hooks: @unchecked Sendable {
        typealias Handle = @convention(c) () -> Int32
        typealias Callback = @convention(c) (UnsafeMutableRawPointer?) -> Void
        typealias PPoll =
            @convention(c) (UnsafeMutablePointer<pollfd>?, UInt, UnsafePointer<timespec>?, UnsafeRawPointer?)
            -> Int32

        /// The eventfd that libdispatch signals when the main queue has work.
        let descriptor: Int32
        /// Runs everything the main queue holds (`_dispatch_main_queue_callback_4CF`).
        let drain: Callback
        let ppoll: PPoll

        static func lookUp() -> Hooks? {
            guard let process = dlopen(nil, RTLD_NOW),
                let handle = dlsym(process, "_dispatch_get_main_queue_handle_4CF"),
                let callback = dlsym(process, "_dispatch_main_queue_callback_4CF"),
                let ppoll = dlsym(process, "ppoll")
            else { return nil }
            let descriptor = unsafeBitCast(handle, to: Handle.self)()
            guard descriptor >= 0 else { return nil }
            return Hooks(
                descriptor: descriptor, drain: unsafeBitCast(callback, to: Callback.self),
                ppoll: unsafeBitCast(ppoll, to: PPoll.self))
        }
    }

    /// The hooks, or nil where libdispatch does not expose them (then the run loop is used).
    private static let hooks: Hooks? = {
        // Tests and benchmarks can force the run-loop path, to compare the two.
        if ProcessInfo.processInfo.environment["FRAMELINK_RUNLOOP_DRAIN"] == "1" { return nil }
        return Hooks.lookUp()
    }()

    /// Counts drains, to make a full run-loop pass every 60th.
    nonisolated(unsafe) private static var drainCount = 0

    /// Whether frame waits wait on the main queue's descriptor (rather than the main run loop).
    static var waitsOnMainQueueDescriptor: Bool { hooks != nil }

    /// Runs the main queue's pending work without waiting. A full pass of the main run loop is
    /// made when one of its timers is due, on every 60th call (for other run-loop sources), and on
    /// every call without the hooks. CoreFoundation allocates a small block for each pass, so
    /// passes are kept to what needs them: a frame without one allocates nothing.
    static func drainIfOnMainThread() {
        guard Thread.isMainThread else { return }
        guard let hooks else {
            _ = RunLoop.main.run(mode: .default, before: .distantPast)
            return
        }
        drainCount &+= 1
        if drainCount % 60 == 0 || runLoopTimerIsDue() { runLoopPass() }
        wait(hooks, untilNanoseconds: nil)
    }

    /// Whether a timer of the main run loop (a `Foundation.Timer`) is due; asking allocates nothing.
    private static func runLoopTimerIsDue() -> Bool {
        #if canImport(CoreFoundation)
            let next = CFRunLoopGetNextTimerFireDate(CFRunLoopGetMain(), kCFRunLoopDefaultMode)
            return next > 0 && next <= CFAbsoluteTimeGetCurrent()
        #else
            return false
        #endif
    }

    /// One pass of the main run loop that does not wait.
    private static func runLoopPass() {
        #if canImport(CoreFoundation)
            _ = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0, true)
        #else
            _ = RunLoop.main.run(mode: .default, before: .distantPast)
        #endif
    }

    /// One pass of the main run loop that waits up to `seconds` for work (a pass with a past date
    /// does not see jobs enqueued during the previous pass).
    static func drainIfOnMainThread(waitingUpTo seconds: Double) {
        guard Thread.isMainThread else { return }
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: seconds))
    }

    /// Sleeps until the monotonic clock reads `deadline`, running main-queue work that arrives
    /// meanwhile. With the hooks the wake-up is as precise as `clock_nanosleep`; without them the
    /// run loop's wake-up can be a millisecond late on a busy machine, so the caller should stop
    /// short of a precise deadline. Returns at once when not on the main thread.
    static func sleepServingMainQueue(untilNanoseconds deadline: Int64) {
        guard Thread.isMainThread else { return }
        if let hooks {
            wait(hooks, untilNanoseconds: deadline)
            return
        }
        while true {
            let remaining = deadline - MonotonicClock.nanoseconds()
            if remaining <= 0 { return }
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: Double(remaining) / 1e9))
        }
    }

    /// Waits on the main queue's descriptor until `deadline`, running the main queue whenever it is
    /// signalled; with no deadline, only checks (twice, for work queued by the jobs just run).
    private static func wait(_ hooks: Hooks, untilNanoseconds deadline: Int64?) {
        var descriptor = pollfd(fd: hooks.descriptor, events: Int16(POLLIN), revents: 0)
        var checks = 0
        while true {
            var timeout = timespec()
            if let deadline {
                let remaining = deadline - MonotonicClock.nanoseconds()
                if remaining <= 0 { return }
                timeout = timespec(tv_sec: Int(remaining / 1_000_000_000), tv_nsec: Int(remaining % 1_000_000_000))
            } else {
                if checks == 2 { return }
                checks += 1
            }
            descriptor.revents = 0
            let ready = hooks.ppoll(&descriptor, 1, &timeout, nil)
            if ready > 0 {
                // Reset the eventfd (it is non-blocking), then run what was queued.
                var count: UInt64 = 0
                _ = read(hooks.descriptor, &count, MemoryLayout<UInt64>.size)
                hooks.drain(nil)
            } else if ready == 0 {
                if deadline == nil { return }
            } else if errno != EINTR {
                return
            }
        }
    }
}
