# Scenarios of open compositions under six input methods: fcitx5 with its pinyin and its
# Hangul engines, ibus with libpinyin, Anthy (Japanese) and Hangul (Korean), and GTK's simple
# method (Ctrl+Shift+U and a code point).
#
# The rule (docs/decisions.md): the key that commits a composition belongs to the input
# method; any action that reads the form or changes what it shows (a save, another photo)
# first commits the open composition into its field, as a focus change does, so what the
# field shows is what is saved, and it stays with its photo.

import glob
import os
import subprocess

from harness import TIMEOUT, Failure, expect, require, wait_until
import scenarios_input_methods as ibus_support

def gtk_module_present(name):
    return bool(glob.glob(f"/usr/lib/*/gtk-3.0/3.0.0/immodules/im-{name}.so"))


class Fcitx5:
    """fcitx5 headless in the scenario's session: a private profile (English keyboard
    first, pinyin second), Ctrl+Space to switch to pinyin, only the addons a GTK client
    needs (no cloud pinyin: no network)."""
    name = "fcitx5"
    im_module = "fcitx"
    engine, package = "pinyin", "fcitx5-chinese-addons"
    # Pinyin as typed; the composition shows it with fcitx5's syllable spaces.
    word, shown = "langhua", "lang hua"
    other_word, other_shown = "chuanbo", "chuan bo"
    # Keys the engine takes while it composes (they never reach Caption), with what each
    # commits (None: the composition stays open): pinyin commits the letters as typed.
    takes = {"ctrl+Return": "langhua", "shift+Return": "langhua"}
    DISABLED = ["cloudpinyin", "wayland", "waylandim", "kimpanel", "notificationitem", "ibusfrontend",
                "fcitx4frontend", "xim", "clipboard", "emoji", "imselector", "quickphrase", "unicode",
                "luaaddonloader", "notifications", "spell"]

    def start(self, desktop):
        require("fcitx5", "fcitx5-remote")
        if not os.path.exists(f"/usr/share/fcitx5/inputmethod/{self.engine}.conf"):
            raise Failure(f"missing: fcitx5's {self.engine} engine (Debian package {self.package})")
        if not gtk_module_present("fcitx5"):
            raise Failure("missing: GTK's fcitx5 input method module (Debian package fcitx5-frontend-gtk3)")
        config = os.path.join(desktop.env["XDG_CONFIG_HOME"], "fcitx5")
        os.makedirs(os.path.join(config, "conf"), exist_ok=True)
        with open(os.path.join(config, "profile"), "w") as profile:
            profile.write(f"[Groups/0]\nName=Default\nDefault Layout=us\nDefaultIM={self.engine}\n\n"
                          "[Groups/0/Items/0]\nName=keyboard-us\nLayout=\n\n"
                          f"[Groups/0/Items/1]\nName={self.engine}\nLayout=\n\n"
                          "[GroupOrder]\n0=Default\n")
        with open(os.path.join(config, "config"), "w") as settings:
            settings.write("[Hotkey/TriggerKeys]\n0=Control+space\n\n"
                           "[Behavior]\nShareInputState=All\nPreeditEnabledByDefault=True\n")
        with open(os.path.join(config, "conf", "pinyin.conf"), "w") as pinyin:
            # Fixed candidates: no cloud, no learning from one scenario to the next.
            pinyin.write("CloudPinyinEnabled=False\nPageSize=5\n")
        desktop.spawn("fcitx5", ["fcitx5", "--disable=" + ",".join(self.DISABLED)],
                      stdout=subprocess.DEVNULL, stderr=open(os.path.join(desktop.root, "fcitx5.log"), "w"))
        wait_until("fcitx5 to answer on the session bus", lambda: self._remote(desktop).returncode == 0)

    def _remote(self, desktop, *args):
        return subprocess.run(["fcitx5-remote", *args], env=desktop.env, capture_output=True, timeout=TIMEOUT)

    def ready(self, desktop, ui):
        """Switches the focused field to the engine with the trigger key, once fcitx5 knows
        the field's input context (fcitx5-remote prints 1 for a focused context that is
        inactive, 2 for an active one, 0 while none has focus), and waits until it is active."""
        state = wait_until("fcitx5 to know the focused field's input context",
                           lambda: (lambda out: out if out in ("1", "2") else None)(
                               self._remote(desktop).stdout.decode().strip()))
        if state == "1":
            desktop.key("ctrl+space")
        wait_until(f"{self.engine} to be active in the focused field",
                   lambda: self._remote(desktop).stdout.decode().strip() == "2")

    def compose(self, desktop, word):
        desktop.key(*list(word))


class IBus:
    """ibus-daemon with libpinyin in the scenario's session (scenarios_input_methods)."""
    name = "ibus"
    im_module = "ibus"
    # libpinyin shows its first candidate while it composes.
    word, shown = "langhua", "浪花"
    other_word, other_shown = "chuanbo", "传播"
    takes = {"ctrl+s": None, "shift+Return": "langhua"}
    engine = "libpinyin"
    # The key that turns the engine on, for engines that start in Latin mode.
    switch_on = None

    def start(self, desktop):
        ibus_support.start_ibus(desktop)
        self.placeholder = ibus_support.ibus_focused_context(desktop)

    def ready(self, desktop, ui):
        wait_until("the app's input context to have ibus's focus",
                   lambda: ibus_support.ibus_focused_context(desktop) not in (None, self.placeholder))
        ibus_support.select_engine(desktop, self.engine)
        if self.switch_on:
            desktop.key(self.switch_on)

    def compose(self, desktop, word):
        desktop.key(*list(word))


class IBusScriptEngine(IBus):
    """An ibus engine that is a python3 program using Debian's GObject bindings (Anthy,
    Hangul): the daemon that starts it must find Debian's python3 first, not one of a
    developer's own."""
    package = None

    def start(self, desktop):
        if not os.path.exists(f"/usr/share/ibus/component/{self.engine}.xml"):
            raise Failure(f"missing: the {self.engine} engine (Debian package {self.package})")
        desktop.env["PATH"] = "/usr/bin:/bin:" + desktop.env.get("PATH", "")
        super().start(desktop)


class IBusAnthy(IBusScriptEngine):
    """ibus with Anthy (Japanese): romaji compose hiragana, Space converts them to kanji,
    which stay a composition until Enter commits them (Space again would only go on to
    the next candidate). Anthy starts in Latin mode (its input-mode setting is 3): Ctrl+J
    turns it on, to hiragana, as a Japanese user does."""
    name = "anthy"
    engine, package, switch_on = "anthy", "ibus-anthy", "ctrl+j"
    word, shown = "yama", "山"
    other_word, other_shown = "nihon", "日本"
    commit_key = "Return"

    def compose(self, desktop, word):
        desktop.key(*list(word), "space")


class Fcitx5Anthy(Fcitx5):
    """fcitx5 with Anthy (Japanese), as a user in Tokyo has it: romaji compose hiragana,
    Space converts them to kanji, Enter commits."""
    name = "fcitx5_anthy"
    engine, package = "anthy", "fcitx5-anthy"
    word, shown = "yama", "山"
    other_word, other_shown = "nihon", "日本"
    commit_key = "Return"

    def compose(self, desktop, word):
        desktop.key(*list(word), "space")


class Fcitx5Hangul(Fcitx5):
    """fcitx5 with its Hangul engine, in the two-set layout Korean keyboards have: g k s
    compose 한, r m f compose 글. A syllable stays a composition until a key that is not
    a jamo: Space, Enter or a move commits it, and that key then does its own work too."""
    name = "fcitx5_hangul"
    engine, package = "hangul", "fcitx5-hangul"
    word, shown = "gks", "한"
    other_word, other_shown = "rmf", "글"
    commit_key = "Return"


class IBusHangul(IBusScriptEngine):
    """ibus with its Hangul engine (Debian's ibus-hangul), two-set layout; it starts in
    Latin mode, and Shift+Space turns Hangul on, as a Korean user does."""
    name = "ibus_hangul"
    engine, package, switch_on = "hangul", "ibus-hangul", "shift+space"
    word, shown = "gks", "한"
    other_word, other_shown = "rmf", "글"
    commit_key = "Return"


class Simple:
    """GTK's own method: Ctrl+Shift+U and hex digits compose a character; the field shows
    the sequence (u4e2d) until space or Return commits it."""
    name = "simple"
    im_module = "gtk-im-context-simple"
    word, shown, committed = "4e2d", "u4e2d", "中"
    other_word, other_shown = "6587", "u6587"
    # Shift+Enter ends the code point's sequence, like Return.
    takes = {"shift+Return": "中"}

    def start(self, desktop):
        pass

    def ready(self, desktop, ui):
        pass

    def compose(self, desktop, word):
        desktop.key("ctrl+shift+u", *list(word))


METHODS = [Fcitx5(), IBus(), IBusAnthy(), Fcitx5Anthy(), Fcitx5Hangul(), IBusHangul(), Simple()]


def open_form(desktop, method, *names):
    method.start(desktop)
    ui = desktop.launch(*desktop.photos(*names))
    ui.wait_focus("Title")
    ui.method_ready = False
    return ui


def compose(desktop, ui, method, entry, word):
    """Types word through the input method and checks it is still a composition: the
    field's committed text is unchanged. The method is switched on at the first
    composition, so that plain words typed before it are plain keys."""
    if not ui.method_ready:
        method.ready(desktop, ui)
        ui.method_ready = True
    before = ui.text(entry)
    method.compose(desktop, word)
    # No key can pass an open composition to show the letters were handled: the check
    # that they were the input method's is the commit after, which must add the engine's
    # text, not the letters. This one only catches letters already in the field.
    expect(ui.text(entry) == before,
           f"the input method did not take the keys: {entry.get_name()} reads {ui.text(entry)!r}")


def shown_after_commit(ui, entry, before):
    """What a commit added to the field: waits until the field holds more than before."""
    text = wait_until(f"{entry.get_name()} to take the composition",
                      lambda: (lambda t: t if t != before and t.startswith(before) else None)(ui.text(entry)))
    return text[len(before):]


# -- the scenarios, one set per input method ---------------------------------------------

def commit_by_space(method):
    def scenario(desktop):
        """Space commits the composition into the field (a hanzi for pinyin); no move, no
        save."""
        ui = open_form(desktop, method, "a.jpg")
        compose(desktop, ui, method, ui.title, method.word)
        desktop.key("space")
        added = shown_after_commit(ui, ui.title, "")
        if method.name == "simple":
            expect(added == method.committed, f"space committed {added!r}, not {method.committed!r}")
        else:
            expect(all(ord(c) > 0x2E80 for c in added), f"space committed {added!r}, not hanzi")
        ui.handled()
        expect(ui.focused_name() == "Title", f"the commit moved focus to {ui.focused_name()!r}")
        expect(desktop.entries() == [], "the commit saved")
    return scenario


def commit_by_number(method):
    def scenario(desktop):
        """A candidate's number commits that candidate; the second differs from the first;
        no move, no save."""
        ui = open_form(desktop, method, "a.jpg")
        compose(desktop, ui, method, ui.title, method.word)
        desktop.key("1")
        first = shown_after_commit(ui, ui.title, "")
        expect(first and all(ord(c) > 0x2E80 for c in first), f"1 committed {first!r}, not hanzi")
        compose(desktop, ui, method, ui.title, method.word)
        desktop.key("2")
        second = shown_after_commit(ui, ui.title, first)
        expect(second and all(ord(c) > 0x2E80 for c in second) and second != first,
               f"2 committed {second!r} (1 gave {first!r})")
        ui.handled()
        expect(ui.focused_name() == "Title", f"the commit moved focus to {ui.focused_name()!r}")
        expect(desktop.entries() == [], "the commit saved")
    return scenario


def enter_commits_only(method):
    def scenario(desktop):
        """Return during a composition in Subtitle (where Return would save) commits it
        and does nothing else; the next Return saves what the field shows."""
        ui = open_form(desktop, method, "a.jpg")
        desktop.type("Harbour")
        ui.wait_text(ui.title, "Harbour")
        desktop.key("Return")
        ui.wait_focus("Subtitle")
        compose(desktop, ui, method, ui.subtitle, method.word)
        desktop.key("Return")
        added = shown_after_commit(ui, ui.subtitle, "")
        ui.handled()
        expect(ui.focused_name() == "Subtitle", f"the Return that committed moved focus to {ui.focused_name()!r}")
        expect(desktop.entries() == [], "the Return that committed saved")
        desktop.key("Return")
        entries = desktop.wait_for_entries(1)
        expect((entries[0]["title"], entries[0]["subtitle"]) == ("Harbour", added),
               f"saved {entries[0]['title']!r} / {entries[0]['subtitle']!r}, the field showed {added!r}")
    return scenario


def shift_enter_keeps_composition(method):
    def scenario(desktop):
        """Shift+Enter during a composition in Subtitle: the composition ends up committed
        in Subtitle, nothing is saved, Title keeps its words. Where the engine takes the
        key, focus stays; where Caption gets it, focus goes back to Title."""
        ui = open_form(desktop, method, "a.jpg")
        desktop.type("Harbour")
        ui.wait_text(ui.title, "Harbour")
        desktop.key("Return")
        ui.wait_focus("Subtitle")
        compose(desktop, ui, method, ui.subtitle, method.word)
        desktop.key("shift+Return")
        # Where the engine takes the key it commits its way; where Caption gets it, focus
        # goes back and the composition is committed as it shows.
        committed = method.takes.get("shift+Return", method.shown)
        ui.wait_text(ui.subtitle, committed)
        ui.wait_focus("Subtitle" if "shift+Return" in method.takes else "Title")
        ui.handled()
        expect(ui.text(ui.subtitle) == committed, f"Subtitle reads {ui.text(ui.subtitle)!r}")
        expect(ui.text(ui.title) == "Harbour", f"Title reads {ui.text(ui.title)!r}")
        expect(desktop.entries() == [], "Shift+Enter saved")
    return scenario


def save_commits_composition(method, key):
    def scenario(desktop):
        """The save key during a composition saves the words as the field shows them, the
        composition included, with this photo; the next photo's field stays empty, in the
        window and in the draft."""
        ui = open_form(desktop, method, "a.jpg", "b.jpg")
        desktop.type("Harbour")
        ui.wait_text(ui.title, "Harbour")
        desktop.key("Return")
        ui.wait_focus("Subtitle")
        desktop.type("Sea ")
        ui.wait_text(ui.subtitle, "Sea ")
        compose(desktop, ui, method, ui.subtitle, method.word)
        desktop.key(key)
        shown = "Sea " + method.shown
        if key in method.takes:
            # The engine's key: it commits its way (or not at all) and nothing is saved or
            # moved; the other save key then saves what shows. Where the composition stays
            # open no key can pass it to show the save key was handled: then the message
            # the second save key would give on b.jpg (had the first saved and moved on)
            # is looked for below.
            if method.takes[key] is not None:
                shown = "Sea " + method.takes[key]
                ui.wait_text(ui.subtitle, shown)
                ui.handled()
                expect(desktop.entries() == [] and ui.focused_name() == "Subtitle",
                       f"{key}, taken by the engine, saved or moved focus to {ui.focused_name()!r}")
            desktop.key("ctrl+s" if key == "ctrl+Return" else "ctrl+Return")
        entries = desktop.wait_for_entries(1)
        ui.find("the preview of b.jpg", role="image", name="Photo: b.jpg")
        ui.wait_focus("Title")
        ui.handled()
        expect(ui.alert_text() is None and len(desktop.entries()) == 1,
               f"a second save key on b.jpg: the message says {ui.alert_text()!r}")
        saved = (entries[0]["title"], entries[0]["subtitle"], entries[0]["originalName"])
        following = (ui.text(ui.title), ui.text(ui.subtitle))
        draft = read_draft_words(desktop)
        expect(saved == ("Harbour", shown, "a.jpg") and following == ("", "")
               and all(title == "" and subtitle == "" for _, title, subtitle in draft),
               f"saved {saved!r} (the field showed {shown!r}); "
               f"b.jpg's Title / Subtitle read {following!r}; the draft holds {draft!r}")
    return scenario


def save_with_only_composition(method):
    def scenario(desktop):
        """Ctrl+S (Ctrl+Enter where the engine takes Ctrl+S) when Subtitle holds only a
        composition: no "Subtitle required"; the composition is saved as the subtitle."""
        ui = open_form(desktop, method, "a.jpg")
        desktop.type("Harbour")
        ui.wait_text(ui.title, "Harbour")
        desktop.key("Return")
        ui.wait_focus("Subtitle")
        compose(desktop, ui, method, ui.subtitle, method.word)
        key = "ctrl+Return" if "ctrl+s" in method.takes else "ctrl+s"
        desktop.key(key)
        try:
            entries = desktop.wait_for_entries(1)
        except Failure:
            raise Failure(f"nothing saved; the summary says {ui.alert_text()!r}, "
                          f"Subtitle reads {ui.text(ui.subtitle)!r}") from None
        expect((entries[0]["title"], entries[0]["subtitle"]) == ("Harbour", method.shown),
               f"saved {entries[0]['title']!r} / {entries[0]['subtitle']!r}")
    return scenario


def next_photo_keeps_composition(method):
    def scenario(desktop):
        """Ctrl+Page Down during a composition in photo 1's Title: the composition stays
        with photo 1 (committed), photo 2's Title is empty, and Ctrl+Page Up finds it."""
        ui = open_form(desktop, method, "a.jpg", "b.jpg")
        compose(desktop, ui, method, ui.title, method.other_word)
        desktop.key("ctrl+Next")
        ui.find("the preview of b.jpg", role="image", name="Photo: b.jpg")
        ui.wait_focus("Title")
        ui.handled()
        expect(ui.text(ui.title) == "", f"photo 2's Title reads {ui.text(ui.title)!r}")
        # The draft follows the form's changes: waited for until it holds a.jpg's words.
        want = [("a.jpg", method.other_shown), ("b.jpg", "")]
        try:
            wait_until("the draft to hold the composition with a.jpg",
                       lambda: [(os.path.basename(p), t) for p, t, _ in read_draft_words(desktop)] == want or None)
        except Failure:
            raise Failure(f"the draft holds {read_draft_words(desktop)!r}") from None
        desktop.key("ctrl+Prior")
        ui.find("the preview of a.jpg", role="image", name="Photo: a.jpg")
        ui.wait_text(ui.title, method.other_shown)
    return scenario


def library_keeps_composition(method):
    def scenario(desktop):
        """Ctrl+L during a composition in Title: the library shows, and back on the form
        (Escape) Title holds the composition, committed; so does the draft."""
        ui = open_form(desktop, method, "a.jpg")
        compose(desktop, ui, method, ui.title, method.other_word)
        desktop.key("ctrl+l")
        ui.find("the library's search", role="text", name=lambda n: n not in ("Title", "Subtitle"), showing=True)
        desktop.key("Escape")
        ui.wait_text(ui.title, method.other_shown)
        draft = wait_until("the draft to hold the composition",
                           lambda: (lambda d: d if d and d[0][1] == method.other_shown else None)(read_draft_words(desktop)))
        expect(len(draft) == 1, f"the draft holds {draft!r}")
    return scenario


def undo_keeps_composition_with_its_photo(method):
    def scenario(desktop):
        """Undo (Ctrl+Z) of a save while a composition is open in the next photo's Title:
        the saved photo comes back with its words, and the composition stays with the
        photo it was typed for."""
        ui = open_form(desktop, method, "a.jpg", "b.jpg")
        desktop.type("Harbour")
        desktop.key("Return")
        ui.wait_focus("Subtitle")
        desktop.type("Ferry")
        ui.wait_text(ui.subtitle, "Ferry")
        desktop.key("Return")
        desktop.wait_for_entries(1)
        ui.find("the preview of b.jpg", role="image", name="Photo: b.jpg")
        ui.wait_focus("Title")
        compose(desktop, ui, method, ui.title, method.other_word)
        desktop.key("ctrl+z")
        ui.find("the preview of a.jpg", role="image", name="Photo: a.jpg")
        ui.wait_text(ui.title, "Harbour")
        ui.handled()
        expect(ui.text(ui.title) == "Harbour" and ui.text(ui.subtitle) == "Ferry",
               f"a.jpg came back with {ui.text(ui.title)!r} / {ui.text(ui.subtitle)!r}")
        desktop.key("ctrl+Next")
        ui.find("the preview of b.jpg", role="image", name="Photo: b.jpg")
        ui.wait_text(ui.title, method.other_shown)
    return scenario


def quit_keeps_composition_in_draft(method):
    def scenario(desktop):
        """Ctrl+Q during a composition: the draft the app leaves holds the composition with
        its photo, so the next start brings it back."""
        ui = open_form(desktop, method, "a.jpg", "b.jpg")
        compose(desktop, ui, method, ui.title, method.other_word)
        desktop.app_may_exit = True
        desktop.key("ctrl+q")
        wait_until("Ctrl+Q to quit", lambda: desktop.app.poll() is not None)
        draft = read_draft_words(desktop)
        expect([(os.path.basename(p), t) for p, t, _ in draft] == [("a.jpg", method.other_shown), ("b.jpg", "")],
               f"the draft holds {draft!r}")
    return scenario


def same_word_on_the_next_photo_is_kept(method):
    def scenario(desktop):
        """A composition settled by Ctrl+Page Down, then the same word composed and
        committed by Space on the next photo at once: both photos keep it (the settler
        once took the user's own commit for the input method's late one and dropped it)."""
        ui = open_form(desktop, method, "a.jpg", "b.jpg")
        compose(desktop, ui, method, ui.title, method.other_word)
        desktop.key("ctrl+Next")
        ui.find("the preview of b.jpg", role="image", name="Photo: b.jpg")
        compose(desktop, ui, method, ui.title, method.other_word)
        desktop.key(getattr(method, "commit_key", "space"))
        added = shown_after_commit(ui, ui.title, "")
        draft = wait_until("the draft to hold both photos' words",
                           lambda: (lambda d: d if len(d) == 2 and d[1][1] == added else None)(read_draft_words(desktop)))
        expect([(os.path.basename(p), t) for p, t, _ in draft] == [("a.jpg", method.other_shown), ("b.jpg", added)],
               f"the draft holds {draft!r}")
    return scenario


def composition_stays_with_its_photo_twice(method):
    def scenario(desktop):
        """Compositions settled by Ctrl+Page Down on two photos in a row: the third photo's
        Title starts empty, and what is composed there is all it holds (the second
        photo's composition once rode on into it)."""
        ui = open_form(desktop, method, "a.jpg", "b.jpg", "c.jpg")
        compose(desktop, ui, method, ui.title, method.other_word)
        desktop.key("ctrl+Next")
        ui.find("the preview of b.jpg", role="image", name="Photo: b.jpg")
        compose(desktop, ui, method, ui.title, method.word)
        desktop.key("ctrl+Next")
        ui.find("the preview of c.jpg", role="image", name="Photo: c.jpg")
        ui.wait_focus("Title")
        ui.handled()
        expect(ui.text(ui.title) == "", f"photo 3's Title reads {ui.text(ui.title)!r}")
        compose(desktop, ui, method, ui.title, method.other_word)
        desktop.key("ctrl+Prior")
        ui.find("the preview of b.jpg", role="image", name="Photo: b.jpg")
        draft = wait_until("the draft to hold three photos",
                           lambda: (lambda d: d if len(d) == 3 and d[2][1] else None)(read_draft_words(desktop)))
        expect([(os.path.basename(p), t) for p, t, _ in draft]
               == [("a.jpg", method.other_shown), ("b.jpg", method.shown), ("c.jpg", method.other_shown)],
               f"the draft holds {draft!r}")
    return scenario


def korean_enter_commits_the_syllable_and_acts(method):
    def scenario(desktop):
        """Korean: Enter commits the syllable being composed and, in the same press, does
        what Enter does (every Korean input method passes it on): 한 stays in Title and
        focus goes to Subtitle; 글 then Enter saves both, nothing lost."""
        ui = open_form(desktop, method, "a.jpg")
        compose(desktop, ui, method, ui.title, method.word)
        desktop.key("Return")
        ui.wait_text(ui.title, method.shown)
        ui.wait_focus("Subtitle")
        compose(desktop, ui, method, ui.subtitle, method.other_word)
        desktop.key("Return")
        entries = desktop.wait_for_entries(1)
        expect((entries[0]["title"], entries[0]["subtitle"]) == (method.shown, method.other_shown),
               f"saved {entries[0]['title']!r} / {entries[0]['subtitle']!r}")
    return scenario


def split_word(method):
    """The method's word in two: keys before a photo arrives, keys after, and the keys
    that then commit it without acting (Space; Anthy converts with Space and commits with
    Enter)."""
    if method.name == "simple":
        return ["ctrl+shift+u", "4", "e"], ["2", "d"], ["space"]
    keys = list(method.word)
    commit = ["space", "Return"] if method.name.endswith("anthy") else ["space"]
    middle = len(keys) - 1 if "hangul" in method.name else len(keys) // 2
    return keys[:middle], keys[middle:], commit


def arrival_keeps_composition(method, empty=False):
    def scenario(desktop):
        """A photo joining the queue from a watched folder while a word is composed: the
        form shows the same photo, so nothing is settled, and the word composes whole (한
        from g·k, arrival, s; it was 하ㄴ). The same keys with no arrival give the reference."""
        first, arriving = desktop.photos("a.jpg", "arriving.jpg")
        watched = os.path.join(desktop.root, "incoming")
        os.makedirs(watched)
        method.start(desktop)
        ui = desktop.launch("--watch", watched, *([] if empty else [first]))
        if empty:
            ui.wait_focus("Choose Photo…")
            desktop.key("Tab")
        ui.wait_focus("Title")
        method.ready(desktop, ui)
        before, after, commit = split_word(method)
        desktop.key(*before, *after, *commit)
        reference = wait_until("the word typed without an arrival",
                               lambda: (lambda text: text if text and text.strip() == text.strip().strip(
                                   "abcdefghijklmnopqrstuvwxyz") else None)(ui.text(ui.title)))
        desktop.key("ctrl+a", "BackSpace")
        ui.wait_text(ui.title, "")
        # No barrier here (its keys would end the composition): the arrival is waited for
        # by the header, and the keys after it queue behind the ones before.
        desktop.key(*before)
        os.rename(arriving, os.path.join(watched, "arriving.jpg"))
        if empty:
            ui.find("the photo arriving on the form", role="image", name="Photo: arriving.jpg")
        else:
            ui.find("the header counting the new photo", role="label", name=lambda name: name == "1 of 2 · 1 new")
        desktop.key(*after, *commit)
        ui.wait_text(ui.title, reference)
        ui.handled()
        expect(ui.focused_name() == "Title", f"focus moved to {ui.focused_name()!r}")
    return scenario


def tab_click_keeps_composition(method):
    def scenario(desktop):
        """By the mouse: a click on the Library tab during a composition in Title commits it
        into Title (ibus-libpinyin threw it away), and a click on the Caption tab puts focus
        back in Title (it was left on the tab), so typing goes on there."""
        ui = open_form(desktop, method, "a.jpg")
        compose(desktop, ui, method, ui.title, method.other_word)
        ui.click(ui.find("the Library tab", role="radio button", name="Library"))
        ui.find("the library's search", role="text", name=lambda n: n not in ("Title", "Subtitle"), showing=True)
        ui.click(ui.find("the Caption tab", role="radio button", name="Caption"))
        ui.wait_focus("Title")
        ui.wait_text(ui.title, method.other_shown)
        # A key every input method passes on when nothing is composed reaches Title.
        desktop.key("BackSpace")
        ui.wait_text(ui.title, method.other_shown[:-1])
    return scenario


def menu_click_keeps_composition(method):
    def scenario(desktop):
        """By the mouse: the main menu, then Preferences, during a composition in Title;
        Escape closes Preferences, and Title holds the composition, committed."""
        desktop.start_window_manager()
        ui = open_form(desktop, method, "a.jpg")
        compose(desktop, ui, method, ui.title, method.other_word)
        ui.click(ui.find("the main menu's button", role="toggle button", name="Main Menu"))
        ui.click(ui.find("Preferences in the menu", role="menu item", name="Preferences", showing=True))
        wait_until("Preferences to open", lambda: ui.desktop._xdotool_out("search", "--name", "Preferences") or None)
        desktop.key("Escape")
        ui.wait_focus("Title")
        ui.wait_text(ui.title, method.other_shown)
    return scenario


def read_draft_words(desktop):
    """(path, title, subtitle) of each photo in the draft, [] when there is none yet."""
    import scenarios_desktop
    path = os.path.join(desktop.library, "draft.ini")
    return scenarios_desktop.read_draft(path) or []


CASES = [
    ("commit_by_space_stays_in_field", commit_by_space, ("fcitx5", "ibus", "simple")),
    # GTK's simple method has no candidates to choose by number.
    ("commit_by_number_chooses_candidate", commit_by_number, ("fcitx5", "ibus")),
    ("enter_during_composition_commits_only", enter_commits_only, ("fcitx5", "ibus", "simple")),
    ("shift_enter_during_composition_keeps_it", shift_enter_keeps_composition, ("fcitx5", "ibus", "simple")),
    ("ctrl_s_saves_open_composition_with_its_photo",
     lambda method: save_commits_composition(method, "ctrl+s"), ("fcitx5", "ibus", "simple")),
    ("ctrl_enter_saves_open_composition_with_its_photo",
     lambda method: save_commits_composition(method, "ctrl+Return"), ("fcitx5", "ibus", "simple")),
    ("ctrl_s_with_only_a_composition_saves_it", save_with_only_composition, ("fcitx5", "ibus", "simple")),
    ("ctrl_page_down_keeps_composition_with_its_photo", next_photo_keeps_composition,
     ("fcitx5", "ibus", "simple")),
    ("same_word_on_the_next_photo_is_kept", same_word_on_the_next_photo_is_kept,
     ("fcitx5", "ibus", "anthy", "fcitx5_hangul", "ibus_hangul")),
    ("composition_stays_with_its_photo_twice", composition_stays_with_its_photo_twice,
     ("fcitx5", "ibus", "anthy", "fcitx5_hangul", "ibus_hangul", "simple")),
    ("enter_commits_the_syllable_and_acts", korean_enter_commits_the_syllable_and_acts,
     ("fcitx5_hangul", "ibus_hangul")),
    # ibus-libpinyin takes Ctrl+L, Ctrl+Z and Ctrl+Q while it composes: they never reach
    # Caption, so there is nothing to settle.
    ("ctrl_l_keeps_composition_in_its_field", library_keeps_composition, ("fcitx5", "simple")),
    ("undo_keeps_composition_with_its_photo", undo_keeps_composition_with_its_photo, ("fcitx5", "simple")),
    ("ctrl_q_keeps_composition_in_draft", quit_keeps_composition_in_draft, ("fcitx5", "simple")),
    ("a_photo_arriving_keeps_the_composition", arrival_keeps_composition, ("ibus", "ibus_hangul", "fcitx5_anthy")),
    ("clicking_the_tabs_keeps_the_composition_and_focus", tab_click_keeps_composition,
     ("ibus", "ibus_hangul", "fcitx5_anthy")),
    ("clicking_preferences_in_the_menu_keeps_the_composition", menu_click_keeps_composition,
     ("ibus", "ibus_hangul", "fcitx5_anthy")),
    ("a_photo_arriving_on_an_empty_form_keeps_the_composition", lambda method: arrival_keeps_composition(method, True),
     ("ibus", "ibus_hangul", "fcitx5_anthy", "fcitx5", "simple")),
]

for _case, _make, _names in CASES:
    for _method in METHODS:
        if _method.name in _names:
            _scenario = _make(_method)
            _scenario.im_module = _method.im_module
            _scenario.__name__ = f"scenario_{_case}_{_method.name}"
            globals()[_scenario.__name__] = _scenario
