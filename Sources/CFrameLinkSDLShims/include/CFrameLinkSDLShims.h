// CFrameLinkSDLShims: what FrameLinkSDL needs of SDL in C, so that Swift reaches it through an
// ordinary import: an SDL window's X11 side (whether its GLX gives presentation feedback,
// GLX_OML_sync_control, and its readings; the X connection's descriptor that an idle loop sleeps
// on), and a descriptor that wakes an idle loop when another thread pushes an event into SDL's
// queue. The GLX functions are looked up through SDL_GL_GetProcAddress in C (SDL has loaded the
// OpenGL library for the window); nothing is linked against libGL, and Xlib's types from
// SDL_syswm.h stay out of the Swift modules.
#ifndef CFRAMELINKSDLSHIMS_H
#define CFRAMELINKSDLSHIMS_H

#ifdef __cplusplus
extern "C" {
#endif

/// What an X11 window's GLX offers (`CFrameLinkSDLShims_syncControlStatus`).
typedef enum CFrameLinkSDLShims_Status {
    /// The X server's GLX lists GLX_OML_sync_control for the window's screen.
    CFrameLinkSDLShims_offersSyncControl = 0,
    /// The window is not an X11 window (or the window pointer was NULL).
    CFrameLinkSDLShims_notX11 = 1,
    /// The window has no OpenGL (a software renderer), so GLX cannot be asked.
    CFrameLinkSDLShims_noOpenGL = 2,
    /// The X server's GLX does not list GLX_OML_sync_control (Xvfb's does not).
    CFrameLinkSDLShims_noSyncControl = 3,
} CFrameLinkSDLShims_Status;

/// Asks the X server's GLX, through the OpenGL library SDL loaded for `window` (an `SDL_Window *`),
/// whether it offers GLX_OML_sync_control.
CFrameLinkSDLShims_Status CFrameLinkSDLShims_syncControlStatus(void *window);

/// One reading of GLX_OML_sync_control: UST (a system time, in the driver's unit), MSC (the
/// display's refresh count), SBC (the swaps of the window completed).
typedef struct CFrameLinkSDLShims_SyncValues {
    long long ust;
    long long msc;
    long long sbc;
} CFrameLinkSDLShims_SyncValues;

/// glXGetSyncValuesOML for `window` (an `SDL_Window *` on X11 whose OpenGL context is current):
/// the latest refresh's UST and MSC, and the SBC so far. One round trip to the X server. Returns 1
/// with `values` filled, 0 when GLX cannot answer (the window is not on X11, GLX lacks the
/// function, the driver does not implement it: Mesa's software GLX returns false).
int CFrameLinkSDLShims_readSyncValues(void *window, CFrameLinkSDLShims_SyncValues *values);

/// glXWaitForSbcOML for `window`: waits until the SBC reaches `targetSBC` (0: every swap made),
/// then gives the UST and MSC at which the newest completed swap was shown, and the SBC. Returns at
/// once for an SBC already reached. Returns 1 with `values` filled, 0 when GLX cannot answer or
/// `targetSBC` is negative.
int CFrameLinkSDLShims_waitForSwap(void *window, long long targetSBC, CFrameLinkSDLShims_SyncValues *values);

/// Whether the X server of `window` (an `SDL_Window *` on X11) is Xwayland: it lists the
/// XWAYLAND extension (Xwayland 21.1 and later). 0 for another X server or driver.
int CFrameLinkSDLShims_isXwayland(void *window);

/// The descriptor of the X server connection of `window` (an `SDL_Window *` on SDL's X11 driver),
/// readable when events arrive: `ConnectionNumber` of SDL's `Display`. -1 for another driver.
int CFrameLinkSDLShims_connectionDescriptor(void *window);

/// Installs an SDL event watch that makes a descriptor (an eventfd) readable whenever an event
/// enters SDL's queue, from any thread (`SDL_PushEvent` included), and returns the descriptor, or
/// -1 where it cannot be made. The descriptor is made once per process; the watch is installed
/// again on every call (SDL forgets its watches when it quits), so call it after SDL starts video.
int CFrameLinkSDLShims_eventWakeDescriptor(void);

#ifdef __cplusplus
}
#endif

#endif
