# Scenarios of the main flow: a queue captioned by keys alone, going back, skipping, scripts.

import os

from harness import expect, wait_until


def caption_photo(desktop, ui, title, subtitle, *, saved_before):
    """Title, Return, subtitle, Return: the steps a person repeats for every photo."""
    ui.fill(title, subtitle)
    desktop.key("Return")
    entries = desktop.wait_for_entries(saved_before + 1)
    expect(entries[-1]["title"] == title and entries[-1]["subtitle"] == subtitle,
           f"saved {entries[-1]['title']!r} / {entries[-1]['subtitle']!r}, typed {title!r} / {subtitle!r}")
    return entries


def scenario_queue_of_three(desktop):
    """caption a.jpg b.jpg c.jpg: each photo captioned with Return alone; after each save
    the next photo is on the form with Title focused; Ctrl+Q quits."""
    photos = desktop.photos("a.jpg", "b.jpg", "c.jpg")
    ui = desktop.launch(*photos)
    expect(ui.title.get_name() == "Title" and ui.subtitle.get_name() == "Subtitle",
           "the entries' accessible names are not Title and Subtitle")
    captions = [("Harbour at dusk", "The last ferry"),
                ("Market morning", "Oranges and bread"),
                ("Lighthouse", "Storm from the west")]
    for index, (photo, (title, subtitle)) in enumerate(zip(photos, captions)):
        name = os.path.basename(photo)
        ui.find(f"the preview of {name}", role="image", name=f"Photo: {name}")
        ui.wait_focus("Title")
        # What a screen reader hears on the button: Enter moves on while Subtitle is empty.
        ui.wait_label("Next")
        desktop.type(title)
        ui.wait_text(ui.title, title)
        desktop.key("Return")
        ui.wait_focus("Subtitle")
        ui.wait_label("Done")
        desktop.type(subtitle)
        ui.wait_text(ui.subtitle, subtitle)
        desktop.key("Return")
        desktop.wait_for_entries(index + 1)
        wait_until(f"the notification for {title!r}", lambda: ui.notification_text() == f"Saved “{title}”" or None)
        if index < 2:
            # The next photo, an empty form, Title focused: ready to type at once.
            nxt = os.path.basename(photos[index + 1])
            ui.find(f"the preview of {nxt}", role="image", name=f"Photo: {nxt}")
            ui.wait_focus("Title")
            expect(ui.text(ui.title) == "" and ui.text(ui.subtitle) == "",
                   "the form still holds words after the save")
    # The queue is done: the form waits for a photo.
    ui.wait_focus("Choose Photo…")
    entries = desktop.entries()
    expect([(e["title"], e["subtitle"], e["originalName"]) for e in entries]
           == [(t, s, os.path.basename(p)) for (t, s), p in zip(captions, photos)],
           f"the library holds {[(e['title'], e['subtitle'], e['originalName']) for e in entries]}")
    expect(len({e["photo"] for e in entries}) == 3 and all(os.path.isfile(e["photo"]) for e in entries),
           "the library does not hold the three photos")
    desktop.app_may_exit = True
    desktop.key("ctrl+q")
    wait_until("Ctrl+Q to quit", lambda: desktop.app.poll() is not None)
    expect(desktop.app.returncode == 0, f"caption exited with status {desktop.app.returncode}")


def scenario_shift_enter_goes_back(desktop):
    """Shift+Enter goes to the previous field, wrapping to the photo button; the words
    stay; Return then goes on again, to the first field still empty."""
    ui = desktop.launch(*desktop.photos("a.jpg"))
    ui.fill("Harbour", "Ferry")
    desktop.key("shift+Return")
    ui.wait_focus("Title")
    # Both fields are filled, so Enter in Title would now save: the label says so.
    ui.wait_label("Done")
    desktop.key("shift+Return")
    ui.wait_focus("Choose Photo…")
    expect(ui.text(ui.title) == "Harbour" and ui.text(ui.subtitle) == "Ferry",
           "going back lost words")
    expect(desktop.entries() == [], "going back saved something")
    desktop.key("alt+s")
    ui.wait_focus("Subtitle")
    desktop.key("BackSpace", "BackSpace", "BackSpace", "BackSpace", "BackSpace")
    ui.wait_text(ui.subtitle, "")
    desktop.key("shift+Return")
    ui.wait_focus("Title")
    ui.wait_label("Next")
    desktop.key("Return")
    ui.wait_focus("Subtitle")
    desktop.type("Evening")
    ui.wait_text(ui.subtitle, "Evening")
    desktop.key("Return")
    entries = desktop.wait_for_entries(1)
    expect((entries[0]["title"], entries[0]["subtitle"]) == ("Harbour", "Evening"),
           f"saved {entries[0]['title']!r} / {entries[0]['subtitle']!r}")


def scenario_titles_in_other_scripts(desktop):
    """Chinese, Arabic and emoji typed as keys reach the library exactly, code point for
    code point."""
    captions = [("港口的黄昏", "最后一班渡轮"),
                ("مرحبا بالعالم", "الميناء عند الغروب"),
                ("🌅 Sunset 👨‍👩‍👧", "⛵️ sails — ½ price")]
    ui = desktop.launch(*desktop.photos("a.jpg", "b.jpg", "c.jpg"))
    for index, (title, subtitle) in enumerate(captions):
        caption_photo(desktop, ui, title, subtitle, saved_before=index)
    stored = [(e["title"], e["subtitle"]) for e in desktop.entries()]
    expect(stored == captions, f"stored {stored!r}")


def scenario_skip_through_queue(desktop):
    """Ctrl+Page Down and Ctrl+Page Up move through the queue; the header says where;
    the words typed for a photo are there again on coming back, and are saved with it."""
    ui = desktop.launch(*desktop.photos("a.jpg", "b.jpg", "c.jpg"))

    def at(index, name):
        ui.find(f"the preview of {name}", role="image", name=f"Photo: {name}")
        wait_until(f"the header to say {index} of 3",
                   lambda: ui.all(role="label", name=f"{index} of 3", showing=True))

    at(1, "a.jpg")
    ui.wait_focus("Title")
    desktop.type("Harbour")
    ui.wait_text(ui.title, "Harbour")
    desktop.key("ctrl+Next")
    at(2, "b.jpg")
    ui.wait_focus("Title")
    expect(ui.text(ui.title) == "", f"b.jpg shows a.jpg's words: {ui.text(ui.title)!r}")
    desktop.type("Market")
    ui.wait_text(ui.title, "Market")
    desktop.key("ctrl+Next")
    at(3, "c.jpg")
    desktop.key("ctrl+Prior", "ctrl+Prior")
    at(1, "a.jpg")
    ui.wait_text(ui.title, "Harbour")
    # Title is complete: the photo's first missing field gets focus.
    ui.wait_focus("Subtitle")
    desktop.type("Ferry")
    ui.wait_text(ui.subtitle, "Ferry")
    desktop.key("Return")
    entries = desktop.wait_for_entries(1)
    expect((entries[0]["title"], entries[0]["subtitle"], entries[0]["originalName"]) == ("Harbour", "Ferry", "a.jpg"),
           f"saved {entries[0]!r}")
    # Next comes b.jpg, with the words typed for it earlier.
    ui.find("the preview of b.jpg", role="image", name="Photo: b.jpg")
    wait_until("the header to say 1 of 2", lambda: ui.all(role="label", name="1 of 2", showing=True))
    ui.wait_text(ui.title, "Market")
    ui.wait_focus("Subtitle")
