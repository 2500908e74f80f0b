#!/usr/bin/python3
"""The window benchmarks of `make bench`: start-up (also with 100,000 entries), Enter latency, the photo preview and photo-to-photo.

Run under build-aux/with-display (a private Xvfb with -noreset, a throwaway D-Bus
session, private XDG folders). Every program is timed from outside through the X server
by Benchmarks/x11/probe.c, so the app, the C floor (Benchmarks/x11/floor.c) and the peers
(yad, zenity) are measured the same way. Programs compared with each other run
interleaved, A B C A B C …, with the order rotated every round, after warm-up rounds; a
ratio is taken within each round and its median reported, so that the machine's drift
(it is shared) touches both sides of a ratio alike.

Prints a table and writes .build/bench/window.json.
"""

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
APP_ID = "io.github.caption_app.Caption"
FLOOR_ID = "io.github.caption_app.CaptionFloor"

# The marks Caption and the floor make (StartupTrace; floor.c's mark()), in the order they
# come; the floor has no gtk-init (GtkApplication's startup does it, after registering),
# window-ui or library-opened.
TIMELINE_PHASES = ["loaded", "main", "gtk-init", "registered", "window-start", "window-ui", "form-built", "style",
                   "window-built", "window-shown", "photo-decoded", "photo-painted", "first-frame", "photo-sharp", "library-opened"]

# Targets of the performance issues; ratios are pairwise medians from this run. Start-up:
# the first paint as soon as the same window in C, in at most 1.15 times its memory.
TARGETS = {
    "startup_over_floor": 1.00,
    "rss_over_floor": 1.15,
    "enter_p50_ms": 8.0,
    "enter_p99_ms": 16.0,
    "preview_over_floor": 1.2,
    "preview_over_full": 0.35,
    "stall_ms": 16.0,
    "queue_p50_ms": 16.0,
    "queue_p99_ms": 33.0,
}


def quantile(values, q):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def percentile_rank(values, p):
    """Nearest rank: the value that p % of the samples do not exceed (p99 of 200 is the
    second largest)."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


def summary(values):
    return {
        "median": round(quantile(values, 0.5), 3),
        "p25": round(quantile(values, 0.25), 3),
        "p75": round(quantile(values, 0.75), 3),
        "min": round(min(values), 3),
        "max": round(max(values), 3),
        "n": len(values),
    }


def build_tools(out):
    """The probe and the floor, compiled with the system's gcc and pkg-config."""
    tools = os.path.join(out, "tools")
    os.makedirs(tools, exist_ok=True)
    for name, packages in (("probe", "x11 xdamage xtst gio-2.0"), ("floor", "gtk+-3.0")):
        flags = subprocess.run(["pkg-config", "--cflags", "--libs"] + packages.split(),
                               check=True, capture_output=True, text=True).stdout.split()
        subprocess.run(["gcc", "-O2", "-Wall", "-o", os.path.join(tools, name),
                        os.path.join(HERE, "x11", name + ".c")] + flags, check=True)
    return tools


def machine():
    model = "unknown"
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    debian = open("/etc/debian_version").read().strip() if os.path.exists("/etc/debian_version") else "?"
    return {"nproc": os.cpu_count(), "cpu": model, "debian": debian, "kernel": platform.release(),
            "load_average": [round(value, 2) for value in os.getloadavg()]}


class Runner:
    def __init__(self, args, tools):
        self.args = args
        self.probe = os.path.join(tools, "probe")
        self.floor = os.path.join(tools, "floor")
        self.scratch = os.path.join(args.out, "scratch")
        self.config = os.environ["XDG_CONFIG_HOME"]
        # A blinking cursor repaints by itself and would be taken for the app's answer; an
        # animation keeps the window busy after the frame that answers a key, which is the
        # frame measured either way, and the next press has to wait for it to end.
        os.makedirs(os.path.join(self.config, "gtk-3.0"), exist_ok=True)
        with open(os.path.join(self.config, "gtk-3.0", "settings.ini"), "w") as settings:
            settings.write("[Settings]\ngtk-cursor-blink=false\ngtk-enable-animations=false\n")

    def fresh_data_home(self, name):
        path = os.path.join(self.scratch, name)
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(path)
        return path

    def forget_app_state(self, data_home):
        """What an earlier run left (a draft, the window size) would change the next one."""
        shutil.rmtree(os.path.join(self.config, "caption"), ignore_errors=True)
        for name in ("draft.ini",):
            path = os.path.join(data_home, "caption", name)
            if os.path.exists(path):
                os.unlink(path)

    def probe_run(self, mode, options, argv, env=None, marks=False):
        """The probe's figures; with `marks`, the program marks its start-up's phases
        (CAPTION_STARTUP_TRACE) and they come back under "marks", in ms from the spawn."""
        environment = dict(os.environ)
        environment.update(env or {})
        if marks:
            environment["CAPTION_STARTUP_TRACE"] = "1"
        result = subprocess.run([self.probe, mode] + options + ["--"] + argv, env=environment,
                                capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            sys.stderr.write(result.stderr)
            raise SystemExit(f"bench: probe {mode} failed for {' '.join(argv)}")
        figures = json.loads(result.stdout.strip().splitlines()[-1])
        if marks:
            figures["marks"] = {}
            for line in result.stderr.splitlines():
                words = line.split()
                if len(words) == 3 and words[0] == "caption-startup":
                    figures["marks"][words[1]] = round(int(words[2]) / 1e6 - figures["spawned_ms"], 3)
        return figures

    # --- start-up ---

    def startup(self):
        photo = self.args.sample
        big = os.path.join(self.args.fixtures, "data-10000")
        programs = {
            "floor": lambda: ([self.floor, photo], {}),
            "caption_empty": lambda: self.caption_start(self.fresh_data_home("empty"), photo),
            "caption_10000": lambda: self.caption_start(big, photo),
            "yad": lambda: (["yad", "--form", "--title=Caption", "--field=Title", "--field=Subtitle"], {}),
            "zenity": lambda: (["zenity", "--forms", "--title=Caption", "--add-entry=Title",
                                "--add-entry=Subtitle"], {}),
        }
        if self.args.baseline:
            # Another build of Caption (before a change), interleaved with this one.
            programs["baseline_empty"] = lambda: self.caption_start(self.fresh_data_home("baseline"), photo,
                                                                   binary=self.args.baseline)
            programs["baseline_10000"] = lambda: self.caption_start(big, photo, binary=self.args.baseline)
        names = list(programs)
        samples = self.start_rounds(programs)
        result = {"rounds": self.args.rounds, "warm_up": self.args.warm_up, "programs": {}}
        floor = samples["floor"]
        for name in names:
            own = samples[name]
            entry = {"first_paint_ms": summary([s["paint_ms"] for s in own]),
                     "map_ms": summary([s["map_ms"] for s in own]),
                     "main_thread_cpu_ms": summary([s["main_cpu_ms"] for s in own]),
                     "peak_rss_mb": summary([s["hwm_kb"] / 1024 for s in own]),
                     "settled_peak_rss_mb": summary([s["settled_hwm_kb"] / 1024 for s in own]),
                     "first_frames_final": sum(1 for s in own if s["first_frame_final"])}
            if name != "floor":
                def ratio(key):
                    return summary([a[key] / b[key] for a, b in zip(own, floor)])
                entry["paint_over_floor"] = ratio("paint_ms")
                entry["cpu_over_floor"] = ratio("main_cpu_ms")
                entry["rss_over_floor"] = ratio("hwm_kb")
                entry["settled_rss_over_floor"] = ratio("settled_hwm_kb")
            if name.startswith("caption") and self.args.baseline:
                other = samples[name.replace("caption", "baseline")]
                entry["paint_over_baseline"] = summary([a["paint_ms"] / b["paint_ms"] for a, b in zip(own, other)])
                entry["rss_over_baseline"] = summary([a["hwm_kb"] / b["hwm_kb"] for a, b in zip(own, other)])
            for peer in ("yad", "zenity"):
                if name.startswith("caption"):
                    entry[f"paint_over_{peer}"] = summary([a["paint_ms"] / b["paint_ms"]
                                                          for a, b in zip(samples[name], samples[peer])])
            entry["samples"] = samples[name]
            result["programs"][name] = entry
        return result

    def start_rounds(self, programs, marks=False, rounds=None, options=None, warm_up=None):
        """Each program started once a round, in an order rotated every round, after the
        warm-up rounds; the probe's figures of every start, by program."""
        names = list(programs)
        samples = {name: [] for name in names}
        options = options or ["--settle-ms", str(self.args.settle_ms)]
        warm_up = self.args.warm_up if warm_up is None else warm_up
        for round_index in range(warm_up + (rounds or self.args.rounds)):
            for step in range(len(names)):
                name = names[(round_index + step) % len(names)]
                argv, env = programs[name]()
                figures = self.probe_run("start", options, argv, env, marks=marks)
                if round_index >= warm_up:
                    samples[name].append(figures)
        return samples

    def timeline(self):
        """Start-up phase by phase, from each program's own marks (CAPTION_STARTUP_TRACE)
        beside the probe's map and first paint, in ms from the spawn: the C floor, and
        Caption with an empty library and with 100,000 entries, interleaved."""
        photo = self.args.sample
        large = os.path.join(self.args.fixtures, "data-100000")
        programs = {
            "floor": lambda: ([self.floor, photo], {}),
            "caption_empty": lambda: self.caption_start(self.fresh_data_home("empty"), photo),
            "caption_100000": lambda: self.caption_start(large, photo),
        }
        samples = self.start_rounds(programs, marks=True, rounds=self.args.timeline_rounds)
        result = {"rounds": self.args.timeline_rounds, "warm_up": self.args.warm_up, "programs": {}}
        for name, own in samples.items():
            phases = {}
            for phase in TIMELINE_PHASES:
                values = [s["marks"][phase] for s in own if phase in s["marks"]]
                if values:
                    phases[phase] = summary(values)
            phases["mapped (X)"] = summary([s["map_ms"] for s in own])
            phases["first paint (X)"] = summary([s["paint_ms"] for s in own])
            result["programs"][name] = {"phases": phases, "samples": own}
        return result

    def photo_start(self):
        """`caption PHOTO` and `floor PHOTO`, spawn to the photo visible (the probe's pixel
        turns magenta), interleaved, for a 24 MP JPEG, a 24 MP HEIC and a 45 MP DNG as cameras
        and phones write them, each with a small picture of itself, which Caption shows
        until the photo is decoded ("sharp": the photo itself painted). The floor decodes
        with GdkPixbuf, which has no RAW loader: for the DNG it is given the
        DNG's own full-size JPEG preview, the least any program has to decode for it."""
        result = {"rounds": self.args.format_rounds, "photos": {}}
        # Each run lasts until the window has not painted for `quiet` ms, so that the photo
        # itself is painted (and marked) after its embedded picture: for the HEIC, seconds later.
        for photo, floor_photo, quiet in (("preview-24mp-camera.jpg", None, 600),
                                          ("preview-24mp-phone.heic", None, 3500),
                                          ("preview-45mp-camera.dng", "preview-45mp.jpg", 600)):
            path = os.path.join(self.args.fixtures, photo)
            floor_path = os.path.join(self.args.fixtures, floor_photo or photo)
            programs = {
                "floor": lambda: ([self.floor, floor_path], {}),
                "caption": lambda: self.caption_start(self.fresh_data_home("photo"), path),
            }
            samples = self.start_rounds(programs, marks=True, rounds=self.args.format_rounds,
                                        options=["--photo", "e030e0", "--x", "0.5", "--y", "0.3",
                                                 "--settle-ms", str(quiet)],
                                        warm_up=self.args.preview_warm_up)
            entry = {}
            for name in programs:
                own = samples[name]
                entry[name] = {"first_paint_ms": summary([s["paint_ms"] for s in own]),
                               "photo_ms": summary([s["photo_ms"] for s in own]),
                               "photo_in_first_frame": sum(1 for s in own if s["photo_in_first_frame"]),
                               # The photo itself painted (after its embedded picture, if any):
                               # Caption's photo-sharp mark, the floor's photo-painted.
                               "sharp_ms": summary([s["marks"].get("photo-sharp", s["marks"].get("photo-painted"))
                                                    for s in own if "photo-painted" in s["marks"]] or [0]),
                               "samples": own}
            entry["photo_over_floor"] = summary([a["photo_ms"] / b["photo_ms"]
                                                 for a, b in zip(samples["caption"], samples["floor"])])
            result["photos"][photo] = entry
        return result

    def startup_large(self):
        """Start-up with 100,000 entries against an empty library, the two interleaved."""
        photo = self.args.sample
        large = os.path.join(self.args.fixtures, "data-100000")
        programs = {
            "caption_empty": lambda: self.caption_start(self.fresh_data_home("empty"), photo),
            "caption_100000": lambda: self.caption_start(large, photo),
        }
        names = list(programs)
        samples = self.start_rounds(programs)
        result = {"rounds": self.args.rounds, "warm_up": self.args.warm_up, "programs": {}}
        for name in names:
            result["programs"][name] = {"first_paint_ms": summary([s["paint_ms"] for s in samples[name]]),
                                        "peak_rss_mb": summary([s["hwm_kb"] / 1024 for s in samples[name]])}
        result["paint_over_empty"] = summary([a["paint_ms"] / b["paint_ms"] for a, b in
                                              zip(samples["caption_100000"], samples["caption_empty"])])
        result["rss_over_empty"] = summary([a["hwm_kb"] / b["hwm_kb"] for a, b in
                                            zip(samples["caption_100000"], samples["caption_empty"])])
        return result

    def startup_queue(self):
        """`caption` on one photo, and on 1,000 and 10,000 on the command line (hard links of
        the sample, each a path of its own), interleaved: spawn to the first paint. Start-up
        must not grow with the queue."""
        photo = self.args.sample
        folder = os.path.join(self.args.fixtures, "queue-of-10000")
        if not os.path.isdir(folder) or len(os.listdir(folder)) != 10000:
            shutil.rmtree(folder, ignore_errors=True)
            os.makedirs(folder)
            for index in range(10000):
                os.link(photo, os.path.join(folder, f"q{index:05d}.jpg"))
        paths = sorted(os.path.join(folder, name) for name in os.listdir(folder))
        # The same photos in a folder named on the command line: 1,000 of them, and the 10,000.
        small_folder = os.path.join(self.args.fixtures, "queue-of-1000")
        if not os.path.isdir(small_folder) or len(os.listdir(small_folder)) != 1000:
            shutil.rmtree(small_folder, ignore_errors=True)
            os.makedirs(small_folder)
            for path in paths[:1000]:
                os.link(path, os.path.join(small_folder, os.path.basename(path)))
        folders = {"1000": small_folder, "10000": folder}

        def start(count, in_folder=False):
            data_home = self.fresh_data_home(f"queue-{count}{'-folder' if in_folder else ''}")
            self.forget_app_state(data_home)
            named = [folders[str(count)]] if in_folder else paths[:count]
            return [self.args.caption] + named, {"XDG_DATA_HOME": data_home}
        programs = {"caption_1": lambda: start(1), "caption_1000": lambda: start(1000),
                    "caption_10000": lambda: start(10000),
                    "caption_folder_1000": lambda: start(1000, True),
                    "caption_folder_10000": lambda: start(10000, True)}
        samples = self.start_rounds(programs)
        result = {"rounds": self.args.rounds, "warm_up": self.args.warm_up, "programs": {}}
        for name, own in samples.items():
            result["programs"][name] = {"first_paint_ms": summary([s["paint_ms"] for s in own])}
        for count in ("1000", "10000", "folder_1000", "folder_10000"):
            result[f"paint_{count}_over_1"] = summary([a["paint_ms"] / b["paint_ms"] for a, b in
                                                       zip(samples[f"caption_{count}"], samples["caption_1"])])
        return result

    def caption_start(self, data_home, photo, binary=None):
        self.forget_app_state(data_home)
        return [binary or self.args.caption, photo], {"XDG_DATA_HOME": data_home}

    # --- Enter ---

    def enter(self):
        # With a baseline, the programs take turns (rounds of presses/enter_rounds each), so
        # that a machine slowing down or speeding up during the run weighs on both alike.
        names = ("caption", "baseline", "floor") if self.args.baseline else ("caption", "floor")
        rounds = max(1, self.args.enter_rounds)
        per_round = max(1, self.args.presses // rounds)
        latencies = {name: [] for name in names}
        round_p50 = {name: [] for name in names}
        missed = {name: 0 for name in names}
        for turn in range(rounds):
            for name in names[turn % len(names):] + names[:turn % len(names)]:
                if name in ("caption", "baseline"):
                    data_home = self.fresh_data_home("enter")
                    self.forget_app_state(data_home)
                    binary = self.args.caption if name == "caption" else self.args.baseline
                    argv, env = [binary, self.args.sample], {"XDG_DATA_HOME": data_home}
                else:
                    argv, env = [self.floor, self.args.sample], {}
                figures = self.probe_run("enter", ["--presses", str(per_round)], argv, env)
                latencies[name] += figures["latencies_ms"]
                round_p50[name].append(percentile_rank(figures["latencies_ms"], 50))
                missed[name] += figures["missed"]
        result = {"presses": per_round * rounds, "rounds": rounds, "programs": {}}
        for name in names:
            own = latencies[name]
            result["programs"][name] = {
                "missed": missed[name],
                "p50_ms": round(percentile_rank(own, 50), 3),
                "p90_ms": round(percentile_rank(own, 90), 3),
                "p99_ms": round(percentile_rank(own, 99), 3),
                "max_ms": round(max(own), 3),
                "latencies_ms": own,
            }
        if self.args.baseline:
            result["p50_over_baseline"] = summary([a / b for a, b in zip(round_p50["caption"], round_p50["baseline"])])
        return result

    # --- photo preview ---

    def preview(self):
        return self.preview_of("preview-24mp.jpg", self.args.preview_rounds)

    def preview_smooth(self):
        return self.preview_of("preview-24mp-smooth.jpg", self.args.smooth_rounds)

    def preview_heic(self):
        return self.preview_of("preview-24mp.heic", self.args.format_rounds)

    def preview_raw(self):
        # The floor decodes with GdkPixbuf, which has no RAW loader: Caption alone.
        return self.preview_of("preview-45mp.dng", self.args.format_rounds, floor=False)

    def preview_of(self, photo, rounds, floor=True):
        uri = "file://" + os.path.abspath(os.path.join(self.args.fixtures, photo))
        programs = {
            "caption": lambda: ([self.args.caption], {"XDG_DATA_HOME": self.caption_preview_home()}, APP_ID),
            "floor": lambda: ([self.floor], {}, FLOOR_ID),
            "full_decode": lambda: ([self.floor, "--full"], {}, FLOOR_ID),
        }
        if not floor:
            programs = {"caption": programs["caption"]}
        names = list(programs)
        samples = {name: [] for name in names}
        for round_index in range(self.args.preview_warm_up + rounds):
            for step in range(len(names)):
                name = names[(round_index + step) % len(names)]
                argv, env, app_id = programs[name]()
                figures = self.probe_run("preview", ["--open", uri, "--app-id", app_id, "--x", "0.5", "--y", "0.3",
                                                     "--tail-ms", str(self.args.tail_ms)], argv, env)
                if round_index >= self.args.preview_warm_up:
                    samples[name].append(figures)
        result = {"photo": photo, "bytes": os.path.getsize(os.path.join(self.args.fixtures, photo)),
                  "rounds": rounds, "warm_up": self.args.preview_warm_up, "tail_ms": self.args.tail_ms,
                  "programs": {}}
        for name in names:
            entry = {"preview_ms": summary([s["preview_ms"] for s in samples[name]]),
                     "longest_stall_ms": summary([s["max_stall_ms"] for s in samples[name]])}
            if name == "caption" and floor:
                for other in ("floor", "full_decode"):
                    entry[f"over_{other}"] = summary([a["preview_ms"] / b["preview_ms"]
                                                      for a, b in zip(samples[name], samples[other])])
            entry["samples"] = samples[name]
            result["programs"][name] = entry
        return result

    # --- photo to photo ---

    # The optional fields a desk turns on for the queue's second form: Enter stops at each
    # once, empty, before Done.
    QUEUE_FIELDS = ["headline", "keywords", "event", "job_id"]

    def queue(self):
        """A queue of 24 MP JPEGs captioned in a row: Done to the next photo painted. Each
        program captions the whole queue once a round, the programs interleaved; Caption
        also with four optional fields on its form ("caption_fields"), left empty by one
        Enter each before Done."""
        folder = os.path.join(self.args.fixtures, "queue")
        photos = sorted(os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".jpg"))
        names = ["caption", "caption_fields"] + (["baseline"] if self.args.baseline else [])
        samples = {name: [] for name in names}
        for round_index in range(self.args.queue_rounds):
            for step in range(len(names)):
                name = names[(round_index + step) % len(names)]
                binary = self.args.baseline if name == "baseline" else self.args.caption
                data_home = self.fresh_data_home("queue")
                self.forget_app_state(data_home)
                stops = 0
                if name == "caption_fields":
                    os.makedirs(os.path.join(self.config, "caption"), exist_ok=True)
                    with open(os.path.join(self.config, "caption", "credits.ini"), "w") as settings:
                        settings.write("[form]\nfields=" + ";".join(self.QUEUE_FIELDS) + "\n")
                    stops = len(self.QUEUE_FIELDS)
                figures = self.probe_run("queue", ["--photos", str(len(photos)), "--dwell-ms",
                                                   str(self.args.dwell_ms), "--stops", str(stops),
                                                   "--x", "0.5", "--y", "0.3"],
                                         [binary] + photos, {"XDG_DATA_HOME": data_home})
                self.check_queue_saved(binary, data_home, len(photos) - 1)
                samples[name] += figures["latencies_ms"]
        result = {"photos": len(photos), "bytes": sum(os.path.getsize(path) for path in photos) // len(photos),
                  "rounds": self.args.queue_rounds, "dwell_ms": self.args.dwell_ms, "programs": {}}
        for name in names:
            latencies = samples[name]
            result["programs"][name] = {
                "p50_ms": round(percentile_rank(latencies, 50), 3),
                "p90_ms": round(percentile_rank(latencies, 90), 3),
                "p99_ms": round(percentile_rank(latencies, 99), 3),
                "max_ms": round(max(latencies), 3),
                "latencies_ms": latencies,
            }
        plain, fields = result["programs"]["caption"], result["programs"]["caption_fields"]
        result["fields_over_plain_p50"] = round(fields["p50_ms"] / plain["p50_ms"], 4)
        return result

    def check_queue_saved(self, binary, data_home, count):
        """The words typed after each Done went to the fields they were meant for: Title had
        the focus when the next photo came."""
        environment = dict(os.environ, XDG_DATA_HOME=data_home)
        listed = subprocess.run([binary, "--list", "--json"], env=environment, capture_output=True, text=True,
                                check=True).stdout
        entries = json.loads(listed)
        words = {(entry["title"], entry["subtitle"]) for entry in entries}
        if len(entries) != count or words != {("t", "s")}:
            raise SystemExit(f"bench: the queue run saved {len(entries)} entries (expected {count}) "
                             f"with the words {sorted(words)[:3]}")

    def caption_preview_home(self):
        data_home = self.fresh_data_home("preview")
        self.forget_app_state(data_home)
        return data_home


def verdict(value, limit):
    return "met" if value <= limit else f"MISSED by {100 * (value / limit - 1):.0f}%"


def print_report(report):
    m = report["machine"]
    print(f"\nWindow benchmarks on {m['nproc']} × {m['cpu']}, Debian {m['debian']}, load {m['load_average']}")
    timeline = report.get("timeline")
    if timeline:
        programs = timeline["programs"]
        print(f"\nStart-up timeline: ms from the spawn, median of {timeline['rounds']} interleaved rounds "
              "(each program's own marks; map and paint seen by the X server)")
        print(f"{'phase':18}" + "".join(f"{name:>16}" for name in programs))
        order = TIMELINE_PHASES + ["mapped (X)", "first paint (X)"]
        for phase in sorted({p for entry in programs.values() for p in entry["phases"]}, key=order.index):
            cells = [entry["phases"].get(phase) for entry in programs.values()]
            print(f"{phase:18}" + "".join(f"{cell['median']:16.1f}" if cell else f"{'–':>16}" for cell in cells))
    photo_start = report.get("photo_start")
    if photo_start:
        print(f"\nSpawn to the photo visible: median of {photo_start['rounds']} interleaved rounds")
        for photo, entry in photo_start["photos"].items():
            for name in ("floor", "caption"):
                own = entry[name]
                print(f"{photo:22}{name:9}first paint {own['first_paint_ms']['median']:7.1f} ms   photo "
                      f"{own['photo_ms']['median']:7.1f} ms ({own['photo_ms']['p25']:.0f}–{own['photo_ms']['p75']:.0f})"
                      f"   in the first frame {own['photo_in_first_frame']}/{own['photo_ms']['n']}"
                      f"   sharp {own['sharp_ms']['median']:7.1f} ms")
            ratio = entry["photo_over_floor"]
            print(f"{photo:22}caption / floor {ratio['median']:.3f} ({ratio['p25']:.2f}–{ratio['p75']:.2f})")
    start = report.get("startup")
    if start:
        print(f"\nStart-up: {start['rounds']} interleaved rounds after {start['warm_up']} warm-up; median "
              "(p25–p75); ratios to the floor taken round by round")
        print(f"{'':16}{'first paint':>24}{'× floor':>18}{'main CPU':>10}{'× floor':>8}"
              f"{'RSS at paint':>14}{'× floor':>8}{'settled':>9}{'× floor':>8}{'photo in 1st':>14}")
        for name, entry in start["programs"].items():
            paint, rss, settled = entry["first_paint_ms"], entry["peak_rss_mb"], entry["settled_peak_rss_mb"]
            line = f"{name:16}{paint['median']:9.1f} ms ({paint['p25']:5.1f}–{paint['p75']:5.1f})"
            def ratio(key, spread=False):
                if key not in entry:
                    return f"{'1':>8}" + (" " * 10 if spread else "")
                value = entry[key]
                text = f"{value['median']:8.3f}"
                return text + (f" ({value['p25']:.2f}–{value['p75']:.2f})" if spread else "")
            line += ratio("paint_over_floor", spread=True)
            line += f"{entry['main_thread_cpu_ms']['median']:8.1f} ms" + ratio("cpu_over_floor")
            line += f"{rss['median']:11.1f} MB" + ratio("rss_over_floor")
            line += f"{settled['median']:6.1f} MB" + ratio("settled_rss_over_floor")
            # Only the app and the floor show a photo.
            shown = f"{entry['first_frames_final']}/{paint['n']}" if name.startswith(("caption", "floor")) else "–"
            line += f"{shown:>14}"
            print(line)
    queue_start = report.get("startup_queue")
    if queue_start:
        print(f"\nStart-up with a queue on the command line: first paint, median of {queue_start['rounds']} "
              "interleaved rounds")
        for name, entry in queue_start["programs"].items():
            paint = entry["first_paint_ms"]
            print(f"  {name:16}{paint['median']:8.1f} ms ({paint['p25']:.1f}–{paint['p75']:.1f})")
        for count in ("1000", "10000", "folder_1000", "folder_10000"):
            ratio = queue_start.get(f"paint_{count}_over_1")
            if not ratio:
                continue
            label = f"a folder of {count[7:]}" if count.startswith("folder") else f"{count} photos"
            print(f"  {label} / 1 photo, round by round {ratio['median']:.3f} ({ratio['p25']:.3f}–{ratio['p75']:.3f})")
    large = report.get("startup_large")
    if large:
        print(f"\nStart-up with 100,000 entries against an empty library: {large['rounds']} interleaved rounds")
        for name, entry in large["programs"].items():
            paint, rss = entry["first_paint_ms"], entry["peak_rss_mb"]
            print(f"{name:16}{paint['median']:9.1f} ms ({paint['p25']:5.1f}–{paint['p75']:5.1f}){rss['median']:9.1f} MB")
        ratio = large["paint_over_empty"]
        print(f"{'100,000 / empty':16}{ratio['median']:9.3f} ({ratio['p25']:.2f}–{ratio['p75']:.2f})   "
              f"RSS {large['rss_over_empty']['median']:.3f}")
    enter = report.get("enter")
    if enter:
        print(f"\nEnter latency, XTest Return to the repaint, {enter['presses']} presses each "
              f"in {enter.get('rounds', 1)} interleaved rounds")
        for name, entry in enter["programs"].items():
            print(f"{name:24}p50 {entry['p50_ms']:6.2f} ms   p90 {entry['p90_ms']:6.2f}   p99 {entry['p99_ms']:6.2f}"
                  f"   max {entry['max_ms']:6.2f}   missed {entry['missed']}")
        ratio = enter.get("p50_over_baseline")
        if ratio:
            print(f"{'caption / baseline':24}p50 {ratio['median']:6.3f} (rounds {ratio['min']:.3f}–{ratio['max']:.3f})")
    for key in ("preview", "preview_smooth", "preview_heic", "preview_raw"):
        section = report.get(key)
        if not section:
            continue
        kind = {"preview_heic": "6000×4000 HEIC", "preview_raw": "8256×5504 DNG (its JPEG preview)"}.get(
            key, "6000×4000 JPEG")
        print(f"\n{kind} ({section['photo']}, {section['bytes'] / 1e6:.1f} MB), open request to the photo "
              f"painted: {section['rounds']} interleaved rounds after {section['warm_up']} warm-up")
        for name, entry in section["programs"].items():
            time_ms, stall = entry["preview_ms"], entry["longest_stall_ms"]
            line = (f"{name:24}{time_ms['median']:8.1f} ms ({time_ms['p25']:6.1f}–{time_ms['p75']:6.1f})"
                    f"   longest stall {stall['median']:6.1f} ms (worst {stall['max']:.1f})")
            print(line)
        caption = section["programs"]["caption"]
        if "over_floor" not in caption:
            continue
        print(f"{'caption / floor':24}{caption['over_floor']['median']:8.3f} "
              f"({caption['over_floor']['p25']:.2f}–{caption['over_floor']['p75']:.2f})")
        print(f"{'caption / full decode':24}{caption['over_full_decode']['median']:8.3f} "
              f"({caption['over_full_decode']['p25']:.2f}–{caption['over_full_decode']['p75']:.2f})")
    queue = report.get("queue")
    if queue:
        print(f"\nPhoto to photo: a queue of {queue['photos']} 24 MP JPEGs ({queue['bytes'] / 1e6:.1f} MB each), "
              f"Done to the next photo painted, {queue['rounds']} round(s), {queue['dwell_ms']} ms on each photo")
        for name, entry in queue["programs"].items():
            print(f"{name:24}p50 {entry['p50_ms']:7.2f} ms   p90 {entry['p90_ms']:7.2f}   p99 {entry['p99_ms']:7.2f}"
                  f"   max {entry['max_ms']:7.2f}   ({len(entry['latencies_ms'])} photos)")
        print(f"{'fields / plain':24}p50 {queue['fields_over_plain_p50']:7.3f}")
    preview = report.get("preview")
    if start and "paint_over_baseline" in start["programs"]["caption_empty"]:
        print("\nAgainst the baseline build, round by round: median (p25–p75)")
        for name in ("caption_empty", "caption_10000"):
            entry = start["programs"][name]
            for key in ("paint_over_baseline", "rss_over_baseline"):
                value = entry[key]
                print(f"  {name} {key:20}{value['median']:8.3f} ({value['p25']:.3f}–{value['p75']:.3f})")

    print("\nTargets")
    rows = []
    if start:
        programs = start["programs"]
        for name in ("caption_empty", "caption_10000"):
            entry = programs[name]
            rows.append((f"start-up {name} / floor ≤ {TARGETS['startup_over_floor']}",
                         entry["paint_over_floor"]["median"], TARGETS["startup_over_floor"]))
            for peer in ("yad", "zenity"):
                rows.append((f"start-up {name} / {peer} < 1", entry[f"paint_over_{peer}"]["median"], 1.0))
            rows.append((f"peak RSS {name} / floor ≤ {TARGETS['rss_over_floor']}",
                         entry["rss_over_floor"]["median"], TARGETS["rss_over_floor"]))
    if large:
        rows.append(("start-up 100,000 entries / empty ≤ 1.05", large["paint_over_empty"]["median"], 1.05))
    if queue_start:
        for count in ("1000", "10000", "folder_1000", "folder_10000"):
            if f"paint_{count}_over_1" in queue_start:
                label = f"a folder of {count[7:]}" if count.startswith("folder") else f"{count} photos"
                rows.append((f"start-up {label} / 1 ≤ 1.05", queue_start[f"paint_{count}_over_1"]["median"], 1.05))
    if enter:
        caption = enter["programs"]["caption"]
        rows.append((f"Enter p50 ≤ {TARGETS['enter_p50_ms']} ms", caption["p50_ms"], TARGETS["enter_p50_ms"]))
        rows.append((f"Enter p99 ≤ {TARGETS['enter_p99_ms']} ms", caption["p99_ms"], TARGETS["enter_p99_ms"]))
    if preview:
        caption = preview["programs"]["caption"]
        rows.append((f"preview / floor ≤ {TARGETS['preview_over_floor']}", caption["over_floor"]["median"],
                     TARGETS["preview_over_floor"]))
        rows.append((f"preview / full decode ≤ {TARGETS['preview_over_full']}", caption["over_full_decode"]["median"],
                     TARGETS["preview_over_full"]))
        rows.append((f"longest stall ≤ {TARGETS['stall_ms']} ms", caption["longest_stall_ms"]["median"],
                     TARGETS["stall_ms"]))
    for key, kind in (("preview_heic", "24 MP HEIC"), ("preview_raw", "45 MP DNG")):
        if report.get(key):
            stall = report[key]["programs"]["caption"]["longest_stall_ms"]
            rows.append((f"{kind}: longest stall ≤ {TARGETS['stall_ms']} ms", stall["median"], TARGETS["stall_ms"]))
            rows.append((f"{kind}: worst round's stall ≤ {TARGETS['stall_ms']} ms", stall["max"], TARGETS["stall_ms"]))
    if queue:
        caption = queue["programs"]["caption"]
        rows.append((f"photo to photo p50 ≤ {TARGETS['queue_p50_ms']} ms", caption["p50_ms"], TARGETS["queue_p50_ms"]))
        rows.append((f"photo to photo p99 ≤ {TARGETS['queue_p99_ms']} ms", caption["p99_ms"], TARGETS["queue_p99_ms"]))
        rows.append(("photo to photo, 4 optional fields / none, p50 ≤ 1.05", queue["fields_over_plain_p50"], 1.05))
    report["targets"] = []
    for label, value, limit in rows:
        met = value <= limit if not label.endswith("< 1") else value < limit
        result = "met" if met else verdict(value, limit)
        report["targets"].append({"target": label, "value": value, "met": met})
        print(f"  {label:44}{value:9.3f}   {result}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--caption", required=True, help="the release build of caption")
    parser.add_argument("--bench", required=True, help="caption-bench, which makes the fixtures")
    parser.add_argument("--sample", required=True, help="the photo of the start-up and Enter runs")
    parser.add_argument("--out", default=".build/bench")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--timeline-rounds", type=int, default=15,
                        help="rounds of the start-up timeline (each program's own marks)")
    parser.add_argument("--warm-up", type=int, default=3)
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--enter-rounds", type=int, default=5,
                        help="the Enter presses are split into this many interleaved rounds")
    parser.add_argument("--settle-ms", type=int, default=500,
                        help="quiet time after which a start-up's memory is read again")
    parser.add_argument("--preview-rounds", type=int, default=15)
    parser.add_argument("--preview-warm-up", type=int, default=2)
    parser.add_argument("--smooth-rounds", type=int, default=8,
                        help="rounds with the smooth (low-entropy) 24 MP JPEG, shown for comparison")
    parser.add_argument("--format-rounds", type=int, default=8,
                        help="rounds with the 24 MP HEIC and the 45 MP DNG")
    parser.add_argument("--tail-ms", type=int, default=1000,
                        help="how long after the preview shows stalls are still watched for")
    parser.add_argument("--queue-rounds", type=int, default=1,
                        help="times each program captions the whole queue of 24 MP JPEGs")
    parser.add_argument("--dwell-ms", type=int, default=1500,
                        help="time spent on each photo of the queue before Done")
    parser.add_argument("--baseline", help="another release build of caption, measured beside this one")
    parser.add_argument("--only", default="timeline,photo_start,startup,startup_large,startup_queue,enter,preview,preview_smooth,preview_heic,preview_raw,queue",
                        help="comma-separated sections")
    args = parser.parse_args()
    args.out = os.path.abspath(args.out)
    args.caption = os.path.abspath(args.caption)
    args.sample = os.path.abspath(args.sample)
    args.baseline = args.baseline and os.path.abspath(args.baseline)
    args.fixtures = os.path.join(args.out, "fixtures")
    os.makedirs(args.out, exist_ok=True)

    subprocess.run([args.bench, "fixtures", args.fixtures, args.sample], check=True)
    runner = Runner(args, build_tools(args.out))
    report = {"machine": machine(), "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    sections = args.only.split(",")
    for section in ("timeline", "photo_start", "startup", "startup_large", "startup_queue", "enter", "preview", "preview_smooth", "preview_heic", "preview_raw", "queue"):
        if section in sections:
            began = time.monotonic()
            report[section] = getattr(runner, section)()
            report[section]["seconds"] = round(time.monotonic() - began, 1)
    report["machine"]["load_average_after"] = [round(value, 2) for value in os.getloadavg()]
    print_report(report)
    path = os.path.join(args.out, "window.json")
    with open(path, "w") as output:
        json.dump(report, output, indent=1)
        output.write("\n")
    print(f"written to {path}")


if __name__ == "__main__":
    main()
