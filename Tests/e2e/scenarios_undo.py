# Scenario of undoing a save from the keyboard while its notification shows.

from harness import expect, wait_until


def scenario_undo_of_a_save(desktop):
    """Ctrl+Z while "Saved “…”" shows takes the entry out of the library, and the words
    and the photo come back to the (empty) form."""
    ui = desktop.launch(*desktop.photos("a.jpg"))
    ui.fill("Harbour", "Ferry")
    desktop.key("Return")
    desktop.wait_for_entries(1)
    wait_until("the notification", lambda: ui.notification_text() == "Saved “Harbour”" or None)
    desktop.key("ctrl+z")
    desktop.wait_for_entries(0)
    wait_until("the notification to go", lambda: ui.notification_text() is None)
    ui.wait_text(ui.title, "Harbour")
    ui.wait_text(ui.subtitle, "Ferry")
    ui.find("the photo back on the form", role="image", name="Photo: a.jpg")
    expect(desktop.entries() == [], "the entry is still in the library")
