#define _GNU_SOURCE
#include "CFrameLinkShims.h"

#include <errno.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
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

int CFrameLinkShims_waitMainQueueOrInput(int mainQueue, int input, int wake, int64_t timeoutNanoseconds) {
#if defined(__linux__)
    struct pollfd entries[3] = {
        {.fd = mainQueue, .events = POLLIN, .revents = 0},
        {.fd = input, .events = POLLIN, .revents = 0},
        {.fd = wake, .events = POLLIN, .revents = 0},
    };
    struct timespec timeout = {0, 0};
    if (timeoutNanoseconds > 0) {
        timeout.tv_sec = (time_t)(timeoutNanoseconds / 1000000000);
        timeout.tv_nsec = (long)(timeoutNanoseconds % 1000000000);
    }
    // ppoll ignores entries with a negative descriptor.
    int ready = ppoll(entries, 3, &timeout, NULL);
    if (ready < 0) return errno == EINTR ? -1 : -2;
    // A descriptor that is not open (closed under the wait) answers at once, for good: an error.
    for (int index = 0; index < 3; index += 1) {
        if (entries[index].fd >= 0 && (entries[index].revents & POLLNVAL)) return -2;
    }
    int mask = 0;
    if (mainQueue >= 0 && (entries[0].revents & POLLIN)) {
        uint64_t count = 0;
        (void)read(mainQueue, &count, sizeof count);
        mask |= 1;
    }
    if (input >= 0 && (entries[1].revents & (POLLIN | POLLHUP | POLLERR))) mask |= 2;
    if (wake >= 0 && (entries[2].revents & POLLIN)) {
        uint64_t count = 0;
        (void)read(wake, &count, sizeof count);
        mask |= 2;
    }
    return mask;
#else
    (void)mainQueue;
    (void)input;
    (void)wake;
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

#if defined(__linux__)
// The policy and priority the thread had before it was raised; per thread, as the policy is.
static __thread int savedPolicy = -1;
static __thread struct sched_param savedParameters;
#endif

int CFrameLinkShims_enterRealTime(int priority, int *granted) {
#if defined(__linux__)
    int current = sched_getscheduler(0);
    if (current < 0) {
        return errno;
    }
    current &= ~SCHED_RESET_ON_FORK;
    if (current == SCHED_FIFO || current == SCHED_RR) {
        struct sched_param parameters;
        *granted = sched_getparam(0, &parameters) == 0 ? parameters.sched_priority : 0;
        return CFrameLinkShims_alreadyRealTime;
    }
    struct sched_param previous;
    if (sched_getparam(0, &previous) != 0) {
        return errno;
    }
    struct sched_param wanted = {.sched_priority = priority};
    if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &wanted) != 0) {
        int refusal = errno;
        // Without CAP_SYS_NICE a thread may still take a priority up to its RLIMIT_RTPRIO.
        struct rlimit limit;
        if (refusal != EPERM || getrlimit(RLIMIT_RTPRIO, &limit) != 0 || limit.rlim_cur == 0 ||
            limit.rlim_cur >= (rlim_t)priority) {
            return refusal;
        }
        wanted.sched_priority = (int)limit.rlim_cur;
        if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &wanted) != 0) {
            return errno;
        }
    }
    savedPolicy = current;
    savedParameters = previous;
    *granted = wanted.sched_priority;
    return 0;
#else
    (void)priority;
    (void)granted;
    return ENOSYS;
#endif
}

int CFrameLinkShims_leaveRealTime(void) {
#if defined(__linux__)
    if (savedPolicy < 0) {
        return EINVAL;
    }
    // The reset-on-fork flag stays: an unprivileged thread may set it but not clear it.
    if (sched_setscheduler(0, savedPolicy | SCHED_RESET_ON_FORK, &savedParameters) != 0) {
        return errno;
    }
    savedPolicy = -1;
    return 0;
#else
    return ENOSYS;
#endif
}

int CFrameLinkShims_currentPolicy(void) {
#if defined(__linux__)
    int policy = sched_getscheduler(0);
    return policy < 0 ? -1 : (policy & ~SCHED_RESET_ON_FORK);
#else
    return -1;
#endif
}

bool CFrameLinkShims_isRealTimePolicy(int policy) {
#if defined(__linux__)
    return policy == SCHED_FIFO || policy == SCHED_RR;
#else
    (void)policy;
    return false;
#endif
}

#if defined(__linux__) && defined(SYS_sched_setattr) && defined(SYS_sched_getattr)
// The kernel's `struct sched_attr` as of its first version (48 bytes, SCHED_ATTR_SIZE_VER0): glibc
// before 2.41 declares neither the struct nor a wrapper.
struct CFrameLinkShims_schedAttributes {
    uint32_t size;
    uint32_t policy;
    uint64_t flags;
    int32_t nice;
    uint32_t priority;
    uint64_t runtime;
    uint64_t deadline;
    uint64_t period;
};
// sched_attr.sched_flags: the policy does not pass to child processes (SCHED_FLAG_RESET_ON_FORK).
static const uint64_t CFrameLinkShims_resetOnForkFlag = 0x01;
#endif

int CFrameLinkShims_setFairSlice(uint64_t nanoseconds) {
#if defined(__linux__) && defined(SYS_sched_setattr) && defined(SYS_sched_getattr)
    struct CFrameLinkShims_schedAttributes attributes = {0};
    if (syscall(SYS_sched_getattr, 0, &attributes, (unsigned int)sizeof attributes, 0) != 0) {
        return errno;
    }
    if (attributes.policy != SCHED_OTHER && attributes.policy != SCHED_BATCH) {
        return EINVAL;
    }
    // Everything else as it is (the nice level, the reset-on-fork flag, which an unprivileged
    // thread may not clear); only the slice changes.
    attributes.size = (uint32_t)sizeof attributes;
    attributes.flags &= CFrameLinkShims_resetOnForkFlag;
    attributes.runtime = nanoseconds;
    if (syscall(SYS_sched_setattr, 0, &attributes, 0) != 0) {
        return errno;
    }
    struct CFrameLinkShims_schedAttributes now = {0};
    if (syscall(SYS_sched_getattr, 0, &now, (unsigned int)sizeof now, 0) != 0) {
        return errno;
    }
    return now.runtime != 0 ? 0 : EOPNOTSUPP;
#else
    (void)nanoseconds;
    return ENOSYS;
#endif
}

int CFrameLinkShims_setTimerSlack(uint64_t nanoseconds) {
#if defined(__linux__)
    return prctl(PR_SET_TIMERSLACK, (unsigned long)nanoseconds, 0, 0, 0) == 0 ? 0 : errno;
#else
    (void)nanoseconds;
    return ENOSYS;
#endif
}
