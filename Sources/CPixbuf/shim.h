/* GdkPixbuf and GLib for the library: image checks and hashing, without GTK. */
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <unistd.h>
#include <sys/syscall.h>

/* An anonymous memory file (memfd_create, close-on-exec), or -1: the whole-file loaders
 * read a photo's checked bytes from it through /proc/self/fd. */
static inline int caption_memory_file(void) {
    return (int)syscall(SYS_memfd_create, "caption-photo", 1u /* MFD_CLOEXEC */);
}
