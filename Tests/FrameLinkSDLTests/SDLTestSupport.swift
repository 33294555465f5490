import CSDL2
import Foundation
import FrameLinkSDL
import XCTest

/// Helpers shared by the SDL tests: choosing a video driver, pushing events, reading PNG pixels.
enum SDLTestSupport {
    /// Selects SDL's video driver for the next `SDL_Init` (SDL reads the variable when video starts).
    static func useVideoDriver(_ name: String) {
        setenv("SDL_VIDEODRIVER", name, 1)
    }

    /// Pushes an event of `type` onto SDL's queue, after letting `configure` fill in its fields.
    static func push(_ type: SDL_EventType, _ configure: (inout SDL_Event) -> Void = { _ in }) {
        push(rawType: type.rawValue, configure)
    }

    /// Pushes an event whose type is a raw number (a registered user event) onto SDL's queue.
    static func push(rawType: UInt32, _ configure: (inout SDL_Event) -> Void = { _ in }) {
        var event = SDL_Event()
        event.type = rawType
        configure(&event)
        XCTAssertEqual(SDL_PushEvent(&event), 1, "SDL_PushEvent failed: \(String(cString: SDL_GetError()))")
    }

    /// Pushes a left-button event (`SDL_MOUSEBUTTONDOWN` or `SDL_MOUSEBUTTONUP`) at (x, y).
    static func pushLeftButton(_ type: SDL_EventType, x: Int32 = 10, y: Int32 = 10) {
        push(type) { event in
            event.button.button = UInt8(SDL_BUTTON_LEFT)
            event.button.state = UInt8(type == SDL_MOUSEBUTTONDOWN ? SDL_PRESSED : SDL_RELEASED)
            event.button.clicks = 1
            event.button.x = x
            event.button.y = y
        }
    }

    /// Pushes a mouse motion to (x, y), with the left button held if `leftHeld`.
    static func pushMotion(x: Int32, y: Int32, leftHeld: Bool) {
        push(SDL_MOUSEMOTION) { event in
            event.motion.state = leftHeld ? CSDL2_ButtonMask(SDL_BUTTON_LEFT) : 0
            event.motion.x = x
            event.motion.y = y
            event.motion.xrel = 5
        }
    }

    /// The colour of pixel (x, y) of the PNG at `path`, loaded with SDL_image, or `nil` (with a test
    /// failure) if the file cannot be read.
    static func pixel(ofImageAt path: String, x: Int, y: Int, file: StaticString = #filePath, line: UInt = #line)
        -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)?
    {
        guard let loaded = IMG_Load(path) else {
            XCTFail("IMG_Load(\(path)): \(String(cString: SDL_GetError()))", file: file, line: line)
            return nil
        }
        defer { SDL_FreeSurface(loaded) }
        guard let surface = SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_ARGB8888.rawValue, 0) else {
            XCTFail("SDL_ConvertSurfaceFormat: \(String(cString: SDL_GetError()))", file: file, line: line)
            return nil
        }
        defer { SDL_FreeSurface(surface) }
        guard x >= 0, y >= 0, x < Int(surface.pointee.w), y < Int(surface.pointee.h),
            let pixels = surface.pointee.pixels
        else {
            XCTFail(
                "pixel (\(x), \(y)) is outside the \(surface.pointee.w)×\(surface.pointee.h) image", file: file,
                line: line)
            return nil
        }
        let value = (pixels + y * Int(surface.pointee.pitch)).assumingMemoryBound(to: UInt32.self)[x]
        return (
            UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 24)
        )
    }

    /// The colour of pixel (x, y) of what `renderer` holds now (`SDL_RenderReadPixels`), as
    /// `[red, green, blue]` in `rgb`, or `nil` if SDL cannot read it.
    @MainActor
    static func readPixel(_ renderer: OpaquePointer, x: Int32, y: Int32) -> (rgb: [UInt8], alpha: UInt8)? {
        var value: UInt32 = 0
        var rect = SDL_Rect(x: x, y: y, w: 1, h: 1)
        guard SDL_RenderReadPixels(renderer, &rect, SDL_PIXELFORMAT_ARGB8888.rawValue, &value, 4) == 0 else {
            return nil
        }
        let rgb = [value >> 16, value >> 8, value].map { UInt8(truncatingIfNeeded: $0) }
        return (rgb, UInt8(truncatingIfNeeded: value >> 24))
    }

    /// Every pixel of the image at `path` as opaque-or-not ARGB8888 words, row by row, with the
    /// image's size; `nil` if SDL_image cannot load it.
    static func pixels(ofImageAt path: String) -> (width: Int, height: Int, argb: [UInt32])? {
        guard let loaded = IMG_Load(path) else { return nil }
        defer { SDL_FreeSurface(loaded) }
        guard let surface = SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_ARGB8888.rawValue, 0) else {
            return nil
        }
        defer { SDL_FreeSurface(surface) }
        let width = Int(surface.pointee.w)
        let height = Int(surface.pointee.h)
        guard let base = surface.pointee.pixels else { return nil }
        var argb: [UInt32] = []
        argb.reserveCapacity(width * height)
        for row in 0..<height {
            let line = (base + row * Int(surface.pointee.pitch)).assumingMemoryBound(to: UInt32.self)
            argb.append(contentsOf: UnsafeBufferPointer(start: line, count: width))
        }
        return (width, height, argb)
    }

    /// The size of the image at `path`, or `nil` if SDL_image cannot load it.
    static func imageSize(at path: String) -> (width: Int, height: Int)? {
        guard let surface = IMG_Load(path) else { return nil }
        defer { SDL_FreeSurface(surface) }
        return (Int(surface.pointee.w), Int(surface.pointee.h))
    }

    /// A fresh path in the temporary folder for a file with `suffix`.
    static func temporaryPath(_ suffix: String) -> String {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("framelink-sdl-\(UUID().uuidString)\(suffix)").path
    }

    /// The process's CPU time (all threads) in seconds.
    static func processCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

/// A test case on SDL's dummy video driver: each test starts with the driver chosen and ends with
/// SDL shut down, even after a failure half-way (SDL runs one video subsystem per process).
class SDLDummyDriverTestCase: XCTestCase {
    override func setUp() {
        super.setUp()
        SDLTestSupport.useVideoDriver("dummy")
    }

    override func tearDown() {
        // A test that failed half-way must not leave SDL running for the next one.
        if SDL_WasInit(0) != 0 { SDL_Quit() }
        super.tearDown()
    }
}
