/* PicoBlaze behaviour the run vectors do not reach (picoblaze-isa.md sections 6-10): nested
 * interrupts (KCPSM3's single shadow register against KCPSM6's stacked flags), the abandoned
 * REGBANK quirk, stack underflow (KCPSM3 wraps, KCPSM6 resets), the parameters, OUTPUTK,
 * illegal instructions and the program counter's wrap. */
#include "pb_harness.h"

/* The flags the main program sees after a nested interrupt, written to port 40 (bit0 Z, bit1 C). */
static const char nested[] =
    "            ENABLE INTERRUPT\n"
    "            LOAD s0, FF\n"
    "            ADD s0, 01          ; Z=1 C=1\n"
    "            OUTPUT s0, FC       ; first request\n"
    "            LOAD s1, s1         ; taken after this\n"
    "            JUMP Z, z_set       ; branch on the flags, which LOAD leaves alone\n"
    "            LOAD sE, 00\n"
    "            JUMP NC, report\n"
    "            LOAD sE, 02\n"
    "            JUMP report\n"
    "z_set:      LOAD sE, 01\n"
    "            JUMP NC, report\n"
    "            LOAD sE, 03\n"
    "report:     OUTPUT sE, 40\n"
    "            OUTPUT sA, FF\n"
    "isr:        ADD sA, 01\n"
    "            COMPARE sA, 01\n"
    "            JUMP NZ, inner\n"
    "            ENABLE INTERRUPT    ; allow a nested one\n"
    "            LOAD s2, 01\n"
    "            SUB s2, 02          ; Z=0 C=1 at the inner entry\n"
    "            OUTPUT s2, FC       ; second request\n"
    "            LOAD s1, s1\n"
    "            RETURNI ENABLE      ; the outer return\n"
    "inner:      RETURNI ENABLE\n"
    "            ADDRESS 3FF\n"
    "            JUMP isr\n";

static void test_nested_interrupts(void)
{
    pb_bench b;
    CHECK(pb_bench_run(&b, "kcpsm6", nested, NULL));
    CHECK_EQ(pb_read(&b, "INTERRUPTS", 0), 2);
    CHECK_EQ(b.value[b.nwrites - 2], 3);        /* KCPSM6: the outer entry's Z=1 C=1 came back */
    pb_bench_close(&b);
    CHECK(pb_bench_run(&b, "kcpsm3", nested, NULL));
    CHECK_EQ(pb_read(&b, "INTERRUPTS", 0), 2);
    CHECK_EQ(b.value[b.nwrites - 2], 2);        /* KCPSM3: the shadow holds the inner's Z=0 C=1 */
    pb_bench_close(&b);
}

/* KCPSM6: an interrupt that abandons REGBANK B still switches the bank (after saving bank A);
 * the ISR runs in bank B, RETURNI restores A, and the REGBANK runs again. */
static void test_abandoned_regbank(void)
{
    pb_bench b;
    CHECK(pb_bench_run(&b, "kcpsm6",
                       "            ENABLE INTERRUPT\n"
                       "            OUTPUT s0, FC\n"
                       "            LOAD s1, s1         ; taken after this; REGBANK B is abandoned\n"
                       "            REGBANK B\n"
                       "            HWBUILD s9\n"
                       "            OUTPUT s5, FF\n"
                       "isr:        LOAD s5, 77         ; bank B already\n"
                       "            RETURNI DISABLE\n"
                       "            ADDRESS 3FF\n"
                       "            JUMP isr\n",
                       (const char *const[]){ "hwbuild", "0x5C", NULL }));
    CHECK_EQ(pb_read(&b, "REGS", 16 + 5), 0x77);     /* B.s5 */
    CHECK_EQ(pb_read(&b, "REGS", 5), 0);
    CHECK_EQ(pb_read(&b, "BANK", 0), 1);
    CHECK_EQ(pb_read(&b, "REGS", 16 + 9), 0x5C);     /* HWBUILD in bank B */
    CHECK_EQ(b.value[b.nwrites - 1], 0x77);
    pb_bench_close(&b);
}

/* A RETURN with an empty stack: KCPSM6 resets after the next instruction (2 idle clocks), with
 * registers kept; KCPSM3 just returns to stale stack contents. */
static void test_underflow(void)
{
    static const char program[] =
        "            ADD sF, 01          ; boots\n"
        "            COMPARE sF, 02\n"
        "            JUMP Z, done\n"
        "            RETURN              ; empty stack\n"
        "done:       OUTPUT sF, FF\n";
    pb_bench b;
    CHECK(pb_bench_run(&b, "kcpsm6", program, NULL));
    CHECK_EQ(pb_read(&b, "RESETS", 0), 1);
    CHECK_EQ(pb_read(&b, "REGS", 15), 2);
    /* 0 1 2 3 (RETURN), 1 (the next instruction), reset, 0 1 2 4: 9 instructions + 2 clocks */
    CHECK_EQ(isk_context_of(b.pb, 0)->insns, 9);
    CHECK_EQ(b.clock[b.nwrites - 1], 2 * 9 + 2);
    pb_bench_close(&b);

    /* KCPSM3 (sp 31 after reset): each RETURN pops a stack slot still 0 from power-up and goes
     * to 001, until the 32nd wraps sp back to 31 and pops the 003 the first RETURN left there:
     * 0 1 2 3, then 31 x (1 2 3), then 4 = 98 instructions, no reset */
    CHECK(pb_bench_run(&b, "kcpsm3", program, NULL));
    CHECK_EQ(pb_read(&b, "RESETS", 0), 0);
    CHECK_EQ(isk_context_of(b.pb, 0)->insns, 98);
    CHECK_EQ(pb_read(&b, "REGS", 15), 1);
    CHECK_EQ(pb_read(&b, "SP", 0), 31);
    pb_bench_close(&b);
}

static void test_parameters(void)
{
    static const char program[] =
        "            LOAD s1, 85\n"
        "            LOAD s0, 3C\n"
        "            STORE s0, (s1)\n"
        "            OUTPUT s0, FF\n";
    pb_bench b;
    CHECK(pb_bench_run(&b, "kcpsm6", program, (const char *const[]){ "scratchpad_size", "128", NULL }));
    CHECK_EQ(pb_read(&b, "SPM", 0x05), 0x3C);
    pb_bench_close(&b);
    CHECK(pb_bench_run(&b, "kcpsm6", program, (const char *const[]){ "scratchpad_size", "256", NULL }));
    CHECK_EQ(pb_read(&b, "SPM", 0x85), 0x3C);
    pb_bench_close(&b);
    CHECK(pb_bench_run(&b, "kcpsm3", program, NULL));     /* KCPSM3 has 64 bytes, no choice */
    CHECK_EQ(isk_set_param(b.pb, "scratchpad_size", "128"), ISK_FAILED);
    CHECK_STR(isk_last_error(b.sys), "pb: parameter scratchpad_size=128: 'scratchpad_size' is the integer 64");
    pb_bench_close(&b);
    /* a KCPSM6 interrupt vector elsewhere */
    CHECK(pb_bench_run(&b, "kcpsm6",
                       "            ENABLE INTERRUPT\n"
                       "            OUTPUT s0, FC\n"
                       "            LOAD s1, s1\n"
                       "            OUTPUT sA, FF\n"
                       "            ADDRESS 100\n"
                       "            LOAD sA, 42\n"
                       "            RETURNI ENABLE\n",
                       (const char *const[]){ "interrupt_vector", "0x100", NULL }));
    CHECK_EQ(pb_read(&b, "REGS", 10), 0x42);
    pb_bench_close(&b);
}

static void test_outputk(void)
{
    pb_bench b;
    CHECK(pb_bench_run(&b, "kcpsm6", "            OUTPUTK A5, 7\n            OUTPUT s0, FF\n", NULL));
    CHECK_EQ(b.port[0], PB_PORT_OUTPUTK(7));
    CHECK(PB_IS_OUTPUTK_PORT(b.port[0]));
    CHECK_EQ(b.value[0], 0xA5);
    pb_bench_close(&b);
}

static void test_illegal_instruction(void)
{
    pb_bench b;
    CHECK(!pb_bench_run(&b, "kcpsm3", "            LOAD s0, 01\n            INST 3FFFF\n            OUTPUT s0, FF\n", NULL));
    CHECK_EQ(b.status, ISK_FAULT);
    CHECK_CONTAINS(isk_last_error(b.sys), "illegal instruction 0x3ffff");
    CHECK_CONTAINS(isk_last_error(b.sys), "pc 0x1");
    pb_bench_close(&b);

    /* ignored bits: the disassembler shows what runs, as INST so that it assembles back */
    isk_diag diag;
    isk_diag_init(&diag);
    isk_model *m = isk_model_load("kcpsm3", &diag);
    char text[120];
    CHECK(!psm_disassemble(m, 0x19125, text, sizeof text));
    CHECK_STR(text, "INST 19125 ; executes as ADD s1, s2");
    CHECK(psm_disassemble(m, 0x19120, text, sizeof text));
    CHECK_STR(text, "ADD s1, s2");
    isk_model_release(m);
}

/* A sequential step past the last address wraps to 000 (the program counter has PB_PC_BITS):
 * the first pass jumps to the last two words, whose second ADD falls through to 000. */
static void test_pc_wrap(void)
{
    static const char *const core[] = { "kcpsm3", "kcpsm6" }, *const last[] = { "3FE", "FFE" };
    for (int i = 0; i < 2; i++) {
        char source[600];
        snprintf(source, sizeof source,
                 "            COMPARE s1, 00\n"
                 "            JUMP NZ, done\n"
                 "            LOAD s1, 01\n"
                 "            JUMP %s\n"
                 "done:       OUTPUT s0, FF\n"
                 "            ADDRESS %s\n"
                 "            ADD s0, 01\n"
                 "            ADD s0, 01\n", last[i], last[i]);
        pb_bench b;
        CHECK(pb_bench_run(&b, core[i], source, NULL));
        CHECK_EQ(pb_read(&b, "REGS", 0), 2);
        CHECK_EQ(pb_read(&b, "REGS", 1), 1);
        pb_bench_close(&b);
    }
}

/* pb_run.h classifies each INSTRUCTION line in a per-instance table of 128 entries indexed by
 * pattern + 1 (pb_state.h, pb_case): a core may have at most 127 lines. */
static void test_fast_loop_table_fits(void)
{
    const char *cores[] = { "kcpsm3", "kcpsm6" };
    for (int i = 0; i < 2; i++) {
        isk_model *m = isk_model_load(cores[i], NULL);
        CHECK(m != NULL);
        if (!m) continue;
        CHECK(isk_model_instruction_count(m) > 0);
        CHECK(isk_model_instruction_count(m) <= 127);
        isk_model_release(m);
    }
}

int main(void)
{
    test_fast_loop_table_fits();
    test_nested_interrupts();
    test_abandoned_regbank();
    test_underflow();
    test_parameters();
    test_outputk();
    test_illegal_instruction();
    test_pc_wrap();
    return CHECK_DONE();
}
