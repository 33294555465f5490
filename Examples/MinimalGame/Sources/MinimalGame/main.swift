// MinimalGame: a ball, a paddle moved by the mouse, the arrow keys or a game controller, a score
// clock — on FrameLink + SDL. Initialization → main loop (update, draw) → report.
// Run: swift run MinimalGame [--fullscreen] [--headless --frames N] [--log FILE]

import CSDL2
import Foundation
import FrameLink
import FrameLinkSDL

@MainActor
final class Game {
    var ball = SIMD2<Double>(320, 180)
    var velocity = SIMD2<Double>(240, 170)  // pixels per second
    var paddleX = 320.0
    var mouseControlled = false
    /// The first game controller plugged in (`SDL_GameController *`), if any.
    var controller: OpaquePointer?
    var seconds = 0
    var hits = 0
    // One animation: the paddle glows after a hit, fading out over 0.4 s with an ease-out curve.
    var glow: Tween<Double>?
    var glowStart = 0.0

    /// How the player steers this frame, from -1 (left) to 1 (right): the arrow keys (held keys are
    /// state, read each frame, not events) or the controller's left stick and d-pad.
    func steering() -> Double {
        var direction = 0.0
        if let keys = SDL_GetKeyboardState(nil) {
            if keys[Int(SDL_SCANCODE_LEFT.rawValue)] != 0 { direction -= 1 }
            if keys[Int(SDL_SCANCODE_RIGHT.rawValue)] != 0 { direction += 1 }
        }
        if let controller {
            let stick = Double(SDL_GameControllerGetAxis(controller, SDL_CONTROLLER_AXIS_LEFTX)) / 32_767
            if abs(stick) > 0.2 { direction += stick }  // a dead zone: sticks never rest at exactly 0
            if SDL_GameControllerGetButton(controller, SDL_CONTROLLER_BUTTON_DPAD_LEFT) != 0 { direction -= 1 }
            if SDL_GameControllerGetButton(controller, SDL_CONTROLLER_BUTTON_DPAD_RIGHT) != 0 { direction += 1 }
        }
        return min(max(direction, -1), 1)
    }

    func step(_ link: DisplayLink) {
        let dt = link.deltaTime / .seconds(1)
        ball += velocity * dt
        let steer = steering()
        if steer != 0 {
            mouseControlled = true
            paddleX = min(max(paddleX + steer * 600 * dt, 50), 590)
        }
        if !mouseControlled { paddleX += (ball.x - paddleX) * min(1, dt * 8) }  // until the player moves
        if ball.x < 8 || ball.x > 632 { velocity.x = -velocity.x }
        if ball.y < 8 { velocity.y = -velocity.y }
        if ball.y > 340, abs(ball.x - paddleX) < 50, velocity.y > 0 {
            velocity.y = -velocity.y
            hits += 1
            glow = Tween(from: 255.0, to: 40.0, duration: 0.4, curve: .easeOut)
            glowStart = link.timestamp.seconds
        }
        if ball.y > 372 { ball = SIMD2(320, 180) }  // missed: serve again
        ball.x = min(max(ball.x, 8), 632)
    }

    func draw(_ renderer: OpaquePointer, at time: Double) {
        SDL_SetRenderDrawColor(renderer, 16, 18, 28, 255)
        SDL_RenderClear(renderer)
        let brightness = UInt8(glow?.value(at: time - glowStart) ?? 40)
        SDL_SetRenderDrawColor(renderer, brightness, 200, 255, 255)
        var paddle = SDL_FRect(x: Float(paddleX - 50), y: 344, w: 100, h: 10)
        SDL_RenderFillRectF(renderer, &paddle)
        SDL_SetRenderDrawColor(renderer, 255, 210, 80, 255)
        var dot = SDL_FRect(x: Float(ball.x - 8), y: Float(ball.y - 8), w: 16, h: 16)
        SDL_RenderFillRectF(renderer, &dot)
    }
}

let arguments = CommandLine.arguments
let headless = arguments.contains("--headless")
let fullscreen = arguments.contains("--fullscreen")
var frames: Int?
if let index = arguments.firstIndex(of: "--frames") {
    guard index + 1 < arguments.count, let count = Int(arguments[index + 1]), count > 0 else {
        FileHandle.standardError.write(Data("MinimalGame: --frames needs a positive count\n".utf8))
        exit(2)
    }
    frames = count
}
var logPath: String?
if let index = arguments.firstIndex(of: "--log") {
    guard index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") else {
        FileHandle.standardError.write(Data("MinimalGame: --log needs a file path\n".utf8))
        exit(2)
    }
    logPath = arguments[index + 1]
}
if let logPath {
    // Checked before the run, so a bad path does not cost the session it would record.
    let folder = URL(fileURLWithPath: logPath).deletingLastPathComponent().path
    var isFolder: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: logPath, isDirectory: &isFolder)
    guard !(exists && isFolder.boolValue), FileManager.default.isWritableFile(atPath: exists ? logPath : folder) else {
        FileHandle.standardError.write(Data("MinimalGame: --log \(logPath): cannot write there\n".utf8))
        exit(2)
    }
}
if headless && frames == nil {
    // Virtual time never ends on its own: nothing could stop a headless run without a count.
    FileHandle.standardError.write(Data("MinimalGame: --headless needs --frames N\n".utf8))
    exit(2)
}
MainActor.assumeIsolated {
    // Initialization
    let host: SDLHost
    do {
        // Headless: SDL's dummy driver and virtual time, so `--frames 120` takes no real time.
        var options = WindowOptions()
        options.isResizable = true
        options.mode = fullscreen ? .fullscreenDesktop : .windowed
        host =
            headless
            ? try SDLHost.headless(title: "MinimalGame", width: 640, height: 360)
            : try SDLHost(title: "MinimalGame", width: 640, height: 360, options: options)
    } catch {
        FileHandle.standardError.write(Data("MinimalGame: \(error)\n".utf8))
        exit(1)
    }
    let game = Game()
    // Game controllers: SDL reports each one plugged in (those already there included) as an event.
    if SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) != 0 {
        print("MinimalGame: no game controllers (\(String(cString: SDL_GetError())))")
    }
    let link = DisplayLink(target: game) { game, link in game.step(link) }  // weak target: no leak
    link.label = "game update"
    link.add(to: host.loop, forMode: .common)
    let clock = FrameTimer(target: game, interval: .seconds(1)) { game, _ in game.seconds += 1 }
    clock.add(to: host.loop, forMode: .default)  // pauses while the mouse drags (.tracking)
    host.eventHandler = { event in
        if event.type == SDL_MOUSEMOTION.rawValue {
            game.mouseControlled = true
            game.paddleX = Double(event.motion.x)
        }
        if event.type == SDL_KEYDOWN.rawValue, event.key.keysym.sym == SDLK_ESCAPE.rawValue { host.loop.stop() }
        if event.type == SDL_CONTROLLERDEVICEADDED.rawValue, game.controller == nil {
            game.controller = SDL_GameControllerOpen(event.cdevice.which)
        }
        if event.type == SDL_CONTROLLERDEVICEREMOVED.rawValue, let controller = game.controller,
            SDL_JoystickInstanceID(SDL_GameControllerGetJoystick(controller)) == event.cdevice.which
        {
            SDL_GameControllerClose(controller)
            game.controller = nil
        }
    }
    host.renderHandler = { renderer in game.draw(renderer, at: host.loop.timestamp.seconds) }

    // Main loop (recording every frame with --log FILE; `framelink summary FILE` reads it)
    if logPath != nil { host.loop.frameLog = FrameLog(period: host.loop.refreshRate.period) }
    if let frames { host.run(frames: frames) } else { host.run() }
    if let logPath, let log = host.loop.frameLog {
        do {
            let jsonLines = logPath.hasSuffix(".jsonl") || logPath.hasSuffix(".json")
            try log.write(toFile: logPath, format: jsonLines ? .jsonLines : .csv)
        } catch {
            FileHandle.standardError.write(Data("MinimalGame: \(error)\n".utf8))
            exit(1)
        }
    }

    // Report
    print("MinimalGame: \(game.hits) hits in \(game.seconds) s of game clock")
    print(host.loop.statistics.summary)
    if let controller = game.controller { SDL_GameControllerClose(controller) }
    SDL_QuitSubSystem(SDL_INIT_GAMECONTROLLER)
    host.close()
}
