# Scenarios of a failed submit: the summary, the fields' messages, focus, Escape, recovery.

from harness import expect, wait_until


def scenario_failed_submit_and_recovery(desktop):
    """Ctrl+S with the subtitle empty: nothing saved, the summary says "Subtitle
    required", focus goes to Subtitle, whose description says what Enter does (not the
    message again, which the summary's alert says); typing it clears the messages and
    Return saves."""
    ui = desktop.launch(*desktop.photos("a.jpg"))
    ui.wait_focus("Title")
    desktop.type("Harbour")
    ui.wait_text(ui.title, "Harbour")
    desktop.key("ctrl+s")
    wait_until("the summary", lambda: ui.alert_text() == "Subtitle required" or None)
    ui.wait_focus("Subtitle")
    # What Enter does in the focused field; the summary says the message.
    expect(ui.description(ui.subtitle) == "Enter saves once it is filled",
           f"Subtitle's accessible description is {ui.description(ui.subtitle)!r}")
    expect(ui.text(ui.title) == "Harbour", "the failed submit lost the title")
    expect(desktop.entries() == [], "a failed submit saved something")
    desktop.type("Ferry")
    ui.wait_text(ui.subtitle, "Ferry")
    # The message clears as soon as its field is complete, and the summary with it. Once
    # typed in, a field's description says only what changes: what Enter does, said as focus
    # came, is not said again.
    wait_until("the messages to clear",
               lambda: ui.alert_text() is None and ui.description(ui.subtitle) == "" or None)
    desktop.key("Return")
    entries = desktop.wait_for_entries(1)
    expect((entries[0]["title"], entries[0]["subtitle"]) == ("Harbour", "Ferry"),
           f"saved {entries[0]['title']!r} / {entries[0]['subtitle']!r}")


def scenario_failed_submit_of_empty_form(desktop):
    """Ctrl+S on an empty form names both fields and goes to the first; Ctrl+Return
    saves once both are typed."""
    ui = desktop.launch(*desktop.photos("a.jpg"))
    ui.wait_focus("Title")
    desktop.key("alt+s")
    ui.wait_focus("Subtitle")
    desktop.key("ctrl+s")
    wait_until("the summary", lambda: ui.alert_text() == "Title and subtitle required" or None)
    ui.wait_focus("Title")
    # The focused Title leaves its message to the summary.
    expect(ui.description(ui.title) == "Enter goes to the next empty field",
           f"Title's description is {ui.description(ui.title)!r}")
    desktop.type("Harbour")
    wait_until("the summary to name the subtitle alone",
               lambda: ui.alert_text() == "Subtitle required" or None)
    desktop.key("Return")
    ui.wait_focus("Subtitle")
    # Subtitle says its own message as focus comes to it (a field is described as it gets
    # focus: only the focused one's description changes).
    expect(ui.description(ui.subtitle) == "Subtitle required. Enter saves once it is filled",
           f"Subtitle's description is {ui.description(ui.subtitle)!r}")
    desktop.type("Ferry")
    ui.wait_text(ui.subtitle, "Ferry")
    desktop.key("ctrl+Return")
    desktop.wait_for_entries(1)


def scenario_escape_dismisses_summary(desktop):
    """Escape hides the summary and changes nothing else: focus and words stay."""
    ui = desktop.launch(*desktop.photos("a.jpg"))
    ui.wait_focus("Title")
    desktop.type("Harbour")
    ui.wait_text(ui.title, "Harbour")
    desktop.key("ctrl+s")
    wait_until("the summary", lambda: ui.alert_text() == "Subtitle required" or None)
    ui.wait_focus("Subtitle")
    desktop.key("Escape")
    wait_until("Escape to hide the summary", lambda: ui.alert_text() is None)
    expect(ui.focused_name() == "Subtitle", f"Escape moved focus to {ui.focused_name()!r}")
    expect(ui.text(ui.title) == "Harbour", "Escape lost the title")
    expect(desktop.entries() == [], "something was saved")
    # The form still works as before.
    desktop.type("Ferry")
    ui.wait_text(ui.subtitle, "Ferry")
    desktop.key("Return")
    desktop.wait_for_entries(1)


def scenario_photo_cut_short_is_noticed_and_saved(desktop):
    """A JPEG missing its last third (GdkPixbuf shows it with grey rows): the notification
    says it looks incomplete, nothing blocks, and Title, Return, Subtitle, Return saves
    its bytes exactly as they were."""
    path = desktop.photos("harbour.jpg")[0]
    with open(path, "rb") as photo:
        data = photo.read()
    cut = data[:len(data) * 2 // 3]
    with open(path, "wb") as photo:
        photo.write(cut)
    ui = desktop.launch(path)
    ui.wait_focus("Title")
    wait_until("the notice", lambda: (ui.notification_text() or "").startswith(
        "harbour.jpg looks incomplete (the end of the file is missing)") or None)
    expect(ui.alert_text() is None, f"the error bar shows {ui.alert_text()!r}")
    desktop.type("Harbour")
    ui.wait_text(ui.title, "Harbour")
    desktop.key("Return")
    ui.wait_focus("Subtitle")
    desktop.type("Ferry")
    ui.wait_text(ui.subtitle, "Ferry")
    desktop.key("Return")
    entries = desktop.wait_for_entries(1)
    with open(entries[0]["photo"], "rb") as stored:
        expect(stored.read() == cut, "the library's copy differs from the photo as it was")
