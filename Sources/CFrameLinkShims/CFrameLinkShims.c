#define _GNU_SOURCE
#include "CFrameLinkShims.h"

#include <errno.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

#if defined(__linux__)
// libdispatch's hooks for CoreFoundation (dispatch/private/queue_private.h); weak, so a library
// without them leaves these null instead of failing to load.
extern int _dispatch_get_main_queue_handle_4CF(void) __attribute__((weak));
extern void _dispatch_main_queue_callback_4CF(void *message) __attribute__((weak));
#endif

int CFrameLinkShims_mainQueueHandle(void) {
#if defined(__linux__)
    if (_dispatch_get_main_queue_handle_4CF == NULL || _dispatch_main_queue_callback_4CF == NULL) {
        return -1;
    }
    return _dispatch_get_main_queue_handle_4CF();
#else
    return -1;
#endif
}

bool CFrameLinkShims_drainMainQueue(void) {
#if defined(__linux__)
    if (_dispatch_main_queue_callback_4CF == NULL) {
        return false;
    }
    _dispatch_main_queue_callback_4CF(NULL);
    return true;
#else
    return false;
#endif
}

int CFrameLinkShims_waitReadable(int descriptor, int64_t timeoutNanoseconds) {
#if defined(__linux__)
    struct pollfd entry = {.fd = descriptor, .events = POLLIN, .revents = 0};
    struct timespec timeout = {0, 0};
    if (timeoutNanoseconds > 0) {
        timeout.tv_sec = (time_t)(timeoutNanoseconds / 1000000000);
        timeout.tv_nsec = (long)(timeoutNanoseconds % 1000000000);
    }
    int ready = ppoll(&entry, 1, &timeout, NULL);
    if (ready > 0) {
        uint64_t count = 0;
        // The eventfd is non-blocking: reset it, then the caller drains the queue.
        (void)read(descriptor, &count, sizeof count);
        return 1;
    }
    if (ready == 0) {
        return 0;
    }
    return errno == EINTR ? -1 : -2;
#else
    (void)descriptor;
    (void)timeoutNanoseconds;
    return -2;
#endif
}

void CFrameLinkShims_signal(int descriptor) {
#if defined(__linux__)
    uint64_t one = 1;
    (void)write(descriptor, &one, sizeof one);
#else
    (void)descriptor;
#endif
}
