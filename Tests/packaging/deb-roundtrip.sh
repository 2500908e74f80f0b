#!/bin/sh
# The .deb on this machine: `dpkg -i`, the installed /usr/bin/caption used without a
# display (--version, --add, --list, a refusal in Chinese), then `dpkg -r`, after which
# none of the package's files is left. Needs root. Usage: deb-roundtrip.sh PACKAGE.deb
set -u
deb=$1
work=$(mktemp -d)
installed_here=""
cleanup() {
    [ -z "$installed_here" ] || dpkg -r caption >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
suite="deb"
# shellcheck source=build-aux/checks.sh
. "$(dirname "$0")/../../build-aux/checks.sh"
version=$(sed -n 's/^public let captionVersion = "\(.*\)"$/\1/p' Sources/CaptionCommand/Arguments.swift)

check "running as root, to install the package" test "$(id -u)" -eq 0 || finish
# Someone's own installation is not this test's to replace and remove.
check "no caption package installed before the test" \
    sh -c "! dpkg-query -W -f='\${Status}' caption 2>/dev/null | grep -q ' installed\$'" || finish
check "dpkg -i $(basename "$deb")" dpkg -i "$deb" || finish
installed_here=yes
dpkg-query -L caption | LC_ALL=C sort >"$work/files"
check "the package holds the program, the data files and Debian's docs" sh -c "
    for path in /usr/bin/caption /usr/share/applications/io.github.caption_app.Caption.desktop \
        /usr/share/metainfo/io.github.caption_app.Caption.metainfo.xml \
        /usr/share/icons/hicolor/scalable/apps/io.github.caption_app.Caption.svg \
        /usr/share/icons/hicolor/symbolic/apps/io.github.caption_app.Caption-symbolic.svg \
        /usr/share/locale/zh_CN/LC_MESSAGES/caption.mo /usr/share/man/man1/caption.1.gz \
        /usr/share/doc/caption/copyright /usr/share/doc/caption/changelog.gz; do
        grep -qxF \"\$path\" '$work/files' && [ -f \"\$path\" ] || { echo \"missing: \$path\"; exit 1; }
    done"

check "the package depends on the libraries the program opens (SQLite, exempi, LibRaw, gspell)" sh -c "
    depends=\$(dpkg-query -W -f='\${Depends}' caption)
    echo \"\$depends\" | grep -q 'libsqlite3-0 (>= ' && echo \"\$depends\" | grep -q 'libexempi[0-9]* (>= ' &&
        echo \"\$depends\" | grep -q 'libraw[0-9]* (>= ' && echo \"\$depends\" | grep -q 'libgspell-1-[0-9]* (>= '"

headless() { env -u DISPLAY -u WAYLAND_DISPLAY -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=C.UTF-8 "$@"; }
check "/usr/bin/caption --version" sh -c "[ \"\$(/usr/bin/caption --version)\" = 'caption $version' ]"
headless /usr/bin/caption --library "$work/library" --add data/samples/harbour.jpg \
    --title "Harbour at dusk" --subtitle "港口 · the last ferry" >"$work/added" 2>&1
check "/usr/bin/caption --add, without a display" grep -qx 'Saved entry 1' "$work/added"
headless /usr/bin/caption --library "$work/library" --list >"$work/list" 2>&1
check "/usr/bin/caption --list shows it" grep -q '^ 1  Harbour at dusk  港口 · the last ferry$' "$work/list"
headless /usr/bin/caption --library "$work/library" --list --json >"$work/list.json" 2>&1
check "/usr/bin/caption --list --json shows it" grep -q '"title": "Harbour at dusk", "subtitle": "港口 · the last ferry"' "$work/list.json"
env -u DISPLAY -u WAYLAND_DISPLAY -u LC_ALL -u LC_MESSAGES LANG=C.UTF-8 LANGUAGE=zh_CN /usr/bin/caption \
    --library "$work/library" --add data/samples/harbour.jpg --subtitle x >/dev/null 2>"$work/stderr"
echo $? >"$work/status"
check "LANGUAGE=zh_CN /usr/bin/caption: a failed --add says so in Chinese" sh -c "
    cat '$work/stderr'; [ \"\$(cat '$work/stderr')\" = 'caption: 标题为必填项' ] && [ \$(cat '$work/status') -eq 1 ]"

check "dpkg -r caption" dpkg -r caption
installed_here=""
check "the package is no longer installed" sh -c "
    status=\$(dpkg-query -W -f='\${db:Status-Status}' caption 2>/dev/null || true)
    [ -z \"\$status\" ] || [ \"\$status\" = not-installed ] || { echo \"status: \$status\"; exit 1; }"
check "none of its files is left" sh -c "
    left=0
    while read -r path; do
        [ -d \"\$path\" ] && continue
        if [ -e \"\$path\" ] || [ -L \"\$path\" ]; then echo \"left behind: \$path\"; left=1; fi
    done <'$work/files'
    [ -d /usr/share/doc/caption ] && { echo 'left behind: /usr/share/doc/caption/'; left=1; }
    exit \$left"
finish
