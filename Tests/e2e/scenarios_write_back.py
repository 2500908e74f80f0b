# Captions written into the photo file from the window: killed at any moment of the write,
# the photo is either as it was or fully captioned, never damaged.

import hashlib
import os
import random
import signal
import subprocess
import time

from harness import TIMEOUT, expect, wait_until

KILLS = 50


def sha256(path):
    with open(path, "rb") as photo:
        return hashlib.sha256(photo.read()).hexdigest()


def xmp_title(desktop, path):
    result = subprocess.run(["exiftool", "-s3", "-XMP-dc:Title", path], env=desktop.env, capture_output=True,
                            timeout=TIMEOUT)
    return result.stdout.decode().strip()


def decodes(desktop, path):
    """The whole picture decodes (GdkPixbuf, as the window and other viewers read it)."""
    script = ("import gi, sys; gi.require_version('GdkPixbuf', '2.0'); from gi.repository import GdkPixbuf; "
              "GdkPixbuf.Pixbuf.new_from_file(sys.argv[1])")
    return subprocess.run(["/usr/bin/python3", "-c", script, path], env=desktop.env, capture_output=True,
                          timeout=TIMEOUT).returncode == 0


def scenario_kill_during_a_write_into_the_photo_leaves_it_whole(desktop):
    """With "Also in the photo file" chosen, the window is killed (SIGKILL) at a random moment
    after Enter saves, 50 times: each time the photo is byte for byte as it was, or it holds
    the new title and decodes; nothing but hidden temporary files is left beside it."""
    folder = os.path.join(desktop.root, "originals")
    os.makedirs(folder)
    original = os.path.join(folder, "original.jpg")
    # Large enough that the write itself takes a while, so kills land inside it.
    subprocess.run(["convert", "-size", "3000x2000", "plasma:fractal", "-quality", "92", original],
                   env=desktop.env, check=True, timeout=TIMEOUT)
    original_sha = sha256(original)
    config = os.path.join(desktop.env["XDG_CONFIG_HOME"], "caption")
    os.makedirs(config, exist_ok=True)
    with open(os.path.join(config, "window.ini"), "w") as state:
        state.write("[captions]\ndestination=photo\n")
    photo = os.path.join(folder, "photo.jpg")
    desktop.app_may_exit = True
    kills = untouched = captioned = 0
    attempts = 0
    # How long from Enter to the end of a write, measured on the first unkilled run.
    window = None
    while kills < KILLS:
        attempts += 1
        expect(attempts <= 3 * KILLS, f"only {kills} of {attempts} runs were killed mid-write")
        with open(original, "rb") as source, open(photo, "wb") as target:
            target.write(source.read())
        # A library of its own each time: one that holds the photo already offers its words.
        desktop.library = os.path.join(desktop.root, f"library-{attempts}")
        ui = desktop.launch(photo)
        ui.wait_focus("Title")
        title = f"Kill {attempts}"
        desktop.type(title)
        desktop.key("Return")
        ui.wait_focus("Subtitle")
        desktop.type("Dusk")
        started = time.monotonic()
        desktop.key("Return")
        if window is None:
            wait_until("the first write into the photo", lambda: sha256(photo) != original_sha or None)
            window = time.monotonic() - started
            desktop.app.terminate()
            desktop.app.wait(timeout=TIMEOUT)
            continue
        time.sleep(random.uniform(0, window))  # a kill at a random moment of the write, on purpose
        desktop.app.send_signal(signal.SIGKILL)
        desktop.app.wait(timeout=TIMEOUT)
        kills += 1
        if sha256(photo) == original_sha:
            untouched += 1
        else:
            expect(xmp_title(desktop, photo) == title, f"kill {kills}: the photo changed but its title is "
                   f"{xmp_title(desktop, photo)!r}, not {title!r}")
            expect(decodes(desktop, photo), f"kill {kills}: the photo changed and no longer decodes")
            captioned += 1
        left = [name for name in os.listdir(folder) if name not in ("original.jpg", "photo.jpg")]
        expect(all(name.startswith(".caption-write-") for name in left), f"kill {kills} left {left}")
    print(f"     {kills} kills ({attempts} runs, write window {window * 1000:.0f} ms): "
          f"{untouched} left the photo as it was, {captioned} fully captioned")


# Fifty launches, each killed inside a write: 88.7 s in one run on two cores, past the 90 s
# every scenario gets in the next, 106 s alone after it; so it has a budget of its own.
scenario_kill_during_a_write_into_the_photo_leaves_it_whole.timeout = 240
scenario_kill_during_a_write_into_the_photo_leaves_it_whole.long = True
