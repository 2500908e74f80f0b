# A private desktop for one end-to-end scenario: display, bus, app, keys in, AT-SPI out.
#
# Xvfb, a D-Bus session with the accessibility bus, the real caption binary, keys through
# xdotool, reading through AT-SPI. The process that uses this must not have imported Atspi before Desktop.start(): the
# AT-SPI client finds its bus through the environment that start() sets.

import ctypes
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time


class Failure(Exception):
    """A check that did not hold: the scenario fails with this message."""


# Slow machines (CI under load) get the same verdicts, only later.
TIMEOUT = float(os.environ.get("E2E_TIMEOUT", "15"))
# Read before a scenario replaces the environment with its desktop's.
KEEP = bool(os.environ.get("E2E_KEEP"))


def wait_until(description, probe, timeout=TIMEOUT, interval=0.05):
    """Polls probe() until it returns something truthy; returns that, or fails naming the
    wait and the last value seen, so a failure says what the app was doing instead."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            last = probe()
        except Failure:
            raise
        except Exception as error:  # AT-SPI objects can vanish mid-read; read again
            last = error
        if last and not isinstance(last, Exception):
            return last
        if time.monotonic() > deadline:
            raise Failure(f"timed out waiting for {description} (last seen: {last!r})")
        time.sleep(interval)


def make_pads(desktop, pads):
    """Stationery pads as an agency hands them out: XMP files made by exiftool in the shape
    of Photo Mechanic's templates, in the scenario's settings folder; `pads` maps each
    pad's name to exiftool's tag arguments."""
    folder = os.path.join(desktop.env["XDG_CONFIG_HOME"], "caption", "pads")
    os.makedirs(folder, exist_ok=True)
    for name, tags in pads.items():
        subprocess.run(["exiftool", "-q", "-o", os.path.join(folder, name + ".xmp")] + tags,
                       check=True, timeout=TIMEOUT)


def wait_setting_saved(desktop, text, description):
    """Waits until the settings file (credits, choices, checks, fields) holds `text`."""
    settings = os.path.join(desktop.env["XDG_CONFIG_HOME"], "caption", "credits.ini")
    wait_until(description, lambda: text in open(settings).read() if os.path.exists(settings) else None)


def read_ppm(data):
    """(width, height, RGB bytes) of a binary PPM (P6, 8 bits), as ImageMagick and grim
    write it."""
    fields = []
    position = 2
    expect(data[:2] == b"P6", "the screenshot is not a PPM")
    while len(fields) < 3:
        while data[position:position + 1].isspace():
            position += 1
        if data[position:position + 1] == b"#":
            position = data.index(b"\n", position) + 1
            continue
        end = position
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(int(data[position:end]))
        position = end
    width, height, maximum = fields
    expect(maximum == 255, f"the screenshot has {maximum} levels")
    pixels = data[position + 1:position + 1 + width * height * 3]
    expect(len(pixels) == width * height * 3, "the screenshot is cut short")
    return width, height, pixels


def require(*programs):
    """Fails at once, naming the Debian package, when a program the scenario needs is
    missing: a scenario that cannot run fails, it never skips."""
    packages = {"Xvfb": "xvfb", "dbus-daemon": "dbus-daemon", "xdotool": "xdotool",
                "ibus-daemon": "ibus", "ibus": "ibus", "fcitx5": "fcitx5", "fcitx5-remote": "fcitx5"}
    missing = [p for p in programs if shutil.which(p) is None and not os.access(p, os.X_OK)]
    if missing:
        raise Failure("missing: " + ", ".join(f"{p} (Debian package {packages.get(p, '?')})" for p in missing))


def expect(condition, message):
    if not condition:
        raise Failure(message)


def become_subreaper():
    """Makes orphaned descendants (daemons that D-Bus activated, then lost their parent)
    this process's children, so that they can be waited for and none outlives the run."""
    PR_SET_CHILD_SUBREAPER = 36
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def children():
    """{pid: command name} of this process's live children."""
    me = os.getpid()
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                line = stat.read()
        except OSError:
            continue
        name = line[line.index("(") + 1:line.rindex(")")]
        fields = line[line.rindex(")") + 2:].split()
        state, parent = fields[0], int(fields[1])
        if parent == me and state != "Z":
            found[int(entry)] = name
    return found


def reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def sweep_orphans(grace):
    """Waits up to grace seconds for adopted children to end, then kills the rest.
    Returns the names of those it had to kill."""
    deadline = time.monotonic() + grace
    while True:
        reap()
        left = children()
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    time.sleep(0.05)
    reap()
    return sorted(left.values())


class Keymap:
    """Gives every character a test types a key of its own on the scenario's display.

    xdotool types a character missing from the keymap by binding it to a spare keycode,
    pressing it, and unbinding it at once; an app that reads the keymap after the unbind
    (a busy machine) gets no character. Bound here beforehand, and never unbound during
    the scenario, a character is an ordinary key that xdotool finds and presses."""

    def __init__(self, display):
        self.display_name = display.encode()
        self.bound = set()
        self.spare = None

    def _open(self):
        x = ctypes.CDLL("libX11.so.6")
        x.XOpenDisplay.restype = ctypes.c_void_p
        x.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x.XCloseDisplay.argtypes = [ctypes.c_void_p]
        x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        x.XFree.argtypes = [ctypes.c_void_p]
        x.XDisplayKeycodes.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)]
        x.XGetKeyboardMapping.restype = ctypes.POINTER(ctypes.c_ulong)
        x.XGetKeyboardMapping.argtypes = [ctypes.c_void_p, ctypes.c_ubyte, ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
        x.XChangeKeyboardMapping.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                                             ctypes.POINTER(ctypes.c_ulong), ctypes.c_int]
        display = x.XOpenDisplay(self.display_name)
        if not display:
            raise Failure(f"cannot open display {self.display_name.decode()} to bind keys")
        return x, display

    def bind(self, text):
        # Latin-1 keysyms equal their code points; others are the Unicode keysyms.
        wanted = {ord(c) if ord(c) < 0x100 else 0x1000000 + ord(c) for c in text if not (" " <= c <= "~")}
        wanted -= self.bound
        if not wanted:
            return
        x, display = self._open()
        try:
            low, high, per = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
            x.XDisplayKeycodes(display, ctypes.byref(low), ctypes.byref(high))
            count = high.value - low.value + 1
            mapping = x.XGetKeyboardMapping(display, low.value, count, ctypes.byref(per))
            keysyms = [[mapping[i * per.value + j] for j in range(per.value)] for i in range(count)]
            x.XFree(mapping)
            present = {keysym for row in keysyms for keysym in row}
            wanted -= present
            if self.spare is None:
                # Keycodes with nothing on them, or only multimedia keys (XF86*) no test uses.
                self.spare = [low.value + i for i, row in enumerate(keysyms)
                              if all(k == 0 or 0x1008FF00 <= k <= 0x1008FFFF for k in row)]
            if len(wanted) > len(self.spare):
                raise Failure(f"too few spare keycodes to type {text!r}")
            for keysym in sorted(wanted):
                one = (ctypes.c_ulong * 1)(keysym)
                x.XChangeKeyboardMapping(display, self.spare.pop(0), 1, one, 1)
            x.XSync(display, 0)
            self.bound |= wanted
        finally:
            x.XCloseDisplay(display)


class Desktop:
    """One scenario's world. start() brings up the display and the session bus; stop()
    takes down everything this started, children first, and reports what refused to go."""

    def __init__(self, caption, photo, im_module="gtk-im-context-simple"):
        self.caption = os.path.abspath(caption)
        self.sample_photo = os.path.abspath(photo)
        self.im_module = im_module
        self.root = tempfile.mkdtemp(prefix="caption-e2e-")
        self.library = os.path.join(self.root, "library")
        self.processes = []  # (name, Popen), stopped in reverse order
        self.app = None
        self.app_may_exit = False  # a scenario that quits the app on purpose sets this
        self.app_log = os.path.join(self.root, "app.log")
        self.window_id = None
        self.env = None
        self.atspi = None

    # -- the session --------------------------------------------------------------

    def start(self):
        require("Xvfb", "dbus-daemon", "xdotool")
        become_subreaper()
        self.env = self._environment()
        self._start_xvfb()
        self._start_session_bus()
        # The AT-SPI client reads these at import; this process speaks to this session only.
        os.environ.clear()
        os.environ.update(self.env)
        import gi
        gi.require_version("Atspi", "2.0")
        from gi.repository import Atspi
        self.atspi = Atspi
        return self

    def _environment(self):
        home = os.path.join(self.root, "home")
        runtime = os.path.join(self.root, "runtime")
        for folder in (home, runtime):
            os.makedirs(folder, mode=0o700)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": home,
            # Config, data and caches of this scenario only: ibus writes its address file
            # under the config folder, the app remembers its window size there.
            "XDG_CONFIG_HOME": os.path.join(home, ".config"),
            "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
            "XDG_CACHE_HOME": os.path.join(home, ".cache"),
            "XDG_RUNTIME_DIR": runtime,
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            # GSettings would otherwise start dconf; the memory backend keeps runs apart.
            "GSETTINGS_BACKEND": "memory",
            "GDK_BACKEND": "x11",
            "GTK_IM_MODULE": self.im_module,
            "GTK_THEME": "Adwaita",
        }
        settings = os.path.join(env["XDG_CONFIG_HOME"], "gtk-3.0")
        os.makedirs(settings)
        with open(os.path.join(settings, "settings.ini"), "w") as ini:
            # No animations: a revealer's state is final as soon as it changes.
            ini.write("[Settings]\ngtk-enable-animations=false\ngtk-cursor-blink=false\n")
        return env

    def start_window_manager(self):
        """Starts openbox on the display and waits until it manages the screen: windows then
        get focus and come forward as on a desktop (without one, only the window under the
        pointer or given focus by xdotool has it)."""
        require("openbox")
        self.spawn("openbox", ["openbox", "--sm-disable"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until("openbox to manage the screen", lambda: subprocess.run(
            ["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env=self.env, capture_output=True,
            timeout=TIMEOUT).stdout.startswith(b"_NET_SUPPORTING_WM_CHECK(WINDOW)") or None)

    def spawn(self, name, argv, **kwargs):
        """Starts a helper that stop() ends."""
        kwargs.setdefault("env", self.env)
        kwargs.setdefault("stdin", subprocess.DEVNULL)
        process = subprocess.Popen(argv, **kwargs)
        self.processes.append((name, process))
        return process

    def _start_xvfb(self):
        read_end, write_end = os.pipe()
        # -noreset: otherwise each client that closes makes the server reload Mesa.
        self.spawn("Xvfb", ["Xvfb", "-displayfd", str(write_end), "-noreset", "-nolisten", "tcp",
                              "-screen", "0", "1280x1024x24"],
                    pass_fds=(write_end,), stdout=subprocess.DEVNULL,
                    stderr=open(os.path.join(self.root, "xvfb.log"), "w"))
        os.close(write_end)
        number = self._read_line(read_end, "Xvfb to report its display")
        os.close(read_end)
        self.env["DISPLAY"] = ":" + number
        self.keymap = Keymap(self.env["DISPLAY"])

    def _start_session_bus(self):
        read_end, write_end = os.pipe()
        # The bus daemon hands its environment to the services it activates (the
        # accessibility bus launcher, ibus): they must see this display and these folders.
        self.spawn("dbus-daemon", ["dbus-daemon", "--session", "--nofork", "--nopidfile",
                                    f"--print-address={write_end}"],
                    pass_fds=(write_end,), stdout=subprocess.DEVNULL,
                    stderr=open(os.path.join(self.root, "dbus.log"), "w"))
        os.close(write_end)
        self.env["DBUS_SESSION_BUS_ADDRESS"] = self._read_line(read_end, "the session bus address")
        os.close(read_end)

    @staticmethod
    def _read_line(fd, what):
        data = b""
        deadline = time.monotonic() + TIMEOUT
        while not data.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                raise Failure(f"timed out waiting for {what}")
            chunk = os.read(fd, 256)
            if not chunk:
                raise Failure(f"no answer while waiting for {what}")
            data += chunk
        return data.decode().strip()

    def stop(self):
        """Stops the app, then every helper, then the bus and the display, and then
        whatever they started (the accessibility bus and its registry, ibus engines), which
        this process adopted as their subreaper. Returns the names of processes that did
        not end by themselves once their bus and display were gone."""
        self.end_processes()
        lingering = sweep_orphans(grace=3)
        if not KEEP:
            shutil.rmtree(self.root, ignore_errors=True)
        return lingering

    def end_processes(self):
        """Ends what this desktop started, last started first: asked, then killed after 3 s."""
        for _, process in reversed(self.processes):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=3)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        self.processes.clear()

    # -- photos and the library -----------------------------------------------------

    def photos(self, *names):
        """Distinct copies of the sample photo under the given names: each gets its own
        JPEG comment, so the library (which names photos by content) sees three photos."""
        with open(self.sample_photo, "rb") as source:
            data = source.read()
        expect(data[:2] == b"\xff\xd8", "the sample photo is not a JPEG")
        paths = []
        folder = os.path.join(self.root, "photos")
        os.makedirs(folder, exist_ok=True)
        for name in names:
            comment = f"e2e {name}".encode()
            segment = b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment
            path = os.path.join(folder, name)
            with open(path, "wb") as photo:
                photo.write(data[:2] + segment + data[2:])
            paths.append(path)
        return paths

    def entries(self):
        """The library as `caption --list --json` prints it, oldest first."""
        result = subprocess.run([self.caption, "--library", self.library, "--list", "--json"],
                                env=self.env, capture_output=True, timeout=TIMEOUT)
        if result.returncode != 0:
            # Before the first save there may be no library yet.
            if not os.path.exists(self.library):
                return []
            raise Failure(f"caption --list --json exited {result.returncode}: "
                          f"{result.stderr.decode(errors='replace').strip()}")
        return sorted(json.loads(result.stdout.decode()), key=lambda entry: entry["id"])

    def wait_for_entries(self, count):
        """Waits until the library holds count entries (a save finishes off the main
        thread, after the key that asked for it); returns them."""
        found = wait_until(f"{count} saved entries",
                           lambda: (lambda entries: [entries] if len(entries) == count else None)(self.entries()))
        return found[0]

    # -- the app --------------------------------------------------------------------

    def launch(self, *photos, default_library=False):
        """Starts caption on the photos and waits until its window shows, has the X
        input focus (no window manager gives it) and AT-SPI sees it. With default_library
        it runs on the user's library (no --library), as one instance on the session bus,
        like an app started from the desktop."""
        if default_library:
            self.library = os.path.join(self.env["XDG_DATA_HOME"], "caption")
            argv = [self.caption, *photos]
        else:
            argv = [self.caption, "--library", self.library, *photos]
        self.app = self.spawn("caption", argv, stdout=open(self.app_log, "a"), stderr=subprocess.STDOUT)
        found = wait_until("the window to show", lambda: self._app_running() and self._xdotool_out(
            "search", "--onlyvisible", "--pid", str(self.app.pid)))
        self.window_id = found.split()[0]
        # Without a window manager keys go to the window under the pointer unless one has focus.
        self.xdotool("windowfocus", "--sync", self.window_id)
        self.ui = Window(self)
        return self.ui

    def _app_running(self):
        if self.app.poll() is not None:
            raise Failure(f"caption exited with status {self.app.returncode}")
        return True

    def app_log_text(self):
        try:
            with open(self.app_log, errors="replace") as log:
                return log.read()
        except OSError:
            return ""

    # -- what is on the screen ------------------------------------------------------

    def screenshot(self):
        """The whole screen as the X server has it: (width, height, RGB bytes)."""
        result = subprocess.run(["import", "-window", "root", "-depth", "8", "ppm:-"], env=self.env, capture_output=True,
                                timeout=TIMEOUT, check=True)
        return read_ppm(result.stdout)

    # -- keys -----------------------------------------------------------------------

    def xdotool(self, *args):
        subprocess.run(["xdotool", *args], env=self.env, check=True, timeout=TIMEOUT,
                       stdout=subprocess.DEVNULL)

    def _xdotool_out(self, *args):
        result = subprocess.run(["xdotool", *args], env=self.env, capture_output=True, timeout=TIMEOUT)
        return result.stdout.decode().strip()

    def key(self, *keys):
        """Presses keys one after the other, e.g. key("Return"), key("ctrl+s")."""
        self._app_running()
        self.xdotool("key", "--clearmodifiers", "--delay", "40", *keys)

    def type(self, text):
        self._app_running()
        self.keymap.bind(text)
        self.xdotool("type", "--delay", "25", "--", text)


class Window:
    """The app's window as a screen reader sees it: found by process id, read fresh each
    time (the AT-SPI cache is only as fresh as the events its client has dispatched)."""

    def __init__(self, desktop):
        self.desktop = desktop
        self.Atspi = desktop.atspi
        self.app = wait_until("caption on the accessibility bus", self._find_app)
        self.frame = wait_until("the window \"Caption\" on the accessibility bus", self._find_frame)
        self.title = self.find("the Title entry", role="text", name="Title")
        self.subtitle = self.find("the Subtitle entry", role="text", name="Subtitle")

    def _find_app(self):
        desktop = self.Atspi.get_desktop(0)
        for index in range(desktop.get_child_count()):
            app = desktop.get_child_at_index(index)
            if app is not None and app.get_process_id() == self.desktop.app.pid:
                return app
        return None

    def _find_frame(self):
        self.refresh()
        for index in range(self.app.get_child_count()):
            child = self.app.get_child_at_index(index)
            if child is not None and child.get_role_name() == "frame" and child.get_name() == "Caption" \
                    and self._has(child, "showing"):
                return child
        return None

    def refresh(self):
        self.Atspi.Accessible.clear_cache(self.app)

    def _has(self, accessible, state):
        return accessible.get_state_set().contains(getattr(self.Atspi.StateType, state.upper()))

    def walk(self, accessible=None):
        accessible = accessible or self.frame
        yield accessible
        for index in range(accessible.get_child_count()):
            child = accessible.get_child_at_index(index)
            if child is not None:
                yield from self.walk(child)

    def all(self, role=None, name=None, showing=False):
        self.refresh()
        return [a for a in self.walk()
                if (role is None or a.get_role_name() == role)
                and (name is None or (name(a.get_name()) if callable(name) else a.get_name() == name))
                and (not showing or self._has(a, "showing"))]

    def find(self, description, **criteria):
        return wait_until(description, lambda: (self.all(**criteria) or [None])[0])

    def click(self, accessible):
        """A left click in the middle of `accessible`, where the screen shows it, as a
        hand on the mouse makes it."""
        self.refresh()
        box = self.Atspi.Component.get_extents(accessible, self.Atspi.CoordType.SCREEN)
        self.desktop.xdotool("mousemove", "--sync", str(box.x + box.width // 2), str(box.y + box.height // 2),
                             "click", "1")

    # -- what a screen reader would announce ----------------------------------------

    def text(self, entry):
        self.refresh()
        return self.Atspi.Text.get_text(entry, 0, -1)

    def focused(self):
        """The focused accessible, or None."""
        self.refresh()
        for accessible in self.walk():
            if self._has(accessible, "focused"):
                return accessible
        return None

    def focused_name(self):
        focused = self.focused()
        return None if focused is None else focused.get_name()

    def description(self, accessible):
        self.refresh()
        return accessible.get_description()

    def activate_button(self):
        """The button whose label says what Enter does."""
        buttons = self.all(role="push button", name=lambda n: n in ("Next", "Done"))
        expect(len(buttons) == 1, f"expected one Next/Done button, found {[b.get_name() for b in buttons]}")
        return buttons[0]

    def alert_text(self):
        """The summary's text while it shows (the info bar has the alert role), else None."""
        for alert in self.all(role="alert", showing=True):
            labels = [a.get_name() for a in self.walk(alert) if a.get_role_name() == "label" and a.get_name()]
            if labels:
                return " ".join(labels)
        return None

    def notification_text(self):
        """The in-app notification's text while it shows, else None."""
        for note in self.all(role="notification", showing=True):
            labels = [a.get_name() for a in self.walk(note) if a.get_role_name() == "label" and a.get_name()]
            if labels:
                return " ".join(labels)
        return None

    # -- waits ----------------------------------------------------------------------

    def fill(self, title, subtitle):
        """Title, Return, subtitle, by keys: a caption's steps up to the last Return."""
        self.wait_focus("Title")
        self.desktop.type(title)
        self.wait_text(self.title, title)
        self.desktop.key("Return")
        self.wait_focus("Subtitle")
        self.desktop.type(subtitle)
        self.wait_text(self.subtitle, subtitle)

    def caption_the_rest_the_same(self):
        """F10, past where captions go (three radio items), to the first of the menu's
        actions, and Return."""
        self.desktop.key("F10")
        self.wait_focus("In Caption's Library Only")
        self.desktop.key("Down", "Down", "Down")
        self.wait_focus("Caption the Rest of the Queue the Same")
        self.desktop.key("Return")

    def wait_focus(self, name):
        try:
            return wait_until(f"focus on {name!r}", lambda: self.focused_name() == name or None)
        except Failure as failure:
            raise Failure(f"{failure}; focus is on {self.focused_name()!r}") from None

    def wait_text(self, entry, text):
        try:
            return wait_until(f"{entry.get_name()} to read {text!r}", lambda: self.text(entry) == text or None)
        except Failure as failure:
            raise Failure(f"{failure}; it reads {self.text(entry)!r}") from None

    def caret(self, entry):
        self.refresh()
        return self.Atspi.Text.get_caret_offset(entry)

    def handled(self):
        """Waits until the app has handled every key sent before this call. The app takes
        keys in the order they were sent, so when keys sent now have acted, every earlier
        key (and what it did to the form) is behind them: what a scenario checks after this
        it checks after the keys acted, not after a time. In a field with words, Home and
        End move its caret; anywhere else (an empty field, a button), F10 opens the main
        menu and Escape brings focus back. The keys go to what has focus now, so a check of
        where focus is belongs after this."""
        focused = wait_until("something to have focus", self.focused)
        name = focused.get_name()
        text = self.Atspi.Text.get_text(focused, 0, -1) if focused.get_role_name() == "text" else ""
        if not text:
            self.desktop.key("F10")
            wait_until("F10 to take focus to the main menu (F10 handled)",
                       lambda: self.focused_name() not in (None, name) or None)
            self.desktop.key("Escape")
            self.wait_focus(name)
            return
        # One of the two moves shows whatever the caret's place before: Home where it was
        # at the end, End where it was at the start.
        length = len(text)
        self.desktop.key("Home")
        wait_until(f"{name}'s caret to go to its start (Home handled)", lambda: self.caret(focused) == 0 or None)
        self.desktop.key("End")
        wait_until(f"{name}'s caret to go to its end (End handled)", lambda: self.caret(focused) == length or None)

    def wait_label(self, label):
        try:
            return wait_until(f"the activate button to read {label!r}",
                              lambda: self.activate_button().get_name() == label or None)
        except Failure as failure:
            raise Failure(f"{failure}; it reads {self.activate_button().get_name()!r}") from None


def input_method(name):
    """Marks a scenario that needs the app started with GTK_IM_MODULE=name."""
    def mark(scenario):
        scenario.im_module = name
        return scenario
    return mark
