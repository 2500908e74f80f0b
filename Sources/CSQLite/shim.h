/* SQLite for Swift: the header, and what its macros hide. */
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast macro: tells SQLite to copy bound text before returning. */
static inline sqlite3_destructor_type caption_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
