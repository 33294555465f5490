/// The phases of a frame, in the order they run.
///
/// `present` is the present call's own work (a software or llvmpipe renderer draws there) up to
/// the point where it starts blocking; `presentWait` is the rest of the wait for the frame boundary
/// (vsync, or the pacer sleeping to its deadline); the others are the loop's work between two
/// boundaries.
public enum FramePhase: Int, CaseIterable, Sendable, CustomStringConvertible {
    /// Waiting for the frame boundary after presenting: vsync, or the deadline pacer.
    case presentWait
    /// The event handler (input pumping).
    case events
    /// Timers that were due.
    case timers
    /// Display links.
    case links
    /// The render handler.
    case render
    /// The present call (when it does not block on vsync: the renderer's own work).
    case present

    /// The phase's name as used in reports: `"present wait"`, `"events"`, …
    public var description: String {
        switch self {
        case .presentWait: "present wait"
        case .events: "events"
        case .timers: "timers"
        case .links: "links"
        case .render: "render"
        case .present: "present"
        }
    }

    /// The phases that are the loop's own work (everything but the wait).
    public static let work: [FramePhase] = [.events, .timers, .links, .render, .present]
}

/// How long each phase of one frame interval took.
public struct PhaseDurations: Hashable, Sendable {
    /// Nanoseconds per phase, indexed by `FramePhase.rawValue`.
    private var nanoseconds: (Int64, Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0, 0)

    /// Creates durations that are all zero.
    public init() {}

    /// The duration of `phase`.
    public subscript(phase: FramePhase) -> Duration {
        get { .nanoseconds(self[nanoseconds: phase]) }
        set { self[nanoseconds: phase] = newValue.wholeNanoseconds }
    }

    /// The duration of `phase` in nanoseconds, as FrameLink computes with it.
    package subscript(nanoseconds phase: FramePhase) -> Int64 {
        get {
            switch phase {
            case .presentWait: nanoseconds.0
            case .events: nanoseconds.1
            case .timers: nanoseconds.2
            case .links: nanoseconds.3
            case .render: nanoseconds.4
            case .present: nanoseconds.5
            }
        }
        set {
            switch phase {
            case .presentWait: nanoseconds.0 = newValue
            case .events: nanoseconds.1 = newValue
            case .timers: nanoseconds.2 = newValue
            case .links: nanoseconds.3 = newValue
            case .render: nanoseconds.4 = newValue
            case .present: nanoseconds.5 = newValue
            }
        }
    }

    /// The work phase (not the wait) that took longest.
    public var longestWorkPhase: FramePhase {
        FramePhase.work.max { self[nanoseconds: $0] < self[nanoseconds: $1] } ?? .links
    }

    /// Compares every phase.
    public static func == (lhs: PhaseDurations, rhs: PhaseDurations) -> Bool {
        FramePhase.allCases.allSatisfy { lhs[nanoseconds: $0] == rhs[nanoseconds: $0] }
    }

    /// Hashes every phase.
    public func hash(into hasher: inout Hasher) {
        for phase in FramePhase.allCases { hasher.combine(self[nanoseconds: phase]) }
    }
}
