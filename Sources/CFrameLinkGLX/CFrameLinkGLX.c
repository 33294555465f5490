// Whether an SDL window's GLX offers GLX_OML_sync_control: see include/CFrameLinkGLX.h.
#include "CFrameLinkGLX.h"

#include <string.h>

#define SDL_MAIN_HANDLED 1
#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>

#if defined(SDL_VIDEO_DRIVER_X11)
#include <X11/Xlib.h>

typedef const char *(*QueryExtensionsString)(Display *display, int screen);

/// Whether the space-separated `list` holds the word `name`.
static int listsExtension(const char *list, const char *name) {
    const size_t length = strlen(name);
    for (const char *at = list; (at = strstr(at, name)) != NULL; at += length) {
        const int startsWord = at == list || at[-1] == ' ';
        const int endsWord = at[length] == ' ' || at[length] == '\0';
        if (startsWord && endsWord) return 1;
    }
    return 0;
}
#endif

CFrameLinkGLX_Status CFrameLinkGLX_syncControlStatus(void *window) {
    if (window == NULL) return CFrameLinkGLX_notX11;
#if defined(SDL_VIDEO_DRIVER_X11)
    SDL_SysWMinfo info;
    memset(&info, 0, sizeof info);
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo((SDL_Window *)window, &info) || info.subsystem != SDL_SYSWM_X11) {
        return CFrameLinkGLX_notX11;
    }
    if (info.info.x11.display == NULL) return CFrameLinkGLX_notX11;
    if ((SDL_GetWindowFlags((SDL_Window *)window) & SDL_WINDOW_OPENGL) == 0) return CFrameLinkGLX_noOpenGL;
    // Looked up through SDL, which has loaded the OpenGL library for an OpenGL window.
    QueryExtensionsString query = (QueryExtensionsString)SDL_GL_GetProcAddress("glXQueryExtensionsString");
    if (query == NULL) return CFrameLinkGLX_noOpenGL;
    const char *extensions = query(info.info.x11.display, DefaultScreen(info.info.x11.display));
    if (extensions == NULL || !listsExtension(extensions, "GLX_OML_sync_control")) return CFrameLinkGLX_noSyncControl;
    return CFrameLinkGLX_offersSyncControl;
#else
    return CFrameLinkGLX_notX11;
#endif
}
