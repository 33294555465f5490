// Included ahead of ../shared/probes/vs.c by `make pace` (gcc -include), so that the probe, its
// code unchanged, also writes every interval it measured: FramePace counts them against the same
// thresholds as its own. vs.c allocates its interval array first thing in main() and fills it for
// the whole run; this header notes that first allocation and, at exit, writes its values (one
// interval in milliseconds per line) to the file named by FRAMEPACE_INTERVALS, if set.
#include <stdio.h>
#include <stdlib.h>

static double *framePaceIntervals;
static size_t framePaceCount;

static void framePaceWriteIntervals(void) {
    const char *path = getenv("FRAMEPACE_INTERVALS");
    if (path == NULL || framePaceIntervals == NULL) {
        return;
    }
    FILE *file = fopen(path, "w");
    if (file == NULL) {
        return;
    }
    for (size_t index = 0; index < framePaceCount; index++) {
        fprintf(file, "%.6f\n", framePaceIntervals[index]);
    }
    fclose(file);
}

static void *framePaceAllocate(size_t size) {
    void *memory = malloc(size);
    if (framePaceIntervals == NULL && memory != NULL) {
        framePaceIntervals = memory;
        framePaceCount = size / sizeof(double);
        atexit(framePaceWriteIntervals);
    }
    return memory;
}

#define malloc(size) framePaceAllocate(size)
