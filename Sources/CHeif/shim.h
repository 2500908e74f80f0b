/* libheif for two things: the thumbnail a HEIF photo carries (phones store one beside the
 * primary picture), decoded to 8-bit RGB, so the window can show it while GdkPixbuf's HEIF
 * loader decodes the whole photo, which takes seconds for a 24-megapixel one; and the
 * photo's Exif block, for the caption variables.
 *
 * libheif is opened when a HEIF photo is first launched with (dlopen), not linked: linked,
 * it and its codecs would load at every start, in front of the first frame, for photos most
 * sessions never see. It is the library GdkPixbuf's HEIF loader uses, so wherever Caption
 * shows HEIF photos it is there; where it is not, there is no thumbnail and nothing else
 * changes. The header gives the types. */
#include <dlfcn.h>
#include <libheif/heif.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

struct caption_libheif {
    struct heif_context *(*context_alloc)(void);
    void (*context_free)(struct heif_context *);
    struct heif_error (*read_from_file)(struct heif_context *, const char *, const struct heif_reading_options *);
    struct heif_error (*primary_handle)(struct heif_context *, struct heif_image_handle **);
    int (*thumbnail_ids)(const struct heif_image_handle *, heif_item_id *, int);
    struct heif_error (*thumbnail)(const struct heif_image_handle *, heif_item_id, struct heif_image_handle **);
    int (*handle_width)(const struct heif_image_handle *);
    void (*handle_release)(const struct heif_image_handle *);
    struct heif_error (*decode)(const struct heif_image_handle *, struct heif_image **, enum heif_colorspace,
                                enum heif_chroma, const struct heif_decoding_options *);
    int (*image_width)(const struct heif_image *, enum heif_channel);
    int (*image_height)(const struct heif_image *, enum heif_channel);
    const uint8_t *(*plane)(const struct heif_image *, enum heif_channel, int *);
    void (*image_release)(const struct heif_image *);
    int (*metadata_ids)(const struct heif_image_handle *, const char *, heif_item_id *, int);
    size_t (*metadata_size)(const struct heif_image_handle *, heif_item_id);
    struct heif_error (*metadata)(const struct heif_image_handle *, heif_item_id, void *);
    int loaded;
};

/* State lives in functions, not in file-level statics, which Swift's importer does not
 * emit. */
static inline struct caption_libheif *caption_libheif_state(void) {
    static struct caption_libheif table;
    return &table;
}

static inline void caption_libheif_load(void) {
    void *library = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    struct caption_libheif *t = caption_libheif_state();
    /* Counted by libheif; never undone: the library stays open for the process. */
    struct heif_error (*init)(struct heif_init_params *);
    *(void **)&init = dlsym(library, "heif_init");
    if (init) init(NULL);
    *(void **)&t->context_alloc = dlsym(library, "heif_context_alloc");
    *(void **)&t->context_free = dlsym(library, "heif_context_free");
    *(void **)&t->read_from_file = dlsym(library, "heif_context_read_from_file");
    *(void **)&t->primary_handle = dlsym(library, "heif_context_get_primary_image_handle");
    *(void **)&t->thumbnail_ids = dlsym(library, "heif_image_handle_get_list_of_thumbnail_IDs");
    *(void **)&t->thumbnail = dlsym(library, "heif_image_handle_get_thumbnail");
    *(void **)&t->handle_width = dlsym(library, "heif_image_handle_get_width");
    *(void **)&t->handle_release = dlsym(library, "heif_image_handle_release");
    *(void **)&t->decode = dlsym(library, "heif_decode_image");
    *(void **)&t->image_width = dlsym(library, "heif_image_get_width");
    *(void **)&t->image_height = dlsym(library, "heif_image_get_height");
    *(void **)&t->plane = dlsym(library, "heif_image_get_plane_readonly");
    *(void **)&t->image_release = dlsym(library, "heif_image_release");
    *(void **)&t->metadata_ids = dlsym(library, "heif_image_handle_get_list_of_metadata_block_IDs");
    *(void **)&t->metadata_size = dlsym(library, "heif_image_handle_get_metadata_size");
    *(void **)&t->metadata = dlsym(library, "heif_image_handle_get_metadata");
    t->loaded = t->context_alloc && t->context_free && t->read_from_file && t->primary_handle &&
                t->thumbnail_ids && t->thumbnail && t->handle_width && t->handle_release &&
                t->decode && t->image_width && t->image_height && t->plane && t->image_release &&
                t->metadata_ids && t->metadata_size && t->metadata;
}

/* libheif's functions, or NULL when it cannot be opened; opened once, from any thread. */
static inline const struct caption_libheif *caption_libheif(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, caption_libheif_load);
    const struct caption_libheif *t = caption_libheif_state();
    return t->loaded ? t : NULL;
}

/* A decoded thumbnail: `width` × `height` pixels of interleaved RGB, `stride` bytes a row.
 * The pixels belong to `image`; give it back with caption_heif_release. */
struct caption_heif_picture {
    const uint8_t *pixels;
    int width, height, stride;
    const struct heif_image *image;
};

/* The smallest thumbnail at most `max_width` wide of the primary picture of the HEIF at
 * `path`, decoded and turned as libheif turns the primary picture (its irot and imir); 0
 * when there is none, or it does not decode. libheif reads the file's boxes and the
 * thumbnail's data, not the primary picture's. */
static inline int caption_heif_thumbnail(const char *path, int max_width, struct caption_heif_picture *out) {
    const struct caption_libheif *lib = caption_libheif();
    if (!lib) return 0;
    struct heif_context *context = lib->context_alloc();
    if (!context) return 0;
    int found = 0;
    struct heif_image_handle *primary = NULL;
    if (lib->read_from_file(context, path, NULL).code == heif_error_Ok &&
        lib->primary_handle(context, &primary).code == heif_error_Ok) {
        heif_item_id ids[8];
        int count = lib->thumbnail_ids(primary, ids, 8);
        struct heif_image_handle *chosen = NULL;
        for (int index = 0; index < count; index++) {
            struct heif_image_handle *thumbnail = NULL;
            if (lib->thumbnail(primary, ids[index], &thumbnail).code != heif_error_Ok) continue;
            int width = lib->handle_width(thumbnail);
            if (width > 0 && width <= max_width && (!chosen || width < lib->handle_width(chosen))) {
                if (chosen) lib->handle_release(chosen);
                chosen = thumbnail;
            } else {
                lib->handle_release(thumbnail);
            }
        }
        struct heif_image *image = NULL;
        if (chosen &&
            lib->decode(chosen, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, NULL).code == heif_error_Ok) {
            int stride = 0;
            const uint8_t *pixels = lib->plane(image, heif_channel_interleaved, &stride);
            int width = lib->image_width(image, heif_channel_interleaved);
            int height = lib->image_height(image, heif_channel_interleaved);
            if (pixels && width > 0 && height > 0 && stride >= width * 3) {
                out->pixels = pixels;
                out->width = width;
                out->height = height;
                out->stride = stride;
                out->image = image;
                found = 1;
            } else {
                lib->image_release(image);
            }
        }
        if (chosen) lib->handle_release(chosen);
        lib->handle_release(primary);
    }
    lib->context_free(context);
    return found;
}

static inline void caption_heif_release(struct caption_heif_picture *picture) {
    const struct caption_libheif *lib = caption_libheif();
    if (lib && picture->image) lib->image_release(picture->image);
    picture->image = NULL;
}

/* The primary picture's Exif block (a 4-byte offset to the TIFF header, then the Exif), as
 * HEIF stores it, in memory the caller frees with free(); NULL when there is none. At most
 * `limit` bytes: a larger block is not a camera's. */
static inline unsigned char *caption_heif_exif(const char *path, size_t limit, size_t *size) {
    const struct caption_libheif *lib = caption_libheif();
    if (!lib) return NULL;
    struct heif_context *context = lib->context_alloc();
    if (!context) return NULL;
    unsigned char *block = NULL;
    struct heif_image_handle *primary = NULL;
    if (lib->read_from_file(context, path, NULL).code == heif_error_Ok &&
        lib->primary_handle(context, &primary).code == heif_error_Ok) {
        heif_item_id id;
        if (lib->metadata_ids(primary, "Exif", &id, 1) == 1) {
            size_t length = lib->metadata_size(primary, id);
            if (length > 4 && length <= limit && (block = malloc(length)) != NULL) {
                if (lib->metadata(primary, id, block).code == heif_error_Ok) {
                    *size = length;
                } else {
                    free(block);
                    block = NULL;
                }
            }
        }
        lib->handle_release(primary);
    }
    lib->context_free(context);
    return block;
}
