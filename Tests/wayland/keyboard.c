/* A keyboard for Wayland end-to-end tests: a zwp_virtual_keyboard_v1 with the standard us
 * keymap, driven by lines on standard input. GTK 3 ignores the named keys that wtype sends
 * (its keymap holds only what it types); this one keeps one keymap for every key.
 *   type TEXT       types TEXT (ASCII)
 *   key KEY[+KEY]   presses a combination: ctrl+s, Return, shift+Return, ctrl+z
 * Each command is answered "ok" once the compositor has received it. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/mman.h>
#include <wayland-client.h>
#include <xkbcommon/xkbcommon.h>
#include "virtual-keyboard-unstable-v1-client-protocol.h"

static struct wl_seat *seat;
static struct zwp_virtual_keyboard_manager_v1 *manager;
static struct zwp_virtual_keyboard_v1 *keyboard;
static struct xkb_keymap *keymap;
static struct wl_display *display;
static uint32_t now = 1;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data; (void)version;
    if (strcmp(interface, wl_seat_interface.name) == 0)
        seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    else if (strcmp(interface, zwp_virtual_keyboard_manager_v1_interface.name) == 0)
        manager = wl_registry_bind(registry, name, &zwp_virtual_keyboard_manager_v1_interface, 1);
}
static void global_remove(void *data, struct wl_registry *registry, uint32_t name) { (void)data; (void)registry; (void)name; }
static const struct wl_registry_listener registry_listener = { global, global_remove };

/* The keycode and shift level that give a keysym in the us keymap. */
static int find(xkb_keysym_t sym, xkb_keycode_t *found, int *shifted) {
    for (xkb_keycode_t code = xkb_keymap_min_keycode(keymap); code <= xkb_keymap_max_keycode(keymap); code++) {
        for (int level = 0; level < 2; level++) {
            const xkb_keysym_t *syms;
            int count = xkb_keymap_key_get_syms_by_level(keymap, code, 0, level, &syms);
            if (count == 1 && syms[0] == sym) { *found = code; *shifted = level; return 1; }
        }
    }
    return 0;
}

static void press(xkb_keycode_t code, uint32_t mods) {
    zwp_virtual_keyboard_v1_modifiers(keyboard, mods, 0, 0, 0);
    zwp_virtual_keyboard_v1_key(keyboard, now++, code - 8, WL_KEYBOARD_KEY_STATE_PRESSED);
    zwp_virtual_keyboard_v1_key(keyboard, now++, code - 8, WL_KEYBOARD_KEY_STATE_RELEASED);
    zwp_virtual_keyboard_v1_modifiers(keyboard, 0, 0, 0, 0);
    wl_display_roundtrip(display);
    usleep(15000);
}

static uint32_t mask(const char *name) {
    xkb_mod_index_t index = xkb_keymap_mod_get_index(keymap, name);
    return index == XKB_MOD_INVALID ? 0 : 1u << index;
}

static int combination(char *spec) {
    uint32_t mods = 0;
    char *part, *save = NULL, *last = NULL;
    for (part = strtok_r(spec, "+", &save); part; part = strtok_r(NULL, "+", &save)) {
        if (last) {
            if (!strcasecmp(last, "ctrl")) mods |= mask(XKB_MOD_NAME_CTRL);
            else if (!strcasecmp(last, "shift")) mods |= mask(XKB_MOD_NAME_SHIFT);
            else if (!strcasecmp(last, "alt")) mods |= mask(XKB_MOD_NAME_ALT);
            else return 0;
        }
        last = part;
    }
    if (!last) return 0;
    xkb_keysym_t sym = xkb_keysym_from_name(last, XKB_KEYSYM_NO_FLAGS);
    if (sym == XKB_KEY_NoSymbol) sym = xkb_keysym_from_name(last, XKB_KEYSYM_CASE_INSENSITIVE);
    xkb_keycode_t code; int shifted;
    if (sym == XKB_KEY_NoSymbol || !find(sym, &code, &shifted)) return 0;
    press(code, mods | (shifted ? mask(XKB_MOD_NAME_SHIFT) : 0));
    return 1;
}

static int type(const char *text) {
    for (const char *c = text; *c; c++) {
        xkb_keysym_t sym = xkb_utf32_to_keysym((uint32_t)(unsigned char)*c);
        xkb_keycode_t code; int shifted;
        if (!find(sym, &code, &shifted)) return 0;
        press(code, shifted ? mask(XKB_MOD_NAME_SHIFT) : 0);
    }
    return 1;
}

int main(void) {
    display = wl_display_connect(NULL);
    if (!display) { fprintf(stderr, "keyboard: no Wayland display\n"); return 1; }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!seat || !manager) { fprintf(stderr, "keyboard: the compositor has no virtual keyboard\n"); return 1; }
    struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
    struct xkb_rule_names names = { .rules = "evdev", .model = "pc105", .layout = "us" };
    keymap = xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS);
    if (!keymap) { fprintf(stderr, "keyboard: no us keymap\n"); return 1; }
    char *text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1);
    size_t size = strlen(text) + 1;
    int fd = memfd_create("keymap", MFD_CLOEXEC);
    if (fd < 0 || write(fd, text, size) != (ssize_t)size) { perror("keyboard: keymap"); return 1; }
    keyboard = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(manager, seat);
    zwp_virtual_keyboard_v1_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, size);
    wl_display_roundtrip(display);
    printf("ready\n");
    fflush(stdout);
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        int done = 0;
        if (!strncmp(line, "type ", 5)) done = type(line + 5);
        else if (!strncmp(line, "key ", 4)) done = combination(line + 4);
        printf(done ? "ok\n" : "error %s\n", line);
        fflush(stdout);
    }
    return 0;
}
