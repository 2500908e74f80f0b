/* Opens SQLite when first needed: see sqlite_shim.h. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include "sqlite_shim.h"

static struct caption_sqlite functions;
static char failure[256]; /* why it could not be opened; empty once it is */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    /* Never closed: databases may be open until the program ends. */
    void *library = dlopen(CAPTION_SQLITE_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        /* dlerror's text lives until the next dl call on this thread: keep a copy. */
        snprintf(failure, sizeof failure, "%s", dlerror());
        return;
    }
    struct caption_sqlite found;
#define CAPTION_SQLITE_LOOKUP(name)                                                                                \
    *(void **)&found.name = dlsym(library, #name);                                                                 \
    if (!found.name) {                                                                                             \
        snprintf(failure, sizeof failure, "%s", CAPTION_SQLITE_SONAME " has no " #name);                           \
        return;                                                                                                    \
    }
    CAPTION_SQLITE_FUNCTIONS(CAPTION_SQLITE_LOOKUP)
#undef CAPTION_SQLITE_LOOKUP
    /* Whole or not at all: a caller sees every function once the open said yes. */
    functions = found;
}

const char *caption_sqlite_open(void) {
    pthread_once(&once, load);
    return failure[0] ? failure : NULL;
}

const struct caption_sqlite *caption_sqlite_functions(void) { return &functions; }
