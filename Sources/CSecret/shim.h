/* libsecret, for the destinations' passwords: kept by the Secret Service (GNOME Keyring,
 * KeePassXC), never in a file of Caption's.
 *
 * libsecret is opened the first time a password is stored or looked up (dlopen), not
 * linked: start-up never loads it. Its schema type and the three calls are declared here
 * as libsecret 0.20 declares them (secret-schema.h, secret-password.h); GLib's types come
 * from GLib, which the program links already. */
#include <dlfcn.h>
#include <glib.h>
#include <pthread.h>

typedef struct {
    const gchar *name;
    int type;
} caption_secret_attribute;

typedef struct {
    const gchar *name;
    int flags;
    caption_secret_attribute attributes[32];
    gint reserved;
    gpointer reserved1, reserved2, reserved3, reserved4, reserved5, reserved6, reserved7;
} caption_secret_schema;

struct caption_secret {
    gboolean (*store)(const caption_secret_schema *, GHashTable *, const gchar *, const gchar *, const gchar *,
                      void *, GError **);
    gchar *(*lookup)(const caption_secret_schema *, GHashTable *, void *, GError **);
    gboolean (*clear)(const caption_secret_schema *, GHashTable *, void *, GError **);
    void (*free)(gchar *);
};

static inline const struct caption_secret *caption_secret(void) {
    static struct caption_secret table;
    static int loaded;
    static int tried;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    if (!__atomic_load_n(&tried, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&lock);
        if (!tried) {
            void *library = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL);
            if (library) {
                *(void **)&table.store = dlsym(library, "secret_password_storev_sync");
                *(void **)&table.lookup = dlsym(library, "secret_password_lookupv_sync");
                *(void **)&table.clear = dlsym(library, "secret_password_clearv_sync");
                *(void **)&table.free = dlsym(library, "secret_password_free");
                loaded = table.store && table.lookup && table.clear && table.free;
            }
            __atomic_store_n(&tried, 1, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&lock);
    }
    return loaded ? &table : NULL;
}

/* One schema for every destination's password: the destination's name tells them apart,
 * and Seahorse shows the schema's name beside each. */
static inline const caption_secret_schema *caption_secret_destination_schema(void) {
    static const caption_secret_schema schema = {
        "io.github.caption_app.Caption.Destination", 0, {{"destination", 0}, {NULL, 0}}, 0,
        NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    return &schema;
}

static inline GHashTable *caption_secret_attributes(const char *destination) {
    GHashTable *attributes = g_hash_table_new(g_str_hash, g_str_equal);
    g_hash_table_insert(attributes, (gpointer) "destination", (gpointer)destination);
    return attributes;
}

/* Each returns 1 on success; otherwise *message holds the Secret Service's reason (free
 * it with g_free), or NULL when libsecret is not installed. */
static inline int caption_secret_store(const char *destination, const char *label, const char *password,
                                       char **message) {
    *message = NULL;
    const struct caption_secret *secret = caption_secret();
    if (!secret) return 0;
    GHashTable *attributes = caption_secret_attributes(destination);
    GError *error = NULL;
    gboolean stored = secret->store(caption_secret_destination_schema(), attributes, "default", label, password,
                                    NULL, &error);
    g_hash_table_unref(attributes);
    if (error) {
        *message = g_strdup(error->message);
        g_error_free(error);
    }
    return stored ? 1 : 0;
}

/* The password (free it with caption_secret_free), or NULL: none stored when *message is
 * NULL too. */
static inline char *caption_secret_lookup(const char *destination, char **message) {
    *message = NULL;
    const struct caption_secret *secret = caption_secret();
    if (!secret) return NULL;
    GHashTable *attributes = caption_secret_attributes(destination);
    GError *error = NULL;
    char *password = secret->lookup(caption_secret_destination_schema(), attributes, NULL, &error);
    g_hash_table_unref(attributes);
    if (error) {
        *message = g_strdup(error->message);
        g_error_free(error);
    }
    return password;
}

static inline int caption_secret_clear(const char *destination, char **message) {
    *message = NULL;
    const struct caption_secret *secret = caption_secret();
    if (!secret) return 0;
    GHashTable *attributes = caption_secret_attributes(destination);
    GError *error = NULL;
    secret->clear(caption_secret_destination_schema(), attributes, NULL, &error);
    g_hash_table_unref(attributes);
    if (error) {
        *message = g_strdup(error->message);
        g_error_free(error);
        return 0;
    }
    return 1;
}

static inline int caption_secret_available(void) { return caption_secret() != NULL; }

/* Wiped, then freed: a password does not linger in freed memory. */
static inline void caption_secret_free(char *password) {
    const struct caption_secret *secret = caption_secret();
    if (secret && password) secret->free(password);
}
