/// What an animation animates, for retargeting and cancellation: a name given by the user, a
/// property (an object and a key path), or a slot of ``AnimatedValues``.
enum _AnimationKey: Hashable {
    case name(String)
    case property(ObjectIdentifier, AnyKeyPath)
    case slot(ObjectIdentifier, Int)
}
