#!/usr/bin/python3
# A small GTK drag source for the drop scenarios: a window at X,Y that offers the given
# files as text/uri-list when dragged with the first button, as a file manager does.
# Prints "ready" once it is on the screen, and "end" when a drag ends.
# Usage: drag_source.py X Y PATH...

import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402


def main():
    x, y, paths = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    uris = [GLib.filename_to_uri(path, None) for path in paths]
    window = Gtk.Window(title="drag source")
    window.set_default_size(160, 120)
    window.move(x, y)
    box = Gtk.EventBox()
    box.add(Gtk.Label(label="drag me"))
    window.add(box)
    box.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY)
    box.drag_source_add_uri_targets()

    def data_get(_widget, _context, selection, _info, _time):
        selection.set_uris(uris)

    def drag_end(_widget, _context):
        print("end", flush=True)

    box.connect("drag-data-get", data_get)
    box.connect("drag-end", drag_end)
    window.connect("destroy", Gtk.main_quit)

    def mapped(*_):
        print("ready", flush=True)
        return False

    window.connect("map-event", mapped)
    window.show_all()
    Gtk.main()


if __name__ == "__main__":
    main()
