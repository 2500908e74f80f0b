/* Times a GTK program from outside, through the X server: first paint, Enter latency, photo preview and photo-to-photo. */

/*
 * probe start   [--settle-ms N] [--x F --y F] [--photo RRGGBB] -- PROGRAM ARG...
 *     Starts PROGRAM and waits for its top-level window: MapNotify, then the first XDamage
 *     of that window (the first paint). Prints map_ms, paint_ms (from just before the
 *     process was spawned), the main thread's CPU time and the process's VmHWM, read at
 *     that moment; with --settle-ms, VmHWM again once the window has not painted for N ms,
 *     and whether the pixel at (F×width, F×height) was already final in the first frame
 *     (for Caption and the floor: whether the photo made it into the first paint). With
 *     --photo, it also waits until that pixel shows the photo's colour (each channel
 *     within 40) and prints photo_ms, spawn to the photo visible. spawned_ms is the spawn
 *     on CLOCK_MONOTONIC, which a program's own marks of its start-up use too.
 * probe enter   --presses N -- PROGRAM ARG...
 *     After the first paint and a quiet spell, focuses the window and presses Return N
 *     times through XTest, each from a window that has not painted for 40 ms; a latency
 *     runs from the press to the next XDamage of the window (the repaint that shows focus
 *     in the next field).
 * probe preview --open URI --app-id ID --x F --y F [--tail-ms N] -- PROGRAM ARG...
 *     After the first paint and a quiet spell, asks the running program to open URI
 *     (org.gtk.Application.Open over the session bus, as `caption PHOTO` does when an
 *     instance runs) and times it until the pixel at (F×width, F×height) of the window
 *     turns magenta: the generated photo is painted. Meanwhile, and for --tail-ms after,
 *     the window is pinged (_NET_WM_PING, which GDK answers from the main loop) one ping
 *     at a time, a millisecond apart; the longest round trip is the longest main-loop
 *     stall (or the X server's: a user waits on either).
 * probe queue   --photos N [--dwell-ms N] [--stops K] --x F --y F -- PROGRAM PHOTO...
 *     PROGRAM starts with a queue of N photos, magenta and green in turn. Once the first is
 *     painted, for each photo: types "t" (Title), Return, "s" (Subtitle), waits --dwell-ms
 *     (a person reads and types for longer), then presses Return (Done) and times it until
 *     the pixel at (F×width, F×height) turns the next photo's colour. The words land where
 *     they belong only if Title had the focus when the next photo came: the caller checks
 *     the library for N-1 entries titled "t" with the subtitle "s". With --stops K, Return
 *     is pressed K more times after "s" (a form with K optional fields left empty), before
 *     the dwell; the Return timed is the last, the Done.
 *
 * Every mode prints one JSON object on stdout and ends the program (SIGTERM, then SIGKILL).
 * Watching X instead of instrumenting the program means peers (yad, zenity) and the C
 * floor are timed exactly as the app is.
 */

#define _GNU_SOURCE
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XTest.h>
#include <X11/extensions/Xdamage.h>
#include <X11/keysym.h>
#include <errno.h>
#include <gio/gio.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define MAX_WINDOWS 64

static Display *display;
static Window root;
static int damage_event_base, damage_error_base;
static pid_t child;
static double spawned_at;

/* Damage objects are made for every top-level window as soon as it is created, so that no
 * paint can come before the watch does. */
static struct {
    Window window;
    Damage damage;
} watched[MAX_WINDOWS];
static int watched_count;

static Window target;           /* the program's mapped top-level window */
static int target_width, target_height;
static double target_mapped_at = -1;

static double now_ms(void)
{
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return time.tv_sec * 1000.0 + time.tv_nsec / 1e6;
}

static void die(const char *message)
{
    fprintf(stderr, "probe: %s\n", message);
    if (child > 0) {
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
    }
    exit(1);
}

/* Windows vanish and InputOnly windows refuse damage objects; neither is a failure. */
static int ignore_errors(Display *unused, XErrorEvent *error)
{
    (void)unused;
    (void)error;
    return 0;
}

static pid_t window_pid(Window window)
{
    Atom type;
    int format;
    unsigned long count, after;
    unsigned char *data = NULL;
    pid_t pid = 0;
    Atom property = XInternAtom(display, "_NET_WM_PID", False);
    if (XGetWindowProperty(display, window, property, 0, 1, False, XA_CARDINAL, &type, &format, &count,
                           &after, &data) == Success && data && count == 1 && format == 32)
        pid = (pid_t) * (unsigned long *)data;
    if (data)
        XFree(data);
    return pid;
}

static Damage damage_of(Window window)
{
    for (int index = 0; index < watched_count; index++)
        if (watched[index].window == window)
            return watched[index].damage;
    return 0;
}

/* The next event, or 0 when none came within `timeout` ms. */
static int next_event(XEvent *event, double timeout)
{
    double deadline = now_ms() + timeout;
    while (!XPending(display)) {
        double left = deadline - now_ms();
        if (left <= 0)
            return 0;
        struct pollfd descriptor = {.fd = ConnectionNumber(display), .events = POLLIN};
        int ready = poll(&descriptor, 1, left < 1 ? 1 : (int)left);
        if (ready < 0 && errno != EINTR)
            die("poll failed");
    }
    XNextEvent(display, event);
    return 1;
}

/* Keeps track of windows; returns 1 for a damage event of the target window (and clears
 * its damage, so that the next paint reports again). */
static int handle(XEvent *event)
{
    if (event->type == CreateNotify) {
        XCreateWindowEvent *created = &event->xcreatewindow;
        if (created->parent == root && !created->override_redirect && watched_count < MAX_WINDOWS) {
            watched[watched_count].window = created->window;
            watched[watched_count].damage = XDamageCreate(display, created->window, XDamageReportNonEmpty);
            watched_count++;
        }
    } else if (event->type == MapNotify && target == 0) {
        XMapEvent *mapped = &event->xmap;
        if (mapped->event == root && !mapped->override_redirect && damage_of(mapped->window)) {
            pid_t pid = window_pid(mapped->window);
            if (pid == 0 || pid == child) {
                target = mapped->window;
                target_mapped_at = now_ms();
                XWindowAttributes attributes;
                if (XGetWindowAttributes(display, target, &attributes)) {
                    target_width = attributes.width;
                    target_height = attributes.height;
                }
            }
        }
    } else if (event->type == ConfigureNotify && event->xconfigure.window == target && target) {
        target_width = event->xconfigure.width;
        target_height = event->xconfigure.height;
    } else if (event->type == damage_event_base + XDamageNotify) {
        XDamageNotifyEvent *damage = (XDamageNotifyEvent *)event;
        XDamageSubtract(display, damage->damage, None, None);
        return target && damage->drawable == target;
    }
    return 0;
}

static void spawn(char **argv)
{
    XSelectInput(display, root, SubstructureNotifyMask);
    XSync(display, False);
    spawned_at = now_ms();
    if (posix_spawnp(&child, argv[0], NULL, NULL, argv, environ) != 0)
        die("cannot start the program");
}

static void finish(void)
{
    if (child <= 0)
        return;
    kill(child, SIGTERM);
    double deadline = now_ms() + 3000;
    int status;
    while (waitpid(child, &status, WNOHANG) == 0) {
        if (now_ms() > deadline) {
            kill(child, SIGKILL);
            waitpid(child, &status, 0);
            break;
        }
        usleep(2000);
    }
    child = 0;
}

/* Waits for the target's first paint; returns its time. */
static double wait_first_paint(double timeout)
{
    double deadline = now_ms() + timeout;
    XEvent event;
    for (;;) {
        double left = deadline - now_ms();
        if (left <= 0 || !next_event(&event, left))
            die("the program showed no window in time");
        if (handle(&event) && target_mapped_at >= 0)
            return now_ms();
        int status;
        if (waitpid(child, &status, WNOHANG) == child) {
            child = 0;
            die("the program ended before it painted");
        }
    }
}

/* Waits until the target has not painted for `quiet` ms (at most `timeout` ms). */
static void wait_quiet(double quiet, double timeout)
{
    double deadline = now_ms() + timeout, last = now_ms();
    XEvent event;
    while (now_ms() < deadline && now_ms() - last < quiet) {
        if (next_event(&event, quiet - (now_ms() - last)) && handle(&event))
            last = now_ms();
    }
}

static long status_kb(const char *key)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)child);
    FILE *file = fopen(path, "r");
    long value = -1;
    if (!file)
        return -1;
    size_t length = strlen(key);
    while (fgets(line, sizeof line, file))
        if (strncmp(line, key, length) == 0 && line[length] == ':') {
            value = strtol(line + length + 1, NULL, 10);
            break;
        }
    fclose(file);
    return value;
}

/* CPU time the program's main thread has run, in ms (the first field of schedstat, in
 * ns): the work on the path to the first paint, without the time spent waiting for a
 * core on a busy machine. */
static double main_thread_cpu_ms(void)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/schedstat", (int)child);
    FILE *file = fopen(path, "r");
    unsigned long long nanoseconds = 0;
    if (!file)
        return -1;
    if (fscanf(file, "%llu", &nanoseconds) != 1)
        nanoseconds = 0;
    fclose(file);
    return nanoseconds / 1e6;
}

/* --- modes --- */

static unsigned long pixel_at(double fx, double fy)
{
    XImage *image = XGetImage(display, target, (int)(fx * target_width), (int)(fy * target_height), 1, 1,
                              AllPlanes, ZPixmap);
    if (!image)
        return 0;
    unsigned long pixel = XGetPixel(image, 0, 0);
    XDestroyImage(image);
    return pixel & 0xffffff;
}

/* Whether `pixel` is `colour`, give or take what a JPEG's rounding and a scale change. */
static int near_colour(unsigned long pixel, long colour)
{
    for (int shift = 0; shift < 24; shift += 8) {
        long difference = (long)((pixel >> shift) & 0xff) - ((colour >> shift) & 0xff);
        if (difference > 40 || difference < -40)
            return 0;
    }
    return 1;
}

/* Waits until the pixel at (fx, fy) of the target shows `colour`; returns the time. */
static double wait_colour(double fx, double fy, long colour, double timeout)
{
    double deadline = now_ms() + timeout;
    XEvent event;
    while (!near_colour(pixel_at(fx, fy), colour)) {
        double left = deadline - now_ms();
        if (left <= 0 || !next_event(&event, left))
            die("the photo was not painted in time");
        while (!handle(&event)) {
            left = deadline - now_ms();
            if (left <= 0 || !next_event(&event, left))
                die("the photo was not painted in time");
        }
    }
    return now_ms();
}

static int run_start(char **argv, double settle, double fx, double fy, long photo)
{
    spawn(argv);
    double painted = wait_first_paint(20000);
    long hwm = status_kb("VmHWM");
    double cpu = main_thread_cpu_ms();
    double mapped = target_mapped_at;
    /* GTK copies a whole frame to the window in one request, so the first damage already
     * shows all of the first frame. */
    unsigned long first = pixel_at(fx, fy), last = first;
    double photo_visible = photo >= 0 ? wait_colour(fx, fy, photo, 20000) : -1;
    long settled_hwm = hwm;
    if (settle > 0) {
        wait_quiet(settle, 5000);
        settled_hwm = status_kb("VmHWM");
        last = pixel_at(fx, fy);
    }
    finish();
    printf("{\"map_ms\": %.3f, \"paint_ms\": %.3f, \"main_cpu_ms\": %.3f, \"hwm_kb\": %ld, "
           "\"settled_hwm_kb\": %ld, \"first_frame_final\": %s, \"spawned_ms\": %.3f",
           mapped - spawned_at, painted - spawned_at, cpu, hwm, settled_hwm, first == last ? "true" : "false",
           spawned_at);
    if (photo >= 0)
        printf(", \"photo_ms\": %.3f, \"photo_in_first_frame\": %s", photo_visible - spawned_at,
               near_colour(first, photo) ? "true" : "false");
    printf("}\n");
    return 0;
}

static int run_enter(char **argv, int presses)
{
    spawn(argv);
    wait_first_paint(20000);
    wait_quiet(400, 10000);
    XSetInputFocus(display, target, RevertToParent, CurrentTime);
    XFlush(display);
    wait_quiet(300, 10000);
    KeyCode enter = XKeysymToKeycode(display, XK_Return);
    double *latencies = calloc(presses, sizeof *latencies);
    int missed = 0;
    XEvent event;
    for (int press = 0; press < presses; press++) {
        XTestFakeKeyEvent(display, enter, True, CurrentTime);
        XFlush(display);
        double pressed = now_ms();
        latencies[press] = -1;
        while (now_ms() - pressed < 1000) {
            if (next_event(&event, 1000 - (now_ms() - pressed)) && handle(&event)) {
                latencies[press] = now_ms() - pressed;
                break;
            }
        }
        XTestFakeKeyEvent(display, enter, False, CurrentTime);
        XFlush(display);
        if (latencies[press] < 0) {
            missed++;
            latencies[press] = 1000;
        }
        /* A quiet spell apart, so that each press starts from an idle window, as a
         * person's keystrokes do. */
        wait_quiet(40, 2000);
    }
    finish();
    printf("{\"presses\": %d, \"missed\": %d, \"latencies_ms\": [", presses, missed);
    for (int press = 0; press < presses; press++)
        printf("%s%.3f", press ? ", " : "", latencies[press]);
    printf("]}\n");
    free(latencies);
    return missed == presses;
}

/* Whether the pixel at (x, y) of the target is the generated photo's magenta. */
static int shows_photo(double fx, double fy)
{
    unsigned long pixel = pixel_at(fx, fy);
    int red = (pixel >> 16) & 0xff, green = (pixel >> 8) & 0xff, blue = pixel & 0xff;
    return red > 160 && blue > 160 && green < 100;
}

/* Whether the pixel at (x, y) of the target is the generated queue's green. */
static int shows_green(double fx, double fy)
{
    unsigned long pixel = pixel_at(fx, fy);
    int red = (pixel >> 16) & 0xff, green = (pixel >> 8) & 0xff, blue = pixel & 0xff;
    return green > 160 && red < 100 && blue < 100;
}

/* Whether the queue's photo `index` (0-based: even magenta, odd green) is on the screen. */
static int shows_queue_photo(int index, double fx, double fy)
{
    return index % 2 == 0 ? shows_photo(fx, fy) : shows_green(fx, fy);
}

/* Presses and releases one key through XTest, then lets the window answer it. */
static void type_key(KeySym symbol)
{
    KeyCode code = XKeysymToKeycode(display, symbol);
    XTestFakeKeyEvent(display, code, True, CurrentTime);
    XTestFakeKeyEvent(display, code, False, CurrentTime);
    XFlush(display);
    wait_quiet(40, 2000);
}

static int run_queue(char **argv, int photos, double dwell, int stops, double fx, double fy)
{
    spawn(argv);
    wait_first_paint(20000);
    XEvent event;
    double deadline = now_ms() + 30000;
    while (!shows_queue_photo(0, fx, fy)) {
        if (now_ms() > deadline)
            die("the first photo never showed");
        if (next_event(&event, 50))
            handle(&event);
    }
    wait_quiet(500, 10000);
    XSetInputFocus(display, target, RevertToParent, CurrentTime);
    XFlush(display);
    wait_quiet(300, 10000);
    KeyCode enter = XKeysymToKeycode(display, XK_Return);
    int transitions = photos - 1, missed = 0;
    double *latencies = calloc(transitions > 0 ? transitions : 1, sizeof *latencies);
    for (int index = 0; index < transitions; index++) {
        type_key(XK_t);
        type_key(XK_Return);
        type_key(XK_s);
        for (int stop = 0; stop < stops; stop++)
            type_key(XK_Return);
        /* Time to read, think and type: the app may use it to get the next photo ready. */
        usleep((useconds_t)(dwell * 1000));
        wait_quiet(40, 2000);
        XTestFakeKeyEvent(display, enter, True, CurrentTime);
        XFlush(display);
        double pressed = now_ms();
        latencies[index] = -1;
        while (now_ms() - pressed < 5000) {
            if (next_event(&event, 5000 - (now_ms() - pressed)) && handle(&event) &&
                shows_queue_photo(index + 1, fx, fy)) {
                latencies[index] = now_ms() - pressed;
                break;
            }
        }
        XTestFakeKeyEvent(display, enter, False, CurrentTime);
        XFlush(display);
        if (latencies[index] < 0) {
            missed++;
            latencies[index] = 5000;
            /* Out of step: the rest would measure nothing. */
            transitions = index + 1;
            break;
        }
        wait_quiet(40, 2000);
    }
    /* Lets the last save reach the library before the program is ended. */
    wait_quiet(1000, 10000);
    finish();
    printf("{\"photos\": %d, \"missed\": %d, \"latencies_ms\": [", photos, missed);
    for (int index = 0; index < transitions; index++)
        printf("%s%.3f", index ? ", " : "", latencies[index]);
    printf("]}\n");
    free(latencies);
    return missed > 0;
}

static void send_open(GDBusConnection *bus, const char *app_id, const char *uri)
{
    char path[256];
    snprintf(path, sizeof path, "/%s", app_id);
    for (char *cursor = path; *cursor; cursor++) {
        if (*cursor == '.')
            *cursor = '/';
        else if (*cursor == '-')
            *cursor = '_';
    }
    const char *uris[] = {uri, NULL};
    GVariantBuilder platform;
    g_variant_builder_init(&platform, G_VARIANT_TYPE("a{sv}"));
    /* No callback: sent without waiting for a reply, so the probe keeps watching X. */
    g_dbus_connection_call(bus, app_id, path, "org.gtk.Application", "Open",
                           g_variant_new("(^assa{sv})", uris, "", &platform), NULL, G_DBUS_CALL_FLAGS_NONE, -1,
                           NULL, NULL, NULL);
    g_dbus_connection_flush_sync(bus, NULL, NULL);
}

static int run_preview(char **argv, const char *uri, const char *app_id, double fx, double fy, double tail)
{
    GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, NULL);
    if (!bus)
        die("no session bus");
    Atom protocols = XInternAtom(display, "WM_PROTOCOLS", False);
    Atom ping = XInternAtom(display, "_NET_WM_PING", False);
    spawn(argv);
    wait_first_paint(20000);
    wait_quiet(500, 10000);
    if (shows_photo(fx, fy))
        die("the window shows magenta before the photo was asked for");

    double requested = now_ms(), painted = -1, stall = 0, ping_sent = -1;
    long serial = 0, answered = 0;
    send_open(bus, app_id, uri);
    XEvent event;
    for (;;) {
        double now = now_ms();
        if (painted >= 0 && now - painted >= tail)
            break;
        if (now - requested > 30000)
            die("the photo never showed");
        if (ping_sent < 0) {
            XEvent message = {0};
            message.xclient.type = ClientMessage;
            message.xclient.window = target;
            message.xclient.message_type = protocols;
            message.xclient.format = 32;
            message.xclient.data.l[0] = (long)ping;
            message.xclient.data.l[1] = ++serial;
            message.xclient.data.l[2] = (long)target;
            XSendEvent(display, target, False, NoEventMask, &message);
            XFlush(display);
            ping_sent = now_ms();
        }
        if (!next_event(&event, 5))
            continue;
        if (event.type == ClientMessage && event.xclient.message_type == protocols &&
            (Atom)event.xclient.data.l[0] == ping && event.xclient.data.l[1] == serial) {
            double trip = now_ms() - ping_sent;
            if (trip > stall)
                stall = trip;
            answered++;
            ping_sent = -1;
            /* One ping per millisecond at most: the probe must not load the program. */
            usleep(1000);
            continue;
        }
        if (handle(&event) && painted < 0 && shows_photo(fx, fy))
            painted = now_ms();
    }
    if (ping_sent >= 0 && now_ms() - ping_sent > stall)
        stall = now_ms() - ping_sent;
    finish();
    printf("{\"preview_ms\": %.3f, \"max_stall_ms\": %.3f, \"pings\": %ld}\n", painted - requested, stall, answered);
    g_object_unref(bus);
    return 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: probe start [--settle-ms N] [--x F --y F] [--photo RRGGBB] -- PROGRAM ARG...\n"
                    "       probe enter --presses N -- PROGRAM ARG...\n"
                    "       probe preview --open URI --app-id ID --x F --y F [--tail-ms N] -- PROGRAM ARG...\n"
                    "       probe queue --photos N [--dwell-ms N] [--stops K] --x F --y F -- PROGRAM PHOTO...\n");
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        usage();
    const char *mode = argv[1], *uri = NULL, *app_id = NULL;
    int presses = 200, photos = 0, stops = 0;
    double fx = 0.5, fy = 0.3, tail = 1000, settle = 0, dwell = 1500;
    long photo = -1;
    int index = 2;
    for (; index < argc && strcmp(argv[index], "--") != 0; index += 2) {
        if (index + 1 >= argc)
            usage();
        const char *option = argv[index], *value = argv[index + 1];
        if (!strcmp(option, "--presses"))
            presses = atoi(value);
        else if (!strcmp(option, "--open"))
            uri = value;
        else if (!strcmp(option, "--app-id"))
            app_id = value;
        else if (!strcmp(option, "--x"))
            fx = atof(value);
        else if (!strcmp(option, "--y"))
            fy = atof(value);
        else if (!strcmp(option, "--tail-ms"))
            tail = atof(value);
        else if (!strcmp(option, "--settle-ms"))
            settle = atof(value);
        else if (!strcmp(option, "--photos"))
            photos = atoi(value);
        else if (!strcmp(option, "--dwell-ms"))
            dwell = atof(value);
        else if (!strcmp(option, "--stops"))
            stops = atoi(value);
        else if (!strcmp(option, "--photo"))
            photo = strtol(value, NULL, 16);
        else
            usage();
    }
    if (index >= argc - 1)
        usage();
    char **program = argv + index + 1;

    display = XOpenDisplay(NULL);
    if (!display)
        die("cannot open the display");
    XSetErrorHandler(ignore_errors);
    root = DefaultRootWindow(display);
    int major, minor;
    if (!XDamageQueryExtension(display, &damage_event_base, &damage_error_base))
        die("no DAMAGE extension");
    if (!XTestQueryExtension(display, &major, &minor, &major, &minor))
        die("no XTEST extension");

    if (!strcmp(mode, "start"))
        return run_start(program, settle, fx, fy, photo);
    if (!strcmp(mode, "enter"))
        return run_enter(program, presses);
    if (!strcmp(mode, "preview")) {
        if (!uri || !app_id)
            usage();
        return run_preview(program, uri, app_id, fx, fy, tail);
    }
    if (!strcmp(mode, "queue")) {
        if (photos < 2)
            usage();
        return run_queue(program, photos, dwell, stops, fx, fy);
    }
    usage();
}
