/* The C seam: GTK 3 for Swift, plus static inline wrappers for what Swift cannot import
 * (macros, variadic functions and casts). Nothing else in the project speaks C. */
#include <gtk/gtk.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/gdkx.h>
#include <cairo-xlib.h>
#endif
#include <glib-unix.h>
#include <sys/mman.h>
#include <unistd.h>

/* g_signal_connect is a macro. */
static inline gulong caption_signal_connect(gpointer instance, const char *signal,
                                            GCallback handler, gpointer data,
                                            GClosureNotify destroy, gboolean after) {
    return g_signal_connect_data(instance, signal, handler, data, destroy,
                                 after ? G_CONNECT_AFTER : (GConnectFlags)0);
}

/* Variadic in C. */
static inline void caption_signal_emit(gpointer instance, const char *signal) {
    g_signal_emit_by_name(instance, signal);
}

/* A line of the shortcuts window: g_object_new is variadic. */
static inline GtkWidget *caption_shortcut_new(const char *accelerator, const char *title) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_SHORTCUTS_SHORTCUT, "accelerator", accelerator,
                                   "title", title, "visible", TRUE, NULL));
}

/* A string property, newly allocated (g_free it); g_object_get is variadic. */
static inline gchar *caption_object_get_string(gpointer object, const char *property) {
    gchar *value = NULL;
    g_object_get(object, property, &value, NULL);
    return value;
}

/* The export folder chooser is a dialog of Caption's own (not a native one) so that Enter in
 * its location field can choose the folder typed there; gtk_file_chooser_dialog_new is
 * variadic. */
static inline GtkWidget *caption_folder_chooser_new(GtkWindow *parent, const char *title,
                                                    const char *accept, const char *cancel) {
    return gtk_file_chooser_dialog_new(title, parent, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                       cancel, GTK_RESPONSE_CANCEL, accept, GTK_RESPONSE_ACCEPT,
                                       NULL);
}

/* The chooser's location field (a private GtkEntry subclass): its type name is all there is
 * to know it by. */
static inline gboolean caption_is_location_entry(gpointer p) {
    return GTK_IS_ENTRY(p) && g_strcmp0(G_OBJECT_TYPE_NAME(p), "GtkFileChooserEntry") == 0;
}

/* A launch context on the widget's display, for startup notification (a new reference). */
static inline GAppLaunchContext *caption_launch_context(GtkWidget *widget, guint32 timestamp) {
    GdkAppLaunchContext *context = gdk_display_get_app_launch_context(gtk_widget_get_display(widget));
    gdk_app_launch_context_set_timestamp(context, timestamp);
    return G_APP_LAUNCH_CONTEXT(context);
}

/* gtk_container_child_set is variadic, which Swift cannot call. */
static inline void caption_grid_move_to_row(GtkGrid *grid, GtkWidget *child, gint row) {
    gtk_container_child_set(GTK_CONTAINER(grid), child, "top-attach", row, NULL);
}

/* Cast macros. */
static inline GtkWidget *caption_widget(gpointer p) { return GTK_WIDGET(p); }
static inline GtkWindow *caption_window(gpointer p) { return GTK_WINDOW(p); }
static inline GtkContainer *caption_container(gpointer p) { return GTK_CONTAINER(p); }
static inline GtkBox *caption_box(gpointer p) { return GTK_BOX(p); }
static inline GtkGrid *caption_grid(gpointer p) { return GTK_GRID(p); }
static inline GtkEntry *caption_entry(gpointer p) { return GTK_ENTRY(p); }
static inline GtkEditable *caption_editable(gpointer p) { return GTK_EDITABLE(p); }
static inline GtkLabel *caption_label(gpointer p) { return GTK_LABEL(p); }
static inline GtkButton *caption_button(gpointer p) { return GTK_BUTTON(p); }
static inline GtkProgressBar *caption_progress_bar(gpointer p) { return GTK_PROGRESS_BAR(p); }
static inline GtkHeaderBar *caption_header_bar(gpointer p) { return GTK_HEADER_BAR(p); }
static inline GtkRevealer *caption_revealer(gpointer p) { return GTK_REVEALER(p); }
static inline GApplication *caption_g_application(gpointer p) { return G_APPLICATION(p); }
static inline GtkFileChooser *caption_file_chooser(gpointer p) { return GTK_FILE_CHOOSER(p); }
static inline GtkNativeDialog *caption_native_dialog(gpointer p) { return GTK_NATIVE_DIALOG(p); }
static inline GtkDialog *caption_dialog(gpointer p) { return GTK_DIALOG(p); }
static inline GtkStyleProvider *caption_style_provider(gpointer p) { return GTK_STYLE_PROVIDER(p); }
static inline GtkStack *caption_stack(gpointer p) { return GTK_STACK(p); }
static inline GtkOverlay *caption_overlay(gpointer p) { return GTK_OVERLAY(p); }
static inline GActionMap *caption_action_map(gpointer p) { return G_ACTION_MAP(p); }
static inline GtkToggleButton *caption_toggle_button(gpointer p) { return GTK_TOGGLE_BUTTON(p); }
static inline GtkComboBox *caption_combo_box(gpointer p) { return GTK_COMBO_BOX(p); }
static inline GtkComboBoxText *caption_combo_box_text(gpointer p) { return GTK_COMBO_BOX_TEXT(p); }
static inline GtkMenuButton *caption_menu_button(gpointer p) { return GTK_MENU_BUTTON(p); }
static inline GtkAboutDialog *caption_about_dialog(gpointer p) { return GTK_ABOUT_DIALOG(p); }
static inline GdkAtom caption_clipboard_atom(void) { return GDK_SELECTION_CLIPBOARD; }
static inline GtkBin *caption_bin(gpointer p) { return GTK_BIN(p); }
static inline GActionGroup *caption_action_group(gpointer p) { return G_ACTION_GROUP(p); }


/* The library view's list: a thumbnail and a line of markup per entry. Variadic setters
 * and type macros, so they live here. */
static inline GtkListStore *caption_entry_store_new(void) {
    return gtk_list_store_new(2, GDK_TYPE_PIXBUF, G_TYPE_STRING);
}
static inline void caption_entry_store_insert(GtkListStore *store, int row, const char *markup) {
    gtk_list_store_insert_with_values(store, NULL, row, 1, markup, -1);
}
static inline gboolean caption_entry_store_iter(GtkListStore *store, int row, GtkTreeIter *iter) {
    return gtk_tree_model_iter_nth_child(GTK_TREE_MODEL(store), iter, NULL, row);
}
static inline void caption_entry_store_set_thumbnail(GtkListStore *store, int row, GdkPixbuf *pixbuf) {
    GtkTreeIter iter;
    if (caption_entry_store_iter(store, row, &iter)) gtk_list_store_set(store, &iter, 0, pixbuf, -1);
}
static inline void caption_entry_store_remove(GtkListStore *store, int row) {
    GtkTreeIter iter;
    if (caption_entry_store_iter(store, row, &iter)) gtk_list_store_remove(store, &iter);
}
/* The Preferences window's list of codes: a code and its text per row. */
static inline GtkListStore *caption_code_store_new(void) {
    return gtk_list_store_new(2, G_TYPE_STRING, G_TYPE_STRING);
}
static inline void caption_code_store_insert(GtkListStore *store, int row, const char *code, const char *text) {
    gtk_list_store_insert_with_values(store, NULL, row, 0, code, 1, text, -1);
}
static inline void caption_code_store_set(GtkListStore *store, int row, const char *code, const char *text) {
    GtkTreeIter iter;
    if (caption_entry_store_iter(store, row, &iter)) gtk_list_store_set(store, &iter, 0, code, 1, text, -1);
}
static inline GtkTreeModel *caption_tree_model(gpointer p) { return GTK_TREE_MODEL(p); }
static inline GtkTreeView *caption_tree_view(gpointer p) { return GTK_TREE_VIEW(p); }
/* The form's scroller (focus adjustment) and the dark-style setting. */
static inline GtkScrolledWindow *caption_scrolled_window(gpointer p) { return GTK_SCROLLED_WINDOW(p); }
/* The Preferences window's rows and the completion offers. */
static inline GtkListBox *caption_list_box(gpointer p) { return GTK_LIST_BOX(p); }
static inline GtkPopover *caption_popover(gpointer p) { return GTK_POPOVER(p); }
static inline void caption_object_set_int(gpointer object, const char *property, int value) {
    g_object_set(object, property, value, NULL);
}

/* A Wayland launcher's activation token (XDG_ACTIVATION_TOKEN). GTK 3 knows only
 * DESKTOP_STARTUP_ID, and reads it as libgdk loads, before main: setting it later does
 * nothing. So the token is given to the open display (this window comes forward with it)
 * and added to what `open` and `activate` hand a running instance (its window does). */
GType gdk_x11_display_get_type (void);
void gdk_x11_display_set_startup_notification_id (GdkDisplay *display, const gchar *startup_id);
GType gdk_wayland_display_get_type (void);
void gdk_wayland_display_set_startup_notification_id (GdkDisplay *display, const char *startup_id);
static gchar *caption_startup_token = NULL;
static void (*caption_gtk_add_platform_data) (GApplication *, GVariantBuilder *) = NULL;
static void caption_add_platform_data (GApplication *application, GVariantBuilder *builder) {
    if (caption_gtk_add_platform_data != NULL) caption_gtk_add_platform_data (application, builder);
    g_variant_builder_add (builder, "{sv}", "desktop-startup-id", g_variant_new_string (caption_startup_token));
    g_variant_builder_add (builder, "{sv}", "activation-token", g_variant_new_string (caption_startup_token));
}
static inline void caption_use_startup_token (GtkApplication *application, const char *token) {
    GdkDisplay *display = gdk_display_get_default ();
    if (token == NULL || caption_startup_token != NULL) return;
    caption_startup_token = g_strdup (token);
    if (display != NULL && G_TYPE_CHECK_INSTANCE_TYPE (display, gdk_x11_display_get_type ()))
        gdk_x11_display_set_startup_notification_id (display, token);
    else if (display != NULL && G_TYPE_CHECK_INSTANCE_TYPE (display, gdk_wayland_display_get_type ()))
        gdk_wayland_display_set_startup_notification_id (display, token);
    GApplicationClass *class = G_APPLICATION_GET_CLASS (application);
    caption_gtk_add_platform_data = class->add_platform_data;
    class->add_platform_data = caption_add_platform_data;
}
static inline void caption_object_set_string(gpointer object, const char *property, const char *value) {
    g_object_set(object, property, value, NULL);
}

/* g_variant_new is variadic: the (ss) of the settings portal's Read. */
static inline GVariant *caption_variant_new_string_pair(const char *first, const char *second) {
    return g_variant_new("(ss)", first, second);
}
static inline void caption_object_get_boolean(gpointer object, const char *property, gboolean *value) {
    g_object_get(object, property, value, NULL);
}
/* An integer or enum property (a GtkModelButton's role). */
static inline int caption_object_get_int(gpointer object, const char *property) {
    int value = 0;
    g_object_get(object, property, &value, NULL);
    return value;
}
static inline GtkInfoBar *caption_info_bar(gpointer p) { return GTK_INFO_BAR(p); }
/* G_OBJECT_TYPE is a macro. */
static inline GType gtk_widget_get_type_caption(gpointer widget) { return G_OBJECT_TYPE(widget); }

/* A cairo image surface of `pixbuf`'s pixels (premultiplied as cairo wants them) at the
 * window scale `scale`, made in memory alone. GDK's gdk_cairo_surface_create_from_pixbuf
 * asks the default screen for a similar image instead, which on X is shared memory attached
 * through Xlib: a call on the display that must not be made off the main thread, where the
 * decoders make their surfaces. The rounding of the premultiplication is GDK's. */
static inline void caption_unmap_pixels(void *data) {
    size_t *mapping = data;
    munmap(mapping, mapping[0]);
}

#ifdef GDK_WINDOWING_X11
/* A pixmap and its display, freed with the surface that draws it. */
struct caption_pixmap {
    Display *display;
    Pixmap pixmap;
};

static inline void caption_free_pixmap(void *data) {
    struct caption_pixmap *owned = data;
    XFreePixmap(owned->display, owned->pixmap);
    g_free(owned);
}
#endif

/* `image`, an opaque picture (CAIRO_FORMAT_RGB24), copied into a pixmap of `window`'s X
 * server: a cairo surface that draws it and frees it when destroyed, with the image's device
 * scale. The pixels go over in one XPutImage, read where they are; cairo's own upload of a
 * picture this large would go through a shared-memory segment that the program keeps mapped
 * as long as the picture is shown. NULL when the window is not on X, its screen's visual is
 * not 24-bit RGB as cairo stores it, or `image` is not opaque: the caller keeps the image. */
static inline cairo_surface_t *caption_surface_on_x_server(GdkWindow *window, cairo_surface_t *image) {
#ifdef GDK_WINDOWING_X11
    if (!GDK_IS_X11_WINDOW(window) || cairo_surface_get_type(image) != CAIRO_SURFACE_TYPE_IMAGE ||
        cairo_image_surface_get_format(image) != CAIRO_FORMAT_RGB24)
        return NULL;
    int width = cairo_image_surface_get_width(image);
    int height = cairo_image_surface_get_height(image);
    if (width <= 0 || height <= 0 || width > 32767 || height > 32767) return NULL;
    GdkScreen *screen = gdk_window_get_screen(window);
    GdkVisual *system = gdk_screen_get_system_visual(screen);
    Visual *visual = gdk_x11_visual_get_xvisual(system);
    if (gdk_visual_get_depth(system) != 24 || visual->red_mask != 0xff0000 || visual->green_mask != 0xff00 ||
        visual->blue_mask != 0xff)
        return NULL;
    Display *display = GDK_WINDOW_XDISPLAY(window);
    cairo_surface_flush(image);
    XImage picture = {0};
    picture.width = width;
    picture.height = height;
    picture.format = ZPixmap;
    picture.data = (char *)cairo_image_surface_get_data(image);
    /* cairo's pixels are native-endian 32-bit words; Xlib swaps them if the server needs. */
    picture.byte_order = G_BYTE_ORDER == G_LITTLE_ENDIAN ? LSBFirst : MSBFirst;
    picture.bitmap_unit = 32;
    picture.bitmap_bit_order = picture.byte_order;
    picture.bitmap_pad = 32;
    picture.depth = 24;
    picture.bytes_per_line = cairo_image_surface_get_stride(image);
    picture.bits_per_pixel = 32;
    picture.red_mask = 0xff0000;
    picture.green_mask = 0xff00;
    picture.blue_mask = 0xff;
    if (!XInitImage(&picture)) return NULL;
    /* On the screen's root window: asking `window` for its X window would make it native. */
    Pixmap pixmap = XCreatePixmap(display, RootWindowOfScreen(gdk_x11_screen_get_xscreen(screen)), (unsigned)width,
                                  (unsigned)height, 24);
    GC gc = XCreateGC(display, pixmap, 0, NULL);
    XPutImage(display, pixmap, gc, &picture, 0, 0, 0, 0, (unsigned)width, (unsigned)height);
    XFreeGC(display, gc);
    cairo_surface_t *surface = cairo_xlib_surface_create(display, pixmap, visual, width, height);
    struct caption_pixmap *owned = g_new(struct caption_pixmap, 1);
    owned->display = display;
    owned->pixmap = pixmap;
    /* The key is any address unique to the slot: the record's own. */
    if (cairo_surface_set_user_data(surface, (const cairo_user_data_key_t *)owned, owned, caption_free_pixmap) !=
        CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(surface);
        caption_free_pixmap(owned);
        return NULL;
    }
    double scale_x = 1, scale_y = 1;
    cairo_surface_get_device_scale(image, &scale_x, &scale_y);
    cairo_surface_set_device_scale(surface, scale_x, scale_y);
    return surface;
#else
    (void)window;
    (void)image;
    return NULL;
#endif
}

/* The pixels live in a mapping of their own, returned to the system when the surface goes:
 * from malloc, a picture freed on the main thread stayed in the decoding thread's heap. */
static inline cairo_surface_t *caption_surface_from_pixbuf(const GdkPixbuf *pixbuf, int scale) {
    int width = gdk_pixbuf_get_width(pixbuf);
    int height = gdk_pixbuf_get_height(pixbuf);
    int channels = gdk_pixbuf_get_n_channels(pixbuf);
    cairo_format_t format = channels == 3 ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32;
    int stride = cairo_format_stride_for_width(format, width);
    /* One page in front holds the mapping's length, for the unmapping. */
    size_t header = (size_t)sysconf(_SC_PAGESIZE);
    size_t length = header + (size_t)stride * (size_t)(height > 0 ? height : 1);
    void *mapping = stride > 0 ? mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                               : MAP_FAILED;
    if (mapping == MAP_FAILED) return cairo_image_surface_create(format, -1, -1); /* an error surface */
    ((size_t *)mapping)[0] = length;
    cairo_surface_t *surface =
        cairo_image_surface_create_for_data((unsigned char *)mapping + header, format, width, height, stride);
    /* The key is any address unique to the slot: the mapping's own (a static key in a
     * header imported by Swift is left undefined). */
    if (cairo_surface_set_user_data(surface, (const cairo_user_data_key_t *)mapping, mapping, caption_unmap_pixels) !=
        CAIRO_STATUS_SUCCESS) {
        munmap(mapping, length);
        cairo_surface_destroy(surface);
        return cairo_image_surface_create(format, -1, -1);
    }
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) return surface;
    cairo_surface_set_device_scale(surface, scale, scale);
    const guchar *source = gdk_pixbuf_read_pixels(pixbuf);
    size_t source_stride = (size_t)gdk_pixbuf_get_rowstride(pixbuf);
    unsigned char *target = cairo_image_surface_get_data(surface);
    size_t target_stride = (size_t)cairo_image_surface_get_stride(surface);
    for (int y = 0; y < height; y++) {
        const guchar *in = source + y * source_stride;
        guint32 *out = (guint32 *)(void *)(target + y * target_stride);
        if (channels == 3) {
            for (int x = 0; x < width; x++, in += 3)
                out[x] = 0xFF000000u | (guint32)in[0] << 16 | (guint32)in[1] << 8 | in[2];
        } else {
            for (int x = 0; x < width; x++, in += 4) {
                guint32 alpha = in[3], premultiplied[3];
                for (int c = 0; c < 3; c++) {
                    guint32 t = in[c] * alpha + 0x80;
                    premultiplied[c] = ((t >> 8) + t) >> 8;
                }
                out[x] = alpha << 24 | premultiplied[0] << 16 | premultiplied[1] << 8 | premultiplied[2];
            }
        }
    }
    cairo_surface_mark_dirty(surface);
    return surface;
}
