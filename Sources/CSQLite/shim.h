/* SQLite for Swift: the header, and what its macros hide. */
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast macro: tells SQLite to copy bound text before returning. */
static inline sqlite3_destructor_type caption_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// glibc's memmem (a GNU extension the Glibc module leaves out): the search index's scan.
#include <stddef.h>
void *memmem(const void *haystack, size_t haystacklen, const void *needle, size_t needlelen);
static inline const void *caption_memmem(const void *haystack, size_t haystack_length,
                                         const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}
