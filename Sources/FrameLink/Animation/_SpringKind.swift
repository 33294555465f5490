/// Which closed form a ``SpringAnimation`` uses.
@usableFromInline
enum _SpringKind: UInt8, Sendable {
    case underdamped, critical, overdamped
}
