# Scenarios of typing less, by keys alone: Ctrl+D and Ctrl+Shift+D repeat the last saved
# caption, the menu's "Caption the Rest of the Queue the Same" saves the queue with one Undo,
# and a counter shows a field's length near its limit.

import os

from harness import expect, wait_until


def save_first(desktop, ui, title, subtitle):
    """Captions the photo on the form by keys and waits for the library to have it."""
    ui.wait_focus("Title")
    desktop.type(title)
    ui.wait_text(ui.title, title)
    desktop.key("Return")
    ui.wait_focus("Subtitle")
    desktop.type(subtitle)
    ui.wait_text(ui.subtitle, subtitle)
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
    ui.wait_focus("Title")
    desktop.type("Pier")
    ui.wait_text(ui.title, "Pier")
    desktop.key("Return")
    ui.wait_focus("Subtitle")
    desktop.type("Morning")
    ui.wait_text(ui.subtitle, "Morning")
    desktop.key("F10")
    ui.wait_focus("In Caption's Library Only")
    desktop.key("Down", "Down", "Down")
    ui.wait_focus("Caption the Rest of the Queue the Same")
    desktop.key("Return")
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
