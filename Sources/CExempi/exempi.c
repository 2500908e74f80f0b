/* Opens exempi when first needed: see exempi_shim.h. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include "exempi_shim.h"

static struct caption_exempi functions;
static char failure[256]; /* why it could not be opened; empty once it is */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen(CAPTION_EXEMPI_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        /* dlerror's text lives until the next dl call on this thread: keep a copy. */
        snprintf(failure, sizeof failure, "%s", dlerror());
        return;
    }
#define CAPTION_EXEMPI_LOOKUP(name)                                                                                \
    *(void **)&functions.name = dlsym(library, #name);                                                             \
    if (!functions.name) {                                                                                         \
        snprintf(failure, sizeof failure, "%s", CAPTION_EXEMPI_SONAME " has no " #name);                           \
        return;                                                                                                    \
    }
    CAPTION_EXEMPI_FUNCTIONS(CAPTION_EXEMPI_LOOKUP)
#undef CAPTION_EXEMPI_LOOKUP
}

const char *caption_exempi_open(void) {
    pthread_once(&once, load);
    return failure[0] ? failure : NULL;
}

const struct caption_exempi *caption_exempi_functions(void) { return &functions; }
