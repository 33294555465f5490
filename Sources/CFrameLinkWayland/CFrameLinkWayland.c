// Presentation feedback from a Wayland compositor for an SDL window's surface: see
// include/CFrameLinkWayland.h. The protocol's glue (_presentation-time-*) is wayland-scanner's
// output for the system's presentation-time.xml, kept in the repository (`make wayland-glue`
// regenerates it, and `make test` checks that it matches).
#include "CFrameLinkWayland.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <wayland-client.h>

#include "_presentation-time-client-protocol.h"

#define SDL_MAIN_HANDLED 1
#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>

/// One frame waiting for its feedback.
typedef struct Pending {
    CFrameLinkWayland_Presentation *owner;
    struct wp_presentation_feedback *feedback;
    int64_t frame;
    int inUse;
} Pending;

struct CFrameLinkWayland_Presentation {
    struct wl_display *display;
    struct wl_surface *surface;
    struct wl_event_queue *queue;
    /// The display, as a proxy whose requests put their new objects on `queue`.
    struct wl_display *displayOnQueue;
    struct wp_presentation *presentation;
    uint32_t clockID;
    int hasClock;
    Pending pending[CFrameLinkWayland_maximumPending];
    int pendingCount;
    CFrameLinkWayland_Report reports[CFrameLinkWayland_reportCapacity];
    int firstReport;
    int reportCount;
};

// MARK: SDL's window

int CFrameLinkWayland_surfaceOfSDLWindow(void *window, void **display, void **surface) {
    if (window == NULL || display == NULL || surface == NULL) return 0;
#if defined(SDL_VIDEO_DRIVER_WAYLAND)
    SDL_SysWMinfo info;
    memset(&info, 0, sizeof info);
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo((SDL_Window *)window, &info)) return 0;
    if (info.subsystem != SDL_SYSWM_WAYLAND) return 0;
    if (info.info.wl.display == NULL || info.info.wl.surface == NULL) return 0;
    *display = info.info.wl.display;
    *surface = info.info.wl.surface;
    return 1;
#else
    return 0;
#endif
}

// MARK: Waiting on the binding's own queue

static int64_t monotonicMilliseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/// Reads and dispatches the binding's queue until `*done` or `timeoutMilliseconds` have passed
/// (0: one look, no wait). Returns 0, -1 on a connection error, or 1 on a timeout.
static int dispatchUntil(CFrameLinkWayland_Presentation *p, const int *done, int timeoutMilliseconds) {
    const int64_t deadline = monotonicMilliseconds() + timeoutMilliseconds;
    for (;;) {
        if (wl_display_get_error(p->display) != 0) return -1;
        // Events already queued for us are handled first: prepare_read refuses while there are any.
        if (wl_display_prepare_read_queue(p->display, p->queue) != 0) {
            if (wl_display_dispatch_queue_pending(p->display, p->queue) < 0) return -1;
            if (done != NULL && *done) return 0;
            continue;
        }
        if (wl_display_flush(p->display) < 0 && errno != EAGAIN) {
            wl_display_cancel_read(p->display);
            return -1;
        }
        int64_t remaining = deadline - monotonicMilliseconds();
        if (remaining < 0) remaining = 0;
        struct pollfd descriptor = { .fd = wl_display_get_fd(p->display), .events = POLLIN, .revents = 0 };
        const int ready = poll(&descriptor, 1, (int)remaining);
        if (ready > 0) {
            if (wl_display_read_events(p->display) < 0) return -1;
        } else {
            wl_display_cancel_read(p->display);
            if (ready < 0 && errno != EINTR) return -1;
        }
        if (wl_display_dispatch_queue_pending(p->display, p->queue) < 0) return -1;
        if (done != NULL && *done) return 0;
        if (done == NULL || monotonicMilliseconds() >= deadline) return done == NULL ? 0 : 1;
    }
}

// MARK: Listeners

static void syncDone(void *data, struct wl_callback *callback, uint32_t serial) {
    (void)serial;
    *(int *)data = 1;
    wl_callback_destroy(callback);
}

static const struct wl_callback_listener syncListener = { .done = syncDone };

/// Sends a `wl_display.sync` on the binding's queue and waits for its answer.
static int roundTrip(CFrameLinkWayland_Presentation *p, int timeoutMilliseconds) {
    // On a timeout the callback is destroyed here, and libwayland drops its late answer without
    // calling the listener (which would write to `answered`, gone by then).
    int answered = 0;
    struct wl_callback *callback = wl_display_sync(p->displayOnQueue);
    if (callback == NULL) return -1;
    wl_callback_add_listener(callback, &syncListener, &answered);
    const int result = dispatchUntil(p, &answered, timeoutMilliseconds);
    if (!answered) wl_callback_destroy(callback);
    return result;
}

static void clockID(void *data, struct wp_presentation *presentation, uint32_t clock) {
    (void)presentation;
    CFrameLinkWayland_Presentation *p = data;
    p->clockID = clock;
    p->hasClock = 1;
}

static const struct wp_presentation_listener presentationListener = { .clock_id = clockID };

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    CFrameLinkWayland_Presentation *p = data;
    if (p->presentation != NULL || strcmp(interface, wp_presentation_interface.name) != 0) return;
    (void)version;  // Version 1 has everything used here.
    p->presentation = wl_registry_bind(registry, name, &wp_presentation_interface, 1);
    if (p->presentation != NULL) wp_presentation_add_listener(p->presentation, &presentationListener, p);
}

static void globalRemove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data;
    (void)registry;
    (void)name;
}

static const struct wl_registry_listener registryListener = { .global = global, .global_remove = globalRemove };

static void addReport(CFrameLinkWayland_Presentation *p, const CFrameLinkWayland_Report *report) {
    if (p->reportCount == CFrameLinkWayland_reportCapacity) {
        p->firstReport = (p->firstReport + 1) % CFrameLinkWayland_reportCapacity;
        p->reportCount -= 1;
    }
    const int slot = (p->firstReport + p->reportCount) % CFrameLinkWayland_reportCapacity;
    p->reports[slot] = *report;
    p->reportCount += 1;
}

static void finish(Pending *pending) {
    wp_presentation_feedback_destroy(pending->feedback);
    pending->feedback = NULL;
    pending->inUse = 0;
    pending->owner->pendingCount -= 1;
}

static void syncOutput(void *data, struct wp_presentation_feedback *feedback, struct wl_output *output) {
    (void)data;
    (void)feedback;
    (void)output;
}

static void presented(
    void *data, struct wp_presentation_feedback *feedback, uint32_t secondsHigh, uint32_t secondsLow,
    uint32_t nanoseconds, uint32_t refresh, uint32_t sequenceHigh, uint32_t sequenceLow, uint32_t flags) {
    (void)feedback;
    Pending *pending = data;
    CFrameLinkWayland_Report report = {
        .frame = pending->frame,
        .outcome = CFrameLinkWayland_presented,
        .seconds = ((uint64_t)secondsHigh << 32) | secondsLow,
        .nanoseconds = nanoseconds,
        .refreshNanoseconds = refresh,
        .sequence = ((uint64_t)sequenceHigh << 32) | sequenceLow,
        .flags = flags,
    };
    addReport(pending->owner, &report);
    finish(pending);
}

static void discarded(void *data, struct wp_presentation_feedback *feedback) {
    (void)feedback;
    Pending *pending = data;
    CFrameLinkWayland_Report report = { .frame = pending->frame, .outcome = CFrameLinkWayland_discarded };
    addReport(pending->owner, &report);
    finish(pending);
}

static const struct wp_presentation_feedback_listener feedbackListener = {
    .sync_output = syncOutput,
    .presented = presented,
    .discarded = discarded,
};

// MARK: The binding

CFrameLinkWayland_Presentation *CFrameLinkWayland_bind(
    void *display, void *surface, int timeoutMilliseconds, CFrameLinkWayland_BindStatus *status) {
    CFrameLinkWayland_BindStatus ignored;
    if (status == NULL) status = &ignored;
    if (display == NULL) {
        *status = CFrameLinkWayland_noDisplay;
        return NULL;
    }
    if (timeoutMilliseconds < 0) timeoutMilliseconds = 0;
    CFrameLinkWayland_Presentation *p = calloc(1, sizeof *p);
    if (p == NULL) {
        *status = CFrameLinkWayland_outOfMemory;
        return NULL;
    }
    p->display = display;
    p->surface = surface;
    if (wl_display_get_error(p->display) != 0) {
        free(p);
        *status = CFrameLinkWayland_connectionError;
        return NULL;
    }
    p->queue = wl_display_create_queue(p->display);
    p->displayOnQueue = p->queue == NULL ? NULL : wl_proxy_create_wrapper(p->display);
    if (p->displayOnQueue == NULL) {
        if (p->queue != NULL) wl_event_queue_destroy(p->queue);
        free(p);
        *status = CFrameLinkWayland_outOfMemory;
        return NULL;
    }
    wl_proxy_set_queue((struct wl_proxy *)p->displayOnQueue, p->queue);

    struct wl_registry *registry = wl_display_get_registry(p->displayOnQueue);
    int result = -1;
    if (registry != NULL) {
        wl_registry_add_listener(registry, &registryListener, p);
        // The first answer lists the globals (and binds wp_presentation); the second brings the
        // clock_id that the compositor sends on binding.
        result = roundTrip(p, timeoutMilliseconds);
        if (result == 0 && p->presentation != NULL) result = roundTrip(p, timeoutMilliseconds);
        wl_registry_destroy(registry);
    }
    if (result == 0 && p->presentation == NULL) {
        *status = CFrameLinkWayland_noPresentationGlobal;
    } else if (result == 0 && !p->hasClock) {
        *status = CFrameLinkWayland_noClock;
    } else if (result == 0) {
        *status = CFrameLinkWayland_bound;
        return p;
    } else {
        *status = result > 0 ? CFrameLinkWayland_noAnswer : CFrameLinkWayland_connectionError;
    }
    CFrameLinkWayland_destroy(p);
    return NULL;
}

uint32_t CFrameLinkWayland_clockID(const CFrameLinkWayland_Presentation *presentation) {
    return presentation == NULL ? 0 : presentation->clockID;
}

int CFrameLinkWayland_requestFeedback(CFrameLinkWayland_Presentation *p, int64_t frame) {
    if (p == NULL || p->surface == NULL || p->pendingCount >= CFrameLinkWayland_maximumPending) return 0;
    for (int index = 0; index < CFrameLinkWayland_maximumPending; index += 1) {
        Pending *pending = &p->pending[index];
        if (pending->inUse) continue;
        struct wp_presentation_feedback *feedback = wp_presentation_feedback(p->presentation, p->surface);
        if (feedback == NULL) return 0;
        pending->owner = p;
        pending->feedback = feedback;
        pending->frame = frame;
        pending->inUse = 1;
        p->pendingCount += 1;
        wp_presentation_feedback_add_listener(feedback, &feedbackListener, pending);
        return 1;
    }
    return 0;
}

int CFrameLinkWayland_dispatch(CFrameLinkWayland_Presentation *p) {
    if (p == NULL) return -1;
    return dispatchUntil(p, NULL, 0) < 0 ? -1 : 0;
}

int CFrameLinkWayland_nextReport(CFrameLinkWayland_Presentation *p, CFrameLinkWayland_Report *report) {
    if (p == NULL || report == NULL || p->reportCount == 0) return 0;
    *report = p->reports[p->firstReport];
    p->firstReport = (p->firstReport + 1) % CFrameLinkWayland_reportCapacity;
    p->reportCount -= 1;
    return 1;
}

void CFrameLinkWayland_abandonPending(CFrameLinkWayland_Presentation *p) {
    if (p == NULL) return;
    // Oldest first: frame numbers grow with each request.
    for (;;) {
        Pending *oldest = NULL;
        for (int index = 0; index < CFrameLinkWayland_maximumPending; index += 1) {
            Pending *pending = &p->pending[index];
            if (pending->inUse && (oldest == NULL || pending->frame < oldest->frame)) oldest = pending;
        }
        if (oldest == NULL) return;
        CFrameLinkWayland_Report report = { .frame = oldest->frame, .outcome = CFrameLinkWayland_unanswered };
        addReport(p, &report);
        finish(oldest);
    }
}

int CFrameLinkWayland_pendingCount(const CFrameLinkWayland_Presentation *p) {
    return p == NULL ? 0 : p->pendingCount;
}

int CFrameLinkWayland_displayDescriptor(void *display) {
    return display == NULL ? -1 : wl_display_get_fd(display);
}

void *CFrameLinkWayland_connect(const char *name) {
    return name == NULL ? NULL : wl_display_connect(name);
}

void CFrameLinkWayland_disconnect(void *display) {
    if (display != NULL) wl_display_disconnect(display);
}

void CFrameLinkWayland_destroy(CFrameLinkWayland_Presentation *p) {
    if (p == NULL) return;
    for (int index = 0; index < CFrameLinkWayland_maximumPending; index += 1) {
        if (p->pending[index].inUse) finish(&p->pending[index]);
    }
    if (p->presentation != NULL) wp_presentation_destroy(p->presentation);
    wl_proxy_wrapper_destroy(p->displayOnQueue);
    wl_event_queue_destroy(p->queue);
    if (wl_display_get_error(p->display) == 0) wl_display_flush(p->display);
    free(p);
}
