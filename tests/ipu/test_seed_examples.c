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

#define CODE 0x4C100u
#define ACTS 0x80000u
#define REGION0_ACTS 0x60000u

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
static void run_tile(tile *t, uint64_t clocks) { run_workers(t, CODE, 0, clocks); }

static void check_exit(tile *t, unsigned issues)
{
    CHECK_EQ(peek(t, "w0.exit_status", 0), 1);
    CHECK_EQ(peek(t, "w0.cycles", 0), 6 * issues - 2);
}

/* Fill acts, run, and check the elements written, a successful exit after `issues` issues and
 * a quiet run. */
static void run_loop(tile *t, uint32_t acts, unsigned n, unsigned written, unsigned issues, int line)
{
    fill_acts(t, acts, n);
    run_tile(t, 2000);
    check_acts(t, acts, n, written, line);
    check_exit(t, issues);
    CHECK(t->d.errors == 0 && t->d.warnings == 0);
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
    run_loop(&t, ACTS, 10, 10, 38, __LINE__);      /* 6 + 1 + 3 x 10 + 1 issues */
    CHECK_EQ(peek(&t, "w0.$REPEAT_COUNT", 0), 0);
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
                           const char *store, uint32_t pc, int line)
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
    snprintf(where, sizeof where, "[at 0x%x]", pc);
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
    check_conflict(&t, ACTS, 10, 11, 5, "load 0x80010", "store 0x80000", 0x4c128, __LINE__);
    close_tile(&t);

    /* the same loop with its data in region 0 conflicts too (one 16 KiB bank) */
    open_tile(&t);
    load_example(&t, REGION0_ACTS, 10, e2, NULL, 0);
    fill_acts(&t, REGION0_ACTS, 10);
    run_tile(&t, 2000);
    check_conflict(&t, REGION0_ACTS, 10, 11, 5, "load 0x60010", "store 0x60000", 0x4c128, __LINE__);
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
    run_loop(&t, ACTS, 10, 10, 24, __LINE__);      /* 6 + fill 6 + rpt 1 + loop 6 + drain 4 + exit 1 */
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
    CHECK_CONTAINS(t.out.text ? t.out.text : "", "[at 0x4c140]");
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
            run_loop(&t, ACTS, n, fixed ? e5_table[k].fixed_written : e5_table[k].seed_written,
                     fixed ? e5_table[k].fixed_issues : e5_table[k].seed_issues, (int)(n * 10 + fixed));
            close_tile(&t);
        }
}

/* ---- E4: the two-bundle f32v2axpy loop (the pack's loop-only specification) ---------------------- */

/* My set-up of the precondition (tmp1 = acts[0]+a, tmp0 = acts[2], accumulator = acts[1]+a,
 * A0 = acts+24, A2 = acts), then K = 4 iterations. */
static const char e4[] =
    "  ld64 $a2:3, $m15, $m2, 0\n"
    "  ld64 $a4:5, $m15, $m2, 1\n"
    "  ld64 $a0:1, $m15, $m2, 2\n"
    "  f32v2add $a2:3, $a2:3, $a6:7\n"
    "  f32v2axpy $azeros, $a4:5, $a6:7\n"
    "  add $m5, $m2, 24\n"
    "  tapack $m0:1, $m5, $m15, $m2\n"
    "  setzi $m4, 4\n"
    "  { rpt $m4, 1 ; fnop }\n"
    "  { ldst64pace $a2:3, $a2:3, $m0:1+=, $m15, 0 ; f32v2axpy $a0:1, $a0:1, $a6:7 }\n"
    "  { ldst64pace $a0:1, $a0:1, $m0:1+=, $m15, 0 ; f32v2axpy $a2:3, $a2:3, $a6:7 }\n"
    "  exitz $m15\n";

static void test_e4(void)
{
    tile t;
    uint32_t words[32];
    open_tile(&t);
    char text[2048];
    int at = prologue(text, sizeof text, ACTS, 10);
    snprintf(text + at, sizeof text - (size_t)at, "%s", e4);
    CHECK_EQ(load_code_words(&t, text, CODE, words, 32), 21);
    CHECK_EQ(words[16], 0xD6F20120);              /* the pack's loop words, at 0x4C140 */
    CHECK_EQ(words[17], 0xD860000B);
    CHECK_EQ(words[18], 0xD6F00100);
    CHECK_EQ(words[19], 0xD860202B);
    const unsigned k = 4;
    run_loop(&t, ACTS, 10, 2 * k, 6 + 8 + 1 + 2 * k + 1, __LINE__);   /* 1 issue per element in the loop */
    /* tmp1 = acts[2K]+a, tmp0 = acts[2K+2], accumulator = acts[2K+1]+a */
    CHECK_EQ(peek(&t, "w0.$a2", 0), f32bits((float)(10 * 2 * k + 1) + 0.5f));
    CHECK_EQ(peek(&t, "w0.$a3", 0), f32bits((float)(10 * 2 * k + 2) + 0.25f));
    CHECK_EQ(peek(&t, "w0.$a0", 0), f32bits((float)(10 * (2 * k + 2) + 1)));
    CHECK_EQ(peek(&t, "w0.$AACC0", 0), f32bits((float)(10 * (2 * k + 1) + 1) + 0.5f));
    CHECK_EQ(peek(&t, "w0.$AACC1", 0), f32bits((float)(10 * (2 * k + 1) + 2) + 0.25f));
    /* A0 = acts + 8(2K+3), A2 = acts + 16K, packed as tapack does */
    const uint32_t lo = (uint32_t)peek(&t, "w0.$m0", 0), hi = (uint32_t)peek(&t, "w0.$m1", 0);
    CHECK_EQ(lo & 0x1FFFFF, ACTS + 8 * (2 * k + 3));
    CHECK_EQ(lo >> 21 | (hi >> 21) << 11, ACTS + 16 * k);
    close_tile(&t);
}

/* ---- E0, E0b, E6, E7, E10: the short examples ------------------------------------------------------ */

/* Run `body` (at CODE) on worker 0 after setting w0.$m0 = m0; its words must start with `words`. */
static void run_short(tile *t, const char *body, const uint32_t *words, size_t nwords, uint32_t m0)
{
    uint32_t got[32];
    open_tile(t);
    const size_t n = load_code_words(t, body, CODE, got, 32);
    CHECK(n >= nwords);
    for (size_t i = 0; i < nwords && i < n; i++) CHECK_EQ(got[i], words[i]);
    CHECK_EQ(isk_write(t->t, "w0.$m0", 0, m0), ISK_OK);
    run_tile(t, 600);
}

static void test_short(void)
{
    tile t;
    /* E0: the worker id from $WSR, here with runall: worker w reads w */
    static const uint32_t e0[] = { 0x41000001, 0x42008007 };
    run_short(&t, "  get $m0, 1\n  and $m0, $m0, 7\n  exitz $m15\n", e0, 2, 99);
    CHECK_EQ(peek(&t, "w0.$m0", 0), 0);
    check_exit(&t, 3);
    close_tile(&t);
    open_tile(&t);
    load_code(&t, "  get $m0, 1\n  and $m0, $m0, 7\n  exitz $m15\n", CODE);
    run_workers(&t, CODE, 1, 600);
    for (uint64_t w = 0; w < 6; w++) {
        char name[16];
        snprintf(name, sizeof name, "w%d.$m0", (int)w);
        CHECK_EQ(peek(&t, name, 0), (int64_t)w);
        snprintf(name, sizeof name, "w%d.cycles", (int)w);
        /* runall in clock 2; worker w issues first in the next clock = w (mod 6), then 2 more */
        CHECK_EQ(peek(&t, name, 0), (w < 3 ? 6 + (int64_t)w : (int64_t)w) + 12 - 2);
    }
    close_tile(&t);

    /* E0b: stack allocation */
    static const uint32_t e0b[] = { 0x19B00000 | 0x90000, 0x22BBFFE0 };
    run_short(&t, "  setzi $sp, 0x90000\n  add $sp, $sp, -32\n  exitz $m15\n", e0b, 2, 0);
    CHECK_EQ(peek(&t, "w0.$m11", 0), 0x8FFE0);
    close_tile(&t);

    /* E6: GET_PARAMS 0 1 2 expanded: three vertex words if $m0 != 0 (4 issues), else none (1) */
    static const uint32_t e6[] = { 0x13013044, 0x01F1D000, 0x01F2D001, 0x01F3D002 };
    static const char e6_text[] = "  brz $m0, 0x4c110\n  ld32 $m1, $m15, $m13, 0\n  ld32 $m2, $m15, $m13, 1\n"
                                  "  ld32 $m3, $m15, $m13, 2\n  exitz $m15\n";
    for (uint32_t m0 = 0; m0 < 2; m0++) {
        open_tile(&t);
        uint32_t got[8];
        CHECK_EQ(load_code_words(&t, e6_text, CODE, got, 8), 5);
        for (int i = 0; i < 4; i++) CHECK_EQ(got[i], e6[i]);
        poke(&t, ACTS, 111), poke(&t, ACTS + 4, 222), poke(&t, ACTS + 8, 333);
        CHECK_EQ(isk_write(t.t, "w0.$m0", 0, m0), ISK_OK);
        run_tile(&t, 600);
        CHECK_EQ(peek(&t, "w0.$m1", 0), m0 ? 111 : 0);
        CHECK_EQ(peek(&t, "w0.$m3", 0), m0 ? 333 : 0);
        check_exit(&t, m0 ? 5 : 2);
        close_tile(&t);
    }

    /* E7: brz $m0, 1f / setzi $m1, 5 / 1: ($m1 = 5 only if $m0 != 0); rpt $m3, 2 is 4330A002 */
    static const uint32_t e7[] = { 0x13013044, 0x19100005, 0x19E00000, 0x19E00000, 0x43F04000, 0x4330A002 };
    for (uint32_t m0 = 0; m0 < 2; m0++) {
        run_short(&t, "  brz $m0, 0x4c110\n  setzi $m1, 5\n  nop\n  nop\n  exitz $m15\n  rpt $m3, 2\n", e7, 6, m0);
        CHECK_EQ(peek(&t, "w0.$m1", 0), m0 ? 5 : 0);
        close_tile(&t);
    }
    /* 0: bri 0b never ends: the worker is still issuing when the run's limit comes */
    static const uint32_t e7b[] = { 0x40813040 };
    run_short(&t, "  bri 0x4c100\n", e7b, 1, 0);
    CHECK_EQ(peek(&t, "w0.exit_status", 0), -1);
    CHECK_EQ(peek(&t, "$CTXT_STS", 0) >> 2 & 3, 1);
    close_tile(&t);

    /* E10: constants from $azero in one issue each */
    static const uint32_t e10[] = { 0x52F03200, 0x52F05A00 };
    run_short(&t, "  f16v2exp $a0, $azero\n  f16v2sigm $a0, $azero\n  f16v2exp $a1, $azero\n  exitz $m15\n", e10, 2, 0);
    CHECK_EQ(peek(&t, "w0.$a0", 0), 0x38003800);
    CHECK_EQ(peek(&t, "w0.$a1", 0), 0x3C003C00);
    check_exit(&t, 4);
    close_tile(&t);
}

/* ---- E11: n / 6 as (n * 0xAAAB) >> 18, for every n < 98304 ---------------------------------------- */

static void test_e11(void)
{
    tile t;
    static const uint32_t e11[] = { 0x1910AAAB, 0x44001320, 0x4222D012, 0x43F04000 };
    run_short(&t, "  setzi $m1, 0xAAAB\n  mul $m2, $m0, $m1\n  shr $m2, $m2, 18\n  exitz $m15\n", e11, 4, 100);
    CHECK_EQ(peek(&t, "w0.$m2", 0), 16);
    check_exit(&t, 4);                            /* 3 issues and the exit */
    close_tile(&t);

    /* every n from 0 to 98304 through the same three instructions, results stored in region 1 */
    static const char sweep[] =
        "  setzi $m0, 0\n"
        "  setzi $m1, 0xAAAB\n"
        "  setzi $m3, 0x80000\n"
        "  setzi $m4, 98305\n"
        "  mul $m2, $m0, $m1\n"                   /* 0x4c110 */
        "  shr $m2, $m2, 18\n"
        "  st32step $m2, $m15, $m3+=, 1\n"
        "  add $m0, $m0, 1\n"
        "  cmpult $m5, $m0, $m4\n"
        "  brnz $m5, 0x4c110\n"
        "  exitz $m15\n";
    open_tile(&t);
    load_code(&t, sweep, CODE);
    run_tile(&t, 6 * 6 * 98305 + 200);
    CHECK_EQ(peek(&t, "w0.exit_status", 0), 1);
    unsigned wrong = 0;
    for (uint32_t n = 0; n < 98304; n++) wrong += peek_mem(&t, ACTS + 4 * n) != n / 6;
    CHECK_EQ(wrong, 0);
    CHECK_EQ(peek_mem(&t, ACTS + 4 * 5), 0);
    CHECK_EQ(peek_mem(&t, ACTS + 4 * 6), 1);
    CHECK_EQ(peek_mem(&t, ACTS + 4 * 98303), 16383);
    CHECK_EQ(peek_mem(&t, ACTS + 4 * 98304), 0);  /* the product wraps: wrong from here on */
    close_tile(&t);
}

/* ---- E12: the host's (n/6)<<3 | n%6 split over six workers, for every n <= 49151 ------------------ */

static const char e12[] =
    "  ldz16 $m0, $m13, $m15, 3\n"
    "  get $m1, 1\n"
    "  and $m1, $m1, 7\n"
    "  shr $m3, $m0, 3\n"
    "  and $m4, $m0, 7\n"
    "  mul $m5, $m3, $m1\n"
    "  min $m6, $m1, $m4\n"
    "  add $m5, $m5, $m6\n"
    "  cmpult $m6, $m1, $m4\n"
    "  add $m3, $m3, $m6\n"
    "  shl $m7, $m1, 3\n"                         /* my addition: store (count, begin) per worker */
    "  st32 $m3, $m7, $m13, 4\n"
    "  st32 $m5, $m7, $m13, 5\n"
    "  exitz $m15\n";
static const uint32_t e12_words[] = { 0x06D0F003, 0x41010001, 0x42118007, 0x4203D003, 0x42048007,
                                      0x44301350, 0x44104263, 0x44506051, 0x44104261, 0x44306031 };

static void test_e12(void)
{
    tile t;
    uint32_t got[16];
    open_tile(&t);
    CHECK_EQ(load_code_words(&t, e12, CODE, got, 16), 14);
    for (int i = 0; i < 10; i++) CHECK_EQ(got[i], e12_words[i]);
    unsigned bad = 0;
    run_workers(&t, CODE, 1, 1);                  /* loads the supervisor */
    for (uint32_t n = 0; n <= 49151; n++) {
        const uint32_t count = (n / 6) << 3 | n % 6;
        poke(&t, ACTS + 4, count << 16);          /* the u16 at byte offset 6 */
        rerun_workers(&t, 120);
        uint32_t next = 0;
        for (uint32_t w = 0; w < 6; w++) {
            const uint32_t c = peek_mem(&t, ACTS + 16 + 8 * w), b = peek_mem(&t, ACTS + 20 + 8 * w);
            if (b != next || c != n / 6 + (w < n % 6)) bad++;
            if (n == 100 && w == 4) CHECK(c == 16 && b == 68);    /* the pack's vector */
            next = b + c;
        }
        if (next != n) bad++;
    }
    CHECK_EQ(bad, 0);
    CHECK(t.d.errors == 0 && t.d.warnings == 0);
    close_tile(&t);
}

int main(void)
{
    test_e1();
    test_e2();
    test_e3();
    test_e4();
    test_e5();
    test_short();
    test_e11();
    test_e12();
    return CHECK_DONE();
}
