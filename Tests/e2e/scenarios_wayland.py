# The core flows on Wayland: headless sway without Xwayland, GDK_BACKEND=wayland, keys from
# a virtual keyboard (wayland.py). What the user sees is read from sway and the library.

import json
import subprocess

from harness import TIMEOUT, expect, wait_until
from wayland import APP_ID, as_user, wayland


@wayland
def scenario_wayland_app_id_names_the_desktop_entry(desktop):
    """The Wayland app id is the application id, the desktop entry's name, and the window
    has focus."""
    photo, = desktop.photos("first.jpg")
    window = desktop.launch(photo)
    expect(window.get("app_id") == APP_ID, f"the app id is {window.get('app_id')!r}")
    wait_until("the window to have focus", lambda: any(w.get("focused") for w in desktop.windows()) or None)


@wayland
def scenario_wayland_keyboard_captions_a_queue_and_undoes(desktop):
    """Title, Enter, subtitle, Enter saves and the next photo comes; the same again; Ctrl+Z
    takes the last save back."""
    first, second = desktop.photos("first.jpg", "second.jpg")
    # Typed without waiting for the form: keys act in order, whenever the app takes them.
    desktop.launch(first, second)
    desktop.type("Harbour")
    desktop.key("Return")
    desktop.type("Dusk")
    desktop.key("Return")
    entries = desktop.wait_for_entries(1)
    expect((entries[0]["title"], entries[0]["subtitle"]) == ("Harbour", "Dusk"), f"saved {entries}")
    desktop.type("Hills")
    desktop.key("Return")
    desktop.type("Dawn")
    desktop.key("ctrl+s")
    entries = desktop.wait_for_entries(2)
    expect((entries[1]["title"], entries[1]["subtitle"]) == ("Hills", "Dawn"), f"saved {entries}")
    desktop.key("ctrl+z")
    desktop.wait_for_entries(1)


@wayland
def scenario_wayland_hand_over_joins_the_running_window_silently(desktop):
    """`caption PHOTO` beside the running window (one instance on the session bus) ends at
    once without a word, and its photo is captioned next in the same window."""
    first, second = desktop.photos("first.jpg", "second.jpg")
    desktop.launch(first, default_library=True)
    desktop.library = desktop.env["XDG_DATA_HOME"] + "/caption"
    result = subprocess.run(as_user([desktop.caption, second]), env=desktop.env, capture_output=True, timeout=TIMEOUT)
    expect(result.returncode == 0 and result.stdout + result.stderr == b"",
           f"the hand-over exited {result.returncode}, printing {result.stdout + result.stderr!r}")
    expect(len(desktop.windows()) == 1, f"{len(desktop.windows())} windows")
    for title in ("One", "Two"):
        desktop.type(title)
        desktop.key("Return")
        desktop.type("words")
        desktop.key("Return")
    entries = desktop.wait_for_entries(2)
    expect([entry["title"] for entry in entries] == ["One", "Two"], f"saved {entries}")


@wayland
def scenario_wayland_pad_keys_typed_ahead_go_with_their_photos(desktop):
    """Two photos, two pads, all typed ahead without waiting: Ctrl+1 before the first
    caption, Ctrl+2 before the second. Each caption is saved with the pad chosen before it,
    whenever the app takes the keys."""
    for name, credit in (("Agency", "Lusa"), ("Paper", "Publico")):
        result = subprocess.run([desktop.caption, "--set-credits", "--credit-line", credit, "--pad", name],
                                env=desktop.env, capture_output=True, timeout=TIMEOUT)
        expect(result.returncode == 0, f"--set-credits --pad: {result.stderr.decode()}")
    desktop.give_config_to_the_app()
    first, second = desktop.photos("first.jpg", "second.jpg")
    desktop.launch(first, second)
    desktop.key("ctrl+1")
    desktop.type("Harbour")
    desktop.key("Return")
    desktop.type("Dusk")
    desktop.key("Return")
    desktop.key("ctrl+2")
    desktop.type("Hills")
    desktop.key("Return")
    desktop.type("Dawn")
    desktop.key("Return")
    desktop.wait_for_entries(2)
    sheet = subprocess.run([desktop.caption, "--library", desktop.library, "--list", "--json"],
                           env=desktop.env, capture_output=True, timeout=TIMEOUT, check=True)
    entries = sorted(json.loads(sheet.stdout.decode()), key=lambda entry: entry["id"])
    pads = [(entry["title"], entry["credits"].get("pad"), entry["credits"].get("creditLine")) for entry in entries]
    expect(pads == [("Harbour", "Agency", "Lusa"), ("Hills", "Paper", "Publico")], f"saved {pads}")
