/* The DFU's operations, element by element against the plain C reference (dfu_harness.h):
 * every operation with random data and generators (negative increments and bound wraps, REP > 1),
 * the timing T = T_start + N*REP - 1 + L_op and its counter, settings prepared while an operation
 * runs, the word-format and rounding options, the licence, the address-range error, N = 0. */
#include <stdlib.h>

#include "dfu_harness.h"

static const char *const op_names[] = { "VCOPY", "VADD", "VMUL", "VMAC", "DPROD", "VSUB", "VMSUBAC" };
static const unsigned default_latency[] = { 2, 12, 9, 21, 57, 12, 21 };

static int random_between(int lo, int hi) { return lo + rand() % (hi - lo + 1); }

static void random_data(dfu *d, ref_mem *r)
{
    for (int m = 0; m < 4; m++)
        for (unsigned x = 0; x < 1024; x++) {
            uint32_t w = bits_of((float)random_between(-100000, 100000) / (float)random_between(1, 997));
            r->w[m][x] = w;
            put_word(d, m, x, w);
        }
}

static ag_setup random_linear(int bank)
{
    int lo = random_between(0, 400), hi = lo + random_between(20, 500);
    if (hi > 1023) hi = 1023;
    return (ag_setup){ bank, random_between(lo, hi), random_between(-4, 4), lo, hi, 0 };
}

static int compare_memories(dfu *d, const ref_mem *r, const char *what)
{
    int mismatches = 0;
    for (int m = 0; m < 4; m++)
        for (unsigned x = 0; x < 1024; x++)
            if (word_at(d, m, x) != r->w[m][x]) {
                if (mismatches++ < 3)
                    fprintf(stderr, "%s: memory %c[%u] = %08X, reference %08X\n", what, 'A' + m, x, word_at(d, m, x),
                            r->w[m][x]);
            }
    return mismatches;
}

static void test_each_operation(void)
{
    dfu d;
    dfu_open(&d, NULL);
    static ref_mem r;
    srand(42);
    random_data(&d, &r);
    for (int op = VCOPY; op <= VMSUBAC; op++) {
        int trials = 0;
        for (int trial = 0; trial < 6; trial++) {
            ag_setup s[8];
            int banks[4] = { MEM_A, MEM_B, MEM_C, MEM_D };
            for (int k = 0; k < 8; k++) s[k] = random_linear(banks[(k + trial) % 4]);
            for (int k = 4; k < 8; k++) s[k].inc = 0;
            unsigned n = (unsigned)random_between(1, 90), rep = trial < 3 ? 1 : (unsigned)random_between(2, 4);
            for (int k = 0; k < 8; k++) set_ag(&d, k, s[k]);
            uint64_t clocks = run_op(&d, op, n, rep);
            ref_run(&r, op, s, n, rep);
            char what[80];
            snprintf(what, sizeof what, "%s N=%u REP=%u (trial %d)", op_names[op], n, rep, trial);
            CHECK_EQ(compare_memories(&d, &r, what), 0);
            /* T = T_start + N*REP - 1 + L_op; the counter holds it, the status is idle */
            CHECK_EQ(clocks, 2 + n * rep - 1 + default_latency[op]);
            CHECK_EQ(get_reg(&d, "DFUTIME", 0), 2 + n * rep - 1 + default_latency[op]);
            CHECK_EQ(get_reg(&d, "STATUS", 0), 0);
            CHECK_EQ(get_reg(&d, "ERROR", 0), 0);
            trials++;
        }
        printf("%-8s %d random operations (3 with REP > 1, increments -4..4 with bound wraps): ok\n", op_names[op],
               trials);
    }
    dfu_close(&d);
}

/* The next operation's settings may be written while one runs: the running one keeps the values
 * it latched at its start. */
static void test_prepared_while_running(void)
{
    dfu d;
    dfu_open(&d, NULL);
    static ref_mem r;
    srand(7);
    random_data(&d, &r);
    ag_setup first[8], second[8];
    for (int k = 0; k < 8; k++) first[k] = second[k] = (ag_setup){ MEM_A, 0, 0, 0, 0xFFFF, 0 };
    first[0] = (ag_setup){ MEM_C, 0, 1, 0, 0xFFFF, 0 };
    first[1] = (ag_setup){ MEM_A, 10, 1, 0, 0xFFFF, 0 };
    first[2] = (ag_setup){ MEM_B, 500, -1, 400, 520, 0 };
    second[0] = (ag_setup){ MEM_D, 100, 2, 0, 0xFFFF, 0 };
    second[1] = (ag_setup){ MEM_C, 0, 1, 0, 0xFFFF, 0 };        /* reads the first's results */
    second[2] = (ag_setup){ MEM_B, 7, 0, 0, 0xFFFF, 0 };
    for (int k = 0; k < 8; k++) set_ag(&d, k, first[k]);
    set_reg(&d, "CNT", 0, 64);
    set_reg(&d, "REP", 0, 1);
    CHECK_EQ(isk_launch(d.sys, d.inst, VADD), ISK_OK);
    CHECK_EQ(isk_step(d.sys, 5), ISK_OK);
    CHECK_EQ(isk_busy_slots(d.inst), 1);
    CHECK_EQ(get_reg(&d, "STATUS", 0), 1);
    for (int k = 0; k < 8; k++) set_ag(&d, k, second[k]);      /* prepare the next one now */
    set_reg(&d, "CNT", 0, 32);
    wait_idle(&d);
    ref_run(&r, VADD, first, 64, 1);
    CHECK_EQ(compare_memories(&d, &r, "the running operation"), 0);
    CHECK_EQ(isk_launch(d.sys, d.inst, VMUL), ISK_OK);           /* restart with the prepared values */
    wait_idle(&d);
    ref_run(&r, VMUL, second, 32, 1);
    CHECK_EQ(compare_memories(&d, &r, "the prepared operation"), 0);
    printf("operation prepared while the previous one ran: ok\n");
    dfu_close(&d);
}

static void test_latency_parameters(void)
{
    const char *params[] = { "t_start", "5", "latency_vmul", "3", "latency_dprod", "7", NULL };
    dfu d;
    dfu_open(&d, params);
    set_ag(&d, 0, (ag_setup){ MEM_C, 0, 1, 0, 0xFFFF, 0 });
    CHECK_EQ(run_op(&d, VMUL, 10, 2), 5 + 20 - 1 + 3);
    CHECK_EQ(run_op(&d, DPROD, 4, 1), 5 + 4 - 1 + 7);
    CHECK_EQ(run_op(&d, VMUL, 0, 1), 5);                         /* N = 0: nothing to do */
    dfu_close(&d);
    /* the counter is 16 bits and saturates */
    dfu_open(&d, NULL);
    set_ag(&d, 0, (ag_setup){ MEM_C, 0, 1, 0, 0xFFFF, 0 });
    CHECK_EQ(run_op(&d, VCOPY, 1000, 70), 2 + 70000 - 1 + 2);
    CHECK_EQ(get_reg(&d, "DFUTIME", 0), 0xFFFF);
    dfu_close(&d);
}

static void test_numeric_options(void)
{
    /* int32 words: wrapping integer arithmetic */
    const char *ints[] = { "word_format", "int32", NULL };
    dfu d;
    dfu_open(&d, ints);
    put_word(&d, MEM_A, 0, 7);
    put_word(&d, MEM_B, 0, (uint32_t)-3);
    put_word(&d, MEM_C, 0, 100);
    set_ag(&d, 0, (ag_setup){ MEM_D, 0, 0, 0, 0xFFFF, 0 });
    set_ag(&d, 1, (ag_setup){ MEM_A, 0, 0, 0, 0xFFFF, 0 });
    set_ag(&d, 2, (ag_setup){ MEM_B, 0, 0, 0, 0xFFFF, 0 });
    set_ag(&d, 3, (ag_setup){ MEM_C, 0, 0, 0, 0xFFFF, 0 });
    run_op(&d, VMAC, 1, 1);
    CHECK_EQ((int32_t)word_at(&d, MEM_D, 0), 100 + 7 * -3);
    run_op(&d, VSUB, 1, 1);
    CHECK_EQ((int32_t)word_at(&d, MEM_D, 0), 10);
    dfu_close(&d);

    /* fused multiply-add: one rounding. (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 rounds (a tie, to even)
     * to 1 + 2^-11, so c + a*b with c = -(1 + 2^-11) is 0 with two roundings, 2^-24 with one */
    float a = 1.0f + 0x1p-12f, b = a, c = -(1.0f + 0x1p-11f);
    const char *fused[] = { "mac_rounding", "fused", NULL };
    for (int f = 0; f < 2; f++) {
        dfu_open(&d, f ? fused : NULL);
        put_word(&d, MEM_A, 0, bits_of(a));
        put_word(&d, MEM_B, 0, bits_of(b));
        put_word(&d, MEM_C, 0, bits_of(c));
        set_ag(&d, 0, (ag_setup){ MEM_D, 0, 0, 0, 0xFFFF, 0 });
        set_ag(&d, 1, (ag_setup){ MEM_A, 0, 0, 0, 0xFFFF, 0 });
        set_ag(&d, 2, (ag_setup){ MEM_B, 0, 0, 0, 0xFFFF, 0 });
        set_ag(&d, 3, (ag_setup){ MEM_C, 0, 0, 0, 0xFFFF, 0 });
        run_op(&d, VMAC, 1, 1);
        float got = float_of(word_at(&d, MEM_D, 0));
        CHECK(f ? got == 0x1p-24f : got == 0.0f);
        dfu_close(&d);
    }

    /* flush to zero: a subnormal product becomes 0 */
    const char *ftz[] = { "denormals", "ftz", NULL };
    for (int f = 0; f < 2; f++) {
        dfu_open(&d, f ? ftz : NULL);
        put_word(&d, MEM_A, 0, bits_of(0x1p-100f));
        put_word(&d, MEM_B, 0, bits_of(0x1p-30f));
        set_ag(&d, 0, (ag_setup){ MEM_D, 0, 0, 0, 0xFFFF, 0 });
        set_ag(&d, 1, (ag_setup){ MEM_A, 0, 0, 0, 0xFFFF, 0 });
        set_ag(&d, 2, (ag_setup){ MEM_B, 0, 0, 0, 0xFFFF, 0 });
        run_op(&d, VMUL, 1, 1);
        CHECK(float_of(word_at(&d, MEM_D, 0)) == (f ? 0.0f : 0x1p-130f));
        dfu_close(&d);
    }
}

static void test_licence_and_errors(void)
{
    const char *licence[] = { "licence_ops", "2", NULL };
    dfu d;
    dfu_open(&d, licence);
    put_word(&d, MEM_A, 0, bits_of(2.0f));
    set_ag(&d, 0, (ag_setup){ MEM_B, 0, 1, 0, 0xFFFF, 0 });
    run_op(&d, VCOPY, 1, 1);
    CHECK_EQ(get_reg(&d, "STATUS", 0), 0);
    run_op(&d, VCOPY, 1, 1);
    CHECK_EQ(get_reg(&d, "STATUS", 0), 4);                       /* the licence has just run out */
    put_word(&d, MEM_B, 0, 0);
    run_op(&d, VCOPY, 1, 1);
    CHECK_EQ(get_reg(&d, "ERROR", 0), 3);
    CHECK_EQ(get_reg(&d, "STATUS", 0), 2 | 4);
    CHECK_EQ(word_at(&d, MEM_B, 0), 0);                           /* it did not run */
    dfu_close(&d);

    const char *range[] = { "address_range", "error", NULL };
    dfu_open(&d, range);
    set_ag(&d, 0, (ag_setup){ MEM_B, 1020, 1, 0, 0xFFFF, 0 });
    run_op(&d, VCOPY, 8, 1);                                      /* 1024..1027 are beyond the memory */
    CHECK_EQ(get_reg(&d, "ERROR", 0), 4);
    CHECK_EQ(get_reg(&d, "STATUS", 0), 2);
    CHECK_EQ(get_reg(&d, "RANGE_WARNINGS", 0), 4);
    dfu_close(&d);

    dfu_open(&d, NULL);                 /* not a power of two: refused when set, the value kept */
    isk_diag_buffer out = { 0 };
    isk_diag_capture(&d.diag, &out);
    CHECK_EQ(isk_set_param(d.inst, "memory_words", "1000"), ISK_FAILED);
    CHECK_CONTAINS(out.text, "dfu: parameter memory_words=1000: 'memory_words' is a power of two from 1 to 65536");
    CHECK_STR(isk_get_param(d.inst, "memory_words"), "1024");
    isk_diag_buffer_free(&out);
    dfu_close(&d);
}

int main(void)
{
    test_each_operation();
    test_prepared_while_running();
    test_latency_parameters();
    test_numeric_options();
    test_licence_and_errors();
    return CHECK_DONE();
}
