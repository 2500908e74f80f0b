# A private Wayland desktop for one scenario: headless sway (no Xwayland), a session bus,
# the real caption binary with GDK_BACKEND=wayland, keys through a virtual keyboard of our
# own (Tests/wayland/keyboard.c), results read from the library and from sway's tree.
#
# sway refuses to run as root, so the compositor, the bus, the app and the keyboard run as
# the unprivileged uid 65534 (setpriv), with a private 0700 XDG_RUNTIME_DIR.

import json
import os
import shutil
import subprocess

import harness
from harness import TIMEOUT, Failure, require, wait_until

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = os.path.join(HERE, "..", "wayland")
UID = 65534
APP_ID = "io.github.caption_app.Caption"


def as_user(argv):
    return ["setpriv", f"--reuid={UID}", f"--regid={UID}", "--clear-groups", *argv]


def keyboard_binary(caption):
    """Builds the virtual keyboard beside the caption binary's build folder, once."""
    build = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(caption))), "e2e-tools")
    binary = os.path.join(build, "wayland-keyboard")
    source = os.path.join(SOURCES, "keyboard.c")
    protocol = os.path.join(SOURCES, "virtual-keyboard-unstable-v1.xml")
    if os.path.exists(binary) and os.path.getmtime(binary) >= max(os.path.getmtime(source), os.path.getmtime(protocol)):
        return binary
    require("wayland-scanner", "gcc", "pkg-config")
    work = os.path.join(build, f"work-{os.getpid()}")
    os.makedirs(work, exist_ok=True)
    header = os.path.join(work, "virtual-keyboard-unstable-v1-client-protocol.h")
    code = os.path.join(work, "virtual-keyboard-unstable-v1.c")
    subprocess.run(["wayland-scanner", "client-header", protocol, header], check=True)
    subprocess.run(["wayland-scanner", "private-code", protocol, code], check=True)
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "wayland-client", "xkbcommon"],
                           check=True, capture_output=True).stdout.decode().split()
    subprocess.run(["gcc", "-O1", "-Wall", "-I", work, source, code, "-o", os.path.join(work, "keyboard"), *flags],
                   check=True)
    os.replace(os.path.join(work, "keyboard"), binary)  # atomic: scenarios side by side
    shutil.rmtree(work, ignore_errors=True)
    return binary


class WaylandDesktop(harness.Desktop):
    def start(self):
        require("sway", "swaymsg", "setpriv", "dbus-daemon", "grim")
        harness.become_subreaper()
        os.chmod(self.root, 0o755)
        home = os.path.join(self.root, "home")
        runtime = os.path.join(self.root, "runtime")
        for folder in (home, runtime):
            os.makedirs(folder, mode=0o700)
            os.chown(folder, UID, UID)
        self.library = os.path.join(home, "library")
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": home,
            "XDG_RUNTIME_DIR": runtime,
            "XDG_CONFIG_HOME": os.path.join(home, ".config"),
            "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
            "XDG_CACHE_HOME": os.path.join(home, ".cache"),
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "GSETTINGS_BACKEND": "memory",
            "GDK_BACKEND": "wayland",
            "GTK_THEME": "Adwaita",
            "NO_AT_BRIDGE": "1",
        }
        config = os.path.join(self.root, "sway.config")
        with open(config, "w") as lines:
            lines.write("output HEADLESS-1 resolution 1280x800\nxwayland disable\n")
        sway_env = dict(self.env, WLR_BACKENDS="headless", WLR_LIBINPUT_NO_DEVICES="1", WLR_RENDERER="pixman")
        self.spawn("sway", as_user(["sway", "-c", config]), env=sway_env, stdout=subprocess.DEVNULL,
                   stderr=open(os.path.join(self.root, "sway.log"), "w"))
        socket = wait_until("sway's Wayland socket", lambda: next(
            (name for name in os.listdir(runtime) if name.startswith("wayland-") and not name.endswith(".lock")), None))
        self.env["WAYLAND_DISPLAY"] = socket
        self.env["SWAYSOCK"] = os.path.join(runtime, wait_until("sway's IPC socket", lambda: next(
            (name for name in os.listdir(runtime) if name.startswith("sway-ipc.")), None)))
        read_end, write_end = os.pipe()
        self.spawn("dbus-daemon", as_user(["dbus-daemon", "--session", "--nofork", "--nopidfile",
                                           f"--print-address={write_end}"]),
                   pass_fds=(write_end,), stdout=subprocess.DEVNULL,
                   stderr=open(os.path.join(self.root, "dbus.log"), "w"))
        os.close(write_end)
        self.env["DBUS_SESSION_BUS_ADDRESS"] = self._read_line(read_end, "the session bus address")
        os.close(read_end)
        self.keyboard = self.spawn("keyboard", as_user([keyboard_binary(self.caption)]), stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=open(os.path.join(self.root, "keyboard.log"), "w"))
        line = self.keyboard.stdout.readline().decode().strip()
        if line != "ready":
            raise Failure(f"the virtual keyboard did not start: {line!r} {self._log('keyboard.log')}")
        return self

    def _log(self, name):
        try:
            with open(os.path.join(self.root, name), errors="replace") as text:
                return text.read()[-1500:]
        except OSError:
            return ""

    def photos(self, *names):
        paths = super().photos(*names)
        os.chmod(os.path.dirname(paths[0]), 0o755)
        for path in paths:
            os.chmod(path, 0o644)
        return paths

    def screenshot(self):
        """The output as sway composites it (grim, through wlroots' screencopy)."""
        result = subprocess.run(as_user(["grim", "-t", "ppm", "-"]), env=self.env, capture_output=True,
                                timeout=TIMEOUT)
        if result.returncode != 0:
            raise Failure(f"grim exited {result.returncode}: {result.stderr.decode(errors='replace')}")
        return harness.read_ppm(result.stdout)

    def tree(self):
        result = subprocess.run(as_user(["swaymsg", "-t", "get_tree", "-r"]), env=self.env, capture_output=True,
                                timeout=TIMEOUT)
        return json.loads(result.stdout.decode()) if result.returncode == 0 else {}

    def windows(self):
        found = []

        def walk(node):
            if node.get("app_id") is not None or node.get("window") is not None:
                found.append(node)
            for child in node.get("nodes", []) + node.get("floating_nodes", []):
                walk(child)
        walk(self.tree())
        return found

    def launch(self, *photos, default_library=False):
        argv = [self.caption, *photos] if default_library else [self.caption, "--library", self.library, *photos]
        self.app = self.spawn("caption", as_user(argv), stdout=open(self.app_log, "a"), stderr=subprocess.STDOUT)
        window = wait_until("the window on sway", lambda: self._app_running() and next(
            (w for w in self.windows() if w.get("pid") == self.app.pid or w.get("name") == "Caption"), None))
        # Keys reach the window once sway has given it the keyboard; the form's focus is
        # set before it maps, so nothing else is waited for.
        wait_until("the window to have the keyboard", lambda: any(
            w.get("focused") for w in self.windows() if w.get("pid") == self.app.pid or w.get("name") == "Caption"))
        return window

    def key(self, *keys):
        for key in keys:
            self._send(f"key {key}")

    def type(self, text):
        self._send(f"type {text}")

    def send_all(self, keys):
        """Every key of a session at once, as ("type", text) or ("key", combination): the
        keyboard's answers are read after the last is written, so nothing waits on the app."""
        self._app_running()
        commands = [f"{kind} {value}" for kind, value in keys]
        self.keyboard.stdin.write("".join(command + "\n" for command in commands).encode())
        self.keyboard.stdin.flush()
        for command in commands:
            answer = self.keyboard.stdout.readline().decode().strip()
            if answer != "ok":
                raise Failure(f"the virtual keyboard could not {command!r}: {answer!r}")

    def give_config_to_the_app(self):
        """Files a scenario wrote under the app's config folder, made the app's."""
        for folder, _, files in os.walk(self.env["XDG_CONFIG_HOME"]):
            os.chown(folder, UID, UID)
            for name in files:
                os.chown(os.path.join(folder, name), UID, UID)

    def _send(self, command):
        self._app_running()
        self.keyboard.stdin.write((command + "\n").encode())
        self.keyboard.stdin.flush()
        answer = self.keyboard.stdout.readline().decode().strip()
        if answer != "ok":
            raise Failure(f"the virtual keyboard could not {command!r}: {answer!r}")

    def entries(self):
        if not os.path.exists(self.library):
            return []
        result = subprocess.run(as_user([self.caption, "--library", self.library, "--list", "--json"]),
                                env=self.env, capture_output=True, timeout=TIMEOUT)
        if result.returncode != 0:
            raise Failure(f"caption --list --json exited {result.returncode}: {result.stderr!r}")
        return sorted(json.loads(result.stdout.decode()), key=lambda entry: entry["id"])


def wayland(scenario):
    """Marks a scenario that runs on the headless Wayland desktop."""
    scenario.desktop_class = WaylandDesktop
    return scenario
