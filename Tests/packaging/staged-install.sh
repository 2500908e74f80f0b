#!/bin/sh
# `make install` into a staging folder: exactly the expected files, a stripped binary with
# the Swift runtime linked in, working from there with no build tree (in Chinese too), and
# `make uninstall` taking every file away again. Run from the top of the checkout after
# `make release data`.
set -u
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
stage=$work/stage
suite="staged install"
# shellcheck source=build-aux/checks.sh
. "$(dirname "$0")/../../build-aux/checks.sh"
version=$(sed -n 's/^public let captionVersion = "\(.*\)"$/\1/p' Sources/CaptionCommand/Arguments.swift)

cat >"$work/expected" <<'LIST'
usr/bin/caption
usr/share/applications/io.github.caption_app.Caption.desktop
usr/share/icons/hicolor/scalable/apps/io.github.caption_app.Caption.svg
usr/share/icons/hicolor/symbolic/apps/io.github.caption_app.Caption-symbolic.svg
usr/share/locale/zh_CN/LC_MESSAGES/caption.mo
usr/share/man/man1/caption.1
usr/share/metainfo/io.github.caption_app.Caption.metainfo.xml
LIST
# The user's guide: every page of help/C, in English and in each language of help/LINGUAS.
for lang in C $(sed 's/#.*//' help/LINGUAS); do
    for page in help/C/*.page help/C/legal.xml; do
        echo "usr/share/help/$lang/caption/${page##*/}"
    done
done >>"$work/expected"
LC_ALL=C sort -o "$work/expected" "$work/expected"

check "make install DESTDIR=… PREFIX=/usr" make --no-print-directory install DESTDIR="$stage" PREFIX=/usr
(cd "$stage" && find . ! -type d | sed 's|^\./||' | LC_ALL=C sort) >"$work/installed"
check "the staged install holds exactly the expected files" diff -u "$work/expected" "$work/installed"
guide=$stage/usr/share/help
check "the guide is where help:caption finds it, in Chinese too" sh -c "
    grep -q 'xmlns=\"http://projectmallard.org/1.0/\"' '$guide/C/caption/index.page' &&
    grep -q 'id=\"index\"' '$guide/C/caption/index.page' &&
    grep -q '帮助' '$guide/zh_CN/caption/index.page'"
binary=$stage/usr/bin/caption
check "the binary is stripped" sh -c "! readelf -S '$binary' | grep -q '\.symtab'"
check "the binary needs no Swift library and has no run path" sh -c "
    ! readelf -d '$binary' | grep -E 'libswift|libdispatch|libFoundation|RPATH|RUNPATH'"
check "the binary loads no libstdc++ at start and exports no symbol" sh -c "
    ! readelf -d '$binary' | grep -F 'libstdc++' && ! nm -D --defined-only '$binary' | grep -F ' T caption_'"
check "the binary finds its arguments without reading /proc/self/maps (Sources/CStartupTrace/arguments.c)" sh -c "
    ! strace -f -e trace=openat '$binary' --version 2>&1 >/dev/null | grep -F /proc/self/maps"
check "caption --version from the staged tree" sh -c "[ \"\$('$binary' --version)\" = 'caption $version' ]"

# The failed --add of the acceptance: no title. The library is never reached.
photo=data/samples/harbour.jpg
refused() {  # refused NAME EXPECTED-STDERR [VARIABLE=VALUE...] -- ARGUMENT...: exit 1, that one line
    name=$1 expected=$2
    shift 2
    variables=""
    while [ "$1" != -- ]; do variables="$variables $1"; shift; done
    shift
    # shellcheck disable=SC2086
    env -u LC_ALL -u LC_MESSAGES -u LANG -u LANGUAGE -u DISPLAY -u WAYLAND_DISPLAY $variables \
        "$binary" --library "$work/library" "$@" >/dev/null 2>"$work/stderr"
    echo $? >"$work/status"
    check "$name" sh -c "cat '$work/stderr'; [ \"\$(cat '$work/stderr')\" = '$expected' ] && [ \$(cat '$work/status') -eq 1 ]"
}
refused "LANGUAGE=zh_CN: a failed --add says so in Chinese" "caption: 标题为必填项" \
    LANG=C.UTF-8 LANGUAGE=zh_CN -- --add "$photo" --subtitle x
refused "LANGUAGE=zh_CN with no locale set at all: still Chinese" "caption: 标题和副标题为必填项" \
    LANGUAGE=zh_CN -- --add "$photo"
refused "without LANGUAGE: English" "caption: Title required" LANG=C.UTF-8 -- --add "$photo" --subtitle x
# A photo whose XMP packet is cut short (no closing tags): exempi reports it to Caption and
# also writes "XML parsing failure" to the C++ library's std::cerr, which Caption silences
# in the shared libstdc++ that exempi brings, not in the copy linked into the program.
damaged=$work/damaged-xmp.jpg
python3 - "$photo" "$damaged" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
packet = (b"http://ns.adobe.com/xap/1.0/\0<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?>"
          b"<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF "
          b"xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'><rdf:Description ")
open(sys.argv[2], "wb").write(data[:2] + b"\xff\xe1" + (len(packet) + 2).to_bytes(2, "big") + packet + data[2:])
PY
refused "a photo with damaged XMP: only Caption's own line on standard error" "caption: Title required" \
    LANG=C.UTF-8 -- --add "$damaged" --subtitle x
check "LANGUAGE=zh_CN: --help is Chinese" sh -c "LANGUAGE=zh_CN LANG=C.UTF-8 '$binary' --help | grep -q '^  --title 标题      标题，最多 120 个字符\$'"
check "the refused --add did not even create the library" test ! -e "$work/library"
check "make uninstall DESTDIR=… PREFIX=/usr" make --no-print-directory uninstall DESTDIR="$stage" PREFIX=/usr
check "nothing is left after make uninstall" sh -c "[ -z \"\$(find '$stage' ! -type d)\" ] || find '$stage' ! -type d"

finish
