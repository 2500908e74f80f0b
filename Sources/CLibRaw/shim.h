/* LibRaw (the thread-safe build) for camera RAW: the size a RAW's directories give, and the
 * preview its camera embedded (libraw_unpack_thumb), never the RAW's own pixels. */
#include <libraw/libraw.h>
#include <stddef.h>

/* The picture's size as shown (a quarter turn swaps the sides); 0 when LibRaw cannot open
 * it. `path` when not NULL, else `data`/`size`. */
static inline int caption_raw_size(const char *path, const void *data, size_t size, int *width, int *height) {
    libraw_data_t *raw = libraw_init(0);
    if (!raw) return 0;
    int status = path ? libraw_open_file(raw, path) : libraw_open_buffer(raw, (void *)data, size);
    int ok = status == LIBRAW_SUCCESS && raw->sizes.width > 0 && raw->sizes.height > 0;
    if (ok) {
        int turned = raw->sizes.flip & 4;
        *width = turned ? raw->sizes.height : raw->sizes.width;
        *height = turned ? raw->sizes.width : raw->sizes.height;
    }
    libraw_close(raw);
    return ok;
}

/* The embedded preview in memory (JPEG bytes, or 8-bit RGB rows), or NULL; `flip` is how
 * LibRaw says to turn it (0, 3: half, 5: a quarter anticlockwise, 6: clockwise). Free the
 * result with libraw_dcraw_clear_mem. `path` when not NULL, else `data`/`size`. */
static inline libraw_processed_image_t *caption_raw_thumbnail(const char *path, const void *data, size_t size,
                                                              int *flip) {
    libraw_data_t *raw = libraw_init(0);
    if (!raw) return NULL;
    libraw_processed_image_t *image = NULL;
    int error = 0;
    int status = path ? libraw_open_file(raw, path) : libraw_open_buffer(raw, (void *)data, size);
    if (status == LIBRAW_SUCCESS && libraw_unpack_thumb(raw) == LIBRAW_SUCCESS) {
        image = libraw_dcraw_make_mem_thumb(raw, &error);
        *flip = raw->sizes.flip;
    }
    libraw_close(raw);
    return image;
}

static inline const unsigned char *caption_raw_image_data(const libraw_processed_image_t *image) {
    return image->data;
}
