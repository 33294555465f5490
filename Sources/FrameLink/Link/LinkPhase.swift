/// The part of a frame in which a ``DisplayLink`` runs, in the spirit of UIKit's `UIUpdateLink`
/// phases: input before the simulation, the simulation, what follows it, and drawing.
///
/// A frame of a ``FrameLoop`` runs, in this order:
///
/// 1. the host's event pump (an SDL window's), then ``FrameLoop/eventHandler``, then the links of
///    ``input``;
/// 2. the timers that are due;
/// 3. the links of ``update`` (the default), then the links of ``lateUpdate``;
/// 4. the links of ``render``, then ``FrameLoop/renderHandler``, then the host's render hook (which
///    presents).
///
/// Within a phase, links run in the order they were added to the loop. An ``Animator`` runs in
/// ``lateUpdate``, so animations that the game's update links start are shown in the same frame.
/// In the frame statistics, input links count as the `events` phase, update and late-update links
/// as `links`, and render links as `render`.
public enum LinkPhase: Int, CaseIterable, Sendable, CustomStringConvertible {
    /// After input is pumped, before timers: read input here.
    case input
    /// The simulation: the default phase.
    case update
    /// After every update link: cameras that follow, animations, anything that reads the
    /// simulation's new state.
    case lateUpdate
    /// Just before the render handler: build what will be drawn.
    case render

    /// The phase's name: `"input"`, `"update"`, `"late update"` or `"render"`.
    public var description: String {
        switch self {
        case .input: "input"
        case .update: "update"
        case .lateUpdate: "late update"
        case .render: "render"
        }
    }
}
