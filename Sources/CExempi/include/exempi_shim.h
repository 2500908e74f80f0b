#ifndef CAPTION_EXEMPI_SHIM_H
#define CAPTION_EXEMPI_SHIM_H

/* exempi (Adobe's XMP Toolkit behind a plain C API) for the metadata module: the XMP
 * packets in JPEG, PNG, WebP, TIFF and GIF files, and the errors it reports.
 *
 * exempi is opened on the first metadata read or write (dlopen), not linked: linked, it
 * loaded at every start and took 1.1 MB and half a millisecond in front of the first frame
 * (`make bench`). The header still gives the types and constants; its declarations are
 * renamed out of the way so that the functions below, which call through the opened
 * library, keep exempi's names and the Swift above reads as plain exempi. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define xmp_init caption_declared_xmp_init
#define xmp_get_error caption_declared_xmp_get_error
#define xmp_files_open_new caption_declared_xmp_files_open_new
#define xmp_files_close caption_declared_xmp_files_close
#define xmp_files_free caption_declared_xmp_files_free
#define xmp_files_get_new_xmp caption_declared_xmp_files_get_new_xmp
#define xmp_files_get_xmp_xmpstring caption_declared_xmp_files_get_xmp_xmpstring
#define xmp_files_can_put_xmp caption_declared_xmp_files_can_put_xmp
#define xmp_files_put_xmp caption_declared_xmp_files_put_xmp
#define xmp_new_empty caption_declared_xmp_new_empty
#define xmp_new caption_declared_xmp_new
#define xmp_free caption_declared_xmp_free
#define xmp_serialize caption_declared_xmp_serialize
#define xmp_get_property caption_declared_xmp_get_property
#define xmp_set_property caption_declared_xmp_set_property
#define xmp_delete_property caption_declared_xmp_delete_property
#define xmp_has_property caption_declared_xmp_has_property
#define xmp_append_array_item caption_declared_xmp_append_array_item
#define xmp_get_localized_text caption_declared_xmp_get_localized_text
#define xmp_set_localized_text caption_declared_xmp_set_localized_text
#define xmp_string_new caption_declared_xmp_string_new
#define xmp_string_free caption_declared_xmp_string_free
#define xmp_string_cstr caption_declared_xmp_string_cstr
#define xmp_string_len caption_declared_xmp_string_len
#define xmp_iterator_new caption_declared_xmp_iterator_new
#define xmp_iterator_free caption_declared_xmp_iterator_free
#define xmp_iterator_next caption_declared_xmp_iterator_next
#define xmp_register_namespace caption_declared_xmp_register_namespace
/* From the include folder itself: pkg-config's flags would also link the library. */
#include <exempi-2.0/exempi/xmp.h>
#include <exempi-2.0/exempi/xmperrors.h>
#undef xmp_init
#undef xmp_get_error
#undef xmp_files_open_new
#undef xmp_files_close
#undef xmp_files_free
#undef xmp_files_get_new_xmp
#undef xmp_files_get_xmp_xmpstring
#undef xmp_files_can_put_xmp
#undef xmp_files_put_xmp
#undef xmp_new_empty
#undef xmp_new
#undef xmp_free
#undef xmp_serialize
#undef xmp_get_property
#undef xmp_set_property
#undef xmp_delete_property
#undef xmp_has_property
#undef xmp_append_array_item
#undef xmp_get_localized_text
#undef xmp_set_localized_text
#undef xmp_string_new
#undef xmp_string_free
#undef xmp_string_cstr
#undef xmp_string_len
#undef xmp_iterator_new
#undef xmp_iterator_free
#undef xmp_iterator_next
#undef xmp_register_namespace

/* exempi's soname since 2.5 (2019); its header names no version. The packages' dependency
 * on it is written from this string (build-aux/opened-depends, the RPM spec). */
#define CAPTION_EXEMPI_SONAME "libexempi.so.8"

#define CAPTION_EXEMPI_FUNCTIONS(X)                                                                                \
    X(xmp_init)                                                                                                    \
    X(xmp_get_error)                                                                                               \
    X(xmp_files_open_new)                                                                                          \
    X(xmp_files_close)                                                                                             \
    X(xmp_files_free)                                                                                              \
    X(xmp_files_get_new_xmp)                                                                                       \
    X(xmp_files_get_xmp_xmpstring)                                                                                 \
    X(xmp_files_can_put_xmp)                                                                                       \
    X(xmp_files_put_xmp)                                                                                           \
    X(xmp_new_empty)                                                                                               \
    X(xmp_new)                                                                                                     \
    X(xmp_free)                                                                                                    \
    X(xmp_serialize)                                                                                               \
    X(xmp_get_property)                                                                                            \
    X(xmp_set_property)                                                                                            \
    X(xmp_delete_property)                                                                                         \
    X(xmp_has_property)                                                                                            \
    X(xmp_append_array_item)                                                                                       \
    X(xmp_get_localized_text)                                                                                      \
    X(xmp_set_localized_text)                                                                                      \
    X(xmp_string_new)                                                                                              \
    X(xmp_string_free)                                                                                             \
    X(xmp_string_cstr)                                                                                             \
    X(xmp_string_len)                                                                                              \
    X(xmp_iterator_new)                                                                                            \
    X(xmp_iterator_free)                                                                                           \
    X(xmp_iterator_next)                                                                                           \
    X(xmp_register_namespace)

/* Each function's pointer, typed from the header's (renamed) declaration. */
struct caption_exempi {
#define CAPTION_EXEMPI_FIELD(name) __typeof__(caption_declared_##name) *name;
    CAPTION_EXEMPI_FUNCTIONS(CAPTION_EXEMPI_FIELD)
#undef CAPTION_EXEMPI_FIELD
};

/* Opens exempi once, from any thread: NULL when it is open, else why it cannot be (the
 * dynamic linker's words). The functions below may be called only once this said NULL. */
const char *caption_exempi_open(void);

/* The opened library's functions. One table for the program (exempi.c), not one per file
 * that includes this header, as a static inside a static inline function would be. */
const struct caption_exempi *caption_exempi_functions(void);

#define CAPTION_EXEMPI caption_exempi_functions()

static inline bool xmp_init(void) { return CAPTION_EXEMPI->xmp_init(); }
static inline int xmp_get_error(void) { return CAPTION_EXEMPI->xmp_get_error(); }
static inline XmpFilePtr xmp_files_open_new(const char *path, XmpOpenFileOptions options) {
    return CAPTION_EXEMPI->xmp_files_open_new(path, options);
}
static inline bool xmp_files_close(XmpFilePtr xf, XmpCloseFileOptions options) {
    return CAPTION_EXEMPI->xmp_files_close(xf, options);
}
static inline bool xmp_files_free(XmpFilePtr xf) { return CAPTION_EXEMPI->xmp_files_free(xf); }
static inline XmpPtr xmp_files_get_new_xmp(XmpFilePtr xf) { return CAPTION_EXEMPI->xmp_files_get_new_xmp(xf); }
static inline bool xmp_files_get_xmp_xmpstring(XmpFilePtr xf, XmpStringPtr packet, XmpPacketInfo *info) {
    return CAPTION_EXEMPI->xmp_files_get_xmp_xmpstring(xf, packet, info);
}
static inline bool xmp_files_can_put_xmp(XmpFilePtr xf, XmpPtr xmp) {
    return CAPTION_EXEMPI->xmp_files_can_put_xmp(xf, xmp);
}
static inline bool xmp_files_put_xmp(XmpFilePtr xf, XmpPtr xmp) { return CAPTION_EXEMPI->xmp_files_put_xmp(xf, xmp); }
static inline XmpPtr xmp_new_empty(void) { return CAPTION_EXEMPI->xmp_new_empty(); }
static inline XmpPtr xmp_new(const char *buffer, size_t len) { return CAPTION_EXEMPI->xmp_new(buffer, len); }
static inline bool xmp_free(XmpPtr xmp) { return CAPTION_EXEMPI->xmp_free(xmp); }
static inline bool xmp_serialize(XmpPtr xmp, XmpStringPtr buffer, uint32_t options, uint32_t padding) {
    return CAPTION_EXEMPI->xmp_serialize(xmp, buffer, options, padding);
}
static inline bool xmp_get_property(XmpPtr xmp, const char *schema, const char *name, XmpStringPtr property,
                                    uint32_t *bits) {
    return CAPTION_EXEMPI->xmp_get_property(xmp, schema, name, property, bits);
}
static inline bool xmp_set_property(XmpPtr xmp, const char *schema, const char *name, const char *value,
                                    uint32_t bits) {
    return CAPTION_EXEMPI->xmp_set_property(xmp, schema, name, value, bits);
}
static inline bool xmp_delete_property(XmpPtr xmp, const char *schema, const char *name) {
    return CAPTION_EXEMPI->xmp_delete_property(xmp, schema, name);
}
static inline bool xmp_has_property(XmpPtr xmp, const char *schema, const char *name) {
    return CAPTION_EXEMPI->xmp_has_property(xmp, schema, name);
}
static inline bool xmp_append_array_item(XmpPtr xmp, const char *schema, const char *name, uint32_t arrayOptions,
                                         const char *value, uint32_t optionBits) {
    return CAPTION_EXEMPI->xmp_append_array_item(xmp, schema, name, arrayOptions, value, optionBits);
}
static inline bool xmp_get_localized_text(XmpPtr xmp, const char *schema, const char *name, const char *genericLang,
                                          const char *specificLang, XmpStringPtr actualLang, XmpStringPtr itemValue,
                                          uint32_t *bits) {
    return CAPTION_EXEMPI->xmp_get_localized_text(xmp, schema, name, genericLang, specificLang, actualLang,
                                                  itemValue, bits);
}
static inline bool xmp_set_localized_text(XmpPtr xmp, const char *schema, const char *name, const char *genericLang,
                                          const char *specificLang, const char *value, uint32_t bits) {
    return CAPTION_EXEMPI->xmp_set_localized_text(xmp, schema, name, genericLang, specificLang, value, bits);
}
static inline bool xmp_register_namespace(const char *namespaceURI, const char *suggestedPrefix,
                                          XmpStringPtr registeredPrefix) {
    return CAPTION_EXEMPI->xmp_register_namespace(namespaceURI, suggestedPrefix, registeredPrefix);
}
static inline XmpStringPtr xmp_string_new(void) { return CAPTION_EXEMPI->xmp_string_new(); }
static inline void xmp_string_free(XmpStringPtr s) { CAPTION_EXEMPI->xmp_string_free(s); }
static inline const char *xmp_string_cstr(XmpStringPtr s) { return CAPTION_EXEMPI->xmp_string_cstr(s); }
static inline size_t xmp_string_len(XmpStringPtr s) { return CAPTION_EXEMPI->xmp_string_len(s); }
static inline XmpIteratorPtr xmp_iterator_new(XmpPtr xmp, const char *schema, const char *name,
                                              XmpIterOptions options) {
    return CAPTION_EXEMPI->xmp_iterator_new(xmp, schema, name, options);
}
static inline bool xmp_iterator_free(XmpIteratorPtr iter) { return CAPTION_EXEMPI->xmp_iterator_free(iter); }
static inline bool xmp_iterator_next(XmpIteratorPtr iter, XmpStringPtr schema, XmpStringPtr name,
                                     XmpStringPtr value, uint32_t *options) {
    return CAPTION_EXEMPI->xmp_iterator_next(iter, schema, name, value, options);
}

#undef CAPTION_EXEMPI

#endif
