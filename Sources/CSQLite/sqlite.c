/* Opens SQLite when first needed: see sqlite_shim.h. */
#include "library_opener.h"
#include "sqlite_shim.h"

#include <string.h>

static struct caption_sqlite functions;
static const char *const names[] = {
#define CAPTION_SQLITE_NAME(name) #name,
    CAPTION_SQLITE_FUNCTIONS(CAPTION_SQLITE_NAME)
#undef CAPTION_SQLITE_NAME
};
_Static_assert(sizeof functions == sizeof names / sizeof *names * sizeof(void *), "one pointer a function");
static struct caption_library_opener opener = CAPTION_LIBRARY_OPENER(CAPTION_SQLITE_SONAME, names, &functions);

const char *caption_sqlite_open(void) { return caption_library_open(&opener); }

const struct caption_sqlite *caption_sqlite_functions(void) { return &functions; }

static void note_change(void *context, int operation, const char *database, const char *table,
                        sqlite3_int64 row) {
    (void)operation;
    (void)database;
    struct caption_changed_rows *rows = context;
    if (strcmp(table, "entries") != 0) return;
    if (rows->count < (int)(sizeof rows->ids / sizeof *rows->ids))
        rows->ids[rows->count++] = row;
    else
        rows->overflowed = 1;
}

void caption_note_entry_changes(sqlite3 *db, struct caption_changed_rows *rows) {
    CAPTION_SQLITE->sqlite3_update_hook(db, note_change, rows);
}
