/// One of the pacers a `make pace` run compares.
enum Pacer: String, CaseIterable, Sendable {
    /// FrameLink's `DeadlineSource`, asking for real-time scheduling for its waits (the default).
    case frameLink = "framelink"
    /// FrameLink's `DeadlineSource` with real-time scheduling turned off.
    case frameLinkWithoutRealTime = "framelink-no-rt"
    /// `../shared/probes/vs.c hybrid`: an absolute sleep to 1 ms before the deadline, then a spin.
    case hybrid
    /// `../shared/probes/vs.c sdldelay`: `SDL_Delay` of the remaining whole milliseconds.
    case sdlDelay = "sdldelay"

    /// Whether the pacer is the C probe (run as a process) rather than FrameLink in this process.
    var isProbe: Bool { self == .hybrid || self == .sdlDelay }

    /// The name in tables.
    var title: String {
        switch self {
        case .frameLink: "FrameLink"
        case .frameLinkWithoutRealTime: "FrameLink, real-time off"
        case .hybrid: "vs.c hybrid"
        case .sdlDelay: "vs.c sdldelay"
        }
    }
}
