#!/bin/sh
# --profile, --profile-csv, --profile-svg (docs/profiles.md): the counts add up to the run's own
# totals on an accelerator, a KCPSM6 program and a DPU program with 16 tasklets; the SVG is XML.
# usage: profile.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"

# csv_sum FILE TABLE COLUMN [INSTANCE]: the sum of that column of that table
csv_sum() {
    awk -F, -v t="$2" -v c="$3" -v i="$4" '$1 == t && $4 == c && (i == "" || $2 == i) { s += $5 } END { print s + 0 }' "$1"
}
# equal WHAT GOT WANTED
equal() { [ "$2" = "$3" ] || fail "$1: $2, wanted $3"; }
# contexts_add_up CSV CLOCKS: each context's running+blocked+sleeping+idle clocks are the run's
contexts_add_up() {
    bad=$(awk -F, -v n="$2" '$1 == "contexts" && ($4 == "running" || $4 == "blocked" || $4 == "sleeping" ||
          $4 == "idle") { s[$2 " " $3] += $5 } END { for (k in s) if (s[k] != n) print k ": " s[k]; }' "$1")
    [ -z "$bad" ] || fail "contexts whose clocks do not sum to $2: $bad"
    [ "$(csv_sum "$1" contexts running)" -gt 0 ] || fail "no running clocks in $1"
}
xml_ok() {
    python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); assert r.tag.endswith("svg"), r.tag' "$1" ||
        fail "$1 is not an SVG document"
}

# the example accelerator: commands per launch, clocks per command from the END events
bounded 0 "$tmp/ex" -- "$isekit" run example "$src/models/example/programs/demo.ll" --profile \
    --profile-csv "$tmp/ex.csv" --profile-svg "$tmp/ex.svg"
expect_in "$tmp/ex" 'example: commands (16 launched, 16 ended)'
expect_in "$tmp/ex" '             2            4       2.00  mac (MAC_LREG_GREG)'
expect_in "$tmp/ex" '            15   53.6%  MAC adder'
equal "example launches" "$(csv_sum "$tmp/ex.csv" commands launches)" 16
equal "example run clocks" "$(csv_sum "$tmp/ex.csv" run clocks)" 28
# MAC takes 2 clocks a command, as the summary's slot occupancy (28 slot-clocks) says in all
equal "example command clocks" "$(csv_sum "$tmp/ex.csv" commands clocks)" 28
equal "example slot clocks" "$(csv_sum "$tmp/ex.csv" slots slot_clocks)" 28
xml_ok "$tmp/ex.svg"
expect_in "$tmp/ex.svg" 'example slot 0'
if grep -q 'example slot 3' "$tmp/ex.svg"; then fail "a slot never used has a timeline row"; fi

# attributed_fits CSV: no context's instructions own more clocks than it was running or blocked
attributed_fits() {
    bad=$(awk -F, '$1 == "contexts" { k = $2 " " $3; if ($4 == "attributed") a[k] = $5;
          if ($4 == "running" || $4 == "blocked") rb[k] += $5 } END { for (k in a) if (a[k] > rb[k]) print k }' "$1")
    [ -z "$bad" ] || fail "contexts whose instructions own more clocks than they ran: $bad"
}

# KCPSM6: one context, running every clock
bounded 0 "$tmp/pb" -- "$isekit" run kcpsm6 "$src/models/picoblaze/examples/count.psm" --stop-port 0xFF \
    --profile-csv "$tmp/pb.csv"
expect_in "$tmp/pb" 'summary: 27 clocks, 14 instructions'
equal "kcpsm6 instructions" "$(csv_sum "$tmp/pb.csv" instructions count)" 14
equal "kcpsm6 functions" "$(csv_sum "$tmp/pb.csv" functions instructions)" 14
equal "kcpsm6 clocks attributed" "$(csv_sum "$tmp/pb.csv" instructions clocks)" 27
equal "kcpsm6 ADD count" "$(awk -F, '$1 == "instructions" && $3 ~ /^ADD / && $4 == "count" { print $5 }' "$tmp/pb.csv")" 3
contexts_add_up "$tmp/pb.csv" 27
attributed_fits "$tmp/pb.csv"
# without --profile the text tables stay off
if grep -q 'profile:' "$tmp/pb"; then fail "--profile-csv alone printed the tables"; fi

# the DPU with 16 tasklets: functions from the executable's symbols, DMAs, contexts
bounded 0 "$tmp/dpu" -- "$isekit" run dpu "$src/tests/dpu/programs/vecadd.s" --tasklets 16 --cycles --profile \
    --profile-csv "$tmp/dpu.csv" --profile-svg "$tmp/dpu.svg"
insns=$(sed -n 's/.* cycles, \([0-9]*\) instructions.*/\1/p' "$tmp/dpu")
cycles=$(sed -n 's/.* mode: \([0-9]*\) cycles.*/\1/p' "$tmp/dpu")
[ -n "$insns" ] && [ -n "$cycles" ] || fail "no statistics in $tmp/dpu"
equal "dpu instructions" "$(csv_sum "$tmp/dpu.csv" instructions count)" "$insns"
equal "dpu function instructions" "$(csv_sum "$tmp/dpu.csv" functions instructions)" "$insns"
equal "dpu run clocks" "$(csv_sum "$tmp/dpu.csv" run clocks)" "$cycles"
contexts_add_up "$tmp/dpu.csv" "$cycles"
attributed_fits "$tmp/dpu.csv"
equal "dpu clocks attributed" "$(csv_sum "$tmp/dpu.csv" instructions clocks)" "$(csv_sum "$tmp/dpu.csv" contexts attributed)"
equal "dpu function clocks" "$(csv_sum "$tmp/dpu.csv" functions clocks)" "$(csv_sum "$tmp/dpu.csv" contexts attributed)"
# the runner's own DMA count (192 reads, 72 writes) and its per-tasklet instructions
equal "dpu DMAs" "$(csv_sum "$tmp/dpu.csv" contexts dma)" 264
equal "dpu DMA bytes" "$(csv_sum "$tmp/dpu.csv" contexts dma_bytes)" 65600
equal "tasklet 1 instructions" "$(awk -F, '$1 == "contexts" && $3 == "1" && $4 == "instructions" { print $5 }' "$tmp/dpu.csv")" \
    "$(awk '$1 == "dpu:" && $2 == "1" { print $3 }' "$tmp/dpu")"
expect_in "$tmp/dpu" 'dpu: functions'
expect_in "$tmp/dpu" '  mram_read'
expect_in "$tmp/dpu" '  ... 9 more (--profile-top N)'
xml_ok "$tmp/dpu.svg"
expect_in "$tmp/dpu.svg" 'dpu context 15'
expect_in "$tmp/dpu.svg" 'Hottest functions'
expect_in "$tmp/dpu.svg" '>mram_read</text>'
# a timeline never has more columns than its buckets, however long the run
cols=$(grep -c '<rect' "$tmp/dpu.svg")
[ "$cols" -lt 40000 ] || fail "the SVG has $cols rectangles"

# functions follow the executable's symbols, and a function's .size ends it: the label after it
# is a routine of its own
cat >"$tmp/sized.s" <<'EOF'
// a function with a size (work), then a routine that is only a label (spin): the profile
// names spin, not work, for the instructions past work's end
    .text
    .globl main
    .type work, @function
work:
    add r0, r0, 1
    add r0, r0, 1
    jump r23
    .size work, .-work
spin:
    add r0, r0, 2
    jump r23
main:
    .type main, @function
    sd r22, 8, d22
    add r22, r22, 16
    move r0, 0
    call r23, work
    call r23, spin
    call r23, spin
    ld d22, r22, -8
    jump r23
EOF
bounded 0 "$tmp/sized" -- "$isekit" run dpu "$tmp/sized.s" --tasklets 1 --quiet --profile-csv "$tmp/sized.csv"
equal "work's instructions" "$(awk -F, '$1 == "functions" && $3 == "work" && $4 == "instructions" { print $5 }' "$tmp/sized.csv")" 3
equal "spin's instructions" "$(awk -F, '$1 == "functions" && $3 == "spin" && $4 == "instructions" { print $5 }' "$tmp/sized.csv")" 4

# EdkDSP: a host program starts the PicoBlaze between clocks (no CONTEXT event): its issues
# still count as running clocks; the DFU's command is profiled beside it
ex="$src/models/edkdsp/examples"
bounded 0 "$tmp/edk" -- "$isekit" run edkdsp --core kcpsm6 --firmware "$ex/fw_seed.psm" --host "$ex/host_seed.c" \
    --profile-csv "$tmp/edk.csv"
edk_insns=$(sed -n 's/^summary: [0-9]* clocks, \([0-9]*\) PicoBlaze instructions.*/\1/p' "$tmp/edk")
edk_clocks=$(sed -n 's/^summary: \([0-9]*\) clocks,.*/\1/p' "$tmp/edk")
equal "edkdsp instructions" "$(csv_sum "$tmp/edk.csv" instructions count)" "$edk_insns"
contexts_add_up "$tmp/edk.csv" "$edk_clocks"
attributed_fits "$tmp/edk.csv"
equal "edkdsp DFU launches" "$(csv_sum "$tmp/edk.csv" commands launches)" 1
equal "edkdsp DFU clocks" "$(csv_sum "$tmp/edk.csv" commands clocks)" 26

# --profile-top, and bad usage
bounded 0 "$tmp/top" -- "$isekit" run dpu "$src/tests/dpu/programs/vecadd.s" --tasklets 16 --quiet --profile --profile-top 3
expect_in "$tmp/top" '  ... 26 more (--profile-top N)'
run 2 "$tmp/u1" -- "$isekit" run dpu "$src/tests/dpu/programs/vecadd.s" --profile-top 0
expect_in "$tmp/u1" '--profile-top: 0 is out of range'
run 2 "$tmp/u2" -- "$isekit" run example "$src/models/example/programs/demo.ll" --profile-csv
run 1 "$tmp/u3" -- "$isekit" run example "$src/models/example/programs/demo.ll" --profile-csv "$tmp/no/such/dir.csv"
expect_in "$tmp/u3" "--profile-csv $tmp/no/such/dir.csv: cannot write it"

# the IPU vertex runner: seven contexts (supervisor + six workers) each summing to the run's
# clocks, instructions to the run's, the vertex's function by its symbol
ipu="$src/models/ipu/examples"
mkdir "$tmp/ipu_out"
bounded 0 "$tmp/ipu" -- "$isekit" run ipu "$ipu/vector_add.S" --state "$ipu/vector_add.toml" -o "$tmp/ipu_out" \
    --profile --profile-csv "$tmp/ipu.csv" --profile-svg "$tmp/ipu.svg"
ipu_insns=$(sed -n 's/^vertex: success, .* \([0-9]*\) instructions in \([0-9]*\) clocks.*/\1/p' "$tmp/ipu")
ipu_clocks=$(sed -n 's/^vertex: success, .* instructions in \([0-9]*\) clocks.*/\1/p' "$tmp/ipu")
equal "ipu instructions" "$(csv_sum "$tmp/ipu.csv" instructions count)" "${ipu_insns:-none}"
equal "ipu function instructions" "$(csv_sum "$tmp/ipu.csv" functions instructions)" "${ipu_insns:-none}"
contexts_add_up "$tmp/ipu.csv" "${ipu_clocks:-none}"
attributed_fits "$tmp/ipu.csv"
equal "ipu contexts" "$(awk -F, '$1 == "contexts" && $4 == "running" { n++ } END { print n + 0 }' "$tmp/ipu.csv")" 7
expect_in "$tmp/ipu" '__runCodelet_VectorAdd'
xml_ok "$tmp/ipu.svg"

finish profile
