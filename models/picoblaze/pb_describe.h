/* The parts of the description both cores share: storage names, parameters, operand kinds,
 * the reset. The instruction encodings are each core's own (kcpsm3.c, kcpsm6.c). */
#ifndef PB_DESCRIBE_H
#define PB_DESCRIBE_H

#include "pb_state.h"

static void pb_on_reset(isk_hdr *h)
{
    struct isk_state *S = (struct isk_state *)(void *)h;
    pb_read_params(S);
    CELLS(CONTROL)[PB_SP] = PB_STACK_RESETS ? 0 : 31;       /* section 8: KCPSM3 starts at 31, KCPSM6 at 0 */
}

static void pb_describe_common(isk_builder *B)
{
    WORD_BITS(18);
    /* KCPSM3 has a 64-byte scratchpad and its vector fixed at 3FF; KCPSM6 chooses both */
    PARAM_INT("scratchpad_size", 64, 64, PB_CORE == 6 ? 256 : 64, "scratchpad bytes", .pow2 = 1);
    PARAM_INT("interrupt_vector", 0x3FF, PB_CORE == 6 ? 0 : 0x3FF, PB_CORE == 6 ? PB_PC_MASK : 0x3FF,
              "the program address an interrupt calls", .hex = 1);
    PARAM_INT("hwbuild", 0, 0, 0xFF, "the value HWBUILD loads (KCPSM6)", .hex = 1);
    /* Facts the tools and host code read instead of guessing from word or register counts:
     * one allowed value each, so they are not choices. */
    PARAM_INT("core", PB_CORE, PB_CORE, PB_CORE, "the PicoBlaze core: KCPSM3 or KCPSM6 (a fact of the model)");
    PARAM_ENUM("syntax", "psm", "psm", "its assembly language: .psm, isekit psm (a fact of the model)");
    ON_RESET(pb_on_reset);

    MEMORY(IROM, "Program ROM");
    REGFILE_BEGIN(REGS, "Registers")
        static const char *const names[32] = {
            "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "sA", "sB", "sC", "sD", "sE", "sF",
            "B.s0", "B.s1", "B.s2", "B.s3", "B.s4", "B.s5", "B.s6", "B.s7",
            "B.s8", "B.s9", "B.sA", "B.sB", "B.sC", "B.sD", "B.sE", "B.sF",
        };
        for (unsigned i = 0; i < 16u * PB_BANKS; i++) REGISTER(i, names[i]);
    REGFILE_END()
    REGFILE_BEGIN(CONTROL, "Flags and control")
        static const char *const control[] = PB_CONTROL_NAMES;
        for (unsigned i = 0; i < sizeof control / sizeof *control; i++) REGISTER(i, control[i]);
    REGFILE_END()
    MEMORY(SPM, "Scratchpad");
    MEMORY(STACK, "Call stack");
    REG(INTERRUPTS, "Interrupts taken");
    REG(RESETS, "Internal resets");

    PROCESSOR(.code = "IROM", .contexts = 1, .issue = ISK_ISSUE_CPI, .cpi = 2, .reset_pc = 0,
              .code_bytes = 4, .pc_unit_bytes = 4, .burst = pb_burst);

    KIND_NAMES("reg", "s0=0 s1=1 s2=2 s3=3 s4=4 s5=5 s6=6 s7=7 s8=8 s9=9 sA=10 sB=11 sC=12 sD=13 sE=14 sF=15");
    KIND_NAMES("cond", "Z=0 NZ=1 C=2 NC=3");
    KIND_NAMES("irq", "DISABLE=0 ENABLE=1");
    KIND_INT("kk", .hex = 1);
    KIND_ABS("aaa", .hex = 1);
}

#endif
