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

#endif
