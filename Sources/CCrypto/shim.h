/* OpenSSL's libcrypto, for the SHA-256 of photos: several times as fast as GLib's GChecksum
 * where the processor has SHA instructions (x86-64 since 2016, ARMv8), and every photo is
 * hashed as it is saved, and again as it is written.
 *
 * It is opened when a photo is first hashed (dlopen), not linked: start-up never loads it.
 * Where it is not installed, GLib hashes instead. Its two functions are declared here as
 * OpenSSL 3 declares them (evp.h), their types left opaque. */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

struct caption_crypto {
    const void *(*sha256)(void);
    int (*digest)(const void *data, size_t count, unsigned char *md, unsigned int *size, const void *type,
                  void *engine);
};

/* The library's functions, or NULL when it is not installed. Safe from any thread: the
 * library is opened once, under a lock, and read after without one. */
static inline const struct caption_crypto *caption_crypto(void) {
    static struct caption_crypto table;
    static int loaded;
    static int tried;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    if (!__atomic_load_n(&tried, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&lock);
        if (!tried) {
            void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
            if (library) {
                *(void **)&table.sha256 = dlsym(library, "EVP_sha256");
                *(void **)&table.digest = dlsym(library, "EVP_Digest");
                loaded = table.sha256 && table.digest;
            }
            __atomic_store_n(&tried, 1, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&lock);
    }
    return loaded ? &table : NULL;
}

/* The 32 bytes of SHA-256 of `count` bytes into `digest`; 0 when libcrypto is not there or
 * refused. */
static inline int caption_sha256(const void *data, size_t count, unsigned char *digest) {
    const struct caption_crypto *crypto = caption_crypto();
    if (!crypto) return 0;
    unsigned int size = 0;
    static const unsigned char nothing[1];
    return crypto->digest(data ? data : nothing, count, digest, &size, crypto->sha256(), NULL) == 1 && size == 32;
}
