import FrameLink
import Testing

/// A loop on virtual time at `rate`.
@MainActor
func makeLoop(rate: FrameRate = .hz60) -> (ManualFrameSource, FrameLoop) {
    let source = ManualFrameSource(refreshRate: rate)
    return (source, FrameLoop(source: source))
}

/// Starts a frame log on `loop` that also keeps each labelled callback's run, and returns it.
@MainActor
func recordCallbacks(of loop: FrameLoop) -> FrameLog {
    let log = FrameLog(period: loop.refreshRate.period)
    log.recordsCallbacks = true
    loop.frameLog = log
    return log
}

/// An object whose deinitialization the tests observe.
@MainActor
final class Owner {
    static var liveCount = 0
    var ticks = 0
    var link: DisplayLink?
    var timer: FrameTimer?
    let onDeinit: (@MainActor () -> Void)?

    init(onDeinit: (@MainActor () -> Void)? = nil) {
        self.onDeinit = onDeinit
        Owner.liveCount += 1
    }

    func tick() { ticks += 1 }

    isolated deinit {
        Owner.liveCount -= 1
        onDeinit?()
    }
}

/// Records values from callbacks.
@MainActor
final class Recorder<Value> {
    var values: [Value] = []
    func append(_ value: Value) { values.append(value) }
}

extension FrameInstant {
    static func seconds(_ value: Double) -> FrameInstant {
        FrameInstant(nanoseconds: Int64((value * 1e9).rounded()))
    }
}
