// Test support for CFrameLinkWayland: a client surface on a test compositor, so that the binding's
// feedback path can be driven by a compositor the tests script (FakeCompositor).
#ifndef CFRAMELINKWAYLANDTESTING_H
#define CFRAMELINKWAYLANDTESTING_H

#ifdef __cplusplus
extern "C" {
#endif

/// Binds `wl_compositor` on `display` (a `struct wl_display *`) and creates a `wl_surface`: returns
/// it, or NULL when the compositor offers no `wl_compositor` or the connection fails.
void *CFrameLinkWaylandTesting_createSurface(void *display);

/// Destroys a surface made by `CFrameLinkWaylandTesting_createSurface`. NULL is allowed.
void CFrameLinkWaylandTesting_destroySurface(void *surface);

#ifdef __cplusplus
}
#endif

#endif
