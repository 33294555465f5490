// CFrameLinkWayland: presentation feedback from a Wayland compositor (the presentation-time protocol,
// `wp_presentation`) for the surface of an SDL window, declared in C so that Swift reaches it through
// an ordinary import.
//
// The binding lives on an event queue of its own on the game's `wl_display`, so SDL's event handling
// never sees its events and it never dispatches SDL's. Nothing here blocks longer than the timeout a
// caller passes: a compositor that does not answer is reported, not waited for.
//
// Every function answers for a window that is not on Wayland (X11, the dummy driver): no surface,
// no binding, and FrameLink keeps its own estimate of when frames reach the screen.
#ifndef CFRAMELINKWAYLAND_H
#define CFRAMELINKWAYLAND_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Why a binding could not be made (`CFrameLinkWayland_bind`).
typedef enum CFrameLinkWayland_BindStatus {
    /// Bound: the compositor offers `wp_presentation` and said which clock its times are on.
    CFrameLinkWayland_bound = 0,
    /// The display was NULL.
    CFrameLinkWayland_noDisplay = 1,
    /// The compositor answered but offers no `wp_presentation`.
    CFrameLinkWayland_noPresentationGlobal = 2,
    /// The compositor did not answer within the timeout.
    CFrameLinkWayland_noAnswer = 3,
    /// The connection failed (the display has a protocol or socket error).
    CFrameLinkWayland_connectionError = 4,
    /// The compositor offers `wp_presentation` but named no clock within the timeout.
    CFrameLinkWayland_noClock = 5,
    /// Memory for the binding could not be had.
    CFrameLinkWayland_outOfMemory = 6,
} CFrameLinkWayland_BindStatus;

/// What the compositor said of one frame.
typedef enum CFrameLinkWayland_Outcome {
    /// The frame's content reached the screen (`presented`).
    CFrameLinkWayland_presented = 1,
    /// The frame was never shown: a later commit replaced it, or the surface was not visible
    /// (`discarded`).
    CFrameLinkWayland_discarded = 2,
    /// No answer came before the binding let the frame go (`CFrameLinkWayland_abandonPending`).
    CFrameLinkWayland_unanswered = 3,
} CFrameLinkWayland_Outcome;

/// One frame's feedback, as the compositor sent it: the fields of `presented`, unconverted.
typedef struct CFrameLinkWayland_Report {
    /// The frame number the caller gave `CFrameLinkWayland_requestFeedback`.
    int64_t frame;
    /// Presented or discarded.
    CFrameLinkWayland_Outcome outcome;
    /// When the frame turned into light, in the compositor's clock (`clock_id`): whole seconds.
    uint64_t seconds;
    /// The nanoseconds within that second, as sent (a compositor could send 1e9 or more: check).
    uint32_t nanoseconds;
    /// The output's refresh period in nanoseconds, or 0 when the compositor does not know it.
    uint32_t refreshNanoseconds;
    /// The output's refresh counter (MSC) at presentation, or 0 when it has none.
    uint64_t sequence;
    /// The `wp_presentation_feedback.kind` flags: 1 vsync, 2 hardware clock, 4 hardware
    /// completion, 8 zero copy.
    uint32_t flags;
} CFrameLinkWayland_Report;

/// A binding of `wp_presentation` for one surface.
typedef struct CFrameLinkWayland_Presentation CFrameLinkWayland_Presentation;

/// The `wl_display` and `wl_surface` of an SDL window (an `SDL_Window *`) when SDL drives it
/// through its Wayland driver: returns 1 and sets both, or 0 (another driver, an SDL without
/// Wayland, a NULL window).
int CFrameLinkWayland_surfaceOfSDLWindow(void *window, void **display, void **surface);

/// The descriptor of `display` (a `struct wl_display *`), readable when the compositor sends
/// events: `wl_display_get_fd`. -1 for NULL.
int CFrameLinkWayland_displayDescriptor(void *display);

/// Binds `wp_presentation` on `display` (a `struct wl_display *`) for `surface` (a
/// `struct wl_surface *` on that display), on an event queue of its own, waiting at most
/// `timeoutMilliseconds` for each of the compositor's two answers (its globals, then its clock).
/// Returns the binding, or NULL with `*status` saying why. With a NULL `surface` it only checks
/// what the compositor offers: the binding then asks for no feedback.
CFrameLinkWayland_Presentation *CFrameLinkWayland_bind(
    void *display, void *surface, int timeoutMilliseconds, CFrameLinkWayland_BindStatus *status);

/// The compositor's presentation clock (`clock_id`: a `clockid_t`, 1 for `CLOCK_MONOTONIC`).
uint32_t CFrameLinkWayland_clockID(const CFrameLinkWayland_Presentation *presentation);

/// Asks for feedback on the surface's next commit (call it just before the present that commits),
/// labelled `frame`. Returns 1, or 0 when `CFrameLinkWayland_maximumPending` frames already wait for
/// their feedback (a compositor that stopped answering) or the binding has no surface: nothing is
/// asked then.
int CFrameLinkWayland_requestFeedback(CFrameLinkWayland_Presentation *presentation, int64_t frame);

/// How many frames' feedback may be outstanding at once.
#define CFrameLinkWayland_maximumPending 64

/// How many reports are kept until taken (`CFrameLinkWayland_nextReport`); the oldest are dropped
/// beyond it.
#define CFrameLinkWayland_reportCapacity 128

/// Reads what the compositor sent, without waiting: sends pending requests, reads the socket if it
/// has data, and dispatches the binding's queue. Returns 0, or -1 when the connection has failed.
int CFrameLinkWayland_dispatch(CFrameLinkWayland_Presentation *presentation);

/// Takes the oldest report not yet taken into `*report`: returns 1, or 0 when there is none.
int CFrameLinkWayland_nextReport(CFrameLinkWayland_Presentation *presentation, CFrameLinkWayland_Report *report);

/// Stops waiting for every frame that has had no answer: each gets a report whose outcome is
/// `CFrameLinkWayland_unanswered`, to be taken with `CFrameLinkWayland_nextReport`.
void CFrameLinkWayland_abandonPending(CFrameLinkWayland_Presentation *presentation);

/// How many frames wait for their feedback.
int CFrameLinkWayland_pendingCount(const CFrameLinkWayland_Presentation *presentation);

/// Connects to the Wayland compositor `name` (a socket name in `XDG_RUNTIME_DIR`, or an absolute
/// path), for tests and tools that have no SDL window: returns the `struct wl_display *`, or NULL.
void *CFrameLinkWayland_connect(const char *name);

/// Closes a connection made by `CFrameLinkWayland_connect`. NULL is allowed.
void CFrameLinkWayland_disconnect(void *display);

/// Destroys the binding and everything it asked for. Call it before the window (and SDL's
/// display connection) goes away. NULL is allowed.
void CFrameLinkWayland_destroy(CFrameLinkWayland_Presentation *presentation);

#ifdef __cplusplus
}
#endif

#endif
