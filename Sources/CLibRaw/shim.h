/* LibRaw (the thread-safe build) for camera RAW: the size a RAW's directories give, and the
 * preview its camera embedded (libraw_unpack_thumb), never the RAW's own pixels.
 *
 * LibRaw is opened on the first RAW photo (dlopen), not linked: linked, it and what it
 * brings (lcms2, libgomp) loaded at every start and took 1.6 MB in front of the first
 * frame (`make bench`), for photos most sessions never see. The header gives the types and
 * the library's version, so the file opened is the one the program was built against. */
#include <dlfcn.h>
#include <libraw/libraw.h>
#include <pthread.h>
#include <stddef.h>

#define CAPTION_LIBRAW_QUOTE(x) #x
#define CAPTION_LIBRAW_SONAME(x) "libraw_r.so." CAPTION_LIBRAW_QUOTE(x)

struct caption_libraw {
    libraw_data_t *(*init)(unsigned int);
    int (*open_file)(libraw_data_t *, const char *);
    int (*open_buffer)(libraw_data_t *, void *, size_t);
    int (*unpack_thumb)(libraw_data_t *);
    libraw_processed_image_t *(*make_mem_thumb)(libraw_data_t *, int *);
    void (*close)(libraw_data_t *);
    void (*clear_mem)(libraw_processed_image_t *);
    int loaded;
};

/* State lives in functions, not in file-level statics, which Swift's importer does not
 * emit. */
static inline struct caption_libraw *caption_libraw_state(void) {
    static struct caption_libraw table;
    return &table;
}

static inline void caption_libraw_load(void) {
    void *library = dlopen(CAPTION_LIBRAW_SONAME(LIBRAW_SHLIB_CURRENT), RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    struct caption_libraw *t = caption_libraw_state();
    *(void **)&t->init = dlsym(library, "libraw_init");
    *(void **)&t->open_file = dlsym(library, "libraw_open_file");
    *(void **)&t->open_buffer = dlsym(library, "libraw_open_buffer");
    *(void **)&t->unpack_thumb = dlsym(library, "libraw_unpack_thumb");
    *(void **)&t->make_mem_thumb = dlsym(library, "libraw_dcraw_make_mem_thumb");
    *(void **)&t->close = dlsym(library, "libraw_close");
    *(void **)&t->clear_mem = dlsym(library, "libraw_dcraw_clear_mem");
    t->loaded = t->init && t->open_file && t->open_buffer && t->unpack_thumb && t->make_mem_thumb &&
                            t->close && t->clear_mem;
}

/* LibRaw's functions, or NULL when it cannot be opened. Decoders call this from several
 * threads at once: pthread_once opens it once. */
static inline const struct caption_libraw *caption_libraw(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, caption_libraw_load);
    const struct caption_libraw *t = caption_libraw_state();
    return t->loaded ? t : NULL;
}

/* Whether LibRaw can be opened here: when not, RAW photos are refused as having no decoder. */
static inline int caption_raw_available(void) { return caption_libraw() != NULL; }

/* The picture's size as shown (a quarter turn swaps the sides); 0 when LibRaw cannot open
 * it. `path` when not NULL, else `data`/`size`. */
static inline int caption_raw_size(const char *path, const void *data, size_t size, int *width, int *height) {
    const struct caption_libraw *lib = caption_libraw();
    if (!lib) return 0;
    libraw_data_t *raw = lib->init(0);
    if (!raw) return 0;
    int status = path ? lib->open_file(raw, path) : lib->open_buffer(raw, (void *)data, size);
    int ok = status == LIBRAW_SUCCESS && raw->sizes.width > 0 && raw->sizes.height > 0;
    if (ok) {
        int turned = raw->sizes.flip & 4;
        *width = turned ? raw->sizes.height : raw->sizes.width;
        *height = turned ? raw->sizes.width : raw->sizes.height;
    }
    lib->close(raw);
    return ok;
}

/* The embedded preview in memory (JPEG bytes, or 8-bit RGB rows), or NULL; `flip` is how
 * LibRaw says to turn it (0, 3: half, 5: a quarter anticlockwise, 6: clockwise). Free the
 * result with caption_raw_free. `path` when not NULL, else `data`/`size`. */
static inline libraw_processed_image_t *caption_raw_thumbnail(const char *path, const void *data, size_t size,
                                                              int *flip) {
    const struct caption_libraw *lib = caption_libraw();
    if (!lib) return NULL;
    libraw_data_t *raw = lib->init(0);
    if (!raw) return NULL;
    libraw_processed_image_t *image = NULL;
    int error = 0;
    int status = path ? lib->open_file(raw, path) : lib->open_buffer(raw, (void *)data, size);
    if (status == LIBRAW_SUCCESS && lib->unpack_thumb(raw) == LIBRAW_SUCCESS) {
        image = lib->make_mem_thumb(raw, &error);
        *flip = raw->sizes.flip;
    }
    lib->close(raw);
    return image;
}

/* Only ever given an image caption_raw_thumbnail made, so LibRaw is open. */
static inline void caption_raw_free(libraw_processed_image_t *image) { caption_libraw()->clear_mem(image); }

static inline const unsigned char *caption_raw_image_data(const libraw_processed_image_t *image) {
    return image->data;
}

/* What the camera recorded, as LibRaw reads it from the RAW's own structures (a CR3's CMT
 * boxes, a RAF's header, the makers' directories), for the formats whose Exif is no plain
 * TIFF directory. `taken` is LibRaw's timestamp: the camera's clock read as local time
 * (mktime), 0 when there is none. Strings end in NUL and are empty when unknown. 0 when
 * LibRaw cannot open the file. */
struct caption_raw_facts {
    long long taken;
    char make[64];
    char model[64];
    char lens[128];
};

static inline void caption_raw_copy(char *to, size_t size, const char *from) {
    size_t index = 0;
    for (; index + 1 < size && from[index]; index++) to[index] = from[index];
    to[index] = 0;
}

static inline int caption_raw_read_facts(const char *path, struct caption_raw_facts *out) {
    const struct caption_libraw *lib = caption_libraw();
    if (!lib) return 0;
    libraw_data_t *raw = lib->init(0);
    if (!raw) return 0;
    int ok = lib->open_file(raw, path) == LIBRAW_SUCCESS;
    if (ok) {
        out->taken = (long long)raw->other.timestamp;
        caption_raw_copy(out->make, sizeof out->make, raw->idata.make);
        caption_raw_copy(out->model, sizeof out->model, raw->idata.model);
        caption_raw_copy(out->lens, sizeof out->lens, raw->lens.Lens);
    }
    lib->close(raw);
    return ok;
}
