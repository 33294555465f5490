import CSDL2
import Foundation
import FrameLinkSDL

/// Starting SDL's X11 video under Xvfb, waiting out a refused connection.
///
/// Right after another test quit SDL, the X server has been seen to refuse the next connection
/// ("x11 not available"), more often on a busy machine. That is the server's state, not what a test
/// checks, so these helpers try again with growing pauses for up to `limit` seconds (a hang, not a
/// speed: they return as soon as SDL starts) and rethrow the last error after that.
enum X11Retry {
    /// Runs `attempt` until it does not throw SDL's "x11 not available", for up to `limit` seconds.
    @MainActor
    static func retrying<Value>(upTo limit: TimeInterval = 15, _ attempt: () throws -> Value) throws -> Value {
        let deadline = ContinuousClock.now + .seconds(limit)
        var pause: UInt32 = 50_000
        while true {
            do {
                return try attempt()
            } catch let error as SDLError
                where "\(error)".contains("x11 not available") && ContinuousClock.now < deadline
            {
                usleep(pause)
                pause = min(pause * 2, 1_000_000)
            }
        }
    }

    /// Starts SDL's video on the X server (`SDL_Init(SDL_INIT_VIDEO)`), retrying as above.
    @MainActor
    static func initVideo() throws {
        _ = try retrying { try SDLError.check(SDL_Init(SDL_INIT_VIDEO), "SDL_Init") }
    }
}
