import FrameLink

/// One random display and workload of the pacing sweep, drawn from a seed: the same seed and index,
/// the same scenario on every machine.
public struct SweepScenario: Sendable, CustomStringConvertible {
    /// How a frame's work is drawn.
    public enum Cost: Sendable, CustomStringConvertible {
        /// The same fraction of a period every frame.
        case constant(Double)
        /// Uniform between two fractions of a period.
        case uniform(Double, Double)
        /// Hovering around the period: uniform between 0.90 and 1.10 of it (the commonest jank).
        case hovering

        /// The cost in words.
        public var description: String {
            switch self {
            case .constant(let fraction): "constant \(Self.percent(fraction)) of a period"
            case .uniform(let low, let high): "uniform \(Self.percent(low))–\(Self.percent(high)) of a period"
            case .hovering: "hovering at 90–110 % of a period"
            }
        }

        static func percent(_ fraction: Double) -> String { "\(Int((fraction * 100).rounded())) %" }
    }

    /// The seed of the sweep.
    public let seed: UInt64
    /// The scenario's index in the sweep.
    public let index: Int
    /// How the display refreshes.
    public let refresh: DisplayLab.Refresh
    /// The buffers of its swap chain.
    public let buffers: Int
    /// How late a blocking present returns.
    public let jitter: PresentJitter
    /// Whether the lab reports when each frame was shown.
    public let feedback: Bool
    /// The frame's work.
    public let cost: Cost
    /// Rare overruns: the frames that take this many periods more.
    public let overruns: [Int64: Double]
    /// A long hitch (a level load): the frame and its length.
    public let hitch: (frame: Int64, duration: Duration)?
    /// A hidden window: the frames it is hidden from and shown again at.
    public let hidden: ClosedRange<Int64>?
    /// A move to another display: the frame and its refresh.
    public let move: (frame: Int64, refresh: DisplayLab.Refresh)?
    /// A cap on a variable-refresh display: the rate the host tells the source (a rate the game
    /// asked for), below the display's maximum; frames never come faster than it.
    public let cap: FrameRate?
    /// How long the display shows nothing when the window moves to another display (a modeset).
    public let modesetGap: Duration
    /// What present does while the window is hidden: return at once (X11) or wait for frame
    /// callbacks that stop coming, until a timeout (Wayland).
    public let hiddenPresent: DisplayLab.HiddenPresent
    /// The frames the loop runs.
    public let frames: Int
    /// The seed of the lab's jitter and the workload's draws.
    public let labSeed: UInt64

    /// The rates a fixed display is drawn from half of the time: the common ones.
    public static let commonRates: [FrameRate] = [
        .hz60, .hz59_94, .hz75, .hz120, .hz144, .hz165, FrameRate(numerator: 240), .hz30, FrameRate(numerator: 50),
    ]

    /// Draws scenario `index` of the sweep seeded with `seed`.
    public init(seed: UInt64, index: Int) {
        self.seed = seed
        self.index = index
        var random = SweepRandom(seed: seed &* 1_000_003 &+ UInt64(index))
        labSeed = random.next()
        frames = 600 + Int(random.unit() * 900)
        func randomRate(_ low: Double, _ high: Double) -> FrameRate {
            FrameRate(numerator: Int64(((low + random.unit() * (high - low)) * 1_000).rounded()), denominator: 1_000)
        }
        func fixedRefresh() -> DisplayLab.Refresh {
            let rate =
                random.unit() < 0.5 ? Self.commonRates[random.below(Self.commonRates.count)] : randomRate(30, 240)
            return .fixed(rate, phase: .nanoseconds(Int64(random.unit() * Double(rate.periodNanoseconds - 1))))
        }
        if random.unit() < 0.15 {
            refresh = .variable(minimum: randomRate(40, 48), maximum: randomRate(120, 165))
        } else {
            refresh = fixedRefresh()
        }
        buffers = random.unit() < 0.5 ? 2 : 3
        var jitter: PresentJitter
        switch random.below(3) {
        case 0: jitter = .none
        case 1: jitter = .uniform(upTo: .nanoseconds(Int64(50_000 + random.unit() * 1_450_000)))
        default: jitter = .exponential(mean: .nanoseconds(Int64(20_000 + random.unit() * 480_000)))
        }
        feedback = random.unit() < 0.3
        switch random.below(3) {
        case 0: cost = .constant(0.05 + random.unit() * 0.85)
        case 1:
            let low = 0.05 + random.unit() * 0.6
            cost = .uniform(low, low + random.unit() * (0.95 - low))
        default: cost = .hovering
        }
        var overruns: [Int64: Double] = [:]
        if random.unit() < 0.5 {
            for _ in 0..<(1 + random.below(4)) {
                overruns[Int64(200 + random.below(frames - 300))] = 0.5 + random.unit() * 2
            }
        }
        self.overruns = overruns
        hitch =
            random.unit() < 0.2
            ? (Int64(200 + random.below(frames - 300)), .milliseconds(Int64(100 + random.below(200)))) : nil
        if random.unit() < 0.1 {
            let start = Int64(200 + random.below(frames - 400))
            hidden = start...(start + Int64(20 + random.below(80)))
        } else {
            hidden = nil
        }
        move =
            random.unit() < 0.1 && hidden == nil
            ? (Int64(200 + random.below(frames - 400)), fixedRefresh()) : nil
        // Drawn after everything above, so that those stay as they were drawn before these came.
        // A quarter of the delays have a floor (log-normal: real wake-ups are never instant).
        if random.unit() < 0.25 {
            let median = Int64(50_000 + random.unit() * 350_000)
            jitter = .lognormal(
                median: .nanoseconds(median),
                percentile99: .nanoseconds(Int64(Double(median) * (2 + 2 * random.unit()))))
        }
        self.jitter = jitter
        // A third of the variable displays are capped below their maximum.
        if case .variable(let minimum, let maximum) = refresh, random.unit() < 0.3 {
            let low = max(minimum.framesPerSecond, 30)
            let high = maximum.framesPerSecond * 0.9
            // In whole hertz, never under the display's minimum (rounded down, 43 Hz fell under a
            // 43.33 Hz minimum: a rate the display cannot keep, where it shows each frame again by
            // design, not a cap within its range).
            let drawn = Int64((low + random.unit() * (high - low)).rounded())
            cap = FrameRate(numerator: max(drawn, Int64(low.rounded(.up))))
        } else {
            cap = nil
        }
        modesetGap = .milliseconds(Int64(50 + random.below(150)))
        hiddenPresent =
            random.unit() < 0.5
            ? .returnsAtOnce : .waitsForFrameCallbacks(timeout: .milliseconds(Int64(50 + random.below(950))))
    }

    /// The display's rate (its maximum, for variable refresh).
    public var rate: FrameRate { Self.rate(of: refresh) }

    static func rate(of refresh: DisplayLab.Refresh) -> FrameRate {
        switch refresh {
        case .fixed(let rate, _), .emulated(let rate): rate
        case .variable(_, let maximum): maximum
        case .none: .hz60
        }
    }

    /// A line that says what the scenario is.
    public var description: String {
        var parts = [
            "\(refresh)", "\(buffers) buffers", "\(jitter)", feedback ? "feedback" : "no feedback", "\(cost)",
            "\(frames) frames",
        ]
        if !overruns.isEmpty { parts.append("overruns at \(overruns.keys.sorted())") }
        if let hitch { parts.append("a \(hitch.duration) hitch at \(hitch.frame)") }
        if let cap { parts.append("capped at \(cap)") }
        if let hidden { parts.append("hidden \(hidden), present \(hiddenPresent)") }
        if let move { parts.append("moved to \(move.refresh) at \(move.frame), blank \(modesetGap)") }
        return parts.joined(separator: ", ")
    }
}
