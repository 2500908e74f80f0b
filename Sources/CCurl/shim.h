/* libcurl, for sending photos to an agency's FTP, FTPS or SFTP server.
 *
 * libcurl is opened the first time something is sent (dlopen), not linked: most sessions
 * send nothing, and a linked libcurl (with its TLS, SSH, HTTP/2 and LDAP libraries) would
 * load at every start, in front of the first frame. Where it is not installed, sending says
 * so and nothing else changes. The header gives the types and option numbers; its
 * variadic setters, which Swift cannot call, are wrapped here one per argument type. */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#if __has_include(<curl/curl.h>)
#include <curl/curl.h>
#else
#error "libcurl's header (libcurl4-openssl-dev, libcurl-devel) is needed to build"
#endif

struct caption_curl {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
};

/* The library's functions, or NULL when it is not installed. Opened, and its global state
 * set up (which is not thread-safe), once under a lock; read after without one. */
static inline const struct caption_curl *caption_curl(void) {
    static struct caption_curl table;
    static int loaded;
    static int tried;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    if (!__atomic_load_n(&tried, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&lock);
        if (!tried) {
            /* Never closed: its global state lives as long as the process. */
            void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
            if (library) {
                *(void **)&table.global_init = dlsym(library, "curl_global_init");
                *(void **)&table.easy_init = dlsym(library, "curl_easy_init");
                *(void **)&table.easy_setopt = dlsym(library, "curl_easy_setopt");
                *(void **)&table.easy_perform = dlsym(library, "curl_easy_perform");
                *(void **)&table.easy_getinfo = dlsym(library, "curl_easy_getinfo");
                *(void **)&table.easy_cleanup = dlsym(library, "curl_easy_cleanup");
                *(void **)&table.easy_strerror = dlsym(library, "curl_easy_strerror");
                *(void **)&table.slist_append = dlsym(library, "curl_slist_append");
                *(void **)&table.slist_free_all = dlsym(library, "curl_slist_free_all");
                loaded = table.global_init && table.easy_init && table.easy_setopt && table.easy_perform &&
                         table.easy_getinfo && table.easy_cleanup && table.easy_strerror && table.slist_append &&
                         table.slist_free_all && table.global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
            }
            __atomic_store_n(&tried, 1, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&lock);
    }
    return loaded ? &table : NULL;
}

static inline CURLcode caption_curl_set_long(const struct caption_curl *curl, CURL *handle, CURLoption option,
                                             long value) {
    return curl->easy_setopt(handle, option, value);
}

static inline CURLcode caption_curl_set_size(const struct caption_curl *curl, CURL *handle, CURLoption option,
                                             long long value) {
    return curl->easy_setopt(handle, option, (curl_off_t)value);
}

static inline CURLcode caption_curl_set_pointer(const struct caption_curl *curl, CURL *handle, CURLoption option,
                                                const void *value) {
    return curl->easy_setopt(handle, option, value);
}

/* The server's host key as libcurl hands it over (its SSH wire form), to a function of the
 * caller's; CURLKHMATCH_OK lets the connection go on. */
typedef int (*caption_curl_host_key_check)(void *context, int type, const char *key, size_t length);

static inline CURLcode caption_curl_set_host_key_check(const struct caption_curl *curl, CURL *handle,
                                                       caption_curl_host_key_check check, void *context) {
    CURLcode code = curl->easy_setopt(handle, CURLOPT_SSH_HOSTKEYFUNCTION, check);
    if (code != CURLE_OK) return code;
    return curl->easy_setopt(handle, CURLOPT_SSH_HOSTKEYDATA, context);
}

static inline long caption_curl_response_code(const struct caption_curl *curl, CURL *handle) {
    long code = 0;
    if (curl->easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code) != CURLE_OK) return 0;
    return code;
}

/* The first certificate of the chain the server showed, as PEM text (libcurl's "Cert:"
 * entry), or NULL; valid until the handle is cleaned up. Needs CURLOPT_CERTINFO. */
static inline const char *caption_curl_server_certificate(const struct caption_curl *curl, CURL *handle) {
    struct curl_certinfo *info = NULL;
    if (curl->easy_getinfo(handle, CURLINFO_CERTINFO, &info) != CURLE_OK || !info || info->num_of_certs < 1)
        return NULL;
    for (struct curl_slist *field = info->certinfo[0]; field; field = field->next)
        if (field->data && __builtin_strncmp(field->data, "Cert:", 5) == 0) return field->data + 5;
    return NULL;
}
