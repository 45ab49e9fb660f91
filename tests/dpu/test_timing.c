/* Cycle mode (timing.md): the revolver rule, the DPU-wide one instruction per cycle, the DMA
 * cost of the PrIM model. Every count below is exact.
 *
 *   - a thread issues at most once every 11 cycles: N instructions of one tasklet take
 *     11 (N - 1) + 1 cycles;
 *   - T < 11 tasklets started together, L instructions each: 11 (L - 1) + T cycles;
 *   - T >= 11 tasklets: one instruction per cycle, T * L cycles;
 *   - ldma of B bytes blocks its thread 77 + B/2 cycles, sdma 61 + B/2. */
#include "dpu_harness.h"

#define PROG(...) ((const char *const[]){ __VA_ARGS__, NULL })

static uint64_t cycles(dpu_harness *h) { return isk_clock(h->sys); }

static uint64_t instructions(dpu_harness *h)
{
    isk_stats st;
    isk_inst_stats(h->dpu, &st);
    return st.instructions;
}

/* The DPU's idle cycles as the engine counts them: all, or those with a thread blocked on a DMA. */
static uint64_t idle(dpu_harness *h, bool dma)
{
    isk_stats st;
    isk_inst_stats(h->dpu, &st);
    return dma ? st.idle_blocked_clocks : st.idle_clocks;
}

static void test_one_tasklet(void)
{
    dpu_harness h;
    dh_open(&h, "cycle");
    dh_load(&h, PROG("move r0, 1", "add r0, r0, 1", "add r0, r0, 1", "add r0, r0, 1", "add r0, r0, 1",
                     "add r0, r0, 1", "add r0, r0, 1", "add r0, r0, 1", "add r0, r0, 1", "stop"));
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    CHECK_EQ(instructions(&h), 10);
    CHECK_EQ(cycles(&h), 11 * 9 + 1);
    CHECK_EQ(idle(&h, false), 9 * 10);
    CHECK_EQ(dh_reg(&h, 0, 0), 9);
    dh_close(&h);

    /* a loop: move, 20 x (sub ... nz), stop = 22 instructions */
    dh_open(&h, "cycle");
    dh_load(&h, PROG("move r0, 20", "sub r0, r0, 1, nz, 1", "stop"));
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    CHECK_EQ(instructions(&h), 22);
    CHECK_EQ(cycles(&h), 11 * 21 + 1);
    dh_close(&h);

    /* functional mode: one instruction per clock */
    dh_open(&h, "functional");
    dh_load(&h, PROG("move r0, 20", "sub r0, r0, 1, nz, 1", "stop"));
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    CHECK_EQ(cycles(&h), 22);
    dh_close(&h);
}

/* T tasklets started together by the host, each running L straight-line instructions. */
static void run_tasklets(int T, int L, uint64_t want_cycles)
{
    dpu_harness h;
    dh_open(&h, "cycle");
    const char *prog[64];
    for (int i = 0; i < L - 1; i++) prog[i] = "add r0, id, r0";
    prog[L - 1] = "stop";
    prog[L] = NULL;
    dh_load(&h, prog);
    for (int t = 1; t < T; t++) isk_start(h.dpu, t, 0);
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    CHECK_EQ(instructions(&h), (uint64_t)T * (uint64_t)L);
    CHECK_EQ(cycles(&h), want_cycles);
    for (int t = 0; t < T; t++) CHECK_EQ(dh_reg(&h, t, 0), (uint32_t)(t * (L - 1)));
    printf("  %2d tasklets x %d instructions: %llu cycles, IPC %.3f\n", T, L, (unsigned long long)cycles(&h),
           (double)instructions(&h) / (double)cycles(&h));
    dh_close(&h);
}

static void test_revolver(void)
{
    const int L = 40;
    run_tasklets(1, L, 11 * (L - 1) + 1);
    run_tasklets(4, L, 11 * (L - 1) + 4);
    run_tasklets(10, L, 11 * (L - 1) + 10);
    run_tasklets(11, L, 11 * L);              /* from 11 tasklets on: one instruction per cycle */
    run_tasklets(16, L, 16 * L);
    run_tasklets(24, L, 24 * L);
}

/* The runtime's staggered boot (each tasklet boots the next) then a compute loop: with 16
 * tasklets the DPU approaches one instruction per cycle. */
static void test_staggered_boot(void)
{
    dpu_harness h;
    dh_open(&h, "cycle");
    dh_load(&h, PROG("jeq id, 15, 2", "boot id, 1", "move r0, 200", "sub r0, r0, 1, nz, 3", "stop"));
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    const uint64_t insns = 15 * (4 + 200) + (3 + 200);
    CHECK_EQ(instructions(&h), insns);
    double ipc = (double)insns / (double)cycles(&h);
    printf("  staggered boot, 16 tasklets x 200 iterations: %llu instructions in %llu cycles, IPC %.3f\n",
           (unsigned long long)insns, (unsigned long long)cycles(&h), ipc);
    CHECK(ipc > 0.93 && ipc <= 1.0);
    dh_close(&h);
}

static void test_dma_cost(void)
{
    dpu_harness h;
    /* ldma of 64 bytes issued at cycle 22: the next instruction issues at 22 + 77 + 32 */
    dh_open(&h, "cycle");
    dh_load(&h, PROG("move r1, 0x100", "move r2, 0x1000", "ldma r1, r2, 7", "stop"));
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    CHECK_EQ(cycles(&h), 22 + 77 + 32 + 1);
    CHECK_EQ(h.S->dma_cycles, 77 + 32);
    CHECK_EQ(idle(&h, true), 77 + 32 - 1);
    dh_close(&h);

    /* sdma of 2048 bytes: 61 + 1024 */
    dh_open(&h, "cycle");
    dh_load(&h, PROG("move r1, 0x100", "move r2, 0x1000", "sdma r1, r2, 255", "stop"));
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    CHECK_EQ(cycles(&h), 22 + 61 + 1024 + 1);
    CHECK_EQ(h.S->dma_write_bytes, 2048);
    dh_close(&h);

    /* the size in ra[31:24]: (3 + 1) * 8 = 32 bytes, 77 + 16 */
    dh_open(&h, "cycle");
    dh_load(&h, PROG("move r1, 0x03000100", "move r2, 0x1000", "ldma r1, r2, 0", "stop"));
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    CHECK_EQ(cycles(&h), 22 + 77 + 16 + 1);
    dh_close(&h);

    /* two tasklets: thread 1 computes while thread 0 waits for its transfer. Thread 0: jnz at 0,
     * ldma at 11 (blocked until 11 + 109 = 120), stop at 120. Thread 1: jnz at 1, move at 12,
     * 8 x sub at 23 .. 100, stop at 111. */
    dh_open(&h, "cycle");
    dh_load(&h, PROG("jnz id, 3", "ldma zero, r5, 7", "stop", "move r0, 8", "sub r0, r0, 1, nz, 4", "stop"));
    isk_start(h.dpu, 1, 0);
    CHECK_EQ(dh_run(&h), ISK_STOPPED);
    CHECK_EQ(instructions(&h), 3 + 11);
    CHECK_EQ(cycles(&h), 121);
    CHECK_EQ(idle(&h, false), 121 - 14);
    CHECK_EQ(idle(&h, true), 120 - 12 - 10);    /* cycles 12..119 less the 10 issues of thread 1 */
    printf("  ldma + compute: %llu cycles, %llu idle of which %llu waiting for DMA\n", (unsigned long long)cycles(&h),
           (unsigned long long)idle(&h, false), (unsigned long long)idle(&h, true));
    dh_close(&h);
}

int main(void)
{
    test_one_tasklet();
    test_revolver();
    test_staggered_boot();
    test_dma_cost();
    if (harness_model) isk_model_release(harness_model);
    return CHECK_DONE();
}
