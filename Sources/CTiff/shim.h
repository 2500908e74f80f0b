/* libtiff for the TIFFs GdkPixbuf's TIFF loader refuses (12-, 24- and 32-bit samples,
 * floating point, 16-bit CMYK, and whatever else libtiff reads that the loader does not):
 * the file opened through libtiff, its tags read, and its strips or tiles decoded, either as
 * libtiff's RGBA or as the samples they hold. What is made of the samples is Swift's work
 * (Pixbufs/TIFFPicture.swift).
 *
 * libtiff is opened when such a photo is first decoded (dlopen), not linked: it is the
 * library GdkPixbuf's TIFF loader brings, so wherever Caption reads TIFF it is there, and
 * linked it would load at every start for photos most sessions never see. Only
 * TIFFGetField's variadic calls need C; the rest are the table's pointers. The header gives
 * the types. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tiffio.h>

struct caption_libtiff {
    TIFF *(*open)(const char *, const char *);
    /* libtiff 4.5 and later: options per file, so errors are kept here instead of going
     * through the process-wide handler GdkPixbuf's loader sets. */
    TIFF *(*open_ext)(const char *, const char *, TIFFOpenOptions *);
    TIFFOpenOptions *(*options_alloc)(void);
    void (*options_free)(TIFFOpenOptions *);
    void (*options_error)(TIFFOpenOptions *, TIFFErrorHandlerExtR, void *);
    void (*options_warning)(TIFFOpenOptions *, TIFFErrorHandlerExtR, void *);
    void (*options_max_allocation)(TIFFOpenOptions *, tmsize_t);
    void (*close)(TIFF *);
    int (*get_field_defaulted)(TIFF *, uint32_t, ...);
    int (*rgba_ok)(TIFF *, char[1024]);
    int (*read_rgba_strip)(TIFF *, uint32_t, uint32_t *);
    int (*read_rgba_tile)(TIFF *, uint32_t, uint32_t, uint32_t *);
    int (*is_tiled)(TIFF *);
    tmsize_t (*strip_size)(TIFF *);
    tmsize_t (*tile_size)(TIFF *);
    uint32_t (*strip_count)(TIFF *);
    tmsize_t (*read_strip)(TIFF *, uint32_t, void *, tmsize_t);
    tmsize_t (*read_tile)(TIFF *, uint32_t, void *, tmsize_t);
    uint32_t (*compute_tile)(TIFF *, uint32_t, uint32_t, uint32_t, uint16_t);
    int loaded;
};

static inline struct caption_libtiff *caption_libtiff_state(void) {
    static struct caption_libtiff table;
    return &table;
}

static inline void caption_libtiff_load(void) {
    void *library = dlopen("libtiff.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libtiff.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    struct caption_libtiff *t = caption_libtiff_state();
    *(void **)&t->open = dlsym(library, "TIFFOpen");
    *(void **)&t->open_ext = dlsym(library, "TIFFOpenExt");
    *(void **)&t->options_alloc = dlsym(library, "TIFFOpenOptionsAlloc");
    *(void **)&t->options_free = dlsym(library, "TIFFOpenOptionsFree");
    *(void **)&t->options_error = dlsym(library, "TIFFOpenOptionsSetErrorHandlerExtR");
    *(void **)&t->options_warning = dlsym(library, "TIFFOpenOptionsSetWarningHandlerExtR");
    *(void **)&t->options_max_allocation = dlsym(library, "TIFFOpenOptionsSetMaxSingleMemAlloc");
    *(void **)&t->close = dlsym(library, "TIFFClose");
    *(void **)&t->get_field_defaulted = dlsym(library, "TIFFGetFieldDefaulted");
    *(void **)&t->rgba_ok = dlsym(library, "TIFFRGBAImageOK");
    *(void **)&t->read_rgba_strip = dlsym(library, "TIFFReadRGBAStrip");
    *(void **)&t->read_rgba_tile = dlsym(library, "TIFFReadRGBATile");
    *(void **)&t->is_tiled = dlsym(library, "TIFFIsTiled");
    *(void **)&t->strip_size = dlsym(library, "TIFFStripSize");
    *(void **)&t->tile_size = dlsym(library, "TIFFTileSize");
    *(void **)&t->strip_count = dlsym(library, "TIFFNumberOfStrips");
    *(void **)&t->read_strip = dlsym(library, "TIFFReadEncodedStrip");
    *(void **)&t->read_tile = dlsym(library, "TIFFReadEncodedTile");
    *(void **)&t->compute_tile = dlsym(library, "TIFFComputeTile");
    if (!(t->open_ext && t->options_alloc && t->options_free && t->options_error && t->options_warning &&
          t->options_max_allocation)) {
        t->open_ext = NULL;
    }
    t->loaded = t->open && t->close && t->get_field_defaulted && t->rgba_ok && t->read_rgba_strip &&
                t->read_rgba_tile && t->is_tiled && t->strip_size && t->tile_size && t->strip_count &&
                t->read_strip && t->read_tile && t->compute_tile;
}

/* libtiff's functions, or NULL when it cannot be opened; opened once, from any thread. */
static inline const struct caption_libtiff *caption_libtiff(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, caption_libtiff_load);
    const struct caption_libtiff *t = caption_libtiff_state();
    return t->loaded ? t : NULL;
}

/* An open TIFF and the first error libtiff gave about it. */
struct caption_tiff {
    TIFF *handle;
    char error[256];
};

/* Keeps the first error; warnings (unknown tags, odd but readable values) are not kept. */
static inline int caption_tiff_keep_error(TIFF *tiff, void *data, const char *module, const char *format,
                                          va_list arguments) {
    (void)tiff;
    (void)module;
    struct caption_tiff *file = data;
    if (file->error[0] == 0) vsnprintf(file->error, sizeof file->error, format, arguments);
    return 1;
}

static inline int caption_tiff_ignore(TIFF *tiff, void *data, const char *module, const char *format,
                                      va_list arguments) {
    (void)tiff;
    (void)data;
    (void)module;
    (void)format;
    (void)arguments;
    return 1;
}

/* Opens the TIFF at `path` for reading, each allocation libtiff makes for it held to
 * `max_allocation` bytes; 0 when libtiff is missing or refuses the file (its reason in
 * file->error). */
static inline int caption_tiff_open(const char *path, int64_t max_allocation, struct caption_tiff *file) {
    file->handle = NULL;
    file->error[0] = 0;
    const struct caption_libtiff *lib = caption_libtiff();
    if (!lib) {
        snprintf(file->error, sizeof file->error, "libtiff is not installed");
        return 0;
    }
    if (lib->open_ext) {
        TIFFOpenOptions *options = lib->options_alloc();
        if (!options) return 0;
        lib->options_error(options, caption_tiff_keep_error, file);
        lib->options_warning(options, caption_tiff_ignore, NULL);
        lib->options_max_allocation(options, (tmsize_t)max_allocation);
        file->handle = lib->open_ext(path, "r", options);
        lib->options_free(options);
    } else {
        file->handle = lib->open(path, "r");
    }
    return file->handle != NULL;
}

static inline void caption_tiff_close(struct caption_tiff *file) {
    const struct caption_libtiff *lib = caption_libtiff();
    if (lib && file->handle) lib->close(file->handle);
    file->handle = NULL;
}

static inline const char *caption_tiff_error(const struct caption_tiff *file) { return file->error; }

/* A tag of one 16-bit or one 32-bit value, or its default; 0 when it has neither. */
static inline int caption_tiff_u16(struct caption_tiff *file, uint32_t tag, uint16_t *value) {
    return caption_libtiff()->get_field_defaulted(file->handle, tag, value);
}

static inline int caption_tiff_u32(struct caption_tiff *file, uint32_t tag, uint32_t *value) {
    return caption_libtiff()->get_field_defaulted(file->handle, tag, value);
}

/* The first extra sample's meaning (EXTRASAMPLE_*), or -1 when there is none. */
static inline int caption_tiff_first_extra_sample(struct caption_tiff *file) {
    uint16_t count = 0;
    uint16_t *kinds = NULL;
    if (!caption_libtiff()->get_field_defaulted(file->handle, TIFFTAG_EXTRASAMPLES, &count, &kinds) || count == 0 ||
        !kinds) {
        return -1;
    }
    return kinds[0];
}

/* Whether libtiff's RGBA interface reads this picture; its reason in file->error if not. */
static inline int caption_tiff_rgba_ok(struct caption_tiff *file) {
    char reason[1024] = {0};
    if (caption_libtiff()->rgba_ok(file->handle, reason)) return 1;
    if (file->error[0] == 0) snprintf(file->error, sizeof file->error, "%s", reason);
    return 0;
}

static inline int caption_tiff_read_rgba_strip(struct caption_tiff *file, uint32_t row, uint32_t *raster) {
    return caption_libtiff()->read_rgba_strip(file->handle, row, raster);
}

static inline int caption_tiff_read_rgba_tile(struct caption_tiff *file, uint32_t column, uint32_t row,
                                              uint32_t *raster) {
    return caption_libtiff()->read_rgba_tile(file->handle, column, row, raster);
}

static inline int caption_tiff_is_tiled(struct caption_tiff *file) { return caption_libtiff()->is_tiled(file->handle); }

static inline int64_t caption_tiff_strip_size(struct caption_tiff *file) {
    return caption_libtiff()->strip_size(file->handle);
}

static inline int64_t caption_tiff_tile_size(struct caption_tiff *file) {
    return caption_libtiff()->tile_size(file->handle);
}

static inline uint32_t caption_tiff_strip_count(struct caption_tiff *file) {
    return caption_libtiff()->strip_count(file->handle);
}

/* A strip decoded into `buffer`: the bytes it gave, or -1. */
static inline int64_t caption_tiff_read_strip(struct caption_tiff *file, uint32_t strip, void *buffer, int64_t size) {
    return caption_libtiff()->read_strip(file->handle, strip, buffer, (tmsize_t)size);
}

/* The tile holding pixel (x, y) of `plane`, decoded into `buffer`: the bytes it gave, or -1. */
static inline int64_t caption_tiff_read_tile(struct caption_tiff *file, uint32_t x, uint32_t y, uint16_t plane,
                                             void *buffer, int64_t size) {
    const struct caption_libtiff *lib = caption_libtiff();
    return lib->read_tile(file->handle, lib->compute_tile(file->handle, x, y, 0, plane), buffer, (tmsize_t)size);
}
