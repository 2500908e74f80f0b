#ifndef CAPTION_LIBRARY_OPENER_H
#define CAPTION_LIBRARY_OPENER_H

/* A shared library opened when first needed (dlopen), not linked, with a table of its
 * functions: SQLite's and exempi's openers (sqlite.c, exempi.c) are each one of these. */
#include <pthread.h>
#include <stddef.h>

struct caption_library_opener {
    const char *soname;
    /* The functions' names, in the order of the table's pointers. */
    const char *const *names;
    size_t count;
    /* A struct of `count` function pointers, filled whole or not at all. */
    void *table;
    pthread_mutex_t lock;
    int tried;
    /* Why it could not be opened (the dynamic linker's words); empty once it is. */
    char failure[256];
};

#define CAPTION_LIBRARY_OPENER(soname, names, table)                                                                \
    { (soname), (names), sizeof(names) / sizeof *(names), (table), PTHREAD_MUTEX_INITIALIZER, 0, { 0 } }

/* Opens the library once, from any thread: NULL when it is open and every function was
 * found, else why not. Never closed: what it made may be in use until the program ends. */
const char *caption_library_open(struct caption_library_opener *opener);

#endif
