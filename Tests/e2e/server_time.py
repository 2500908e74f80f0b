#!/usr/bin/python3
# Prints the X server's current time, as a launcher puts it in DESKTOP_STARTUP_ID
# ("…_TIME<time>"): a window manager lets a window with a newer time take the focus.
import gi

gi.require_version("Gtk", "3.0")
gi.require_version("GdkX11", "3.0")
from gi.repository import GdkX11, Gtk  # noqa: E402

window = Gtk.Window()
window.realize()
print(GdkX11.x11_get_server_time(window.get_window()))
