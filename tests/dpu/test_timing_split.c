/* timing=detailed's kept pick (models/dpu/dpu.c: the after-issue hook finds the next issuer,
 * the pick reuses it until the contexts change): a kernel with register-file stalls, DMAs and
 * threads that stop at different times, run whole, split at many clock limits (each run
 * begins with the engine's view of the contexts renewed), and on the general path (a
 * before-issue hook that never stops takes the engine off its fast loop), ends in the same
 * cycle with the same instructions and results, and with the statistics it had before. */
#include "check.h"
#include "dpu_harness.h"

/* Thread t: 6 + t rounds of a WRAM sum with even and odd register pairs (extra cycles in the
 * register-file stage), an ldma every round (its thread blocks: attention), then stop. */
static const char *const program[] = {
    "add r4, id, 6",                    /* 0: rounds */
    "lsl r1, id, 6",                    /* 1: r1 = t * 64 */
    "move r2, 8",                       /* 2: loop */
    "lw r5, r1, 0",                     /* 3 */
    "add r3, r3, r5",                   /* 4 */
    "add r6, r2, r4",                   /* 5: two even */
    "xor r7, r3, r5",                   /* 6: two odd */
    "sw r1, 0, r7",                     /* 7 */
    "sub r2, r2, 1, nz, 3",             /* 8 */
    "ldma r1, r1, 7",                   /* 9: 64 bytes from MRAM t * 64 */
    "sub r4, r4, 1, nz, 2",             /* 10 */
    "stop",                             /* 11 */
    NULL,
};

static int never(void *user, uint64_t clock, isk_inst *proc, uint32_t context, uint64_t pc)
{
    (void)user, (void)clock, (void)proc, (void)context, (void)pc;
    return 0;
}

typedef struct outcome {
    uint64_t clock, rf_stall, rf_in_dma, instructions, idle;
    uint32_t r3[16];
} outcome;

/* limit 0: one run; otherwise runs of `limit` clocks until the kernel ends */
static outcome run(uint64_t limit, bool general)
{
    dpu_harness h;
    dh_open(&h, "cycle");
    if (general) isk_set_before_issue(h.sys, never, NULL);
    CHECK_EQ(isk_set_param(h.dpu, "timing", "detailed"), ISK_OK);
    dh_load(&h, program);
    for (int t = 1; t < 16; t++) isk_start(h.dpu, (uint32_t)t, 0);
    isk_status st;
    int runs = 0;
    while ((st = isk_run(h.sys, limit)) == ISK_OK && limit && runs < 1000000) runs++;
    CHECK_EQ(st, ISK_STOPPED);
    outcome o = { .clock = isk_clock(h.sys), .rf_stall = h.S->rf_stall_cycles,
                  .rf_in_dma = h.S->rf_stall_in_dma_wait };
    isk_stats s;
    isk_inst_stats(h.dpu, &s);
    o.instructions = s.instructions;
    o.idle = s.idle_clocks;
    for (int t = 0; t < 16; t++) o.r3[t] = dh_reg(&h, t, 3);
    dh_close(&h);
    return o;
}

/* The cycle, the instructions and the results are those of the whole run; the statistics
 * of where the cycles went depend on how the engine stepped through them (the fast loop skips
 * a stall the after-issue hook foresees, the general path and a run's end count each cycle as
 * idle), so they are compared with the figures the model gave before it kept a pick. */
static void check_same(const outcome *a, const outcome *b, uint64_t limit, bool general, uint64_t rf_stall,
                       uint64_t rf_in_dma, uint64_t idle)
{
    if (b->clock != a->clock || b->instructions != a->instructions || b->rf_stall != rf_stall ||
        b->rf_in_dma != rf_in_dma || b->idle != idle)
        fprintf(stderr, "limit %llu%s: cycle %llu, %llu instructions, stalls %llu/%llu, %llu idle\n",
                (unsigned long long)limit, general ? " (general path)" : "", (unsigned long long)b->clock,
                (unsigned long long)b->instructions, (unsigned long long)b->rf_stall,
                (unsigned long long)b->rf_in_dma, (unsigned long long)b->idle);
    CHECK_EQ(b->clock, a->clock);
    CHECK_EQ(b->instructions, a->instructions);
    CHECK(memcmp(b->r3, a->r3, sizeof a->r3) == 0);
    CHECK_EQ(b->rf_stall, rf_stall);
    CHECK_EQ(b->rf_in_dma, rf_in_dma);
    CHECK_EQ(b->idle, idle);
}

int main(void)
{
    const outcome whole = run(0, false);
    CHECK_EQ(whole.clock, 21321);
    CHECK_EQ(whole.instructions, 11064);
    check_same(&whole, &whole, 0, false, 7108, 41, 3232);
    const outcome general = run(0, true);
    check_same(&whole, &general, 0, true, 7025, 0, 10257);
    /* limit, register-file stall cycles, of those in DMA wait, idle cycles */
    static const uint64_t split[][4] = {
        { 1, 14889, 4139, 10257 }, { 2, 10972, 2079, 7035 }, { 3, 9712, 1406, 5797 }, { 5, 8664, 847, 4756 },
        { 7, 8246, 634, 4355 },    { 11, 7804, 392, 3918 },  { 13, 7706, 361, 3821 }, { 16, 7585, 288, 3704 },
        { 17, 7578, 277, 3689 },   { 29, 7380, 189, 3501 },  { 64, 7233, 103, 3356 }, { 101, 7187, 78, 3309 },
        { 997, 7112, 42, 3236 },
    };
    for (size_t i = 0; i < sizeof split / sizeof split[0]; i++) {
        const outcome parts = run(split[i][0], false);
        check_same(&whole, &parts, split[i][0], false, split[i][1], split[i][2], split[i][3]);
    }
    const outcome general_parts = run(3, true);
    check_same(&whole, &general_parts, 3, true, 7025, 0, 10257);
    printf("16 tasklets, timing=detailed: %llu cycles, %llu register-file stall cycles; the same cycle split at "
           "%zu limits and on the general path\n",
           (unsigned long long)whole.clock, (unsigned long long)whole.rf_stall, sizeof split / sizeof split[0]);
    return CHECK_DONE();
}
