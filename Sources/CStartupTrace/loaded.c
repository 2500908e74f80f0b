/* The first start-up mark, "loaded": the program and its libraries mapped and their
 * constructors run, before the program's own (the Swift runtime's) and before main. */

#include "CStartupTrace.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* 101: the first priority open to programs, so this runs before the program's other
 * constructors; the libraries' own have all run by then. */
__attribute__((constructor(101))) static void caption_mark_loaded(void)
{
    if (!getenv("CAPTION_STARTUP_TRACE"))
        return;
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    char line[64];
    int length = snprintf(line, sizeof line, "caption-startup loaded %lld\n",
                          (long long)time.tv_sec * 1000000000LL + time.tv_nsec);
    if (length > 0 && write(2, line, (size_t)length) < 0)
        return;
}

int caption_startup_trace_linked(void) { return 1; }
