internal import CSDL2

/// An error from SDL, SDL_image or SDL_ttf: the operation that failed and SDL's own explanation
/// (`SDL_GetError()`), or a FrameLinkSDL check that refused a bad argument before calling SDL.
///
/// Every SDL call in FrameLinkSDL that can fail goes through one of the two `check` helpers, so a
/// failure always becomes a thrown `SDLError` that names the call, never a crash or a silently
/// ignored return code. Games can use the same helpers:
///
/// ```swift
/// let surface = try SDLError.check(IMG_Load(path), "IMG_Load(\(path))")
/// try SDLError.check(SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255), "SDL_SetRenderDrawColor")
/// ```
public struct SDLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The operation that failed, such as `"SDL_CreateWindow"`.
    public let operation: String

    /// Why it failed: SDL's error message at the time, or FrameLinkSDL's explanation.
    public let message: String

    /// Creates an error for `operation` with an explicit `message`.
    public init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    /// Creates an error for `operation` carrying SDL's current error message (`SDL_GetError()`).
    public static func current(_ operation: String) -> SDLError {
        let text = CSDL2_GetError().map { String(cString: $0) } ?? ""
        return SDLError(operation: operation, message: text.isEmpty ? "unknown SDL error" : text)
    }

    /// A one-line explanation: the operation, then why it failed.
    public var description: String { "\(operation) failed: \(message)" }

    /// Returns `result` if it is zero or positive, or throws the current SDL error for a negative
    /// result (SDL's convention for functions that return an `int`).
    ///
    /// - Parameters:
    ///   - result: The return value of an SDL function.
    ///   - operation: The name of the call, used in the error.
    /// - Throws: ``SDLError`` with `SDL_GetError()` when `result` is negative.
    @discardableResult
    public static func check(_ result: Int32, _ operation: @autoclosure () -> String) throws(SDLError) -> Int32 {
        guard result >= 0 else { throw current(operation()) }
        return result
    }

    /// Returns `value` unwrapped, or throws the current SDL error when it is `nil` (SDL's
    /// convention for functions that return a pointer).
    ///
    /// - Parameters:
    ///   - value: The return value of an SDL function.
    ///   - operation: The name of the call, used in the error.
    /// - Throws: ``SDLError`` with `SDL_GetError()` when `value` is `nil`.
    public static func check<T>(_ value: T?, _ operation: @autoclosure () -> String) throws(SDLError) -> T {
        guard let value else { throw current(operation()) }
        return value
    }
}
