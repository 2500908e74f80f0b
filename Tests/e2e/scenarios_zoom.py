# The view at 100 % by keys, on Xvfb and on Wayland: what the screen shows is read from the
# display server's own picture of it (ImageMagick's import on X, grim on sway), and the words
# typed meanwhile from the library.

import re
import subprocess

from harness import TIMEOUT, expect, wait_until
from wayland import wayland

# A photo of 3000 × 2000 with a 200-pixel blue square at its centre: fitted into the
# window it is some 40 pixels wide, at 100 % it is 200.
SQUARE = 200
BLUE = re.compile(rb"(?:[\x00-\x50][\x00-\x50][\xa0-\xff]){12,}")


def make_photo(desktop):
    photo, = desktop.photos("zoom.jpg")
    subprocess.run(["convert", "-size", "3000x2000", "xc:#808080", "-fill", "#1818D0", "-draw",
                    "rectangle 1400,900 1599,1099", "-quality", "92", photo], check=True, timeout=TIMEOUT)
    return photo


def widest_blue(desktop):
    """(width, left) of the widest run of blue pixels in any row of the screen."""
    width, height, pixels = desktop.screenshot()
    stride = width * 3
    best = (0, 0)
    for row in range(0, height, 2):
        for match in BLUE.finditer(pixels, row * stride, (row + 1) * stride):
            offset = match.start() - row * stride
            if offset % 3 == 0 and (match.end() - match.start()) // 3 > best[0]:
                best = ((match.end() - match.start()) // 3, offset // 3)
    return best


def shows(desktop, description, accept):
    """Waits until the square on screen is as `accept` says; returns (width, left)."""
    def probe():
        square = widest_blue(desktop)
        return square if accept(square) else None
    return wait_until(description, probe)


def fitted(square):
    return 5 < square[0] < 80


def full_size(square):
    return abs(square[0] - SQUARE) <= 3


def zoom_by_keys(desktop):
    """Zoom in while typing the title, move, leave with Escape, in and out with the same
    key; the words typed meanwhile are the ones saved, in the fields they were typed in."""
    desktop.launch(make_photo(desktop))
    shows(desktop, "the photo fitted", fitted)
    desktop.type("Har")
    desktop.key("ctrl+equal")
    zoomed = shows(desktop, "the photo at 100 %", full_size)
    desktop.type("bour")
    desktop.key("alt+Right")
    # A third of the view to the right (the window's width is the display's): the square
    # goes left by as much.
    moved = shows(desktop, "the view moved right", lambda square: full_size(square) and square[1] < zoomed[1] - 100)
    expect(moved[1] > zoomed[1] - 700, f"the view moved from {zoomed[1]} to {moved[1]}")
    desktop.key("Escape")
    shows(desktop, "the whole photo after Escape", fitted)
    desktop.key("ctrl+plus")
    shows(desktop, "the photo at 100 % by Ctrl++", full_size)
    desktop.key("ctrl+plus")
    shows(desktop, "the whole photo after the same key", fitted)
    desktop.key("Return")
    desktop.type("Dusk")
    desktop.key("Return")
    entries = desktop.wait_for_entries(1)
    expect((entries[0]["title"], entries[0]["subtitle"]) == ("Harbour", "Dusk"), f"saved {entries}")


def scenario_zoom_by_keys_while_typing(desktop):
    zoom_by_keys(desktop)


@wayland
def scenario_wayland_zoom_by_keys_while_typing(desktop):
    zoom_by_keys(desktop)
