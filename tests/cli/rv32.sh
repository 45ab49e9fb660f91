#!/bin/sh
# The rv32 model (docs/rv32.md): our own instruction tests (tests/rv32/*.s, assembled and linked
# with isekit as/ld through the model's syntax) each exit with 0 or the number of the check that
# failed; semihosted output and exit status; clear faults for a trap without a vector and a wfi
# nothing can wake; a C program of riscv64-unknown-elf-gcc + picolibc when the toolchain is here.
# usage: rv32.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"

# build NAME SOURCE: assemble and link into $tmp/NAME.elf
build() {
    run 0 "$tmp/$1.as" -- "$isekit" as -m rv32 -I "$src/tests/rv32" "$2" -o "$tmp/$1.o" &&
        run 0 "$tmp/$1.ld" -- "$isekit" ld -m rv32 "$tmp/$1.o" -o "$tmp/$1.elf"
}

for t in alu muldiv mem flow traps timer; do
    build "$t" "$src/tests/rv32/$t.s"
    bounded 0 "$tmp/$t.out" -- "$isekit" run rv32 "$tmp/$t.elf"
done

# a multiply that costs 5 clocks: mcycle sees them, minstret does not
{ echo ".equ MULCYCLES, 5"; cat "$src/tests/rv32/traps.s"; } >"$tmp/traps5.s"
build traps5 "$tmp/traps5.s"
bounded 0 "$tmp/traps5.out" -- "$isekit" run rv32 --param mul_cycles=5 "$tmp/traps5.elf"
bounded 25 "$tmp/traps5b.out" -- "$isekit" run rv32 "$tmp/traps5.elf"

# semihosting: SYS_WRITE0, SYS_WRITEC, SYS_WRITE to ":tt", exit status 3
cat >"$tmp/hello.s" <<'S'
    .include "lib.inc"
    .text
    .globl _start
_start:
    LI32 sp, 0x80100000
1:  auipc a1, 0
    addi a1, a1, msg - 1b
    li a0, 4                  # SYS_WRITE0
    SEMI
    li t0, 0x21
    sw t0, 0(sp)
    li a0, 3                  # SYS_WRITEC '!'
    mv a1, sp
    SEMI
2:  auipc t0, 0
    addi t0, t0, tt - 2b
    sw t0, 0(sp)
    li t0, 4                  # mode "w": stdout
    sw t0, 4(sp)
    li t0, 3
    sw t0, 8(sp)
    li a0, 1                  # SYS_OPEN ":tt"
    mv a1, sp
    SEMI
    sw a0, 0(sp)
3:  auipc t0, 0
    addi t0, t0, line - 3b
    sw t0, 4(sp)
    li t0, 6
    sw t0, 8(sp)
    li a0, 5                  # SYS_WRITE 6 bytes
    mv a1, sp
    SEMI
    mv t5, a0                 # 0: all written
    addi t5, t5, 3
    EXIT_CODE
msg: .asciz "hello from rv32"
tt: .asciz ":tt"
line: .ascii " done\n"
S
build hello "$tmp/hello.s"
bounded 3 "$tmp/hello.out" -- "$isekit" run rv32 "$tmp/hello.elf"
expect_in "$tmp/hello.out" "hello from rv32! done"
expect_in "$tmp/hello.out" "exits with status 3"

# a trap with no vector (mtvec = 0 at reset) ends the run naming the cause, pc and mtval
printf '    .text\n    .globl _start\n_start:\n    nop\n    ecall\n' >"$tmp/ecall.s"
build ecall "$tmp/ecall.s"
bounded 1 "$tmp/ecall.out" -- "$isekit" run rv32 "$tmp/ecall.elf"
expect_in "$tmp/ecall.out" "environment call from M-mode (mcause 0xb) at pc 0x80000004, mtval 0x00000000, and no trap vector (mtvec = 0)"

printf '    .text\n    .globl _start\n_start:\n    .word 0\n' >"$tmp/zero.s"
build zero "$tmp/zero.s"
bounded 1 "$tmp/zero.out" -- "$isekit" run rv32 "$tmp/zero.elf"
expect_in "$tmp/zero.out" "illegal instruction (mcause 0x2) at pc 0x80000000, mtval 0x00000000"

# wfi with nothing enabled that could wake it
printf '    .text\n    .globl _start\n_start:\n    wfi\n' >"$tmp/wfi.s"
build wfi "$tmp/wfi.s"
bounded 1 "$tmp/wfi.out" -- "$isekit" run rv32 "$tmp/wfi.elf"
expect_in "$tmp/wfi.out" "wfi at pc 0x80000000 would sleep for ever"

# the disassembler prints the standard syntax with the pseudo-instructions
run 0 "$tmp/objdump.out" -- "$isekit" objdump -m rv32 -d "$tmp/hello.elf"
expect_in "$tmp/objdump.out" "auipc a1, 0x0"
expect_in "$tmp/objdump.out" "li a0, 4"
expect_in "$tmp/objdump.out" "sw t0, 0(sp)"
expect_in "$tmp/objdump.out" "mv a1, sp"

# C from Debian's riscv64-unknown-elf-gcc and picolibc (semihosted printf and exit)
if command -v riscv64-unknown-elf-gcc >/dev/null 2>&1 && [ -d /usr/lib/picolibc/riscv64-unknown-elf ]; then
    cat >"$tmp/c1.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    volatile int a = -7, z = 0, m = -2147483647 - 1, n = -1;
    volatile unsigned s = 33;
    printf("%d %d %u %d\n", a / 2, a % 3, (unsigned)a >> (s & 31), a << 3);
    printf("%d %d %d %d\n", m / n, m % n, a / (z + 1), (int)(0x80000000u >> (s & 31)));
    exit(5);
}
C
    run 0 "$tmp/c1.cc" -- riscv64-unknown-elf-gcc --specs=picolibc.specs --oslib=semihost -march=rv32im -mabi=ilp32 \
        -O2 -Wl,--defsym=__flash=0x80000000 -Wl,--defsym=__flash_size=0x400000 -Wl,--defsym=__ram=0x80400000 \
        -Wl,--defsym=__ram_size=0x400000 "$tmp/c1.c" -o "$tmp/c1.elf"
    bounded 5 "$tmp/c1.out" -- "$isekit" run rv32 "$tmp/c1.elf"
    expect_in "$tmp/c1.out" "-3 -1 2147483644 -56"
    expect_in "$tmp/c1.out" "-2147483648 0 -7 1073741824"
fi

finish rv32
