# A watched folder while a blind photographer captions: twenty large photos are copied into
# it slowly, each written in chunks over a second, as a card reader or an FTP upload writes
# them, while the words are typed. Orca is heard; the library says what arrived.

import hashlib
import os
import subprocess
import threading
import time

from harness import TIMEOUT, expect, wait_until
from orca import Orca

COUNT = 20


def large_photos(desktop):
    """Twenty distinct 12-megapixel JPEGs, taken a second apart in the order of their
    numbers, named so that name order is the reverse (Z_00 was taken first)."""
    source = os.path.join(desktop.root, "card")
    os.makedirs(source)
    base = os.path.join(source, "base.jpg")
    subprocess.run(["convert", "-size", "4000x3000", "plasma:", "-quality", "90", base], check=True, timeout=120)
    with open(base, "rb") as photo:
        data = photo.read()
    paths = []
    arguments = ["exiftool", "-q", "-overwrite_original"]
    for index in range(COUNT):
        comment = f"card photo {index}".encode()
        path = os.path.join(source, f"{chr(ord('Z') - index)}_{index:02d}.jpg")
        with open(path, "wb") as photo:
            photo.write(data[:2] + b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment + data[2:])
        arguments += [f"-DateTimeOriginal=2024:05:17 14:03:{index:02d}", path, "-execute", "-q", "-overwrite_original"]
        paths.append(path)
    subprocess.run(arguments[:-3], check=True, timeout=120)
    return paths


def copy_slowly(paths, folder, failures):
    """Each photo written into `folder` in five pieces over a second, one after another."""
    try:
        for path in paths:
            with open(path, "rb") as source:
                data = source.read()
            piece = len(data) // 5 + 1
            with open(os.path.join(folder, os.path.basename(path)), "wb") as target:
                for start in range(0, len(data), piece):
                    target.write(data[start:start + piece])
                    target.flush()
                    time.sleep(0.2)  # a camera's or a network's pace, not a wait for the app
    except OSError as error:
        failures.append(error)


def sha256(path):
    with open(path, "rb") as photo:
        return hashlib.sha256(photo.read()).hexdigest()


def heard_watching(desktop, photo):
    """The window on `photo`, watching a new folder, with Orca listening, Title read and
    speech settled; returns Orca, the window and the folder."""
    watched = os.path.join(desktop.root, "incoming")
    os.makedirs(watched)
    orca = Orca(desktop)
    orca.start_listening()
    ui = desktop.launch("--watch", watched, photo)
    orca.wait_heard("Title text.")
    orca.settle()
    return orca, ui, watched


def scenario_orca_watched_folder_photos_arrive_while_typing(desktop):
    """Every photo arrives once, whole, in the order it was taken; the words typed meanwhile
    stay as typed with focus in their field; Orca hears how many came, now and then, not
    once a photo."""
    first, = desktop.photos("first.jpg")
    photos = large_photos(desktop)
    orca, ui, watched = heard_watching(desktop, first)
    failures = []
    writer = threading.Thread(target=copy_slowly, args=(photos, watched, failures))
    writer.start()
    typed = ""
    # The words are spread over the copies' time (a person typing while photos come): the
    # pause is the typist's pace; each check waits for the words, then for the keys after.
    for word in ("Fans", " on", " the", " pier", " at", " dusk"):
        desktop.type(word)
        typed += word
        time.sleep(1.5)
        ui.wait_text(ui.title, typed)
        ui.handled()
        expect(ui.focused_name() == "Title", f"focus moved to {ui.focused_name()!r} while photos arrived")
    writer.join(timeout=120)
    expect(not failures, f"copying failed: {failures}")
    orca.wait_heard("new photos")
    desktop.key("Return")
    ui.wait_focus("Subtitle")
    desktop.type("Harbour")
    ui.wait_text(ui.subtitle, "Harbour")
    # Every photo in the queue gets the same words: the library then lists the queue in order.
    wait_until("all the photos to join", lambda: len(ui.all(
        role="label", name=lambda name: name and f"1 of {COUNT + 1}" in name)) or None, timeout=60)
    ui.caption_the_rest_the_same()
    entries = wait_until("the queue saved", lambda: (lambda found: found if len(found) == COUNT + 1 else None)(
        desktop.entries()), timeout=60)
    names = [entry["originalName"] for entry in entries]
    expected = ["first.jpg"] + [os.path.basename(path) for path in photos]
    expect(names == expected, f"saved in the order {names}")
    for entry, photo in zip(entries[1:], photos):
        expect(os.path.basename(entry["photo"]).startswith(sha256(photo)),
               f"{entry['originalName']} was taken before it was whole")
    said = [line for line in orca.since_mark() if "in the queue" in line]
    # Twenty arrivals over twenty seconds: said every few seconds, never once a photo.
    expect(1 <= len(said) <= 8, f"Orca said the count {len(said)} times: {said}")


def scenario_watch_handed_to_the_running_window(desktop):
    """`caption --watch DIR` beside a running window (one instance on the session bus) ends at
    once without a word, and that window watches DIR: a photo moved in joins its queue, and
    the header counts it."""
    first, arriving = desktop.photos("first.jpg", "arriving.jpg")
    watched = os.path.join(desktop.root, "incoming")
    os.makedirs(watched)
    ui = desktop.launch(first, default_library=True)
    ui.wait_focus("Title")
    result = subprocess.run([desktop.caption, "--watch", watched], env=desktop.env, capture_output=True,
                            timeout=TIMEOUT)
    expect(result.returncode == 0 and result.stdout + result.stderr == b"",
           f"the hand-over exited {result.returncode}, printing {result.stdout + result.stderr!r}")
    wait_until("the window to say it watches", lambda: ui.notification_text() and "incoming" in ui.notification_text())
    os.rename(arriving, os.path.join(watched, "arriving.jpg"))
    ui.find("the header counting the new photo", role="label", name=lambda name: name == "1 of 2 · 1 new")
    expect(ui.focused_name() == "Title", f"focus moved to {ui.focused_name()!r}")
