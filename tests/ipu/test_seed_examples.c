/* The seed chapter's examples ("Writing vertices in assembly") made concrete as in the reference
 * pack's seed-examples.md: each program assembles to the pack's words and, run on one worker of
 * an ipu2 tile, gives exactly the stated memory, exception and issue count.
 *
 * Harness (seed-examples.md 0): code at 0x4C100, data `acts` at 0x80000 (region 1) unless
 * stated, element i = (10i+1, 10i+2) as two f32 for i = 0 .. N+7, addend (0.5, 0.25) in
 * $a6:7, $TAS = 1.0. The supervisor runs the worker in clock 2 (two setzi before run), the
 * worker holds barrel slot 0, so its k-th issue is in clock 6k and w0.cycles (run to exit) is
 * 6 * issues - 2. */
#include "tile.h"

#define SUP 0x4C000u
#define CODE 0x4C100u
#define ACTS 0x80000u
#define REGION0_ACTS 0x60000u

static const char supervisor[] =
    "  setzi $m1, 0x4c100\n"
    "  setzi $m2, 0x34000\n"          /* vertex base 0x80000, relative to region 0 */
    "  run $m1, $m2, 0\n"
    "  sync 2\n"
    "  bri 0x4c010\n";

/* The pack's prologue: acts, N, the addend, $TAS = 1.0 (6 issues). */
static int prologue(char *buf, size_t cap, uint32_t acts, unsigned n)
{
    return snprintf(buf, cap,
                    "  setzi $m2, 0x%x\n"
                    "  setzi $m3, %u\n"
                    "  or $a6, $a15, 0x3F000000\n"
                    "  or $a7, $a15, 0x3E800000\n"
                    "  or $a0, $a15, 0x3F800000\n"
                    "  uput 8, $a0\n",
                    acts, n);
}
static const uint32_t prologue_words[6] = { 0x19280000, 0x1930000A, 0x52F6D3F0, 0x52F7D3E8, 0x52F0D3F8, 0x51008008 };

static uint32_t f32bits(float f)
{
    uint32_t w;
    memcpy(&w, &f, 4);
    return w;
}

/* acts: element i = (10i+1, 10i+2) for i = 0 .. n+7 */
static void fill_acts(tile *t, uint32_t acts, unsigned n)
{
    for (unsigned i = 0; i < n + 8; i++) {
        poke(t, acts + 8 * i, f32bits((float)(10 * i + 1)));
        poke(t, acts + 8 * i + 4, f32bits((float)(10 * i + 2)));
    }
}

/* Elements below `written` are acts + addend, the others (up to n+7) unchanged. */
static void check_acts(tile *t, uint32_t acts, unsigned n, unsigned written, int line)
{
    for (unsigned i = 0; i < n + 8; i++) {
        const float add0 = i < written ? 0.5f : 0.0f, add1 = i < written ? 0.25f : 0.0f;
        const uint32_t lo = peek_mem(t, acts + 8 * i), hi = peek_mem(t, acts + 8 * i + 4);
        if (lo != f32bits((float)(10 * i + 1) + add0) || hi != f32bits((float)(10 * i + 2) + add1)) {
            fprintf(stderr, "line %d: element %u is (0x%08x, 0x%08x)\n", line, i, lo, hi);
            CHECK(0);
            return;
        }
    }
    CHECK(1);
}

/* Assemble the prologue (for acts and n) and `body` at CODE; the words must be `words`
 * (prologue's first, NULL: not compared). */
static void load_example(tile *t, uint32_t acts, unsigned n, const char *body, const uint32_t *words, size_t nwords)
{
    char text[4096];
    int at = prologue(text, sizeof text, acts, n);
    snprintf(text + at, sizeof text - (size_t)at, "%s", body);
    uint32_t got[128];
    const size_t count = load_code_words(t, text, CODE, got, 128);
    if (!words) return;
    CHECK_EQ(count, 6 + nwords);
    for (size_t i = 0; i < 6 + nwords && i < count; i++) {
        /* setzi $m2, acts and setzi $m3, N hold their values */
        const uint32_t want = i == 0 ? 0x19200000u | acts : i == 1 ? 0x19300000u | n : i < 6 ? prologue_words[i] : words[i - 6];
        if (got[i] != want) fprintf(stderr, "word %zu at 0x%zx: 0x%08x, the pack says 0x%08x\n", i, CODE + 4 * i, got[i], want);
        CHECK_EQ(got[i], want);
    }
}

/* Run the supervisor and the worker until both are idle (or `clocks`). */
static void run_tile(tile *t, uint64_t clocks)
{
    load_code(t, supervisor, SUP);
    CHECK_EQ(isk_start(t->t, 0, (SUP - TMEM_BASE) / 4), ISK_OK);
    isk_run(t->sys, clocks);
}

static void check_exit(tile *t, unsigned issues)
{
    CHECK_EQ(peek(t, "w0.exit_status", 0), 1);
    CHECK_EQ(peek(t, "w0.cycles", 0), 6 * issues - 2);
}

/* ---- E1: rpt loop, 3 bundles per element ---------------------------------------------------------- */

static const char e1[] =
    "  { rpt $m3, 2 ; fnop }\n"
    "  { ld64 $a0:1, $m15, $m2, 0 ; fnop }\n"
    "  { nop ; f32v2add $a0:1, $a0:1, $a6:7 }\n"
    "  { st64step $a0:1, $m15, $m2+=, 1 ; fnop }\n"
    "  exitz $m15\n";
static const uint32_t e1_words[] = { 0xC330A002, 0x9AD00000, 0x89F02000, 0x9AD00000, 0x99E00000, 0xD8006003,
                                     0xDCF12100, 0x9AD00000, 0x43F04000 };

static void test_e1(void)
{
    tile t;
    open_tile(&t);
    load_example(&t, ACTS, 10, e1, e1_words, sizeof e1_words / 4);
    fill_acts(&t, ACTS, 10);
    run_tile(&t, 2000);
    check_acts(&t, ACTS, 10, 10, __LINE__);
    check_exit(&t, 38);                           /* 6 + 1 + 3 x 10 + 1 */
    CHECK_EQ(peek(&t, "w0.$REPEAT_COUNT", 0), 0);
    CHECK(t.d.errors == 0 && t.d.warnings == 0);
    close_tile(&t);
}

/* ---- E2: load two ahead of the store: the memory conflict ----------------------------------------- */

static const char e2[] =
    "  add $m5, $m2, 16\n"
    "  tapack $m0:1, $m5, $m15, $m2\n"
    "  setzi $m4, 5\n"
    "  rpt $m4, 1\n"
    "  { ldst64pace $a0:1, $a0:1, $m0:1+=, $m15, 0 ; f32v2add $a2:3, $a2:3, $a6:7 }\n"
    "  { ldst64pace $a2:3, $a2:3, $m0:1+=, $m15, 0 ; f32v2add $a0:1, $a0:1, $a6:7 }\n"
    "  exitz $m15\n";
static const uint32_t e2_words[] = { 0x22250010, 0x4D52F001, 0x19400005, 0x4340A001, 0xD6F00100,
                                     0xD8206023, 0xD6F20120, 0xD8006003, 0x43F04000 };

/* The worker stops on its first loop bundle (0x4C128), issue 11, with $WSR.ETYPE = CONFLICT
 * and ERPT, $REPEAT_COUNT 5, memory unchanged, the report naming both addresses. */
static void check_conflict(tile *t, uint32_t acts, unsigned n, unsigned issue, uint32_t repeat, const char *load,
                           const char *store, int line)
{
    char where[64];
    const char *text = t->out.text ? t->out.text : "";
    CHECK_EQ(peek(t, "w0.$WSR", 0) >> 4 & 0xF, 6);
    CHECK_EQ(peek(t, "w0.$WSR", 0) >> 9 & 1, 1);
    CHECK_EQ(peek(t, "w0.$REPEAT_COUNT", 0), repeat);
    CHECK_EQ(peek(t, "w0.exit_status", 0), -1);
    CHECK_EQ(peek(t, "$CTXT_STS", 0) >> 2 & 3, 3);
    CHECK_CONTAINS(text, "memory conflict");
    CHECK_CONTAINS(text, load);
    CHECK_CONTAINS(text, store);
    CHECK_CONTAINS(text, "CONFLICT_EA1");
    CHECK_CONTAINS(text, "context 1");
    snprintf(where, sizeof where, "clock %u", 6 * issue);
    CHECK_CONTAINS(text, where);
    check_acts(t, acts, n, 0, line);
}

static void test_e2(void)
{
    tile t;
    open_tile(&t);
    load_example(&t, ACTS, 10, e2, e2_words, sizeof e2_words / 4);
    fill_acts(&t, ACTS, 10);
    run_tile(&t, 2000);
    check_conflict(&t, ACTS, 10, 11, 5, "load 0x80010", "store 0x80000", __LINE__);
    close_tile(&t);

    /* the same loop with its data in region 0 conflicts too (one 16 KiB bank) */
    open_tile(&t);
    load_example(&t, REGION0_ACTS, 10, e2, NULL, 0);
    fill_acts(&t, REGION0_ACTS, 10);
    run_tile(&t, 2000);
    check_conflict(&t, REGION0_ACTS, 10, 11, 5, "load 0x60010", "store 0x60000", __LINE__);
    close_tile(&t);
}

/* ---- E3: three temporaries, one issue per element ------------------------------------------------- */

static const char e3[] =
    "  mov $m5, $m2\n"
    "  ld64step $a0:1, $m15, $m5+=, 1\n"
    "  { ld64step $a2:3, $m15, $m5+=, 1 ; f32v2add $a0:1, $a0:1, $a6:7 }\n"
    "  { ld64step $a4:5, $m15, $m5+=, 1 ; f32v2add $a2:3, $a2:3, $a6:7 }\n"
    "  tapack $m0:1, $m5, $m15, $m2\n"
    "  setzi $m4, 2\n"
    "  { rpt $m4, 2 ; fnop }\n"
    "  { ldst64pace $a0:1, $a0:1, $m0:1+=, $m15, 0 ; f32v2add $a4:5, $a4:5, $a6:7 }\n"
    "  { ldst64pace $a2:3, $a2:3, $m0:1+=, $m15, 0 ; f32v2add $a0:1, $a0:1, $a6:7 }\n"
    "  { ldst64pace $a4:5, $a4:5, $m0:1+=, $m15, 0 ; f32v2add $a2:3, $a2:3, $a6:7 }\n"
    "  { ldst64pace $a0:1, $a0:1, $m0:1+=, $m15, 0 ; f32v2add $a4:5, $a4:5, $a6:7 }\n"
    "  { st64pace $a2:3, $m0:1+=, $m15, 0 ; f32v2add $a0:1, $a0:1, $a6:7 }\n"
    "  st64pace $a4:5, $m0:1+=, $m15, 0\n"
    "  st64pace $a0:1, $m0:1+=, $m15, 0\n"
    "  exitz $m15\n";
static const uint32_t e3_words[] = { 0x42259000, 0x1EF05201, 0x9EF25201, 0xD8006003, 0x9EF45201, 0xD8206023,
                                     0x4D52F001, 0x19400002, 0xC340A002, 0x9AD00000, 0xD6F00100, 0xD8406043,
                                     0xD6F20120, 0xD8006003, 0xD6F40140, 0xD8206023, 0xD6F00100, 0xD8406043,
                                     0xDCF00220, 0xD8006003, 0x5CF00240, 0x5CF00200, 0x43F04000 };

static void test_e3(void)
{
    tile t;
    open_tile(&t);
    load_example(&t, ACTS, 10, e3, e3_words, sizeof e3_words / 4);
    fill_acts(&t, ACTS, 10);
    run_tile(&t, 2000);
    check_acts(&t, ACTS, 10, 10, __LINE__);
    check_exit(&t, 24);                           /* 6 + fill 6 + rpt 1 + loop 6 + drain 4 + exit 1 */
    CHECK(t.d.errors == 0 && t.d.warnings == 0);
    close_tile(&t);

    /* data in region 0: the first loop bundle (0x4C140, issue 14) conflicts, 0x60018 and 0x60000 */
    open_tile(&t);
    load_example(&t, REGION0_ACTS, 10, e3, NULL, 0);
    fill_acts(&t, REGION0_ACTS, 10);
    run_tile(&t, 2000);
    CHECK_EQ(peek(&t, "w0.$WSR", 0) >> 4 & 0xF, 6);
    CHECK_EQ(peek(&t, "w0.$WSR", 0) >> 9 & 1, 1);
    CHECK_CONTAINS(t.out.text ? t.out.text : "", "load 0x60018");
    CHECK_CONTAINS(t.out.text ? t.out.text : "", "store 0x60000");
    CHECK_CONTAINS(t.out.text ? t.out.text : "", "clock 84");
    close_tile(&t);
}

/* ---- E5: fill / loop / drain with f32v2axpy, as the seed writes it and corrected ----------------- */

/* rpt: the seed's count (N >> 1, bundled with fnop) or the corrected (N >> 1) - 1 (solo). */
static const char e5_seed_head[] =
    "  { rpt $m4, 1 ; fnop }\n";
static const char e5_fixed_head[] =
    "  add $m4, $m4, -1\n"
    "  rpt $m4, 1\n";
static const char e5_fill[] =
    "  mov $m5, $m2\n"
    "  ld64step $a0:1, $m15, $m5+=, 1\n"
    "  { ld64step $a2:3, $m15, $m5+=, 1 ; f32v2axpy $a14:15, $a6:7, $a0:1 }\n"
    "  { ld64step $a0:1, $m15, $m5+=, 1 ; f32v2axpy $a2:3, $a6:7, $a2:3 }\n"
    "  tapack $m0:1, $m5, $m15, $m2\n"
    "  shr $m4, $m3, 1\n";
static const char e5_rest[] =
    "  { ldst64pace $a2:3, $a2:3, $m0:1+=, $m15, 0 ; f32v2axpy $a0:1, $a0:1, $a6:7 }\n"
    "  { ldst64pace $a0:1, $a0:1, $m0:1+=, $m15, 0 ; f32v2axpy $a2:3, $a2:3, $a6:7 }\n"
    "  and $m5, $m3, 1\n"
    "  brnz $m5, 0x4c168\n"
    "  { st64pace $a2:3, $m0:1+=, $m15, 0 ; f32v2axpy $a0:1, $a6:7, $a14:15 }\n"
    "  st64pace $a0:1, $m0:1+=, $m15, 0\n"
    "  bri 0x4c17c\n"
    "  { ldst64pace $a2:3, $a2:3, $m0:1+=, $m15, 0 ; f32v2axpy $a0:1, $a6:7, $a0:1 }\n"
    "  { st64pace $a0:1, $m0:1+=, $m15, 0 ; f32v2axpy $a2:3, $a6:7, $a14:15 }\n"
    "  st64pace $a2:3, $m0:1+=, $m15, 0\n"
    "  exitz $m15\n";
static const uint32_t e5_seed_words[] = {
    0x42259000, 0x1EF05201, 0x9EF25201, 0xD80060EB, 0x9EF05201, 0xD820602B, 0x4D52F001, 0x4234D001,
    0xC340A001, 0x9AD00000, 0xD6F20120, 0xD860000B, 0xD6F00100, 0xD860202B, 0x42358001, 0x1151305A,
    0xDCF00220, 0xD8E0600B, 0x5CF00200, 0x4081305F, 0xD6F20120, 0xD800600B, 0xDCF00200, 0xD8E0602B,
    0x5CF00220, 0x43F04000 };

/* seed-examples.md E5's table: N, elements written and issues of the seed's and the corrected
 * version */
static const struct { unsigned n, seed_written, seed_issues, fixed_written, fixed_issues; } e5_table[] = {
    { 10, 12, 29, 10, 28 }, { 5, 7, 23, 5, 22 }, { 4, 6, 23, 4, 22 }, { 3, 5, 21, 3, 20 }, { 2, 4, 21, 2, 20 } };

static void test_e5(void)
{
    char body[2048];
    for (size_t k = 0; k < sizeof e5_table / sizeof e5_table[0]; k++)
        for (int fixed = 0; fixed < 2; fixed++) {
            const unsigned n = e5_table[k].n;
            tile t;
            open_tile(&t);
            snprintf(body, sizeof body, "%s%s%s", e5_fill, fixed ? e5_fixed_head : e5_seed_head, e5_rest);
            if (fixed) {
                load_example(&t, ACTS, n, body, NULL, 0);
                CHECK_EQ(peek_mem(&t, 0x4C138), 0x2244FFFF);
                CHECK_EQ(peek_mem(&t, 0x4C13C), 0x4340A001);
            } else {
                load_example(&t, ACTS, n, body, e5_seed_words, sizeof e5_seed_words / 4);
            }
            fill_acts(&t, ACTS, n);
            run_tile(&t, 2000);
            check_acts(&t, ACTS, n, fixed ? e5_table[k].fixed_written : e5_table[k].seed_written, (int)(n * 10 + fixed));
            check_exit(&t, fixed ? e5_table[k].fixed_issues : e5_table[k].seed_issues);
            CHECK(t.d.errors == 0 && t.d.warnings == 0);
            close_tile(&t);
        }
}

int main(void)
{
    test_e1();
    test_e2();
    test_e3();
    test_e5();
    return CHECK_DONE();
}
