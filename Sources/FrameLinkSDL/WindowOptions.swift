/// How an ``SDLHost`` opens its window: windowed or fullscreen, resizable, high-DPI, on which
/// display and where.
///
/// ```swift
/// var options = WindowOptions()
/// options.mode = .fullscreenDesktop
/// options.display = 1                       // the second display
/// let host = try SDLHost(title: "Game", width: 1280, height: 720, options: options)
/// ```
///
/// The pacing follows the window: the refresh rate of the display it opens on, and of the display
/// it is moved to or whose mode changes under it (``SDLHost/refreshRate``).
public struct WindowOptions: Sendable, Equatable {
    /// How the window covers its display.
    public enum Mode: Sendable, Equatable {
        /// A window of the given size (the default).
        case windowed
        /// A borderless window covering the whole display at the desktop's own mode
        /// (`SDL_WINDOW_FULLSCREEN_DESKTOP`): no mode change, quick to switch away from.
        case fullscreenDesktop
        /// Exclusive fullscreen (`SDL_WINDOW_FULLSCREEN`): SDL sets the display mode closest to the
        /// window's size; the pacing takes that mode's refresh rate.
        case fullscreen
    }

    /// Where the window opens on its display.
    public enum Position: Sendable, Equatable {
        /// Centred on the display (the default).
        case centered
        /// Wherever the window manager puts it.
        case undefined
        /// At `x`, `y` in screen coordinates of the display (its top-left corner is 0, 0).
        case at(x: Int, y: Int)
    }

    /// Windowed (the default), fullscreen at the desktop's mode, or exclusive fullscreen.
    public var mode = Mode.windowed
    /// Whether the player can resize the window (false by default).
    public var isResizable = false
    /// Whether the drawable may be larger than the window on a high-DPI screen (true by default:
    /// ``SDLHost/outputSize`` gives the pixels to draw).
    public var allowsHighDPI = true
    /// Whether the window has no border or title bar (false by default).
    public var isBorderless = false
    /// Whether the window opens hidden (for tests and headless runs; false by default).
    public var isHidden = false
    /// The display to open on, by SDL's index (0 is the first); `nil` for the first.
    public var display: Int?
    /// Where the window opens on its display.
    public var position = Position.centered

    /// Options for a visible, centred, non-resizable window with high-DPI drawing on the first
    /// display.
    public init() {}
}
