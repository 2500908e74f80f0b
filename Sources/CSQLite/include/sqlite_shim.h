#ifndef CAPTION_SQLITE_SHIM_H
#define CAPTION_SQLITE_SHIM_H

/* SQLite for the library, opened when first needed (dlopen), not linked: linked, it was
 * loaded and relocated at every start, in front of the first frame, though the library is
 * opened only after it. The header still gives the types and constants; its declarations
 * of the functions used are renamed out of the way, so that the functions below, which call
 * through the opened library, keep SQLite's names and the Swift above reads as SQLite. */
#include <stddef.h>

#define sqlite3_open caption_declared_sqlite3_open
#define sqlite3_open_v2 caption_declared_sqlite3_open_v2
#define sqlite3_close caption_declared_sqlite3_close
#define sqlite3_close_v2 caption_declared_sqlite3_close_v2
#define sqlite3_exec caption_declared_sqlite3_exec
#define sqlite3_prepare_v2 caption_declared_sqlite3_prepare_v2
#define sqlite3_step caption_declared_sqlite3_step
#define sqlite3_reset caption_declared_sqlite3_reset
#define sqlite3_finalize caption_declared_sqlite3_finalize
#define sqlite3_clear_bindings caption_declared_sqlite3_clear_bindings
#define sqlite3_bind_text caption_declared_sqlite3_bind_text
#define sqlite3_bind_int64 caption_declared_sqlite3_bind_int64
#define sqlite3_bind_null caption_declared_sqlite3_bind_null
#define sqlite3_column_text caption_declared_sqlite3_column_text
#define sqlite3_column_bytes caption_declared_sqlite3_column_bytes
#define sqlite3_column_type caption_declared_sqlite3_column_type
#define sqlite3_column_int64 caption_declared_sqlite3_column_int64
#define sqlite3_errmsg caption_declared_sqlite3_errmsg
#define sqlite3_errstr caption_declared_sqlite3_errstr
#define sqlite3_system_errno caption_declared_sqlite3_system_errno
#define sqlite3_get_autocommit caption_declared_sqlite3_get_autocommit
#define sqlite3_free caption_declared_sqlite3_free
#define sqlite3_db_readonly caption_declared_sqlite3_db_readonly
#define sqlite3_busy_timeout caption_declared_sqlite3_busy_timeout
#define sqlite3_update_hook caption_declared_sqlite3_update_hook
#include <sqlite3.h>
#undef sqlite3_open
#undef sqlite3_open_v2
#undef sqlite3_close
#undef sqlite3_close_v2
#undef sqlite3_exec
#undef sqlite3_prepare_v2
#undef sqlite3_step
#undef sqlite3_reset
#undef sqlite3_finalize
#undef sqlite3_clear_bindings
#undef sqlite3_bind_text
#undef sqlite3_bind_int64
#undef sqlite3_bind_null
#undef sqlite3_column_text
#undef sqlite3_column_bytes
#undef sqlite3_column_type
#undef sqlite3_column_int64
#undef sqlite3_errmsg
#undef sqlite3_errstr
#undef sqlite3_system_errno
#undef sqlite3_get_autocommit
#undef sqlite3_free
#undef sqlite3_db_readonly
#undef sqlite3_busy_timeout
#undef sqlite3_update_hook

/* SQLite's soname; its header names none. The packages' dependency on it is written from
 * this string (build-aux/opened-depends, the RPM spec). */
#define CAPTION_SQLITE_SONAME "libsqlite3.so.0"

#define CAPTION_SQLITE_FUNCTIONS(X) \
    X(sqlite3_open) \
    X(sqlite3_open_v2) \
    X(sqlite3_close) \
    X(sqlite3_close_v2) \
    X(sqlite3_exec) \
    X(sqlite3_prepare_v2) \
    X(sqlite3_step) \
    X(sqlite3_reset) \
    X(sqlite3_finalize) \
    X(sqlite3_clear_bindings) \
    X(sqlite3_bind_text) \
    X(sqlite3_bind_int64) \
    X(sqlite3_bind_null) \
    X(sqlite3_column_text) \
    X(sqlite3_column_bytes) \
    X(sqlite3_column_type) \
    X(sqlite3_column_int64) \
    X(sqlite3_errmsg) \
    X(sqlite3_errstr) \
    X(sqlite3_system_errno) \
    X(sqlite3_get_autocommit) \
    X(sqlite3_free) \
    X(sqlite3_db_readonly) \
    X(sqlite3_busy_timeout) \
    X(sqlite3_update_hook)

/* Each function's pointer, typed from the header's (renamed) declaration. */
struct caption_sqlite {
#define CAPTION_SQLITE_FIELD(name) __typeof__(caption_declared_##name) *name;
    CAPTION_SQLITE_FUNCTIONS(CAPTION_SQLITE_FIELD)
#undef CAPTION_SQLITE_FIELD
};

/* Opens SQLite once, from any thread: NULL when it is open, else why it cannot be (the
 * dynamic linker's words). */
const char *caption_sqlite_open(void);

/* The opened library's functions (all NULL while it is not open). One table for the
 * program (sqlite.c), not one per file that includes this header. */
const struct caption_sqlite *caption_sqlite_functions(void);

#define CAPTION_SQLITE caption_sqlite_functions()

/* Opening a database opens SQLite first; where it cannot be, the open fails as SQLite
 * fails one it cannot open, and caption_sqlite_open() says why. Every other function takes
 * what only an open gives, so SQLite is open when it is called. */
static inline int sqlite3_open(const char *filename, sqlite3 **db) {
    if (caption_sqlite_open()) {
        *db = NULL;
        return SQLITE_CANTOPEN;
    }
    return CAPTION_SQLITE->sqlite3_open(filename, db);
}
static inline int sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs) {
    if (caption_sqlite_open()) {
        *db = NULL;
        return SQLITE_CANTOPEN;
    }
    return CAPTION_SQLITE->sqlite3_open_v2(filename, db, flags, vfs);
}
/* Closing nothing is a no-op, as in SQLite, also where it is not open. */
static inline int sqlite3_close(sqlite3 *db) { return db ? CAPTION_SQLITE->sqlite3_close(db) : SQLITE_OK; }
static inline int sqlite3_close_v2(sqlite3 *db) { return db ? CAPTION_SQLITE->sqlite3_close_v2(db) : SQLITE_OK; }
/* An error code's text is asked for after a failed open too. */
static inline const char *sqlite3_errstr(int code) {
    return caption_sqlite_open() ? "SQLite is not available" : CAPTION_SQLITE->sqlite3_errstr(code);
}
static inline int sqlite3_exec(sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **),
                               void *argument, char **error) {
    return CAPTION_SQLITE->sqlite3_exec(db, sql, callback, argument, error);
}
static inline int sqlite3_prepare_v2(sqlite3 *db, const char *sql, int length, sqlite3_stmt **statement,
                                     const char **tail) {
    return CAPTION_SQLITE->sqlite3_prepare_v2(db, sql, length, statement, tail);
}
static inline int sqlite3_step(sqlite3_stmt *statement) { return CAPTION_SQLITE->sqlite3_step(statement); }
static inline int sqlite3_reset(sqlite3_stmt *statement) { return CAPTION_SQLITE->sqlite3_reset(statement); }
static inline int sqlite3_finalize(sqlite3_stmt *statement) { return CAPTION_SQLITE->sqlite3_finalize(statement); }
static inline int sqlite3_clear_bindings(sqlite3_stmt *statement) {
    return CAPTION_SQLITE->sqlite3_clear_bindings(statement);
}
static inline int sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text, int length,
                                    void (*destructor)(void *)) {
    return CAPTION_SQLITE->sqlite3_bind_text(statement, index, text, length, destructor);
}
static inline int sqlite3_bind_int64(sqlite3_stmt *statement, int index, sqlite3_int64 value) {
    return CAPTION_SQLITE->sqlite3_bind_int64(statement, index, value);
}
static inline int sqlite3_bind_null(sqlite3_stmt *statement, int index) {
    return CAPTION_SQLITE->sqlite3_bind_null(statement, index);
}
static inline const unsigned char *sqlite3_column_text(sqlite3_stmt *statement, int column) {
    return CAPTION_SQLITE->sqlite3_column_text(statement, column);
}
static inline int sqlite3_column_bytes(sqlite3_stmt *statement, int column) {
    return CAPTION_SQLITE->sqlite3_column_bytes(statement, column);
}
static inline int sqlite3_column_type(sqlite3_stmt *statement, int column) {
    return CAPTION_SQLITE->sqlite3_column_type(statement, column);
}
static inline sqlite3_int64 sqlite3_column_int64(sqlite3_stmt *statement, int column) {
    return CAPTION_SQLITE->sqlite3_column_int64(statement, column);
}
static inline const char *sqlite3_errmsg(sqlite3 *db) { return CAPTION_SQLITE->sqlite3_errmsg(db); }
static inline int sqlite3_system_errno(sqlite3 *db) { return CAPTION_SQLITE->sqlite3_system_errno(db); }
static inline int sqlite3_get_autocommit(sqlite3 *db) { return CAPTION_SQLITE->sqlite3_get_autocommit(db); }
static inline void sqlite3_free(void *memory) { CAPTION_SQLITE->sqlite3_free(memory); }
static inline int sqlite3_db_readonly(sqlite3 *db, const char *name) {
    return CAPTION_SQLITE->sqlite3_db_readonly(db, name);
}
static inline int sqlite3_busy_timeout(sqlite3 *db, int milliseconds) {
    return CAPTION_SQLITE->sqlite3_busy_timeout(db, milliseconds);
}

/* The rows of the `entries` table a connection changed, as SQLite's update hook names
 * them, so that the search index can follow a commit instead of reading every entry again.
 * Past the first 256 only `overflowed` is set (a bulk change: the index is made again). */
struct caption_changed_rows {
    sqlite3_int64 ids[256];
    int count;
    int overflowed;
};
/* Starts noting into `rows` the changes made through `db` (sqlite.c). */
void caption_note_entry_changes(sqlite3 *db, struct caption_changed_rows *rows);

/* SQLITE_TRANSIENT is a cast macro: tells SQLite to copy bound text before returning. */
static inline sqlite3_destructor_type caption_sqlite_transient(void) { return SQLITE_TRANSIENT; }

/* glibc's memmem (a GNU extension the Glibc module leaves out): the search index's scan. */
void *memmem(const void *haystack, size_t haystacklen, const void *needle, size_t needlelen);
static inline const void *caption_memmem(const void *haystack, size_t haystack_length, const void *needle,
                                         size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

#endif
