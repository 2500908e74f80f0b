# The window follows the desktop's dark preference, read from the settings portal (a
# stand-in on the scenario's bus) and followed when it changes.

import os
import subprocess

from harness import TIMEOUT, Failure, expect, wait_until

PORTAL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build-aux", "fake-settings-portal")


def start_portal(desktop, scheme):
    # GTK_THEME fixes the variant and would hide the preference: the theme comes from
    # settings.ini instead, as on a desktop.
    desktop.env.pop("GTK_THEME", None)
    with open(os.path.join(desktop.env["XDG_CONFIG_HOME"], "gtk-3.0", "settings.ini"), "a") as ini:
        ini.write("gtk-theme-name=Adwaita\n")
    portal = desktop.spawn("fake-settings-portal", ["/usr/bin/python3", PORTAL, str(scheme)],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    line = portal.stdout.readline().decode().strip()
    if line != "ready":
        raise Failure(f"the fake settings portal did not start: {line!r}")
    return portal


def background_brightness(desktop):
    """The mean brightness (0–255) of a strip of the window's content, below the header."""
    result = subprocess.run(["import", "-window", desktop.window_id, "-crop", "200x20+10+200", "-colorspace", "Gray",
                             "-format", "%[fx:int(255*mean)]", "info:"],
                            env=desktop.env, capture_output=True, timeout=TIMEOUT)
    if result.returncode != 0:
        raise Failure(f"import failed: {result.stderr!r}")
    return int(result.stdout.decode().strip())


def scenario_dark_preference_of_the_desktop_is_followed(desktop):
    """The portal says "prefer dark" as the app starts: the window is dark. The desktop
    switches to light: the window follows at once, without a restart."""
    portal = start_portal(desktop, 1)
    desktop.launch()
    wait_until("a dark window", lambda: background_brightness(desktop) < 100 or None)
    portal.stdin.write(b"2\n")
    portal.stdin.flush()
    wait_until("the window to turn light", lambda: background_brightness(desktop) > 180 or None)


def scenario_light_desktop_gives_a_light_window(desktop):
    """No dark preference (0): the theme's light look, as before."""
    start_portal(desktop, 0)
    desktop.launch()
    ui_light = wait_until("a light window", lambda: background_brightness(desktop) > 180 or None)
    expect(ui_light, "the window is not light")
