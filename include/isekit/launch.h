/* Launch commands from C on the rv32 host (docs/rv32.md, "Launch commands and the system"):
 *
 *     #include <isekit/launch.h>
 *     isk_launch(0, 0xc01005);        // hand the word to accelerator 0: one instruction, one clock
 *
 * isk_launch(N, word) emits the custom-0 instruction `launch N, rs1` (opcode 0x0B, funct3 0,
 * rd x0, imm = N) with word in rs1. N is a constant 0..4095, the accelerator's number in the
 * system file (`accelerator = N`); word any expression, which the accelerator decodes with its
 * own formats. The assembler needs nothing of isekit: `.insn i` is GNU as syntax, so the same
 * source builds with a stock riscv64-unknown-elf-gcc (-I include of isekit's tree). */
#ifndef ISEKIT_LAUNCH_H
#define ISEKIT_LAUNCH_H

#include <stdint.h>

#define isk_launch(N, word) \
    __asm__ volatile(".insn i 0x0B, 0, x0, %0, %1" : : "r"((uint32_t)(word)), "i"(N) : "memory")

/* The processor's clock (mcycle through rdcycle): the clocks a command takes, measured. */
static inline uint32_t isk_rdcycle(void)
{
    uint32_t c;
    __asm__ volatile("rdcycle %0" : "=r"(c));
    return c;
}

#endif
