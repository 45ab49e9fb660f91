#!/bin/sh
# The C versions of the run vectors (tests/cc/rv/rvNN.c) compiled by isekit cc for each core the
# .psm original runs on, then run in the run vectors' bench (tests/picoblaze/test_run_vectors.c,
# given the directory): the same registers, bank, interrupts and port writes as the originals.
# usage: cc_rv.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"
bench="$(dirname "$isekit")/tests/picoblaze_test_run_vectors"
mkdir "$tmp/rv"
n=0
grep -v '^#' "$src/tests/picoblaze/programs/expected.txt" | while read -r program core rest; do
    c="$src/tests/cc/rv/${program%%_*}.c"
    # rv05 fills the whole 64-byte scratchpad, so KCPSM3 has no room for the C version's frame
    case "$program.$core" in rv05_scratchpad.kcpsm3) continue ;; esac
    opts=
    case "$program" in rv05_scratchpad) opts="--scratchpad 128" ;; esac
    run 0 "$tmp/rv/$program.$core.cc" -- "$isekit" cc -m "$core" $opts "$c" -o "$tmp/rv/${program}_$core.psm"
done
n=$(ls "$tmp"/rv/*.psm | wc -l)
# every fixture but rv05 on KCPSM3 (a failed compile above, in the pipe's subshell, shows here)
[ "$n" -eq 27 ] || fail "$n run vectors compiled from C, not 27"
bounded 0 "$tmp/bench" -- "$bench" "$tmp/rv" "$n"
cat "$tmp/bench"
finish cc_rv.sh
