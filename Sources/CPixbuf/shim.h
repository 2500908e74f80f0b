/* GdkPixbuf and GLib for the library: image checks and hashing, without GTK. */
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <glib.h>
#include <glib/gstdio.h>
