/* The IPU's integer instructions (models/ipu/insns_int.h) against plain C written here: each
 * MRF/ARF operation on a few hundred fixed-seed random inputs run through a brnzdec loop on a
 * worker, every load width with its extension and both chips' misaligned, unpopulated and
 * conflicting cases, the delta-stream, sparse and pace loads, brnzdec/brneg/brpos, exitpos and
 * exitneg statuses, trap, delay, $COUNT_L, $DBG_DATA, the CCCS loads and the undefined-CSR
 * messages of both contexts. */
#include "tile.h"

#define CODE 0x4C100u
#define IN 0x80000u        /* inputs (region 1 of ipu2) */
#define OUT 0x90000u       /* results, another element */
#define N 300

enum { ET_PBRK0 = 2, ET_PBRK1 = 3, ET_CONFLICT = 6, ET_INVALID_ADDR = 8, ET_INVALID_INSTR = 12, ET_EXERR = 13 };

static const char *out(const tile *t) { return t->out.text ? t->out.text : ""; }

static uint32_t rng_state = 0x2545F491u;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 17, rng_state ^= rng_state << 5;
    return rng_state;
}

/* N inputs: some edge values first, then random words (shift counts kept small so both sides
 * of 31 are tried). */
static uint32_t input(int i, int shift)
{
    static const uint32_t edge[] = { 0, 1, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 0x00FF00FFu, 0x12345678u, 0xFFFF0000u };
    uint32_t v = i < 8 ? edge[i] : rnd();
    return shift ? v % 40 : v;
}

/* ---- the references ------------------------------------------------------------------------------ */

static uint8_t b(uint32_t v, int i) { return (uint8_t)(v >> (8 * i)); }
static uint32_t w4(uint8_t x0, uint8_t x1, uint8_t x2, uint8_t x3) { return x0 | (uint32_t)x1 << 8 | (uint32_t)x2 << 16 | (uint32_t)x3 << 24; }

static uint32_t r_xor(uint32_t x, uint32_t y) { return x ^ y; }
static uint32_t r_xnor(uint32_t x, uint32_t y) { return ~(x ^ y); }
static uint32_t r_andc(uint32_t x, uint32_t y) { return x & ~y; }
static uint32_t r_shrs(uint32_t x, uint32_t y)
{
    int64_t v = (int32_t)x;
    for (uint32_t i = 0; i < y && i < 40; i++) v = v < 0 ? (v - 1) / 2 : v / 2;    /* floor division */
    return (uint32_t)v;
}
static uint32_t r_cmpne(uint32_t x, uint32_t y) { return x != y; }
static uint32_t r_cmpslt(uint32_t x, uint32_t y) { return (int64_t)(int32_t)x < (int64_t)(int32_t)y; }
static uint32_t r_roll16(uint32_t x, uint32_t y) { return w4(b(x, 2), b(x, 3), b(y, 0), b(y, 1)); }
static uint32_t r_roll8r(uint32_t x, uint32_t y) { return w4(b(x, 1), b(x, 2), b(x, 3), b(y, 0)); }
static uint32_t r_roll8l(uint32_t x, uint32_t y) { return w4(b(x, 3), b(y, 0), b(y, 1), b(y, 2)); }
static uint32_t r_shuflo(uint32_t x, uint32_t y) { return w4(b(x, 0), b(y, 0), b(x, 1), b(y, 1)); }
static uint32_t r_shufhi(uint32_t x, uint32_t y) { return w4(b(x, 2), b(y, 2), b(x, 3), b(y, 3)); }
static uint32_t r_sortlo(uint32_t x, uint32_t y) { return w4(b(x, 0), b(x, 2), b(y, 0), b(y, 2)); }
static uint32_t r_sorthi(uint32_t x, uint32_t y) { return w4(b(x, 1), b(x, 3), b(y, 1), b(y, 3)); }
static uint32_t r_s16lo(uint32_t x, uint32_t y) { return w4(b(x, 0), b(x, 1), b(y, 0), b(y, 1)); }
static uint32_t r_s16hi(uint32_t x, uint32_t y) { return w4(b(x, 2), b(x, 3), b(y, 2), b(y, 3)); }
static uint32_t r_abs(uint32_t x, uint32_t y) { (void)y; return (int32_t)x < 0 ? (uint32_t)-(int64_t)(int32_t)x : x; }
static uint32_t r_clz(uint32_t x, uint32_t y)
{
    (void)y;
    uint32_t n = 0;
    while (n < 32 && !(x >> (31 - n) & 1)) n++;
    return n;
}
static uint32_t r_cms(uint32_t x, uint32_t y)
{
    (void)y;
    uint32_t n = 0;
    while (n < 31 && (x >> (30 - n) & 1) == x >> 31) n++;
    return n;
}
static uint32_t r_popc(uint32_t x, uint32_t y)
{
    (void)y;
    uint32_t n = 0;
    for (; x; x >>= 1) n += x & 1;
    return n;
}
static uint32_t r_bitrev8(uint32_t x, uint32_t y)
{
    (void)y;
    uint8_t o[4];
    for (int i = 0; i < 4; i++) {
        o[i] = 0;
        for (int k = 0; k < 8; k++) o[i] |= (uint8_t)((b(x, i) >> k & 1) << (7 - k));
    }
    return w4(o[0], o[1], o[2], o[3]);
}
static uint32_t r_sort8(uint32_t x, uint32_t y) { (void)y; return w4(b(x, 0), b(x, 2), b(x, 1), b(x, 3)); }
static uint32_t r_swap8(uint32_t x, uint32_t y) { (void)y; return w4(b(x, 1), b(x, 0), b(x, 3), b(x, 2)); }

/* ---- one operation over N inputs ------------------------------------------------------------------- */

typedef uint32_t ref_fn(uint32_t, uint32_t);

/* `body` computes the result from the two loaded inputs; MRF: x in $m0, y in $m1, result $m4;
 * ARF: x in $a0, y in $a1, result $a2 (pairs: $a0:1 from x and the next input, ...). Inputs
 * at IN as x0 y0 x1 y1 ..., results at OUT. Returns the failures. */
static int run_op(const char *chip, const char *body, int arf, ref_fn *ref, int shift)
{
    tile t;
    open_tile_chip(&t, chip);
    const uint32_t in = strcmp(chip, "ipu1") ? IN : 0x60000u, res = strcmp(chip, "ipu1") ? OUT : 0x70000u;
    uint32_t x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = input(i, 0), y[i] = input(N - 1 - i, shift);
        poke(&t, in + 8u * (uint32_t)i, x[i]);
        poke(&t, in + 8u * (uint32_t)i + 4, y[i]);
    }
    char text[1024];
    /* the loop starts at CODE + 16: brnzdec's target */
    snprintf(text, sizeof text,
             "  setzi $m2, 0x%x\n  setzi $m3, 0x%x\n  setzi $m5, %d\n  nop\n"
             "  ld32step %s, $m15, $m2+=, 1\n  ld32step %s, $m15, $m2+=, 1\n  %s\n"
             "  st32step %s, $m15, $m3+=, 1\n  brnzdec $m5, 0x%x\n  exitz $m15\n",
             in, res, N - 1, arf ? "$a0" : "$m0", arf ? "$a1" : "$m1", body, arf ? "$a2" : "$m4", CODE + 16);
    load_code(&t, text, CODE);
    run_workers(&t, CODE, 0, 6 * 8 * (N + 4));
    CHECK_EQ(peek(&t, "w0.exit_status", 0), 1);
    CHECK_EQ(peek(&t, "w0.$m3", 0), res + 4 * N);        /* brnzdec ran the body N times */
    int bad = 0;
    for (int i = 0; i < N; i++) {
        const uint32_t got = peek_mem(&t, res + 4u * (uint32_t)i), want = ref(x[i], y[i]);
        if (got != want && bad++ < 3)
            fprintf(stderr, "%s: %s(0x%08x, 0x%08x) = 0x%08x, want 0x%08x\n", chip, body, x[i], y[i], got, want);
    }
    CHECK_EQ(bad, 0);
    close_tile(&t);
    return bad;
}

static void test_ops(void)
{
    static const struct { const char *body; ref_fn *ref; int shift; } mrf[] = {
        { "xor $m4, $m0, $m1", r_xor, 0 }, { "xnor $m4, $m0, $m1", r_xnor, 0 }, { "andc $m4, $m0, $m1", r_andc, 0 },
        { "shrs $m4, $m0, $m1", r_shrs, 1 }, { "cmpne $m4, $m0, $m1", r_cmpne, 0 },
        { "cmpslt $m4, $m0, $m1", r_cmpslt, 0 }, { "roll16 $m4, $m0, $m1", r_roll16, 0 },
        { "roll8r $m4, $m0, $m1", r_roll8r, 0 }, { "roll8l $m4, $m0, $m1", r_roll8l, 0 },
        { "shuf8x8lo $m4, $m0, $m1", r_shuflo, 0 }, { "shuf8x8hi $m4, $m0, $m1", r_shufhi, 0 },
        { "sort8x8lo $m4, $m0, $m1", r_sortlo, 0 }, { "sort8x8hi $m4, $m0, $m1", r_sorthi, 0 },
        { "sort4x16lo $m4, $m0, $m1", r_s16lo, 0 }, { "sort4x16hi $m4, $m0, $m1", r_s16hi, 0 },
        { "abs $m4, $m0", r_abs, 0 }, { "clz $m4, $m0", r_clz, 0 }, { "cms $m4, $m0", r_cms, 0 },
        { "popc $m4, $m0", r_popc, 0 }, { "bitrev8 $m4, $m0", r_bitrev8, 0 }, { "sort8 $m4, $m0", r_sort8, 0 },
        { "swap8 $m4, $m0", r_swap8, 0 },
    };
    for (size_t i = 0; i < sizeof mrf / sizeof mrf[0]; i++) run_op("ipu2", mrf[i].body, 0, mrf[i].ref, mrf[i].shift);
    run_op("ipu1", "roll8l $m4, $m0, $m1", 0, r_roll8l, 0);
    static const struct { const char *body; ref_fn *ref; } arf[] = {
        { "andc $a2, $a0, $a1", r_andc }, { "roll16 $a2, $a0, $a1", r_roll16 },
        { "sort4x16lo $a2, $a0, $a1", r_s16lo }, { "sort4x16hi $a2, $a0, $a1", r_s16hi },
    };
    for (size_t i = 0; i < sizeof arf / sizeof arf[0]; i++) run_op("ipu2", arf[i].body, 1, arf[i].ref, 0);
}

/* One worker program on a fresh tile; returns its $WSR.ETYPE. */
static int run(tile *t, const char *chip, const char *text)
{
    open_tile_chip(t, chip);
    load_code(t, text, CODE);
    run_workers(t, CODE, 0, 20000);
    return (int)(peek(t, "w0.$WSR", 0) >> 4 & 0xF);
}

static uint32_t reg(tile *t, const char *name) { return (uint32_t)peek(t, name, 0); }

/* A worker program that raises: its ETYPE and a piece of the report (NULL: not checked). */
static void expect_raise(const char *chip, const char *text, int etype, const char *says)
{
    tile t;
    CHECK_EQ(run(&t, chip, text), etype);
    if (says) CHECK_CONTAINS(out(&t), says);
    close_tile(&t);
}

/* Immediate forms, movz, atom, the ARF pair forms and the broadcast operands. */
static void test_forms(void)
{
    tile t;
    CHECK_EQ(run(&t, "ipu2",
                 "  setzi $m0, 0xFFF0F\n  andc $m1, $m0, 0xF0F\n  setzi $m2, 0\n  add $m2, $m2, -8\n"
                 "  shrs $m3, $m2, 2\n  cmpslt $m4, $m2, -7\n  cmpslt $m5, $m2, -8\n  cmpeq $m6, $m2, -8\n"
                 "  cmpeq $m7, $m0, 0xFF0F\n  max $m8, $m2, 3\n  min $m9, $m2, 3\n  setzi $m10, 0x55\n"
                 "  movz $m10, $m15, $m0\n  setzi $m11, 0x66\n  movz $m11, $m0, $m0\n  exitz $m15\n"), 0);
    CHECK_EQ(reg(&t, "w0.$m1"), 0xFF000);
    CHECK_EQ(reg(&t, "w0.$m3"), 0xFFFFFFFEu);
    CHECK_EQ(reg(&t, "w0.$m4"), 1);
    CHECK_EQ(reg(&t, "w0.$m5"), 0);
    CHECK_EQ(reg(&t, "w0.$m6"), 1);
    CHECK_EQ(reg(&t, "w0.$m7"), 0);              /* 0xFFF0F != 0xFF0F */
    CHECK_EQ(reg(&t, "w0.$m8"), 3);
    CHECK_EQ(reg(&t, "w0.$m9"), 0xFFFFFFF8u);
    CHECK_EQ(reg(&t, "w0.$m10"), 0x55);          /* condition 0: unchanged */
    CHECK_EQ(reg(&t, "w0.$m11"), 0xFFF0F);
    close_tile(&t);

    /* pairs: a0:1 = x, a2:3 = y */
    CHECK_EQ(run(&t, "ipu2",
                 "  setzi $m9, 0x90000\n  setzi $a0, 0x0F0F0\n  setzi $a1, 0x12345\n  setzi $a2, 0x0FF00\n  setzi $a3, 0xABCDE\n"
                 "  and64 $a4:5, $a0:1, $a2:3\n  st64 $a4:5, $m9, $m15, 0\n"
                 "  andc64 $a4:5, $a0:1, $a2:3\n  st64 $a4:5, $m9, $m15, 1\n"
                 "  or64 $a4:5, $a0:1, $a2:3\n  st64 $a4:5, $m9, $m15, 2\n"
                 "  not64 $a4:5, $a0:1\n  st64 $a4:5, $m9, $m15, 3\n"
                 "  sort4x32lo $a4:5, $a0:1, $a2:3\n  st64 $a4:5, $m9, $m15, 4\n"
                 "  sort4x32hi $a4:5, $a0:1, $a2:3\n  st64 $a4:5, $m9, $m15, 5\n"
                 "  roll32 $a4:5, $a0:1, $a2:3\n  st64 $a4:5, $m9, $m15, 6\n"
                 "  not $a6, $a0\n  and $a7, $a6, 0xFFF00000\n  atom $m1, $a7\n  andc $a7, $a6, 0xFFF00000\n  atom $m2, $a7\n"
                 "  andc $a7, $a6, 0xF0\n  atom $m3, $a7\n  sort4x16hi $a7, $a1:BL, $a3\n  atom $m4, $a7\n"
                 "  sort4x16lo $a7, $a1:BU, $a3\n  atom $m5, $a7\n  exitz $m15\n"), 0);
    static const uint32_t want[14] = { 0x0F0F0 & 0x0FF00, 0x12345 & 0xABCDE, 0x0F0F0 & ~0x0FF00u, 0x12345 & ~0xABCDEu,
                                       0x0F0F0 | 0x0FF00, 0x12345 | 0xABCDE, ~0x0F0F0u, ~0x12345u, 0x0F0F0, 0x0FF00,
                                       0x12345, 0xABCDE, 0x12345, 0x0FF00 };
    for (uint32_t i = 0; i < 14; i++) CHECK_EQ(peek_mem(&t, OUT + 4 * i), want[i]);
    CHECK_EQ(reg(&t, "w0.$m1"), ~0x0F0F0u & 0xFFF00000u);
    CHECK_EQ(reg(&t, "w0.$m2"), ~0x0F0F0u & 0x000FFFFFu);
    CHECK_EQ(reg(&t, "w0.$m3"), ~0x0F0F0u & ~0xF0u);
    CHECK_EQ(reg(&t, "w0.$m4"), 0x2345u | 0xAu << 16);   /* [a1.lo, a3.hi] */
    CHECK_EQ(reg(&t, "w0.$m5"), 0x1u | 0xBCDEu << 16);   /* [a1.hi, a3.lo] */
    close_tile(&t);

    /* another chip's instructions are illegal, the PRNG is not modelled */
    expect_raise("ipu2", "  roll8l $a0, $a1, $a2\n  exitz $m15\n", ET_INVALID_INSTR, "roll8l is not an ipu2 instruction (ipu21 only)");
    expect_raise("ipu1", "  sort4x16hi $a7, $a1:BL, $a3\n  exitz $m15\n", ET_INVALID_INSTR, "not an ipu1 instruction (ipu2 and later)");
    expect_raise("ipu2", "  setzi $m2, 0x80000\n  ldb8 $a0, $m2, $m15, 0\n  exitz $m15\n", ET_INVALID_INSTR, "ldb8 is not an ipu2");
    expect_raise("ipu2", "  urand64 $a0:1\n  exitz $m15\n", ET_EXERR, "not modelled yet: urand64 (the PRNG's algorithm is not public)");
}

/* ---- loads and stores ------------------------------------------------------------------------------ */

/* Every width and extension at each byte offset, and the step forms' increments. */
static void test_loads(void)
{
    tile t;
    open_tile(&t);
    poke(&t, IN, 0x80FF7F01u);
    poke(&t, IN + 4, 0x00018000u);
    load_code(&t,
              "  setzi $m2, 0x80000\n  setzi $m9, 0x90000\n"
              "  ldz8 $m0, $m2, $m15, 0\n  st32 $m0, $m9, $m15, 0\n"     
              "  ldz8 $m0, $m2, $m15, 1\n  st32 $m0, $m9, $m15, 1\n"
              "  lds8 $m0, $m2, $m15, 2\n  st32 $m0, $m9, $m15, 2\n"
              "  lds8 $m0, $m2, $m15, 3\n  st32 $m0, $m9, $m15, 3\n"
              "  lds16 $m0, $m2, $m15, 1\n  st32 $m0, $m9, $m15, 4\n"
              "  lds16 $m0, $m2, $m15, 0\n  st32 $m0, $m9, $m15, 5\n"
              "  ldb16 $a0, $m2, $m15, 1\n  st32 $a0, $m9, $m15, 6\n"
              "  setzi $m3, 1\n  ldb16 $a0, $m2, $m15, $m3\n  st32 $a0, $m9, $m15, 7\n"
              "  ld32 $a1, $m2, $m15, 1\n  st32 $a1, $m9, $m15, 8\n"
              "  setzi $m4, 2\n  lds16step $m0, $m2, $m4+=, 1\n  st32 $m0, $m9, $m15, 9\n"   /* at +2 */
              "  ldz16step $m0, $m2, $m4+=, $m3\n  st32 $m0, $m9, $m15, 10\n"            /* at +4 */
              "  lds8step $m0, $m2, $m4+=, -3\n  st32 $m0, $m9, $m15, 11\n"              /* at +6 */
              "  ldz8step $m0, $m2, $m4+=, $m3\n  st32 $m0, $m9, $m15, 12\n"             /* at +3 */
              "  ldb16step $a0, $m2, $m4+=, 2\n  st32 $a0, $m9, $m15, 13\n"              /* at +4 */
              "  setzi $m5, 0x90040\n  setzi $m6, 0\n  ld32step $a2, $m2, $m6+=, 1\n  st32step $a2, $m5, $m6+=, 1\n"
              "  setzi $m7, 3\n  st32 $a2, $m5, $m15, $m7\n  stm32 $m3, $m5, $m7\n  stm32step $m7, $m5, $m3\n  exitz $m15\n",
              CODE);
    run_workers(&t, CODE, 0, 20000);
    CHECK_EQ(peek(&t, "w0.exit_status", 0), 1);
    static const uint32_t want[14] = { 0x01, 0x7F, 0xFFFFFFFFu, 0xFFFFFF80u, 0xFFFF80FFu, 0x7F01, 0x80FF80FFu,
                                       0x80FF80FFu, 0x00018000u, 0xFFFF80FFu, 0x8000, 0x01, 0x80, 0x80008000u };
    for (uint32_t i = 0; i < 14; i++) {
        if (peek_mem(&t, OUT + 4 * i) != want[i]) fprintf(stderr, "load %u: 0x%08x\n", i, peek_mem(&t, OUT + 4 * i));
        CHECK_EQ(peek_mem(&t, OUT + 4 * i), want[i]);
    }
    CHECK_EQ(reg(&t, "w0.$m4"), 8);                  /* 2 +2 +2 -3 +1 +4 */
    CHECK_EQ(peek_mem(&t, 0x90044), 0x80FF7F01u);    /* ld32step/st32step with the ARF, Delta 4 then 8 */
    CHECK_EQ(reg(&t, "w0.$m6"), 8);
    CHECK_EQ(peek_mem(&t, 0x9004C), 1);              /* st32 $a2 at +12, then stm32 $m3 there */
    CHECK_EQ(peek_mem(&t, 0x90040 + 0), 3);          /* stm32step at Base, Base += 4 */
    CHECK_EQ(peek_mem(&t, 0x90044), 0x80FF7F01u);
    CHECK_EQ(reg(&t, "w0.$m5"), 0x90044);
    close_tile(&t);
}

/* Misaligned, unpopulated and conflicting accesses on both chips: the exception, its cause and
 * the addresses in the report, nothing written. */
static void test_load_errors(void)
{
    static const struct { const char *chip, *text; int etype; const char *says; } cases[] = {
        { "ipu2", "  setzi $m2, 0x80001\n  lds16 $m0, $m2, $m15, 0\n", ET_INVALID_ADDR, "lds16: load at 0x80001 is not 2-byte aligned (MISALIGNED_EA0)" },
        { "ipu1", "  setzi $m2, 0x60003\n  ldz16step $m0, $m2, $m3+=, 1\n", ET_INVALID_ADDR, "not 2-byte aligned" },
        { "ipu2", "  setzi $m2, 0x80002\n  ld32 $a0, $m2, $m15, 0\n", ET_INVALID_ADDR, "ld32: load at 0x80002 is not 4-byte aligned" },
        { "ipu1", "  setzi $m2, 0x60002\n  st32step $a0, $m2, $m3+=, 1\n", ET_INVALID_ADDR, "st32step: store at 0x60002" },
        { "ipu2", "  setzi $m2, 0x4B000\n  ldz8 $m0, $m2, $m15, 0\n", ET_INVALID_ADDR, "ldz8: load at 0x4b000: no memory there (0x4c000-0xe7fff) (INVALID_ADDRESS_EA0)" },
        { "ipu1", "  setzi $m2, 0x80000\n  lds8 $m0, $m2, $m15, 0\n", ET_INVALID_ADDR, "(0x40000-0x7ffff)" },
        { "ipu2", "  setzi $m2, 0xE8000\n  stm32 $m0, $m2, $m15\n", ET_INVALID_ADDR, "stm32: store at 0xe8000: no memory there" },
        { "ipu1", "  setzi $m2, 0x80000\n  ldb16step $a0, $m2, $m3+=, 1\n", ET_INVALID_ADDR, "no memory there" },
        /* delta stream: the delta at Ptr and the data in one bank */
        { "ipu2", "  setzi $m4, 0x80000\n  setzi $m2, 0x80010\n  ldd16a32 $a0, $m4++, $m2, $m3@\n", ET_CONFLICT,
          "ldd16a32: memory conflict: EA0 delta load 0x80000 and EA1 load 0x80010 are in bank 13 (CONFLICT_EA1)" },
        { "ipu1", "  setzi $m4, 0x50000\n  setzi $m2, 0x53FF8\n  ldd16b16 $a0, $m4++, $m2, $m3@\n", ET_CONFLICT, "bank 4" },
        { "ipu1", "  setzi $m4, 0x50000\n  setzi $m2, 0x54000\n  ldd16a64 $a0:1, $m4++, $m2, $m3@\n", 0, NULL },
        { "ipu2", "  setzi $m4, 0x80002\n  setzi $m2, 0x88000\n  ldd16v2a32 $a0, $m4++, $m2, $m3@\n", ET_INVALID_ADDR, "MISALIGNED_EA0" },
        { "ipu2", "  setzi $m4, 0x80008\n  setzi $m2, 0x80000\n  ld64a32 $a0:3, $m4++, $m2, $m3\n", 0, NULL },
        { "ipu2", "  setzi $m4, 0x80010\n  setzi $m2, 0x80000\n  ld64a32 $a0:3, $m4++, $m2, $m3\n", ET_CONFLICT, "CONFLICT_EA1" },
        { "ipu2", "  setzi $m2, 0x80000\n  or $m5, $m15, 0x100000\n  ldb16b16 $a0:1, $m2, $m5++, $m4>>\n", ET_CONFLICT, "ldb16b16" },
        /* pace: EA1 must not be executable */
        { "ipu2", "  setzi $m2, 0x80000\n  setzi $m5, 0x64000\n  tapack $m0:1, $m2, $m5, $m15\n"
                  "  ld64a32pace $a0:1, $a2, $m0:1+=, $m15, 0\n", ET_INVALID_ADDR, "EXECUTABLE_ADDRESS_EA1" },
        { "ipu2", "  setzi $m2, 0x80000\n  setzi $m5, 0x80010\n  tapack $m0:1, $m2, $m5, $m15\n"
                  "  ld64b16pace $a0:1, $a2, $m0:1+=, $m15, 0\n", ET_CONFLICT, "ld64b16pace: memory conflict" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tile t;
        char text[512];
        snprintf(text, sizeof text, "  setzi $m3, 0\n  setzi $a0, 0x777\n%s  exitz $m15\n", cases[i].text);
        const int etype = run(&t, cases[i].chip, text);
        if (etype != cases[i].etype) fprintf(stderr, "case %zu: %s", i, out(&t));
        CHECK_EQ(etype, cases[i].etype);
        CHECK_EQ(peek(&t, "w0.exit_status", 0), cases[i].etype ? -1 : 1);
        if (cases[i].says) {
            CHECK_CONTAINS(out(&t), cases[i].says);
            CHECK_CONTAINS(out(&t), "context 1");
            CHECK_EQ(reg(&t, "w0.$m3"), 0);         /* no post-update */
            CHECK_EQ(reg(&t, "w0.$a0"), 0x777);     /* no load */
        }
        close_tile(&t);
    }
}

/* The delta-stream, sparse and pace loads: values and pointer updates. */
static void test_streams(void)
{
    tile t;
    open_tile(&t);
    for (uint32_t i = 0; i < 8; i++) poke(&t, IN + 4 * i, 0x1000 + i);
    poke(&t, 0x88000, 4u | 16u << 16);               /* the deltas 4, 16 (16-bit each) */
    poke(&t, 0x88008, 0x3333);
    poke(&t, 0x88014, 0x55557777u);
    poke(&t, 0x88004, 0x0006AAAAu);                  /* then 0xAAAA, 6 */
    poke(&t, 0x88010, 0x00100008u);                  /* a v2 pair: 8 and 16 (high) */
    load_code(&t,
              "  setzi $m2, 0x80000\n  setzi $m4, 0x88000\n  setzi $m3, 0\n"
              "  ldd16a32 $a0, $m4++, $m2, $m3@\n  atom $m5, $a0\n"          /* [0x80000], delta 4 */
              "  ldd16b16 $a1, $m4++, $m2, $m3@\n  atom $m6, $a1\n"          /* [0x80004].lo x2, delta 16 */
              "  ldd16a64 $a2:3, $m4++, $m2, $m3@\n  atom $m7, $a3\n"        /* [0x80010..], delta 0xAAAA */
              "  setzi $m3, 0x40000\n  setzi $m4, 0x88010\n"
              "  ldd16v2a32 $a4, $m4++, $m2, $m3@\n  atom $m8, $a4\n"        /* [0x80004], deltas 8/16 */
              "  setzi $a0, 0x999\n  setzi $m9, 0x88000\n  setzi $m3, 0x10018\n"
              "  ld64a32 $a0:3, $m9++, $m2, $m3\n"                           /* [0x88000] to a2:3, [0x80018] to a1 */
              "  setzi $m10, 0x88008\n  tapack $m0:1, $m2, $m10, $m15\n  setzi $m11, 0x803\n"
              "  ld64a32pace $a4:5, $a6, $m0:1+=, $m11, 0b0110\n"            /* A0 += 2*8 (s1), A1 += 3*4 (s0) */
              "  ld64b16pace $a4:5, $a7, $m0:1+=, $m15, 0\n"                 /* A0 += 8, A1 += 2 */
              "  exitz $m15\n",
              CODE);
    run_workers(&t, CODE, 0, 20000);
    CHECK_EQ(peek(&t, "w0.exit_status", 0), 1);
    CHECK_EQ(reg(&t, "w0.$m5"), 0x1000);
    CHECK_EQ(reg(&t, "w0.$m6"), 0x10011001u);
    CHECK_EQ(reg(&t, "w0.$m7"), 0x1005);
    CHECK_EQ(reg(&t, "w0.$m8"), 0x1001);             /* Base + 4 (0x40000 >> 16) */
    CHECK_EQ(reg(&t, "w0.$m3"), 0x10018);            /* ld64a32 leaves Delta */
    CHECK_EQ(reg(&t, "w0.$m9"), 0x88008);
    CHECK_EQ(reg(&t, "w0.$a0"), 0x999);
    CHECK_EQ(reg(&t, "w0.$a1"), 0x1006);
    CHECK_EQ(reg(&t, "w0.$a2"), 4u | 16u << 16);
    CHECK_EQ(reg(&t, "w0.$a3"), 0x0006AAAAu);
    CHECK_EQ(reg(&t, "w0.$a6"), 0x3333);             /* [0x88008] */
    CHECK_EQ(reg(&t, "w0.$a4"), 0x1004);             /* second pace: A0 = 0x80010 */
    CHECK_EQ(reg(&t, "w0.$a7"), 0x77777777u);        /* A1 = 0x88014, 16 bits broadcast */
    const uint32_t lo = reg(&t, "w0.$m0"), hi = reg(&t, "w0.$m1");
    CHECK_EQ(lo & 0x1FFFFF, 0x80018);
    CHECK_EQ(hi & 0x1FFFFF, 0x88016);
    close_tile(&t);

    /* ldb16b16: both halves of Delta pick a half-word; lo += 2, hi += MiniD[3:0] halves */
    open_tile(&t);
    poke(&t, IN, 0x2222BBBBu);
    poke(&t, 0x88000, 0x4444CCCCu);
    load_code(&t,
              "  setzi $m2, 0x80000\n  setzi $m3, 0\n  or $m3, $m3, 0x80000000\n  setzi $m4, 0x23\n"
              "  ldb16b16 $a0:1, $m2, $m3++, $m4>>\n  exitz $m15\n", CODE);
    run_workers(&t, CODE, 0, 2000);
    CHECK_EQ(peek(&t, "w0.exit_status", 0), 1);
    CHECK_EQ(reg(&t, "w0.$a0"), 0xBBBBBBBBu);
    CHECK_EQ(reg(&t, "w0.$a1"), 0xCCCCCCCCu);
    CHECK_EQ(reg(&t, "w0.$m3"), 0x80060002u);
    CHECK_EQ(reg(&t, "w0.$m4"), 2);
    close_tile(&t);
}

/* ---- control -------------------------------------------------------------------------------------- */

/* brnzdec runs a loop of N iterations from N - 1; brneg/brpos by sign; exit statuses. */
static void test_control(void)
{
    for (uint32_t n = 1; n <= 5; n++) {
        tile t;
        char text[256];
        snprintf(text, sizeof text, "  setzi $m1, %u\n  setzi $m2, 0\n  add $m2, $m2, 1\n  brnzdec $m1, 0x%x\n  exitz $m15\n",
                 n - 1, CODE + 8);
        CHECK_EQ(run(&t, "ipu2", text), 0);
        CHECK_EQ(reg(&t, "w0.$m2"), n);
        CHECK_EQ(reg(&t, "w0.$m1"), 0);
        close_tile(&t);
    }
    static const uint32_t values[] = { 0, 1, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu };
    for (size_t i = 0; i < 5; i++) {
        const int32_t v = (int32_t)values[i];
        static const char *const insn[] = { "brneg", "brpos" };
        for (int k = 0; k < 2; k++) {
            tile t;
            char text[256];
            /* taken: skips the setzi $m5, 1 */
            snprintf(text, sizeof text, "  setzi $m1, 0x%x\n  or $m1, $m1, 0x%x\n  setzi $m5, 0\n  %s $m1, 0x%x\n"
                     "  setzi $m5, 1\n  exitz $m15\n", values[i] & 0xFFFFF, values[i] & 0xFFF00000u, insn[k], CODE + 20);
            CHECK_EQ(run(&t, "ipu2", text), 0);
            CHECK_EQ(reg(&t, "w0.$m5"), (k ? v >= 0 : v < 0) ? 0 : 1);
            close_tile(&t);
        }
        static const char *const exits[] = { "exitz", "exitnz", "exitpos", "exitneg" };
        for (int k = 0; k < 4; k++) {
            tile t;
            char text[256];
            snprintf(text, sizeof text, "  setzi $m1, 0x%x\n  or $m1, $m1, 0x%x\n  %s $m1\n", values[i] & 0xFFFFF,
                     values[i] & 0xFFF00000u, exits[k]);
            run(&t, "ipu2", text);
            const int want = k == 0 ? v == 0 : k == 1 ? v != 0 : k == 2 ? v >= 0 : v < 0;
            CHECK_EQ(peek(&t, "w0.exit_status", 0), want);    /* exitz of 0x80000000 (-0.0f): failure */
            close_tile(&t);
        }
    }

    /* brnzdec inside a rpt body is refused; trap codes; trap in a body */
    expect_raise("ipu2", "  setzi $m3, 2\n  nop\n  { rpt $m3, 0 ; fnop }\n  { brnzdec $m3, 0x4c100 ; fnop }\n  exitz $m15\n",
                 ET_INVALID_INSTR, "brnzdec is not allowed in a rpt body");
    expect_raise("ipu2", "  trap 0\n  exitz $m15\n", ET_PBRK0, "trap 0 (PBRK0)");
    expect_raise("ipu1", "  trap 15\n  exitz $m15\n", ET_PBRK1, "trap 15 (PBRK1)");
    expect_raise("ipu2", "  setzi $m3, 2\n  nop\n  { rpt $m3, 0 ; fnop }\n  { trap 1 ; fnop }\n  exitz $m15\n",
                 ET_INVALID_INSTR, "trap is not allowed in a rpt body");
}

/* $COUNT_L counts tile cycles (a worker's next issue is 6 later), $DBG_DATA, undefined CSRs in
 * both contexts, delay, the CCCS loads. */
static void test_csrs(void)
{
    tile t;
    CHECK_EQ(run(&t, "ipu2",
                 "  get $m0, 0x60\n  nop\n  get $m1, 0x60\n  get $m2, 0x61\n  setzi $m3, 0xABC\n  put 0x70, $m3\n"
                 "  get $m4, 0x70\n  exitz $m15\n"), 0);
    CHECK_EQ(reg(&t, "w0.$m1") - reg(&t, "w0.$m0"), 12);
    CHECK(reg(&t, "w0.$m0") > 0);
    CHECK_EQ(reg(&t, "w0.$m2"), 0);
    CHECK_EQ(reg(&t, "w0.$m4"), 0xABC);
    CHECK_EQ(reg(&t, "$DBG_DATA"), 0xABC);
    close_tile(&t);
    expect_raise("ipu2", "  put 0x60, $m0\n  exitz $m15\n", ET_INVALID_INSTR,
                 "put: CSR 0x60 is not writable in the worker (INVALID_CSR)");
    expect_raise("ipu2", "  uput 9, $a0\n  exitz $m15\n", ET_INVALID_INSTR, "uput: no upper CSR 9 (INVALID_CSR)");

    /* the supervisor: its own undefined CSRs, delay, $SCOUNT_L, the CCCS loads */
    static const struct { const char *text; int etype; const char *says; } sup[] = {
        { "  get $m0, 0x40\n", ET_INVALID_INSTR, "get: no CSR 0x40 in the supervisor (INVALID_CSR)" },
        { "  put 0x72, $m0\n", ET_INVALID_INSTR, "put: CSR 0x72 is not writable in the supervisor (INVALID_CSR)" },
        { "  setzi $m0, 0x80000\n  put 0x50, $m0\n  ld128putcs 3\n", ET_INVALID_ADDR, "slot 3 is odd (INVALID_CCCS_MISALIGNED)" },
        { "  setzi $m0, 0x60000\n  put 0x50, $m0\n  ld128putcs 2\n", ET_INVALID_ADDR, "ld128putcs: 128-bit load at 0x60000: only region 1" },
        { "  setzi $m0, 0x80004\n  put 0x50, $m0\n  ld64putcs 2\n", ET_INVALID_ADDR, "ld64putcs: load at 0x80004 is not 8-byte aligned" },
        /* worker-only instructions are not in the supervisor's set: illegal where they stand */
        { "  uget $a0, 0\n", ET_INVALID_INSTR, "at pc 0x3000: illegal instruction 0x51000800 (uget is an instruction of set 0; this context decodes set 1) [at 0x4c000]" },
        { "  get $m0, 0x70\n  exitz $m15\n", ET_INVALID_INSTR, "illegal instruction 0x43f04000 (exitz is an instruction of set 0; this context decodes set 1) [at 0x4c004]" },
    };
    for (size_t i = 0; i < sizeof sup / sizeof sup[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "%s  bri 0x4c000\n", sup[i].text);
        open_tile(&t);
        load_code(&t, text, 0x4C000);
        rerun_workers(&t, 200);
        CHECK_EQ(peek(&t, "$SSR", 0) >> 4 & 0xF, sup[i].etype);
        CHECK_CONTAINS(out(&t), sup[i].says);
        CHECK_CONTAINS(out(&t), "context 0");
        close_tile(&t);
    }

    open_tile(&t);
    for (uint32_t i = 0; i < 6; i++) poke(&t, IN + 4 * i, 0xC0 + i);
    load_code(&t,
              "  get $m0, 0x60\n  nop\n  get $m1, 0x60\n  delay 10\n  get $m2, 0x60\n"
              "  setzi $m5, 0x80000\n  put 0x50, $m5\n  ld128putcs 254\n  ld64putcs 7\n  get $m6, 0x50\n  bri 0x4c028\n",
              0x4C000);
    rerun_workers(&t, 300);
    CHECK_EQ(peek(&t, "$SSR", 0) >> 4 & 0xF, 0);
    CHECK_EQ(peek(&t, "$m1", 0) - peek(&t, "$m0", 0), 2);          /* one per cycle without workers */
    CHECK_EQ(peek(&t, "$m2", 0) - peek(&t, "$m1", 0), 2 + 11);     /* delay 10: 11 more */
    CHECK_EQ(peek(&t, "$CCCS254.lo", 0), 0xC0);
    CHECK_EQ(peek(&t, "$CCCS255.hi", 0), 0xC3);
    CHECK_EQ(peek(&t, "$CCCS7.lo", 0), 0xC4);
    CHECK_EQ(peek(&t, "$CCCS7.hi", 0), 0xC5);
    CHECK_EQ(peek(&t, "$m6", 0), 0x80018);
    close_tile(&t);
}

int main(void)
{
    test_ops();
    test_forms();
    test_loads();
    test_load_errors();
    test_streams();
    test_control();
    test_csrs();
    return CHECK_DONE();
}
