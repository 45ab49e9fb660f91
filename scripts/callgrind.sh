#!/bin/sh
# make callgrind: host instructions per simulated instruction or clock, counted by callgrind
# (machine-independent, unlike the timings of make bench). Each figure runs one benchmark case
# at two sizes and divides the difference in host instructions by the difference in simulated
# work, so that loading models and building systems cancel out.
set -e
build=${1:-build}
b="$build/bench"
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ir CMD...: the host instructions callgrind counts for the whole command (only inside the
# function $only, if set)
ir() {
    valgrind --tool=callgrind ${only:+--toggle-collect=$only} --callgrind-out-file="$tmp/out" "$@" \
        >"$tmp/stdout" 2>"$tmp/log"
    awk '/^summary:/ { print $2 }' "$tmp/out"
}

# figure NAME UNIT SMALL_UNITS LARGE_UNITS SMALL_CMD -- LARGE_CMD
figure() {
    name=$1 unit=$2 small=$3 large=$4
    shift 4
    cmd_small=""
    while [ "$1" != "--" ]; do cmd_small="$cmd_small $1"; shift; done
    shift
    a=$(ir $cmd_small)
    c=$(ir "$@")
    awk -v n="$name" -v u="$unit" -v a="$a" -v c="$c" -v s="$small" -v l="$large" \
        'BEGIN { printf "%-40s %8.2f host instructions per %s\n", n ":", (c - a) / (l - s), u }'
}

# bench_dpu SCALE CASE runs best-of-3, each of ROUNDS * SCALE kernel rounds; the figures per
# unit come from the benchmark's own counts (instructions, or cycles in cycle mode).
dpu() {
    name=$1 unit=$2 case=$3 field=$4
    "$b/bench_dpu" 1 "$case" >"$tmp/s1"
    "$b/bench_dpu" 2 "$case" >"$tmp/s2"
    u1=$(sed -n 's/.*(\([0-9]*\) '"$field"' in.*/\1/p' "$tmp/s1")
    u2=$(sed -n 's/.*(\([0-9]*\) '"$field"' in.*/\1/p' "$tmp/s2")
    figure "$name" "$unit" $((3 * u1)) $((3 * u2)) "$b/bench_dpu" 1 "$case" -- "$b/bench_dpu" 2 "$case"
}
dpu "dpu functional, 1 tasklet" instruction 1 instructions
dpu "dpu functional, 16 tasklets" instruction 2 instructions
dpu "dpu cycle mode, 16 tasklets" cycle 3 cycles
dpu "dpu cycle mode, 1 tasklet" cycle 4 cycles
dpu "dpu cycle mode, 16 tasklets, timing=detailed" cycle 5 cycles
# bench_picoblaze CLOCKS ROUNDS CORE: ROUNDS timed runs of CLOCKS clocks (an instruction takes
# two: 1 M clocks are 500 000 instructions), counted inside best_seconds only (not the
# behaviours-alone loop that follows)
for core in kcpsm3 kcpsm6; do
    only=best_seconds figure "picoblaze $core (engine + behaviours)" instruction 500000 1000000 \
        "$b/bench_picoblaze" 1000000 1 $core -- "$b/bench_picoblaze" 2000000 1 $core
done
# bench_rv32 INSTRUCTIONS CASE: best of 3 runs (case 1 alone, 2 beside a busy accelerator, 3 beside
# one busy with commands declared inert, which the processor runs ahead of)
figure "rv32 compute loop" instruction 3000000 6000000 "$b/bench_rv32" 1000000 1 -- "$b/bench_rv32" 2000000 1
figure "rv32 compute loop, accelerator busy" clock 3000000 6000000 "$b/bench_rv32" 1000000 2 -- "$b/bench_rv32" 2000000 2
figure "rv32 compute loop, inert accelerator busy" clock 3000000 6000000 "$b/bench_rv32" 1000000 3 -- "$b/bench_rv32" 2000000 3
# bench_example CLOCKS CASE: best of 3 runs of CLOCKS clocks (case 1 prepared commands, 3 words, 4 queued)
figure "example one-clock command stream" clock 300000 600000 \
    "$b/bench_example" 100000 1 -- "$b/bench_example" 200000 1
figure "example one-clock stream, word launch" clock 300000 600000 \
    "$b/bench_example" 100000 3 -- "$b/bench_example" 200000 3
figure "example one-clock stream, queued" clock 300000 600000 \
    "$b/bench_example" 100000 4 -- "$b/bench_example" 200000 4
figure "example CONV" clock 1200600 2401200 \
    "$b/bench_example" 400200 2 -- "$b/bench_example" 800400 2
# bench_edkdsp OPERATIONS: best of 3 runs; clocks per run printed
"$b/bench_edkdsp" 50 >"$tmp/e1"
"$b/bench_edkdsp" 100 >"$tmp/e2"
e1=$(sed -n 's/.*(\([0-9]*\) clocks per run).*/\1/p' "$tmp/e1")
e2=$(sed -n 's/.*(\([0-9]*\) clocks per run).*/\1/p' "$tmp/e2")
figure "edkdsp BCE" clock $((3 * e1)) $((3 * e2)) "$b/bench_edkdsp" 50 -- "$b/bench_edkdsp" 100
# bench_ipu ITERATIONS CASE: best of 3 runs of the vertex runner; worker bundles per run printed
ipu() {
    name=$1 case=$2
    "$b/bench_ipu" 20000 "$case" >"$tmp/i1"
    "$b/bench_ipu" 40000 "$case" >"$tmp/i2"
    u1=$(sed -n 's/.*(\([0-9]*\) bundles in.*/\1/p' "$tmp/i1")
    u2=$(sed -n 's/.*(\([0-9]*\) bundles in.*/\1/p' "$tmp/i2")
    figure "$name" bundle $((3 * u1)) $((3 * u2)) "$b/bench_ipu" 20000 "$case" -- "$b/bench_ipu" 40000 "$case"
}
ipu "ipu one worker (runner, worker bundles)" 1
ipu "ipu six workers (runner, worker bundles)" 2
