# shellcheck shell=sh disable=SC2154 # $work and $suite are the sourcing script's
# Counted checks for the shell test scripts, sourced after they set $work (a scratch folder)
# and $suite (the name their summary line starts with). Each check prints one line, and
# the command's output only when it fails; `finish` prints "SUITE: N passed, N failed" and
# exits with the verdict.
passed=0
failed=0
check() {  # check NAME COMMAND...
    name=$1
    shift
    if "$@" >"$work/out" 2>&1; then
        passed=$((passed + 1))
        echo "ok   $name"
    else
        failed=$((failed + 1))
        echo "FAIL $name"
        sed 's/^/     /' "$work/out"
    fi
}
finish() {
    echo "$suite: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}
