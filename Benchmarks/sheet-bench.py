#!/usr/bin/python3
"""A caption sheet written into camera JPEGs: caption --import --in-place beside exiftool -csv=.

Both write the same sheet (SourceFile, Title, Description, Credit) into fresh copies of the
same photos, in interleaved rounds; the figures are wall times of the whole command, and
the ratio is taken round by round. The photos are 12 MP JPEGs with a Canon camera's Exif
and MakerNote (copied by exiftool from a camera-made file), about 2.5 MB each. Caption does
more than exiftool in that time: it also checks that each photo decodes, keeps a copy of it
in the library and records the entry.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MAKE_CAMERA_PHOTOS = os.path.join(HERE, "..", "Tests", "fixtures", "make-camera-photos")


def run(argv, **options):
    return subprocess.run(argv, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **options)


def make_fixtures(out, count, size):
    """The base photo, once, and the sheet naming `count` copies of it."""
    base = os.path.join(out, "base.jpg")
    if not os.path.exists(base):
        with tempfile.TemporaryDirectory() as made:
            run([MAKE_CAMERA_PHOTOS, made])
            run(["convert", "-size", size, "plasma:fractal", "-blur", "0x1", "-quality", "92", base + ".tmp.jpg"])
            # The camera's Exif, MakerNote and old caption, as exiftool copies them.
            run(["exiftool", "-q", "-overwrite_original", "-tagsFromFile", os.path.join(made, "camera.jpg"),
                 "-all:all", base + ".tmp.jpg"])
            os.rename(base + ".tmp.jpg", base)
    photos = os.path.join(out, "photos")
    sheet = os.path.join(out, "sheet.csv")
    names = [f"IMG_{index:04d}.JPG" for index in range(1, count + 1)]
    with open(sheet, "w") as output:
        output.write("SourceFile,Title,Description,Credit\n")
        for index, name in enumerate(names, 1):
            output.write(f"{os.path.join(photos, name)},Harbour {index},\"Boats at dusk, Lisbon, photo {index}\","
                         "Agency Photo\n")
    return base, photos, names, sheet


def fresh_copies(base, photos, names):
    shutil.rmtree(photos, ignore_errors=True)
    os.makedirs(photos)
    for name in names:
        shutil.copyfile(base, os.path.join(photos, name))
    # Both programs start with the photos written out and in the page cache.
    os.sync()


def written(photos, names):
    """What a reader sees in the last photo: its title and description."""
    last = os.path.join(photos, names[-1])
    lines = run(["exiftool", "-s3", "-XMP-dc:Title", "-XMP-dc:Description", last]).stdout.decode().splitlines()
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--caption", required=True, help="the release build of caption")
    parser.add_argument("--out", default=".build/bench/sheet")
    parser.add_argument("--photos", type=int, default=200)
    parser.add_argument("--size", default="4000x3000")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    base, photos, names, sheet = make_fixtures(out, args.photos, args.size)
    expected = [f"Harbour {args.photos}", f"Boats at dusk, Lisbon, photo {args.photos}"]
    programs = {
        "exiftool": lambda: ["exiftool", "-q", "-overwrite_original", "-csv=" + sheet, photos],
        "caption": lambda: [args.caption, "--library", os.path.join(out, "library"), "--import", sheet,
                            "--in-place"],
    }
    environment = dict(os.environ, XDG_CONFIG_HOME=os.path.join(out, "config"), XDG_DATA_HOME=os.path.join(out, "data"))
    seconds = {name: [] for name in programs}
    for round_index in range(args.rounds):
        order = list(programs) if round_index % 2 == 0 else list(reversed(programs))
        for name in order:
            fresh_copies(base, photos, names)
            shutil.rmtree(os.path.join(out, "library"), ignore_errors=True)
            began = time.monotonic()
            run(programs[name](), env=environment)
            seconds[name].append(time.monotonic() - began)
            seen = written(photos, names)
            if seen != expected:
                sys.exit(f"sheet-bench: {name} left {seen} in the last photo, not {expected}")
    ratios = [c / e for c, e in zip(seconds["caption"], seconds["exiftool"])]
    size = os.path.getsize(base)
    print(f"\nA caption sheet into {args.photos} camera JPEGs ({args.size}, {size / 1e6:.1f} MB each), "
          f"median of {args.rounds} interleaved rounds")
    for name in programs:
        values = seconds[name]
        print(f"  {name:10}{statistics.median(values):7.2f} s   ({min(values):.2f}–{max(values):.2f})")
    ratio = statistics.median(ratios)
    verdict = "met" if ratio <= 1.0 else f"MISSED by {100 * (ratio - 1):.0f}%"
    print(f"  caption / exiftool, round by round: {ratio:.2f}×   (target ≤ 1.0×: {verdict})")
    with open(os.path.join(out, "sheet.json"), "w") as output:
        json.dump({"photos": args.photos, "size": args.size, "bytes": size, "seconds": seconds,
                   "ratio_median": ratio}, output, indent=1)


if __name__ == "__main__":
    main()
