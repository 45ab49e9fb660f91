#!/bin/sh
# isekit info / run on the example model, dynamic models, and bad input.
# usage: example.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"

# info lists the article's names and format string
run 0 "$tmp/info" -- "$isekit" info example
expect_in "$tmp/info" '"Acc LDM"'
expect_in "$tmp/info" '"General Registers"  registers, 2 x INT(16), latency 1: GR0 GR1'
expect_in "$tmp/info" '11-**-0000-0000-0001-LREG-GREG'
expect_in "$tmp/info" 'undecodable'

# the demo program runs and prints the summary
run 0 "$tmp/demo" -- "$isekit" run example "$src/models/example/programs/demo.ll"
expect_in "$tmp/demo" 'summary:'
expect_in "$tmp/demo" 'interrupts: 1'
# --trace: launches, the values each write makes visible (the example's storages have latency
# >= 1: at the end of the clock they commit in), commands ending, the interrupt
run 0 "$tmp/trace" -- "$isekit" run example "$src/models/example/programs/demo.ll" --trace
expect_in "$tmp/trace" '       0  example launch Load_LREG_IMM (0xc10051) in slot 0'
expect_in "$tmp/trace" '       0  example LRF[1] (LR1) = 5'
expect_in "$tmp/trace" '       5  example slot 0: MAC_LREG_GREG ends after 2 clock(s)'
expect_in "$tmp/trace" '       6  example ACR = 10'
expect_in "$tmp/trace" 'interrupt line 0 raised'

# --help everywhere, usage errors exit 2
run 0 "$tmp/h1" -- "$isekit" --help
expect_in "$tmp/h1" 'isekit --version'
run 0 "$tmp/v" -- "$isekit" --version
abi=$(sed -n 's/^#define ISK_ABI_VERSION \([0-9]*\).*/\1/p' "$src"/include/isekit/*.h)
expect_in "$tmp/v" "isekit 0.1.0 (model ABI $abi)"
run 0 "$tmp/h2" -- "$isekit" run --help
run 0 "$tmp/h3" -- "$isekit" info --help
run 2 "$tmp/u1" -- "$isekit" run example
run 2 "$tmp/u2" -- "$isekit" frobnicate
expect_in "$tmp/u2" "unknown command 'frobnicate'"
run 2 "$tmp/u3" -- "$isekit" run example --param nokey "$src/models/example/programs/demo.ll"
expect_in "$tmp/u3" "isekit run: --param nokey: write KEY=VALUE"

# a model outside the tree: a copy of the example with one extra instruction
sed -e 's|^MODEL_END|    INSTRUCTION("11-**-1011-0000-0000-ssss-tttt", Sub_GREG, "sub lr14, {s:gr}, {t:gr}");\nMODEL_END|' \
    -e 's|^/\* ---- description|ACC_FUNCTION(Sub_GREG, s, t) { SET(LRF, 14, GET(GRF, s) - GET(GRF, t)); }\n\n/* ---- description|' \
    "$src/models/example/example.c" >"$tmp/mymodel.c"
cat >"$tmp/sub.ll" <<'LL'
ldg gr0, 7
ldg gr1, 2
sub lr14, gr0, gr1
wait idle
expect LR14 == 5
LL
run 0 "$tmp/dyn" -- "$isekit" run "$tmp/mymodel.c" "$tmp/sub.ll"
expect_in "$tmp/dyn" 'summary: 4 clocks, 3 launches'
ls "$tmp/cache"/*.so >/dev/null 2>&1 || fail "no compiled model in the cache"
run 0 "$tmp/dyn2" -- "$isekit" info "$tmp/mymodel.c"
expect_in "$tmp/dyn2" 'Sub_GREG'

# a malformed format string
sed 's|"11-\*\*-0000-0000-0001-LREG-GREG"|"11-**-0000-0000-001-LREG-GREG"|' "$src/models/example/example.c" >"$tmp/bad.c"
run 1 "$tmp/bad" -- "$isekit" info "$tmp/bad.c"
expect_in "$tmp/bad" "format '11-**-0000-0000-001-LREG-GREG' has 23 significant symbols but the instruction word is 24 bits"

# an ambiguous pair of patterns
sed 's|^MODEL_END|    INSTRUCTION("11-**-0000-0000-0001-****-GREG", Set_LOOPREG, "ldz {GREG:gr}");\nMODEL_END|' \
    "$src/models/example/example.c" >"$tmp/amb.c"
run 1 "$tmp/amb" -- "$isekit" info "$tmp/amb.c"
expect_in "$tmp/amb" "formats '11-**-0000-0000-0001-LREG-GREG' (Move_LREG_GREG) and '11-**-0000-0000-0001-****-GREG'"
expect_in "$tmp/amb" "give one a higher .priority"

# a model that does not compile
printf '#include <isekit/model.h>\nthis is not C;\n' >"$tmp/broken.c"
run 1 "$tmp/broken" -- "$isekit" info "$tmp/broken.c"
expect_in "$tmp/broken" "compiling the model failed"

# an undefined instruction word, an unknown mnemonic, an operand out of range
printf 'ldi lr1, 1\nword 0x000000\n' >"$tmp/undef.ll"
run 1 "$tmp/undef" -- "$isekit" run example "$tmp/undef.ll"
expect_in "$tmp/undef" "clock 1: example: no instruction format of 'example' accepts the word 0x000000"
printf 'ldi lr1, 1\nfrob gr0\n' >"$tmp/mn.ll"
run 1 "$tmp/mn" -- "$isekit" run example "$tmp/mn.ll"
expect_in "$tmp/mn" "mn.ll:2:1: error: unknown instruction 'frob' for model 'example'"
printf 'setloop 5000\n' >"$tmp/range.ll"
run 1 "$tmp/range" -- "$isekit" run example "$tmp/range.ll"
expect_in "$tmp/range" "range.ll:1:9: error: operand i: 5000 is out of range [0, 4095]"

# a failed expectation, a CREW conflict, a resource clash, slot exhaustion
printf 'ldg gr0, 3\nwait idle\nexpect GR0 == 4\n' >"$tmp/exp.ll"
run 1 "$tmp/exp" -- "$isekit" run example "$tmp/exp.ll"
expect_in "$tmp/exp" "exp.ll:3: error: clock 1: expect GR0 == 4: the value is 3"
printf 'setloop 0\nconvf acc, dm0[ar0], tm0[ar1], shm[2]\nflag shm[2], 5\n' >"$tmp/crew.ll"
run 1 "$tmp/crew" -- "$isekit" run example "$tmp/crew.ll"
expect_in "$tmp/crew" "clock 2: CREW conflict: example.SHM[2] written twice in one clock"
run 0 "$tmp/crew2" -- "$isekit" run example "$tmp/crew.ll" --warn-conflicts
expect_in "$tmp/crew2" "conflicts: 1 CREW"
printf 'mac gr0, gr1\nclracc\n' >"$tmp/clash.ll"
run 1 "$tmp/clash" -- "$isekit" run example "$tmp/clash.ll"
expect_in "$tmp/clash" "resource clash in example"
printf 'delay 9\ndelay 9\ndelay 9\ndelay 9\ndelay 9\n' >"$tmp/slots.ll"
run 1 "$tmp/slots" -- "$isekit" run example "$tmp/slots.ll"
expect_in "$tmp/slots" "clock 4: example: no free slot for Delay"

finish example
