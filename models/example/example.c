/* The reference accelerator of the ISE article (ISP RAS, "Dynamic support of processor
 * extensions in a cross-system", section 2.2), written with isekit's model API.
 *
 * The storage, the two operations and the three behaviours (Move, MAC, CONV) are the article's,
 * line for line where C allows; the other commands load registers and memories, set up LOOPREG
 * and write flags to shared memory, so that launch lists can drive the examples. Every command
 * word is 24 bits: bits 23:22 = 11 mark a launch, bits 21:20 (the wildcards) are the
 * accelerator number used by the processor's launch command. */
#include <isekit/model.h>

/* ---- storage ----------------------------------------------------------------------------- */

STATE_BEGIN
    DECLARE_MEMORY(INT(16, 3), 2048) LDM;          /* the article's local data memory, latency 3 */
    DECLARE_MEMORY(INT(64, 3), 2048) TM;
    DECLARE_REGISTERS_FILE(INT(16), 2) GRF;        /* general registers GR0, GR1 */
    DECLARE_REGISTERS_FILE(INT(16), 16) LRF;       /* local registers LR0..LR15 */
    DECLARE_REGISTER(UINT(36)) ACR;                /* the accumulator (ACC in the behaviours) */
    DECLARE_REGISTER(INT(32)) MULRES;              /* the multiplier's output register */
    DECLARE_REGISTERS_FILE(UINT(10), 16) AR;       /* address registers into DM0 and TM0 */
    DECLARE_REGISTER(UINT(16)) LOOPREG;
    DECLARE_MEMORY(INT(16), 1024) DM0;             /* CONV's operand memories */
    DECLARE_MEMORY(INT(16), 1024) TM0;
    DECLARE_MEMORY(INT(32), 256) SHM;              /* shared with the processor: flags */
STATE_END

/* The article writes ACC for the register it declares as ACR. */
#define ACC ACR

/* ---- resources and operations ------------------------------------------------------------ */

enum Resources { MAC_ADDER = 1, MAC_MULTIPLIER = 2, ALU_ADDER = 4 };

static int64_t ADD_36_36(STATE, int64_t a, int64_t b)
{
    UseResources(MAC_ADDER);
    return a + b;
}

/* The article's SMUL_16_16 lists no resource; we give it the multiplier, which the enum has,
 * so that two multiplies in one clock are caught. */
static int64_t SMUL_16_16(STATE, int64_t a, int64_t b)
{
    UseResources(MAC_MULTIPLIER);
    return (int64_t)(int16_t)a * (int16_t)b;
}

/* ---- behaviours: the article's three examples -------------------------------------------- */

/* 1 clock: register move. */
ACC_FUNCTION(Move_LREG_GREG, lreg, greg)
{
    SET(GRF, greg, GET(LRF, lreg));
    FinishCycle();
}

/* 2 clocks: multiply, then accumulate. Two launches in consecutive clocks overlap: the second
 * multiplies while the first accumulates (a pipeline). */
ACC_FUNCTION(MAC_LREG_GREG, grs, grt)
{
    SET(MULRES, SMUL_16_16(S, GET(GRF, grs), GET(GRF, grt)));
    FinishCycle();
    SET(ACC, ADD_36_36(S, GET(ACC), GET(MULRES)));
    FinishCycle();
}

/* Convolution of DM0 and TM0 from AR[dreg] and AR[treg]: LOOPREG + 2 clocks; several operations
 * on disjoint resources in one clock. At the end it interrupts the processor (conv, which
 * promises that clock in its first, so a processor may run ahead of it up to there), raises a
 * flag in shared memory (convf) or does neither (convq, an inert command: the processor polls
 * its accelerator instead). */
static void convolution(STATE, int64_t dreg, int64_t treg, int flag_cell)
{
    if (flag_cell == -1) PromiseEnd(GET(LOOPREG) + 2);
    SET(MULRES, SMUL_16_16(S, GET(DM0, GET(AR, dreg)), GET(TM0, GET(AR, treg))));
    SET(AR, dreg, GET(AR, dreg) + 1);
    SET(AR, treg, GET(AR, treg) + 1);       /* the article writes AR[dreg] twice: a typo */
    FinishCycle();
    while (GET(LOOPREG) > 0) {
        SET(ACC, ADD_36_36(S, GET(ACC), GET(MULRES)));
        SET(MULRES, SMUL_16_16(S, GET(DM0, GET(AR, dreg)), GET(TM0, GET(AR, treg))));
        SET(AR, dreg, GET(AR, dreg) + 1);
        SET(AR, treg, GET(AR, treg) + 1);
        SET(LOOPREG, GET(LOOPREG) - 1);
        FinishCycle();
    }
    SET(ACC, ADD_36_36(S, GET(ACC), GET(MULRES)));
    if (flag_cell == -1) InterruptProcessor();
    else if (flag_cell >= 0) SET(SHM, flag_cell, 1);
    FinishCycle();
}

ACC_FUNCTION(CONV_ACC_DM0_TM0, dreg, treg)
{
    convolution(S, dreg, treg, -1);
}

ACC_FUNCTION(CONVQ_ACC_DM0_TM0, dreg, treg)
{
    convolution(S, dreg, treg, -2);
}

ACC_FUNCTION(CONVF_ACC_DM0_TM0, f, d, t)
{
    convolution(S, d, t, (int)f);
}

/* ---- behaviours: set-up commands ---------------------------------------------------------- */

ACC_FUNCTION(Load_LREG_IMM, imm, lreg)       { SET(LRF, lreg, imm); }
ACC_FUNCTION(Load_GREG_IMM, imm, greg)       { SET(GRF, greg, imm); }
ACC_FUNCTION(Set_LOOPREG, count)             { SET(LOOPREG, count); }
ACC_FUNCTION(Set_AR, areg, addr)             { SET(AR, areg, addr); }
ACC_FUNCTION(Clear_ACC)                      { UseResources(MAC_ADDER); SET(ACC, 0); }
ACC_FUNCTION(Flag_SHM, cell, value)          { SET(SHM, cell, value); }
ACC_FUNCTION(Load_LREG_LDM, addr, lreg)      { SET(LRF, lreg, GET(LDM, addr)); }
ACC_FUNCTION(Store_LDM_LREG, addr, lreg)     { SET(LDM, addr, GET(LRF, lreg)); }
ACC_FUNCTION(Store_DM0_LREG, addr, lreg)     { SET(DM0, addr, GET(LRF, lreg)); }
ACC_FUNCTION(Store_TM0_LREG, addr, lreg)     { SET(TM0, addr, GET(LRF, lreg)); }

/* Sum of two general registers into LR15 on the ALU adder. */
ACC_FUNCTION(Add_GREG_GREG, grs, grt)
{
    UseResources(ALU_ADDER);
    SET(LRF, 15, GET(GRF, grs) + GET(GRF, grt));
}

/* Occupies its slot for n clocks (at least one), doing nothing: for timing experiments. */
ACC_FUNCTION(Delay, n)
{
    for (int64_t i = 0; i < n; i++) FinishCycle();
}

/* ---- description ------------------------------------------------------------------------- */

MODEL_BEGIN(example, "The ISE article's reference accelerator")
    WORD_BITS(24);
    SLOTS(4);

    MEMORY(LDM, "Acc LDM");
    MEMORY(TM, "Acc TM");
    REGFILE_BEGIN(GRF, "General Registers")
        REGISTER(0, "GR0");
        REGISTER(1, "GR1");
    REGFILE_END()
    /* The pipeline's own registers, which no processor reaches: PRIVATE (the memories, GRF and
     * ACR may be mapped on a processor's bus, e.g. models/rv32/examples/article/article.sys) */
    PRIVATE_REGFILE_BEGIN(LRF, "Local Registers")
        REGISTERS("LR%u");
    REGFILE_END()
    REG(ACR, "Accumulator");
    PRIVATE_REG(MULRES, "Multiplier result");
    PRIVATE_REGFILE_BEGIN(AR, "Address Registers")
        REGISTERS("AR%u");
    REGFILE_END()
    PRIVATE_REG(LOOPREG, "Loop counter");
    MEMORY(DM0, "Data memory 0");
    MEMORY(TM0, "Tap memory 0");
    SHARED_MEMORY(SHM, "Shared memory");

    RESOURCE(MAC_ADDER, "MAC adder");
    RESOURCE(MAC_MULTIPLIER, "MAC multiplier");
    RESOURCE(ALU_ADDER, "ALU adder");

    KIND_NAMES("gr", "gr0..gr1=0");
    KIND_NAMES("lr", "lr0..lr15=0");
    KIND_NAMES("ar", "ar0..ar15=0");

    /* The article's examples. Inert (.inert): the commands that neither interrupt nor touch SHM
     * (their clashes and faults would be a model's error); a processor runs ahead of them while
     * the storages they use are private in its system (docs/model-api.md "Inert commands"), and
     * of conv up to the clock its interrupt promised (.interrupts_at_end). */
    INSTRUCTION("11-**-0000-0000-0001-LREG-GREG", Move_LREG_GREG, "move {GREG:gr}, {LREG:lr}", .inert = 1);
    INSTRUCTION("11-**-0000-0000-0010-ssss-tttt", MAC_LREG_GREG, "mac {s:gr}, {t:gr}", .inert = 1);
    INSTRUCTION("11-**-0000-0000-0011-dddd-tttt", CONV_ACC_DM0_TM0, "conv acc, dm0[{d:ar}], tm0[{t:ar}]",
                .interrupts_at_end = 1);
    /* Set-up and synchronisation */
    INSTRUCTION("11-**-0000-0000-0100-0000-0000", Clear_ACC, "clracc");
    INSTRUCTION("11-**-0000-0000-0101-ssss-tttt", Add_GREG_GREG, "add lr15, {s:gr}, {t:gr}");
    INSTRUCTION("11-**-0000-ffff-0110-dddd-tttt", CONVF_ACC_DM0_TM0,
                "convf acc, dm0[{d:ar}], tm0[{t:ar}], shm[{f}]");
    INSTRUCTION("11-**-0001-iiiiiiiiiiii-rrrr", Load_LREG_IMM, "ldi {r:lr}, {i}", .fields = "i:s");
    INSTRUCTION("11-**-0010-0000-0000-iiii-rrrr", Load_GREG_IMM, "ldg {r:gr}, {i}", .fields = "i:s");
    INSTRUCTION("11-**-0011-0000-iiiiiiiiiiii", Set_LOOPREG, "setloop {i}", .inert = 1);
    INSTRUCTION("11-**-0100-00-aaaa-iiiiiiiiii", Set_AR, "setar {a:ar}, {i}", .inert = 1);
    INSTRUCTION("11-**-0101-aaaaaaaa-vvvvvvvv", Flag_SHM, "flag shm[{a}], {v}");
    INSTRUCTION("11-**-0110-aaaaaaaaaaaa-rrrr", Load_LREG_LDM, "ldm {r:lr}, ldm[{a}]");
    INSTRUCTION("11-**-0111-aaaaaaaaaaaa-rrrr", Store_LDM_LREG, "stm ldm[{a}], {r:lr}");
    INSTRUCTION("11-**-1000-00aaaaaaaaaa-rrrr", Store_DM0_LREG, "stdm dm0[{a}], {r:lr}");
    INSTRUCTION("11-**-1001-00aaaaaaaaaa-rrrr", Store_TM0_LREG, "sttm tm0[{a}], {r:lr}");
    INSTRUCTION("11-**-1010-0000-nnnnnnnnnnnn", Delay, "delay {n}", .inert = 1);
    /* last, so that the commands' numbers in traces stay as they were */
    INSTRUCTION("11-**-0000-0000-0111-dddd-tttt", CONVQ_ACC_DM0_TM0, "convq acc, dm0[{d:ar}], tm0[{t:ar}]",
                .inert = 1);
MODEL_END
