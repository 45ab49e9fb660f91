/* The DFU's address generators, mode by mode (the seed's Algorithms 2-5): the worked sequences of
 * dfu.md section 3.3, then random set-ups of every mode (with negative increments, bound wraps and
 * indices) against the plain C reference of dfu_harness.h.
 *
 * How an address sequence is observed: memory B holds its own addresses (B[x] = x); the
 * generator under test (AG1) reads B, and VCOPY writes what it read to C[0], C[1], ... So C[e]
 * is the address AG1 produced for element e. */
#include <stdlib.h>

#include "dfu_harness.h"

static void fill_identity(dfu *d)
{
    for (unsigned x = 0; x < 1024; x++) put_word(d, MEM_B, x, x);
}

/* Run VCOPY over n elements with AG1 (and slave AG5) as given; C[e] = the addresses. */
static void observe(dfu *d, ag_setup main, ag_setup slave, unsigned n, unsigned *out)
{
    set_ag(d, 0, (ag_setup){ MEM_C, 0, 1, 0, 0xFFFF, 0 });
    set_ag(d, 1, main);
    set_ag(d, 5, slave);
    run_op(d, VCOPY, n, 1);
    for (unsigned e = 0; e < n; e++) out[e] = word_at(d, MEM_C, e);
}

static void check_sequence(const char *what, const unsigned *got, const unsigned *expected, unsigned n)
{
    bool same = true;
    for (unsigned e = 0; e < n; e++) same &= got[e] == expected[e];
    if (!same) {
        fprintf(stderr, "%s: got", what);
        for (unsigned e = 0; e < n; e++) fprintf(stderr, " %u", got[e]);
        fprintf(stderr, "\n");
    }
    CHECK(same);
}

/* dfu.md 3.3, AG0's addresses; here they are AG1's (the algorithm is the same for every AG). */
static void test_worked_sequences(void)
{
    dfu d;
    dfu_open(&d, NULL);
    fill_identity(&d);
    unsigned got[12];
    ag_setup none = { MEM_A, 0, 0, 0, 0xFFFF, 0 };

    observe(&d, (ag_setup){ MEM_B, 2, 3, 0, 10, 0 }, none, 10, got);
    check_sequence("mode 0, O=2 I=3 L=0 U=10", got, (const unsigned[]){ 2, 5, 8, 0, 3, 6, 9, 0, 3, 6 }, 10);

    observe(&d, (ag_setup){ MEM_B, 3, -2, 0, 7, 0 }, none, 10, got);
    check_sequence("mode 0, O=3 I=-2 L=0 U=7", got, (const unsigned[]){ 3, 1, 7, 5, 3, 1, 7, 5, 3, 1 }, 10);

    unsigned idx[4] = { 5, 0, 2, 7 };
    for (unsigned i = 0; i < 4; i++) put_word(&d, MEM_D, i, idx[i]);
    observe(&d, (ag_setup){ MEM_B, 100, 0, 0, 0xFFFF, USE_IDX }, (ag_setup){ MEM_D, 0, 1, 0, 3, 0 }, 10, got);
    check_sequence("USE_IDX", got, (const unsigned[]){ 105, 100, 102, 107, 105, 100, 102, 107, 105, 100 }, 10);

    observe(&d, (ag_setup){ MEM_B, 0, 10, 0, 0xFFFF, STEP_IDXBND }, (ag_setup){ MEM_A, 0, 1, 0, 2, 0 }, 10, got);
    check_sequence("STEP_IDXBND", got, (const unsigned[]){ 0, 0, 0, 10, 10, 10, 20, 20, 20, 30 }, 10);

    unsigned cols[4] = { 0, 4, 8, 12 };
    for (unsigned i = 0; i < 4; i++) put_word(&d, MEM_D, i, cols[i]);
    observe(&d, (ag_setup){ MEM_B, 0, 1, 0, 0xFFFF, USE_IDX | STEP_IDXBND }, (ag_setup){ MEM_D, 0, 1, 0, 3, 0 }, 12,
            got);
    check_sequence("USE_IDX|STEP_IDXBND (4x4 transpose)", got,
                   (const unsigned[]){ 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14 }, 12);
    dfu_close(&d);
}

static int random_between(int lo, int hi) { return lo + rand() % (hi - lo + 1); }

/* Every mode, random generators: the addresses equal the reference's. */
static void test_modes_against_reference(void)
{
    static const char *const mode_names[4] = { "linear", "USE_IDX", "STEP_IDXBND", "USE_IDX|STEP_IDXBND" };
    dfu d;
    dfu_open(&d, NULL);
    fill_identity(&d);
    ref_mem r;
    memset(&r, 0, sizeof r);
    for (unsigned x = 0; x < 1024; x++) {
        r.w[MEM_B][x] = x;
        uint32_t index = (uint32_t)random_between(0, 40);
        r.w[MEM_D][x] = index;
        put_word(&d, MEM_D, x, index);
    }
    srand(5);
    for (int mode = 0; mode < 4; mode++) {
        int cases = 0, wrapped_negative = 0;
        for (int trial = 0; trial < 40; trial++) {
            int lo = random_between(0, 300), hi = lo + random_between(0, 300);
            int inc = random_between(-9, 9);
            ag_setup main = { MEM_B, random_between(lo, hi), inc, lo, hi, mode };
            int slo = random_between(0, 20);
            ag_setup slave = { MEM_D, random_between(slo, slo + 8), random_between(-3, 3), slo, slo + random_between(0, 8), 0 };
            unsigned n = (unsigned)random_between(1, 120), got[120], expected[120];
            observe(&d, main, slave, n, got);
            ref_ag m = ref_of(main), s = ref_of(slave);
            for (unsigned e = 0; e < n; e++) {
                expected[e] = ref_addr(&r, &m, &s);
                long before = m.i;
                ref_advance(&m, &s);
                if (inc < 0 && m.i > before) wrapped_negative++;
            }
            char what[160];
            snprintf(what, sizeof what, "%s: O=%d I=%d L=%d U=%d, slave O=%d I=%d L=%d U=%d, %u elements",
                     mode_names[mode], main.addr, main.inc, lo, hi, slave.addr, slave.inc, slave.lo, slave.hi, n);
            check_sequence(what, got, expected, n);
            cases++;
        }
        printf("AG mode %-20s %d random set-ups, %d wraps below a lower bound: ok\n", mode_names[mode], cases,
               wrapped_negative);
        CHECK(mode == 0 ? wrapped_negative > 0 : true);
    }
    dfu_close(&d);
}

/* All eight generators are the same machine: AG0 (writes), AG2 and AG3 with their slaves. */
static void test_every_generator(void)
{
    dfu d;
    dfu_open(&d, NULL);
    ref_mem r;
    memset(&r, 0, sizeof r);
    srand(11);
    for (int m = 0; m < 4; m++)
        for (unsigned x = 0; x < 1024; x++) {
            uint32_t w = m == MEM_D ? (uint32_t)random_between(0, 30) : bits_of((float)random_between(-500, 500) / 16);
            r.w[m][x] = w;
            put_word(&d, m, x, w);
        }
    ag_setup s[8] = {
        { MEM_A, 50, -3, 10, 90, USE_IDX | STEP_IDXBND }, { MEM_B, 7, 5, 0, 200, USE_IDX },
        { MEM_C, 300, -1, 250, 320, STEP_IDXBND },        { MEM_B, 900, 2, 880, 1000, 0 },
        { MEM_D, 3, 1, 0, 5, 0 },                         { MEM_D, 10, -2, 4, 12, 0 },
        { MEM_A, 0, 1, 0, 3, 0 },                         { MEM_D, 0, 1, 0, 1, 0 },
    };
    for (int k = 0; k < 8; k++) set_ag(&d, k, s[k]);
    run_op(&d, VMAC, 97, 3);
    ref_run(&r, VMAC, s, 97, 3);
    int mismatches = 0;
    for (int m = 0; m < 4; m++)
        for (unsigned x = 0; x < 1024; x++) mismatches += word_at(&d, m, x) != r.w[m][x];
    CHECK_EQ(mismatches, 0);
    dfu_close(&d);
}

int main(void)
{
    test_worked_sequences();
    test_modes_against_reference();
    test_every_generator();
    return CHECK_DONE();
}
