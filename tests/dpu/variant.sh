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
# The variant's steady round dispatches through its switch (tests.cmake) rather than computed
# goto: 16 threads, each booting the next, run a loop of every kind of case (an inlined ALU
# instruction, a store and a load, a call and its return, a branch) and one through its
# behaviour (boot); thread t ends with r1 = 100t and r4 = 5050t (the sum of k*t, k = 1..100),
# after 706 instructions (705 for thread 15, which boots none).
cat >"$tmp/threads.s" <<'EOF'
    .text
    .globl main
main:
    jeq id, 15, start
    boot id, 1
start:
    move r1, 0
    move r2, 100
    move r4, 0
loop:
    add r1, id, r1
    sw id4, 0, r1
    lw r3, id4, 0
    call r23, bump
    sub r2, r2, 1, nz, loop
    stop
bump:
    add r4, r4, r3
    jump r23
EOF
for mode in functional cycle; do
    run 0 "$tmp/$mode" -- "$isekit" run "$so" "$tmp/threads.s" --param mode=$mode --show 'R[484]' --show 'R[228]' \
        --show 'R[481]'
    expect_in "$tmp/$mode" 'context 0: 706 instructions, stopped at pc 0xb'
    expect_in "$tmp/$mode" 'context 15: 705 instructions, stopped at pc 0xb'
    expect_in "$tmp/$mode" 'R[484] = 75750 (0x127e6)'   # t15.r4
    expect_in "$tmp/$mode" 'R[228] = 35350 (0x8a16)'    # t7.r4
    expect_in "$tmp/$mode" 'R[481] = 1500 (0x5dc)'      # t15.r1
done
expect_in "$tmp/functional" 'summary: 11295 clocks, 11295 instructions'
expect_in "$tmp/cycle" 'summary: 11395 clocks, 11295 instructions'
run 1 "$tmp/base" -- "$isekit" as -m dpu "$tmp/xs.s" -o "$tmp/base.o"
expect_in "$tmp/base" "xs.s:6:5: error: unknown instruction 'xorswap' for model 'dpu'"
finish variant
