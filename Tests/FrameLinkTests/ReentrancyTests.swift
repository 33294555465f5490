import FrameLink
import Testing

/// A seeded randomized test: links and timers add, remove, pause, resume, invalidate and fire one
/// another from inside their callbacks, and every frame's callbacks are compared with a simple model
/// of which must run.
///
/// The rules the model states:
/// - Timers fire before links; timers due in a frame fire in the order they were scheduled.
/// - A link runs in a frame if, when its turn comes, it is added, unpaused and valid; links run in
///   the order they were first added; a link added during the link phase waits for the next frame.
/// - A timer fires if its entry is still current when its turn comes (pausing, resuming or
///   invalidating it makes the entry stale); a timer resumed during a frame fires next frame.
/// - `fire()` runs the callback at once and never changes the schedule.
@MainActor
@Suite("Re-entrancy")
struct ReentrancyTests {
    enum Operation: CaseIterable {
        case nothing, addLink, removeLink, pauseLink, resumeLink, invalidateLink
        case pauseTimer, resumeTimer, invalidateTimer, fireTimer
    }

    struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// The operation callback `caller` performs in frame `frame`, and on which item: a pure function
    /// of the seed, so the real run and the model make the same choices.
    static func decision(seed: UInt64, frame: Int, caller: Int, items: Int) -> (Operation, Int) {
        var mix = SplitMix(state: seed &* 1_000_003 &+ UInt64(frame) &* 7919 &+ UInt64(caller))
        let operations = Operation.allCases
        let roll = Int(mix.next() % 100)
        let operation = roll < 40 ? .nothing : operations[1 + Int(mix.next() % UInt64(operations.count - 1))]
        return (operation, Int(mix.next() % UInt64(items)))
    }

    static let linkCount = 5
    static let timerCount = 4
    static let frames = 25

    @Test("1,000 random sequences of operations from inside callbacks match the model")
    func randomizedAgainstModel() throws {
        for seed in UInt64(0)..<1_000 {
            let real = try runReal(seed: seed)
            let model = runModel(seed: seed)
            #expect(real == model, "seed \(seed)")
            if real != model { break }
        }
    }

    /// Runs the scenario on FrameLink and returns, per frame, the callbacks in the order they ran.
    func runReal(seed: UInt64) throws -> [[String]] {
        let source = ManualFrameSource(refreshRate: FrameRate(numerator: 100))
        let loop = FrameLoop(source: source)
        var log: [[String]] = []
        var frame = 0
        var depth = 0
        var links: [DisplayLink] = []
        var timers: [FrameTimer] = []

        func perform(caller: Int) {
            guard depth == 0 else { return }
            depth += 1
            defer { depth -= 1 }
            let (operation, target) = Self.decision(
                seed: seed, frame: frame, caller: caller, items: max(Self.linkCount, Self.timerCount))
            let link = links[target % Self.linkCount]
            let timer = timers[target % Self.timerCount]
            switch operation {
            case .nothing: break
            case .addLink: link.add(to: loop, forMode: .default)
            case .removeLink: link.remove(from: loop, forMode: .default)
            case .pauseLink: link.isPaused = true
            case .resumeLink: if link.isValid { link.isPaused = false }
            case .invalidateLink: link.invalidate()
            case .pauseTimer: timer.isPaused = true
            case .resumeTimer: timer.isPaused = false
            case .invalidateTimer: timer.invalidate()
            case .fireTimer: timer.fire()
            }
        }

        for index in 0..<Self.linkCount {
            links.append(
                DisplayLink { _ in
                    log[log.count - 1].append("L\(index)")
                    perform(caller: index)
                })
        }
        for index in 0..<Self.timerCount {
            timers.append(
                FrameTimer(interval: .milliseconds(10), repeats: true) { _ in
                    log[log.count - 1].append(depth == 0 ? "T\(index)" : "F\(index)")
                    perform(caller: 100 + index)
                })
        }
        for link in links.prefix(3) { link.add(to: loop, forMode: .default) }
        for timer in timers { timer.add(to: loop, forMode: .default) }
        loop.eventHandler = { _ in
            frame += 1
            log.append([])
        }
        source.advance(frames: Self.frames)
        // The closures capture the loop and one another: break the cycles, as a game would.
        for link in links { link.invalidate() }
        for timer in timers { timer.invalidate() }
        loop.eventHandler = nil
        return log
    }

    /// The same scenario on a model of the rules above.
    func runModel(seed: UInt64) -> [[String]] {
        struct LinkState {
            var added = false
            var paused = false
            var valid = true
        }
        struct TimerState {
            var valid = true
            var paused = false
            var sequence = 0
            var dueFrame = 1
        }
        var linkStates = Array(repeating: LinkState(), count: Self.linkCount)
        var order: [Int] = []
        var timerStates = Array(repeating: TimerState(), count: Self.timerCount)
        var nextSequence = 1
        for index in 0..<Self.timerCount {
            timerStates[index].sequence = nextSequence
            nextSequence += 1
        }
        for index in 0..<3 {
            linkStates[index].added = true
            order.append(index)
        }
        var log: [[String]] = []
        var frame = 0
        var inLinkPhase = false
        var depth = 0

        func compact() {
            order.removeAll { !linkStates[$0].added }
        }

        func perform(caller: Int) {
            guard depth == 0 else { return }
            depth += 1
            defer { depth -= 1 }
            let (operation, target) = Self.decision(
                seed: seed, frame: frame, caller: caller, items: max(Self.linkCount, Self.timerCount))
            let link = target % Self.linkCount
            let timer = target % Self.timerCount
            switch operation {
            case .nothing: break
            case .addLink:
                if linkStates[link].valid {
                    linkStates[link].added = true
                    if !order.contains(link) { order.append(link) }
                }
            case .removeLink:
                linkStates[link].added = false
                if !inLinkPhase { compact() }
            case .pauseLink: linkStates[link].paused = true
            case .resumeLink: if linkStates[link].valid { linkStates[link].paused = false }
            case .invalidateLink:
                linkStates[link].valid = false
                linkStates[link].added = false
                linkStates[link].paused = true
                if !inLinkPhase { compact() }
            case .pauseTimer:
                if timerStates[timer].valid && !timerStates[timer].paused {
                    timerStates[timer].paused = true
                    timerStates[timer].sequence = 0
                }
            case .resumeTimer:
                if timerStates[timer].valid && timerStates[timer].paused {
                    timerStates[timer].paused = false
                    timerStates[timer].sequence = nextSequence
                    nextSequence += 1
                    timerStates[timer].dueFrame = frame + 1
                }
            case .invalidateTimer: timerStates[timer].valid = false
            case .fireTimer:
                if timerStates[timer].valid {
                    log[log.count - 1].append("F\(timer)")
                }
            }
        }

        for _ in 0..<Self.frames {
            frame += 1
            log.append([])
            // Timers: a snapshot of the entries due now, in scheduling order.
            let due = timerStates.indices
                .filter { timerStates[$0].valid && !timerStates[$0].paused && timerStates[$0].dueFrame <= frame }
                .map { ($0, timerStates[$0].sequence) }
                .sorted { $0.1 < $1.1 }
            for (index, sequence) in due where timerStates[index].valid && timerStates[index].sequence == sequence {
                timerStates[index].sequence = nextSequence
                nextSequence += 1
                timerStates[index].dueFrame = frame + 1
                log[log.count - 1].append("T\(index)")
                perform(caller: 100 + index)
            }
            // Links.
            inLinkPhase = true
            let count = order.count
            for position in 0..<count {
                let index = order[position]
                let state = linkStates[index]
                if state.added && !state.paused && state.valid {
                    log[log.count - 1].append("L\(index)")
                    perform(caller: index)
                }
            }
            inLinkPhase = false
            compact()
        }
        return log
    }
}
