/// One of the pacers a `make pace` run compares.
enum Pacer: String, CaseIterable, Sendable {
    /// FrameLink's `DeadlineSource`, asking for real-time scheduling for its waits (the default).
    case frameLink = "framelink"
    /// FrameLink's `DeadlineSource` with real-time scheduling turned off.
    case frameLinkWithoutRealTime = "framelink-no-rt"
    /// FrameLink as a desktop user runs it: a child process without privileges (see ``ChildPacer``),
    /// whose request for real-time scheduling is refused.
    case frameLinkUnprivileged = "framelink-user"
    /// The unprivileged child with a real-time limit of 10 (`rtprio 10` in `limits.conf`): FrameLink's
    /// own per-wait `SCHED_FIFO`, as root gets it, without rtkit.
    case frameLinkRealTimeLimit = "framelink-user-rtprio"
    /// The unprivileged child with rtkit's real-time grant: `SCHED_RR` 10 for good.
    case frameLinkRtkitRealTime = "framelink-rtkit-rt"
    /// The unprivileged child with rtkit's high-priority grant at rtkit's default floor, nice −15.
    case frameLinkRtkitNice15 = "framelink-rtkit-nice15"
    /// The unprivileged child with rtkit's high-priority grant at nice −20 (rtkit refuses it unless
    /// started with `--min-nice-level=-20`; the row then says so).
    case frameLinkRtkitNice20 = "framelink-rtkit-nice20"
    /// The unprivileged child with a 0.1 ms time slice (the kernel's shortest), which it sets
    /// itself: no daemon, no privilege (Linux 6.12 and later; the row says so where it is refused).
    case frameLinkShortSlice = "framelink-user-slice"
    /// `../shared/probes/vs.c hybrid`: an absolute sleep to 1 ms before the deadline, then a spin.
    case hybrid
    /// `../shared/probes/vs.c sdldelay`: `SDL_Delay` of the remaining whole milliseconds.
    case sdlDelay = "sdldelay"

    /// The pacers a run compares unless told otherwise (the rtkit ones need a system bus, rtkit
    /// and polkit: asked for by name).
    static let defaults: [Pacer] = [.frameLink, .frameLinkWithoutRealTime, .frameLinkUnprivileged, .hybrid, .sdlDelay]

    /// The real-time priority asked of rtkit, and the real-time limit granted: FrameLink's own for
    /// its waits (10 of 1–99).
    static let rtkitPriority: Int32 = 10
    /// rtkit's default floor for nice levels (`--min-nice-level`).
    static let rtkitDefaultNiceLevel: Int32 = -15
    /// The highest priority a nice level gives.
    static let highestNiceLevel: Int32 = -20
    /// The slice the short-slice pacer asks for, in microseconds: the kernel's shortest.
    static let shortSliceMicroseconds: Int32 = 100

    /// Whether the pacer is the C probe (run as a process) rather than FrameLink in this process.
    var isProbe: Bool { self == .hybrid || self == .sdlDelay }

    /// The grant of a pacer that runs as an unprivileged child process (nil for the others).
    var grant: SchedulingGrant? {
        switch self {
        case .frameLinkUnprivileged: SchedulingGrant.none
        case .frameLinkRealTimeLimit: .realTimeLimit(priority: Self.rtkitPriority)
        case .frameLinkRtkitRealTime: .rtkitRealTime(priority: Self.rtkitPriority)
        case .frameLinkRtkitNice15: .rtkitNice(level: Self.rtkitDefaultNiceLevel)
        case .frameLinkRtkitNice20: .rtkitNice(level: Self.highestNiceLevel)
        case .frameLinkShortSlice: .fairSlice(microseconds: Self.shortSliceMicroseconds)
        case .frameLink, .frameLinkWithoutRealTime, .hybrid, .sdlDelay: nil
        }
    }

    /// The name in tables.
    var title: String {
        switch self {
        case .frameLink: "FrameLink"
        case .frameLinkWithoutRealTime: "FrameLink, real-time off"
        case .frameLinkUnprivileged: "FrameLink, unprivileged"
        case .frameLinkRealTimeLimit: "FrameLink, rtprio 10"
        case .frameLinkRtkitRealTime: "FrameLink, rtkit RR 10"
        case .frameLinkRtkitNice15: "FrameLink, rtkit nice −15"
        case .frameLinkRtkitNice20: "FrameLink, rtkit nice −20"
        case .frameLinkShortSlice: "FrameLink, slice 0.1 ms"
        case .hybrid: "vs.c hybrid"
        case .sdlDelay: "vs.c sdldelay"
        }
    }
}
