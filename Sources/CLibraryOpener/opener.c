/* Opens a library when first needed: see library_opener.h. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "library_opener.h"

static void load(struct caption_library_opener *opener) {
    void *library = dlopen(opener->soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        /* dlerror's text lives until the next dl call on this thread: keep a copy. */
        snprintf(opener->failure, sizeof opener->failure, "%s", dlerror());
        return;
    }
    void *found[opener->count];
    for (size_t index = 0; index < opener->count; index++) {
        found[index] = dlsym(library, opener->names[index]);
        if (!found[index]) {
            snprintf(opener->failure, sizeof opener->failure, "%s has no %s", opener->soname, opener->names[index]);
            return;
        }
    }
    /* The table is a struct of function pointers, each the size of a data pointer (POSIX
     * dlsym), one after another: its callers check its size against `count`. */
    memcpy(opener->table, found, sizeof found);
}

const char *caption_library_open(struct caption_library_opener *opener) {
    pthread_mutex_lock(&opener->lock);
    if (!opener->tried) {
        load(opener);
        opener->tried = 1;
    }
    pthread_mutex_unlock(&opener->lock);
    return opener->failure[0] ? opener->failure : NULL;
}
