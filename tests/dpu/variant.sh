#!/bin/sh
# The DPU variant with xorswap (tests/dpu/tests.cmake) as a user drives it: assembled by
# `isekit as`, listed by `isekit objdump`, run by `isekit run`; the built-in DPU refuses it.
# usage: variant.sh ISEKIT SOURCE_DIR MODEL_SO
isekit=$1
src=$2
so=$3
. "$src/tests/cli/lib/common.sh"

printf '    .text\n    .globl main\nmain:\n    move r2, 0x12345678\n    move r3, 0xffff\n    xorswap r1, r2, r3\n    stop\n' \
    >"$tmp/xs.s"
run 0 "$tmp/as" -- "$isekit" as -m "$so" "$tmp/xs.s" -o "$tmp/xs.o"
run 0 "$tmp/dump" -- "$isekit" objdump -m "$so" "$tmp/xs.o"
expect_in "$tmp/dump" 'c088c0860000	xorswap r1, r2, r3'
run 0 "$tmp/run" -- "$isekit" run "$so" "$tmp/xs.s" --show 'R[1]'
expect_in "$tmp/run" 'R[1] = 2844201524 (0xa9871234)'
run 1 "$tmp/base" -- "$isekit" as -m dpu "$tmp/xs.s" -o "$tmp/base.o"
expect_in "$tmp/base" "xs.s:6:5: error: unknown instruction 'xorswap' for model 'dpu'"
finish variant
