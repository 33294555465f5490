// CFrameLinkShims: the platform hooks FrameLink's main-queue wait needs, declared in C so that Swift
// reaches them through an ordinary import (no dlsym, no casts of function pointers in Swift).
//
// libdispatch's main-queue hooks are the private entry points CoreFoundation's run loop uses to
// wait on and drain the main queue. They are declared as weak symbols: where a toolchain does not
// export them, the functions below report that (a negative handle, a false return) and FrameLink
// serves the main queue through the run loop instead.
#ifndef CFRAMELINKSHIMS_H
#define CFRAMELINKSHIMS_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The descriptor libdispatch signals when the main queue has work (an eventfd on Linux), or -1
/// where the hook is missing.
int CFrameLinkShims_mainQueueHandle(void);

/// Runs everything the main queue holds, on the calling (main) thread. Returns false, doing
/// nothing, where the hook is missing.
bool CFrameLinkShims_drainMainQueue(void);

/// Waits until `descriptor` is readable or `timeoutNanoseconds` have passed (a negative timeout
/// checks without waiting). Resets the descriptor's counter when it was readable. Returns 1 when
/// readable, 0 on timeout, -1 when a signal interrupted the wait (the caller re-computes its
/// timeout and waits again), -2 on any other error.
int CFrameLinkShims_waitReadable(int descriptor, int64_t timeoutNanoseconds);

/// Signals `descriptor` (adds 1 to the eventfd's counter), so that whoever waits on it next sees
/// work pending: used when the check of the hooks consumed a signal it could not act on.
void CFrameLinkShims_signal(int descriptor);

#ifdef __cplusplus
}
#endif

#endif
