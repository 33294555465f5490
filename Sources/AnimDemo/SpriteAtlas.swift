import CSDL2
import Foundation
import FrameLinkSDL

/// The sprite atlas texture (`assets/sprites.png`): 8 sprites of 32×32 in the top row, the same at
/// half opacity in the bottom row.
@MainActor
final class SpriteAtlas {
    /// The side of one sprite cell in pixels.
    static let cell: Int32 = 32
    /// The number of sprites per row.
    static let kinds = 8
    /// The atlas size the demo expects.
    static let expectedSize = (width: Int32(256), height: Int32(64))

    /// The texture (`SDL_Texture *`), or `nil` once destroyed.
    private(set) var texture: OpaquePointer?

    /// The image loaded from disk, before there is a renderer to make a texture with.
    private var surface: UnsafeMutablePointer<SDL_Surface>?

    /// Loads and checks the PNG at `path`; call ``makeTexture(renderer:)`` once a renderer exists.
    ///
    /// Loading comes first so that a missing or corrupt atlas is reported before any window opens.
    /// - Throws: ``SDLError`` naming the file when it cannot be read or is not an image;
    ///   ``DemoError`` when it has the wrong size.
    init(contentsOf path: String) throws {
        // libpng prints its own complaint about a corrupt file on stderr: capture it and fold it into
        // the one error line instead.
        let (image, captured) = captureStandardError { IMG_Load(path) }
        let libraryMessage = captured.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
        guard let loaded = image else {
            var error = SDLError.current("IMG_Load(\(path))")
            if !libraryMessage.isEmpty {
                error = SDLError(operation: error.operation, message: "\(error.message) (\(libraryMessage))")
            }
            throw error
        }
        let (width, height) = (loaded.pointee.w, loaded.pointee.h)
        guard width == Self.expectedSize.width, height == Self.expectedSize.height else {
            SDL_FreeSurface(loaded)
            throw DemoError(
                description:
                    "\(path) is \(width)×\(height), expected \(Self.expectedSize.width)×\(Self.expectedSize.height)"
                    + " (regenerate it with `python3 scripts/make_assets.py`)")
        }
        surface = loaded
    }

    /// Uploads the image to `renderer` as a texture with alpha blending, and frees the image.
    func makeTexture(renderer: OpaquePointer) throws(SDLError) {
        guard let surface else { return }
        defer {
            SDL_FreeSurface(surface)
            self.surface = nil
        }
        let created = try SDLError.check(
            SDL_CreateTextureFromSurface(renderer, surface), "SDL_CreateTextureFromSurface(atlas)")
        try SDLError.check(SDL_SetTextureBlendMode(created, SDL_BLENDMODE_BLEND), "SDL_SetTextureBlendMode")
        texture = created
    }

    /// The source rectangle of sprite `kind` (0..<8), at half opacity if `faded`.
    static func sourceRect(kind: Int, faded: Bool) -> SDL_Rect {
        SDL_Rect(x: Int32(kind % kinds) * cell, y: faded ? cell : 0, w: cell, h: cell)
    }

    /// Destroys the texture; call before the renderer is destroyed.
    func destroy() {
        if let texture { SDL_DestroyTexture(texture) }
        texture = nil
        if let surface { SDL_FreeSurface(surface) }
        surface = nil
    }
}
