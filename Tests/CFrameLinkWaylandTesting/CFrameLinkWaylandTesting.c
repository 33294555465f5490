#include "CFrameLinkWaylandTesting.h"

#include <string.h>
#include <wayland-client.h>

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)version;
    struct wl_compositor **compositor = data;
    if (*compositor == NULL && strcmp(interface, wl_compositor_interface.name) == 0) {
        *compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 1);
    }
}

static void globalRemove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data;
    (void)registry;
    (void)name;
}

static const struct wl_registry_listener listener = { .global = global, .global_remove = globalRemove };

void *CFrameLinkWaylandTesting_createSurface(void *display) {
    if (display == NULL) return NULL;
    struct wl_compositor *compositor = NULL;
    struct wl_registry *registry = wl_display_get_registry(display);
    if (registry == NULL) return NULL;
    wl_registry_add_listener(registry, &listener, &compositor);
    if (wl_display_roundtrip(display) < 0 || compositor == NULL) {
        wl_registry_destroy(registry);
        return NULL;
    }
    struct wl_surface *surface = wl_compositor_create_surface(compositor);
    wl_compositor_destroy(compositor);
    wl_registry_destroy(registry);
    wl_display_flush(display);
    return surface;
}

void CFrameLinkWaylandTesting_destroySurface(void *surface) {
    if (surface != NULL) wl_surface_destroy(surface);
}
