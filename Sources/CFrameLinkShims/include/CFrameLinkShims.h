// CFrameLinkShims: the platform hooks FrameLink's waits need (the main queue, scheduling), declared in C so that Swift
// reaches them through an ordinary import (no dlsym, no casts of function pointers in Swift).
//
// libdispatch's main-queue hooks are the private entry points CoreFoundation's run loop uses to
// wait on and drain the main queue. They are declared as weak symbols: where a toolchain does not
// export them, the functions below report that (a negative handle, a false return) and FrameLink
// serves the main queue through the run loop instead.
//
// The scheduling calls (real-time priority for a frame's wait, timer slack) answer with the error
// of a refusal; FrameLink then waits at normal priority and says so in its pacing description.
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

/// Waits until the main queue's descriptor `mainQueue`, the input descriptor `input` or the
/// wake-up eventfd `wake` is readable, or `timeoutNanoseconds` have passed (a negative descriptor
/// is not watched; a negative timeout checks without waiting). Resets the main queue's and the
/// wake-up's counters when they were readable (the caller then drains the queue or looks for
/// input); reads nothing from `input` (a display connection whose owner reads it). Returns a mask
/// — 1 the main queue, 2 input or the wake-up — or 0 on timeout, -1 when a signal interrupted the
/// wait, -2 on any other error (a descriptor that is not open included).
int CFrameLinkShims_waitMainQueueOrInput(int mainQueue, int input, int wake, int64_t timeoutNanoseconds);

/// Signals `descriptor` (adds 1 to the eventfd's counter), so that whoever waits on it next sees
/// work pending: used when the check of the hooks consumed a signal it could not act on.
void CFrameLinkShims_signal(int descriptor);

/// Raises the calling thread to `SCHED_FIFO` at `priority` (with `SCHED_RESET_ON_FORK`, so that a
/// child process never inherits it), for the wait before a frame. A process without the privilege
/// to set that priority but with a real-time limit (`ulimit -r`, `RLIMIT_RTPRIO`) gets the limit.
/// Returns 0 when raised, with the priority granted in `*granted`;
/// `CFrameLinkShims_alreadyRealTime` when the thread already runs under a real-time policy (left
/// alone: a thread started under `chrt`, or raised by rtkit, keeps its own), with its priority in
/// `*granted`; otherwise the `errno` of the refusal (`EPERM` without the privilege), or `ENOSYS`
/// where there is no such call.
int CFrameLinkShims_enterRealTime(int priority, int *granted);

/// What `CFrameLinkShims_enterRealTime` returns for a thread that already runs real-time: negative,
/// so that it is never an `errno` (a return of 1 would read as `EPERM`, the refusal itself).
static const int CFrameLinkShims_alreadyRealTime = -1;

/// Returns the calling thread to the policy it had before `CFrameLinkShims_enterRealTime` raised
/// it (call it only after that returned 0). Returns 0, or the `errno` of a failure.
int CFrameLinkShims_leaveRealTime(void);

/// The calling thread's scheduling policy (`SCHED_OTHER`, `SCHED_FIFO`, …, without the
/// reset-on-fork flag), or -1 where it cannot be read.
int CFrameLinkShims_currentPolicy(void);

/// Whether `policy` (as returned by `CFrameLinkShims_currentPolicy`) is a real-time policy.
bool CFrameLinkShims_isRealTimePolicy(int policy);

/// Sets the calling thread's time slice under the kernel's fair scheduler (EEVDF,
/// `sched_attr.sched_runtime` of `SCHED_OTHER`, Linux 6.12 and later; the kernel clamps it to
/// 0.1–100 ms) to `nanoseconds` (0: the kernel's default), keeping its policy and nice level, for
/// good (FrameLink's waits do not call it; `make pace` measures it). No privilege is needed: a
/// shorter slice gives the thread an earlier virtual deadline, so that it runs sooner when it
/// wakes, and shorter turns while it runs. Returns 0; `EINVAL` for a thread under a real-time
/// policy (which has no such slice); `EOPNOTSUPP` where the kernel took the call but kept no slice
/// (before 6.12); otherwise the `errno` of the call (`ENOSYS` where there is none).
int CFrameLinkShims_setFairSlice(uint64_t nanoseconds);

/// Sets the calling thread's timer slack (how late the kernel may end its sleeps, to batch
/// wake-ups; 50 µs by default) to `nanoseconds`. Returns 0, or the `errno` of a refusal
/// (`ENOSYS` where there is no such control).
int CFrameLinkShims_setTimerSlack(uint64_t nanoseconds);

#ifdef __cplusplus
}
#endif

#endif
