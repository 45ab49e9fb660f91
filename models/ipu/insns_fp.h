/* The tile's floating point (architecture.md 3.2, 9, 10.2): the f16/f32 rows of the aux pipeline
 * with their $FP_STS flags and $FP_CTL traps, the accumulators, and the issue costs of the
 * multi-cycle ones. The numbers themselves are ipu_float.h's. Included from ipu.c after
 * insns_mem.h (the ARF and CSR helpers). */
#ifndef ISEKIT_MODEL_IPU_INSNS_FP_H
#define ISEKIT_MODEL_IPU_INSNS_FP_H

#include <stdio.h>

#include "ipu.h"
#include "ipu_float.h"

/* ---- flags, traps, rounding control --------------------------------------------------------------- */

/* Start an instruction: $FP_CTL.NANOO, and the rounding controls we cannot honour for an
 * instruction that rounds: stochastic rounding (ESR; the PRNG is not public) and a RND field
 * other than 0 (its encodings are not public: we always round to nearest even). False after
 * raising. */
static inline bool ipu_fp_begin(struct isk_state *S, const char *mn, ipu_fp *e, bool rounds)
{
    const uint32_t ctl = ipu_wcsr(S, W_FP_CTL);
    memset(e, 0, sizeof *e);
    e->nanoo = (ctl & IPU_FP_CTL_NANOO) != 0;
    if (rounds && (ctl & IPU_FP_CTL_ESR)) {
        RAISE(IPU_EXC_UNMODELLED, "not modelled yet: %s with stochastic rounding ($FP_CTL.ESR; its PRNG is not public)", mn);
        return false;
    }
    if (rounds && (ctl >> IPU_FP_CTL_RND_SHIFT & 7)) {
        RAISE(IPU_EXC_UNMODELLED, "not modelled yet: %s with $FP_CTL.RND = %u (the encodings are not public)", mn,
              ctl >> IPU_FP_CTL_RND_SHIFT & 7);
        return false;
    }
    return true;
}

/* End it: the flags go to $FP_STS (sticky); a flag enabled in $FP_CTL traps (ETYPE FP) naming
 * the flag and the first lane's operands, and the instruction writes nothing. */
static inline bool ipu_fp_end(struct isk_state *S, const char *mn, const ipu_fp *e)
{
    if (!e->flags) return true;
    ipu_set_wcsr(S, W_FP_STS, ipu_wcsr(S, W_FP_STS) | e->flags);
    const uint32_t trap = e->flags & ipu_wcsr(S, W_FP_CTL) & 7;
    if (!trap) return true;
    RAISE(IPU_EXC_FP, "%s: floating-point exception %s (lane %d: operands 0x%x, 0x%x)", mn,
          trap & IPU_FP_INV ? "INV" : trap & IPU_FP_DIV0 ? "DIV0" : "OFLO", e->note_lane, e->note_a, e->note_b);
    return false;
}

/* The issue cost of a multi-cycle aux instruction (architecture.md 10.2): the worker's next
 * issue comes n x 6 tile cycles after this one (its own slot n turns later). In a bundle the
 * main instruction costs 1, so the bundle costs the aux's n (an exception in the main ends the
 * bundle before the aux). Only after the instruction succeeded: BLOCK_FOR would make a context
 * its exception stopped runnable again. */
static inline void ipu_fp_cycles(struct isk_state *S, unsigned n)
{
    if (n > 1 && CONTEXT) BLOCK_FOR(6u * n);
}

/* ---- lanes ----------------------------------------------------------------------------------------- */

/* n lanes from ARF registers: f32 one per register, f16 two (the low half is lane 0). bcast: 0
 * none, 1 the low half (:BL) or the register (:B), 2 the high half (:BU). */
static inline void ipu_lanes(struct isk_state *S, bool half, int n, int64_t reg, int bcast, uint32_t *v)
{
    for (int i = 0; i < n; i++) {
        if (!half) v[i] = ipu_a(S, bcast ? reg : reg + i);
        else if (bcast) v[i] = ipu_a(S, reg) >> (bcast == 2 ? 16 : 0) & 0xFFFF;
        else v[i] = ipu_a(S, reg + i / 2) >> 16 * (i & 1) & 0xFFFF;
    }
}

/* Write n lanes to registers from dst. */
static inline void ipu_set_lanes(struct isk_state *S, bool half, int n, int64_t dst, const uint32_t *v)
{
    if (!half) {
        for (int i = 0; i < n; i++) ipu_set_a(S, dst + i, v[i]);
    } else {
        for (int i = 0; i < n; i += 2) ipu_set_a(S, dst + i / 2, v[i] | (i + 1 < n ? v[i + 1] << 16 : 0));
    }
}

static inline uint32_t ipu_lane_op(ipu_fp *e, bool half, enum ipu_fop op, uint32_t a, uint32_t b)
{
    return half ? ipu_f16_op(e, op, (uint16_t)a, (uint16_t)b) : ipu_f32_op(e, op, a, b);
}

/* The lane-wise binary rows: Dst = op(Src0, Src1) on n f16 or f32 lanes, Src0 broadcast or not.
 * IPU_FCLAMP: Src1 holds [lo, hi] (the two halves of one register for f16, a pair for f32),
 * Dst = min(max(Src0, lo), hi). */
enum { IPU_FCLAMP = IPU_FCMPGE + 1 };
static inline bool ipu_fbin(struct isk_state *S, const char *mn, int op, bool half, int n, int64_t dst, int64_t src0,
                            int bcast, int64_t src1)
{
    ipu_fp e;
    if (!ipu_fp_begin(S, mn, &e, op <= IPU_FABSADD)) return false;
    uint32_t x[4], y[4], r[4];
    ipu_lanes(S, half, n, src0, bcast, x);
    if (op == IPU_FCLAMP) ipu_lanes(S, half, 2, src1, 0, y);
    else ipu_lanes(S, half, n, src1, 0, y);
    for (int i = 0; i < n; i++) {
        e.lane = i;
        if (op == IPU_FCLAMP) r[i] = ipu_lane_op(&e, half, IPU_FMIN, ipu_lane_op(&e, half, IPU_FMAX, x[i], y[0]), y[1]);
        else r[i] = ipu_lane_op(&e, half, (enum ipu_fop)op, x[i], y[i]);
    }
    if (!ipu_fp_end(S, mn, &e)) return false;
    ipu_set_lanes(S, half, n, dst, r);
    return true;
}

/* The forms of one binary row: f16 with :BL and :BU, f32v2 with :B, f32 alone. */
#define IPU_F16_BIN(name, op, n) \
    BEHAVIOUR(name##_aaan, Dst, Src0, Src1) { ipu_fbin(S, #name, op, true, n, Dst, Src0, 0, Src1); } \
    BEHAVIOUR(name##_aaal, Dst, Src0, Src1) { ipu_fbin(S, #name, op, true, n, Dst, Src0, 1, Src1); } \
    BEHAVIOUR(name##_aaau, Dst, Src0, Src1) { ipu_fbin(S, #name, op, true, n, Dst, Src0, 2, Src1); }
#define IPU_F32V2_BIN(name, op) \
    BEHAVIOUR(name##_aaan, Dst, Src0, Src1) { ipu_fbin(S, #name, op, false, 2, Dst, Src0, 0, Src1); } \
    BEHAVIOUR(name##_aaat, Dst, Src0, Src1) { ipu_fbin(S, #name, op, false, 2, Dst, Src0, 1, Src1); }
#define IPU_F32_BIN(name, op) BEHAVIOUR(name##_aaan, Dst, Src0, Src1) { ipu_fbin(S, #name, op, false, 1, Dst, Src0, 0, Src1); }
#define IPU_FBIN_ALL(op, v2, v4, f32v2, f32) IPU_F16_BIN(v2, op, 2) IPU_F16_BIN(v4, op, 4) IPU_F32V2_BIN(f32v2, op) IPU_F32_BIN(f32, op)

IPU_FBIN_ALL(IPU_FADD, f16v2add, f16v4add, f32v2add, f32add)
IPU_FBIN_ALL(IPU_FSUB, f16v2sub, f16v4sub, f32v2sub, f32sub)
IPU_FBIN_ALL(IPU_FMUL, f16v2mul, f16v4mul, f32v2mul, f32mul)
IPU_FBIN_ALL(IPU_FCMPEQ, f16v2cmpeq, f16v4cmpeq, f32v2cmpeq, f32cmpeq)
IPU_FBIN_ALL(IPU_FCMPNE, f16v2cmpne, f16v4cmpne, f32v2cmpne, f32cmpne)
IPU_FBIN_ALL(IPU_FCMPLT, f16v2cmplt, f16v4cmplt, f32v2cmplt, f32cmplt)
IPU_FBIN_ALL(IPU_FCMPLE, f16v2cmple, f16v4cmple, f32v2cmple, f32cmple)
IPU_FBIN_ALL(IPU_FCMPGT, f16v2cmpgt, f16v4cmpgt, f32v2cmpgt, f32cmpgt)
IPU_FBIN_ALL(IPU_FCMPGE, f16v2cmpge, f16v4cmpge, f32v2cmpge, f32cmpge)

/* max, min, absadd, absmax, clamp: no broadcast forms */
#define IPU_FBIN_PLAIN(op, v2, v4, f32v2, f32) \
    BEHAVIOUR(v2##_aaan, Dst, Src0, Src1) { ipu_fbin(S, #v2, op, true, 2, Dst, Src0, 0, Src1); } \
    BEHAVIOUR(v4##_aaan, Dst, Src0, Src1) { ipu_fbin(S, #v4, op, true, 4, Dst, Src0, 0, Src1); } \
    BEHAVIOUR(f32v2##_aaan, Dst, Src0, Src1) { ipu_fbin(S, #f32v2, op, false, 2, Dst, Src0, 0, Src1); } \
    IPU_F32_BIN(f32, op)
IPU_FBIN_PLAIN(IPU_FMAX, f16v2max, f16v4max, f32v2max, f32max)
IPU_FBIN_PLAIN(IPU_FMIN, f16v2min, f16v4min, f32v2min, f32min)
IPU_FBIN_PLAIN(IPU_FABSADD, f16v2absadd, f16v4absadd, f32v2absadd, f32absadd)
IPU_FBIN_PLAIN(IPU_FABSMAX, f16v2absmax, f16v4absmax, f32v2absmax, f32absmax)
IPU_FBIN_PLAIN(IPU_FCLAMP, f16v2clamp, f16v4clamp, f32v2clamp, f32clamp)

/* f32div: 1 issue when the divisor is a power of two (an exact scaling), else 3: the pack says
 * "1 or 3 depending on input" and no more, so this rule is ours. */
BEHAVIOUR(f32div_aaan, Dst, Src0, Src1)
{
    const uint32_t d = ipu_a(S, Src1), exp = d >> 23 & 0xFF;
    if (ipu_fbin(S, "f32div", IPU_FDIV, false, 1, Dst, Src0, 0, Src1))
        ipu_fp_cycles(S, (d & 0x7FFFFFu) == 0 && exp && exp != 0xFF ? 1 : 3);
}

/* ---- one-operand rows ------------------------------------------------------------------------------ */

enum ipu_fconv { IPU_CV_H2F, IPU_CV_F2H, IPU_CV_FN, IPU_CV_HFN };

/* n lanes of Src (f16 or f32, half_in) to n lanes of Dst (half_out): a conversion or fn. */
static inline void ipu_funary(struct isk_state *S, const char *mn, enum ipu_fconv kind, enum ipu_ffn fn, int n,
                              int64_t dst, int64_t src, unsigned cycles)
{
    const bool half_in = kind == IPU_CV_H2F || kind == IPU_CV_HFN, half_out = kind == IPU_CV_F2H || kind == IPU_CV_HFN;
    ipu_fp e;
    if (!ipu_fp_begin(S, mn, &e, kind != IPU_CV_H2F)) return;
    uint32_t x[4], r[4];
    ipu_lanes(S, half_in, n, src, 0, x);
    for (int i = 0; i < n; i++) {
        e.lane = i;
        switch (kind) {
        case IPU_CV_H2F: r[i] = ipu_f16_to_f32(&e, (uint16_t)x[i]); break;
        case IPU_CV_F2H: r[i] = ipu_f32_to_f16(&e, x[i]); break;
        case IPU_CV_FN: r[i] = ipu_f32_fn(&e, fn, x[i]); break;
        default: r[i] = ipu_f16_fn(&e, fn, (uint16_t)x[i]); break;
        }
    }
    if (!ipu_fp_end(S, mn, &e)) return;
    ipu_set_lanes(S, half_out, n, dst, r);
    ipu_fp_cycles(S, cycles);
}

BEHAVIOUR(f16tof32_aaan, Dst, Src) { ipu_funary(S, "f16tof32", IPU_CV_H2F, 0, 1, Dst, Src, 1); }
BEHAVIOUR(f16v2tof32_aaan, Dst, Src) { ipu_funary(S, "f16v2tof32", IPU_CV_H2F, 0, 2, Dst, Src, 1); }
BEHAVIOUR(f32v2tof16_aaan, Dst, Src) { ipu_funary(S, "f32v2tof16", IPU_CV_F2H, 0, 2, Dst, Src, 1); }
BEHAVIOUR(f32v4tof16_aaan, Dst, Src) { ipu_funary(S, "f32v4tof16", IPU_CV_F2H, 0, 4, Dst, Src, 1); }
/* f32tof16 writes the f16 to both halves */
BEHAVIOUR(f32tof16_aaan, Dst, Src)
{
    ipu_fp e;
    if (!ipu_fp_begin(S, "f32tof16", &e, true)) return;
    const uint32_t h = ipu_f32_to_f16(&e, ipu_a(S, Src));
    if (ipu_fp_end(S, "f32tof16", &e)) ipu_set_a(S, Dst, h | h << 16);
}

/* Transcendentals, square root and reciprocals (host libm in double, rounded once: see
 * ipu_float.h). Issue costs from architecture.md 10.2; those it does not list (exp2, log2,
 * sqrt, oox, oorx) are ours: exp2 as exp, log2 as ln, the others as f32div's worst case. The
 * seed's special cases, f16v2exp and f16v2sigm of $azero, take one issue. */
#define IPU_F32_FN(name, fn, cycles) \
    BEHAVIOUR(name##_aaan, Dst, Src) { ipu_funary(S, #name, IPU_CV_FN, fn, 1, Dst, Src, cycles); }
#define IPU_F16_FN(name, fn, cycles) \
    BEHAVIOUR(name##_aaan, Dst, Src) { ipu_funary(S, #name, IPU_CV_HFN, fn, 2, Dst, Src, Src == IPU_AZERO ? 1 : cycles); }
IPU_F32_FN(f32exp, IPU_EXP, 3)
IPU_F32_FN(f32exp2, IPU_EXP2, 3)
IPU_F32_FN(f32ln, IPU_LN, 6)
IPU_F32_FN(f32log2, IPU_LOG2, 6)
IPU_F32_FN(f32sigm, IPU_SIGM, 5)
IPU_F32_FN(f32tanh, IPU_TANH, 5)
IPU_F32_FN(f32sqrt, IPU_SQRT, 3)
IPU_F32_FN(f32oox, IPU_OOX, 3)
IPU_F32_FN(f32oorx, IPU_OORX, 3)
IPU_F16_FN(f16v2exp, IPU_EXP, 2)
IPU_F16_FN(f16v2exp2, IPU_EXP2, 2)
IPU_F16_FN(f16v2ln, IPU_LN, 2)
IPU_F16_FN(f16v2log2, IPU_LOG2, 2)
IPU_F16_FN(f16v2sigm, IPU_SIGM, 2)
IPU_F16_FN(f16v2tanh, IPU_TANH, 1)

/* Integer conversions: from i32/ui32 rounded to nearest even; to i32/ui32 see ipu_f32_to_int. */
static inline void ipu_fint(struct isk_state *S, const char *mn, int64_t dst, int64_t src, int kind)
{
    ipu_fp e;
    if (!ipu_fp_begin(S, mn, &e, kind < 2)) return;
    const uint32_t a = ipu_a(S, src);
    const uint32_t r = kind == 0 ? ipu_bits((float)(int32_t)a) : kind == 1 ? ipu_bits((float)a)
                                                                           : ipu_f32_to_int(&e, a, kind == 2);
    if (ipu_fp_end(S, mn, &e)) ipu_set_a(S, dst, r);
}
BEHAVIOUR(f32fromi32_aaan, Dst, Src) { ipu_fint(S, "f32fromi32", Dst, Src, 0); }
BEHAVIOUR(f32fromui32_aaan, Dst, Src) { ipu_fint(S, "f32fromui32", Dst, Src, 1); }
BEHAVIOUR(f32toi32_aaan, Dst, Src) { ipu_fint(S, "f32toi32", Dst, Src, 2); }
BEHAVIOUR(f32toui32_aaan, Dst, Src) { ipu_fint(S, "f32toui32", Dst, Src, 3); }

BEHAVIOUR(f32int_aaan_ef, Dst, Src, Imm)
{
    ipu_fp e;
    if (!ipu_fp_begin(S, "f32int", &e, false)) return;
    const int64_t r = ipu_f32_int(&e, ipu_a(S, Src), (uint32_t)Imm);
    if (r < 0) {
        RAISE(IPU_EXC_INVALID_OP, "f32int: rounding mode %d is not one of 0-4", (int)Imm);
        return;
    }
    if (ipu_fp_end(S, "f32int", &e)) ipu_set_a(S, Dst, (uint32_t)r);
}

/* Classes: each lane's code (ipu_float.h) in a byte of Dst, lane i in bits 8i+7:8i (our layout). */
static inline void ipu_fclass(struct isk_state *S, bool half, int n, int64_t dst, int64_t src)
{
    uint32_t x[4], r = 0;
    ipu_lanes(S, half, n, src, 0, x);
    for (int i = 0; i < n; i++) r |= (half ? ipu_f16_class((uint16_t)x[i]) : ipu_f32_class(x[i])) << 8 * i;
    ipu_set_a(S, dst, r);
}
BEHAVIOUR(f32class_aaan, Dst, Src) { ipu_fclass(S, false, 1, Dst, Src); }
BEHAVIOUR(f32v2class_aaan, Dst, Src) { ipu_fclass(S, false, 2, Dst, Src); }
BEHAVIOUR(f16v2class_aaan, Dst, Src) { ipu_fclass(S, true, 2, Dst, Src); }
BEHAVIOUR(f16v4class_aaan, Dst, Src) { ipu_fclass(S, true, 4, Dst, Src); }

/* Lateral rows over pairs of f16 lanes: sums to f32 (f16v2sum one, f16v4sum a pair), maxima to
 * f16 (f16v4maxc two lanes; f16v2maxc its one result in both halves, our choice). */
static inline void ipu_flateral(struct isk_state *S, const char *mn, bool sum, int n, int64_t dst, int64_t src)
{
    ipu_fp e;
    if (!ipu_fp_begin(S, mn, &e, sum)) return;
    uint32_t x[4], r[2];
    ipu_lanes(S, true, n, src, 0, x);
    for (int i = 0; i < n / 2; i++) {
        e.lane = i;
        r[i] = sum ? ipu_f32_op(&e, IPU_FADD, ipu_f16_bits_to_f32((uint16_t)x[2 * i]), ipu_f16_bits_to_f32((uint16_t)x[2 * i + 1]))
                   : ipu_f16_op(&e, IPU_FMAX, (uint16_t)x[2 * i], (uint16_t)x[2 * i + 1]);
    }
    if (!ipu_fp_end(S, mn, &e)) return;
    if (!sum && n == 2) r[1] = r[0];
    ipu_set_lanes(S, !sum, sum ? n / 2 : 2, dst, r);
}
BEHAVIOUR(f16v2sum_aaan, Dst, Src) { ipu_flateral(S, "f16v2sum", true, 2, Dst, Src); }
BEHAVIOUR(f16v4sum_aaan, Dst, Src) { ipu_flateral(S, "f16v4sum", true, 4, Dst, Src); }
BEHAVIOUR(f16v2maxc_aaan, Dst, Src) { ipu_flateral(S, "f16v2maxc", false, 2, Dst, Src); }
BEHAVIOUR(f16v4maxc_aaan, Dst, Src) { ipu_flateral(S, "f16v4maxc", false, 4, Dst, Src); }

/* ---- the accumulators (architecture.md 9) ----------------------------------------------------------- */

/* Which $AACC entries each row uses is not public. Ours: the accumulating rows (acc, sqacc,
 * absacc, mac, cmac) and gina/gacc use a ring of eight f32 entries E[j] = $AACC[2j], the
 * layout the pack's one example gives (f32v2gina 0 reads $AACC0 and $AACC2, writes $AACC12 and
 * $AACC14); lane i of an accumulating row adds into E[i]. f32v2axpy keeps $AACC0/1, f16v4mix
 * uses $AACC0-3 (one f16 result in each). Sums are f32, each addition rounded to nearest even. */
static inline int64_t ipu_acc(const struct isk_state *S, int j) { return (int64_t)(CONTEXT - 1) * 16 + 2 * j; }

/* E[i] += v[i] for i < n, all or nothing (a trap leaves them). */
static inline void ipu_acc_add(struct isk_state *S, const char *mn, ipu_fp *e, int n, const uint32_t *v)
{
    uint32_t r[8];
    for (int i = 0; i < n; i++) {
        e->lane = i;
        r[i] = ipu_f32_op(e, IPU_FADD, (uint32_t)GET(AACC, ipu_acc(S, i)), v[i]);
    }
    if (!ipu_fp_end(S, mn, e)) return;
    for (int i = 0; i < n; i++) SET(AACC, ipu_acc(S, i), r[i]);
}

/* acc, sqacc, absacc of n f16 or f32 lanes from Src: op 0 the value, 1 its square, 2 its
 * absolute value. */
static inline void ipu_faccum(struct isk_state *S, const char *mn, bool half, int n, int64_t src, int op)
{
    ipu_fp e;
    if (!ipu_fp_begin(S, mn, &e, true)) return;
    uint32_t v[8];
    ipu_lanes(S, half, n, src, 0, v);
    for (int i = 0; i < n; i++) {
        e.lane = i;
        if (half) v[i] = ipu_f16_to_f32(&e, (uint16_t)v[i]);
        if (op == 1) v[i] = ipu_f32_op(&e, IPU_FMUL, v[i], v[i]);
        if (op == 2) v[i] &= 0x7FFFFFFFu;
    }
    ipu_acc_add(S, mn, &e, n, v);
}
BEHAVIOUR(f32v4acc_aaan, Src) { ipu_faccum(S, "f32v4acc", false, 4, Src, 0); }
BEHAVIOUR(f32v4sqacc_aaan, Src) { ipu_faccum(S, "f32v4sqacc", false, 4, Src, 1); }
BEHAVIOUR(f32v4absacc_aaan, Src) { ipu_faccum(S, "f32v4absacc", false, 4, Src, 2); }
BEHAVIOUR(f16v4acc_aaan, Src) { ipu_faccum(S, "f16v4acc", true, 4, Src, 0); }
BEHAVIOUR(f16v4absacc_aaan, Src) { ipu_faccum(S, "f16v4absacc", true, 4, Src, 2); }
BEHAVIOUR(f16v8acc_aaan, Src) { ipu_faccum(S, "f16v8acc", true, 8, Src, 0); }
BEHAVIOUR(f16v8sqacc_aaan, Src) { ipu_faccum(S, "f16v8sqacc", true, 8, Src, 1); }
BEHAVIOUR(f16v8absacc_aaan, Src) { ipu_faccum(S, "f16v8absacc", true, 8, Src, 2); }

/* mac: E[i] += Src0[i] * Src1[i] (the product rounded, then the sum); cmac: the products of
 * pairs of f16 lanes (exact in f32) summed laterally (rounded), then accumulated. */
static inline void ipu_fmac(struct isk_state *S, const char *mn, bool half, int n, int64_t src0, int64_t src1)
{
    ipu_fp e;
    if (!ipu_fp_begin(S, mn, &e, true)) return;
    uint32_t x[4], y[4], v[4];
    ipu_lanes(S, half, n, src0, 0, x);
    ipu_lanes(S, half, n, src1, 0, y);
    for (int i = 0; i < n; i++) {
        e.lane = i;
        if (half) {
            x[i] = ipu_f16_to_f32(&e, (uint16_t)x[i]);
            y[i] = ipu_f16_to_f32(&e, (uint16_t)y[i]);
        }
        v[i] = ipu_f32_op(&e, IPU_FMUL, x[i], y[i]);
    }
    if (half) {
        for (int i = 0; i < n / 2; i++) v[i] = ipu_f32_op(&e, IPU_FADD, v[2 * i], v[2 * i + 1]);
        n /= 2;
    }
    ipu_acc_add(S, mn, &e, n, v);
}
BEHAVIOUR(f32mac_aaan, Src0, Src1) { ipu_fmac(S, "f32mac", false, 1, Src0, Src1); }
BEHAVIOUR(f32v2mac_aaan, Src0, Src1) { ipu_fmac(S, "f32v2mac", false, 2, Src0, Src1); }
BEHAVIOUR(f16v2cmac_aaan, Src0, Src1) { ipu_fmac(S, "f16v2cmac", true, 2, Src0, Src1); }
BEHAVIOUR(f16v4cmac_aaan, Src0, Src1) { ipu_fmac(S, "f16v4cmac", true, 4, Src0, Src1); }

/* gina (zimm12 0, the only selection poplibs uses but once, and the only one the pack
 * describes): Dst gets E[0], E[1]; the ring moves down two (E[j] = E[j + 2]) and E[6], E[7]
 * get Src. f16v2gina reads the two as f16 (rounded) and writes Src's two f16 lanes as f32. */
static inline void ipu_gina(struct isk_state *S, const char *mn, bool half, int64_t dst, int64_t src, int64_t imm)
{
    if (imm) {
        RAISE(IPU_EXC_UNMODELLED, "not modelled yet: %s with selection %d (only 0 is described publicly)", mn, (int)imm);
        return;
    }
    ipu_fp e;
    if (!ipu_fp_begin(S, mn, &e, half)) return;
    uint32_t in[2], out[2];
    ipu_lanes(S, half, 2, src, 0, in);
    for (int i = 0; i < 2; i++) {
        e.lane = i;
        out[i] = (uint32_t)GET(AACC, ipu_acc(S, i));
        if (half) {
            out[i] = ipu_f32_to_f16(&e, out[i]);
            in[i] = ipu_f16_to_f32(&e, (uint16_t)in[i]);
        }
    }
    if (!ipu_fp_end(S, mn, &e)) return;
    for (int j = 0; j < 6; j++) SET(AACC, ipu_acc(S, j), GET(AACC, ipu_acc(S, j + 2)));
    SET(AACC, ipu_acc(S, 6), in[0]);
    SET(AACC, ipu_acc(S, 7), in[1]);
    ipu_set_lanes(S, half, 2, dst, out);
}
BEHAVIOUR(f32v2gina_aaan_zi, Dst, Src, Imm) { ipu_gina(S, "f32v2gina", false, Dst, Src, Imm); }
BEHAVIOUR(f16v2gina_aaan_zi, Dst, Src, Imm) { ipu_gina(S, "f16v2gina", true, Dst, Src, Imm); }

/* f16v4gacc: E[0..3] as four f16 (rounded) into a pair; the accumulators stay. */
BEHAVIOUR(f16v4gacc_aaan, Dst)
{
    ipu_fp e;
    if (!ipu_fp_begin(S, "f16v4gacc", &e, true)) return;
    uint32_t r[4];
    for (int i = 0; i < 4; i++) {
        e.lane = i;
        r[i] = ipu_f32_to_f16(&e, (uint32_t)GET(AACC, ipu_acc(S, i)));
    }
    if (ipu_fp_end(S, "f16v4gacc", &e)) ipu_set_lanes(S, true, 4, Dst, r);
}

/* f32v2axpy: Dst gets the accumulator pair as it was, the pair becomes $TAS * Src0 + Src1 per
 * lane (the product and the sum rounded once each, to nearest even); $AACC0/1. */
BEHAVIOUR(f32v2axpy_aaan, Dst, Src0, Src1)
{
    ipu_fp e;
    if (!ipu_fp_begin(S, "f32v2axpy", &e, true)) return;
    const int64_t acc = (int64_t)(CONTEXT - 1) * 16;
    const uint32_t old[2] = { (uint32_t)GET(AACC, acc), (uint32_t)GET(AACC, acc + 1) }, tas = ipu_wcsr(S, W_TAS);
    uint32_t r[2];
    for (int i = 0; i < 2; i++) {
        e.lane = i;
        r[i] = ipu_f32_op(&e, IPU_FADD, ipu_f32_op(&e, IPU_FMUL, tas, ipu_a(S, Src0 + i)), ipu_a(S, Src1 + i));
    }
    if (!ipu_fp_end(S, "f32v2axpy", &e)) return;
    SET(AACC, acc, r[0]);
    SET(AACC, acc + 1, r[1]);
    ipu_set_lanes(S, false, 2, Dst, old);
}

/* f16v4mix: the same for four f16 lanes with a = $TAS bits 15:0 and b = bits 31:16 (which half
 * is which is not public: ours): each accumulator ($AACC0-3) becomes a * x + b * y rounded once
 * to f16 (the products are exact; their sum is exact in double unless they differ by more than
 * 2^31), Dst gets the four as they were. */
BEHAVIOUR(f16v4mix_aaan, Dst, Src0, Src1)
{
    ipu_fp e;
    if (!ipu_fp_begin(S, "f16v4mix", &e, true)) return;
    const int64_t acc = (int64_t)(CONTEXT - 1) * 16;
    const uint32_t tas = ipu_wcsr(S, W_TAS);
    const uint32_t a = ipu_f16_bits_to_f32((uint16_t)tas), b = ipu_f16_bits_to_f32((uint16_t)(tas >> 16));
    uint32_t x[4], y[4], old[4], r[4];
    ipu_lanes(S, true, 4, Src0, 0, x);
    ipu_lanes(S, true, 4, Src1, 0, y);
    for (int i = 0; i < 4; i++) {
        e.lane = i;
        old[i] = (uint32_t)GET(AACC, acc + i) & 0xFFFF;
        const uint32_t p = ipu_f32_op(&e, IPU_FMUL, a, ipu_f16_to_f32(&e, (uint16_t)x[i]));
        const uint32_t q = ipu_f32_op(&e, IPU_FMUL, b, ipu_f16_to_f32(&e, (uint16_t)y[i]));
        const double d = (double)ipu_f32(p) + (double)ipu_f32(q);
        if (ipu_f32_nan(p) || ipu_f32_nan(q)) {
            r[i] = ipu_f32_to_f16(&e, ipu_f32_op(&e, IPU_FADD, p, q));
        } else if (isnan(d)) {
            ipu_fp_raise(&e, IPU_FP_INV, x[i], y[i]);
            r[i] = IPU_F16_QNAN;
        } else {
            r[i] = ipu_f64_to_f16(&e, d, x[i]);
        }
    }
    if (!ipu_fp_end(S, "f16v4mix", &e)) return;
    for (int i = 0; i < 4; i++) SET(AACC, acc + i, r[i]);
    ipu_set_lanes(S, true, 4, Dst, old);
}

#endif
