/* timing=detailed (models/dpu/dram.h, docs/dpu-timing.md): counts derived by hand from the
 * model's rules with uPIMulator's defaults (350 MHz logic, 2400 MHz memory, tRCD 32, tRAS 78,
 * tRP 32, tCL 32, tBL 8, 1 KiB rows, a DMA reaches the controller 14 cycles after its issue
 * unless the register-file stage holds it).
 * Memory cycle of logic cycle c: floor(c * 2400 / 350); back: ceil(m * 350 / 2400). */
#include "dpu_harness.h"

#define PROG(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void open_detailed(dpu_harness *h)
{
    dh_open(h, "cycle");
    CHECK_EQ(isk_set_param(h->dpu, "timing", "detailed"), ISK_OK);
}

/* Thread t: ldma of 64 bytes (8 commands) from MRAM `mram` into WRAM 0x100 * (t + 1), stop. */
static uint64_t dma_run(int threads, const uint32_t *mram)
{
    dpu_harness h;
    open_detailed(&h);
    dh_load(&h, PROG("ldma r1, r2, 7", "stop"));
    for (int t = 0; t < threads; t++) {
        dh_set_reg(&h, t, 1, 0x100u * (uint32_t)(t + 1));
        dh_set_reg(&h, t, 2, mram[t]);
        if (t) isk_start(h.dpu, (uint32_t)t, 0);
    }
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    const uint64_t c = isk_clock(h.sys);
    dh_close(&h);
    return c;
}

/* One tasklet, one DMA: issued at 0, at the controller in logic cycle 14 = memory cycle 96;
 * ACTIVATE at 96, row open at 128; the 8 commands enter the I/O stage every tCL + 1 = 33
 * cycles, the last at 128 + 7 * 33 = 359, off the bus at 359 + 32 + 8 = 399 = logic 58.19,
 * so the thread wakes at 59, stops there, and the run ends at 60. */
static void test_one_dma(void)
{
    CHECK_EQ(dma_run(1, (const uint32_t[]){ 0x1000 }), 60);
}

/* Two tasklets: thread 0 as above; thread 1 issues at 1, reaches the controller at logic 15 =
 * memory 102.
 * - Same row (0x1040): its commands follow thread 0's in the I/O stage, from 359 + 33 = 392,
 *   the last at 392 + 231 = 623, done at 663 = logic 96.69: it stops at 97, the run ends at 98.
 * - Another row (0x2000): PRECHARGE once the open row has had tRAS (96 + 78) and the bus is
 *   free (399): 399 + tRP = 431, ACTIVATE, row open at 463; last command at 463 + 231 = 694,
 *   done at 734 = logic 107.04: it stops at 108, the run ends at 109. */
static void test_two_dmas(void)
{
    CHECK_EQ(dma_run(2, (const uint32_t[]){ 0x1000, 0x1040 }), 98);
    CHECK_EQ(dma_run(2, (const uint32_t[]){ 0x1000, 0x2000 }), 109);
}

/* The register-file rule on the pair (previous instruction, this one), in one stage shared by
 * all threads behind a 14-stage pipeline (dram.h). 12 tasklets run `add r6, rA, rB` then
 * `stop`.
 * - rA, rB = r1, r2 (one odd, one even): no extra cycle; the adds issue at 0..11, the stops at
 *   12..23: 24 cycles.
 * - rA, rB = r2, r4 (two even): one extra cycle each. The adds issue at 0..11 (the stage is
 *   13 cycles away); add 0 reaches the stage at 13 and holds it for 13 and 14; add k >= 1
 *   reaches its input at 12 + 2k and waits there one cycle, so cycles 15, 17, ..., 35 are
 *   frozen (nothing issues, and the pipeline does not advance, which is why each add arrives
 *   two cycles after the one before). The stops (their reads none, the previous write r6: no
 *   extra) issue at 12, 13, 14, then in the free cycles 16, 18, ..., 32: 33 cycles, of which 9
 *   (15, 17, ..., 31) were lost while a thread was ready. */
static uint64_t rf_run2(const char *first, const char *add, uint64_t *stalls)
{
    dpu_harness h;
    open_detailed(&h);
    if (first) dh_load(&h, PROG(first, add, "stop"));
    else dh_load(&h, PROG(add, "stop"));
    for (int t = 1; t < 12; t++) isk_start(h.dpu, (uint32_t)t, 0);
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    const uint64_t c = isk_clock(h.sys);
    *stalls = h.S->rf_stall_cycles;
    dh_close(&h);
    return c;
}

static uint64_t rf_run(const char *add, uint64_t *stalls)
{
    return rf_run2(NULL, add, stalls);
}

static void test_register_file(void)
{
    uint64_t stalls;
    CHECK_EQ(rf_run("add r6, r1, r2", &stalls), 24);
    CHECK_EQ(stalls, 0);
    CHECK_EQ(rf_run("add r6, r2, r4", &stalls), 33);
    CHECK_EQ(stalls, 9);
}

/* The registers come from the most specific row of the instruction table: `add rc, ra, imm, cc,
 * pc` (rrici) writes rc like `add rc, ra, imm` (rri), so an instruction after either pays for
 * it. Here `add r6, r4, r1` follows a write of r2: r2, r4 even, one extra cycle for each of the
 * 12 threads, the same count after both forms (the conditional jump goes to the next
 * instruction anyway). Taking the first matching row instead lost rrici's destination (the
 * timing kernels' loop counters), and with it a third of their register-file cycles. */
static void test_register_file_rrici(void)
{
    uint64_t stalls_rri, stalls_rrici;
    const uint64_t rri = rf_run2("add r2, r2, 1", "add r6, r4, r1", &stalls_rri);
    const uint64_t rrici = rf_run2("add r2, r2, 1, nz, 1", "add r6, r4, r1", &stalls_rrici);
    CHECK(stalls_rri > 0);
    CHECK_EQ(rrici, rri);
    CHECK_EQ(stalls_rrici, stalls_rri);
}

/* One held instruction and the pipeline's refill. 12 tasklets; thread 0 starts at `add r6, r2,
 * r4` (one extra cycle), thread 1 at `second`, threads 2..11 at `add r6, r1, r2`; each then
 * stops. Thread 0's add reaches the stage at 13 and holds it for 13 and 14; thread 1's
 * instruction reaches the stage's input at 14 and waits there in cycle 15 (frozen). The stops
 * issue at 12 (thread 0), 13, 14, then 16; the instruction issued at 16 cannot enter the
 * pipeline (it took a slot in the frozen cycle), so 17 issues nothing either; then 18..24.
 * - second = `add r6, r1, r2`: the last stop at 25, 26 cycles; 2 cycles lost (15, 17).
 * - second = `ldma r1, r2, 7` (reads r1, r2: no extra): it leaves the stage at 16, not 15, so
 *   it reaches the controller at logic 16 = memory 109: ACTIVATE, row open at 141, last
 *   command at 141 + 7 * 33 = 372, off the bus at 412 = logic 60.08; thread 1 stops at 61,
 *   the run ends at 62 (61 had it not waited). */
static uint64_t held_run(const char *second, uint64_t *stalls)
{
    dpu_harness h;
    open_detailed(&h);
    dh_load(&h, PROG("add r6, r1, r2", "stop", "add r6, r2, r4", "stop", second, "stop"));
    dh_set_reg(&h, 1, 1, 0x100);
    dh_set_reg(&h, 1, 2, 0x1000);
    isk_start(h.dpu, 0, 2);
    isk_start(h.dpu, 1, 4);
    for (int t = 2; t < 12; t++) isk_start(h.dpu, (uint32_t)t, 0);
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    const uint64_t c = isk_clock(h.sys);
    *stalls = h.S->rf_stall_cycles;
    dh_close(&h);
    return c;
}

static void test_pipeline_refill(void)
{
    uint64_t stalls;
    CHECK_EQ(held_run("add r6, r1, r2", &stalls), 26);
    CHECK_EQ(stalls, 2);
    CHECK_EQ(held_run("ldma r1, r2, 7", &stalls), 62);
}

/* The prim model stays the default: the same DMA costs 77 + 32 cycles there. */
static void test_prim_default(void)
{
    dpu_harness h;
    dh_open(&h, "cycle");
    dh_load(&h, PROG("ldma r1, r2, 7", "stop"));
    dh_set_reg(&h, 0, 1, 0x100);
    dh_set_reg(&h, 0, 2, 0x1000);
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    CHECK_EQ(isk_clock(h.sys), 77 + 32 + 1);
    CHECK_EQ(h.S->detailed, 0);
    dh_close(&h);
}

/* A rewritten IRAM word's registers are found again (the stretch keeps them in the decode cache
 * entry's spare word, which the engine clears when the word is written): the 12 adds of
 * rf_run's r1, r2 run, then word 0 becomes `add r6, r2, r4` and the 12 threads run again, from
 * a drained pipeline: 33 more cycles and 9 more stalls, as in a fresh run of that add. */
static void test_register_file_rewritten(void)
{
    dpu_harness h;
    open_detailed(&h);
    dh_load(&h, PROG("add r6, r1, r2", "stop"));
    for (int t = 1; t < 12; t++) isk_start(h.dpu, (uint32_t)t, 0);
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    CHECK_EQ(isk_clock(h.sys), 24);
    CHECK_EQ(h.S->rf_stall_cycles, 0);
    CHECK_EQ(isk_write(h.dpu, "IRAM", 0, (int64_t)dh_word(&h, "add r6, r2, r4")), ISK_OK);
    for (int t = 0; t < 12; t++) isk_start(h.dpu, (uint32_t)t, 0);
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    CHECK_EQ(isk_clock(h.sys), 24 + 33);
    CHECK_EQ(h.S->rf_stall_cycles, 9);
    dh_close(&h);
}

int main(void)
{
    test_one_dma();
    test_two_dmas();
    test_register_file();
    test_register_file_rrici();
    test_register_file_rewritten();
    test_pipeline_refill();
    test_prim_default();
    if (harness_model) isk_model_release(harness_model);
    return CHECK_DONE();
}
