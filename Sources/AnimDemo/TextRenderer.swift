import CSDL2
import FrameLinkSDL

/// Draws short strings with SDL2_ttf, caching one texture per string so that unchanged HUD text
/// costs a single copy per frame.
@MainActor
final class TextRenderer {
    private let font: OpaquePointer
    private var cache: [String: (texture: OpaquePointer, width: Int32, height: Int32)] = [:]
    private var isDestroyed = false

    /// Opens the font at `path` at `pointSize`.
    ///
    /// - Throws: ``SDLError`` when SDL2_ttf cannot start or the font cannot be opened.
    init(fontPath path: String, pointSize: Int32) throws(SDLError) {
        if TTF_WasInit() == 0 {
            try SDLError.check(TTF_Init(), "TTF_Init")
        }
        font = try SDLError.check(TTF_OpenFont(path, pointSize), "TTF_OpenFont(\(path))")
    }

    /// The width of `text` in pixels, or 0 if SDL2_ttf cannot measure it.
    func width(of text: String) -> Int32 {
        var width: Int32 = 0
        var height: Int32 = 0
        return TTF_SizeUTF8(font, text, &width, &height) == 0 ? width : 0
    }

    /// The height of a line of text in pixels.
    var lineHeight: Int32 { TTF_FontLineSkip(font) }

    /// Draws `text` with its top-left corner at (x, y) in colour (r, g, b). Does nothing for an empty
    /// string, or if SDL cannot render it.
    func draw(
        _ text: String, x: Int32, y: Int32, red: UInt8 = 235, green: UInt8 = 235, blue: UInt8 = 235,
        on renderer: OpaquePointer
    ) {
        guard !text.isEmpty, !isDestroyed else { return }
        let key = "\(red),\(green),\(blue)|\(text)"
        if cache[key] == nil {
            if cache.count >= 64 { clearCache() }
            guard let surface = CSDL2_RenderText(font, text, red, green, blue, 255) else { return }
            defer { SDL_FreeSurface(surface) }
            guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return }
            cache[key] = (texture, surface.pointee.w, surface.pointee.h)
        }
        guard let entry = cache[key] else { return }
        var destination = SDL_Rect(x: x, y: y, w: entry.width, h: entry.height)
        SDL_RenderCopy(renderer, entry.texture, nil, &destination)
    }

    private func clearCache() {
        for entry in cache.values { SDL_DestroyTexture(entry.texture) }
        cache.removeAll()
    }

    /// Destroys the cached textures and closes the font; call before the renderer is destroyed.
    /// Calling it again does nothing.
    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        clearCache()
        TTF_CloseFont(font)
        if TTF_WasInit() != 0 { TTF_Quit() }
    }
}
