/* Programs written in DPU assembly with isekit's DPU runtime (models/dpu/runtime), assembled
 * and linked by isekit, run with 1, 11, 16 and 24 tasklets, in functional and cycle mode:
 *   hello.s      printf of several values, puts, putchar
 *   vecadd.s     vector add over MRAM with DMA (mram_read/mram_write), a barrier
 *   reduce.s     a reduction with two barriers
 *   mutex.s      a mutex-protected counter
 *   muldiv.s     64-bit multiply and divide via mul_step/div_step
 *   recursive.s  a recursive function using the stack per the ABI */
#include "dpu_harness.h"
#include "../../models/dpu/dpu_host.h"

static const int tasklet_counts[] = { 1, 11, 16, 24 };

typedef struct run {
    dpu_harness h;
    dpu_program p;
    char *out;
    isk_status st;
} run;

static bool start(run *r, const char *name, int tasklets, const char *mode)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/dpu/programs/%s", ISEKIT_SOURCE_DIR, name);
    dh_open(&r->h, mode);
    const char *paths[] = { path };
    isk_obj *exe = dpu_build(r->h.model, paths, 1, tasklets, 0, &r->h.diag);
    r->out = NULL;
    if (!exe || dpu_program_from_obj(&r->p, exe, &r->h.diag) != 0 || dpu_program_load(r->h.dpu, &r->p, &r->h.diag) != 0) {
        fprintf(stderr, "%s: %s\n", name, r->h.messages.text ? r->h.messages.text : "cannot build or load");
        CHECK(false);
        return false;
    }
    CHECK_EQ(r->p.nr_tasklets, tasklets);
    r->st = isk_run(r->h.sys, 100000000);
    if (r->st != ISK_STOPPED) fprintf(stderr, "%s with %d tasklets: %s\n", name, tasklets, isk_last_error(r->h.sys));
    CHECK_EQ(r->st, ISK_STOPPED);
    r->out = dpu_program_stdout(r->h.dpu, &r->p, NULL);
    /* every tasklet ran and stopped; the ones beyond NR_TASKLETS never started */
    for (int t = 0; t < DPU_THREADS; t++) {
        const isk_context *c = isk_context_of(r->h.dpu, t);
        CHECK_EQ(c->state, ISK_CTX_STOPPED);
        CHECK(t < tasklets ? c->insns > 0 : c->insns == 0);
    }
    return true;
}

static void finish(run *r)
{
    free(r->out);
    dpu_program_close(&r->p);
    dh_close(&r->h);
}

static uint32_t sym(run *r, const char *name)
{
    uint64_t v = 0;
    CHECK(dpu_symbol(&r->p, name, &v));
    return (uint32_t)v;
}

static uint32_t wram32(run *r, uint32_t a) { return dh_wram32(&r->h, a); }

static uint64_t wram64(run *r, uint32_t a) { return wram32(r, a) | (uint64_t)wram32(r, a + 4) << 32; }

static void test_hello(int T, const char *mode)
{
    run r;
    if (!start(&r, "hello.s", T, mode)) return;
    char first[160];
    snprintf(first, sizeof first, "hello: %d tasklets, 4000000000 beef dpu Z -1234567890123    42|-7  | 100%%\n", T);
    CHECK_CONTAINS(r.out, first);      /* the tasklets print in the order they get the printf lock */
    for (int t = 0; t < T; t++) {
        char line[64];
        snprintf(line, sizeof line, "tasklet %d of %d\n", t, T);
        CHECK_CONTAINS(r.out, line);
    }
    CHECK_CONTAINS(r.out, "the end\n!\n");
    size_t lines = 0;
    for (const char *s = r.out; *s; s++) lines += *s == '\n';
    CHECK_EQ(lines, (size_t)T + 3);
    finish(&r);
}

static void test_vecadd(int T, const char *mode)
{
    run r;
    if (!start(&r, "vecadd.s", T, mode)) return;
    CHECK_STR(r.out, "vecadd: 4096 elements, 0 errors, sum 33550336\n");
    CHECK_EQ(dh_reg(&r.h, 0, 0), 0);
    uint32_t c = sym(&r, "C") - 0x08000000u;
    int bad = 0;
    for (uint32_t i = 0; i < 4096; i++) {
        const uint8_t *m = CELLS_OF(&r.h, MRAM) + c + 4 * i;
        uint32_t v = (uint32_t)m[0] | (uint32_t)m[1] << 8 | (uint32_t)m[2] << 16 | (uint32_t)m[3] << 24;
        bad += v != 4 * i + 1;
    }
    CHECK_EQ(bad, 0);
    /* each tasklet moved its share: 64 blocks of A and B read, C written, 256 bytes each */
    CHECK(r.h.S->dma_read_bytes >= 2 * 4096 * 4);
    finish(&r);
}

static void test_reduce(int T, const char *mode)
{
    run r;
    if (!start(&r, "reduce.s", T, mode)) return;
    uint32_t v = 17, total = 0;
    for (int i = 0; i < 2048; i++) total += v, v = (v * 73 + 41) % 10007;
    char want[80];
    snprintf(want, sizeof want, "reduce: %d tasklets, total %u\n", T, total);
    CHECK_STR(r.out, want);
    CHECK_EQ(wram32(&r, sym(&r, "total")), total);
    uint32_t seen = sym(&r, "seen");
    for (int t = 0; t < T; t++) CHECK_EQ(wram32(&r, seen + 4 * (uint32_t)t), total);
    finish(&r);
}

static void test_mutex(int T, const char *mode)
{
    run r;
    if (!start(&r, "mutex.s", T, mode)) return;
    char want[64];
    snprintf(want, sizeof want, "mutex: counter %d\n", 50 * T);
    CHECK_STR(r.out, want);
    CHECK_EQ(wram32(&r, sym(&r, "counter")), 50 * T);
    for (int t = 0; t < T; t++) CHECK_EQ(dh_reg(&r.h, t, 0), 50 * T);
    finish(&r);
}

static void test_muldiv(int T, const char *mode)
{
    run r;
    if (!start(&r, "muldiv.s", T, mode)) return;
    uint32_t base = sym(&r, "results");
    for (uint32_t t = 0; t < (uint32_t)T; t++) {
        uint32_t res = base + 48 * t;
        uint64_t a = 0x12345678u + t * 0x01010101u, b = (uint32_t)(0x9abcdef0u - t * 0x1111u);
        uint64_t p = a * b, y = (UINT64_C(1) << 32) + 7 + t;
        CHECK_EQ(wram64(&r, res), p);
        CHECK_EQ(wram64(&r, res + 8), a);
        CHECK_EQ(wram64(&r, res + 16), p / y);
        CHECK_EQ(wram64(&r, res + 24), p % y);
        CHECK_EQ(wram64(&r, res + 32), (p / y) * y);
        CHECK_EQ(wram32(&r, res + 40), (1000000 + t) / 7);
        CHECK_EQ(wram32(&r, res + 44), (1000000 + t) % 7);
    }
    CHECK_STR(r.out, "muldiv: 12345678 * 9abcdef0 = b00ea4e242d2080, / 9abcdef0 = 12345678, 1000000 / 7 = 142857 rem 1\n");
    finish(&r);
}

static uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static void test_recursive(int T, const char *mode)
{
    run r;
    if (!start(&r, "recursive.s", T, mode)) return;
    CHECK_STR(r.out, "fib(10) = 55\n");
    uint32_t res = sym(&r, "result");
    for (int t = 0; t < T; t++) {
        CHECK_EQ(wram32(&r, res + 4 * (uint32_t)t), fib(10 + (uint32_t)t % 8));
        CHECK_EQ(dh_reg(&r.h, t, 0), fib(10 + (uint32_t)t % 8));
    }
    finish(&r);
}

int main(void)
{
    static const char *const modes[] = { "functional", "cycle" };
    for (int m = 0; m < 2; m++)
        for (size_t i = 0; i < sizeof tasklet_counts / sizeof tasklet_counts[0]; i++) {
            int T = tasklet_counts[i];
            int before = check_failures;
            test_hello(T, modes[m]);
            test_vecadd(T, modes[m]);
            test_reduce(T, modes[m]);
            test_mutex(T, modes[m]);
            test_muldiv(T, modes[m]);
            test_recursive(T, modes[m]);
            printf("%-10s mode, %2d tasklets: 6 programs %s\n", modes[m], T,
                   check_failures == before ? "correct" : "FAILED");
        }
    if (harness_model) isk_model_release(harness_model);
    return CHECK_DONE();
}
