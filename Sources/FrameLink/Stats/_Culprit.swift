/// The slowest callback of a frame, named only when a drop report needs it.
@MainActor
enum _Culprit {
    case none
    case link(DisplayLink)
    case timer(FrameTimer)
    case handler(StaticString)

    var name: String? {
        switch self {
        case .none: nil
        case .link(let link): link.label ?? "a display link"
        case .timer(let timer): timer.label ?? "a \(timer.interval) timer"
        case .handler(let name): name.description
        }
    }
}
