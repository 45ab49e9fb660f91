#!/bin/sh
# isekit run on a processor model: sources assembled and linked on the fly, executables, the
# instruction trace, --show, and faults. Uses the tiny test processor (tests/asm/models/tiny.c).
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"
model="$src/tests/asm/models/tiny.c"

cat >"$tmp/sum.s" <<'S'
        .text
        .global _start
_start: li r1, 10
        li r2, 0
loop:   add r2, r2, r1
        addi r1, r1, -1
        bne r1, r0, loop
        li r3, result
        st r2, 0(r3)
        halt
        .data
result: .long 0
S
run 0 "$tmp/run" -- "$isekit" run "$model" "$tmp/sum.s" --show 'R[2]' --show 'DMEM[0]'
expect_in "$tmp/run" 'summary: 35 clocks, 35 instructions (1.000 per clock)'
expect_in "$tmp/run" 'context 0: 35 instructions, stopped at pc 0x7'
expect_in "$tmp/run" 'R[2] = 55 (0x37)'
expect_in "$tmp/run" 'DMEM[0] = 55 (0x37)'

# the same program as an executable, with the instruction trace
run 0 "$tmp/build" -- "$isekit" build -m "$model" "$tmp/sum.s" -o "$tmp/sum.elf"
run 0 "$tmp/trace" -- "$isekit" run "$model" "$tmp/sum.elf" --trace
expect_in "$tmp/trace" 'ctx 0  pc 0x0002  22210000  add r2, r2, r1'
expect_in "$tmp/trace" 'bne r1, r0, 0x2'
# the values written, latency 0 included, right after the instruction that wrote them, and the
# context's stop (typed events: issue, storage changed, context changed)
expect_in "$tmp/trace" '      32  tiny   R[3] = 65536'
expect_in "$tmp/trace" '      33  tiny   DMEM[0] = 55'
expect_in "$tmp/trace" '      34  tiny   context 0 running -> stopped at pc 0x7'
# a model that writes its cells directly (the PicoBlaze's registers and flags): the changes
# are traced all the same
run 0 "$tmp/pbtrace" -- "$isekit" run kcpsm6 "$src/models/picoblaze/examples/count.psm" --trace --stop-port 0xFF
expect_in "$tmp/pbtrace" '       4  kcpsm6 REGS[0] (s0) = 6'
expect_in "$tmp/pbtrace" '       6  kcpsm6 CONTROL[0] (C) = 1'
run 3 "$tmp/max" -- "$isekit" run "$model" "$tmp/sum.elf" --max-clocks 10
expect_in "$tmp/max" "isekit run: --max-clocks reached: stopped at clock 10"
expect_in "$tmp/max" "context 0: 10 instructions, running at pc 0x4"

# faults: an illegal instruction, a name that does not exist
printf '        .text\n        .global _start\n_start: li r1, 1\n        .long 0xf0000000\n' >"$tmp/bad.s"
run 1 "$tmp/bad" -- "$isekit" run "$model" "$tmp/bad.s"
expect_in "$tmp/bad" 'clock 1, tiny context 0, pc 0x1: illegal instruction 0xf0000000'
run 1 "$tmp/show" -- "$isekit" run "$model" "$tmp/sum.s" --show NOPE
expect_in "$tmp/show" "has no storage or register named 'NOPE'"
run 1 "$tmp/asm" -- "$isekit" run "$model" "$tmp/nothere.s"
expect_in "$tmp/asm" 'nothere.s'

finish processor
