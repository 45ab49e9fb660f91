/* The IPU tile's floating-point numbers, our own code (no engine state here, so the tests
 * include it and sweep it against their own reference): f16 <-> f32 with round-to-nearest-even
 * and subnormals kept, the f32 and f16 arithmetic of the aux pipeline, compares, classes,
 * integer conversions, f32int's rounding modes and the transcendentals, each with the $FP_STS
 * flags it raises (architecture.md 3.2).
 *
 * f32 arithmetic is the host's float with the compiler keeping IEEE semantics: no
 * -ffast-math, FLT_EVAL_METHOD 0 (no x87 excess precision), no contraction into fused
 * multiply-adds, the rounding mode never changed from to-nearest-even. Flags come from looking
 * at operands and results, not from <fenv.h> (portable, and testing fenv after each operation
 * costs far more than the operation). f16 arithmetic is done in f32 and rounded once to f16:
 * for + - * / of f16 values that is the correctly rounded f16 result, since 24 >= 2 * 11 + 2
 * makes the double rounding innocuous.
 *
 * Our choices where the pack says nothing (models/ipu/README.md, "Floating point"):
 *   - a NaN operand gives that NaN made quiet, payload kept (Src0's if both are NaNs); an
 *     invalid operation on non-NaNs gives the canonical quiet NaN 0x7FC00000 / 0x7E00;
 *   - INV: invalid operations (inf - inf, 0 * inf, 0 / 0, sqrt or log of a negative) and any
 *     signalling-NaN operand; DIV0: a finite non-zero value divided by zero (and 1/x, log of
 *     zero); OFLO: an infinite result from finite operands;
 *   - $FP_CTL.NANOO: an overflow gives the canonical quiet NaN instead of the infinity (OFLO
 *     still set);
 *   - compares are quiet (only signalling NaNs raise INV), -0 == +0; max/min are IEEE 754-2008
 *     maxNum/minNum (a quiet NaN loses to a number) with -0 < +0. */
#ifndef ISEKIT_MODEL_IPU_FLOAT_H
#define ISEKIT_MODEL_IPU_FLOAT_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "the IPU's f32 arithmetic needs FLT_EVAL_METHOD 0 (SSE, not x87)"
#endif
#ifdef __FAST_MATH__
#error "the IPU's f32 arithmetic needs IEEE semantics: do not build with -ffast-math"
#endif
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

/* $FP_STS / $FP_CTL bits */
enum { IPU_FP_INV = 1, IPU_FP_DIV0 = 2, IPU_FP_OFLO = 4 };
enum { IPU_FP_CTL_RND_SHIFT = 16, IPU_FP_CTL_ESR = 1u << 19, IPU_FP_CTL_NANOO = 1u << 20 };
enum { IPU_F32_QNAN = 0x7FC00000u, IPU_F16_QNAN = 0x7E00u };

/* The flags of one instruction, and the first lane that raised one (for the trap's message). */
typedef struct ipu_fp {
    uint32_t flags;
    bool nanoo;
    bool noted;
    int lane;                  /* set by the caller before each lane */
    int note_lane;
    uint32_t note_a, note_b;   /* that lane's operands (as bits) */
} ipu_fp;

static inline void ipu_fp_raise(ipu_fp *e, uint32_t flag, uint32_t a, uint32_t b)
{
    e->flags |= flag;
    if (!e->noted) {
        e->noted = true;
        e->note_lane = e->lane;
        e->note_a = a;
        e->note_b = b;
    }
}

static inline float ipu_f32(uint32_t w)
{
    float f;
    memcpy(&f, &w, 4);
    return f;
}

static inline uint32_t ipu_bits(float f)
{
    uint32_t w;
    memcpy(&w, &f, 4);
    return w;
}

static inline bool ipu_f32_nan(uint32_t a) { return (a & 0x7FFFFFFFu) > 0x7F800000u; }
static inline bool ipu_f32_snan(uint32_t a) { return ipu_f32_nan(a) && !(a & 0x400000u); }
static inline bool ipu_f16_nan(uint16_t h) { return (h & 0x7FFFu) > 0x7C00u; }

/* ---- rounding to f16 ------------------------------------------------------------------------------ */

/* sign | the f16 nearest to m * 2^e (ties to even; m > 0), subnormals kept; *oflo when the
 * result is infinite. The one rounding of f32 -> f16 and double -> f16. */
static inline uint16_t ipu_f16_round(uint16_t sign, uint64_t m, int e, bool *oflo)
{
    const int top = 63 - __builtin_clzll(m) + e;          /* the exponent of m's leading bit */
    if (top > 15) {
        *oflo = true;
        return sign | 0x7C00u;
    }
    const int q = top < -14 ? -24 : top - 10;            /* the exponent of the result's last bit */
    uint64_t r;
    if (e >= q) {
        r = m << (e - q);
    } else {
        const int s = q - e;
        if (s >= 64) return sign;                         /* below half the smallest subnormal */
        r = m >> s;
        const uint64_t rem = m & ((UINT64_C(1) << s) - 1), half = UINT64_C(1) << (s - 1);
        if (rem > half || (rem == half && (r & 1))) r++;
    }
    /* a subnormal's r is its encoding (r = 0x400 is the smallest normal); a normal's carries
     * into the exponent when r rounded up to 0x800 */
    const uint32_t h = q == -24 ? (uint32_t)r : ((uint32_t)(q + 25) << 10) + (uint32_t)r - 0x400u;
    if (h >= 0x7C00u) {
        *oflo = true;
        return sign | 0x7C00u;
    }
    return (uint16_t)(sign | h);
}

/* f32 -> f16 as an instruction does it: NaNs quiet with the payload's top bits (INV for a
 * signalling one), overflow OFLO (the canonical NaN with NANOO). */
static inline uint16_t ipu_f32_to_f16(ipu_fp *e, uint32_t a)
{
    const uint16_t sign = (uint16_t)(a >> 16 & 0x8000u);
    const uint32_t exp = a >> 23 & 0xFF, man = a & 0x7FFFFFu;
    if (exp == 0xFF) {
        if (!man) return sign | 0x7C00u;
        if (!(man & 0x400000u)) ipu_fp_raise(e, IPU_FP_INV, a, 0);
        return (uint16_t)(sign | 0x7E00u | man >> 13);
    }
    if (!exp && !man) return sign;
    bool oflo = false;
    const uint16_t h = exp ? ipu_f16_round(sign, man | 0x800000u, (int)exp - 150, &oflo) : ipu_f16_round(sign, man, -149, &oflo);
    if (oflo) {
        ipu_fp_raise(e, IPU_FP_OFLO, a, 0);
        if (e->nanoo) return IPU_F16_QNAN;
    }
    return h;
}

/* double -> f16, rounded once (the transcendentals). NaN: the canonical one. */
static inline uint16_t ipu_f64_to_f16(ipu_fp *e, double d, uint32_t a)
{
    uint64_t w;
    memcpy(&w, &d, 8);
    const uint16_t sign = (uint16_t)(w >> 48 & 0x8000u);
    const int exp = (int)(w >> 52 & 0x7FF);
    const uint64_t man = w & ((UINT64_C(1) << 52) - 1);
    if (exp == 0x7FF) return man ? IPU_F16_QNAN : sign | 0x7C00u;
    if (!exp && !man) return sign;
    bool oflo = false;
    const uint16_t h = exp ? ipu_f16_round(sign, man | UINT64_C(1) << 52, exp - 1075, &oflo)
                           : ipu_f16_round(sign, man, -1074, &oflo);
    if (oflo) {
        ipu_fp_raise(e, IPU_FP_OFLO, a, 0);
        if (e->nanoo) return IPU_F16_QNAN;
    }
    return h;
}

/* f16 -> f32, exact; a NaN keeps its payload and signalling bit (the arithmetic quiets it). */
static inline uint32_t ipu_f16_bits_to_f32(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = h >> 10 & 0x1F, man = h & 0x3FFu;
    if (exp == 0x1F) return sign | 0x7F800000u | man << 13;
    if (exp) return sign | (exp + 112) << 23 | man << 13;
    return sign | ipu_bits((float)man * 0x1p-24f);
}

/* f16 -> f32 as the conversion instructions do it: a signalling NaN is quieted, with INV. */
static inline uint32_t ipu_f16_to_f32(ipu_fp *e, uint16_t h)
{
    const uint32_t a = ipu_f16_bits_to_f32(h);
    if (ipu_f32_snan(a)) {
        ipu_fp_raise(e, IPU_FP_INV, h, 0);
        return a | 0x400000u;
    }
    return a;
}

/* ---- f32 arithmetic ------------------------------------------------------------------------------ */

enum ipu_fop {
    IPU_FADD, IPU_FSUB, IPU_FMUL, IPU_FDIV, IPU_FABSADD,    /* these round */
    IPU_FMAX, IPU_FMIN, IPU_FABSMAX,
    IPU_FCMPEQ, IPU_FCMPNE, IPU_FCMPLT, IPU_FCMPLE, IPU_FCMPGT, IPU_FCMPGE,
};

static inline bool ipu_fop_rounds(enum ipu_fop op) { return op <= IPU_FABSADD; }

/* A result computed from non-NaN operands a, b: INV and the canonical NaN for a NaN; OFLO (or
 * DIV0 for x/0) for an infinity from finite operands. */
static inline uint32_t ipu_f32_result(ipu_fp *e, float r, uint32_t a, uint32_t b, bool div0)
{
    if (isnan(r)) {
        ipu_fp_raise(e, IPU_FP_INV, a, b);
        return IPU_F32_QNAN;
    }
    if (isinf(r) && isfinite(ipu_f32(a)) && isfinite(ipu_f32(b))) {
        ipu_fp_raise(e, div0 ? IPU_FP_DIV0 : IPU_FP_OFLO, a, b);
        if (!div0 && e->nanoo) return IPU_F32_QNAN;
    }
    return ipu_bits(r);
}

/* The NaN operand's result: Src0's NaN if it is one, else Src1's, made quiet (INV when either
 * is signalling). */
static inline uint32_t ipu_f32_nan_result(ipu_fp *e, uint32_t a, uint32_t b)
{
    if (ipu_f32_snan(a) || ipu_f32_snan(b)) ipu_fp_raise(e, IPU_FP_INV, a, b);
    return (ipu_f32_nan(a) ? a : b) | 0x400000u;
}

static inline uint32_t ipu_f32_op(ipu_fp *e, enum ipu_fop op, uint32_t a, uint32_t b)
{
    const float x = ipu_f32(a), y = ipu_f32(b);
    const bool an = ipu_f32_nan(a), bn = ipu_f32_nan(b);
    if (op >= IPU_FCMPEQ) {
        if (ipu_f32_snan(a) || ipu_f32_snan(b)) ipu_fp_raise(e, IPU_FP_INV, a, b);
        bool t;
        switch (op) {
        case IPU_FCMPEQ: t = x == y; break;
        case IPU_FCMPNE: t = x != y; break;
        case IPU_FCMPLT: t = isless(x, y); break;
        case IPU_FCMPLE: t = islessequal(x, y); break;
        case IPU_FCMPGT: t = isgreater(x, y); break;
        default: t = isgreaterequal(x, y); break;
        }
        return t ? 0xFFFFFFFFu : 0;
    }
    if (op == IPU_FMAX || op == IPU_FMIN || op == IPU_FABSMAX) {
        const uint32_t p = op == IPU_FABSMAX ? a & 0x7FFFFFFFu : a, q = op == IPU_FABSMAX ? b & 0x7FFFFFFFu : b;
        if (ipu_f32_snan(a) || ipu_f32_snan(b) || (an && bn)) return ipu_f32_nan_result(e, p, q);
        if (an) return q;
        if (bn) return p;
        const float u = ipu_f32(p), v = ipu_f32(q);
        if (u == v) return op == IPU_FMIN ? p | q : p & q;   /* -0 < +0 (the sign bits decide) */
        return (op == IPU_FMIN ? u < v : u > v) ? p : q;
    }
    if (an || bn) return ipu_f32_nan_result(e, a, b);
    float r;
    switch (op) {
    case IPU_FADD: r = x + y; break;
    case IPU_FSUB: r = x - y; break;
    case IPU_FMUL: r = x * y; break;
    case IPU_FDIV: r = x / y; break;
    default: r = fabsf(x) + fabsf(y); break;
    }
    return ipu_f32_result(e, r, a, b, op == IPU_FDIV && y == 0);
}

/* f16 lanes: through f32 (exact operands, one rounding at the end). A compare gives 0xFFFF. */
static inline uint16_t ipu_f16_op(ipu_fp *e, enum ipu_fop op, uint16_t a, uint16_t b)
{
    const bool noted = e->noted;
    const uint32_t r = ipu_f32_op(e, op, ipu_f16_bits_to_f32(a), ipu_f16_bits_to_f32(b));
    uint16_t h;
    if (op >= IPU_FCMPEQ) {
        h = (uint16_t)r;
    } else if (op == IPU_FMAX || op == IPU_FMIN || op == IPU_FABSMAX) {   /* an operand, exact */
        const uint16_t p = op == IPU_FABSMAX ? a & 0x7FFFu : a, q = op == IPU_FABSMAX ? b & 0x7FFFu : b;
        h = ipu_f32_nan(r) ? (uint16_t)((ipu_f16_nan(p) ? p : q) | 0x200u) : r == ipu_f16_bits_to_f32(p) ? p : q;
    } else {
        h = ipu_f32_to_f16(e, r);     /* r is never a signalling NaN: only OFLO here */
    }
    if (!noted && e->noted) {        /* the trap names the f16 operands */
        e->note_a = a;
        e->note_b = b;
    }
    return h;
}

/* ---- classes, conversions ------------------------------------------------------------------------ */

/* Our class codes, in IEEE 754's class order (the pack gives none): 0 signalling NaN, 1 quiet
 * NaN, 2 -inf, 3 -normal, 4 -subnormal, 5 -0, 6 +0, 7 +subnormal, 8 +normal, 9 +inf. */
static inline uint32_t ipu_class(bool neg, bool inf, bool nan, bool quiet, bool zero, bool sub)
{
    if (nan) return quiet ? 1 : 0;
    const uint32_t k = inf ? 0 : sub ? 2 : zero ? 3 : 1;   /* distance from the sign's end */
    return neg ? 2 + k : 9 - k;
}
static inline uint32_t ipu_f32_class(uint32_t a)
{
    const uint32_t exp = a >> 23 & 0xFF, man = a & 0x7FFFFFu;
    return ipu_class(a >> 31, exp == 0xFF && !man, exp == 0xFF && man, man & 0x400000u, !exp && !man, !exp && man);
}
static inline uint32_t ipu_f16_class(uint16_t h)
{
    const uint32_t exp = h >> 10 & 0x1F, man = h & 0x3FFu;
    return ipu_class(h >> 15, exp == 0x1F && !man, exp == 0x1F && man, man & 0x200u, !exp && !man, !exp && man);
}

/* f32int's rounding modes: 0 nearest even, 1 toward +inf, 2 toward -inf, 3 toward zero, 4
 * nearest with ties away; -1 for any other mode (the caller raises). */
static inline int64_t ipu_f32_int(ipu_fp *e, uint32_t a, uint32_t mode)
{
    if (mode > 4) return -1;
    if (ipu_f32_nan(a)) return ipu_f32_nan_result(e, a, a);
    const float x = ipu_f32(a);
    const float r = mode == 0 ? rintf(x) : mode == 1 ? ceilf(x) : mode == 2 ? floorf(x) : mode == 3 ? truncf(x) : roundf(x);
    return ipu_bits(r);
}

/* f32 -> 32-bit integer: rounded to nearest even first (our choice: poplibs floors with f32int
 * mode 2 before f32toui32, so the conversion does not truncate), then saturated; NaN gives 0.
 * Saturation and NaN raise INV. */
static inline uint32_t ipu_f32_to_int(ipu_fp *e, uint32_t a, bool is_signed)
{
    if (ipu_f32_nan(a)) {
        ipu_fp_raise(e, IPU_FP_INV, a, 0);
        return 0;
    }
    const float r = rintf(ipu_f32(a));
    const float lo = is_signed ? -0x1p31f : 0.0f, hi = is_signed ? 0x1p31f : 0x1p32f;
    if (r < lo || r >= hi) {
        ipu_fp_raise(e, IPU_FP_INV, a, 0);
        return r < lo ? (is_signed ? 0x80000000u : 0) : (is_signed ? 0x7FFFFFFFu : 0xFFFFFFFFu);
    }
    return is_signed ? (uint32_t)(int32_t)r : (uint32_t)r;
}

/* ---- transcendentals, square roots, reciprocals ----------------------------------------------- */

/* The hardware's algorithms are not public: these are the host's libm in double, rounded once
 * (deterministic, close to correctly rounded, not bit-exact to hardware). */
enum ipu_ffn { IPU_EXP, IPU_EXP2, IPU_LN, IPU_LOG2, IPU_SIGM, IPU_TANH, IPU_SQRT, IPU_OOX, IPU_OORX };

static inline double ipu_ffn(enum ipu_ffn fn, double x)
{
    switch (fn) {
    case IPU_EXP: return exp(x);
    case IPU_EXP2: return exp2(x);
    case IPU_LN: return log(x);
    case IPU_LOG2: return log2(x);
    case IPU_SIGM: return 1.0 / (1.0 + exp(-x));
    case IPU_TANH: return tanh(x);
    case IPU_SQRT: return sqrt(x);
    case IPU_OOX: return 1.0 / x;
    default: return 1.0 / sqrt(x);
    }
}

/* The flags of fn's result from a non-NaN x: INV for a NaN (log or sqrt of a negative), DIV0
 * for an infinity from 0 (1/0, log 0), OFLO for one from another finite x. Returns the flag. */
static inline uint32_t ipu_ffn_flag(double r, double x)
{
    if (isnan(r)) return IPU_FP_INV;
    if (isinf(r) && isfinite(x)) return x == 0 ? IPU_FP_DIV0 : IPU_FP_OFLO;
    return 0;
}

static inline uint32_t ipu_f32_fn(ipu_fp *e, enum ipu_ffn fn, uint32_t a)
{
    if (ipu_f32_nan(a)) return ipu_f32_nan_result(e, a, a);
    const double x = ipu_f32(a), d = ipu_ffn(fn, x);
    const float r = (float)d;
    const uint32_t flag = ipu_ffn_flag(r, x);
    if (!flag) return ipu_bits(r);
    ipu_fp_raise(e, flag, a, 0);
    return flag == IPU_FP_INV || (flag == IPU_FP_OFLO && e->nanoo) ? IPU_F32_QNAN : ipu_bits(r);
}

static inline uint16_t ipu_f16_fn(ipu_fp *e, enum ipu_ffn fn, uint16_t h)
{
    const uint32_t a = ipu_f16_bits_to_f32(h);
    if (ipu_f32_nan(a)) {
        if (ipu_f32_snan(a)) ipu_fp_raise(e, IPU_FP_INV, h, 0);
        return h | 0x200u;
    }
    const double x = ipu_f32(a), d = ipu_ffn(fn, x);
    const uint32_t flag = ipu_ffn_flag(d, x);
    if (flag == IPU_FP_INV || flag == IPU_FP_DIV0) {
        ipu_fp_raise(e, flag, h, 0);
        if (flag == IPU_FP_INV) return IPU_F16_QNAN;
    }
    return ipu_f64_to_f16(e, d, h);     /* raises OFLO itself */
}

#endif
