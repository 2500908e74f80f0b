# What a blind user hears: Orca 43 itself, speaking into a log (orca.py), while the real
# caption binary is driven by keys. Each scenario asserts the phrases Orca says.

import os
import subprocess

from harness import TIMEOUT, Failure, expect, make_pads, wait_setting_saved, wait_until
from orca import Orca


def saved(desktop, *captions):
    """Saves (photo name, title, subtitle) entries through `caption --add`, before or while
    the window runs."""
    os.makedirs(desktop.library, exist_ok=True)
    for name, title, subtitle in captions:
        photo, = desktop.photos(name)
        subprocess.run([desktop.caption, "--library", desktop.library, "--add", photo, "--title", title,
                        "--subtitle", subtitle], env=desktop.env, capture_output=True, timeout=TIMEOUT, check=True)


def start(desktop, *photos):
    orca = Orca(desktop)
    orca.start_listening()
    ui = desktop.launch(*photos)
    return orca, ui


def heard_on_the_form(desktop, photo=None, window_manager=False):
    """The window on a photo (harbour.jpg unless given) with Orca listening, Title read and
    speech settled; returns Orca, the window and a journey's step. With `window_manager`,
    one gives focus back to the main window when Preferences closes."""
    if photo is None:
        photo, = desktop.photos("harbour.jpg")
    if window_manager:
        desktop.start_window_manager()
    orca, ui = start(desktop, photo)
    orca.wait_heard("Title text.")
    orca.settle()
    return orca, ui, stepper(desktop, orca)


def scenario_orca_harness_hears_zenity(desktop):
    """The set-up itself, proven on another program: zenity's entry says «Name text.»."""
    orca = Orca(desktop)
    orca.start_listening()
    zenity = desktop.spawn("zenity", ["zenity", "--entry", "--text", "Name"])
    window = wait_until("zenity's window", lambda: subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--pid", str(zenity.pid)], env=desktop.env,
        capture_output=True).stdout.split())
    desktop.xdotool("windowfocus", "--sync", window[0].decode())
    orca.wait_heard("Add a new entry dialog")
    try:
        orca.wait_heard("Name text.", timeout=3)
    except Failure:
        # Orca took the dialog's and the entry's focus events as one (it does, a few ms
        # apart, on a busy machine): focus leaves the entry and comes back.
        orca.start_listening()
        desktop.xdotool("key", "--delay", "200", "Tab", "shift+Tab")
        orca.wait_heard("Name text.")


def scenario_orca_start_with_a_photo_then_enter_says_enter_saves(desktop):
    """Started on a photo, focus is in Title and Orca says what Enter does; Enter moves to
    Subtitle and Orca says Enter now saves."""
    photo, = desktop.photos("harbour.jpg")
    orca, ui = start(desktop, photo)
    orca.wait_heard("Title text.")
    orca.wait_heard("Enter goes to the next empty field")
    desktop.type("Harbour")
    orca.start_listening()
    desktop.key("Return")
    orca.wait_heard("Subtitle text.")
    orca.wait_heard("Enter saves")


def scenario_orca_enter_on_an_empty_field_says_what_is_missing(desktop):
    photo, = desktop.photos("harbour.jpg")
    orca, ui = start(desktop, photo)
    orca.wait_heard("Title text.")
    desktop.type("Harbour")
    desktop.key("Return")
    orca.wait_heard("Subtitle text.")
    orca.settle()
    orca.start_listening()
    desktop.key("Return")
    orca.wait_heard("Subtitle required")
    # Said by the summary's alert; the field's description, which changes at the same
    # moment, does not say it again.
    orca.settle(1.5)
    orca.expect_heard_once("Subtitle required")
    # Back to Title: the field left behind does not say its message on the way.
    orca.start_listening()
    desktop.key("shift+Return")
    orca.wait_heard("Title text.")
    orca.settle()
    orca.expect_not_heard("required")
    # Back in Subtitle, the field says its message first, with the field.
    orca.start_listening()
    desktop.key("Return")
    orca.wait_heard("Subtitle text.")
    orca.wait_heard("Subtitle required")
    orca.settle()
    orca.expect_heard_once("Subtitle required")
    # Once the subtitle is typed the message is gone, and nothing says it again: not the
    # letters typed, not the save.
    orca.start_listening()
    desktop.type("Dusk")
    orca.settle()
    orca.expect_not_heard("required")
    orca.start_listening()
    desktop.key("Return")
    orca.wait_heard("Saved")
    orca.settle()
    orca.expect_not_heard("required")


def scenario_orca_moving_to_the_next_photo_says_the_field_once_and_nothing_of_the_last(desktop):
    """Ctrl+Page Down from a filled Subtitle to a photo without words: Orca names Title with
    the photo and what Enter does, each once; nothing of the field left behind (its words
    going were read as a letter typed there)."""
    first, second = desktop.photos("a.jpg", "b.jpg")
    orca, ui = start(desktop, first, second)
    orca.wait_heard("Title text.")
    desktop.type("Harbour")
    desktop.key("Return")
    orca.wait_heard("Subtitle text.")
    desktop.type("Dusk")
    orca.settle()
    orca.start_listening()
    desktop.key("ctrl+Next")
    orca.wait_heard("b dot jpg, 2 of 2")
    orca.settle()
    orca.expect_heard_once("Title text.")
    orca.expect_heard_once("Enter goes to the next empty field")
    keys = ("left control ", "page down ")
    stray = [line for line in orca.since_mark() if line not in keys and len(line.strip(" .")) <= 2]
    expect(not stray, f"Orca read {stray!r} on the way: {orca.since_mark()!r}")


def scenario_orca_save_of_an_empty_form_says_everything_missing(desktop):
    """Ctrl+S with nothing on the form: focus goes to Choose Photo…, which says the photo
    is missing and so are the title and the subtitle."""
    orca, ui = start(desktop)
    orca.wait_heard("Choose Photo")
    orca.settle()
    orca.start_listening()
    desktop.key("ctrl+s")
    orca.wait_heard("No photo chosen")
    orca.wait_heard("Title required")
    orca.wait_heard("Subtitle required")


def save_one(desktop, orca, title, subtitle):
    desktop.type(title)
    desktop.key("Return")
    orca.wait_heard("Enter saves")
    desktop.type(subtitle)
    orca.start_listening()
    desktop.key("Return")


def scenario_orca_saves_are_each_said_and_the_next_photo_is_named(desktop):
    """A journey through a queue of three: each save names the field focus lands in
    («Title text.»), says it saved, names the next photo with how many are left and how to
    undo; a second save seconds later, while the first notification still shows, is said
    too. Typing says what Enter does once, not again at the first letter."""
    first, second, third = desktop.photos("first.jpg", "second.jpg", "third.jpg")
    orca, ui = start(desktop, first, second, third)
    orca.wait_heard("Title text.")
    orca.settle()
    save_one(desktop, orca, "Harbour", "Dusk")
    orca.wait_heard("Title text.")
    orca.wait_heard("Saved  left quote Harbour right quote")
    orca.wait_heard("second dot jpg, 2 photos left.")
    orca.wait_heard("Ctrl plus Z to undo")
    orca.settle()
    orca.start_listening()
    desktop.type("Sec")
    orca.settle()
    orca.expect_not_heard("Enter goes to the next empty field")
    desktop.type("ond")
    desktop.key("Return")
    orca.wait_heard("Enter saves")
    desktop.type("Two")
    orca.start_listening()
    desktop.key("Return")
    orca.wait_heard("Title text.")
    orca.wait_heard("Saved  left quote Second right quote")
    orca.wait_heard("third dot jpg, 1 photo left.")


def scenario_orca_undo_is_said(desktop):
    photo, = desktop.photos("harbour.jpg")
    orca, ui = start(desktop, photo)
    orca.wait_heard("Title text.")
    save_one(desktop, orca, "Harbour", "Dusk")
    orca.wait_heard("Ctrl plus Z to undo")
    orca.settle()
    orca.start_listening()
    desktop.key("ctrl+z")
    orca.wait_heard("Save undone")


def scenario_orca_undo_still_works_once_the_notification_has_gone(desktop):
    """Ctrl+Z pressed after the save's notification went (while Orca still said it, for a
    slow listener) undoes the save and says so; a second Ctrl+Z says there is nothing to
    undo, rather than nothing at all."""
    photo, = desktop.photos("harbour.jpg")
    orca, ui = start(desktop, photo)
    orca.wait_heard("Title text.")
    save_one(desktop, orca, "Quay", "Dusk")
    orca.wait_heard("Saved")
    wait_until("the notification to go", lambda: ui.notification_text() is None or None, timeout=12)
    orca.settle()
    orca.start_listening()
    desktop.key("ctrl+z")
    orca.wait_heard("Save undone")
    expect(desktop.entries() == [], "the save was undone")
    orca.settle()
    orca.start_listening()
    desktop.key("ctrl+z")
    orca.wait_heard("Nothing to undo")


def scenario_orca_library_search_counts_and_empty_library_says_so(desktop):
    """Ctrl+L on an empty library focuses the search and says the library is empty; with
    entries, a search says how many match, or that nothing does; Escape says the search is
    cleared and how many entries show."""
    orca, ui = start(desktop)
    orca.settle()
    orca.start_listening()
    desktop.key("ctrl+l")
    orca.wait_heard("No captions yet")
    desktop.key("Escape")
    desktop.app_may_exit = False
    saved(desktop, ("first.jpg", "Harbour", "Dusk"), ("second.jpg", "Hills", "Dawn"))
    orca.settle()
    orca.start_listening()
    desktop.key("ctrl+f")
    orca.wait_heard("Search text.")
    desktop.type("H")
    orca.wait_heard("2 entries match  H ")
    desktop.type("arb")
    orca.wait_heard("1 entry matches  Harb ")
    desktop.type("zz")
    orca.wait_heard("Nothing matches")
    # Escape clears the search: said, with what shows again (it was silent).
    orca.settle()
    orca.start_listening()
    desktop.key("Escape")
    orca.wait_heard("Search cleared")
    orca.wait_heard("2 entries")


def scenario_orca_opening_an_entry_says_editing(desktop):
    """An entry opened from the library: Orca says the form is editing it and what Enter
    does, and focus lands in Title without passing Choose Photo… on the way. Orca says
    «Title», not the words as a selection («Harbour» «selected»)."""
    saved(desktop, ("first.jpg", "Harbour", "Dusk"))
    orca, ui = start(desktop)
    orca.settle()
    desktop.key("ctrl+l")
    orca.wait_heard("Harbour")
    orca.settle()
    orca.start_listening()
    desktop.key("Return")
    orca.wait_heard("Editing  left quote Harbour right quote")
    orca.wait_heard("Enter updates the entry")
    ui.wait_focus("Title")
    orca.wait_heard("Title text.")
    orca.settle()
    orca.expect_not_heard("Choose Photo")
    orca.expect_not_heard("selected")


def scenario_orca_delete_and_undo_in_the_library(desktop):
    saved(desktop, ("first.jpg", "Harbour", "Dusk"))
    orca, ui = start(desktop)
    orca.settle()
    desktop.key("ctrl+l")
    orca.wait_heard("Harbour")
    orca.settle()
    orca.start_listening()
    desktop.key("Delete")
    orca.wait_heard("Deleted  left quote Harbour right quote")
    orca.wait_heard("Ctrl plus Z to undo")
    orca.settle()
    orca.start_listening()
    desktop.key("ctrl+z")
    orca.wait_heard("Harbour")


def scenario_orca_menu_items_are_read_as_a_menu(desktop):
    """F10: «Main Menu menu», then its items by name, not as push buttons: first where
    captions go (its heading, then radio items, the chosen one checked), then the actions.
    End and Home go to the last item and back to the first, each said."""
    orca, ui = start(desktop)
    orca.settle()
    orca.start_listening()
    desktop.key("F10")
    orca.wait_heard("Main Menu menu")
    orca.wait_heard("Captions Go")
    orca.wait_heard("In Caption's Library Only selected radio menu item")
    for _ in range(3):
        desktop.key("Down")
    orca.wait_heard("Caption the Rest of the Queue the Same")
    desktop.key("Down")
    orca.wait_heard("Export All to a Folder")
    desktop.key("Down")
    orca.wait_heard("Watch a Folder")
    # Stop Watching the Folder is off while nothing is watched: the arrows pass it.
    desktop.key("Down")
    orca.wait_heard("Preferences")
    orca.settle()
    orca.expect_not_heard("push button")
    orca.start_listening()
    desktop.key("End")
    orca.wait_heard("About Caption")
    expect(ui.focused_name() == "About Caption", f"End went to {ui.focused_name()!r}")
    orca.settle()
    orca.start_listening()
    desktop.key("Home")
    orca.wait_heard("In Caption's Library Only")
    orca.wait_heard("Captions Go")
    orca.settle()
    desktop.key("Escape")


def scenario_orca_photo_button_names_the_photo_and_its_place(desktop):
    """Shift+Tab from Title to the photo button: it says which photo is loaded and where
    it is in the queue."""
    first, second = desktop.photos("first.jpg", "second.jpg")
    orca, ui = start(desktop, first, second)
    orca.wait_heard("Title text.")
    orca.settle()
    orca.start_listening()
    desktop.key("shift+Tab")
    orca.wait_heard("first dot jpg, 1 of 2")


def scenario_orca_tab_to_done_and_back_names_the_field_and_selects_nothing(desktop):
    """Both fields filled, Tab goes to Done, which says it saves; Shift+Tab comes back to
    Subtitle, named with its words, none of them selected; Shift+Tab again names Title."""
    photo, = desktop.photos("market.jpg")
    orca, ui = start(desktop, photo)
    orca.wait_heard("Title text.")
    desktop.type("Fish stall")
    desktop.key("Return")
    orca.wait_heard("Subtitle text.")
    desktop.type("Dawn")
    orca.settle()
    orca.start_listening()
    desktop.key("Tab")
    orca.wait_heard("Done push button")
    orca.settle()
    orca.start_listening()
    desktop.key("shift+Tab")
    orca.wait_heard("Subtitle text.")
    orca.settle()
    orca.expect_not_heard("selected")
    orca.start_listening()
    desktop.key("shift+Tab")
    orca.wait_heard("Title text.")
    orca.settle()
    orca.expect_not_heard("selected")


def scenario_orca_error_bar_close_button_is_named(desktop):
    """Ctrl+S on an empty title and subtitle, then Shift+Tab up to the error bar: its close
    button is «Close push button», not an unnamed one."""
    photo, = desktop.photos("first.jpg")
    orca, ui = start(desktop, photo)
    orca.wait_heard("Title text.")
    desktop.key("ctrl+s")
    orca.wait_heard("Title and subtitle required")
    orca.settle()
    orca.start_listening()
    desktop.key("shift+Tab", "shift+Tab")
    orca.wait_heard("Close push button")


def quit_with_words_and_start_again(desktop, orca, words):
    """Types `words`, waits for the draft, quits with Ctrl+Q and starts Caption again,
    listening from there."""
    desktop.type(words)
    # Ctrl+Q writes the draft of what the form holds: the words first, then the key.
    ui = desktop.ui
    wait_until("the words in the focused field", lambda: (lambda field: field is not None and ui.text(field).endswith(words))(
        ui.focused()) or None)
    desktop.app_may_exit = True
    desktop.key("ctrl+q")
    desktop.app.wait(timeout=TIMEOUT)
    orca.start_listening()
    desktop.launch()


def scenario_orca_restored_draft_is_announced(desktop):
    photo, = desktop.photos("first.jpg")
    orca, ui = start(desktop, photo)
    orca.wait_heard("Title text.")
    quit_with_words_and_start_again(desktop, orca, "Half typed")
    orca.wait_heard("Your unsaved captions are back")


def scenario_orca_restored_draft_resumes_where_the_words_were(desktop):
    """A journey across two runs: on photo 2 of 2 a title, Enter, half a subtitle, Ctrl+Q;
    the next start puts focus back in Subtitle, read with the photo and its place, never
    on Done (where Enter would save the half-typed words unheard), then says the draft
    is back."""
    photos = desktop.photos("dawn.jpg", "noon.jpg")
    orca, ui = start(desktop, *photos)
    orca.wait_heard("Title text.")
    orca.settle()
    desktop.key("ctrl+Next")
    orca.wait_heard("2 of 2")  # Orca reads the name as «noon jpg» or «noon dot jpg»
    orca.settle()
    desktop.type("Noon")
    desktop.key("Return")
    orca.wait_heard("Subtitle text.")
    quit_with_words_and_start_again(desktop, orca, "Half typ")
    orca.wait_heard("Subtitle text.")
    orca.wait_heard("Half typ")
    orca.wait_heard("2 of 2")
    orca.wait_heard("Your unsaved captions are back")
    orca.settle()
    orca.expect_not_heard("Done push button")
    expect(desktop.entries() == [], "nothing was saved")


def wait_typed_in_chooser(ui, text):
    """Waits until the focused field of a chooser (a dialog of the app's own, outside the
    main window) holds `text`: xdotool's keys have all arrived."""
    def typed():
        ui.refresh()
        return any(a.get_role_name() == "text" and ui._has(a, "focused") and ui.text(a).startswith(text)
                   for a in ui.walk(ui.app))
    wait_until(f"{text!r} in the chooser's field", typed)


def scenario_orca_chooser_refuses_a_file_that_is_not_a_photo_and_says_so(desktop):
    """Ctrl+O, the path of a file named .jpg that is not a photo typed into the file
    chooser, Enter: it is refused at once and said («Not a photo, not added: notes.jpg»),
    as a drop of it is; the photo on the form stays, and nothing joins the queue."""
    desktop.start_window_manager()
    photo, = desktop.photos("harbour.jpg")
    notes = os.path.join(os.path.dirname(photo), "notes.jpg")
    with open(notes, "w") as text:
        text.write("Agenda: captions at five.\n")
    orca, ui = start(desktop, photo)
    orca.wait_heard("Title text.")
    orca.settle()
    orca.start_listening()
    desktop.key("ctrl+o")
    # The chooser opens in the folder of the photo on the form, its list focused.
    orca.wait_heard("harbour dot jpg.")
    orca.settle()
    # A short name: the location field completes at every key, and Orca takes a second or
    # more over each key's events in a long path.
    desktop.key("ctrl+l")
    desktop.type("notes.jpg")
    wait_typed_in_chooser(ui, "notes.jpg")
    orca.settle()
    orca.start_listening()
    desktop.key("Return")
    orca.wait_heard("Not a photo, not added")
    orca.wait_heard("notes dot jpg")
    orca.settle()
    orca.expect_not_heard("Not an image Caption can read")  # it never reached the form
    ui.find("the preview of harbour.jpg, still on the form", role="image", name="Photo: harbour.jpg")
    expect(not ui.all(name=lambda n: n is not None and "of 2" in n), "the file joined the queue")


def scenario_orca_export_folder_typed_then_enter_exports_there(desktop):
    """Ctrl+E opens the folder chooser in a folder, not on Recent; Ctrl+L, the folder's path
    and one Enter export into it, and Orca says so. The next Ctrl+E opens in that folder,
    where Enter alone exports again."""
    desktop.start_window_manager()
    saved(desktop, ("first.jpg", "Harbour", "Dusk"))
    export = os.path.join(desktop.root, "export")
    os.makedirs(export)
    orca, ui = start(desktop)
    orca.settle()
    orca.start_listening()
    desktop.key("ctrl+e")
    orca.wait_heard("Export Every Entry to a Folder")
    orca.settle()
    orca.expect_not_heard("Recent")
    desktop.key("ctrl+l")
    # From the home folder, where it opens (no Pictures folder here); short, as the
    # location field completes at every key.
    desktop.type("../export")
    wait_typed_in_chooser(ui, "../export")
    orca.settle()
    orca.start_listening()
    desktop.key("Return")
    orca.wait_heard("One photo exported to  left quote export right quote")
    expect(os.listdir(export) == ["Harbour.jpg"], f"the export folder holds {os.listdir(export)}")
    os.remove(os.path.join(export, "Harbour.jpg"))
    orca.settle()
    orca.start_listening()
    desktop.key("ctrl+e")
    orca.wait_heard("Export Every Entry to a Folder")
    orca.settle()
    orca.start_listening()
    desktop.key("Return")
    orca.wait_heard("One photo exported to  left quote export right quote")
    expect(os.listdir(export) == ["Harbour.jpg"], f"the export folder holds {os.listdir(export)} the second time")


def scenario_orca_moving_on_with_words_selected_deletes_nothing_aloud(desktop):
    """Words typed in both fields, the subtitle's selected, then Ctrl+Page Down and Ctrl+Page
    Up: the words stay with their photo, so Orca names the photo it moves to and never says
    «Selection deleted»; back on the photo with both fields filled, focus is on Done,
    which names the photo too."""
    first, second = desktop.photos("first.jpg", "second.jpg")
    orca, ui = start(desktop, first, second)
    orca.wait_heard("Title text.")
    title = ui.find("the title", role="text", name="Title")
    subtitle = ui.find("the subtitle", role="text", name="Subtitle")
    desktop.type("Fish stall")
    desktop.key("Return")
    ui.wait_focus("Subtitle")
    desktop.type("Dawn")
    ui.wait_text(subtitle, "Dawn")
    desktop.key("shift+Home")
    wait_until("the words selected", lambda: ui.Atspi.Text.get_n_selections(subtitle) == 1)
    orca.settle()
    orca.start_listening()
    desktop.key("ctrl+Next")
    orca.wait_heard("jpg, 2 of 2.")
    orca.settle()
    desktop.key("ctrl+Prior")
    orca.wait_heard("Done push button")
    orca.wait_heard("first dot jpg, 1 of 2")
    orca.settle()
    orca.expect_not_heard("deleted")
    expect((ui.text(title), ui.text(subtitle)) == ("Fish stall", "Dawn"), "the words came back")


def scenario_orca_photos_handed_over_are_named(desktop):
    """Photos that arrive by Open With into an empty window: the focused Title names the
    photo and its place in the queue; Ctrl+Page Down names the next one, and focus does not
    pass Choose Photo… on the way."""
    first, second = desktop.photos("first.jpg", "second.jpg")
    orca = Orca(desktop)
    orca.start_listening()
    desktop.launch(default_library=True)
    orca.wait_heard("Choose Photo")
    orca.settle()
    orca.start_listening()
    subprocess.run([desktop.caption, first, second], env=desktop.env, capture_output=True, timeout=TIMEOUT)
    orca.wait_heard("Title text.")
    orca.wait_heard("first dot jpg, 1 of 2.")
    orca.settle()
    orca.start_listening()
    desktop.key("ctrl+Next")
    # A description that changes is read with "jpg", a focused field's with "dot jpg"; the
    # window title's change has no full stop.
    orca.wait_heard("jpg, 2 of 2.")
    orca.settle()
    orca.expect_not_heard("Choose Photo")


def scenario_orca_library_rows_name_their_photo(desktop):
    """A row of the library is read with its thumbnail named after the photo, not as an
    unnamed «image.»: on Ctrl+L and as the cursor moves."""
    saved(desktop, ("first.jpg", "Harbour", "Dusk"), ("second.jpg", "Bridge", "Dusk"))
    orca, ui = start(desktop)
    orca.settle()
    orca.start_listening()
    desktop.key("ctrl+l")
    orca.wait_heard("Bridge Dusk.")
    orca.wait_heard("Photo colon: second dot jpg.")
    orca.settle()
    orca.start_listening()
    desktop.key("Down")
    orca.wait_heard("Harbour Dusk.")
    orca.wait_heard("Photo colon: first dot jpg.")
    orca.settle()
    orca.expect_not_heard("image")


def scenario_orca_library_rows_keep_their_words_after_search_delete_and_undo(desktop):
    """A journey through the library: letters typed in the list go to the search, which is
    named and, once typing pauses, says the count for the words typed (never an earlier
    one); Down into the results, Delete, Ctrl+Z: each row the cursor lands on is read with
    its title and subtitle, not only its photo."""
    saved(desktop, ("first.jpg", "Harbour", "Dusk"), ("second.jpg", "Hills", "Dawn"),
          ("third.jpg", "Hilltop", "Noon"))
    orca, ui = start(desktop)
    orca.settle()
    desktop.key("ctrl+l")
    orca.wait_heard("Hilltop Noon.")
    orca.settle()
    orca.start_listening()
    desktop.type("Hil")
    orca.wait_heard("Search text.")
    orca.wait_heard("2 entries match  Hil ")
    orca.settle()
    orca.expect_heard_once("entries match")
    orca.start_listening()
    desktop.key("Down")
    # A row is read whole («Hilltop Noon.») or, on the row number Orca read last, as its
    # thumbnail, which then says the words too («Hilltop, Noon. Photo: third.jpg»).
    orca.wait_heard("Noon.")
    orca.settle()
    orca.start_listening()
    desktop.key("Delete")
    orca.wait_heard("Deleted  left quote Hilltop right quote")
    orca.wait_heard("Dawn.")
    orca.settle()
    orca.start_listening()
    desktop.key("ctrl+z")
    orca.wait_heard("Noon.")
    orca.settle()
    orca.start_listening()
    desktop.key("Down")
    orca.wait_heard("Hills Dawn.")
    orca.settle()
    orca.expect_not_heard("Hills, Dawn")  # a row read whole says its words once


def scenario_orca_shortcuts_window_is_read_line_by_line(desktop):
    """Under a window manager (the Shortcuts window gets focus only there), Ctrl+? opens the
    Shortcuts window and Tab goes from line to line, each read as its title and keys."""
    desktop.start_window_manager()
    photo, = desktop.photos("harbour.jpg")
    orca, ui = start(desktop, photo)
    orca.wait_heard("Title text.")
    orca.settle()
    orca.start_listening()
    desktop.key("ctrl+question")
    orca.wait_heard("Keyboard shortcuts")
    # Focus is on the first line as the window opens.
    orca.wait_heard("Next field, or save when everything is filled colon: Return.")
    orca.settle()
    orca.start_listening()
    desktop.key("Tab")
    orca.wait_heard("Previous field colon: Shift plus Return.")
    # Back past the first line: the header's search button, which has a name.
    orca.settle()
    orca.start_listening()
    desktop.key("shift+Tab", "shift+Tab")
    orca.wait_heard("Search Shortcuts toggle button")


def scenario_orca_completion_offers_are_said(desktop):
    """Typing the start of an earlier title: Orca says how many suggestions there are;
    Down: which one is chosen and that Enter takes it."""
    import scenarios_shorthand
    scenarios_shorthand.earlier(desktop, ("Brooklyn Bridge at dawn", "Fog"))
    photo, = desktop.photos("harbour.jpg")
    orca, ui = start(desktop, photo)
    orca.wait_heard("Title text.")
    orca.start_listening()
    # One letter: Orca says the offers after echoing it; a next key at once would cut the
    # offers short (each key's echo interrupts speech), as it does for anyone typing on.
    desktop.type("b")
    # Orca says a changed description of the focused field, sentence by sentence.
    orca.wait_heard("1 suggestion: Brooklyn Bridge at dawn.")
    orca.wait_heard("Down to choose it")
    orca.start_listening()
    desktop.key("Down")
    orca.wait_heard("Suggestion 1 of 1: Brooklyn Bridge at dawn.")
    orca.wait_heard("Enter takes it")


def scenario_orca_code_replacement_and_its_undo_are_said(desktop):
    """A code and a space: Orca says the text the code became; Ctrl+Z: the code put back.
    Neither says again what the field said as focus came (the photo, what Enter does)."""
    import scenarios_shorthand
    scenarios_shorthand.codes(desktop, "=bb\tBrooklyn Bridge\n")
    photo, = desktop.photos("harbour.jpg")
    orca, ui = start(desktop, photo)
    orca.wait_heard("Title text.")
    orca.settle()
    orca.start_listening()
    desktop.type("=bb ")
    orca.wait_heard("Brooklyn Bridge.")
    orca.wait_heard("Z takes it back")  # Orca says «Ctrl Z»
    orca.settle()
    orca.expect_not_heard("Enter goes to the next empty field")
    orca.expect_not_heard("harbour")
    orca.start_listening()
    desktop.key("ctrl+z")
    orca.wait_heard("is back")
    orca.settle()
    orca.expect_not_heard("Enter goes to the next empty field")


def scenario_orca_length_counter_is_said(desktop):
    """Past 80 % of Title's 120 characters, Orca says the count with each character typed
    («100 of 120 characters»), once; and with the field when focus comes back to it."""
    photo, = desktop.photos("harbour.jpg")
    orca, ui = start(desktop, photo)
    orca.wait_heard("Title text.")
    desktop.type("x" * 95)
    ui.wait_text(ui.title, "x" * 95)
    orca.settle()
    orca.start_listening()
    # 96 characters are 80 %: no count yet.
    desktop.type("x")
    ui.wait_text(ui.title, "x" * 96)
    orca.settle()
    orca.expect_not_heard("of 120 characters")
    desktop.type("xxx")
    ui.wait_text(ui.title, "x" * 99)
    orca.settle()
    orca.start_listening()
    desktop.type("y")
    orca.wait_heard("100 of 120 characters")
    orca.settle()
    orca.expect_heard_once("100 of 120 characters")
    # Away and back: the count is said with the field.
    desktop.key("Return")
    orca.wait_heard("Subtitle text.")
    orca.settle()
    orca.start_listening()
    desktop.key("shift+Return")
    orca.wait_heard("Title text.")
    orca.wait_heard("100 of 120 characters")


def scenario_orca_caption_the_rest_says_how_to_cancel(desktop):
    """Caption the Rest of the Queue the Same on a long queue: as the progress shows, Orca
    says the work and the key that cancels it; after Alt+C, what was saved and how to undo
    it."""
    import scenarios_reuse
    photos = scenarios_reuse.large_photos(desktop, 30)
    orca, ui = start(desktop, *photos)
    orca.wait_heard("Title text.")
    desktop.type("Pier")
    desktop.key("Return")
    desktop.type("Morning")
    desktop.key("F10")
    desktop.key("Down", "Down", "Down")
    ui.wait_focus("Caption the Rest of the Queue the Same")
    orca.settle()
    orca.start_listening()
    desktop.key("Return")
    orca.wait_heard("notification Captioning the rest")
    orca.wait_heard("Press Alt plus C to cancel.")
    said = orca.since_mark()
    first = next(i for i, line in enumerate(said) if "notification Captioning the rest" in line)
    expect(not any("percent" in line for line in said[:first]),
           f"the progress was said before the notification that names it: {said!r}")
    # Focus stays where it was while the batch runs: not on Choose Photo…, where Enter would
    # open the chooser.
    expect(ui.focused_name() == "Subtitle", f"focus went to {ui.focused_name()!r}")
    orca.expect_not_heard("Choose Photo")
    desktop.key("alt+c")
    # However many were saved before Cancel took: said with the notification that replaces
    # the progress.
    orca.wait_heard("notification Captioned ", timeout=TIMEOUT * 3)
    orca.wait_heard("Press Ctrl plus Z to undo.")


def stepper(desktop, orca):
    """A journey's step: the keys pressed, each phrase heard in turn, the speech settled,
    and none of `never` heard meanwhile."""
    def step(keys, *phrases, never=()):
        orca.start_listening()
        for key in keys:
            desktop.key(key)
        for phrase in phrases:
            orca.wait_heard(phrase)
        orca.settle()
        for phrase in never:
            orca.expect_not_heard(phrase)
    return step


def scenario_orca_credits_journey_set_by_ear_and_saved_into_the_photo(desktop):
    """The standing credits by ear, in one session: in Preferences, Ctrl+Page Down goes to the
    Credits page on Creator; each Enter goes on to the next credit, each named as it is
    reached; after the last, the choice says what it does, and Tab reaches the IIM choice,
    said checked. Escape closes, the caption is typed and saved, and the photo carries the
    credits, {year} as the year it was taken, in XMP and in the IIM block it gets."""
    import scenarios_shorthand
    config = os.path.join(desktop.env["XDG_CONFIG_HOME"], "caption")
    os.makedirs(config, exist_ok=True)
    with open(os.path.join(config, "window.ini"), "w") as state:
        state.write("[captions]\ndestination=photo\n")
    photo, = desktop.photos("harbour.jpg")
    scenarios_shorthand._tag_as_camera(photo)
    desktop.start_window_manager()
    orca, ui = start(desktop, photo)
    orca.wait_heard("Title text.")
    orca.settle()

    step = stepper(desktop, orca)

    # No codes yet: the codes' page opens on Add Code.
    step(["ctrl+comma"], "Preferences", "Add Code push button.")
    step(["ctrl+Page_Down"], "Creator text.")
    desktop.type("Ana Lima")
    step(["Return"], "Credit line text.", never=["Search codes"])
    desktop.type("Lusa")
    step(["Return"], "Copyright notice text.")
    desktop.type("(c) {year} Ana Lima")
    step(["Return"], "Source text.")
    step(["Return", "Return", "Return"], "Country code text.")
    step(["Return"], "Replace the credits a photo already carries check box not checked",
         "A photo that already names its Creator")
    # Orca speaks the hyphen.
    step(["Tab"], "Add IPTC dash IIM to JPEG and TIFF photos that have none check box checked",
         "IPTC dash IIM is added to JPEG and TIFF photos that have none.")
    wait_setting_saved(desktop, "copyright=(c) {year} Ana Lima", "the credits saved as typed")
    step(["Escape"], "Title text.")
    desktop.type("Harbour")
    step(["Return"], "Subtitle text.")
    desktop.type("Boats at dawn")
    step(["Return"], "Saved")

    def written():
        result = subprocess.run(["exiftool", "-s3", "-XMP-dc:Creator", "-XMP-dc:Rights", "-XMP-photoshop:Credit",
                                 "-IPTC:By-line", "-IPTC:ObjectName", photo],
                                env=desktop.env, capture_output=True, timeout=TIMEOUT)
        lines = result.stdout.decode().splitlines()
        # The photo had no IIM: it gets a block, for older systems, with the caption too.
        return lines if lines == ["Ana Lima", "(c) 2024 Ana Lima", "Lusa", "Ana Lima", "Harbour"] else None

    wait_until("the credits in the photo", written)


def scenario_orca_preferences_journey_codes_read_removed_and_put_back(desktop):
    """A journey through Preferences by ear, in one session: Ctrl+comma says the page and
    what codes do; Down reads each row as its code and its text; Tab goes through the fields
    (each named) and a remove button named after its code, never stuck; removing says which
    code went, and Ctrl+Z that it is back, in the file too; a search says how many match;
    Escape clears it, the next closes, and the form is where it was."""
    import scenarios_shorthand
    scenarios_shorthand.codes(desktop, "=bb\tBrooklyn Bridge\n=gap\tGrand Army Plaza\n")
    table = os.path.join(desktop.env["XDG_CONFIG_HOME"], "caption", "replacements.tsv")
    orca, ui, step = heard_on_the_form(desktop, window_manager=True)

    step(["ctrl+comma"], "Preferences", "Search codes text.", "Type a code, then a space")
    step(["Down"], "Code Replacements, 2 codes.", "equals bb.", "Brooklyn Bridge.")
    step(["Down"], "equals gap.", "Grand Army Plaza.", never=["Brooklyn"])
    step(["Tab"], "Code text.", "equals gap")
    step(["Tab"], "Text for the code text.", "Grand Army Plaza")
    step(["Tab"], "Remove the code  equals gap push button.")
    # The code removed is the one the button named, and what is said is that one, with Undo.
    step(["space"], "notification Removed  equals gap", "Press Ctrl plus Z to undo",
         never=["Remove the code  equals bb", "Grand Army"])
    wait_until("the file without =gap", lambda: "=gap" not in open(table).read() or None)
    step(["ctrl+z"], "equals gap is back")
    wait_until("=gap back in the file", lambda: "=gap\tGrand Army Plaza\n" in open(table).read() or None)
    orca.start_listening()
    desktop.key("ctrl+f")
    orca.wait_heard("Search codes text.")
    desktop.type("bridge")
    orca.wait_heard("1 code matches")
    orca.settle()
    step(["Escape"], "Search cleared colon: 2 codes")
    step(["Escape"], "Title text.")



def scenario_orca_caption_checks_are_said_and_alt_m_makes_the_name_right(desktop):
    """A journey by ear through the checks at Done: a placeholder is said with how to go on,
    mended, and Done then says the name spelt otherwise than the codes spell it; Alt+M puts
    the codes' spelling in and Orca reads the field; Done saves the mended caption."""
    import scenarios_shorthand
    scenarios_shorthand.codes(desktop, "=bo\tBarack Obama (USA)\n")
    orca, ui, step = heard_on_the_form(desktop)
    desktop.type("Summit TK")
    ui.wait_text(ui.title, "Summit TK")
    desktop.key("Return")
    ui.wait_focus("Subtitle")
    desktop.type("Barak Obama waves")
    ui.wait_text(ui.subtitle, "Barak Obama waves")
    orca.settle()
    orca.start_listening()
    desktop.key("Return")
    orca.wait_heard("is a placeholder left in")
    orca.wait_heard("Done again saves the caption as it is")
    ui.wait_focus("Title")
    # The words found are selected: typing replaces them.
    desktop.type("at dusk")
    ui.wait_text(ui.title, "Summit at dusk")
    desktop.key("Tab")
    ui.wait_focus("Subtitle")
    orca.settle()
    orca.start_listening()
    desktop.key("Return")
    orca.wait_heard("is spelt")
    orca.wait_heard("Barack Obama")
    orca.wait_heard("in the codes")
    ui.wait_focus("Subtitle")
    expect(desktop.entries() == [], "a finding saved the caption")
    orca.settle()
    orca.start_listening()
    desktop.key("alt+m")
    ui.wait_text(ui.subtitle, "Barack Obama waves")
    orca.wait_heard("became")
    orca.wait_heard("Barack Obama")
    desktop.key("Return")
    entries = desktop.wait_for_entries(1)
    expect((entries[0]["title"], entries[0]["subtitle"]) == ("Summit at dusk", "Barack Obama waves"),
           f"saved {entries[0]['title']!r} / {entries[0]['subtitle']!r}")


def scenario_orca_a_check_switched_off_by_ear_lets_done_save(desktop):
    """Preferences by ear: Ctrl+Page Up from the codes goes round to the Checks page, on its
    first switch, said checked; Space switches it off, said; Escape, and a caption with a
    placeholder left in is saved at the first Done."""
    desktop.start_window_manager()
    photo, = desktop.photos("harbour.jpg")
    orca, ui = start(desktop, photo)
    orca.wait_heard("Title text.")
    orca.settle()
    step = stepper(desktop, orca)
    step(["ctrl+comma"], "Preferences", "Add Code push button.")
    step(["ctrl+Page_Up"], "Placeholders, codes and variables left in check box checked")
    step(["space"], "not checked")
    wait_setting_saved(desktop, "leftovers=false", "the switch saved")
    step(["Escape"], "Title text.")
    desktop.type("Mayor TK")
    step(["Return"], "Subtitle text.")
    desktop.type("Opens the bridge")
    step(["Return"], "Saved")
    entries = desktop.wait_for_entries(1)
    expect(entries[0]["title"] == "Mayor TK", f"saved {entries[0]['title']!r}")


def scenario_orca_a_stationery_pad_chosen_by_key_is_said_and_its_credits_saved(desktop):
    """Two stationery pads, one an agency's template made by exiftool: Ctrl+2 while typing
    the title says the pad and its credits and leaves the keyboard in the field; F10 reads
    the pads as radio items under their heading, the chosen one selected; the caption saved
    carries the pad's credits."""
    make_pads(desktop, {"Freelance": ["-XMP-dc:Creator=Rui Costa"],
                        "Lusa": ["-XMP-dc:Creator=Ana Lima", "-XMP-photoshop:Credit=Agencia Lusa",
                                 "-XMP-photoshop:Headline=Match day"]})
    orca, ui, step = heard_on_the_form(desktop)
    desktop.type("Goal")
    ui.wait_text(ui.title, "Goal")
    orca.settle()
    orca.start_listening()
    desktop.key("ctrl+2")
    orca.wait_heard("Stationery pad")
    orca.wait_heard("Agencia Lusa")
    # Typed on at once: the keyboard never left the field.
    desktop.type(" at dusk")
    ui.wait_text(ui.title, "Goal at dusk")
    orca.settle()
    orca.start_listening()
    desktop.key("F10")
    orca.wait_heard("In Caption's Library Only selected radio menu item")
    orca.settle()
    orca.start_listening()
    for _ in range(5):
        desktop.key("Down")
    orca.wait_heard("Stationery Pad")
    orca.wait_heard("Lusa selected radio menu item")
    orca.settle()
    step(["Escape"], "Title text.")
    step(["Return"], "Subtitle text.")
    desktop.type("Lisbon, Dec 6")
    step(["Return"], "Saved")
    desktop.wait_for_entries(1)
    sheet = subprocess.run([desktop.caption, "--library", desktop.library, "--list", "--csv"],
                           env=desktop.env, capture_output=True, timeout=TIMEOUT, check=True)
    expect("Agencia Lusa" in sheet.stdout.decode() and "Ana Lima" in sheet.stdout.decode(),
           f"saved without the pad's credits: {sheet.stdout.decode()!r}")


def scenario_orca_a_destination_chosen_by_ear_gets_each_saved_photo_and_a_failure_is_said(desktop):
    """Sending as you go, by ear: a destination added by the command line appears in F10's
    menu under its heading, after where captions go, as a radio item; chosen, it is said,
    and Escape puts the keyboard back in Title. Each photo saved arrives in it, captioned. When the
    destination stops taking photos, the next save says so with the reason."""
    outbox = os.path.join(desktop.root, "outbox")
    added = subprocess.run([desktop.caption, "--add-destination", "Outbox", outbox], env=desktop.env,
                           capture_output=True, timeout=TIMEOUT)
    expect(added.returncode == 0, f"--add-destination: {added.stderr.decode()!r}")
    first, second = desktop.photos("first.jpg", "second.jpg")
    orca, ui = start(desktop, first, second)
    orca.wait_heard("Title text.")
    orca.settle()
    step = stepper(desktop, orca)
    step(["F10"], "In Caption's Library Only selected radio menu item")
    step(["Down", "Down", "Down"], "Send Saved Photos To", "Send Nowhere selected radio menu item")
    step(["Down"], "Outbox not selected radio menu item")
    # A radio item keeps the menu open, as GTK's do: Escape goes back to the field.
    step(["Return"], "Each photo saved is sent to Outbox", "Outbox selected radio menu item")
    step(["Escape"], "Title text.")
    save_one(desktop, orca, "Harbour at dawn", "Boats come in")
    orca.wait_heard("Saved  left quote Harbour at dawn right quote")
    sent = os.path.join(outbox, "Harbour at dawn.jpg")
    wait_until("the photo in the destination", lambda: os.path.exists(sent) or None)
    read = subprocess.run(["exiftool", "-s3", "-Description", sent], capture_output=True, timeout=TIMEOUT)
    expect(read.stdout.decode().strip() == "Boats come in", f"sent with {read.stdout.decode()!r}")
    orca.settle()
    # The destination's folder becomes one that cannot be made (its parent a file).
    blocker = os.path.join(desktop.root, "unplugged")
    with open(blocker, "w") as f:
        f.write("x")
    destinations = os.path.join(desktop.env["XDG_CONFIG_HOME"], "caption", "destinations.ini")
    with open(destinations, "w") as f:
        f.write(f"[Outbox]\naddress={blocker}/outbox/\n")
    save_one(desktop, orca, "Quay", "Nets drying")
    orca.wait_heard("Photos are not being sent to Outbox")
    orca.wait_heard("They wait until the next save")


def scenario_orca_a_new_stationery_pad_named_by_ear_then_chosen_by_key(desktop):
    """Preferences by ear: on the Credits page, Shift+Tab from Creator reaches the pad row,
    its list said with the standing credits chosen; Alt+W opens the name field, said; a name
    taken is said, then a new name makes the pad, said, and the page's heading follows.
    Escape, and in the form Ctrl+1 says the new pad's credits, copied from the standing ones."""
    subprocess.run([desktop.caption, "--set-credits", "--creator", "Ana Lima"], env=desktop.env,
                   capture_output=True, timeout=TIMEOUT, check=True)
    subprocess.run([desktop.caption, "--set-credits", "--source", "Lusa", "--pad", "Lusa"], env=desktop.env,
                   capture_output=True, timeout=TIMEOUT, check=True)
    orca, ui, step = heard_on_the_form(desktop, window_manager=True)
    step(["ctrl+comma"], "Preferences", "Add Code push button.")
    step(["ctrl+Page_Down"], "Creator text.")
    step(["shift+Tab"], "Import Pad")
    step(["shift+Tab"], "New Pad")
    step(["shift+Tab"], "Stationery pad", "No pad")
    step(["alt+w"], "Name of the new pad text.")
    desktop.type("Lusa")
    step(["Return"], "There is a stationery pad", "already")
    # The name stays in its field, to be mended.
    for _ in range(4):
        desktop.key("BackSpace")
    desktop.type("Press Desk")
    step(["Return"], "made and in use")
    pad = os.path.join(desktop.env["XDG_CONFIG_HOME"], "caption", "pads", "Press Desk.xmp")
    wait_until("the pad written", lambda: os.path.exists(pad) or None)
    step(["Escape"], "Title text.")
    step(["ctrl+1"], "Stationery pad", "Lusa")
    step(["ctrl+2"], "Stationery pad", "Ana Lima")


def scenario_orca_fields_turned_on_by_ear_are_reached_by_enter_through_a_pad_switch(desktop):
    """The form's fields by ear: in Preferences, Ctrl+Page Down twice reaches the Fields
    page on Headline, said with its place in the list; Space turns it on, Tab and Space turn
    on Keywords, Alt+Up moves Keywords first, said with its new place. Escape, and Enter
    leads from Subtitle to Keywords, then Headline, each said; Ctrl+1 in Keywords chooses a
    pad, said, the keyboard kept; the caption is saved with its keywords and the pad's
    credits."""
    make_pads(desktop, {"Lusa": ["-XMP-dc:Creator=Ana Lima", "-XMP-photoshop:Credit=Agencia Lusa"]})
    orca, ui, step = heard_on_the_form(desktop, window_manager=True)
    step(["ctrl+comma"], "Preferences", "Add Code push button.")
    step(["ctrl+Page_Down"], "Creator text.")
    step(["ctrl+Page_Down"], "Headline check box not checked", "1 of 9 in the list")
    step(["space"], "checked")
    step(["Tab"], "Keywords check box not checked", "2 of 9 in the list")
    step(["space"], "checked")
    step(["alt+Up"], "Keywords check box checked", "1 of 9 in the list")
    wait_setting_saved(desktop, "fields=keywords;headline", "the fields saved")
    step(["Escape"], "Title text.")
    desktop.type("Harbour")
    step(["Return"], "Subtitle text.")
    desktop.type("Boats at dawn")
    step(["Return"], "Keywords text.")
    desktop.type("harbour, boats")
    ui.wait_text(ui.find("the Keywords field", role="text", name="Keywords"), "harbour, boats")
    orca.settle()
    orca.start_listening()
    desktop.key("ctrl+1")
    orca.wait_heard("Stationery pad")
    orca.wait_heard("Agencia Lusa")
    orca.settle()
    expect(ui.focused_name() == "Keywords", f"the pad's key moved focus to {ui.focused_name()!r}")
    step(["Return"], "Headline text.")
    step(["Return"], "Saved")
    entries = desktop.wait_for_entries(1)
    expect(entries[0].get("keywords") == ["harbour", "boats"] and "headline" not in entries[0],
           f"saved {entries[0]!r}")
    expect(entries[0].get("credits", {}).get("creator") == "Ana Lima",
           f"saved without the pad's credits: {entries[0]!r}")


def scenario_orca_a_pads_own_dateline_pattern_is_made_and_said_by_ear(desktop):
    """An agency's pad given checks of its own by ear: with the pad in use, the Checks page
    opens on "Own checks for the stationery pad", said; Space gives the pad its checks,
    Alt+D switches the dateline on, Alt+L reaches the pattern, said; the pattern typed is
    kept in the pad's file, not in Preferences'. Escape, and Done on a subtitle that does
    not open so says the part wanted and the word; Done again saves."""
    make_pads(desktop, {"Wire": ["-XMP-dc:Creator=Ana Lima", "-XMP-photoshop:Credit=Wire Agency"]})
    subprocess.run([desktop.caption, "--use-pad", "Wire"], env=desktop.env, capture_output=True,
                   timeout=TIMEOUT, check=True)
    pad = os.path.join(desktop.env["XDG_CONFIG_HOME"], "caption", "pads", "Wire.xmp")
    orca, ui, step = heard_on_the_form(desktop, window_manager=True)
    step(["ctrl+comma"], "Preferences", "Add Code push button.")
    step(["ctrl+Page_Up"], "Own checks for the stationery pad", "check box not checked")
    step(["space"], "checked")
    wait_until("the pad given checks", lambda: "ChecksOn" in open(pad).read() or None)
    step(["alt+d"], "A place and a date in the subtitle", "checked")
    step(["alt+l"], "Dateline pattern text.")
    desktop.type("CITY, COUNTRY - MONTH D:")
    desktop.key("Return")
    wait_until("the pattern kept in the pad",
               lambda: "CITY, COUNTRY - MONTH D:" in open(pad).read() or None)
    settings = os.path.join(desktop.env["XDG_CONFIG_HOME"], "caption", "credits.ini")
    expect("dateline_pattern" not in open(settings).read(), "the pattern went into Preferences' own checks")
    step(["Escape"], "Title text.")
    desktop.type("Ferry")
    step(["Return"], "Subtitle text.")
    desktop.type("Lisbon - May 17: boats")
    ui.wait_text(ui.subtitle, "Lisbon - May 17: boats")
    orca.settle()
    orca.start_listening()
    desktop.key("Return")
    orca.wait_heard("does not open with the dateline")
    orca.wait_heard("is wanted at")
    orca.wait_heard("Done again saves the caption as it is")
    ui.wait_focus("Subtitle")
    expect(desktop.entries() == [], "a finding saved the caption")
    step(["Return"], "Saved")
    entries = desktop.wait_for_entries(1)
    expect(entries[0]["subtitle"] == "Lisbon - May 17: boats", f"saved {entries[0]['subtitle']!r}")
