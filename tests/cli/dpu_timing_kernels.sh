#!/bin/sh
# The timing kernels compared with uPIMulator (docs/dpu-timing.md, "Compared with uPIMulator"):
# each kernel at 1, 4 and 16 tasklets in both timing modes must take exactly the cycles the
# docs' table gives, so that a change to the timing model cannot leave the table (and its
# ratios to uPIMulator) stale, and each detailed figure must be within 5 % of the table's
# uPIMulator column (what uPIMulator printed; issue 15's goal).
# usage: dpu_timing_kernels.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"
doc="$src/docs/dpu-timing.md"
rows=0
# | Kernel | T | uPIMulator | prim | prim / uPIM | detailed | detailed / uPIM |
grep -E '^\| (vecadd|reduce|gemv) \| [0-9]+ \|' "$doc" | tr -d ',*' | \
    awk -F'|' '{ gsub(/ /, ""); print $2, $3, $4, $5, $7 }' >"$tmp/table"
while read -r kernel tasklets upim prim detailed; do
    rows=$((rows + 1))
    for mode in prim detailed; do
        eval expected=\$$mode
        bounded 0 "$tmp/$kernel.$tasklets.$mode" -- "$isekit" run dpu "$src/tests/dpu/programs/timing_$kernel.s" \
            --tasklets "$tasklets" --cycles --param timing=$mode
        got=$(sed -n 's/.*cycle mode: \([0-9]*\) cycles.*/\1/p' "$tmp/$kernel.$tasklets.$mode")
        [ "$got" = "$expected" ] || fail "$kernel at $tasklets tasklets, timing=$mode: $got cycles, the docs' table says $expected"
    done
    awk -v d="$detailed" -v u="$upim" 'BEGIN { r = d / u; exit !(r >= 0.95 && r <= 1.05) }' ||
        fail "$kernel at $tasklets tasklets: detailed $detailed cycles is more than 5 % from uPIMulator's $upim"
    echo "$kernel $tasklets tasklets: uPIMulator $upim, prim $prim, detailed $detailed cycles"
done <"$tmp/table"
[ "$rows" -eq 9 ] || fail "docs/dpu-timing.md's table has $rows kernel rows, not 9"
finish dpu_timing_kernels.sh
