// CSDL2: SDL2, SDL2_image and SDL2_ttf for Swift.
// Macros and variadic functions that Swift cannot import are wrapped here as `static inline CSDL2_*`.
#ifndef CSDL2_SHIM_H
#define CSDL2_SHIM_H

#define SDL_MAIN_HANDLED 1
#include <SDL2/SDL.h>
#include <SDL2/SDL_image.h>
#include <SDL2/SDL_ttf.h>

/// SDL_WINDOWPOS_CENTERED (a macro).
static inline int CSDL2_WindowPosCentered(void) { return (int)SDL_WINDOWPOS_CENTERED; }

/// SDL_WINDOWPOS_CENTERED_DISPLAY(display) (a macro): centred on display `display`.
static inline int CSDL2_WindowPosCenteredOnDisplay(int display) { return (int)SDL_WINDOWPOS_CENTERED_DISPLAY(display); }

/// SDL_WINDOWPOS_UNDEFINED_DISPLAY(display) (a macro): anywhere on display `display`.
static inline int CSDL2_WindowPosUndefinedOnDisplay(int display) { return (int)SDL_WINDOWPOS_UNDEFINED_DISPLAY(display); }

/// SDL_WINDOWPOS_UNDEFINED (a macro).
static inline int CSDL2_WindowPosUndefined(void) { return (int)SDL_WINDOWPOS_UNDEFINED; }

/// SDL_Log without varargs: logs one preformatted message.
static inline void CSDL2_Log(const char *message) { SDL_Log("%s", message); }

/// SDL_SetError without varargs.
static inline int CSDL2_SetError(const char *message) { return SDL_SetError("%s", message); }

/// SDL_MUSTLOCK (a macro).
static inline int CSDL2_MustLock(SDL_Surface *surface) { return SDL_MUSTLOCK(surface) ? 1 : 0; }

/// SDL_BUTTON(x) (a macro): the mask bit of a mouse button in SDL_GetMouseState.
static inline Uint32 CSDL2_ButtonMask(int button) { return SDL_BUTTON(button); }

/// TTF_RenderUTF8_Blended: kept here so callers have one place for text rendering.
static inline SDL_Surface *CSDL2_RenderText(TTF_Font *font, const char *text, Uint8 r, Uint8 g, Uint8 b, Uint8 a) {
    SDL_Color color = { r, g, b, a };
    return TTF_RenderUTF8_Blended(font, text, color);
}

/// IMG_GetError / TTF_GetError are macros for SDL_GetError.
static inline const char *CSDL2_GetError(void) { return SDL_GetError(); }

/// The GL_RENDERER string of the current OpenGL context (e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"),
/// or NULL when no context is current. glGetString is looked up with SDL_GL_GetProcAddress, so no
/// GL library or header is needed at build time.
static inline const char *CSDL2_GL_RendererString(void) {
    typedef const unsigned char *(*GetString)(unsigned int);
    if (SDL_GL_GetCurrentContext() == NULL) return NULL;
    GetString getString = (GetString)SDL_GL_GetProcAddress("glGetString");
    return getString ? (const char *)getString(0x1F01 /* GL_RENDERER */) : NULL;
}

/// Reads a width×height block of the current GL context's read buffer (the back buffer of a
/// double-buffered window: what was drawn since the last swap) into `pixels` as ARGB8888 words,
/// top row first (GL's rows are bottom-up; they are flipped here). `pitch` is the byte length of a
/// row of `pixels`. Returns 0, or -1 with SDL's error set when no context is current or GL lacks
/// glReadPixels.
static inline int CSDL2_GL_ReadPixelsARGB8888(int width, int height, void *pixels, int pitch) {
    typedef void (*ReadPixels)(int, int, int, int, unsigned int, unsigned int, void *);
    typedef void (*PixelStorei)(unsigned int, int);
    if (SDL_GL_GetCurrentContext() == NULL) return SDL_SetError("no OpenGL context is current");
    ReadPixels readPixels = (ReadPixels)SDL_GL_GetProcAddress("glReadPixels");
    PixelStorei pixelStorei = (PixelStorei)SDL_GL_GetProcAddress("glPixelStorei");
    if (readPixels == NULL || pixelStorei == NULL) return SDL_SetError("glReadPixels is not available");
    if (width <= 0 || height <= 0 || pitch < width * 4) return SDL_SetError("bad size for glReadPixels");
    pixelStorei(0x0D05 /* GL_PACK_ALIGNMENT */, 4);
    /* GL_BGRA + GL_UNSIGNED_INT_8_8_8_8_REV is ARGB8888 in a native 32-bit word on any endianness. */
    readPixels(0, 0, width, height, 0x80E1 /* GL_BGRA */, 0x8367 /* GL_UNSIGNED_INT_8_8_8_8_REV */, pixels);
    unsigned char *rows = (unsigned char *)pixels;
    for (int top = 0, bottom = height - 1; top < bottom; top++, bottom--) {
        unsigned char *a = rows + (size_t)top * pitch, *b = rows + (size_t)bottom * pitch;
        for (int i = 0; i < width * 4; i++) { unsigned char t = a[i]; a[i] = b[i]; b[i] = t; }
    }
    return 0;
}

#endif
