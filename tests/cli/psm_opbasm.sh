#!/bin/sh
# Sources in opbasm's output style (tests/picoblaze/data/opbasm_style{3,6}.psm, written by us:
# lower case, 0x hex, "&&" macro labels, ".local" labels, bare-register FETCH/STORE/INPUT/
# OUTPUT, STRING/TABLE expansion, DEFAULT_JUMP) assemble word for word as opbasm 1.3 assembles
# them. The .words files hold opbasm's image of each source (run beside the project: `opbasm -3|-6
# -x`), as the fill word and every other address: our record of its behaviour, not its files.
# usage: psm_opbasm.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"

data=$src/tests/picoblaze/data
for core in 3 6; do
    run 0 "$tmp/asm$core" -- "$isekit" psm -$core "$data/opbasm_style$core.psm" -o "$tmp/s$core.hex"
    awk -v fill="$(awk '/^fill /{ print $2 }' "$data/opbasm_style$core.words")" '
        BEGIN { print "fill " fill }
        $0 != fill { printf "%03X %s\n", NR - 1, $0 }' "$tmp/s$core.hex" >"$tmp/s$core.words"
    cmp -s "$tmp/s$core.words" "$data/opbasm_style$core.words" ||
        { fail "opbasm_style$core: words differ from opbasm's"; diff "$data/opbasm_style$core.words" "$tmp/s$core.words"; }
done

# the same source for the other core: a KCPSM6-only line says to use -6
run 1 "$tmp/k3" -- "$isekit" psm -3 "$data/opbasm_style6.psm" -o "$tmp/x.hex"
expect_in "$tmp/k3" "opbasm_style6.psm:15:25: error: unknown instruction 'outputk' for model 'kcpsm3'; it is KCPSM6 code: assemble with -6 (--core kcpsm6)"

finish psm_opbasm
