/* timing=detailed's kept pick (models/dpu/dpu.c: the after-issue hook finds the next issuer,
 * the pick reuses it until the contexts change): a kernel with register-file stalls, DMAs and
 * threads that stop at different times, run whole, split at many clock limits (each run
 * begins with the engine's view of the contexts renewed), and on the general path (a
 * before-issue hook that never stops takes the engine off its fast loop), ends in the same
 * cycle with the same instructions and results, and with the same statistics (the split of the
 * cycles in `isekit run dpu --cycles`); and so does a run that faults inside a stretch of the
 * detailed timing's own loop, whose stall count is then derived (dpu_rf_stalls). */
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

/* The same, but the first thread to finish faults (a misaligned load) where the others would
 * go on: the run ends inside a stretch of the detailed timing's own loop. */
static const char *const faulting[] = {
    "add r4, id, 6", "lsl r1, id, 6", "move r2, 8", "lw r5, r1, 0", "add r3, r3, r5", "add r6, r2, r4",
    "xor r7, r3, r5", "sw r1, 0, r7", "sub r2, r2, 1, nz, 3", "ldma r1, r1, 7", "sub r4, r4, 1, nz, 2",
    "lw r0, r1, 2",                     /* 11: t * 64 + 2, misaligned */
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

/* limit 0: one run; otherwise runs of `limit` clocks until the kernel ends (with `want`) */
static outcome run_program(const char *const *prog, isk_status want, uint64_t limit, bool general)
{
    dpu_harness h;
    dh_open(&h, "cycle");
    if (general) isk_set_before_issue(h.sys, never, NULL);
    CHECK_EQ(isk_set_param(h.dpu, "timing", "detailed"), ISK_OK);
    dh_load(&h, prog);
    for (int t = 1; t < 16; t++) isk_start(h.dpu, (uint32_t)t, 0);
    isk_status st;
    int runs = 0;
    while ((st = isk_run(h.sys, limit)) == ISK_OK && limit && runs < 1000000) runs++;
    CHECK_EQ(st, want);
    outcome o = { .clock = isk_clock(h.sys), .rf_stall = dpu_rf_stalls(h.S),
                  .rf_in_dma = h.S->rf_stall_in_dma_wait };
    isk_stats s;
    isk_inst_stats(h.dpu, &s);
    o.instructions = s.instructions;
    o.idle = s.idle_clocks;
    for (int t = 0; t < 16; t++) o.r3[t] = dh_reg(&h, t, 3);
    dh_close(&h);
    return o;
}

static outcome run(uint64_t limit, bool general) { return run_program(program, ISK_STOPPED, limit, general); }

/* The cycle, the instructions, the results and the statistics of where the cycles went
 * (register-file stalls, those in DMA wait, idle cycles) are those of the whole run, however
 * the engine stepped through it: the engine keeps the after-issue hook's "no issue before"
 * cycle across runs and on the general path, and the model counts a stall it foresaw once. */
static void check_same(const outcome *a, const outcome *b, uint64_t limit, bool general)
{
    if (b->clock != a->clock || b->instructions != a->instructions || b->rf_stall != a->rf_stall ||
        b->rf_in_dma != a->rf_in_dma || b->idle != a->idle)
        fprintf(stderr, "limit %llu%s: cycle %llu, %llu instructions, stalls %llu/%llu, %llu idle\n",
                (unsigned long long)limit, general ? " (general path)" : "", (unsigned long long)b->clock,
                (unsigned long long)b->instructions, (unsigned long long)b->rf_stall,
                (unsigned long long)b->rf_in_dma, (unsigned long long)b->idle);
    CHECK_EQ(b->clock, a->clock);
    CHECK_EQ(b->instructions, a->instructions);
    CHECK(memcmp(b->r3, a->r3, sizeof a->r3) == 0);
    CHECK_EQ(b->rf_stall, a->rf_stall);
    CHECK_EQ(b->rf_in_dma, a->rf_in_dma);
    CHECK_EQ(b->idle, a->idle);
}

int main(void)
{
    const outcome whole = run(0, false);
    CHECK_EQ(whole.clock, 21321);
    CHECK_EQ(whole.instructions, 11064);
    /* the figures of the whole run (before the engine kept the hook's cycle, the general
     * path counted 7,025 stall cycles and one-clock steps 14,889) */
    CHECK_EQ(whole.rf_stall, 7108);
    CHECK_EQ(whole.rf_in_dma, 41);
    CHECK_EQ(whole.idle, 3232);
    const outcome general = run(0, true);
    check_same(&whole, &general, 0, true);
    static const uint64_t split[] = { 1, 2, 3, 5, 7, 11, 13, 16, 17, 29, 64, 101, 997 };
    for (size_t i = 0; i < sizeof split / sizeof split[0]; i++) {
        const outcome parts = run(split[i], false);
        check_same(&whole, &parts, split[i], false);
    }
    const outcome general_steps = run(1, true), general_parts = run(3, true);
    check_same(&whole, &general_steps, 1, true);
    check_same(&whole, &general_parts, 3, true);
    /* a fault inside a stretch: the same split, whole, in parts and on the general path */
    const outcome fault = run_program(faulting, ISK_FAULT, 0, false);
    CHECK(fault.clock > 0 && fault.clock < whole.clock);
    CHECK(fault.rf_stall > 0);
    for (size_t i = 0; i < sizeof split / sizeof split[0]; i++) {
        const outcome parts = run_program(faulting, ISK_FAULT, split[i], false);
        check_same(&fault, &parts, split[i], false);
    }
    const outcome fault_general = run_program(faulting, ISK_FAULT, 0, true);
    check_same(&fault, &fault_general, 0, true);
    printf("16 tasklets, timing=detailed: %llu cycles, %llu register-file stall cycles; the same cycles "
           "and split at %zu limits and on the general path\n",
           (unsigned long long)whole.clock, (unsigned long long)whole.rf_stall, sizeof split / sizeof split[0]);
    return CHECK_DONE();
}
