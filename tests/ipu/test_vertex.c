/* A tiny vertex on one worker, started by the supervisor with run and waited for with sync 2:
 * out[i] = in[i] + 5 through ld32step/st32step (the += form), a bundle in the loop, brnz and
 * exitz; the results, the exit status, $CTXT_STS and the worker's tile cycles (one issue every
 * six cycles). Then the exceptions: a misaligned load stops only the worker ($WSR.ETYPE
 * INVALID_ADDR, report with context and PC), a worker instruction in the supervisor is an
 * illegal instruction, and exitz with the co-issue bit set does not decode. ipu2 memory: code
 * in region 0 from 0x4C000, data in region 1 from 0x80000. */
#include "tile.h"

#define CODE 0x4C000u
#define DATA 0x80000u

/* The supervisor: run the worker at 0x4C040 with its state at DATA (run's base is relative to
 * region 0), wait, spin. */
static const char supervisor[] =
    "  setzi $m1, 0x4c040\n"
    "  setzi $m2, 0x34000\n"          /* 0x80000 - 0x4C000 */
    "  run $m1, $m2, 0\n"
    "  sync 2\n"
    "  bri 0x4c010\n";

/* state: [0] in, [1] out, [2] n */
static const char worker[] =
    "  ld32 $m0, $mvertex_base, $mzero, 0\n"
    "  ld32 $m1, $mvertex_base, $mzero, 1\n"
    "  ld32 $m2, $mvertex_base, $mzero, 2\n"
    "  setzi $m3, 0\n"
    "  setzi $m4, 0\n"
    "  ld32step $m5, $m0, $m3+=, 1\n"            /* 0x4c054 */
    "  add $m5, $m5, 5\n"
    "  st32step $m5, $m1, $m4+=, 1\n"
    "  { add $m2, $m2, -1 ; fnop }\n"             /* 0x4c060 */
    "  brnz $m2, 0x4c054\n"
    "  exitz $mzero\n";

static void test_one_worker(void)
{
    tile t;
    open_tile(&t);
    CHECK(t.t != NULL);
    if (!t.t) return close_tile(&t);
    load_code(&t, supervisor, CODE);
    load_code(&t, worker, CODE + 0x40);
    const uint32_t n = 4, in = DATA + 0x100, out = DATA + 0x200;
    poke(&t, DATA, in);
    poke(&t, DATA + 4, out);
    poke(&t, DATA + 8, n);
    for (uint32_t i = 0; i < n; i++) poke(&t, in + 4 * i, 1000 * i + 7);
    CHECK_EQ(isk_start(t.t, 0, (CODE - TMEM_BASE) / 4), ISK_OK);
    CHECK(isk_run(t.sys, 400) != ISK_FAULT);
    for (uint32_t i = 0; i < n; i++) CHECK_EQ(peek(&t, "TMEM", (out - TMEM_BASE) / 4 + i), 1000 * i + 12);
    CHECK_EQ(peek(&t, "TMEM", (out - TMEM_BASE) / 4 + n), 0);       /* nothing past the end */
    CHECK_EQ(peek(&t, "w0.exit_status", 0), 1);
    CHECK_EQ(peek(&t, "w1.exit_status", 0), -1);                     /* never ran */
    CHECK_EQ(peek(&t, "$CTXT_STS", 0) >> 2 & 3, 0);                  /* inactive again */
    CHECK_EQ(peek(&t, "w0.$VERTEX_BASE", 0), DATA);
    CHECK_EQ(peek(&t, "w0.$m13", 0), DATA);                          /* $mvertex_base mirrors it */
    /* run in clock 2 (the supervisor holds every slot), the worker's slot 0 from clock 6, then
     * 5 + 5n + 1 issues six cycles apart, the last one the exit */
    CHECK_EQ(peek(&t, "w0.cycles", 0), 4 + 6 * (5 + 5 * n));
    CHECK_EQ(peek(&t, "$m2", 0), 0x34000);
    CHECK(t.d.errors == 0);
    close_tile(&t);
}

static void test_exceptions(void)
{
    tile t;
    open_tile(&t);
    if (!t.t) return close_tile(&t);
    load_code(&t, supervisor, CODE);
    load_code(&t, "  setzi $m0, 0x80002\n  ld32 $m1, $m0, $mzero, 0\n  exitz $mzero\n", CODE + 0x40);
    CHECK_EQ(isk_start(t.t, 0, (CODE - TMEM_BASE) / 4), ISK_OK);
    isk_run(t.sys, 200);
    const char *text = t.out.text ? t.out.text : "";
    CHECK_CONTAINS(text, "ld32 at 0x80002 is not 4-byte aligned");
    CHECK_CONTAINS(text, "context 1");
    CHECK_EQ(peek(&t, "w0.$WSR", 0) >> 4 & 0xF, 8);                  /* INVALID_ADDR */
    CHECK_EQ(peek(&t, "w0.exit_status", 0), -1);                     /* stopped, not exited */
    CHECK_EQ(peek(&t, "$CTXT_STS", 0) >> 2 & 3, 3);                  /* excepted */
    close_tile(&t);

    /* exitz is a worker instruction: the supervisor's set does not have it */
    open_tile(&t);
    if (!t.t) return close_tile(&t);
    load_code(&t, "  exitz $mzero\n", CODE);
    CHECK_EQ(isk_start(t.t, 0, (CODE - TMEM_BASE) / 4), ISK_OK);
    isk_run(t.sys, 20);
    CHECK_EQ(peek(&t, "$SSR", 0) >> 4 & 0xF, 12);                    /* INVALID_INSTR */
    close_tile(&t);

    /* exitz with the co-issue bit: illegal in a worker */
    open_tile(&t);
    if (!t.t) return close_tile(&t);
    load_code(&t, supervisor, CODE);
    poke(&t, CODE + 0x40, 0x43004000u | 0x80000000u | 0xF00000u);   /* exitz $mzero, bit 31 set */
    poke(&t, CODE + 0x44, 0x43F04000u);
    CHECK_EQ(isk_start(t.t, 0, (CODE - TMEM_BASE) / 4), ISK_OK);
    isk_run(t.sys, 200);
    CHECK_EQ(peek(&t, "w0.$WSR", 0) >> 4 & 0xF, 12);
    CHECK_EQ(peek(&t, "w0.exit_status", 0), -1);
    close_tile(&t);
}

int main(void)
{
    test_one_worker();
    test_exceptions();
    return CHECK_DONE();
}
