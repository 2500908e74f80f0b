# Scenarios of typing less, by keys alone: Ctrl+D and Ctrl+Shift+D repeat the last saved
# caption, the menu's "Caption the Rest of the Queue the Same" saves the queue with one Undo,
# and a counter shows a field's length near its limit.

import os

from harness import expect, wait_until


def large_photos(desktop, count):
    """`count` distinct photos of 1600 × 1200 pixels of noise (a camera photo's work for the
    library: read, hashed, decoded whole, copied), made with GdkPixbuf: the sample photo
    saves too fast for a person to press Cancel during a batch."""
    import gi
    gi.require_version("GdkPixbuf", "2.0")
    from gi.repository import GdkPixbuf, GLib
    width, height = 1600, 1200
    pixels = GLib.Bytes.new(os.urandom(width * height * 3))
    pixbuf = GdkPixbuf.Pixbuf.new_from_bytes(pixels, GdkPixbuf.Colorspace.RGB, False, 8, width, height, width * 3)
    sample = os.path.join(desktop.root, "large.jpg")
    pixbuf.savev(sample, "jpeg", ["quality"], ["90"])
    desktop.sample_photo = sample
    return desktop.photos(*(f"p{index:02}.jpg" for index in range(count)))


def save_first(desktop, ui, title, subtitle):
    """Captions the photo on the form by keys and waits for the library to have it."""
    ui.fill(title, subtitle)
    desktop.key("Return")
    desktop.wait_for_entries(1)


def scenario_ctrl_d_repeats_the_last_caption_field_by_field(desktop):
    """On the next photo, Ctrl+D in Title gives the last title, Return goes to Subtitle as
    the button said, Ctrl+D there gives the last subtitle, and Return saves."""
    first, second = desktop.photos("a.jpg", "b.jpg")
    ui = desktop.launch(first, second)
    save_first(desktop, ui, "Brooklyn Bridge", "From the river")
    ui.find("the preview of b.jpg", role="image", name="Photo: b.jpg")
    ui.wait_focus("Title")
    desktop.key("ctrl+d")
    ui.wait_text(ui.title, "Brooklyn Bridge")
    expect(ui.text(ui.subtitle) == "", "Ctrl+D filled the subtitle too")
    ui.wait_label("Next")
    desktop.key("Return")
    ui.wait_focus("Subtitle")
    desktop.key("ctrl+d")
    ui.wait_text(ui.subtitle, "From the river")
    ui.wait_label("Done")
    desktop.key("Return")
    entries = desktop.wait_for_entries(2)
    expect([(e["title"], e["subtitle"]) for e in entries] == [("Brooklyn Bridge", "From the river")] * 2,
           f"the library holds {[(e['title'], e['subtitle']) for e in entries]}")


def scenario_ctrl_shift_d_fills_both_and_enter_saves(desktop):
    """Ctrl+Shift+D fills both fields with the last caption; focus stays in Title, the
    button says Done, and Return saves."""
    ui = desktop.launch(*desktop.photos("a.jpg", "b.jpg"))
    save_first(desktop, ui, "Harbour", "The last ferry")
    ui.find("the preview of b.jpg", role="image", name="Photo: b.jpg")
    ui.wait_focus("Title")
    desktop.key("ctrl+shift+d")
    ui.wait_text(ui.title, "Harbour")
    ui.wait_text(ui.subtitle, "The last ferry")
    ui.wait_label("Done")
    expect(ui.focused_name() == "Title", f"focus moved to {ui.focused_name()!r}")
    desktop.key("Return")
    entries = desktop.wait_for_entries(2)
    expect(entries[-1]["title"] == "Harbour" and entries[-1]["subtitle"] == "The last ferry",
           f"saved {entries[-1]['title']!r} / {entries[-1]['subtitle']!r}")


def scenario_caption_the_rest_the_same_and_undo(desktop):
    """F10, past where captions go, to the first of the menu's actions: the words on the
    form go with every photo of the queue; the notification offers Undo, and Ctrl+Z brings
    all three back."""
    photos = desktop.photos("a.jpg", "b.jpg", "c.jpg")
    ui = desktop.launch(*photos)
    ui.fill("Pier", "Morning")
    ui.caption_the_rest_the_same()
    entries = desktop.wait_for_entries(3)
    expect(sorted(e["originalName"] for e in entries) == ["a.jpg", "b.jpg", "c.jpg"],
           f"saved {[e['originalName'] for e in entries]}")
    expect(all(e["title"] == "Pier" and e["subtitle"] == "Morning" for e in entries), "other words were saved")
    wait_until("the notification", lambda: ui.notification_text() == "Captioned 3 photos “Pier”" or None)
    # The queue is done: the form waits for a photo.
    ui.wait_focus("Choose Photo…")
    desktop.key("ctrl+z")
    desktop.wait_for_entries(0)
    ui.find("the first photo back on the form", role="image", name="Photo: a.jpg")
    ui.wait_text(ui.title, "Pier")
    ui.wait_text(ui.subtitle, "Morning")
    desktop.key("ctrl+Page_Down")
    ui.find("the second photo, back in the queue", role="image", name="Photo: b.jpg")
    ui.wait_text(ui.title, "")
    expect(os.path.basename(photos[1]) == "b.jpg", "the photos were made under other names")


def scenario_the_length_counter_shows_and_is_read(desktop):
    """Past 80 % of Title's 120 characters a counter shows beside it, and the field's
    description says it; under 80 % it goes again."""
    ui = desktop.launch(*desktop.photos("a.jpg"))
    ui.wait_focus("Title")
    desktop.type("x" * 96)
    ui.wait_text(ui.title, "x" * 96)
    expect("characters" not in ui.description(ui.title), "the counter shows at 80 %")
    desktop.type("yyy")
    ui.wait_text(ui.title, "x" * 96 + "yyy")
    wait_until("the counter", lambda: ui.all(role="label", name="99 / 120", showing=True) or None)
    expect("99 of 120 characters" in ui.description(ui.title),
           f"Title's description is {ui.description(ui.title)!r}")
    desktop.key("ctrl+a", "BackSpace")
    ui.wait_text(ui.title, "")
    wait_until("the counter to go", lambda: not ui.all(role="label", name="99 / 120", showing=True) or None)


def scenario_caption_the_rest_stops_at_cancel_by_keys(desktop):
    """While the rest of a long queue is saved, Alt+C presses the progress panel's Cancel (a
    named button Tab also reaches): the batch stops between photos; the photos saved are
    in the library with the words, the others back in the queue; Ctrl+Z takes back the
    ones saved."""
    count = 30
    photos = large_photos(desktop, count)
    ui = desktop.launch(*photos)
    ui.fill("Pier", "Morning")
    ui.caption_the_rest_the_same()
    cancel = ui.find("the progress panel's Cancel", role="push button", name="Cancel", showing=True)
    expect(ui._has(cancel, "focusable"), "Cancel cannot take the focus")
    wait_until("the first photos saved", lambda: len(desktop.entries()) >= 1 or None)
    desktop.key("alt+c")
    wait_until("the notification of what was saved",
               lambda: (ui.notification_text() or "").startswith("Captioned ") or None)
    entries = desktop.entries()
    saved = len(entries)
    print(f"{saved} of {count} saved before Cancel")
    expect(0 < saved < count, f"{saved} of {count} saved: Cancel came too late or did nothing")
    expect(ui.notification_text() == f"Captioned {saved} photos “Pier”", f"notification: {ui.notification_text()!r}")
    expect(all(e["title"] == "Pier" and e["subtitle"] == "Morning" for e in entries), "other words were saved")
    expect(not ui.all(role="push button", name="Cancel", showing=True), "the progress panel stayed")
    # The photos not saved are the queue now, the first of them on the form, without words.
    wait_until(f"the header to say 1 of {count - saved}",
               lambda: ui.all(role="label", name=f"1 of {count - saved}", showing=True))
    first_unsaved = sorted(set(os.path.basename(p) for p in photos) - {e["originalName"] for e in entries})[0]
    ui.find("the first photo not saved on the form", role="image", name=f"Photo: {first_unsaved}")
    ui.wait_text(ui.title, "")
    desktop.key("ctrl+z")
    desktop.wait_for_entries(0)
    wait_until(f"the header to say 1 of {count}", lambda: ui.all(role="label", name=f"1 of {count}", showing=True))
    ui.find("the first photo back on the form", role="image", name="Photo: p00.jpg")
    ui.wait_text(ui.title, "Pier")
    ui.wait_text(ui.subtitle, "Morning")
