/* The IPU tile's floating point (models/ipu/ipu_float.h, insns_fp.h).
 *
 * The numeric core against references written here independently (ldexp/frexp/nearbyint in
 * double): every f16 pattern to f32; f32 to f16 at every f16 value, every tie between two f16
 * neighbours and one f32 ulp either side of it; f16 and f32 + - * / on fixed-seed random pairs
 * (double rounding through double is innocuous for these: 53 >= 2 * 24 + 2), flags included.
 * Then instructions on a worker: broadcast forms, signed zeros and NaNs in compares and max/min,
 * conversions and their saturation, f32int's modes, the classes, the accumulators, the flags in
 * $FP_STS, a trap (ETYPE FP naming the flag), NANOO, stochastic rounding refused, a memory
 * sweep through a loop, and the issue costs of multi-cycle aux instructions. */
#include <math.h>

#include "../../models/ipu/ipu_float.h"
#include "tile.h"

/* ---- references ------------------------------------------------------------------------------------ */

static double ref_f16_value(uint16_t h)
{
    const int exp = h >> 10 & 0x1F, man = h & 0x3FF;
    const double v = exp == 31 ? INFINITY : exp ? ldexp(1024 + man, exp - 25) : ldexp(man, -24);
    return h & 0x8000 ? -v : v;
}

/* The f16 nearest to x (ties to even), x not a NaN; *oflo when it is an infinity from a finite x. */
static uint16_t ref_f16(double x, int *oflo)
{
    const uint16_t s = signbit(x) ? 0x8000 : 0;
    x = fabs(x);
    if (x == 0) return s;
    if (isinf(x)) return s | 0x7C00;
    int k;
    (void)frexp(x, &k);                              /* x in [2^(k-1), 2^k) */
    int q = k - 1 < -14 ? -24 : k - 11;              /* the unit of the last bit */
    double m = nearbyint(ldexp(x, -q));
    if (q == -24) return (uint16_t)(s | (int)m);
    if (m == 2048) m = 1024, q++;
    if (q + 25 >= 31) {
        *oflo = 1;
        return s | 0x7C00;
    }
    return (uint16_t)(s | (q + 25) << 10 | ((int)m - 1024));
}

static uint32_t f32bits(float f)
{
    uint32_t w;
    memcpy(&w, &f, 4);
    return w;
}

static float bitsf32(uint32_t w)
{
    float f;
    memcpy(&f, &w, 4);
    return f;
}

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint32_t next32(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* ---- the numeric core ------------------------------------------------------------------------------ */

static void test_conversions(void)
{
    int bad = 0;
    for (uint32_t h = 0; h < 0x10000; h++) {
        ipu_fp e = { 0 };
        const uint32_t got = ipu_f16_to_f32(&e, (uint16_t)h);
        const bool nan = (h & 0x7FFF) > 0x7C00;
        uint32_t want;
        if (nan) want = (h & 0x8000) << 16 | 0x7F800000u | (h & 0x3FF) << 13 | 0x400000u;
        else if ((h & 0x7FFF) == 0x7C00) want = (h & 0x8000) << 16 | 0x7F800000u;
        else want = f32bits((float)ref_f16_value((uint16_t)h));
        const uint32_t flags = nan && !(h & 0x200) ? IPU_FP_INV : 0;
        if (got != want || e.flags != flags) {
            if (bad++ < 5) fprintf(stderr, "f16tof32 0x%04x: 0x%08x flags %u, want 0x%08x %u\n", h, got, e.flags, want, flags);
        }
        /* and back, exactly, for every non-NaN */
        if (!nan && ipu_f32_to_f16(&e, got) != h && bad++ < 5) fprintf(stderr, "f32tof16 0x%08x != 0x%04x\n", got, h);
    }
    CHECK_EQ(bad, 0);

    /* f32 -> f16 at every tie between neighbours and an f32 ulp either side (the RNE cases),
     * and on random f32 patterns */
    bad = 0;
    for (uint32_t h = 0; h < 0x7C00; h++)
        for (int sign = 0; sign < 2; sign++) {
            const double lo = ref_f16_value((uint16_t)h), hi = ref_f16_value((uint16_t)(h + 1));
            const float mid = (float)((lo + hi) / 2);       /* exact: the tie has 13 bits */
            const float xs[3] = { mid, nextafterf(mid, 0), nextafterf(mid, INFINITY) };
            for (int k = 0; k < 3; k++) {
                const float x = sign ? -xs[k] : xs[k];
                ipu_fp e = { 0 };
                int oflo = 0;
                const uint16_t got = ipu_f32_to_f16(&e, f32bits(x)), want = ref_f16(x, &oflo);
                if ((got != want || (e.flags != 0) != (oflo != 0)) && bad++ < 5)
                    fprintf(stderr, "f32tof16 %a: 0x%04x, want 0x%04x\n", x, got, want);
            }
        }
    for (int i = 0; i < 200000; i++) {
        const uint32_t a = next32();
        if (ipu_f32_nan(a)) continue;
        ipu_fp e = { 0 };
        int oflo = 0;
        const uint16_t got = ipu_f32_to_f16(&e, a), want = ref_f16(bitsf32(a), &oflo);
        if ((got != want || e.flags != (oflo ? IPU_FP_OFLO : 0u)) && bad++ < 5)
            fprintf(stderr, "f32tof16 0x%08x: 0x%04x, want 0x%04x\n", a, got, want);
    }
    CHECK_EQ(bad, 0);

    /* hand-picked: RNE ties both ways, the largest f16, overflow, the subnormals, NaN payloads */
    static const struct { uint32_t f32; uint16_t f16; uint32_t flags; } cases[] = {
        { 0x3F801000, 0x3C00, 0 },            /* 1 + 2^-11: a tie, to even (down) */
        { 0x3F803000, 0x3C02, 0 },            /* 1 + 3 * 2^-11: a tie, to even (up) */
        { 0x477FE000, 0x7BFF, 0 },            /* 65504 */
        { 0x477FEFFF, 0x7BFF, 0 },            /* just below the overflow tie */
        { 0x477FF000, 0x7C00, IPU_FP_OFLO },  /* 65520 rounds to infinity */
        { 0x33800000, 0x0001, 0 },            /* 2^-24, the smallest subnormal */
        { 0x33000000, 0x0000, 0 },            /* 2^-25, a tie, to even (0) */
        { 0x33000001, 0x0001, 0 },            /* just above it */
        { 0xB3C00000, 0x8002, 0 },            /* -1.5 * 2^-24, a tie, to even (2) */
        { 0x387FC000, 0x03FF, 0 },            /* the largest subnormal */
        { 0x387FE000, 0x0400, 0 },            /* rounds up into the normals */
        { 0x00000001, 0x0000, 0 },            /* an f32 subnormal */
        { 0x80000000, 0x8000, 0 },            /* -0 */
        { 0xFF800000, 0xFC00, 0 },            /* -inf */
        { 0x7FC12000, 0x7E09, 0 },            /* a quiet NaN keeps its payload's top bits */
        { 0x7F812000, 0x7E09, IPU_FP_INV },   /* a signalling one is quieted, INV */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ipu_fp e = { 0 };
        CHECK_EQ(ipu_f32_to_f16(&e, cases[i].f32), cases[i].f16);
        CHECK_EQ(e.flags, cases[i].flags);
    }
    ipu_fp e = { .nanoo = true };
    CHECK_EQ(ipu_f32_to_f16(&e, 0x477FF000), IPU_F16_QNAN);     /* NANOO: NaN, OFLO still set */
    CHECK_EQ(e.flags, IPU_FP_OFLO);
}

/* A NaN operand's result and the flags the op should raise, or false for a non-NaN case. */
static bool nan_case(bool an, bool bn, bool as, bool bs, uint32_t a, uint32_t b, uint32_t quiet, uint32_t *want,
                     uint32_t *flags)
{
    if (!an && !bn) return false;
    *want = (an ? a : b) | quiet;
    *flags = as || bs ? IPU_FP_INV : 0;
    return true;
}

static double ref_op(enum ipu_fop op, double x, double y)
{
    return op == IPU_FADD ? x + y : op == IPU_FSUB ? x - y : op == IPU_FMUL ? x * y : x / y;
}

/* The flags of a non-NaN result r of finite-or-not x, y. */
static uint32_t ref_flags(enum ipu_fop op, double r, double x, double y, int oflo)
{
    if (isnan(r)) return IPU_FP_INV;
    if (isinf(r) && isfinite(x) && isfinite(y)) return op == IPU_FDIV && y == 0 ? IPU_FP_DIV0 : IPU_FP_OFLO;
    return oflo ? IPU_FP_OFLO : 0;
}

static void test_arithmetic(void)
{
    static const enum ipu_fop ops[] = { IPU_FADD, IPU_FSUB, IPU_FMUL, IPU_FDIV };
    int bad = 0;
    for (int i = 0; i < 300000; i++) {
        const enum ipu_fop op = ops[i & 3];
        /* f16 */
        const uint32_t r32 = next32();
        const uint16_t a = (uint16_t)r32, b = (uint16_t)(r32 >> 16);
        ipu_fp e = { 0 };
        const uint16_t got = ipu_f16_op(&e, op, a, b);
        uint32_t want, flags;
        if (!nan_case(ipu_f16_nan(a), ipu_f16_nan(b), ipu_f16_nan(a) && !(a & 0x200), ipu_f16_nan(b) && !(b & 0x200), a,
                      b, 0x200, &want, &flags)) {
            const double x = ref_f16_value(a), y = ref_f16_value(b), r = ref_op(op, x, y);
            int oflo = 0;
            want = isnan(r) ? IPU_F16_QNAN : ref_f16(r, &oflo);
            flags = ref_flags(op, r, x, y, oflo);
        }
        if ((got != want || e.flags != flags) && bad++ < 5)
            fprintf(stderr, "f16 op %d 0x%04x 0x%04x: 0x%04x/%u, want 0x%04x/%u\n", op, a, b, got, e.flags, want, flags);
        /* f32 */
        const uint32_t p = next32(), q = next32();
        ipu_fp f = { 0 };
        const uint32_t got32 = ipu_f32_op(&f, op, p, q);
        if (!nan_case(ipu_f32_nan(p), ipu_f32_nan(q), ipu_f32_snan(p), ipu_f32_snan(q), p, q, 0x400000, &want, &flags)) {
            const double x = bitsf32(p), y = bitsf32(q), r = ref_op(op, x, y);
            const float rf = (float)r;
            want = isnan(r) ? IPU_F32_QNAN : f32bits(rf);
            flags = ref_flags(op, r, x, y, isinf(rf) && !isinf(r));
        }
        if ((got32 != want || f.flags != flags) && bad++ < 5)
            fprintf(stderr, "f32 op %d 0x%08x 0x%08x: 0x%08x/%u, want 0x%08x/%u\n", op, p, q, got32, f.flags, want, flags);
    }
    CHECK_EQ(bad, 0);

    /* hand-picked f16: a subnormal result, a tie, overflow, inf - inf, x/0, 0/0 */
    static const struct { enum ipu_fop op; uint16_t a, b, r; uint32_t flags; } h[] = {
        { IPU_FMUL, 0x0400, 0x3800, 0x0200, 0 },              /* 2^-14 * 0.5: subnormal kept */
        { IPU_FMUL, 0x0001, 0x3800, 0x0000, 0 },              /* 2^-25: tie to even, 0 */
        { IPU_FADD, 0x3C00, 0x1000, 0x3C00, 0 },              /* 1 + 2^-11: tie to even */
        { IPU_FADD, 0x7BFF, 0x7BFF, 0x7C00, IPU_FP_OFLO },
        { IPU_FSUB, 0x7C00, 0x7C00, IPU_F16_QNAN, IPU_FP_INV },
        { IPU_FDIV, 0x3C00, 0x8000, 0xFC00, IPU_FP_DIV0 },    /* 1 / -0 = -inf */
        { IPU_FDIV, 0x0000, 0x0000, IPU_F16_QNAN, IPU_FP_INV },
        { IPU_FSUB, 0x0000, 0x0000, 0x0000, 0 },              /* 0 - 0 = +0 */
        { IPU_FADD, 0x8000, 0x8000, 0x8000, 0 },              /* -0 + -0 = -0 */
        { IPU_FCMPEQ, 0x8000, 0x0000, 0xFFFF, 0 },            /* -0 == +0 */
        { IPU_FCMPLT, 0x8000, 0x0000, 0x0000, 0 },
        { IPU_FCMPNE, 0x7E00, 0x7E00, 0xFFFF, 0 },            /* NaN != NaN, quietly */
        { IPU_FCMPEQ, 0x7D00, 0x3C00, 0x0000, IPU_FP_INV },   /* a signalling NaN raises */
        { IPU_FMAX, 0x8000, 0x0000, 0x0000, 0 },              /* max(-0, +0) = +0 */
        { IPU_FMIN, 0x0000, 0x8000, 0x8000, 0 },
        { IPU_FMAX, 0x7E00, 0x3C00, 0x3C00, 0 },              /* a quiet NaN loses */
        { IPU_FMIN, 0x7D00, 0x3C00, 0x7F00, IPU_FP_INV },     /* a signalling one wins, quieted */
        { IPU_FABSMAX, 0xC000, 0x3C00, 0x4000, 0 },
        { IPU_FABSADD, 0xC000, 0xBC00, 0x4200, 0 },
    };
    for (size_t i = 0; i < sizeof h / sizeof h[0]; i++) {
        ipu_fp e = { 0 };
        CHECK_EQ(ipu_f16_op(&e, h[i].op, h[i].a, h[i].b), h[i].r);
        CHECK_EQ(e.flags, h[i].flags);
    }
    ipu_fp e = { .nanoo = true };
    CHECK_EQ(ipu_f32_op(&e, IPU_FMUL, 0x7F000000, 0x40000000), IPU_F32_QNAN);   /* NANOO */
    CHECK_EQ(e.flags, IPU_FP_OFLO);
    e = (ipu_fp){ 0 };
    CHECK_EQ(ipu_f32_op(&e, IPU_FADD, 0x7FC00123, 0x7F800456), 0x7FC00123);      /* Src0's NaN */
    CHECK_EQ(e.flags, IPU_FP_INV);                                                /* Src1 signals */
    CHECK_EQ(ipu_f32_op(&e, IPU_FMUL, 0x00800000, 0x3F000000), 0x00400000);      /* f32 subnormal kept */
}

static void test_other_core(void)
{
    /* f32int's five modes, at -2.5 and 2.5 */
    static const float in[2] = { -2.5f, 2.5f };
    static const float want[5][2] = { { -2, 2 }, { -2, 3 }, { -3, 2 }, { -2, 2 }, { -3, 3 } };
    for (uint32_t m = 0; m < 5; m++)
        for (int i = 0; i < 2; i++) {
            ipu_fp e = { 0 };
            CHECK_EQ(ipu_f32_int(&e, f32bits(in[i]), m), f32bits(want[m][i]));
        }
    ipu_fp e = { 0 };
    CHECK_EQ(ipu_f32_int(&e, f32bits(1.0f), 5), -1);
    /* to integers: nearest even, saturation and NaN raise INV */
    CHECK_EQ(ipu_f32_to_int(&e, f32bits(2.5f), true), 2);
    CHECK_EQ(ipu_f32_to_int(&e, f32bits(-3.5f), true), (uint32_t)-4);
    CHECK_EQ(e.flags, 0);
    CHECK_EQ(ipu_f32_to_int(&e, f32bits(3e9f), true), 0x7FFFFFFF);
    CHECK_EQ(e.flags, IPU_FP_INV);
    e = (ipu_fp){ 0 };
    CHECK_EQ(ipu_f32_to_int(&e, f32bits(3e9f), false), 3000000000u);
    CHECK_EQ(ipu_f32_to_int(&e, f32bits(-0.4f), false), 0);            /* rounds to -0: fine */
    CHECK_EQ(e.flags, 0);
    CHECK_EQ(ipu_f32_to_int(&e, f32bits(-1.0f), false), 0);
    CHECK_EQ(ipu_f32_to_int(&e, 0x7FC00000, true), 0);
    CHECK_EQ(e.flags, IPU_FP_INV);
    /* classes */
    static const uint32_t f32c[10] = { 0x7F800001, 0x7FC00000, 0xFF800000, 0xBF800000, 0x80000001,
                                       0x80000000, 0x00000000, 0x00000001, 0x3F800000, 0x7F800000 };
    static const uint16_t f16c[10] = { 0x7C01, 0x7E00, 0xFC00, 0xBC00, 0x8001, 0x8000, 0x0000, 0x0001, 0x3C00, 0x7C00 };
    for (uint32_t k = 0; k < 10; k++) {
        CHECK_EQ(ipu_f32_class(f32c[k]), k);
        CHECK_EQ(ipu_f16_class(f16c[k]), k);
    }
    /* transcendentals: exact cases, flags */
    e = (ipu_fp){ 0 };
    CHECK_EQ(ipu_f32_fn(&e, IPU_EXP, 0), 0x3F800000);
    CHECK_EQ(ipu_f16_fn(&e, IPU_SIGM, 0), 0x3800);
    CHECK_EQ(ipu_f32_fn(&e, IPU_SQRT, f32bits(2.0f)), f32bits(sqrtf(2.0f)));
    CHECK_EQ(ipu_f32_fn(&e, IPU_SQRT, 0x80000000), 0x80000000);          /* sqrt(-0) = -0 */
    CHECK_EQ(ipu_f16_fn(&e, IPU_EXP2, 0x4400), 0x4C00);                   /* 2^4 = 16 */
    CHECK_EQ(e.flags, 0);
    CHECK_EQ(ipu_f32_fn(&e, IPU_LN, 0), 0xFF800000);                      /* ln 0 = -inf, DIV0 */
    CHECK_EQ(e.flags, IPU_FP_DIV0);
    e = (ipu_fp){ 0 };
    CHECK_EQ(ipu_f32_fn(&e, IPU_SQRT, f32bits(-1.0f)), IPU_F32_QNAN);
    CHECK_EQ(e.flags, IPU_FP_INV);
    e = (ipu_fp){ 0 };
    CHECK_EQ(ipu_f16_fn(&e, IPU_EXP, 0x4C00), 0x7C00);                    /* e^16 > 65504 */
    CHECK_EQ(e.flags, IPU_FP_OFLO);
}

/* ---- instructions on a worker ----------------------------------------------------------------------- */

#define CODE 0x4C100u
#define IN 0x90000u
#define OUT 0xA0000u

/* Load $a0..$a3 from IN (in[0..3]), run `body`, store $a4..$a7 to OUT and $FP_STS after them;
 * `pre` runs first (e.g. $FP_CTL). Returns $WSR.ETYPE. */
static int run_insn(tile *t, const char *pre, const char *body, const uint32_t in[4], uint32_t out[5])
{
    char text[1024];
    snprintf(text, sizeof text,
             "%s  setzi $m2, 0x%x\n  setzi $m3, 0x%x\n  ld64 $a0:1, $m2, $m15, 0\n  ld64 $a2:3, $m2, $m15, 1\n%s\n"
             "  st64 $a4:5, $m3, $m15, 0\n  st64 $a6:7, $m3, $m15, 1\n  uget $a4, 0\n  st64 $a4:5, $m3, $m15, 2\n"
             "  exitz $m15\n",
             pre ? pre : "", IN, OUT, body);
    open_tile(t);
    for (int i = 0; i < 4; i++) poke(t, IN + 4u * (uint32_t)i, in[i]);
    for (int i = 0; i < 6; i++) poke(t, OUT + 4u * (uint32_t)i, 0xDEADBEEF);
    load_code(t, text, CODE);
    run_workers(t, CODE, 0, 5000);
    for (int i = 0; i < 4; i++) out[i] = peek_mem(t, OUT + 4u * (uint32_t)i);
    out[4] = peek_mem(t, OUT + 16);
    return (int)(peek(t, "w0.$WSR", 0) >> 4 & 0xF);
}

static const char *out_text(const tile *t) { return t->out.text ? t->out.text : ""; }

static void expect(const char *pre, const char *body, const uint32_t in[4], int n, const uint32_t *want, uint32_t sts)
{
    tile t;
    uint32_t out[5];
    const int failures = check_failures;
    CHECK_EQ(run_insn(&t, pre, body, in, out), 0);
    for (int i = 0; i < n; i++) CHECK_EQ(out[i], want[i]);
    CHECK_EQ(out[4], sts);
    if (check_failures != failures) fprintf(stderr, "in: %s\n%s", body, out_text(&t));
    close_tile(&t);
}

static void test_instructions(void)
{
    /* f16 lanes: $a0 = [1.0, 2.0] (low, high), $a1 = [0.5, -3.0] */
    const uint32_t h[4] = { 0x40003C00, 0xC2003800, 0x3C003C00, 0x7C00FC00 };
    expect(NULL, "  f16v2add $a4, $a0, $a1", h, 1, (uint32_t[]){ 0xBC003E00 }, 0);      /* [1.5, -1] */
    expect(NULL, "  f16v2add $a4, $a0:BL, $a1", h, 1, (uint32_t[]){ 0xC0003E00 }, 0);   /* [1.5, -2] */
    expect(NULL, "  f16v2mul $a4, $a0:BU, $a1", h, 1, (uint32_t[]){ 0xC6003C00 }, 0);   /* [1, -6] */
    expect(NULL, "  f16v4sub $a4:5, $a0:1, $a2:3", h, 2, (uint32_t[]){ 0x3C000000, 0xFC007C00 }, 0);   /* [0, 1, inf, -inf] */
    expect(NULL, "  f16v2cmplt $a4, $a1, $a0", h, 1, (uint32_t[]){ 0xFFFFFFFF }, 0);
    expect(NULL, "  f16v2cmpge $a4, $a0, $a2", h, 1, (uint32_t[]){ 0xFFFFFFFF }, 0);
    expect(NULL, "  f16v2clamp $a4, $a1, $a2", h, 1, (uint32_t[]){ 0x3C003C00 }, 0);   /* clamp to [1, 1] */
    expect(NULL, "  f16v4maxc $a4, $a0:1", h, 1, (uint32_t[]){ 0x38004000 }, 0);       /* [2, 0.5] */
    expect(NULL, "  f16v2sum $a4, $a0", h, 1, (uint32_t[]){ 0x40400000 }, 0);          /* 3.0f */
    expect(NULL, "  f16v2tof32 $a4:5, $a1", h, 2, (uint32_t[]){ 0x3F000000, 0xC0400000 }, 0);
    expect(NULL, "  f16v4class $a4, $a2:3", h, 1, (uint32_t[]){ 0x09020808 }, 0);
    /* inf + -inf in lane 1 of the second pair: INV in $FP_STS, the canonical NaN */
    expect(NULL, "  f16v4add $a4:5, $a2:3, $a2:3", h, 2, (uint32_t[]){ 0x40004000, 0x7C00FC00 }, 0);
    expect(NULL, "  f16v2sub $a4, $a3, $a3", h, 1, (uint32_t[]){ 0x7E007E00 }, IPU_FP_INV);

    /* f32: $a0 = 1.5, $a1 = -0.0, $a2 = 0.0, $a3 = 2^127 */
    const uint32_t f[4] = { 0x3FC00000, 0x80000000, 0x00000000, 0x7F000000 };
    expect(NULL, "  f32v2mul $a4:5, $a0:B, $a2:3", f, 2, (uint32_t[]){ 0, 0x7F400000 }, 0);
    expect(NULL, "  f32cmpeq $a4, $a1, $a2", f, 1, (uint32_t[]){ 0xFFFFFFFF }, 0);       /* -0 == +0 */
    expect(NULL, "  f32v2max $a4:5, $a0:1, $a2:3", f, 2, (uint32_t[]){ 0x3FC00000, 0x7F000000 }, 0);
    expect(NULL, "  f32min $a4, $a1, $a2", f, 1, (uint32_t[]){ 0x80000000 }, 0);
    expect(NULL, "  f32div $a4, $a0, $a1", f, 1, (uint32_t[]){ 0xFF800000 }, IPU_FP_DIV0);
    expect(NULL, "  f32v2add $a4:5, $a2:3, $a2:3", f, 2, (uint32_t[]){ 0, 0x7F800000 }, IPU_FP_OFLO);
    expect(NULL, "  f32tof16 $a4, $a0", f, 1, (uint32_t[]){ 0x3E003E00 }, 0);
    expect(NULL, "  f32v2tof16 $a4, $a2:3", f, 1, (uint32_t[]){ 0x7C000000 }, IPU_FP_OFLO);
    expect(NULL, "  f32toi32 $a4, $a3", f, 1, (uint32_t[]){ 0x7FFFFFFF }, IPU_FP_INV);
    expect(NULL, "  f32int $a4, $a0, 2", f, 1, (uint32_t[]){ 0x3F800000 }, 0);
    expect(NULL, "  f32fromi32 $a4, $a1", f, 1, (uint32_t[]){ 0xCF000000 }, 0);          /* -2^31 */
    expect(NULL, "  f32fromui32 $a4, $a1", f, 1, (uint32_t[]){ 0x4F000000 }, 0);         /* 2^31 */
    expect(NULL, "  f32oox $a4, $a3", f, 1, (uint32_t[]){ 0x00400000 }, 0);              /* 2^-127, subnormal */
    expect(NULL, "  f32sqrt $a4, $a1", f, 1, (uint32_t[]){ 0x80000000 }, 0);

    /* the accumulators: f32v4acc twice, then two gina read the four sums in order */
    const uint32_t q[4] = { 0x3F800000, 0x40000000, 0x40400000, 0x40800000 };     /* 1 2 3 4 */
    expect("  setzi $a0, 8\n  uput 1, $a0\n",
           "  f32v4acc $a0:3\n  f32v4acc $a0:3\n  f32v2gina $a4:5, $azeros, 0\n  f32v2gina $a6:7, $azeros, 0", q, 4,
           (uint32_t[]){ 0x40000000, 0x40800000, 0x40C00000, 0x41000000 }, 0);
    /* f16v4cmac of [1 2 | 3 4] . [1 2 | 3 4] = [5, 25]; f16v2gina reads them as f16 */
    const uint32_t c[4] = { 0x40003C00, 0x44004200, 0, 0 };
    expect("  setzi $a0, 8\n  uput 1, $a0\n", "  f16v4cmac $a0:1, $a0:1\n  f16v2gina $a4, $azero, 0", c, 1,
           (uint32_t[]){ 0x4E404500 }, 0);
    /* f16v4mix with $TAS = [a = 1, b = 2]: the second pops 1 * x + 2 * x of the first */
    expect("  setzi $a4, 0x3C00\n  or $a4, $a4, 0x40000000\n  uput 8, $a4\n",
           "  f16v4mix $azeros, $a0:1, $a0:1\n  f16v4mix $a4:5, $azeros, $azeros", c, 2,
           (uint32_t[]){ 0x46004200 /* [3, 6] */, 0x4A004880 /* [9, 12] */ }, 0);

    /* NANOO: overflow gives NaN; a trap: DIV0 enabled, the instruction writes nothing */
    expect("  or $a5, $a15, 0x100000\n  uput 2, $a5\n", "  f32mul $a4, $a3, $a3", f, 1, (uint32_t[]){ IPU_F32_QNAN },
           IPU_FP_OFLO);
    tile t;
    uint32_t out[5];
    CHECK_EQ(run_insn(&t, "  setzi $a5, 2\n  uput 2, $a5\n", "  f32div $a4, $a0, $a2", f, out), 5);
    CHECK_CONTAINS(out_text(&t), "f32div: floating-point exception DIV0 (lane 0: operands 0x3fc00000, 0x0)");
    CHECK_EQ(peek(&t, "w0.$FP_STS", 0), IPU_FP_DIV0);
    CHECK_EQ(out[0], 0xDEADBEEF);
    close_tile(&t);
    /* stochastic rounding: refused for an instruction that rounds, fine for one that does not */
    CHECK_EQ(run_insn(&t, "  setzi $a5, 0x80000\n  uput 2, $a5\n", "  f32add $a4, $a0, $a0", f, out), 13);
    CHECK_CONTAINS(out_text(&t), "not modelled yet: f32add with stochastic rounding");
    close_tile(&t);
    CHECK_EQ(run_insn(&t, "  setzi $a5, 0x80000\n  uput 2, $a5\n", "  f32cmpgt $a4, $a0, $a2", f, out), 0);
    CHECK_EQ(out[0], 0xFFFFFFFF);
    close_tile(&t);
    /* $FP_CTL.RND other than 0: its encodings are not public, so refused likewise */
    CHECK_EQ(run_insn(&t, "  setzi $a5, 0x10000\n  uput 2, $a5\n", "  f16v2mul $a4, $a0, $a0", f, out), 13);
    CHECK_CONTAINS(out_text(&t), "not modelled yet: f16v2mul with $FP_CTL.RND = 1");
    close_tile(&t);
    /* f32int of a mode the pack does not give */
    CHECK_EQ(run_insn(&t, NULL, "  f32int $a4, $a0, 7", f, out), 9);
    CHECK_CONTAINS(out_text(&t), "f32int: rounding mode 7 is not one of 0-4");
    close_tile(&t);
    /* a row that depends on unpublished facts says why */
    CHECK_EQ(run_insn(&t, NULL, "  f16v4sisoamp $a4:5, $a0:1, $a2:3, 0", f, out), 13);
    CHECK_CONTAINS(out_text(&t), "not modelled yet: f16v4sisoamp (the AMP/SLIC engine");
    close_tile(&t);
}

/* A loop over 256 random 64-bit pairs in memory: every lane equals the core's result, whose
 * sweep above checked it against the references. */
static void test_sweep(void)
{
    static const struct { const char *insn; bool half; enum ipu_fop op; } ops[] = {
        { "f16v4add", true, IPU_FADD },   { "f16v4sub", true, IPU_FSUB },   { "f16v4mul", true, IPU_FMUL },
        { "f16v4cmplt", true, IPU_FCMPLT }, { "f32v2add", false, IPU_FADD }, { "f32v2sub", false, IPU_FSUB },
        { "f32v2mul", false, IPU_FMUL }, { "f32v2max", false, IPU_FMAX },
    };
    enum { N = 256, A = 0x90000, B = 0x98000, C = 0xA0000 };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        tile t;
        open_tile(&t);
        static uint32_t a[2 * N], b[2 * N];
        for (uint32_t i = 0; i < 2 * N; i++) {
            a[i] = next32();
            b[i] = next32();
            poke(&t, A + 4 * i, a[i]);
            poke(&t, B + 4 * i, b[i]);
        }
        char text[512];
        snprintf(text, sizeof text,
                 "  setzi $m2, 0x%x\n  setzi $m3, 0x%x\n  setzi $m4, 0x%x\n  setzi $m5, %d\n"
                 "  ld64step $a0:1, $m15, $m2+=, 1\n  ld64step $a2:3, $m15, $m3+=, 1\n  %s $a4:5, $a0:1, $a2:3\n"
                 "  st64step $a4:5, $m15, $m4+=, 1\n  add $m5, $m5, -1\n  brnz $m5, 0x%x\n  exitz $m15\n",
                 A, B, C, N, ops[k].insn, CODE + 16);
        load_code(&t, text, CODE);
        run_workers(&t, CODE, 0, 6 * 7 * N + 200);
        CHECK_EQ(peek(&t, "w0.exit_status", 0), 1);
        int bad = 0;
        for (uint32_t i = 0; i < 2 * N; i++) {
            ipu_fp e = { 0 };
            uint32_t want;
            if (ops[k].half)
                want = ipu_f16_op(&e, ops[k].op, (uint16_t)a[i], (uint16_t)b[i]) |
                       (uint32_t)ipu_f16_op(&e, ops[k].op, (uint16_t)(a[i] >> 16), (uint16_t)(b[i] >> 16)) << 16;
            else
                want = ipu_f32_op(&e, ops[k].op, a[i], b[i]);
            if (peek_mem(&t, C + 4 * i) != want && bad++ < 3)
                fprintf(stderr, "%s word %u: 0x%08x, want 0x%08x\n", ops[k].insn, i, peek_mem(&t, C + 4 * i), want);
        }
        CHECK_EQ(bad, 0);
        close_tile(&t);
    }
}

/* Issue costs (architecture.md 10.2): an n-cycle aux instruction makes the worker's next issue
 * come n x 6 tile cycles later; w0.cycles is 6 x issues - 2 for single-cycle code (test_memory). */
static void test_cycles(void)
{
    static const struct { const char *code; int slots; } cases[] = {
        { "  f32add $a0, $a1, $a1\n", 1 },
        { "  f32exp $a0, $a1\n", 3 },
        { "  f32ln $a0, $a1\n", 6 },
        { "  { nop ; f32sigm $a0, $a1 }\n", 5 },      /* a bundle costs its aux's issues */
        { "  f16v2exp $a0, $azero\n", 1 },            /* the seed's special case */
        { "  f16v2exp $a0, $a1\n", 2 },
        { "  f16v2tanh $a0, $a1\n", 1 },
        { "  setzi $a1, 0\n  or $a1, $a1, 0x40000000\n  f32div $a0, $a1, $a1\n", 2 + 1 },   /* by 2.0 */
        { "  setzi $a1, 0\n  or $a1, $a1, 0x40400000\n  f32div $a0, $a1, $a1\n", 2 + 3 },   /* by 3.0 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tile t;
        const int failures = check_failures;
        open_tile(&t);
        char text[256];
        snprintf(text, sizeof text, "%s  exitz $m15\n", cases[i].code);
        load_code(&t, text, CODE);
        run_workers(&t, CODE, 0, 2000);
        CHECK_EQ(peek(&t, "w0.exit_status", 0), 1);
        CHECK_EQ(peek(&t, "w0.cycles", 0), 6 * (cases[i].slots + 1) - 2);
        if (check_failures != failures) fprintf(stderr, "case %zu: %s", i, out_text(&t));
        close_tile(&t);
    }
}

/* An exception stops the worker even where a multi-cycle aux would block it: a misaligned ld64
 * (main) ends its bundle before the f32exp (aux); a trapping f32div charges no cycles. */
static void test_cycles_after_exception(void)
{
    static const char *const code[] = {
        "  setzi $m2, 0x90004\n  { ld64 $a0:1, $m2, $m15, 0 ; f32exp $a4, $a5 }\n  setzi $m1, 1\n  exitz $m15\n",
        "  setzi $a5, 2\n  uput 2, $a5\n  f32div $a4, $a5, $azero\n  setzi $m1, 1\n  exitz $m15\n",
    };
    for (int i = 0; i < 2; i++) {
        tile t;
        open_tile(&t);
        load_code(&t, code[i], CODE);
        run_workers(&t, CODE, 0, 2000);
        CHECK_EQ(peek(&t, "w0.exit_status", 0), -1);
        CHECK_EQ(peek(&t, "w0.$m1", 0), 0);
        CHECK_EQ(peek(&t, "w0.$WSR", 0) >> 4 & 0xF, i ? 5 : 8);
        close_tile(&t);
    }
}

int main(void)
{
    test_conversions();
    test_arithmetic();
    test_other_core();
    test_instructions();
    test_sweep();
    test_cycles();
    test_cycles_after_exception();
    return CHECK_DONE();
}
