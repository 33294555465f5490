/// The phase probe: whether a phase-stable grid fitted to returns of presents whose calls the
/// source timed is the display's vsync, or only echoes that timing.
///
/// A present that takes a while looks like one that blocks on vsync, and while the source times
/// the calls (deadline pacing, a hold to a cap) its returns keep the phase of those calls whatever
/// it is: a software renderer that draws for 6 ms in present returns 6 ms after each call. So for
/// ``frames`` frames the source paces by deadline, half a period off the fitted grid. A real
/// vsync's presents still return on its grid wherever they are called (some within a quarter
/// period of a vsync: at once, or after the jitter); a slow or throttled present's returns move
/// with the calls and stop fitting it.
struct _PhaseProbe {
    /// The vsync the probe's timing starts from: the second after now's (the next one may come
    /// before the frame that starts the probe has presented).
    static let firstVsyncAhead: Int64 = 2

    /// Frames of the probe: 12, a fifth of a second at 60 Hz. The first one's present was called
    /// before frames moved, so 11 presents are measured.
    static let frames = 12

    /// Blocking presents a probe needs to conclude: 4 of its 11 (fewer, as when the window was
    /// hidden meanwhile, say nothing).
    static let minimumSamples = 4

    /// How far off the grid the probe moves frames, as a fraction of the period: half (as far
    /// from a vsync as a call can be).
    static let shiftFraction: Int64 = 2

    /// A return within a period divided by this of a vsync is on the grid: a quarter. (A
    /// present called half a period off that follows its call returns about half a period off.)
    static let onGridFraction: Int64 = 4

    /// Frames left.
    private(set) var remaining = Self.frames
    /// The closest any measured blocking present's return came to a vsync of the grid.
    private(set) var closest: Int64 = .max
    /// The blocking presents measured.
    private(set) var measured = 0
    /// The grid's relock count when the probe began: a relock during the probe means the
    /// returns stopped fitting the grid.
    let relocks: Int

    /// A probe that begins now, with the grid relocked `relocks` times so far.
    init(relocks: Int) {
        self.relocks = relocks
    }

    /// Notes one frame of the probe: whether its present `blocked`, and how far from the grid's
    /// nearest vsync it returned (read only for a measured present: not the first one, whose
    /// present was called before frames moved).
    mutating func noteFrame(blocked: Bool, distanceFromGrid: () -> Int64) {
        if blocked && remaining < Self.frames {
            measured += 1
            closest = min(closest, distanceFromGrid())
        }
        remaining -= 1
    }

    /// Whether the probe's frames are done.
    var isOver: Bool { remaining <= 0 }

    /// What the probe found.
    enum Verdict: Equatable {
        /// Too few presents blocked to say anything.
        case inconclusive
        /// The returns moved with the calls (or stopped fitting the grid): not a vsync; the
        /// closest return was `offGrid` from a vsync.
        case returnsFollowFrames(offGrid: Int64)
        /// The returns stayed on the grid: it is the display's vsync.
        case returnsStayOnGrid
    }

    /// The verdict, for a grid of `period` nanoseconds relocked `relocksNow` times.
    func verdict(period: Int64, relocksNow: Int) -> Verdict {
        let relocked = relocksNow != relocks
        guard measured >= Self.minimumSamples || relocked else { return .inconclusive }
        if closest > period / Self.onGridFraction || relocked {
            return .returnsFollowFrames(offGrid: min(closest, period))
        }
        return .returnsStayOnGrid
    }

    /// When the probe's first frame begins: so that, with `returnOffset` from a frame's start to
    /// its present's return, the returns land half a period off the grid's vsyncs, starting from
    /// the vsync two after `now`'s (`vsyncAfterNext`); never sooner than a period after `now` (the
    /// probe delays frames, it never brings one forward: frames never come faster than the
    /// display).
    static func firstFrameStart(vsyncAfterNext: Int64, period: Int64, returnOffset: Int64, now: Int64) -> Int64 {
        var start = vsyncAfterNext + period / shiftFraction - returnOffset
        guard period > 0 else { return max(start, now) }
        while start < now + period { start += period }
        return start
    }
}
