internal import CSDL2

extension SDLHost {
    /// Saves what the host has drawn, not yet presented, as a PNG file at `path`.
    ///
    /// Call it after a frame has been drawn and before it is presented: once ``run(frames:)`` (or
    /// ``run()``) returns, the renderer (or the GL back buffer) still holds the last frame, so a
    /// screenshot taken then shows it. The pixels are read with `SDL_RenderReadPixels` (or
    /// `glReadPixels` on an OpenGL host) into an ARGB8888 surface, made opaque (a window has no
    /// transparency) and written with `IMG_SavePNG`.
    ///
    /// - Parameter path: The file to write; its folder must exist. An existing file is replaced.
    /// - Throws: ``SDLError`` if the host is closed, `path` is empty, or SDL cannot read the pixels
    ///   or write the file.
    public func screenshot(to path: String) throws(SDLError) {
        guard isOpen else {
            throw SDLError(operation: "SDLHost.screenshot", message: "the host is closed")
        }
        guard !path.isEmpty else {
            throw SDLError(operation: "SDLHost.screenshot", message: "the path is empty")
        }
        let (width, height) = outputSize
        guard width > 0, height > 0, width <= 16_384, height <= 16_384 else {
            throw SDLError(operation: "SDLHost.screenshot", message: "the drawable is \(width)×\(height)")
        }
        let format = SDL_PIXELFORMAT_ARGB8888.rawValue
        let surface = try SDLError.check(
            SDL_CreateRGBSurfaceWithFormat(0, Int32(width), Int32(height), 32, format),
            "SDL_CreateRGBSurfaceWithFormat")
        defer { SDL_FreeSurface(surface) }
        guard let pixels = surface.pointee.pixels else {
            throw SDLError(operation: "SDL_CreateRGBSurfaceWithFormat", message: "the surface has no pixels")
        }
        let pitch = surface.pointee.pitch
        if let renderer {
            try SDLError.check(SDL_RenderReadPixels(renderer, nil, format, pixels, pitch), "SDL_RenderReadPixels")
        } else {
            try SDLError.check(
                CSDL2_GL_ReadPixelsARGB8888(Int32(width), Int32(height), pixels, pitch), "glReadPixels")
        }
        for row in 0..<height {
            let line = (pixels + row * Int(pitch)).assumingMemoryBound(to: UInt32.self)
            for column in 0..<width {
                line[column] |= 0xFF00_0000
            }
        }
        try SDLError.check(IMG_SavePNG(surface, path), "IMG_SavePNG(\(path))")
    }
}
