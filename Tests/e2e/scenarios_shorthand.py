# Scenarios of typing less: completion offers from earlier captions (Enter that accepts an
# offer does only that, also right after an input method's composition, under GTK's simple
# method and ibus-libpinyin), code replacements and their Undo, the Preferences window that
# edits them, and caption variables. By keys alone, read through AT-SPI.

import os
import subprocess

from harness import TIMEOUT, Failure, expect, input_method, wait_until
import scenarios_input_methods as ibus_support



def earlier(desktop, *captions):
    """Saves captions into the library before the window opens, as earlier sessions did."""
    for index, (title, subtitle) in enumerate(captions):
        photo = desktop.photos(f"earlier{index}.jpg")[0]
        result = subprocess.run([desktop.caption, "--library", desktop.library, "--add", photo,
                                 "--title", title, "--subtitle", subtitle],
                                env=desktop.env, capture_output=True, timeout=TIMEOUT)
        if result.returncode != 0:
            raise Failure(f"caption --add failed: {result.stderr.decode(errors='replace').strip()}")


def codes(desktop, text):
    """The user's replacements.tsv, written before the window opens."""
    folder = os.path.join(desktop.env["XDG_CONFIG_HOME"], "caption")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "replacements.tsv"), "w") as table:
        table.write(text)


def wait_description(ui, entry, part):
    try:
        return wait_until(f"{entry.get_name()}'s description to say {part!r}",
                          lambda: part in (ui.description(entry) or "") or None)
    except Failure as failure:
        raise Failure(f"{failure}; it says {ui.description(entry)!r}") from None


def expect_nothing_else(desktop, ui, entry, saved):
    """After an Enter that accepted an offer: focus stayed, nothing more was saved."""
    ui.handled()
    expect(ui.focused_name() == entry.get_name(),
           f"the Enter that accepted the offer moved focus to {ui.focused_name()!r}")
    expect(len(desktop.entries()) == saved, "the Enter that accepted the offer saved")


def accept_offer_then_move_on(desktop, ui, offer):
    """Down chooses the first offer, Enter takes it and does nothing else; the next Enter
    goes on to Subtitle."""
    wait_description(ui, ui.title, "Down to choose")
    desktop.key("Down")
    wait_description(ui, ui.title, f"Suggestion 1 of 1: {offer}")
    saved = len(desktop.entries())
    desktop.key("Return")
    ui.wait_text(ui.title, offer)
    expect_nothing_else(desktop, ui, ui.title, saved)
    desktop.key("Return")
    ui.wait_focus("Subtitle")


@input_method("gtk-im-context-simple")
def scenario_completion_enter_accepts_an_offer_simple_input_method(desktop):
    """An earlier title is offered as its start is typed (letter case aside); Down and Enter
    take it, without moving on; Enter with no offer chosen does what the button says. A
    composition (Ctrl+Shift+U 4e2d) confirmed by Enter stays the input method's: the offer
    of the earlier Chinese title appears after it, and Down, Enter take that."""
    earlier(desktop, ("Brooklyn Bridge at dawn", "Fog"), ("中山公园", "Spring"))
    ui = desktop.launch(*desktop.photos("a.jpg", "b.jpg"))
    ui.wait_focus("Title")
    desktop.type("bro")
    accept_offer_then_move_on(desktop, ui, "Brooklyn Bridge at dawn")
    # Subtitle: "Fo" offers "Fog"; Escape closes the offers; Enter then saves.
    desktop.type("Fo")
    wait_description(ui, ui.subtitle, "1 suggestion: Fog")
    desktop.key("Escape")
    wait_until("the offers to close", lambda: "suggestion" not in (ui.description(ui.subtitle) or "") or None)
    desktop.key("Return")
    entries = desktop.wait_for_entries(3)
    expect((entries[-1]["title"], entries[-1]["subtitle"]) == ("Brooklyn Bridge at dawn", "Fo"),
           f"saved {entries[-1]['title']!r} / {entries[-1]['subtitle']!r}")
    # The next photo: a composition first.
    ui.wait_focus("Title")
    ui.wait_text(ui.title, "")
    desktop.key("ctrl+shift+u", "4", "e", "2", "d")
    # That the keys were the input method's shows when Return commits 中, not the letters.
    expect(ui.text(ui.title) == "", f"the input method did not take the keys: Title reads {ui.text(ui.title)!r}")
    desktop.key("Return")
    ui.wait_text(ui.title, "中")
    ui.handled()
    expect(ui.focused_name() == "Title", "the Return that confirmed the composition moved focus")
    accept_offer_then_move_on(desktop, ui, "中山公园")
    expect(len(desktop.entries()) == 3, "something was saved on the way")


@input_method("ibus")
def scenario_completion_enter_accepts_an_offer_ibus_pinyin(desktop):
    """ibus with libpinyin: Return commits the pinyin letters (and does nothing else), the
    earlier title starting with them is offered; Down, Return take it and do nothing else;
    Down while composing belongs to the input method."""
    earlier(desktop, ("zhong lou at night", "Bell tower"))
    ibus_support.start_ibus(desktop)
    placeholder = ibus_support.ibus_focused_context(desktop)
    ui = desktop.launch(*desktop.photos("a.jpg"))
    ui.wait_focus("Title")
    wait_until("the app's input context to have ibus's focus",
               lambda: ibus_support.ibus_focused_context(desktop) not in (None, placeholder))
    ibus_support.select_engine(desktop, "libpinyin")
    desktop.key("z", "h", "o", "n", "g")
    # That the keys were the input method's shows when Return commits them as a whole.
    expect(ui.text(ui.title) == "", f"the input method did not take the keys: Title reads {ui.text(ui.title)!r}")
    desktop.key("Return")
    ui.wait_text(ui.title, "zhong")
    ui.handled()
    expect(ui.focused_name() == "Title", "the Return that confirmed the composition moved focus")
    expect(len(desktop.entries()) == 1, "the Return that confirmed the composition saved")
    accept_offer_then_move_on(desktop, ui, "zhong lou at night")
    expect(len(desktop.entries()) == 1, "something was saved on the way")


def scenario_code_replacement_and_its_undo(desktop):
    """=bb and a space become "Brooklyn Bridge "; Ctrl+Z right after gives "=bb " back and
    does not touch the library; a code before Enter is replaced, and Enter then moves on;
    punctuation ends a code too."""
    codes(desktop, "=bb\tBrooklyn Bridge\n=gap\tGrand Army Plaza\n")
    ui = desktop.launch(*desktop.photos("a.jpg"))
    ui.wait_focus("Title")
    desktop.type("=bb ")
    ui.wait_text(ui.title, "Brooklyn Bridge ")
    desktop.key("ctrl+z")
    ui.wait_text(ui.title, "=bb ")
    # Typing on: the replacement is no longer Ctrl+Z's.
    desktop.key("BackSpace", "BackSpace", "BackSpace", "BackSpace")
    ui.wait_text(ui.title, "")
    desktop.type("At =bb")
    ui.wait_text(ui.title, "At =bb")
    desktop.key("Return")
    ui.wait_text(ui.title, "At Brooklyn Bridge")
    ui.wait_focus("Subtitle")
    desktop.type("Near =gap.")
    ui.wait_text(ui.subtitle, "Near Grand Army Plaza.")
    desktop.key("Return")
    entries = desktop.wait_for_entries(1)
    expect((entries[0]["title"], entries[0]["subtitle"]) == ("At Brooklyn Bridge", "Near Grand Army Plaza."),
           f"saved {entries[0]['title']!r} / {entries[0]['subtitle']!r}")


def scenario_preferences_add_a_code(desktop):
    """Ctrl+comma opens Preferences; Add Code, a code, Tab, its text; Escape closes; the code
    works in the form at once and is in replacements.tsv."""
    ui = desktop.launch(*desktop.photos("a.jpg"))
    ui.wait_focus("Title")
    desktop.key("ctrl+comma")
    wait_until("the Preferences window", lambda: _anywhere(ui, "push button", "Add Code") or None)
    focused = wait_until("focus in Preferences", lambda: _focused_anywhere(ui) or None)
    expect(focused.get_name() == "Add Code", f"focus is on {focused.get_name()!r}, not Add Code")
    desktop.key("Return")
    wait_until("focus on the new code", lambda: (_focused_anywhere(ui) or focused).get_name() == "Code" or None)
    desktop.type("=pp")
    desktop.key("Tab")
    wait_until("focus on its text",
               lambda: (_focused_anywhere(ui) or focused).get_name() == "Text for the code" or None)
    desktop.type("Prospect Park")
    table = os.path.join(desktop.env["XDG_CONFIG_HOME"], "caption", "replacements.tsv")
    wait_until("replacements.tsv to hold the code",
               lambda: os.path.exists(table) and "=pp\tProspect Park\n" in open(table).read() or None)
    desktop.key("Escape")
    desktop.xdotool("windowfocus", "--sync", desktop.window_id)
    ui.wait_focus("Title")
    desktop.type("=pp,")
    ui.wait_text(ui.title, "Prospect Park,")


def _anywhere(ui, role, name):
    """An accessible in any of the app's windows."""
    ui.refresh()
    for index in range(ui.app.get_child_count()):
        window = ui.app.get_child_at_index(index)
        for accessible in ui.walk(window) if window is not None else []:
            if accessible.get_role_name() == role and accessible.get_name() == name:
                return accessible
    return None


def _focused_anywhere(ui):
    """The focused accessible in any of the app's windows (Preferences is its own)."""
    ui.refresh()
    for index in range(ui.app.get_child_count()):
        window = ui.app.get_child_at_index(index)
        if window is None:
            continue
        for accessible in ui.walk(window):
            if ui._has(accessible, "focused"):
                return accessible
    return None


def _tag_as_camera(path, *more):
    """Exif as a Canon EOS R5 writes it, taken 2024-05-17 14:03:22, set by exiftool."""
    result = subprocess.run(["exiftool", "-q", "-overwrite_original", "-DateTimeOriginal=2024:05:17 14:03:22",
                             "-Make=Canon", "-Model=Canon EOS R5", *more, path],
                            capture_output=True, timeout=TIMEOUT)
    expect(result.returncode == 0, f"exiftool failed: {result.stderr.decode(errors='replace')}")


def scenario_variables_expand_at_save(desktop):
    """{filename}, {n}, {date} and {camera} show their expansion under the field and are
    saved expanded; an unknown name is a message, not a save."""
    photos = desktop.photos("a.jpg", "b.jpg")
    _tag_as_camera(photos[0])
    ui = desktop.launch(*photos)
    ui.wait_focus("Title")
    desktop.type("{filename} #{n}")
    wait_description(ui, ui.title, "Saved as: a.jpg #1")
    desktop.key("Return")
    ui.wait_focus("Subtitle")
    desktop.type("{day}")
    wait_description(ui, ui.subtitle, "Unknown variable {day}")
    desktop.key("Return")
    wait_until("the message", lambda: "Unknown variable {day}" in (ui.alert_text() or "") or None)
    # The message is the Return's answer: it was handled, and it did not save instead.
    expect(desktop.entries() == [], "a caption with an unknown variable was saved")
    expect(ui.focused_name() == "Subtitle", f"focus went to {ui.focused_name()!r}")
    desktop.key("BackSpace", "BackSpace", "BackSpace", "BackSpace", "BackSpace")
    desktop.type("{date} {time}, {camera}")
    wait_description(ui, ui.subtitle, "Saved as: 2024-05-17 14:03, Canon EOS R5")
    desktop.key("Return")
    entries = desktop.wait_for_entries(1)
    expect((entries[0]["title"], entries[0]["subtitle"]) == ("a.jpg #1", "2024-05-17 14:03, Canon EOS R5"),
           f"saved {entries[0]['title']!r} / {entries[0]['subtitle']!r}")


def scenario_variables_come_from_a_heic_and_a_webp(desktop):
    """A HEIC made by heif-enc and a WebP made by cwebp -metadata exif from one camera JPEG
    give {date}, {camera} and {lens} from their own Exif, as the JPEG does, whatever the
    time zone the app runs in."""
    source = desktop.photos("camera.jpg")[0]
    _tag_as_camera(source, "-LensModel=RF24-105mm F4 L IS USM")
    heic = os.path.splitext(source)[0] + ".heic"
    webp = os.path.splitext(source)[0] + ".webp"
    for command in (["heif-enc", "-q", "60", "-o", heic, source], ["cwebp", "-quiet", "-metadata", "exif", source, "-o", webp]):
        made = subprocess.run(command, capture_output=True, timeout=TIMEOUT)
        expect(made.returncode == 0, f"{command[0]} failed: {made.stderr.decode(errors='replace')}")
    desktop.env["TZ"] = "Asia/Tokyo"
    ui = desktop.launch(heic, webp)
    ui.wait_focus("Title")
    desktop.type("{date} {time}, {camera}")
    wait_description(ui, ui.title, "Saved as: 2024-05-17 14:03, Canon EOS R5")
    desktop.key("Return")
    ui.wait_focus("Subtitle")
    desktop.type("{lens}")
    wait_description(ui, ui.subtitle, "Saved as: RF24-105mm F4 L IS USM")
    desktop.key("Return")
    desktop.wait_for_entries(1)
    # The WebP comes next: its Exif is at the end of the file, after the pixels.
    ui.wait_focus("Title")
    desktop.type("{camera}")
    wait_description(ui, ui.title, "Saved as: Canon EOS R5")


def _menu(ui, name):
    """A menu (or submenu) of any of the app's windows (a context menu is a window of its own)."""
    ui.refresh()
    for index in range(ui.app.get_child_count()):
        window = ui.app.get_child_at_index(index)
        for accessible in ui.walk(window) if window is not None else []:
            if accessible.get_role_name() == "menu" and accessible.get_name() == name:
                return accessible
    return None


def _all_items(ui):
    ui.refresh()
    names = []
    for index in range(ui.app.get_child_count()):
        window = ui.app.get_child_at_index(index)
        for accessible in ui.walk(window) if window is not None else []:
            if "menu" in accessible.get_role_name():
                names.append((accessible.get_role_name(), accessible.get_name()))
    return names


def scenario_spell_check_suggestions(desktop):
    """A misspelt word in Title: Shift+F10 opens the field's menu with gspell's spelling
    suggestions (the dictionary of the locale, en_US under C.UTF-8); S, its mnemonic, opens
    them, Return takes the first, which corrects the word; focus stays in Title with nothing
    saved, and Enter then does what the button says."""
    ui = desktop.launch(*desktop.photos("a.jpg"))
    ui.wait_focus("Title")
    desktop.type("Harbuor")
    ui.wait_text(ui.title, "Harbuor")
    desktop.key("shift+F10")
    try:
        suggestions = wait_until("the Spelling Suggestions menu", lambda: _menu(ui, "Spelling Suggestions…"))
    except Failure as failure:
        raise Failure(f"{failure}; the menus hold {_all_items(ui)}") from None
    first = suggestions.get_child_at_index(0).get_name()
    expect(first == "Harbor", f"the first suggestion is {first!r}")
    desktop.key("s")
    wait_until("the suggestions to show",
               lambda: ui._has(suggestions.get_child_at_index(0), "showing") or None)
    desktop.key("Return")
    ui.wait_text(ui.title, "Harbor")
    ui.handled()
    expect(ui.focused_name() == "Title", f"taking a suggestion moved focus to {ui.focused_name()!r}")
    expect(desktop.entries() == [], "taking a suggestion saved")
    desktop.key("Return")
    ui.wait_focus("Subtitle")


def scenario_keystroke_session_agrees_with_the_benchmark(desktop):
    """The keystroke benchmark's typist, in the real window: caption-bench prints the keys
    its simulation presses for the first photos of the scripted session (completion and
    codes; Ctrl+D left out), this types exactly those keys, and the library must hold the
    script's captions, with as many keys pressed as the simulation counted."""
    import json
    bench = os.path.join(os.path.dirname(desktop.caption), "caption-bench")
    if not os.path.exists(bench):
        raise Failure(f"missing: {bench} (swift build builds it beside caption)")
    count = 16
    lines = subprocess.run([bench, "keystrokes", "--plan", str(count)], capture_output=True, timeout=TIMEOUT,
                           check=True).stdout.decode().splitlines()
    plan = [json.loads(line) for line in lines]
    codes(desktop, "".join(f"{code}\t{text}\n" for code, text in plan[0]["codes"]))
    photos = plan[1:]
    ui = desktop.launch(*desktop.photos(*[f"p{index:02}.jpg" for index in range(len(photos))]))
    pressed = 0
    for index, photo in enumerate(photos):
        ui.wait_focus("Title")
        ui.wait_text(ui.title, "")
        field = ui.title
        last = None
        for kind, value in photo["steps"]:
            if kind == "type":
                desktop.type(value)
                pressed += len(value)
            else:
                desktop.key(value)
                pressed += 1
            if kind == "key" and value == "Return" and field is ui.title and last != "Down":
                ui.wait_focus("Subtitle")
                field = ui.subtitle
            last = value if kind == "key" else None
        desktop.wait_for_entries(index + 1)
    entries = desktop.entries()
    got = [(entry["title"], entry["subtitle"]) for entry in entries]
    want = [(photo["title"], photo["subtitle"]) for photo in photos]
    expect(got == want, f"saved {got[:3]}… instead of {want[:3]}…")
    planned = sum(photo["keys"] for photo in photos)
    full = sum(photo["full"] for photo in photos)
    expect(pressed == planned, f"pressed {pressed} keys, the simulation counted {planned}")
    print(f"keystrokes in the window: {pressed} of {full} typed in full ({100 * pressed / full:.1f} %)")


def scenario_spell_check_switch_in_the_main_menu(desktop):
    """F10, Down to Check Spelling (a check menu item that says On), Return: Off, remembered
    in window.ini; the field's context menu then has no spelling suggestions."""
    ui = desktop.launch(*desktop.photos("a.jpg"))
    ui.wait_focus("Title")
    desktop.type("Harbuor")
    ui.wait_text(ui.title, "Harbuor")
    desktop.key("F10")
    item = wait_until("Check Spelling in the main menu", lambda: _anywhere(ui, "check menu item", "Check Spelling"))
    # GTK 3's model button gives no checked state: the item's description says it.
    expect(ui.description(item) == "On", f"Check Spelling says {ui.description(item)!r} at first")
    # Down until it has focus: the menu's other items come and go with other work.
    for _ in range(12):
        if ui._has(item, "focused"):
            break
        before = _focused_anywhere(ui)
        before = before.get_name() if before is not None else None
        desktop.key("Down")
        wait_until("Down to move focus in the menu",
                   lambda: (lambda now: now is not None and now.get_name() != before)(_focused_anywhere(ui)) or None)
    wait_until("focus on Check Spelling", lambda: ui._has(item, "focused") or None)
    desktop.key("Return")
    wait_until("Check Spelling to say Off", lambda: ui.description(item) == "Off" or None)
    settings = os.path.join(desktop.env["XDG_CONFIG_HOME"], "caption", "window.ini")
    wait_until("window.ini to say spell-check=false",
               lambda: os.path.exists(settings) and "spell-check=false" in open(settings).read() or None)
    # A switch leaves the menu open (GTK's model buttons for a state do): Escape closes it.
    if ui._has(item, "showing"):
        desktop.key("Escape")
    ui.wait_focus("Title")
    desktop.key("shift+F10")
    # The menu is filled before it shows: spelling items would be there with Select All.
    wait_until("the field's menu", lambda: _anywhere(ui, "menu item", "Select All"))
    expect(_menu(ui, "Spelling Suggestions…") is None, "spelling suggestions with spell-checking off")
    desktop.key("Escape")


def scenario_completion_follows_another_process_and_the_library_view(desktop):
    """With the window open, `caption --add` from a terminal saves "Ferry at dawn": typing
    "fer" offers it. An earlier title changed in the library view (Ctrl+L, Enter on it, new
    words, Enter to Done) is offered as it is now, and no longer as it was."""
    earlier(desktop, ("Harbour at dusk", "Fog"))
    ui = desktop.launch(*desktop.photos("a.jpg"))
    ui.wait_focus("Title")
    earlier(desktop, ("Ferry at dawn", "Pier"))
    desktop.type("fer")
    wait_description(ui, ui.title, "1 suggestion: Ferry at dawn")
    desktop.key("Escape", "ctrl+a", "BackSpace")
    ui.wait_text(ui.title, "")
    # The library view, newest first: Down to the harbour, Enter opens it in the form.
    # Typed ahead of the library view: Down and Return act on its list once it is filled.
    desktop.key("ctrl+l", "Down", "Return")
    ui.wait_text(ui.title, "Harbour at dusk")
    desktop.key("ctrl+a")
    desktop.type("Lighthouse at dusk")
    ui.wait_text(ui.title, "Lighthouse at dusk")
    desktop.key("Return")
    wait_until("the update", lambda: any(e["title"] == "Lighthouse at dusk" for e in desktop.entries()) or None)
    desktop.key("ctrl+l")
    ui.wait_focus("Title")
    # The new title offered first shows the offers follow the update; then the old one is not.
    desktop.type("lig")
    wait_description(ui, ui.title, "1 suggestion: Lighthouse at dusk")
    desktop.key("Escape", "ctrl+a", "BackSpace")
    ui.wait_text(ui.title, "")
    desktop.type("har")
    ui.wait_text(ui.title, "har")
    ui.handled()
    expect("suggestion" not in (ui.description(ui.title) or ""),
           f"the old title is still offered: {ui.description(ui.title)!r}")
