# Typing ahead of a busy machine: the whole script of keys for a queue of photos is sent at
# once, a key every few milliseconds, without waiting on the app, while more busy processes
# than cores run; then the library must hold exactly what the script typed, each caption on
# its own photo. A key belongs to the form as it was after every key before it, however late
# the machine shows it (docs/design.md, "Keys are handled in order").

import os
import shutil
import subprocess
import sys
import threading

from harness import Failure, expect, wait_until
from wayland import wayland
import scenarios_shorthand as shorthand

CODES = "=bb\tBrooklyn Bridge\n=wh\tWhite House\n"
# One photo in this many is a 24-megapixel camera-sized JPEG: saving it (the copy, the sync)
# keeps the library busy while the next photo is typed.
LARGE_EVERY = 8


class Script:
    """The keys a person presses for each photo, and the caption each photo must end with.

    Each step is a kind of caption a person makes; `photo` is the name of the photo on the
    form at that step. The steps assume nothing about timing: what a key does depends only
    on the keys before it."""

    def __init__(self):
        self.keys = []  # ("type", text) or ("key", combination)
        self.expected = []  # (title, subtitle, photo name), in the order they are saved
        self.last = None  # the last caption submitted: what Ctrl+D repeats

    def type(self, text):
        self.keys.append(("type", text))

    def key(self, *combinations):
        self.keys.extend(("key", combination) for combination in combinations)

    def saved(self, title, subtitle, photo):
        self.expected.append((title, subtitle, photo))
        self.last = (title, subtitle)

    def caption(self, kind, index, photo, cycle):
        title, sub = f"Title {index}", f"Sub {index}"
        if kind == "plain":
            # The cycle's first title is later taken from the offers (see "offer").
            title = f"Kite{cycle:02} flying"
            self.type(title), self.key("Return"), self.type(sub), self.key("Return")
        elif kind == "corrected":
            # A slip mended at once, then Shift+Enter back to Title to add to it.
            self.type(title + "x"), self.key("BackSpace", "Return"), self.type(sub)
            self.key("shift+Return", "End"), self.type(" fixed"), self.key("Return")
            title += " fixed"
        elif kind == "ctrl-s":
            self.type(title), self.key("Return"), self.type(sub), self.key("ctrl+s")
        elif kind == "repeat-title":
            # Ctrl+D: the last caption's title, added to.
            title = self.last[0] + f" and {index}"
            self.key("ctrl+d"), self.type(f" and {index}"), self.key("Return"), self.type(sub), self.key("Return")
        elif kind == "repeat-both":
            # Ctrl+Shift+D: the last caption whole; Enter saves it.
            title, sub = self.last
            self.key("ctrl+shift+d", "Return")
        elif kind == "codes":
            # "=bb " becomes its text at the space; "=wh" at the Enter.
            title = "Brooklyn Bridge at White House"
            self.type("=bb at =wh"), self.key("Return"), self.type(sub), self.key("Return")
        elif kind == "offer":
            # The cycle's first title, offered from the library: Down chooses it, Enter takes
            # it (and does nothing else), Enter goes on.
            title = f"Kite{cycle:02} flying"
            self.type(f"Kite{cycle:02}"), self.key("Down", "Return", "Return"), self.type(sub), self.key("Return")
        elif kind == "variable":
            # {filename} is the photo's own name: the caption proves which photo it went to.
            title = photo
            self.type("{filename}"), self.key("Return"), self.type(sub), self.key("Return")
        elif kind == "skip":
            # To the next photo and back: the title typed stays with its photo, and the
            # subtitle, the first thing missing there, is where focus comes back to.
            self.type(title), self.key("ctrl+Next", "ctrl+Prior"), self.type(sub), self.key("Return")
        elif kind == "undo":
            # Saved, taken back at once (the photo and its words return), saved again by
            # Enter on Done.
            self.type(title), self.key("Return"), self.type(sub), self.key("Return", "ctrl+z", "Return")
        else:
            raise ValueError(kind)
        self.saved(title, sub, photo)


KINDS = ["plain", "corrected", "ctrl-s", "repeat-title", "codes", "offer", "variable", "repeat-both", "skip", "undo"]


def build(names, kinds=KINDS):
    """The script for a queue of photos in this order (the last may arrive while typing)."""
    script = Script()
    for index, name in enumerate(names):
        kind = kinds[index % len(kinds)]
        # The last photo is the one that arrives mid-stream, and nothing comes after it to
        # skip to: it is captioned by its own name.
        if index == len(names) - 1:
            kind = "variable"
        script.caption(kind, index, name, index // len(kinds))
    return script


def large_photo(desktop, name):
    """A 24-megapixel JPEG made from the sample by ImageMagick (6000×4000)."""
    folder = os.path.join(desktop.root, "photos")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name)
    subprocess.run(["convert", desktop.sample_photo, "-resize", "6000x4000!", "-quality", "90", path],
                   check=True, timeout=120)
    return path


def queue_of_photos(desktop, count):
    """count photos, every LARGE_EVERY-th of them 24 MP; each distinct (its own comment)."""
    names = [f"p{index:02}.jpg" for index in range(count)]
    paths = desktop.photos(*names)
    large = large_photo(desktop, "large-source.jpg")
    with open(large, "rb") as source:
        data = source.read()
    for index in range(0, count, LARGE_EVERY):
        comment = f"e2e large {names[index]}".encode()
        segment = b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment
        with open(paths[index], "wb") as photo:
            photo.write(data[:2] + segment + data[2:])
    os.remove(large)
    return paths


class Hog:
    """More busy processes than cores, as during a build or a backup (E2E_HOGS of them,
    three by default: a scenario run alone then has three on two cores)."""

    def __init__(self, count=int(os.environ.get("E2E_HOGS", "3"))):
        self.processes = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]

    def stop(self):
        for process in self.processes:
            process.kill()
            process.wait()


def compare(desktop, script, timeout):
    """Waits until the script's last caption is in the library (saves are made in order, so
    every earlier one is too), then compares the library with the script exactly."""
    expected = script.expected
    last = expected[-1]

    def done():
        entries = desktop.entries()
        return entries if any((e["title"], e["subtitle"], e["originalName"]) == last for e in entries) else None

    try:
        entries = wait_until(f"the last caption {last!r} in the library", done, timeout=timeout)
    except Failure:
        entries = desktop.entries()
    got = [(e["title"], e["subtitle"], e["originalName"]) for e in entries]
    if got != expected:
        print("the library holds, in order:\n" + "\n".join(f"  {g!r}" for g in got))
        wrong = [f"{w[2]}: saved {g[:2]!r}, typed {w[:2]!r}" for g, w in zip(got, expected) if g != w]
        missing = [w for w in expected if w not in got]
        extra = [g for g in got if g not in expected]
        raise Failure(f"{len(got)} entries for {len(expected)} captions typed; "
                      f"{len(wrong)} differ in order or words, {len(missing)} missing, {len(extra)} not typed. "
                      f"First differences: {wrong[:4]}; missing: {missing[:4]}; not typed: {extra[:4]}")


def xdotool_script(keys, delay):
    """One xdotool script: every key of the session, `delay` ms apart, none waiting on the app."""
    lines = []
    for kind, value in keys:
        if kind == "type":
            quoted = value.replace("\\", "\\\\").replace('"', '\\"')
            lines.append(f'type --delay {delay} "{quoted}"')
        else:
            lines.append(f"key --delay {delay} {value}")
    return "\n".join(lines) + "\n"


def type_ahead(desktop, photo_count, delay, timeout):
    """The session under X11: photo_count photos on the command line, one more arriving in
    a watched folder while the keys are on their way."""
    paths = queue_of_photos(desktop, photo_count)
    shorthand.codes(desktop, CODES)
    watched = os.path.join(desktop.root, "incoming")
    os.makedirs(watched)
    arriving = desktop.photos("arrived.jpg")[0]
    names = [os.path.basename(p) for p in paths] + ["arrived.jpg"]
    script = build(names)
    ui = desktop.launch("--watch", watched, *paths)
    ui.wait_focus("Title")
    keys = os.path.join(desktop.root, "keys.xdo")
    with open(keys, "w") as file:
        file.write(xdotool_script(script.keys, delay))
    hog = Hog()
    try:
        typist = subprocess.Popen(["xdotool", keys], env=desktop.env, stdout=subprocess.DEVNULL)
        # The new photo arrives once a tenth of the keys are typed (read back from the
        # title field's changes would wait on the app; the typist's own pace is enough,
        # since where it joins the queue does not depend on when).
        arrival = threading.Timer(len(script.keys) * delay / 1000 / 10,
                                  lambda: shutil.move(arriving, os.path.join(watched, "arrived.jpg")))
        arrival.start()
        typist.wait(timeout=timeout)
        arrival.join()
        expect(typist.returncode == 0, f"xdotool exited {typist.returncode}")
        compare(desktop, script, timeout)
    finally:
        hog.stop()


def scenario_type_ahead_fifty_photos_under_a_busy_machine(desktop):
    """Fifty photos (some 24 MP) and one arriving in a watched folder, captioned by keys sent
    20 ms apart without waiting on the app, three busy processes on two cores: plain words,
    a slip mended and Shift+Enter, Ctrl+S, Ctrl+D, Ctrl+Shift+D, codes, an offer taken, a
    variable, Ctrl+Page Down and Up, Undo. Every caption in the library as typed, on its
    photo, in order; nothing missing, nothing more."""
    type_ahead(desktop, 50, 20, 240)


scenario_type_ahead_fifty_photos_under_a_busy_machine.timeout = 360
scenario_type_ahead_fifty_photos_under_a_busy_machine.alone = True


@wayland
def scenario_wayland_type_ahead_under_a_busy_machine(desktop):
    """The same kinds of caption on Wayland, twenty photos, keys from the virtual keyboard
    (15 ms apart), sent without waiting on the app, under three busy processes."""
    paths = queue_of_photos(desktop, 20)
    for path in paths:
        os.chmod(path, 0o644)
    shorthand.codes(desktop, CODES)
    desktop.give_config_to_the_app()
    names = [os.path.basename(p) for p in paths]
    script = build(names)
    desktop.launch(*paths)
    hog = Hog()
    try:
        desktop.send_all(script.keys)
        compare(desktop, script, 180)
    finally:
        hog.stop()


scenario_wayland_type_ahead_under_a_busy_machine.timeout = 300
scenario_wayland_type_ahead_under_a_busy_machine.alone = True


# -- Compositions committed mid-stream ----------------------------------------------------
#
# Korean typists under ibus and fcitx5 (two-set Hangul: g k s compose 한, r m f compose 글).
# A syllable stays a composition until a key that is not a jamo; Enter then commits it and
# moves on, and a key that changes the form (Ctrl+S, Ctrl+Page Down) commits it first. The
# keys go out 20 ms apart under three busy processes, as above.

def hangul_script(names):
    """Each photo's words end in an open syllable, committed by Enter, by Ctrl+S's save or by
    Ctrl+Page Down leaving the photo; every caption reads "N 한" / "N 글"."""
    keys, expected = [], []
    for index, name in enumerate(names):
        digits = list(str(index))
        title = digits + ["space", "g", "k", "s"]
        subtitle = digits + ["space", "r", "m", "f"]
        # The last photo has none after it to go to and come back from.
        kind = index % 3 if index < len(names) - 1 else 0
        if kind == 0:
            keys += title + ["Return"] + subtitle + ["Return"]
        elif kind == 1:
            keys += title + ["Return"] + subtitle + ["ctrl+s"]
        else:
            # Away and back with the syllable open: it stays with its photo, and focus comes
            # back to Subtitle, the first thing missing.
            keys += title + ["ctrl+Next", "ctrl+Prior"] + subtitle + ["Return"]
        expected.append((f"{index} 한", f"{index} 글", name))
    return keys, expected


def hangul_type_ahead(method):
    def scenario(desktop):
        """Twelve photos captioned in Hangul by keys sent 20 ms apart without waiting on the
        app, under three busy processes: the open syllable at each Enter, Ctrl+S and Ctrl+Page
        Down is committed into its own field, of its own photo; every caption as typed."""
        method.start(desktop)
        paths = queue_of_photos(desktop, 12)
        ui = desktop.launch(*paths)
        ui.wait_focus("Title")
        method.ready(desktop, ui)
        keys, expected = hangul_script([os.path.basename(p) for p in paths])
        script = Script()
        script.keys = [("key", key) for key in keys]
        script.expected = expected
        path = os.path.join(desktop.root, "keys.xdo")
        with open(path, "w") as file:
            file.write(xdotool_script(script.keys, 20))
        hog = Hog()
        try:
            subprocess.run(["xdotool", path], env=desktop.env, check=True, timeout=120, stdout=subprocess.DEVNULL)
            compare(desktop, script, 120)
        finally:
            hog.stop()
    scenario.__name__ = f"scenario_type_ahead_{method.name}_compositions"
    scenario.im_module = method.im_module
    scenario.timeout = 240
    scenario.alone = True
    return scenario


def _hangul_methods():
    import scenarios_compositions as compositions
    return {method.name: method for method in compositions.METHODS}


scenario_type_ahead_ibus_hangul_compositions = hangul_type_ahead(_hangul_methods()["ibus_hangul"])
scenario_type_ahead_fcitx5_hangul_compositions = hangul_type_ahead(_hangul_methods()["fcitx5_hangul"])


# -- The other places keys are typed ahead ------------------------------------------------

def run_script(desktop, script, delay, timeout):
    """Sends the script's keys `delay` ms apart, without waiting on the app, under the hog,
    and compares the library with the script."""
    path = os.path.join(desktop.root, "keys.xdo")
    with open(path, "w") as file:
        file.write(xdotool_script(script.keys, delay))
    hog = Hog()
    try:
        subprocess.run(["xdotool", path], env=desktop.env, check=True, timeout=timeout, stdout=subprocess.DEVNULL)
        compare(desktop, script, timeout)
    finally:
        hog.stop()


def scenario_type_ahead_through_preferences_codes_and_credits(desktop):
    """Preferences opened and closed by keys typed ahead, under a window manager and three
    busy processes, keys 20 ms apart: a code searched for (the search not yet paused), its
    text changed, a code added, a standing credit set, each closed by Escape; the captions
    typed right after each Escape use what was just set. Every key lands in the window it
    was typed for, though the display server gives the keyboard to the new window later."""
    desktop.start_window_manager()
    shorthand.codes(desktop, CODES)
    paths = desktop.photos(*[f"p{index:02}.jpg" for index in range(5)])
    script = Script()
    script.type("Title 0"), script.key("Return"), script.type("Sub 0"), script.key("Return")
    script.saved("Title 0", "Sub 0", "p00.jpg")
    # The search opens with focus; Down goes to its first match, Enter to its text.
    script.key("ctrl+comma"), script.type("=w"), script.key("Down", "Return", "ctrl+a")
    script.type("White House lawn"), script.key("Escape", "Escape")
    script.type("=wh"), script.key("Return"), script.type("Sub 1"), script.key("Return")
    script.saved("White House lawn", "Sub 1", "p01.jpg")
    script.key("ctrl+comma", "alt+a"), script.type("=pp"), script.key("Tab"), script.type("Prospect Park")
    script.key("Escape")
    script.type("At =pp"), script.key("Return"), script.type("Sub 2"), script.key("Return")
    script.saved("At Prospect Park", "Sub 2", "p02.jpg")
    script.key("ctrl+comma", "ctrl+Next"), script.type("Jane Doe"), script.key("Escape")
    script.type("Title 3"), script.key("Return"), script.type("Sub 3"), script.key("Return")
    script.saved("Title 3", "Sub 3", "p03.jpg")
    ui = desktop.launch(*paths)
    ui.wait_focus("Title")
    run_script(desktop, script, 20, 120)
    credits = [entry["credits"] for entry in desktop.entries()]
    expect(credits == [{}, {}, {}, {"creator": "Jane Doe"}], f"the entries' credits: {credits}")
    table = os.path.join(desktop.env["XDG_CONFIG_HOME"], "caption", "replacements.tsv")
    with open(table) as file:
        rows = file.read()
    expect(rows == "=bb\tBrooklyn Bridge\n=wh\tWhite House lawn\n=pp\tProspect Park\n", f"replacements.tsv: {rows!r}")


scenario_type_ahead_through_preferences_codes_and_credits.timeout = 240
scenario_type_ahead_through_preferences_codes_and_credits.alone = True


def scenario_type_ahead_through_the_library_search_and_edit(desktop):
    """The library's search and edit by keys typed ahead, under three busy processes, keys
    20 ms apart: Ctrl+L, a search, Enter opens its match in the form, the words changed,
    Enter (Done) saves the change and goes back to the list, Escape twice to the queue,
    whose next photo is captioned at once; twice, the second time by Ctrl+F and Down into
    the list. The library holds the changes
    on the entries searched for and the new captions on their photos."""
    paths = desktop.photos(*[f"p{index:02}.jpg" for index in range(6)])
    script = Script()
    for index in range(4):
        script.caption("ctrl-s", index, f"p{index:02}.jpg", 0)
    # Title 1 searched for; Enter goes to the matches, Enter opens the first; a new title;
    # Enter on Done saves it and goes back to the list; Escape clears the search, Escape
    # goes back to the form, where the queue's next photo is captioned.
    script.key("ctrl+l"), script.type("Title 1"), script.key("Return", "Return", "ctrl+a")
    script.type("Title 1 edited"), script.key("Return", "Escape", "Escape")
    script.caption("plain", 4, "p04.jpg", 9)
    # Ctrl+F, the search's words replaced by Title 2; Down into its matches, Enter; the
    # subtitle changed.
    script.key("ctrl+f"), script.type("Title 2"), script.key("Down", "Return", "Tab", "ctrl+a")
    script.type("Sub 2 edited"), script.key("Return", "Escape", "Escape")
    script.caption("plain", 5, "p05.jpg", 8)
    script.expected[1] = ("Title 1 edited", "Sub 1", "p01.jpg")
    script.expected[2] = ("Title 2", "Sub 2 edited", "p02.jpg")
    ui = desktop.launch(*paths)
    ui.wait_focus("Title")
    run_script(desktop, script, 20, 120)


scenario_type_ahead_through_the_library_search_and_edit.timeout = 240
scenario_type_ahead_through_the_library_search_and_edit.alone = True


def scenario_type_ahead_on_a_desk_library_far_away(desktop):
    """A photo desk's library on a PostgreSQL server whose every round trip takes 100 ms (a
    link that holds each piece 50 ms each way): twelve photos captioned by keys sent 20 ms
    apart without waiting on the app, under three busy processes, with every kind of
    caption (claims, saves, Undo and offers all wait on the server). Every caption on the
    server as typed, on its photo, in order."""
    import postgres
    server = postgres.Server().make()
    link = None
    try:
        link = postgres.SlowLink(server)
        paths = queue_of_photos(desktop, 12)
        shorthand.codes(desktop, CODES)
        script = build([os.path.basename(p) for p in paths])
        desktop.library = link.address
        ui = desktop.launch(*paths)
        # What the editor's Caption saved is read from the server itself.
        desktop.library = server.address
        ui.wait_focus("Title")
        run_script(desktop, script, 20, 180)
    finally:
        if link is not None:
            link.close()
        server.remove()


scenario_type_ahead_on_a_desk_library_far_away.timeout = 300
scenario_type_ahead_on_a_desk_library_far_away.alone = True
