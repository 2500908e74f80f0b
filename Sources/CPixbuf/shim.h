/* GdkPixbuf and GLib for the library: image checks and hashing, without GTK. */
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <glib-unix.h>
#include <unistd.h>
#include <sys/syscall.h>

/* An anonymous memory file (memfd_create, close-on-exec), or -1: the whole-file loaders
 * read a photo's checked bytes from it through /proc/self/fd. */
static inline int caption_memory_file(void) {
    return (int)syscall(SYS_memfd_create, "caption-photo", 1u /* MFD_CLOEXEC */);
}

/* A loader's size-prepared signal, typed: G_CALLBACK's cast happens here, where the
 * handler's C signature is checked against the signal's, instead of in Swift. */
typedef void (*CaptionSizePrepared)(GdkPixbufLoader *loader, gint width, gint height, gpointer data);
static inline gulong caption_loader_on_size_prepared(GdkPixbufLoader *loader, CaptionSizePrepared handler,
                                                     gpointer data, GClosureNotify release) {
    return g_signal_connect_data(loader, "size-prepared", G_CALLBACK(handler), data, release, 0);
}
