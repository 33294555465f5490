// An SDL window's X11 side: see include/CFrameLinkSDLShims.h.
#include "CFrameLinkSDLShims.h"

#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/eventfd.h>
#endif

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

CFrameLinkSDLShims_Status CFrameLinkSDLShims_syncControlStatus(void *window) {
    if (window == NULL) return CFrameLinkSDLShims_notX11;
#if defined(SDL_VIDEO_DRIVER_X11)
    SDL_SysWMinfo info;
    memset(&info, 0, sizeof info);
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo((SDL_Window *)window, &info) || info.subsystem != SDL_SYSWM_X11) {
        return CFrameLinkSDLShims_notX11;
    }
    if (info.info.x11.display == NULL) return CFrameLinkSDLShims_notX11;
    if ((SDL_GetWindowFlags((SDL_Window *)window) & SDL_WINDOW_OPENGL) == 0) return CFrameLinkSDLShims_noOpenGL;
    // Looked up through SDL, which has loaded the OpenGL library for an OpenGL window.
    QueryExtensionsString query = (QueryExtensionsString)SDL_GL_GetProcAddress("glXQueryExtensionsString");
    if (query == NULL) return CFrameLinkSDLShims_noOpenGL;
    const char *extensions = query(info.info.x11.display, DefaultScreen(info.info.x11.display));
    if (extensions == NULL || !listsExtension(extensions, "GLX_OML_sync_control")) return CFrameLinkSDLShims_noSyncControl;
    return CFrameLinkSDLShims_offersSyncControl;
#else
    return CFrameLinkSDLShims_notX11;
#endif
}

#if defined(SDL_VIDEO_DRIVER_X11)
typedef int (*GetSyncValues)(Display *, unsigned long, int64_t *, int64_t *, int64_t *);
typedef int (*WaitForSbc)(Display *, unsigned long, int64_t, int64_t *, int64_t *, int64_t *);

/// The X display and window (the GLX drawable SDL swaps) of an SDL window on X11, or 0.
static int x11Drawable(void *window, Display **display, unsigned long *drawable) {
    if (window == NULL) return 0;
    SDL_SysWMinfo info;
    memset(&info, 0, sizeof info);
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo((SDL_Window *)window, &info) || info.subsystem != SDL_SYSWM_X11) return 0;
    if (info.info.x11.display == NULL || info.info.x11.window == 0) return 0;
    if ((SDL_GetWindowFlags((SDL_Window *)window) & SDL_WINDOW_OPENGL) == 0) return 0;
    *display = info.info.x11.display;
    *drawable = (unsigned long)info.info.x11.window;
    return 1;
}
#endif

int CFrameLinkSDLShims_readSyncValues(void *window, CFrameLinkSDLShims_SyncValues *values) {
#if defined(SDL_VIDEO_DRIVER_X11)
    Display *display;
    unsigned long drawable;
    if (values == NULL || !x11Drawable(window, &display, &drawable)) return 0;
    GetSyncValues get = (GetSyncValues)SDL_GL_GetProcAddress("glXGetSyncValuesOML");
    if (get == NULL) return 0;
    int64_t ust = 0, msc = 0, sbc = 0;
    if (!get(display, drawable, &ust, &msc, &sbc)) return 0;
    values->ust = ust;
    values->msc = msc;
    values->sbc = sbc;
    return 1;
#else
    (void)window;
    (void)values;
    return 0;
#endif
}

int CFrameLinkSDLShims_waitForSwap(void *window, long long targetSBC, CFrameLinkSDLShims_SyncValues *values) {
#if defined(SDL_VIDEO_DRIVER_X11)
    Display *display;
    unsigned long drawable;
    // (A negative target is an X error, which would end the program.)
    if (values == NULL || targetSBC < 0 || !x11Drawable(window, &display, &drawable)) return 0;
    WaitForSbc wait = (WaitForSbc)SDL_GL_GetProcAddress("glXWaitForSbcOML");
    if (wait == NULL) return 0;
    int64_t ust = 0, msc = 0, sbc = 0;
    if (!wait(display, drawable, (int64_t)targetSBC, &ust, &msc, &sbc)) return 0;
    values->ust = ust;
    values->msc = msc;
    values->sbc = sbc;
    return 1;
#else
    (void)window;
    (void)targetSBC;
    (void)values;
    return 0;
#endif
}

int CFrameLinkSDLShims_isXwayland(void *window) {
#if defined(SDL_VIDEO_DRIVER_X11)
    SDL_SysWMinfo info;
    memset(&info, 0, sizeof info);
    SDL_VERSION(&info.version);
    if (window == NULL || !SDL_GetWindowWMInfo((SDL_Window *)window, &info) || info.subsystem != SDL_SYSWM_X11) return 0;
    if (info.info.x11.display == NULL) return 0;
    // Xlib is SDL's, loaded by SDL (nothing here links against it): found among the libraries
    // loaded, never loaded anew.
    void *xlib = dlopen("libX11.so.6", RTLD_NOW | RTLD_NOLOAD);
    if (xlib == NULL) return 0;
    typedef int (*QueryExtension)(Display *, const char *, int *, int *, int *);
    QueryExtension query = (QueryExtension)dlsym(xlib, "XQueryExtension");
    int opcode = 0, event = 0, error = 0;
    const int found = query != NULL && query(info.info.x11.display, "XWAYLAND", &opcode, &event, &error);
    dlclose(xlib);
    return found ? 1 : 0;
#else
    (void)window;
    return 0;
#endif
}

int CFrameLinkSDLShims_connectionDescriptor(void *window) {
    if (window == NULL) return -1;
#if defined(SDL_VIDEO_DRIVER_X11)
    SDL_SysWMinfo info;
    memset(&info, 0, sizeof info);
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo((SDL_Window *)window, &info) || info.subsystem != SDL_SYSWM_X11) return -1;
    if (info.info.x11.display == NULL) return -1;
    return ConnectionNumber(info.info.x11.display);
#else
    return -1;
#endif
}

// MARK: Waking an idle loop for pushed events

static int eventWake = -1;

/// The event watch: SDL calls it on the thread that adds the event.
static int signalEventWake(void *userdata, SDL_Event *event) {
    (void)userdata;
    (void)event;
    uint64_t one = 1;
    if (eventWake >= 0) (void)write(eventWake, &one, sizeof one);
    return 0;
}

int CFrameLinkSDLShims_eventWakeDescriptor(void) {
#if defined(__linux__)
    if (eventWake < 0) {
        eventWake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    }
    // SDL forgets its watches when it quits: installed again on every call (deleting first, so
    // that it is never installed twice).
    if (eventWake >= 0) {
        SDL_DelEventWatch(signalEventWake, NULL);
        SDL_AddEventWatch(signalEventWake, NULL);
    }
    return eventWake;
#else
    return -1;
#endif
}
