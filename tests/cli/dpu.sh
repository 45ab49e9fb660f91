#!/bin/sh
# isekit run dpu: programs in DPU assembly with the runtime, executables, and bad input.
# usage: dpu.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"
progs="$src/tests/dpu/programs"
# patch BYTE_OFFSET HEX_BYTES FILE: overwrite bytes of a file
patch() { printf "$2" | dd of="$3" bs=1 seek="$1" conv=notrunc 2>/dev/null; }

# "SU" immediates: the LLVM assembler takes -2^(n-1)..2^n-1 and encodes modulo 2^n
printf 'sb r0, 4, 255\nsb r0, 4, -1\nsh r1, 8, 0xffff\n' >"$tmp/su.s"
run 0 "$tmp/su" -- "$isekit" as -m dpu "$tmp/su.s" -o "$tmp/su.o"
run 0 "$tmp/su.dis" -- "$isekit" objdump -m dpu "$tmp/su.o"
[ "$(grep -c '7c03404f000f' "$tmp/su.dis")" -eq 2 ] || { fail "sb 255 and sb -1 differ:"; cat "$tmp/su.dis"; }
expect_in "$tmp/su.dis" 'sh r1, 8, -1'
printf 'sb r0, 4, 256\n' >"$tmp/su2.s"
run 1 "$tmp/su2" -- "$isekit" as -m dpu "$tmp/su2.s" -o "$tmp/su2.o"
expect_in "$tmp/su2" 'su2.s:1:11: error: operand imm: 256 is out of range [-128, 255]'
# the byte order is a literal of two decode entries (gen_isa.py): a wrong one names both
printf 'lw !middle, r0, r1, 0\n' >"$tmp/bo.s"
run 1 "$tmp/bo" -- "$isekit" as -m dpu "$tmp/bo.s" -o "$tmp/bo.o"
expect_in "$tmp/bo" "bo.s:1:4: error: expected '!little' or '!big'"

# sources with the runtime, several tasklets; printf output, results and statistics
run 0 "$tmp/vec" -- "$isekit" run dpu "$progs/vecadd.s" --tasklets 16 --cycles -o "$tmp/vecadd.elf"
expect_in "$tmp/vec" 'vecadd: 4096 elements, 0 errors, sum 33550336'
expect_in "$tmp/vec" 'dpu: v1A, cycle mode:'
expect_in "$tmp/vec" 'with a DMA in flight'
expect_in "$tmp/vec" 'dpu: tasklet  instructions  DMA cycles  DMA bytes  result (r0)'

# the executable it wrote runs alone, and objdump reads it
run 0 "$tmp/elf" -- "$isekit" run dpu "$tmp/vecadd.elf"
expect_in "$tmp/elf" 'vecadd: 4096 elements, 0 errors'
run 0 "$tmp/dump" -- "$isekit" objdump "$tmp/vecadd.elf"
expect_in "$tmp/dump" 'file format elf32-dpu'
expect_in "$tmp/dump" 'jnz id, 0x2'
expect_in "$tmp/dump" 'boot id, 1'
expect_in "$tmp/dump" 'ld d22, id8, '
run 1 "$tmp/mismatch" -- "$isekit" run dpu "$tmp/vecadd.elf" --tasklets 4
expect_in "$tmp/mismatch" 'was linked for NR_TASKLETS = 16, not 4'

# --trace prints every instruction
run 0 "$tmp/trace" -- "$isekit" run dpu "$progs/recursive.s" --trace --cycles
expect_in "$tmp/trace" 'jnz id, 0x2'
expect_in "$tmp/trace" 'call r23, '
# and the registers and flags each instruction changed (the call's link register)
expect_in "$tmp/trace" '        44  t0  R[23] (r23) = 6'
expect_in "$tmp/trace" '         0  t0  ZF[0] = 1'
expect_in "$tmp/trace" 'fib(10) = 55'

# a corrupted ELF, another e_machine, another ABI version, an oversized program: clear errors
cp "$tmp/vecadd.elf" "$tmp/trunc.elf"
dd if="$tmp/vecadd.elf" of="$tmp/trunc.elf" bs=1 count=100 2>/dev/null
run 1 "$tmp/e1" -- "$isekit" run dpu "$tmp/trunc.elf"
expect_in "$tmp/e1" 'trunc.elf'
cp "$tmp/vecadd.elf" "$tmp/machine.elf"
patch 18 '\076\000' "$tmp/machine.elf"                  # e_machine = 62 (x86-64)
run 1 "$tmp/e2" -- "$isekit" run dpu "$tmp/machine.elf"
expect_in "$tmp/e2" 'not a DPU executable: e_machine is 62'
cp "$tmp/vecadd.elf" "$tmp/abi.elf"
patch 39 '\003' "$tmp/abi.elf"                          # e_flags bits 31:24 = 3
run 1 "$tmp/e3" -- "$isekit" run dpu "$tmp/abi.elf"
expect_in "$tmp/e3" 'DPU ABI version 3 (e_flags 0x03800000); isekit runs ABI version 2'
printf '    .text\nmain:\n    .globl main\n    .rept 5000\n    nop\n    .endr\n' > "$tmp/big.s"
run 1 "$tmp/e4" -- "$isekit" run dpu "$tmp/big.s"
expect_in "$tmp/e4" "region 'IRAM' overflowed"
printf 'not an elf file\n' > "$tmp/junk.elf"
run 1 "$tmp/e5" -- "$isekit" run dpu "$tmp/junk.elf"

# a fault names the tasklet, the pc, the cycle and the fault code
printf '    .text\nmain:\n    .globl main\n    jnz id, 1f\n    fault 3\n1:  jump r23\n' > "$tmp/fault.s"
run 1 "$tmp/f1" -- "$isekit" run dpu "$tmp/fault.s" --tasklets 4 --cycles
expect_in "$tmp/f1" 'fault 3 (assertion failed) (fault code 3)'
expect_in "$tmp/f1" 'dpu: tasklet 0 faulted at pc 0x'
expect_in "$tmp/f1" 'fault 3'
expect_in "$tmp/f1" 'dpu: v1A, cycle mode: '      # and the statistics up to the fault
expect_in "$tmp/f1" 'in cycle'
# A fault inside the steady round, in an instruction it runs inline (models/dpu/round.h): 16
# tasklets loop 50 times, then tasklet 5 loads from a misaligned address, or tasklet 7 runs hash
# with uncertain=fault; the clock and pc are those the engine's own loop reports (the cycle mode
# counts the revolver's gaps and the staggered boot).
for what in "5 lw r3, r1, 2" "7 hash r3, r1, 3"; do
    set -- $what
    t=$1
    shift
    printf '    .text\nmain:\n    .globl main\n    move r1, 0\n    move r2, 50\nloop:\n    add r1, r1, 4\n    lw r3, r1, 0\n    sub r2, r2, 1, nz, loop\n    jneq id, %s, done\n    %s\ndone:\n    add r1, r1, 1\n    stop\n' \
        "$t" "$*" >"$tmp/round$t.s"
    run 1 "$tmp/rf$t" -- "$isekit" run dpu "$tmp/round$t.s" --tasklets 16 --param uncertain=fault
    run 1 "$tmp/rc$t" -- "$isekit" run dpu "$tmp/round$t.s" --tasklets 16 --param uncertain=fault --cycles
done
expect_in "$tmp/rf5" 'dpu: tasklet 5 faulted at pc 0x1bc (lw r3, r1, 2) in cycle 2429'
expect_in "$tmp/rf5" 'memory fault: load of 4 bytes at WRAM address 0xca is misaligned'
expect_in "$tmp/rc5" 'dpu: tasklet 5 faulted at pc 0x1bc (lw r3, r1, 2) in cycle 2549'
expect_in "$tmp/rf7" 'dpu: tasklet 7 faulted at pc 0x1bc (hash r3, r1, 3) in cycle 2471'
expect_in "$tmp/rc7" 'dpu: tasklet 7 faulted at pc 0x1bc (hash r3, r1, 3) in cycle 2595'
printf '    .text\nmain:\n    .globl main\n    move r0, 0x10001\n    lw r1, r0, 0\n    jump r23\n' > "$tmp/mem.s"
run 1 "$tmp/f2" -- "$isekit" run dpu "$tmp/mem.s"
expect_in "$tmp/f2" 'memory fault: load of 4 bytes at WRAM address 0x10001 is misaligned'
expect_in "$tmp/f2" 'fault code 256'

# usage
run 0 "$tmp/h" -- "$isekit" run dpu --help
run 2 "$tmp/u1" -- "$isekit" run dpu
run 2 "$tmp/u2" -- "$isekit" run dpu x.s --tasklets 30

finish dpu
