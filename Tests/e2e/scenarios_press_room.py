# The press room by ear: the view at 100 %, a refused file named at launch, a code added by
# its mnemonic, the credits' fields and line, an empty field's hint, arrivals in a watched
# folder. Orca 43 speaks into a log (orca.py); each scenario asserts what it says.

import os

from harness import expect
from scenarios_orca import heard_on_the_form, start
import scenarios_watch
import scenarios_zoom


def scenario_orca_zoom_says_where_the_view_is(desktop):
    """Ctrl+= says the photo is at 100 % and where the view is; Alt+arrows say where it
    went, and the edge; Escape says the whole photo shows (each was only the key's name)."""
    orca, ui, step = heard_on_the_form(desktop, scenarios_zoom.make_photo(desktop))
    step(["ctrl+equal"], "Photo at 100", "centre")
    # Alt+Right a third of the view at a time, each said, until the photo's edge: on the
    # way the view comes to the photo's right third.
    said = []
    for _ in range(15):
        orca.start_listening()
        desktop.key("alt+Right")
        orca.wait_heard("notification")
        orca.settle()
        said += orca.since_mark()
        if any("Edge of the photo" in line for line in said):
            break
    expect(any("Edge of the photo" in line for line in said), f"the edge was never said: {said}")
    expect(any(", right." in line for line in said), f"the right third was never said: {said}")
    step(["Escape"], "Whole photo")
    expect(ui.focused_name() == "Title", f"focus moved to {ui.focused_name()!r}")


def scenario_orca_a_file_refused_at_launch_is_said(desktop):
    """`caption notes.jpg photo.jpg`, notes.jpg being text: Orca says the window, the photo,
    and the alert naming the refused file (it was on screen, never said)."""
    photo, = desktop.photos("harbour.jpg")
    notes = os.path.join(desktop.root, "notes.jpg")
    with open(notes, "w") as text:
        text.write("Not a photo at all\n")
    orca, ui = start(desktop, notes, photo)
    orca.wait_heard("Title text.")
    orca.wait_heard("Not a photo, not added")
    orca.wait_heard("notes")


def scenario_orca_add_code_by_its_mnemonic_is_said(desktop):
    """Alt+A in Preferences adds a code: what to type is said (it was silent), and the
    empty fields do not read their examples as values."""
    orca, ui, step = heard_on_the_form(desktop, window_manager=True)
    step(["ctrl+comma"], "Preferences", "Add Code push button.")
    step(["alt+a"], "New code", never=["Code text. equals code."])


def scenario_orca_credit_fields_say_empty_and_confirm_changes(desktop):
    """The credits' page: an empty field says it is empty and gives its example as one;
    a credit typed and Enter says it is set; the form then reads the credits line once,
    as it is reached, and the save's notification names the credits that changed."""
    orca, ui, step = heard_on_the_form(desktop, window_manager=True)
    step(["ctrl+comma"], "Preferences")
    step(["ctrl+Next"], "Creator text.", "Not set", "for example Ana Lima", never=["Creator text. Ana Lima."])
    # The keys reach the field in order: Enter acts on the name typed.
    desktop.type("Rui Costa")
    step(["Return"], "Creator set to Rui Costa")
    step(["Escape"], "Title text.", "Credits colon: Rui Costa")
    desktop.type("Harbour")
    ui.wait_text(ui.title, "Harbour")
    desktop.key("Return")
    ui.wait_focus("Subtitle")
    desktop.type("Dusk")
    ui.wait_text(ui.subtitle, "Dusk")
    step(["Return"], "Saved", "Credits colon: Rui Costa")


def scenario_orca_enter_on_an_empty_field_says_what_it_will_do(desktop):
    """Shift+Enter back to an empty Title with Subtitle filled: the hint says Enter saves
    once the field is filled, not «Enter saves.»; Enter then says the title is required."""
    orca, ui, step = heard_on_the_form(desktop)
    desktop.key("Tab")
    ui.wait_focus("Subtitle")
    desktop.type("Dusk")
    ui.wait_text(ui.subtitle, "Dusk")
    step(["shift+Return"], "Title text.", "Enter saves once it is filled", never=["Enter saves."])
    step(["Return"], "Title required")


def scenario_orca_arrivals_are_named_with_the_queue(desktop):
    """A photo arriving in the watched folder is said by its name, with how many photos the
    queue holds (it was «1 new photo», alike for every arrival)."""
    first, arriving = desktop.photos("first.jpg", "arriving.jpg")
    orca, ui, watched = scenarios_watch.heard_watching(desktop, first)
    orca.start_listening()
    os.rename(arriving, os.path.join(watched, "arriving.jpg"))
    orca.wait_heard("arriving")
    orca.wait_heard("is new")
    orca.wait_heard("2 photos in the queue")
    expect(ui.focused_name() == "Title", f"focus moved to {ui.focused_name()!r}")
