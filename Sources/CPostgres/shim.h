/* libpq, for a library kept on a PostgreSQL server.
 *
 * libpq is opened the first time a library on a server is named (dlopen), not linked: most
 * people keep their library in a folder, and a linked libpq (with its Kerberos, LDAP and
 * TLS libraries) would load at every start, in front of the first frame. Where it is not
 * installed, a library on a server says so and nothing else changes. The header gives the
 * types. */
#include <dlfcn.h>
/* Debian keeps libpq's headers in postgresql/, Fedora in the include folder itself. */
#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#else
#include <postgresql/libpq-fe.h>
#endif
#include <pthread.h>
#include <stddef.h>

struct caption_libpq {
    PGconn *(*connectdb)(const char *);
    ConnStatusType (*status)(const PGconn *);
    char *(*error_message)(const PGconn *);
    void (*finish)(PGconn *);
    PGresult *(*exec)(PGconn *, const char *);
    PGresult *(*exec_params)(PGconn *, const char *, int, const Oid *, const char *const *, const int *,
                             const int *, int);
    ExecStatusType (*result_status)(const PGresult *);
    char *(*result_error_field)(const PGresult *, int);
    char *(*result_error_message)(const PGresult *);
    int (*ntuples)(const PGresult *);
    int (*nfields)(const PGresult *);
    char *(*getvalue)(const PGresult *, int, int);
    int (*getisnull)(const PGresult *, int, int);
    int (*getlength)(const PGresult *, int, int);
    void (*clear)(PGresult *);
    PQconninfoOption *(*conninfo_parse)(const char *, char **);
    void (*conninfo_free)(PQconninfoOption *);
    void (*freemem)(void *);
    char *(*db)(const PGconn *);
    char *(*host)(const PGconn *);
    char *(*port)(const PGconn *);
    char *(*user)(const PGconn *);
    PGTransactionStatusType (*transaction_status)(const PGconn *);
    int (*server_version)(const PGconn *);
    int (*socket)(const PGconn *);
    int (*consume_input)(PGconn *);
    PGnotify *(*notifies)(PGconn *);
    PQnoticeProcessor (*set_notice_processor)(PGconn *, PQnoticeProcessor, void *);
    int (*needs_password)(const PGconn *);
    int (*used_password)(const PGconn *);
    PGconn *(*connectdb_params)(const char *const *, const char *const *, int);
    int (*send_query)(PGconn *, const char *);
    int (*send_query_params)(PGconn *, const char *, int, const Oid *, const char *const *, const int *, const int *,
                             int);
    int (*set_nonblocking)(PGconn *, int);
    int (*flush)(PGconn *);
    int (*is_busy)(PGconn *);
    PGresult *(*get_result)(PGconn *);
    int (*get_copy_data)(PGconn *, char **, int);
    int loaded;
};

/* State lives in functions, not in file-level statics, which Swift's importer does not
 * emit. */
static inline struct caption_libpq *caption_libpq_state(void) {
    static struct caption_libpq table;
    return &table;
}

static inline void caption_libpq_load(void) {
    /* Never closed: connections may outlive any one caller. */
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    struct caption_libpq *t = caption_libpq_state();
    *(void **)&t->connectdb = dlsym(library, "PQconnectdb");
    *(void **)&t->status = dlsym(library, "PQstatus");
    *(void **)&t->error_message = dlsym(library, "PQerrorMessage");
    *(void **)&t->finish = dlsym(library, "PQfinish");
    *(void **)&t->exec = dlsym(library, "PQexec");
    *(void **)&t->exec_params = dlsym(library, "PQexecParams");
    *(void **)&t->result_status = dlsym(library, "PQresultStatus");
    *(void **)&t->result_error_field = dlsym(library, "PQresultErrorField");
    *(void **)&t->result_error_message = dlsym(library, "PQresultErrorMessage");
    *(void **)&t->ntuples = dlsym(library, "PQntuples");
    *(void **)&t->nfields = dlsym(library, "PQnfields");
    *(void **)&t->getvalue = dlsym(library, "PQgetvalue");
    *(void **)&t->getisnull = dlsym(library, "PQgetisnull");
    *(void **)&t->getlength = dlsym(library, "PQgetlength");
    *(void **)&t->clear = dlsym(library, "PQclear");
    *(void **)&t->conninfo_parse = dlsym(library, "PQconninfoParse");
    *(void **)&t->conninfo_free = dlsym(library, "PQconninfoFree");
    *(void **)&t->freemem = dlsym(library, "PQfreemem");
    *(void **)&t->db = dlsym(library, "PQdb");
    *(void **)&t->host = dlsym(library, "PQhost");
    *(void **)&t->port = dlsym(library, "PQport");
    *(void **)&t->user = dlsym(library, "PQuser");
    *(void **)&t->transaction_status = dlsym(library, "PQtransactionStatus");
    *(void **)&t->server_version = dlsym(library, "PQserverVersion");
    *(void **)&t->socket = dlsym(library, "PQsocket");
    *(void **)&t->consume_input = dlsym(library, "PQconsumeInput");
    *(void **)&t->notifies = dlsym(library, "PQnotifies");
    *(void **)&t->set_notice_processor = dlsym(library, "PQsetNoticeProcessor");
    *(void **)&t->needs_password = dlsym(library, "PQconnectionNeedsPassword");
    *(void **)&t->used_password = dlsym(library, "PQconnectionUsedPassword");
    *(void **)&t->connectdb_params = dlsym(library, "PQconnectdbParams");
    *(void **)&t->send_query = dlsym(library, "PQsendQuery");
    *(void **)&t->send_query_params = dlsym(library, "PQsendQueryParams");
    *(void **)&t->set_nonblocking = dlsym(library, "PQsetnonblocking");
    *(void **)&t->flush = dlsym(library, "PQflush");
    *(void **)&t->is_busy = dlsym(library, "PQisBusy");
    *(void **)&t->get_result = dlsym(library, "PQgetResult");
    *(void **)&t->get_copy_data = dlsym(library, "PQgetCopyData");
    t->loaded = t->connectdb && t->status && t->error_message && t->finish && t->exec && t->exec_params &&
                t->result_status && t->result_error_field && t->result_error_message && t->ntuples &&
                t->nfields && t->getvalue && t->getisnull && t->getlength && t->clear &&
                t->conninfo_parse && t->conninfo_free && t->freemem && t->db && t->host && t->port &&
                t->user && t->transaction_status && t->server_version && t->socket && t->consume_input &&
                t->notifies && t->set_notice_processor && t->needs_password && t->used_password &&
                t->connectdb_params && t->send_query && t->send_query_params && t->set_nonblocking && t->flush &&
                t->is_busy && t->get_result && t->get_copy_data;
}

/* libpq's functions, or NULL when it cannot be opened; opened once, from any thread. */
static inline const struct caption_libpq *caption_libpq(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, caption_libpq_load);
    const struct caption_libpq *t = caption_libpq_state();
    return t->loaded ? t : NULL;
}

/* The diagnostic fields Caption reads, as Swift cannot import libpq's macros of chars. */
static inline int caption_pg_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int caption_pg_diag_message_primary(void) { return PG_DIAG_MESSAGE_PRIMARY; }

/* The server's notices and warnings ("extension exists", "terminating connection due to
 * shutdown") are not the user's business: libpq would print them on standard error. What
 * matters reaches Caption as an error of a statement. */
static inline void caption_pg_drop_notice(void *context, const char *message) {
    (void)context;
    (void)message;
}

static inline void caption_pg_quiet(const struct caption_libpq *t, PGconn *connection) {
    t->set_notice_processor(connection, caption_pg_drop_notice, NULL);
}
