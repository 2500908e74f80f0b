# Scenarios of Caption as a desktop app: "Open With" into the running window, and a draft
# that survives the app being killed while the user types.

import os
import random
import subprocess
import time

from harness import TIMEOUT, expect, wait_until


def launch_default(desktop, *photos):
    return desktop.launch(*photos, default_library=True)


def scenario_open_with_joins_the_running_queue(desktop):
    """A file manager's "Open With Caption" runs `caption PHOTO` again: the photo joins the
    running window's queue ("1 of 2") and the second process ends at once."""
    first, second = desktop.photos("first.jpg", "second.jpg")
    ui = launch_default(desktop, first)
    ui.wait_focus("Title")
    started = time.monotonic()
    result = subprocess.run([desktop.caption, second], env=desktop.env, capture_output=True, timeout=TIMEOUT)
    expect(result.returncode == 0, f"the second caption exited {result.returncode}: {result.stderr!r}")
    expect(time.monotonic() - started < 5, "the second caption did not hand over and end")
    ui.find("the queue position", role="label", name="1 of 2")
    desktop.type("First")
    desktop.key("Return")
    ui.wait_focus("Subtitle")
    desktop.type("one")
    desktop.key("Return")
    desktop.wait_for_entries(1)
    ui.find("the preview of the second photo", role="image", name="Photo: second.jpg")
    ui.wait_focus("Title")


def scenario_close_button_keeps_the_words_and_warns_of_nothing(desktop):
    """Closing the window by its title bar (Alt+F4 under a window manager) ends the app with
    what was typed in the draft, and GTK warns of nothing: quitting used to touch the
    destroyed window's notification and focus, two criticals at every such close."""
    desktop.start_window_manager()
    photo, = desktop.photos("closed.jpg")
    ui = desktop.launch(photo)
    ui.wait_focus("Title")
    desktop.type("Closed by its button")
    ui.wait_text(ui.title, "Closed by its button")
    desktop.app_may_exit = True
    desktop.key("alt+F4")
    wait_until("the window to close and caption to end", lambda: desktop.app.poll() is not None)
    expect(desktop.app.returncode == 0, f"caption exited {desktop.app.returncode}")
    draft = read_draft(os.path.join(desktop.library, "draft.ini"))
    expect(draft == [(photo, "Closed by its button", "")], f"the draft holds {draft!r}")
    warned = [line for line in desktop.app_log_text().splitlines() if "-CRITICAL" in line or "-WARNING" in line]
    expect(not warned, f"caption warned as it closed: {warned!r}")


def read_draft(path):
    """The draft file's items as (path, title, subtitle), None when there is none. GLib key
    files escape \\n, \\t, \\r and \\\\ in values."""
    if not os.path.exists(path):
        return None
    items, group = {}, None
    with open(path, encoding="utf-8") as draft:
        for line in draft.read().split("\n"):
            if line.startswith("["):
                group = line.strip("[]")
            elif "=" in line and group and group.startswith("item "):
                key, value = line.split("=", 1)
                value = value.replace("\\\\", "\0").replace("\\n", "\n").replace("\\t", "\t") \
                             .replace("\\r", "\r").replace("\\s", " ").replace("\0", "\\")
                items.setdefault(group, {})[key] = value
    return [(item.get("path"), item.get("title", ""), item.get("subtitle", "")) for _, item in sorted(items.items())]


def kill_while_typing(desktop, rounds, part):
    """`rounds` times: type into Title, kill -9 the app at a random moment, start it again.
    Every time the form comes back exactly as the draft file last held it (its words, and its
    photo when it had one), saying so."""
    desktop.app_may_exit = True
    photo, = desktop.photos("draft.jpg")
    draft_file = os.path.join(desktop.env["XDG_DATA_HOME"], "caption", "draft.ini")
    seed = os.environ.get("E2E_SEED", str(time.time_ns()))
    print(f"draft_survives_kill_9 part {part} seed {seed}")
    chooser = random.Random(seed)
    words = ["港口", "harbour", "dusk", "ferry", "🙂", "light"]
    ui = launch_default(desktop, photo)
    ui.wait_focus("Title")
    typed = ""
    restored = 0
    for round_number in range(rounds):
        piece = chooser.choice(words) + " "
        desktop.type(piece)
        typed += piece
        time.sleep(chooser.uniform(0, 0.6))  # a kill at a random moment, on purpose
        desktop.app.kill()
        desktop.app.wait()
        expected = read_draft(draft_file)
        # A kill before the first write of a run leaves no draft: the next run starts empty,
        # with no photo either, and what is typed then is drafted without one.
        ui = launch_default(desktop)
        path, title = (expected[0][0], expected[0][1]) if expected else (None, "")
        if expected:
            restored += 1
            wait_until("the notification that the draft is back",
                       lambda: (ui.notification_text() or "").startswith("Your unsaved captions are back") or None)
        if path:
            ui.find("the photo back on the form", role="image", name="Photo: draft.jpg")
        ui.wait_text(ui.title, title)
        expect(typed.startswith(title), f"round {round_number}: restored {title!r}, but typed {typed!r}")
        typed = title
        # Back to the end of Title (Alt+T selects its text; End keeps it), to type on.
        desktop.key("alt+t", "End")
        ui.wait_focus("Title")
    expect(restored >= rounds // 2, f"only {restored} of {rounds} kills came after a draft was written")
    print(f"draft_survives_kill_9 part {part}: {rounds} kills, {restored} drafts restored exactly")


# A hundred kills in all, in four parts that run side by side.
def scenario_draft_survives_kill_9_part_1(desktop):
    kill_while_typing(desktop, 25, 1)


scenario_draft_survives_kill_9_part_1.long = True


def scenario_draft_survives_kill_9_part_2(desktop):
    kill_while_typing(desktop, 25, 2)


scenario_draft_survives_kill_9_part_2.long = True


def scenario_draft_survives_kill_9_part_3(desktop):
    kill_while_typing(desktop, 25, 3)


scenario_draft_survives_kill_9_part_3.long = True


def scenario_draft_survives_kill_9_part_4(desktop):
    kill_while_typing(desktop, 25, 4)


scenario_draft_survives_kill_9_part_4.long = True


def scenario_open_with_sorts_out_what_it_is_given(desktop):
    """`caption` sent to the running window follows the drop's rules: a folder gives its
    photos by name, a text file is refused and a photo already queued is not queued
    again, both named in one message."""
    first, second, third = desktop.photos("first.jpg", "second.jpg", "third.jpg")
    folder = os.path.join(desktop.root, "folder")
    os.makedirs(folder)
    os.rename(third, os.path.join(folder, "third.jpg"))
    notes = os.path.join(desktop.root, "notes.txt")
    with open(notes, "w") as text:
        text.write("not a photo\n")
    ui = launch_default(desktop, first)
    ui.wait_focus("Title")
    result = subprocess.run([desktop.caption, first, notes, second, folder], env=desktop.env,
                            capture_output=True, timeout=TIMEOUT)
    expect(result.returncode == 0, f"the second caption exited {result.returncode}: {result.stderr!r}")
    ui.find("the queue position", role="label", name="1 of 3")
    wait_until("one message naming notes.txt and first.jpg",
               lambda: ui.alert_text() == "Not a photo, not added: notes.txt\n"
                                          "Already in the queue, not added again: first.jpg" or None)
    desktop.key("ctrl+Next")
    ui.find("the preview of second.jpg", role="image", name="Photo: second.jpg")
    desktop.key("ctrl+Next")
    ui.find("the preview of third.jpg", role="image", name="Photo: third.jpg")


def scenario_f1_opens_the_guide_in_the_help_browser(desktop):
    """F1 hands the guide to the desktop's help browser, found as yelp is: the default
    handler of help: and ghelp: links in mimeapps.list. Run from the build, as here, it is
    the checkout's help/C (`help:caption` found nothing before installing: "Document Not
    Found"). The words on the form stay as they were."""
    opened = os.path.join(desktop.root, "help-opened")
    browser = os.path.join(desktop.root, "help-browser")
    with open(browser, "w") as script:
        script.write(f'#!/bin/sh\nprintf "%s" "$1" >"{opened}"\n')
    os.chmod(browser, 0o755)
    applications = os.path.join(desktop.env["XDG_DATA_HOME"], "applications")
    os.makedirs(applications, exist_ok=True)
    with open(os.path.join(applications, "test-help-browser.desktop"), "w") as entry:
        entry.write("[Desktop Entry]\nType=Application\nName=Help browser\nNoDisplay=true\n"
                    f"Exec={browser} %u\nMimeType=x-scheme-handler/help;x-scheme-handler/ghelp;\n")
    with open(os.path.join(desktop.env["XDG_CONFIG_HOME"], "mimeapps.list"), "w") as defaults:
        defaults.write("[Default Applications]\nx-scheme-handler/help=test-help-browser.desktop\n"
                       "x-scheme-handler/ghelp=test-help-browser.desktop\n")
    ui = desktop.launch(*desktop.photos("a.jpg"))
    ui.wait_focus("Title")
    desktop.type("Harbour")
    ui.wait_text(ui.title, "Harbour")
    desktop.key("F1")

    def asked():
        try:
            with open(opened) as text:
                return text.read() or None
        except FileNotFoundError:
            return None
    uri = wait_until("the help browser to be started", asked)
    guide = uri[len("ghelp:"):]
    expect(uri.startswith("ghelp:/") and guide.endswith("/help/C")
           and os.path.exists(os.path.join(guide, "index.page")),
           f"the help browser was asked for {uri!r}, not the checkout's guide")
    expect(ui.alert_text() is None, f"the bar says {ui.alert_text()!r}")
    expect(ui.text(ui.title) == "Harbour", "opening the help changed the words")


def scenario_photos_waiting_to_be_sent_at_a_kill_9_are_sent_by_the_next_start(desktop):
    """Sending as you go survives a crash: a photo saved while its destination cannot take
    it waits in the queue's file; the app is killed (kill -9), the destination mended, and
    the next start sends it, captioned, and empties the queue."""
    desktop.app_may_exit = True
    config = os.path.join(desktop.env["XDG_CONFIG_HOME"], "caption")
    os.makedirs(config, exist_ok=True)
    blocker = os.path.join(desktop.root, "unplugged")
    with open(blocker, "w") as f:
        f.write("x")
    destinations = os.path.join(config, "destinations.ini")
    with open(destinations, "w") as f:
        f.write(f"[Agency]\naddress={blocker}/outbox/\n")
    # Chosen in the menu the day before.
    with open(os.path.join(config, "window.ini"), "w") as f:
        f.write("[sending]\ndestination=Agency\n")
    state = desktop.env.get("XDG_STATE_HOME") or os.path.join(desktop.env["HOME"], ".local", "state")
    queue = os.path.join(state, "caption", "send-queue")
    photo, = desktop.photos("harbour.jpg")
    ui = desktop.launch(photo)
    ui.wait_focus("Title")
    desktop.type("Harbour at dawn")
    desktop.key("Return")
    desktop.type("Boats come in")
    desktop.key("Return")
    desktop.wait_for_entries(1)
    wait_until("the photo waiting in the queue's file",
               lambda: os.path.exists(queue) and "\t1\tAgency" in open(queue).read() or None)
    desktop.app.kill()
    desktop.app.wait()
    outbox = os.path.join(desktop.root, "outbox")
    with open(destinations, "w") as f:
        f.write(f"[Agency]\naddress={outbox}/\n")
    ui = desktop.launch()
    sent = os.path.join(outbox, "Harbour at dawn.jpg")
    wait_until("the photo sent by the next start", lambda: os.path.exists(sent) or None)
    wait_until("the queue emptied", lambda: open(queue).read() == "" or None)
    read = subprocess.run(["exiftool", "-s3", "-Title", sent], capture_output=True, timeout=TIMEOUT)
    expect(read.stdout.decode().strip() == "Harbour at dawn", f"sent with {read.stdout.decode()!r}")
