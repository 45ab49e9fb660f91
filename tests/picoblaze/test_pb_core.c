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

/* The fast loop (pb_run.h) keeps each cache entry's case in the entry: a word rewritten while
 * the program runs must run as the new instruction. The port 01 handler writes `word` at
 * `index` at its `at`-th write; the run ends at the write to FF. */
typedef struct rewrite_bench {
    isk_ref irom;
    uint64_t index;
    uint32_t word;
    int at, writes;
    unsigned final;
    bool done;
} rewrite_bench;

static void rewrite_write(void *user, isk_inst *pb, uint64_t port, uint64_t value)
{
    rewrite_bench *b = user;
    if (port == 0x01 && ++b->writes == b->at) {
        b->irom.index = b->index;
        isk_ref_write(&b->irom, b->word);
    }
    if (port == 0xFF) {
        b->done = true;
        b->final = (unsigned)value;
        isk_context_of(pb, 0)->state = ISK_CTX_STOPPED;
    }
}

/* Run `text` on `core`, with `replacement` (one instruction) written at `index` at the `at`-th
 * write to port 01: the value written to FF and the instructions issued. */
static void run_rewritten(const char *core, const char *text, const char *replacement, uint64_t index, int at,
                          unsigned final, uint64_t insns)
{
    psm_run new_run, main_run;
    psm_program *a = psm_try(&new_run, core, replacement);
    psm_program *p = psm_try(&main_run, core, text);
    CHECK(a != NULL && p != NULL);
    if (a && p) {
        isk_system *sys = isk_system_new(&(isk_system_options){ .diag = &main_run.diag });
        isk_inst *pb = isk_system_add(sys, main_run.model, "pb");
        rewrite_bench b = { .index = index, .word = (uint32_t)a->words[0], .at = at };
        CHECK_EQ(isk_lookup(pb, "IROM", &b.irom), ISK_OK);
        for (size_t w = 0; w < p->size; w++) {
            b.irom.index = w;
            isk_ref_write(&b.irom, p->words[w]);
        }
        isk_set_ports(pb, NULL, rewrite_write, &b);
        isk_run(sys, 10000);
        CHECK(b.done);
        CHECK_EQ(b.final, final);
        CHECK_EQ(isk_context_of(pb, 0)->insns, insns);
        isk_system_free(sys);
    }
    psm_done(&new_run);
    psm_done(&main_run);
}

/* The LOAD at 000 becomes an ADD at the third write, after the LOAD ran inline (an entry runs
 * through its behaviour when first met, which decodes it); a stale case would run the LOAD
 * again and loop. The second program's COMPARE and JUMP NZ run as one fused case from the
 * second pass on; at the third write the JUMP NZ becomes a JUMP Z, so the loop ends at s1 = 3
 * (a stale pair would go on to 5). */
static void test_rewritten_code(void)
{
    const char *cores[] = { "kcpsm3", "kcpsm6" };
    for (int i = 0; i < 2; i++) {
        run_rewritten(cores[i],
                      "start:  LOAD s0, 01\n"
                      "        OUTPUT s0, 01\n"
                      "        COMPARE s0, 02\n"
                      "        JUMP NZ, start\n"
                      "        OUTPUT s0, FF\n", "ADD s0, 01\n", 0, 3, 2, 17);
        run_rewritten(cores[i],
                      "        LOAD s1, 00\n"
                      "loop:   ADD s1, 01\n"
                      "        OUTPUT s1, 01\n"
                      "        COMPARE s1, 05\n"
                      "        JUMP NZ, loop\n"
                      "        OUTPUT s1, FF\n", "JUMP Z, 001\n", 4, 3, 3, 14);
    }
}

/* A fused pair entered at its second word: odd values of s0 reach the JUMP Z at `mid` from
 * below, with the flags of the SUB there, not through the SUB at `top` (whose pair would
 * subtract again). s1 counts the passes: 10 down to 0 is 10 of them, each one SUB. */
static const char pair_entered[] =
    "            LOAD s0, 0A\n"
    "            LOAD s1, 00\n"
    "top:        SUB s0, 01\n"
    "mid:        JUMP Z, done\n"
    "            ADD s1, 01\n"
    "            TEST s0, 01\n"
    "            JUMP Z, top\n"
    "            SUB s0, 01\n"
    "            JUMP mid\n"
    "done:       OUTPUT s1, FF\n";

static void test_fused_pair_entered(void)
{
    const char *cores[] = { "kcpsm3", "kcpsm6" };
    for (int i = 0; i < 2; i++) {
        pb_bench b;
        CHECK(pb_bench_run(&b, cores[i], pair_entered, NULL));
        CHECK_EQ(pb_read(&b, "REGS", 0), 0);
        CHECK_EQ(b.value[0], 9);
        /* 2 LOADs, 10 passes (5 SUBs at top, 5 below with their JUMP, 10 JUMP Zs at mid),
         * 9 * (ADD, TEST, JUMP Z), the OUTPUT */
        CHECK_EQ(isk_context_of(b.pb, 0)->insns, 2 + 20 + 27 + 5 + 1);
        CHECK_EQ(b.clock[0], 2 * 55);
        pb_bench_close(&b);
    }
}

/* A run's limit between the two instructions of a fused pair: the program of
 * test_fused_pair_entered run in steps of 1 to 7 clocks (an instruction takes 2) ends exactly
 * as one run does, and a step ending after a SUB leaves the PC on the JUMP that follows it. */
static void test_fused_pair_split(void)
{
    const char *cores[] = { "kcpsm3", "kcpsm6" };
    for (int i = 0; i < 2; i++)
        for (uint64_t step = 1; step <= 7; step++) {
            pb_bench b;
            memset(&b, 0, sizeof b);
            psm_program *p = psm_try(&b.assembled, cores[i], pair_entered);
            CHECK(p != NULL);
            if (!p) continue;
            b.sys = isk_system_new(&(isk_system_options){ .diag = &b.assembled.diag });
            b.pb = isk_system_add(b.sys, b.assembled.model, "pb");
            isk_ref irom;
            CHECK_EQ(isk_lookup(b.pb, "IROM", &irom), ISK_OK);
            for (size_t w = 0; w < p->size; w++) {
                irom.index = w;
                isk_ref_write(&irom, p->words[w]);
            }
            isk_set_ports(b.pb, pb_bench_read, pb_bench_write, &b);
            int split = 0;
            for (int n = 0; n < 1000 && !b.done; n++) {
                isk_step(b.sys, step);
                const isk_context *c = isk_context_of(b.pb, 0);
                /* after the SUB at top (002) with the budget spent: the PC is the JUMP's (003) */
                if (c->pc == 3 && c->insns > 12 && !b.done) split++;
            }
            CHECK(b.done);
            CHECK_EQ(b.value[0], 9);
            CHECK_EQ(b.clock[0], 2 * 55);
            CHECK_EQ(isk_context_of(b.pb, 0)->insns, 55);
            if (step <= 2) CHECK(split > 0);
            pb_bench_close(&b);
        }
}

int main(void)
{
    test_rewritten_code();
    test_fused_pair_entered();
    test_fused_pair_split();
    test_nested_interrupts();
    test_abandoned_regbank();
    test_underflow();
    test_parameters();
    test_outputk();
    test_illegal_instruction();
    test_pc_wrap();
    return CHECK_DONE();
}
