#!/bin/sh
# make bench: run every benchmark built into BUILD/bench and compare each figure with the
# previous run's (kept in bench/last-run.txt, not in git).
set -e
build=${1:-build}
dir=$(cd "$(dirname "$0")/.." && pwd)
last="$dir/bench/last-run.txt"
now=$(mktemp)
trap 'rm -f "$now"' EXIT
for b in "$build"/bench/bench_*; do
    [ -x "$b" ] || continue
    "$b" | tee -a "$now"
done
if [ -f "$last" ]; then
    echo
    echo "compared with the previous run:"
    # Lines look like "<name>: <number> <unit>"; match them by name (lines without a leading
    # number, such as the many-DPU set-up times, are not compared).
    awk -F': ' 'NR == FNR { split($2, a, " "); prev[$1] = a[1]; next }
                { split($2, a, " "); if ($1 in prev && prev[$1] + 0 > 0)
                    printf "  %-50s %10s -> %-10s (%+.1f%%)\n", $1, prev[$1], a[1], 100 * (a[1] - prev[$1]) / prev[$1] }' \
        "$last" "$now"
fi
cp "$now" "$last"
