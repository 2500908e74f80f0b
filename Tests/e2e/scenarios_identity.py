# Caption as the desktop sees it: the window's class names the desktop entry, photos handed
# to the running window carry the launcher's startup id, a hand-over prints nothing, and
# without a session bus a new window says why it is a new one.

import os
import re
import subprocess

from harness import TIMEOUT, expect, wait_until

APP_ID = "io.github.caption_app.Caption"
HERE = os.path.dirname(os.path.abspath(__file__))


def scenario_window_class_and_desktop_entry_name_the_application_id(desktop):
    """WM_CLASS (name and class) is the application id, which is the desktop entry's name,
    and the entry says so (StartupWMClass): docks and Alt+Tab find its icon and name."""
    photo, = desktop.photos("first.jpg")
    desktop.launch(photo)
    result = subprocess.run(["xprop", "-id", desktop.window_id, "WM_CLASS"], env=desktop.env,
                            capture_output=True, timeout=TIMEOUT)
    expect(result.returncode == 0, f"xprop failed: {result.stderr!r}")
    classes = re.findall(r'"([^"]*)"', result.stdout.decode())
    expect(classes == [APP_ID, APP_ID], f"WM_CLASS is {classes}, not the application id twice")
    entry = os.path.join(HERE, "..", "..", "data", APP_ID + ".desktop.in")
    with open(entry) as lines:
        expect(f"StartupWMClass={APP_ID}\n" in lines.read(), "the desktop entry has no StartupWMClass naming the id")


def whole_call(text):
    """Whether the monitor's log holds the Open call up to the end of its arguments."""
    if "file://" not in text:
        return False
    call = text[text.rindex("member=Open"):]
    # Its arguments: the files' array, the hint, the platform data's array, which is last.
    return call.count("array [") == 2 and call.count("[") == call.count("]") and call.rstrip(" ").endswith("]\n")


def hand_over(desktop, photo, **variables):
    """Runs `caption PHOTO` beside the running window, with the launcher's variables; returns
    its result and the platform data of the Open call the running window received."""
    monitor_log = os.path.join(desktop.root, "monitor.log")
    monitor = desktop.spawn("dbus-monitor", ["dbus-monitor", "--session",
                                             "type='method_call',interface='org.gtk.Application',member='Open'"],
                            stdout=open(monitor_log, "w"), stderr=subprocess.DEVNULL)
    # dbus-monitor says NameLost when it has become a monitor: from then on it sees the call.
    wait_until("dbus-monitor to be in place", lambda: "member=NameLost" in open(monitor_log).read() or None)
    env = dict(desktop.env, **variables)
    result = subprocess.run([desktop.caption, photo], env=env, capture_output=True, timeout=TIMEOUT)
    expect(result.returncode == 0, f"the second caption exited {result.returncode}: {result.stderr!r}")
    # The call is whole when its last argument, the platform data's array, has closed.
    said = wait_until("the whole Open call on the bus", lambda: (lambda text: text if whole_call(text) else None)(
        open(monitor_log).read()))
    monitor.terminate()
    return result, open(monitor_log).read() or said


def scenario_hand_over_is_silent_and_passes_the_startup_id(desktop):
    """A file manager's `caption PHOTO` on X11 carries DESKTOP_STARTUP_ID: the running window
    gets it with the photo (GTK brings the window forward with it and ends the launch
    feedback), and the second process prints nothing (no GLib warning about D-Bus)."""
    first, second = desktop.photos("first.jpg", "second.jpg")
    ui = desktop.launch(first, default_library=True)
    ui.wait_focus("Title")
    result, monitored = hand_over(desktop, second, DESKTOP_STARTUP_ID="caption-e2e_TIME4242")
    expect(result.stderr == b"" and result.stdout == b"", f"the hand-over printed {result.stdout + result.stderr!r}")
    expect('string "desktop-startup-id"' in monitored and 'string "caption-e2e_TIME4242"' in monitored,
           "the Open call carries no desktop-startup-id:\n" + monitored)
    ui.find("the queue position", role="label", name="1 of 2")


def scenario_hand_over_passes_a_wayland_activation_token(desktop):
    """A Wayland launcher sets XDG_ACTIVATION_TOKEN, which GTK 3 does not read: Caption hands
    it on as the Open call's activation token (and as the startup id GTK 3 uses)."""
    first, second = desktop.photos("first.jpg", "second.jpg")
    ui = desktop.launch(first, default_library=True)
    ui.wait_focus("Title")
    result, monitored = hand_over(desktop, second, XDG_ACTIVATION_TOKEN="wayland-token-17")
    expect(result.stderr == b"", f"the hand-over printed {result.stderr!r}")
    expect('string "activation-token"' in monitored and 'string "desktop-startup-id"' in monitored
           and 'string "wayland-token-17"' in monitored, "the Open call carries no activation token:\n" + monitored)
    ui.find("the queue position", role="label", name="1 of 2")


def scenario_without_a_session_bus_a_new_window_says_why(desktop):
    """No session bus: no running window can be asked, so a new one opens, and one line on
    standard error says why."""
    desktop.app_may_exit = True
    photo, = desktop.photos("first.jpg")
    env = dict(desktop.env, DBUS_SESSION_BUS_ADDRESS="unix:path=" + os.path.join(desktop.root, "no-bus"),
               NO_AT_BRIDGE="1")
    log = os.path.join(desktop.root, "nobus.log")
    app = desktop.spawn("caption", [desktop.caption, photo], env=env, stdout=open(log, "w"),
                        stderr=subprocess.STDOUT)
    wait_until("the window to show", lambda: subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--pid", str(app.pid)], env=desktop.env,
        capture_output=True).stdout.strip())
    lines = [line for line in open(log).read().splitlines() if line.strip()]
    expect(len(lines) == 1 and lines[0].startswith("caption: no D-Bus session bus"),
           f"expected one line saying there is no session bus, got {lines!r}")


def active_window(desktop):
    result = subprocess.run(["xdotool", "getactivewindow"], env=desktop.env, capture_output=True, timeout=TIMEOUT)
    return result.stdout.decode().strip()


def scenario_hand_over_brings_the_window_forward_under_a_window_manager(desktop):
    """Under a real window manager (openbox), with another app's window in front, a
    launcher's `caption PHOTO` (its startup id carrying the X server's time, as launchers
    make it) makes Caption's window the active one, with the photo in its queue."""
    desktop.start_window_manager()
    first, second = desktop.photos("first.jpg", "second.jpg")
    ui = desktop.launch(first, default_library=True)
    ui.wait_focus("Title")
    caption_window = desktop.window_id
    other = desktop.spawn("zenity", ["zenity", "--entry", "--text", "Name"])
    found = wait_until("the other app's window", lambda: subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--pid", str(other.pid)], env=desktop.env,
        capture_output=True, timeout=TIMEOUT).stdout.split())
    other_window = found[0].decode()
    wait_until("the other app in front", lambda: active_window(desktop) == other_window or None)
    server_time = subprocess.run([os.path.join(HERE, "server_time.py")], env=desktop.env, capture_output=True,
                                 timeout=TIMEOUT).stdout.decode().strip()
    expect(server_time.isdigit(), f"no server time: {server_time!r}")
    env = dict(desktop.env, DESKTOP_STARTUP_ID=f"caption-e2e_TIME{server_time}")
    result = subprocess.run([desktop.caption, second], env=env, capture_output=True, timeout=TIMEOUT)
    expect(result.returncode == 0, f"the second caption exited {result.returncode}: {result.stderr!r}")
    ui.find("the queue position", role="label", name="1 of 2")
    try:
        wait_until("Caption's window in front", lambda: active_window(desktop) == caption_window or None, timeout=5)
    except Exception:
        raise AssertionError(f"the active window is {active_window(desktop)}, not Caption's {caption_window} "
                             f"(the other app's is {other_window})") from None
