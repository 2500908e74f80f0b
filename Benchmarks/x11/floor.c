/* The floor for `make bench`: Caption's window built in plain C, the least its widgets can cost. */

/*
 * floor [--full] [PHOTO]
 *
 * What Caption's first frame shows, and nothing more: the header bar (title, view switcher,
 * primary menu, close button), the preview, the Photo, Title and Subtitle rows with the
 * "⏎ Next" hint, and the activate button, with the same CSS, at the same default size, as
 * a GtkApplication that takes the photo through `open` as Caption does. What Caption also
 * builds but does not show at first (the error bar, the notification, the message labels,
 * the library view, the actions) is left out, so the floor is what a C program needs for
 * the same pixels.
 *
 * A photo is decoded on a worker thread with gdk_pixbuf_new_from_file_at_scale to fit the
 * area the preview shows (the size Caption decodes to) and painted as Caption paints it;
 * --full decodes it whole with gdk_pixbuf_new_from_file and then scales it (the naive
 * way). Enter in Title or Subtitle moves to the other field, which is what Caption does
 * with a photo set and both fields empty.
 *
 * With CAPTION_STARTUP_TRACE set, it marks the phases of its start-up on standard error as
 * Caption does (`caption-startup PHASE NANOSECONDS`, CLOCK_MONOTONIC), for
 * Benchmarks/startup-timeline.py.
 */

#include <gtk/gtk.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *css =
    ".caption-content { padding: 18px; }\n"
    ".caption-preview { background-color: alpha(@theme_fg_color, 0.06); border-radius: 8px; }\n"
    ".caption-placeholder { font-size: 120%; }\n"
    ".caption-message { color: @error_color; font-size: 90%; }\n"
    "stackswitcher radio { -gtk-icon-source: none; }\n";

static gboolean full_decode;

static void mark(const char *phase);

/* The libraries mapped and their constructors run (Caption's CStartupTrace). */
__attribute__((constructor(101))) static void mark_loaded(void) { mark("loaded"); }

/* Each phase once, as Caption's StartupTrace marks it. */
static void mark(const char *phase)
{
    static const char *marked[16];
    static int count;
    if (!getenv("CAPTION_STARTUP_TRACE"))
        return;
    for (int index = 0; index < count; index++)
        if (!strcmp(marked[index], phase))
            return;
    if (count < 16)
        marked[count++] = phase;
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    char line[96];
    int length = snprintf(line, sizeof line, "caption-startup %s %lld\n", phase,
                          (long long)time.tv_sec * 1000000000LL + time.tv_nsec);
    if (write(2, line, length) < 0)
        return;
}

typedef struct {
    GtkWidget *window, *stack, *area, *photo_name, *title, *subtitle, *hints[2], *button;
    GdkPixbuf *pixbuf;
    guint request;
} Floor;

static Floor floor_window;

typedef struct {
    char *path;
    int width, height;
    guint request;
} Decode;

static GtkWidget *field_label(const char *text, GtkWidget *mnemonic_for)
{
    GtkWidget *label = mnemonic_for ? gtk_label_new_with_mnemonic(text) : gtk_label_new(text);
    if (mnemonic_for)
        gtk_label_set_mnemonic_widget(GTK_LABEL(label), mnemonic_for);
    gtk_label_set_xalign(GTK_LABEL(label), 1);
    gtk_style_context_add_class(gtk_widget_get_style_context(label), "dim-label");
    return label;
}

static gboolean draw(GtkWidget *area, cairo_t *cairo, gpointer unused)
{
    (void)unused;
    GdkPixbuf *pixbuf = floor_window.pixbuf;
    if (!pixbuf)
        return FALSE;
    double width = gtk_widget_get_allocated_width(area), height = gtk_widget_get_allocated_height(area);
    double photo_width = gdk_pixbuf_get_width(pixbuf), photo_height = gdk_pixbuf_get_height(pixbuf);
    double scale = MIN(width / photo_width, height / photo_height);
    cairo_save(cairo);
    /* Whole pixels: at scale 1 the paint is then a plain copy. */
    cairo_translate(cairo, (int)((width - photo_width * scale) / 2), (int)((height - photo_height * scale) / 2));
    cairo_scale(cairo, scale, scale);
    gdk_cairo_set_source_pixbuf(cairo, pixbuf, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cairo), CAIRO_FILTER_GOOD);
    cairo_paint(cairo);
    cairo_restore(cairo);
    mark("photo-painted");
    return FALSE;
}

static gboolean window_drawn(GtkWidget *window, cairo_t *cairo, gpointer unused)
{
    (void)window;
    (void)cairo;
    (void)unused;
    mark("first-frame");
    return FALSE;
}

/* The area the preview shows, in device pixels: Caption's own rule. */
static void wanted_area(int *width, int *height)
{
    GtkWidget *stack = floor_window.stack;
    int scale = MAX(gtk_widget_get_scale_factor(stack), 1);
    *width = MAX(gtk_widget_get_allocated_width(stack), 360) * scale;
    *height = MAX(gtk_widget_get_allocated_height(stack), 240) * scale;
}

static void decode_in_thread(GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
    (void)source;
    (void)cancellable;
    Decode *decode = data;
    GError *error = NULL;
    GdkPixbuf *pixbuf;
    if (full_decode) {
        GdkPixbuf *whole = gdk_pixbuf_new_from_file(decode->path, &error);
        pixbuf = NULL;
        if (whole) {
            int width = gdk_pixbuf_get_width(whole), height = gdk_pixbuf_get_height(whole);
            double scale = MIN((double)decode->width / width, (double)decode->height / height);
            pixbuf = gdk_pixbuf_scale_simple(whole, MAX(1, (int)(width * scale + 0.5)),
                                             MAX(1, (int)(height * scale + 0.5)), GDK_INTERP_BILINEAR);
            g_object_unref(whole);
        }
    } else {
        pixbuf = gdk_pixbuf_new_from_file_at_scale(decode->path, decode->width, decode->height, TRUE, &error);
    }
    if (pixbuf)
        g_task_return_pointer(task, pixbuf, g_object_unref);
    else
        g_task_return_error(task, error);
}

static void decoded(GObject *source, GAsyncResult *result, gpointer data)
{
    (void)source;
    Decode *decode = data;
    GdkPixbuf *pixbuf = g_task_propagate_pointer(G_TASK(result), NULL);
    if (pixbuf && decode->request == floor_window.request) {
        g_clear_object(&floor_window.pixbuf);
        floor_window.pixbuf = pixbuf;
        mark("photo-decoded");
        gtk_stack_set_visible_child_name(GTK_STACK(floor_window.stack), "photo");
        gtk_widget_queue_draw(floor_window.area);
    } else if (pixbuf) {
        g_object_unref(pixbuf);
    }
    g_free(decode->path);
    g_free(decode);
}

static void load(const char *path)
{
    const char *slash = strrchr(path, '/');
    gtk_label_set_text(GTK_LABEL(floor_window.photo_name), slash ? slash + 1 : path);
    Decode *decode = g_new0(Decode, 1);
    decode->path = g_strdup(path);
    wanted_area(&decode->width, &decode->height);
    decode->request = ++floor_window.request;
    GTask *task = g_task_new(NULL, NULL, decoded, decode);
    g_task_set_task_data(task, decode, NULL);
    g_task_run_in_thread(task, decode_in_thread);
    g_object_unref(task);
    gtk_widget_grab_focus(floor_window.title);
}

/* The "⏎ Next" hint follows focus, as Caption's does. */
static void focus_changed(GtkWindow *window, GtkWidget *widget, gpointer unused)
{
    (void)window;
    (void)unused;
    gtk_label_set_text(GTK_LABEL(floor_window.hints[0]), widget == floor_window.title ? "⏎ Next" : "");
    gtk_label_set_text(GTK_LABEL(floor_window.hints[1]), widget == floor_window.subtitle ? "⏎ Next" : "");
}

static void entry_activated(GtkEntry *entry, gpointer unused)
{
    (void)unused;
    gtk_widget_grab_focus(GTK_WIDGET(entry) == floor_window.title ? floor_window.subtitle : floor_window.title);
}

static void build(GtkApplication *application)
{
    mark("window-start");
    GtkWidget *window = gtk_application_window_new(application);
    floor_window.window = window;
    gtk_window_set_title(GTK_WINDOW(window), "Caption");
    gtk_window_set_icon_name(GTK_WINDOW(window), "io.github.caption_app.Caption");
    gtk_window_set_default_size(GTK_WINDOW(window), 720, 640);

    GtkWidget *header = gtk_header_bar_new();
    gtk_header_bar_set_title(GTK_HEADER_BAR(header), "Caption");
    gtk_header_bar_set_show_close_button(GTK_HEADER_BAR(header), TRUE);
    gtk_window_set_titlebar(GTK_WINDOW(window), header);
    /* A menu button without a menu would be drawn insensitive. */
    GMenu *menu = g_menu_new();
    g_menu_append(menu, "_Keyboard Shortcuts", "win.show-shortcuts");
    g_menu_append(menu, "_About Caption", "win.about");
    GtkWidget *menu_button = gtk_menu_button_new();
    gtk_menu_button_set_menu_model(GTK_MENU_BUTTON(menu_button), G_MENU_MODEL(menu));
    g_object_unref(menu);
    gtk_button_set_image(GTK_BUTTON(menu_button), gtk_image_new_from_icon_name("open-menu-symbolic", GTK_ICON_SIZE_BUTTON));
    gtk_widget_set_tooltip_text(menu_button, "Main Menu");
    gtk_header_bar_pack_end(GTK_HEADER_BAR(header), menu_button);
    GtkWidget *views = gtk_stack_new();
    GtkWidget *switcher = gtk_stack_switcher_new();
    gtk_stack_switcher_set_stack(GTK_STACK_SWITCHER(switcher), GTK_STACK(views));
    gtk_header_bar_pack_start(GTK_HEADER_BAR(header), switcher);

    GtkWidget *content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 18);
    gtk_style_context_add_class(gtk_widget_get_style_context(content), "caption-content");

    GtkWidget *stack = gtk_stack_new();
    floor_window.stack = stack;
    floor_window.area = gtk_drawing_area_new();
    GtkWidget *placeholder = gtk_label_new("No photo — press Ctrl+O");
    gtk_style_context_add_class(gtk_widget_get_style_context(placeholder), "dim-label");
    gtk_style_context_add_class(gtk_widget_get_style_context(placeholder), "caption-placeholder");
    gtk_style_context_add_class(gtk_widget_get_style_context(stack), "caption-preview");
    gtk_widget_set_size_request(stack, 360, 240);
    gtk_widget_set_vexpand(stack, TRUE);
    gtk_widget_set_hexpand(stack, TRUE);
    gtk_stack_add_named(GTK_STACK(stack), placeholder, "empty");
    gtk_stack_add_named(GTK_STACK(stack), floor_window.area, "photo");
    g_signal_connect(floor_window.area, "draw", G_CALLBACK(draw), NULL);
    gtk_box_pack_start(GTK_BOX(content), stack, TRUE, TRUE, 0);

    GtkWidget *grid = gtk_grid_new();
    gtk_grid_set_row_spacing(GTK_GRID(grid), 6);
    gtk_grid_set_column_spacing(GTK_GRID(grid), 12);
    gtk_box_pack_start(GTK_BOX(content), grid, FALSE, FALSE, 0);

    GtkWidget *photo_button = gtk_button_new_with_mnemonic("Choose _Photo…");
    floor_window.photo_name = gtk_label_new("");
    gtk_label_set_ellipsize(GTK_LABEL(floor_window.photo_name), PANGO_ELLIPSIZE_MIDDLE);
    gtk_label_set_xalign(GTK_LABEL(floor_window.photo_name), 0);
    gtk_style_context_add_class(gtk_widget_get_style_context(floor_window.photo_name), "dim-label");
    GtkWidget *photo_row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
    gtk_box_pack_start(GTK_BOX(photo_row), photo_button, FALSE, FALSE, 0);
    gtk_box_pack_start(GTK_BOX(photo_row), floor_window.photo_name, TRUE, TRUE, 0);
    gtk_grid_attach(GTK_GRID(grid), field_label("Photo", NULL), 0, 0, 1, 1);
    gtk_grid_attach(GTK_GRID(grid), photo_row, 1, 0, 1, 1);

    floor_window.title = gtk_entry_new();
    floor_window.subtitle = gtk_entry_new();
    gtk_entry_set_placeholder_text(GTK_ENTRY(floor_window.title), "What the photo shows");
    gtk_entry_set_placeholder_text(GTK_ENTRY(floor_window.subtitle), "A line about it");
    gtk_grid_attach(GTK_GRID(grid), field_label("_Title", floor_window.title), 0, 2, 1, 1);
    gtk_grid_attach(GTK_GRID(grid), floor_window.title, 1, 2, 1, 1);
    gtk_grid_attach(GTK_GRID(grid), field_label("_Subtitle", floor_window.subtitle), 0, 4, 1, 1);
    gtk_grid_attach(GTK_GRID(grid), floor_window.subtitle, 1, 4, 1, 1);
    gtk_widget_set_hexpand(floor_window.title, TRUE);
    g_signal_connect(floor_window.title, "activate", G_CALLBACK(entry_activated), NULL);
    g_signal_connect(floor_window.subtitle, "activate", G_CALLBACK(entry_activated), NULL);

    for (int index = 0; index < 2; index++) {
        GtkWidget *hint = gtk_label_new("");
        gtk_label_set_width_chars(GTK_LABEL(hint), 8);
        gtk_label_set_xalign(GTK_LABEL(hint), 0);
        gtk_style_context_add_class(gtk_widget_get_style_context(hint), "dim-label");
        gtk_grid_attach(GTK_GRID(grid), hint, 2, 2 + 2 * index, 1, 1);
        floor_window.hints[index] = hint;
    }

    GtkWidget *button = gtk_button_new_with_label("Next");
    floor_window.button = button;
    gtk_style_context_add_class(gtk_widget_get_style_context(button), "suggested-action");
    gtk_widget_set_can_default(button, TRUE);
    gtk_widget_set_focus_on_click(button, FALSE);
    gtk_widget_set_size_request(button, 96, -1);
    GtkWidget *button_row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    gtk_box_pack_end(GTK_BOX(button_row), button, FALSE, FALSE, 0);
    gtk_box_pack_start(GTK_BOX(content), button_row, FALSE, FALSE, 0);

    mark("form-built");
    gtk_stack_add_titled(GTK_STACK(views), content, "form", "Caption");
    gtk_stack_add_titled(GTK_STACK(views), gtk_box_new(GTK_ORIENTATION_VERTICAL, 0), "library", "Library");
    gtk_container_add(GTK_CONTAINER(window), views);
    gtk_window_set_default(GTK_WINDOW(window), button);

    GtkCssProvider *provider = gtk_css_provider_new();
    gtk_css_provider_load_from_data(provider, css, -1, NULL);
    gtk_style_context_add_provider_for_screen(gdk_screen_get_default(), GTK_STYLE_PROVIDER(provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    g_object_unref(provider);
    mark("style");

    g_signal_connect_after(window, "set-focus", G_CALLBACK(focus_changed), NULL);
    g_signal_connect_after(window, "draw", G_CALLBACK(window_drawn), NULL);

    gtk_widget_show_all(window);
    gtk_widget_grab_focus(photo_button);
    mark("window-shown");
}

static void present(GtkApplication *application, GFile **files, int count)
{
    if (!floor_window.window)
        build(application);
    if (count > 0) {
        char *path = g_file_get_path(files[0]);
        if (path)
            load(path);
        g_free(path);
    }
    gtk_window_present(GTK_WINDOW(floor_window.window));
}

/* GtkApplication's own startup, run before this, has initialised GTK and registered. */
static void started(GtkApplication *application, gpointer unused)
{
    (void)application;
    (void)unused;
    mark("registered");
}

static void activated(GtkApplication *application, gpointer unused)
{
    (void)unused;
    present(application, NULL, 0);
}

static void opened(GtkApplication *application, GFile **files, int count, const char *hint, gpointer unused)
{
    (void)hint;
    (void)unused;
    present(application, files, count);
}

int main(int argc, char **argv)
{
    mark("main");
    if (argc > 1 && !strcmp(argv[1], "--full")) {
        full_decode = TRUE;
        argv[1] = argv[0];
        argv++;
        argc--;
    }
    GtkApplication *application = gtk_application_new("io.github.caption_app.CaptionFloor", G_APPLICATION_HANDLES_OPEN);
    g_signal_connect_after(application, "startup", G_CALLBACK(started), NULL);
    g_signal_connect(application, "activate", G_CALLBACK(activated), NULL);
    g_signal_connect(application, "open", G_CALLBACK(opened), NULL);
    int status = g_application_run(G_APPLICATION(application), argc, argv);
    g_object_unref(application);
    return status;
}
