# A photo desk: two editors, each with Caption on their own display, caption one folder of
# photos together in a library on a PostgreSQL server, which is killed once on the way.

import hashlib
import os
import shutil
import subprocess

import harness
import postgres
from harness import expect, wait_until


class BlindEditor:
    """The second editor: Caption on a display (and session bus) of its own, driven by keys
    alone. This process's screen reader client speaks to the first editor's session only, so
    what this editor did is read from the server."""

    def __init__(self, first):
        self.desktop = harness.Desktop(first.caption, first.sample_photo)
        self.desktop.env = self.desktop._environment()
        self.desktop._start_xvfb()
        self.desktop._start_session_bus()

    def launch(self, address, photos):
        desktop = self.desktop
        desktop.app = desktop.spawn("caption", [desktop.caption, "--library", address, *photos],
                                    stdout=open(desktop.app_log, "a"), stderr=subprocess.STDOUT)
        found = wait_until("the second editor's window", lambda: desktop._app_running() and desktop._xdotool_out(
            "search", "--onlyvisible", "--pid", str(desktop.app.pid)))
        desktop.xdotool("windowfocus", "--sync", found.split()[0])

    def caption(self, title, subtitle):
        self.desktop.type(title)
        self.desktop.key("Return")
        self.desktop.type(subtitle)
        self.desktop.key("Return")

    def stop(self):
        """Ends this editor's processes, its Caption first. What they started (its
        accessibility bus) is swept up with the first editor's at the scenario's end: a
        sweep now would end the first editor's too."""
        self.desktop.end_processes()
        if not harness.KEEP:
            shutil.rmtree(self.desktop.root, ignore_errors=True)


def scenario_two_editors_one_queue_with_the_server_killed_once(desktop):
    """Two editors open the same six photos on one server library. Each photo on one
    editor's form is passed over by the other's; each saves the photo it has and moves on;
    the server is killed as the first editor saves, the words stay with one message, and
    they are saved by themselves once it is back. In the end each photo is captioned once, three by
    each editor, and both queues are empty."""
    names = [f"desk{index}.jpg" for index in range(1, 7)]
    photos = desktop.photos(*names)
    by_hash = {}
    for path in photos:
        with open(path, "rb") as photo:
            by_hash[hashlib.sha256(photo.read()).hexdigest()] = os.path.basename(path)
    server = postgres.Server().make()
    second = None
    try:
        desktop.library = server.address

        def held():
            """Which photo each editor holds, by editor."""
            claims = {}
            # Nothing is claimed before the first editor's Caption has made the library.
            if server.psql("SELECT to_regclass('caption.leases') IS NULL") == [["t"]]:
                return claims
            for holder, sha256 in server.psql("SELECT holder, photo_sha256 FROM caption.leases WHERE until > now()"):
                claims.setdefault(holder, set()).add(by_hash.get(sha256, sha256))
            return claims

        def captioned():
            return {by_hash.get(sha256): title for sha256, title in server.psql(
                "SELECT photo_sha256, title FROM caption.entries ORDER BY id")}

        ui = desktop.launch(*photos)
        ui.find("the preview of desk1.jpg", role="image", name="Photo: desk1.jpg")
        first = wait_until("the first editor to claim desk1.jpg",
                           lambda: next((h for h, p in held().items() if p == {"desk1.jpg"}), None))
        second = BlindEditor(desktop)
        second.launch(server.address, photos)
        # desk1.jpg is the first editor's: the second's form passes over it to desk2.jpg.
        other = wait_until("the second editor to pass over desk1.jpg and claim desk2.jpg",
                           lambda: next((h for h, p in held().items() if h != first and p == {"desk2.jpg"}), None))

        def first_saves(photo, title, next_photo):
            ui.find(f"the preview of {photo}", role="image", name=f"Photo: {photo}")
            ui.fill(title, "First editor")
            desktop.key("Return")
            wait_until(f"{photo} saved by the first editor", lambda: captioned().get(photo) == title or None)
            if next_photo:
                wait_until(f"the first editor to claim {next_photo}",
                           lambda: held().get(first) == {next_photo} or None)

        def second_saves(photo, title, next_photo):
            expect(held().get(other) == {photo}, f"the second editor holds {held().get(other)}, not {photo}")
            second.caption(title, "Second editor")
            wait_until(f"{photo} saved by the second editor", lambda: captioned().get(photo) == title or None)
            if next_photo:
                wait_until(f"the second editor to claim {next_photo}",
                           lambda: held().get(other) == {next_photo} or None)

        first_saves("desk1.jpg", "One", "desk3.jpg")
        # The first editor came to desk2.jpg, the second's, and passed over it: said.
        wait_until("the first editor told of desk2.jpg", lambda: (ui.notification_text() or "").endswith(
            "is captioning “desk2.jpg”; it waits in your queue") or None)
        second_saves("desk2.jpg", "Two", "desk4.jpg")

        # The server dies as the first editor presses Return on desk3.jpg.
        ui.find("the preview of desk3.jpg", role="image", name="Photo: desk3.jpg")
        ui.fill("Three", "First editor")
        server.kill()
        desktop.key("Return")
        message = wait_until("the message that the server is gone", ui.alert_text)
        expect(message.startswith("“desk3.jpg” was not saved and waits before this photo")
               and "The library's server could not be reached" in message, f"the message reads {message!r}")
        # The form moved on at Return and stays on the next photo: desk3.jpg and its words
        # wait in the queue, never in the fields being typed in.
        expect(ui.text(ui.title) != "Three", "desk3.jpg's words came back into the form")
        server.start()
        # Nothing more to press: the words go in from the queue once the server answers, and
        # the form goes on past desk4.jpg, the second editor's.
        wait_until("desk3.jpg saved once the server is back", lambda: captioned().get("desk3.jpg") == "Three" or None)
        wait_until("the first editor to claim desk5.jpg", lambda: held().get(first) == {"desk5.jpg"} or None)

        second_saves("desk4.jpg", "Four", "desk6.jpg")
        first_saves("desk5.jpg", "Five", None)
        # Every photo left in the first editor's queue is the second's, or captioned.
        second_saves("desk6.jpg", "Six", None)

        # Both queues empty themselves of what the other captioned: nothing is claimed, and
        # the first editor's form waits for a photo.
        ui.wait_focus("Choose Photo…")
        wait_until("no claims left", lambda: held() == {} or None)
        titles = captioned()
        expect(titles == {"desk1.jpg": "One", "desk2.jpg": "Two", "desk3.jpg": "Three", "desk4.jpg": "Four",
                          "desk5.jpg": "Five", "desk6.jpg": "Six"}, f"the library holds {titles}")
        count = server.psql("SELECT count(*), count(DISTINCT photo_sha256) FROM caption.entries")[0]
        expect(count == ["6", "6"], f"entries and photos: {count}")
        expect(second.desktop.app.poll() is None, "the second editor's Caption ended")
    finally:
        if second is not None:
            log = second.desktop.app_log_text().strip()
            second.stop()
            if log:
                print("--- the second editor's caption\n" + log)
        server.remove()
