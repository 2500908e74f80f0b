#!/bin/sh
# End to end, as a person would: start the real binary on a photo, type with the keyboard
# alone, press Return twice, and find the entry through the command line.
# Usage: keyboard-caption.sh CAPTION_BINARY PHOTO   (needs a display: see build-aux/with-display)
set -u
caption=$1
photo=$2
work=$(mktemp -d)
pid=""
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
passed=0
failed=0
check() {  # check NAME COMMAND...: one line per check, counted
    name=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
        echo "ok   $name"
    else
        failed=$((failed + 1))
        echo "FAIL $name"
    fi
}

"$caption" --library "$work/library" "$photo" >"$work/log" 2>&1 &
pid=$!
window=$(timeout 20 xdotool search --sync --onlyvisible --name '^Caption$' 2>/dev/null | head -n 1)
check "the window opens" test -n "$window"
if [ -n "$window" ]; then
    # Without a window manager, keys go to the window under the pointer unless it has focus.
    xdotool windowfocus --sync "$window"
    xdotool type --delay 15 "Harbour at dusk"
    xdotool key Return
    xdotool type --delay 15 "港口 · the last ferry"
    xdotool key Return
    found=""
    for _ in $(seq 1 100); do
        "$caption" --library "$work/library" --list --json >"$work/list.json" 2>/dev/null || true
        if grep -q '"title": *"Harbour at dusk"' "$work/list.json"; then found=yes; break; fi
        sleep 0.1
    done
    check "Return, Return saves the entry" test -n "$found"
    check "the subtitle is stored as typed" grep -q '"subtitle": *"港口 · the last ferry"' "$work/list.json"
    check "the app is still running, ready for the next photo" kill -0 "$pid"
    xdotool key ctrl+q
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    check "Ctrl+Q quits" sh -c "! kill -0 $pid 2>/dev/null"
fi
[ "$failed" -eq 0 ] || { echo "--- app log"; cat "$work/log"; }
echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
