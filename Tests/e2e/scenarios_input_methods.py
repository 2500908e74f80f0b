# Scenarios of Enter while an input method composes (GTK's simple one, ibus pinyin).
#
# The Enter that confirms a composition belongs to the input method: it neither moves
# focus nor saves.

import glob
import os
import subprocess

from harness import TIMEOUT, Failure, expect, input_method, make_pads, require, wait_until

# ibus's in-memory configuration: no dconf service, nothing written outside the scenario.
MEMCONF = "/usr/libexec/ibus-memconf"
LIBPINYIN = "/usr/share/ibus/component/libpinyin.xml"
# Two pads: a freelancer's, and an agency's the second key chooses.
FREELANCE_AND_XINHUA = {"Freelance": ["-XMP-dc:Creator=Rui Costa"],
                        "Xinhua": ["-XMP-photoshop:Credit=Xinhua", "-XMP-dc:Creator=Li Wei"]}


def compose_and_confirm(desktop, ui, entry, keys, committed, label):
    """Types keys into entry through the input method, checks the words stay in the
    composition (the entry's text is unchanged), presses Return, and checks that Return
    committed them and did nothing else."""
    before = ui.text(entry)
    desktop.key(*keys)
    # Only letters already in the field are caught here; that the keys were the input
    # method's shows when Return commits its text, not the letters.
    expect(ui.text(entry) == before,
           f"the input method did not take the keys: {entry.get_name()} reads {ui.text(entry)!r}")
    desktop.key("Return")
    ui.wait_text(entry, before + committed)
    ui.wait_label(label)
    ui.handled()
    expect(ui.focused_name() == entry.get_name(),
           f"the Return that confirmed the composition moved focus to {ui.focused_name()!r}")
    expect(desktop.entries() == [], "the Return that confirmed the composition saved")
    expect(ui.notification_text() is None, "a notification shows, as if saved")


@input_method("gtk-im-context-simple")
def scenario_enter_confirms_simple_input_method(desktop):
    """GTK's own input method: Ctrl+Shift+U 4e2d Return gives 中 and stays in Title; the
    next Return moves on. The same in Subtitle, where Return would otherwise save."""
    ui = desktop.launch(*desktop.photos("a.jpg"))
    ui.wait_focus("Title")
    compose_and_confirm(desktop, ui, ui.title, ["ctrl+shift+u", "4", "e", "2", "d"], "中", "Next")
    desktop.key("Return")
    ui.wait_focus("Subtitle")
    compose_and_confirm(desktop, ui, ui.subtitle, ["ctrl+shift+u", "6", "5", "8", "7"], "文", "Done")
    desktop.key("Return")
    entries = desktop.wait_for_entries(1)
    expect((entries[0]["title"], entries[0]["subtitle"]) == ("中", "文"),
           f"saved {entries[0]['title']!r} / {entries[0]['subtitle']!r}")


def start_ibus(desktop):
    """ibus-daemon inside the scenario's session (no panel, the in-memory config), before
    the app starts, so the app's input method connects to it at once."""
    require("ibus-daemon", "ibus", MEMCONF)
    if not os.path.exists(LIBPINYIN):
        raise Failure("missing: the libpinyin engine (Debian package ibus-libpinyin)")
    if not glob.glob("/usr/lib/*/gtk-3.0/3.0.0/immodules/im-ibus.so"):
        raise Failure("missing: GTK's ibus input method module (Debian package ibus-gtk3)")
    desktop.spawn("ibus-daemon", ["ibus-daemon", "--panel=disable", "--emoji-extension=disable",
                                   f"--config={MEMCONF}"],
                   stdout=subprocess.DEVNULL, stderr=open(os.path.join(desktop.root, "ibus.log"), "w"))
    address_files = os.path.join(desktop.env["XDG_CONFIG_HOME"], "ibus", "bus", "*")
    wait_until("ibus-daemon to write its address", lambda: glob.glob(address_files))
    wait_until("ibus-daemon to answer", lambda: ibus(desktop, "list-engine").returncode == 0)


def ibus(desktop, *args):
    return subprocess.run(["ibus", *args], env=desktop.env, capture_output=True, timeout=TIMEOUT)


def ibus_focused_context(desktop):
    """The path of the input context ibus has focused (its own placeholder while no
    client has focus)."""
    import gi
    gi.require_version("IBus", "1.0")
    from gi.repository import IBus
    bus = IBus.Bus.new()
    expect(bus.is_connected(), "cannot connect to ibus-daemon")
    return bus.current_input_context()


def select_engine(desktop, engine):
    # `ibus engine NAME` can report failure although it switched (ibus 1.5.27 with the
    # in-memory config); what counts is the engine it reports afterwards.
    def selected():
        ibus(desktop, "engine", engine)
        return ibus(desktop, "engine").stdout.decode().strip() == engine
    wait_until(f"ibus to select {engine}", selected, interval=0.3)


def launch_with_libpinyin(desktop):
    """ibus started, the window opened on a photo with Title focused, and libpinyin chosen
    once the app's input context has ibus's focus."""
    start_ibus(desktop)
    placeholder = ibus_focused_context(desktop)
    ui = desktop.launch(*desktop.photos("a.jpg"))
    ui.wait_focus("Title")
    # The app's input context reaches ibus asynchronously; keys typed before it is focused
    # there would go straight into the entry.
    wait_until("the app's input context to have ibus's focus",
               lambda: ibus_focused_context(desktop) not in (None, placeholder))
    select_engine(desktop, "libpinyin")
    return ui


def title_composed_then_subtitle_typed(desktop, subtitle):
    """The window on a photo with libpinyin: "zhong" composed and confirmed in Title, Return
    to Subtitle, `subtitle` typed there through ibus's English keyboard, then Return."""
    ui = launch_with_libpinyin(desktop)
    compose_and_confirm(desktop, ui, ui.title, ["z", "h", "o", "n", "g"], "zhong", "Next")
    desktop.key("Return")
    ui.wait_focus("Subtitle")
    select_engine(desktop, "xkb:us::eng")
    desktop.type(subtitle)
    ui.wait_text(ui.subtitle, subtitle)
    desktop.key("Return")
    return ui


@input_method("ibus")
def scenario_enter_confirms_ibus_pinyin(desktop):
    """ibus with libpinyin: zhong then Return commits the text into the entry, and the
    Return neither moves focus nor saves; the next Return acts."""
    ui = launch_with_libpinyin(desktop)
    # libpinyin commits what it was given on Return: the letters, not a hanzi.
    compose_and_confirm(desktop, ui, ui.title, ["z", "h", "o", "n", "g"], "zhong", "Next")
    desktop.key("Return")
    ui.wait_focus("Subtitle")
    compose_and_confirm(desktop, ui, ui.subtitle, ["w", "e", "n"], "wen", "Done")
    desktop.key("Return")
    entries = desktop.wait_for_entries(1)
    expect((entries[0]["title"], entries[0]["subtitle"]) == ("zhong", "wen"),
           f"saved {entries[0]['title']!r} / {entries[0]['subtitle']!r}")


@input_method("ibus")
def scenario_check_message_and_its_accept_key_through_ibus(desktop):
    """With ibus between the keys and the fields: a title composed with libpinyin, a
    subtitle typed through ibus's English keyboard with a name spelt otherwise than the
    codes; Done says so, Alt+M (which ibus never takes) mends it, Done saves."""
    import scenarios_shorthand
    scenarios_shorthand.codes(desktop, "=bo\tBarack Obama (USA)\n")
    ui = title_composed_then_subtitle_typed(desktop, "Barak Obama waves")
    wait_until("the check to be said", lambda: "in the codes" in (ui.alert_text() or ""))
    expect("Barack Obama" in ui.alert_text(), f"the bar says {ui.alert_text()!r}")
    expect(desktop.entries() == [], "a finding saved the caption")
    desktop.key("alt+m")
    ui.wait_text(ui.subtitle, "Barack Obama waves")
    desktop.key("Return")
    entries = desktop.wait_for_entries(1)
    expect((entries[0]["title"], entries[0]["subtitle"]) == ("zhong", "Barack Obama waves"),
           f"saved {entries[0]['title']!r} / {entries[0]['subtitle']!r}")


@input_method("ibus")
def scenario_stationery_pad_key_through_ibus(desktop):
    """With ibus's libpinyin between the keys and the fields: a title composed and confirmed,
    then Ctrl+2 (which the idle input method passes on) chooses the second pad, said in the
    notification, the title kept; composing goes on, and the caption is saved with the
    pad's credits."""
    make_pads(desktop, FREELANCE_AND_XINHUA)
    ui = launch_with_libpinyin(desktop)
    compose_and_confirm(desktop, ui, ui.title, ["z", "h", "o", "n", "g"], "zhong", "Next")
    desktop.key("ctrl+2")
    wait_until("the pad to be said", lambda: "Xinhua" in (ui.notification_text() or "") or None)
    expect(ui.text(ui.title) == "zhong", f"the title became {ui.text(ui.title)!r}")
    # Composing goes on (the pad's notification still showing).
    desktop.key("g", "u", "o")
    expect(ui.text(ui.title) == "zhong", f"the input method did not take the keys: {ui.text(ui.title)!r}")
    desktop.key("Return")
    ui.wait_text(ui.title, "zhongguo")
    ui.wait_label("Next")
    expect(ui.focused_name() == "Title", f"the Return that confirmed moved focus to {ui.focused_name()!r}")
    desktop.key("Return")
    ui.wait_focus("Subtitle")
    select_engine(desktop, "xkb:us::eng")
    desktop.type("Beijing, Dec 6")
    ui.wait_text(ui.subtitle, "Beijing, Dec 6")
    desktop.key("Return")
    entries = desktop.wait_for_entries(1)
    expect(entries[0]["title"] == "zhongguo", f"saved {entries[0]['title']!r}")
    sheet = subprocess.run([desktop.caption, "--library", desktop.library, "--list", "--csv"],
                           env=desktop.env, capture_output=True, timeout=TIMEOUT, check=True)
    expect("Xinhua" in sheet.stdout.decode() and "Li Wei" in sheet.stdout.decode(),
           f"saved without the pad's credits: {sheet.stdout.decode()!r}")


@input_method("ibus")
def scenario_optional_fields_and_a_pad_switch_through_ibus(desktop):
    """A form with Keywords and Event turned on, ibus's libpinyin between the keys and the
    fields: Enter leads from Subtitle to Keywords; a keyword composed there is confirmed by
    Return, which does nothing else; Ctrl+2 chooses a pad meanwhile; Enter goes on to Event,
    the last stop, and Enter there saves the keyword with the pad's credits."""
    make_pads(desktop, FREELANCE_AND_XINHUA)
    config = os.path.join(desktop.env["XDG_CONFIG_HOME"], "caption")
    with open(os.path.join(config, "credits.ini"), "w") as settings:
        settings.write("[form]\nfields=keywords;event\n")
    ui = title_composed_then_subtitle_typed(desktop, "Beijing, Dec 6")
    ui.wait_focus("Keywords")
    keywords = ui.find("the Keywords field", role="text", name="Keywords")
    select_engine(desktop, "libpinyin")
    compose_and_confirm(desktop, ui, keywords, ["g", "a", "n", "g"], "gang", "Next")
    desktop.key("ctrl+2")
    wait_until("the pad to be said", lambda: "Xinhua" in (ui.notification_text() or "") or None)
    expect(ui.focused_name() == "Keywords", f"the pad's key moved focus to {ui.focused_name()!r}")
    desktop.key("Return")
    ui.wait_focus("Event")
    ui.wait_label("Done")
    desktop.key("Return")
    entries = desktop.wait_for_entries(1)
    expect(entries[0].get("keywords") == ["gang"] and "event" not in entries[0], f"saved {entries[0]!r}")
    expect(entries[0].get("credits", {}).get("creator") == "Li Wei",
           f"saved without the pad's credits: {entries[0]!r}")
