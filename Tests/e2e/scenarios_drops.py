# Scenarios of files dropped on the window by a real drag: a GTK drag source (as a file
# manager is) offering text/uri-list, dragged onto Caption with the pointer through
# xdotool (button down, moves in steps, button up), through the X server's XDND.

import os
import select
import subprocess
import sys
import time

from harness import TIMEOUT, Failure, expect, wait_until

HERE = os.path.dirname(os.path.abspath(__file__))
DRAG_SOURCE = os.path.join(HERE, "drag_source.py")
# Where the drag source sits: beside Caption's window (720 × 640 at the top left).
SOURCE_AT = (1000, 780)


def read_line(stream, what):
    deadline = time.monotonic() + TIMEOUT
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([stream], [], [], remaining)[0]:
            raise Failure(f"timed out waiting for {what}")
        line = stream.readline()
        if not line:
            raise Failure(f"the drag source ended while waiting for {what}")
        return line.decode().strip()


def drag(desktop, *paths):
    """Drags paths from the drag source and drops them on the middle of Caption's window.
    The pauses are a hand's pace, not waits for the app: a drag is motion spread over time
    (XDND's messages go back and forth at each move), and what the drop did is then waited
    for as a condition."""
    source = desktop.spawn("drag source", [sys.executable, DRAG_SOURCE, str(SOURCE_AT[0]), str(SOURCE_AT[1]), *paths],
                           stdout=subprocess.PIPE, stderr=open(os.path.join(desktop.root, "drag.log"), "a"))
    try:
        expect(read_line(source.stdout, "the drag source to show") == "ready", "the drag source did not start")
        geometry = dict(line.split("=", 1) for line in desktop._xdotool_out(
            "getwindowgeometry", "--shell", desktop.window_id).splitlines() if "=" in line)
        target = (int(geometry["X"]) + int(geometry["WIDTH"]) // 2, int(geometry["Y"]) + int(geometry["HEIGHT"]) // 2)
        start = (SOURCE_AT[0] + 60, SOURCE_AT[1] + 40)
        desktop.xdotool("mousemove", "--sync", str(start[0]), str(start[1]))
        time.sleep(0.2)
        desktop.xdotool("mousedown", "1")
        steps = 20
        for step in range(1, steps + 1):
            x = start[0] + (target[0] - start[0]) * step // steps
            y = start[1] + (target[1] - start[1]) * step // steps
            desktop.xdotool("mousemove", str(x), str(y))
            time.sleep(0.03)
        # A few moves over the window, so that it has said it takes the drop.
        for wiggle in (1, -1, 1, 0):
            desktop.xdotool("mousemove", str(target[0] + wiggle * 3), str(target[1]))
            time.sleep(0.1)
        desktop.xdotool("mouseup", "1")
        expect(read_line(source.stdout, "the drag to end") == "end", "the drag did not end")
    finally:
        source.terminate()
        source.wait(timeout=TIMEOUT)


def header(ui, text):
    wait_until(f"the header to say {text}", lambda: ui.all(role="label", name=text, showing=True))


def preview(ui, name):
    ui.find(f"the preview of {name}", role="image", name=f"Photo: {name}")


def no_header_position(ui):
    labels = [a.get_name() for a in ui.all(role="label", showing=True) if " of " in (a.get_name() or "")]
    return [n for n in labels if n.split(" of ")[0].isdigit()]


def text_file(desktop, name="notes.txt"):
    path = os.path.join(desktop.root, name)
    with open(path, "w") as notes:
        notes.write("Shopping list: bread, oranges\n")
    return path


def scenario_drop_one_photo_puts_it_on_the_form(desktop):
    """One photo dropped on an empty window goes on the form; Title gets focus; no
    message."""
    photo, = desktop.photos("a.jpg")
    ui = desktop.launch()
    ui.wait_focus("Choose Photo…")
    drag(desktop, photo)
    preview(ui, "a.jpg")
    ui.wait_focus("Title")
    expect(ui.alert_text() is None, f"a message shows: {ui.alert_text()!r}")
    expect(no_header_position(ui) == [], f"the header counts {no_header_position(ui)}")


def scenario_drop_three_photos_makes_a_queue(desktop):
    """Three photos dropped at once form a queue in the order given: 1 of 3, a.jpg first,
    then b.jpg and c.jpg."""
    photos = desktop.photos("a.jpg", "b.jpg", "c.jpg")
    ui = desktop.launch()
    ui.wait_focus("Choose Photo…")
    drag(desktop, *photos)
    preview(ui, "a.jpg")
    header(ui, "1 of 3")
    ui.wait_focus("Title")
    desktop.key("ctrl+Next")
    preview(ui, "b.jpg")
    header(ui, "2 of 3")
    desktop.key("ctrl+Next")
    preview(ui, "c.jpg")
    expect(ui.alert_text() is None, f"a message shows: {ui.alert_text()!r}")


def scenario_drop_folder_queues_its_photos_by_name(desktop):
    """A folder dropped gives the photos directly in it, by name with numbers by value
    (b9 before b10); its text file, hidden file and subfolder's photo are passed over
    without a message."""
    folder = os.path.join(desktop.root, "holiday")
    os.makedirs(os.path.join(folder, "more"))
    made = desktop.photos("c.jpg", "a.jpg", "b10.jpg", "b9.jpg", ".hidden.jpg", "d.jpg")
    for path in made:
        name = os.path.basename(path)
        os.rename(path, os.path.join(folder, "more" if name == "d.jpg" else "", name))
    text_file(desktop, os.path.join("holiday", "notes.txt"))
    ui = desktop.launch()
    ui.wait_focus("Choose Photo…")
    drag(desktop, folder)
    preview(ui, "a.jpg")
    header(ui, "1 of 4")
    for index, name in enumerate(["b9.jpg", "b10.jpg", "c.jpg"], start=2):
        desktop.key("ctrl+Next")
        preview(ui, name)
        header(ui, f"{index} of 4")
    expect(ui.alert_text() is None, f"a message shows: {ui.alert_text()!r}")


def scenario_drop_text_file_is_refused_by_name(desktop):
    """A text file dropped with a photo: the photo joins the queue, the text file does not,
    and one message names it at once."""
    first, second = desktop.photos("a.jpg", "b.jpg")
    notes = text_file(desktop)
    ui = desktop.launch(first)
    ui.wait_focus("Title")
    drag(desktop, notes, second)
    header(ui, "1 of 2")
    wait_until("the message naming notes.txt",
               lambda: ui.alert_text() == "Not a photo, not added: notes.txt" or None)
    desktop.key("ctrl+Next")
    preview(ui, "b.jpg")
    desktop.key("ctrl+Next")
    ui.handled()
    header(ui, "2 of 2")


def scenario_drop_photo_already_queued_is_not_queued_again(desktop):
    """A photo already in the queue, dropped again (under another name: a link), with a
    new one: only the new one joins, and the message says the other is already there."""
    first, second = desktop.photos("a.jpg", "b.jpg")
    link = os.path.join(desktop.root, "link-to-a.jpg")
    os.symlink(first, link)
    ui = desktop.launch(first)
    ui.wait_focus("Title")
    drag(desktop, link, second)
    header(ui, "1 of 2")
    wait_until("the message naming link-to-a.jpg",
               lambda: ui.alert_text() == "Already in the queue, not added again: link-to-a.jpg" or None)
    drag(desktop, first)
    wait_until("the message naming a.jpg",
               lambda: ui.alert_text() == "Already in the queue, not added again: a.jpg" or None)
    header(ui, "1 of 2")
