// CFrameLinkGLX: whether an SDL window on X11 with an OpenGL context could have presentation
// feedback through GLX_OML_sync_control, declared in C so that Swift reaches it through an
// ordinary import. The GLX function is looked up through SDL_GL_GetProcAddress in C (SDL has loaded
// the OpenGL library for the window); nothing is linked against libGL, and Xlib's types from
// SDL_syswm.h stay out of the Swift modules.
#ifndef CFRAMELINKGLX_H
#define CFRAMELINKGLX_H

#ifdef __cplusplus
extern "C" {
#endif

/// What an X11 window's GLX offers (`CFrameLinkGLX_syncControlStatus`).
typedef enum CFrameLinkGLX_Status {
    /// The X server's GLX lists GLX_OML_sync_control for the window's screen.
    CFrameLinkGLX_offersSyncControl = 0,
    /// The window is not an X11 window (or the window pointer was NULL).
    CFrameLinkGLX_notX11 = 1,
    /// The window has no OpenGL (a software renderer), so GLX cannot be asked.
    CFrameLinkGLX_noOpenGL = 2,
    /// The X server's GLX does not list GLX_OML_sync_control (Xvfb's does not).
    CFrameLinkGLX_noSyncControl = 3,
} CFrameLinkGLX_Status;

/// Asks the X server's GLX, through the OpenGL library SDL loaded for `window` (an `SDL_Window *`),
/// whether it offers GLX_OML_sync_control.
CFrameLinkGLX_Status CFrameLinkGLX_syncControlStatus(void *window);

#ifdef __cplusplus
}
#endif

#endif
