/* The tile's integer instructions beyond the seed's (architecture.md 2, 3, 4, 6, 8, 12):
 * MRF/ARF logic, shifts, counts and compares, the byte and half-word permutations, the
 * remaining branches, trap and delay, every 8/16/32-bit load and store form, the delta-stream
 * and sparse loads, the 64/32 and 64/16 pace loads and the supervisor's CCCS loads. Where the
 * pack's semantics column is vague, the reading is ours and README.md ("Integer instructions")
 * says how sure it is. Included from ipu.c after insns_mem.h. */
#ifndef ISEKIT_MODEL_IPU_INSNS_INT_H
#define ISEKIT_MODEL_IPU_INSNS_INT_H

#include "ipu.h"

/* ---- chips ------------------------------------------------------------------------------------ */

/* Classes of later chips (the table's `archs`): on an earlier chip the word is an illegal
 * instruction. min_chip 2: ipu2 and later; 21: ipu21 only, which this model does not offer. */
static inline bool ipu_chip_has(struct isk_state *S, const char *mn, int min_chip)
{
    const int chip = S->ipu2 ? 2 : 1;
    if (chip >= min_chip) return true;
    RAISE(IPU_EXC_ILLEGAL, "%s is not an %s instruction (%s) (ILLEGAL_INSTRUCTION)", mn, chip == 2 ? "ipu2" : "ipu1",
          min_chip == 21 ? "ipu21 only" : "ipu2 and later");
    return false;
}

/* ---- bit and byte operations (pure: tests/ipu/test_int.c checks them against its own C) ------- */

static inline uint32_t ipu_byte(uint32_t v, int i) { return v >> 8 * i & 0xFF; }
static inline uint32_t ipu_bytes4(uint32_t b0, uint32_t b1, uint32_t b2, uint32_t b3)
{
    return b0 | b1 << 8 | b2 << 16 | b3 << 24;
}

/* The rolls take the 64 bits {Src1:Src0} (Src0 low) and keep 32 of them: roll16 and roll8r
 * shift right by 16 and 8 (roll16 d, s, s swaps halves; poplibs' select_bool shifts a byte in
 * at the top with roll8r), roll8l shifts left by 8 and keeps the high word (poplibs'
 * CastFloatToGF8 merges 1 or 3 bytes with roll8r + roll8l). */
static inline uint32_t ipu_roll(uint32_t src0, uint32_t src1, int right_bits)
{
    const uint64_t v = (uint64_t)src1 << 32 | src0;
    return (uint32_t)(v >> right_bits);
}
/* shuf8x8lo interleaves the low bytes: [s0.b0, s1.b0, s0.b1, s1.b1]; hi the high ones (poplibs'
 * Fill broadcasts a byte with shuf8x8lo x, x, x; CastGF8ToHalf makes halves of GF8 bytes with
 * shuf8x8lo/hi d, $mzero, x). */
static inline uint32_t ipu_shuf8x8(uint32_t s0, uint32_t s1, int hi)
{
    const int k = hi ? 2 : 0;
    return ipu_bytes4(ipu_byte(s0, k), ipu_byte(s1, k), ipu_byte(s0, k + 1), ipu_byte(s1, k + 1));
}
/* sort8x8lo keeps the even bytes of {Src1:Src0}: [s0.b0, s0.b2, s1.b0, s1.b2]; hi the odd ones
 * (NormaliseImage packs two zero-extended bytes into two u16 with sort8x8lo). */
static inline uint32_t ipu_sort8x8(uint32_t s0, uint32_t s1, int hi)
{
    return ipu_bytes4(ipu_byte(s0, hi), ipu_byte(s0, 2 + hi), ipu_byte(s1, hi), ipu_byte(s1, 2 + hi));
}
/* sort4x16lo/hi: the low (high) halves of Src0 and Src1, Src0's in the low half. */
static inline uint32_t ipu_sort4x16(uint32_t s0, uint32_t s1, int hi)
{
    return hi ? (s0 >> 16 | (s1 & 0xFFFF0000u)) : ((s0 & 0xFFFFu) | s1 << 16);
}
static inline uint32_t ipu_bitrev8(uint32_t v)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        if (v >> i & 1) r |= 1u << ((i & ~7) | (7 - (i & 7)));
    return r;
}
static inline uint32_t ipu_clz(uint32_t v) { return v ? (uint32_t)__builtin_clz(v) : 32; }
/* cms: the bits below the sign equal to it, counted from bit 30 (0..31). */
static inline uint32_t ipu_cms(uint32_t v) { return ipu_clz((v ^ (uint32_t)((int32_t)v >> 31)) << 1 | 1); }

/* ---- MRF operations ----------------------------------------------------------------------------- */

#define IPU_M2(variant, expr) BEHAVIOUR(variant, Dst, Src0, Src1) \
    { const uint32_t x = ipu_m(S, Src0), y = ipu_m(S, Src1); ipu_set_m(S, Dst, (expr)); }
#define IPU_MI(variant, expr) BEHAVIOUR(variant, Dst, Src, Imm) \
    { const uint32_t x = ipu_m(S, Src), y = (uint32_t)Imm; ipu_set_m(S, Dst, (expr)); }
#define IPU_M1(variant, expr) BEHAVIOUR(variant, Dst, Src) { const uint32_t x = ipu_m(S, Src); ipu_set_m(S, Dst, (expr)); }

IPU_M2(xor_mmmn, x ^ y)
IPU_M2(xnor_mmmn, ~(x ^ y))
IPU_M2(andc_mmmn, x & ~y)
IPU_MI(andc_mmmn_zi, x & ~y)
/* shrs: the count is taken as unsigned; 32 or more fills with the sign */
IPU_M2(shrs_mmmn, (uint32_t)((int32_t)x >> (y > 31 ? 31 : y)))
IPU_MI(shrs_mmmn_zi, (uint32_t)((int32_t)x >> (y > 31 ? 31 : y)))
IPU_M2(cmpne_mmmn, x != y)
IPU_M2(cmpslt_mmmn, (int32_t)x < (int32_t)y)
IPU_MI(cmpslt_mmmn_si, (int32_t)x < (int32_t)y)
IPU_MI(cmpeq_mmmn_si, x == y)
IPU_MI(cmpeq_mmmn_zi, x == y)
IPU_MI(max_mmmn_zi, ipu_smax(x, y))
IPU_MI(min_mmmn_zi, ipu_smin(x, y))
IPU_M2(roll16_mmmn, ipu_roll(x, y, 16))
IPU_M2(roll8r_mmmn, ipu_roll(x, y, 8))
IPU_M2(roll8l_mmmn, ipu_roll(x, y, 24))
IPU_M2(shuf8x8lo_mmmn, ipu_shuf8x8(x, y, 0))
IPU_M2(shuf8x8hi_mmmn, ipu_shuf8x8(x, y, 1))
IPU_M2(sort8x8lo_mmmn, ipu_sort8x8(x, y, 0))
IPU_M2(sort8x8hi_mmmn, ipu_sort8x8(x, y, 1))
IPU_M2(sort4x16lo_mmmn, ipu_sort4x16(x, y, 0))
IPU_M2(sort4x16hi_mmmn, ipu_sort4x16(x, y, 1))
/* abs of INT32_MIN wraps to itself (no overflow flag in the MRF) */
IPU_M1(abs_mmmn, (int32_t)x < 0 ? 0u - x : x)
IPU_M1(clz_mmmn, ipu_clz(x))
IPU_M1(cms_mmmn, ipu_cms(x))
IPU_M1(popc_mmmn, (uint32_t)__builtin_popcount(x))
IPU_M1(bitrev8_mmmn, ipu_bitrev8(x))
/* sort8: the even bytes, then the odd ones (sort8x8lo/hi of one register); swap8: the bytes of
 * each half swapped. Neither is used by poplibs and no public text pins them. */
IPU_M1(sort8_mmmn, (ipu_sort8x8(x, x, 0) & 0xFFFFu) | ipu_sort8x8(x, x, 1) << 16)
IPU_M1(swap8_mmmn, (x & 0xFF00FF00u) >> 8 | (x & 0x00FF00FFu) << 8)

/* movz $d, $c, $s (movnz is the same word): $d = $s when $c != 0, else unchanged (the pack:
 * LLVM's select lowering and poplibs' movnz comment). */
BEHAVIOUR(movz_mmmn, Dst, Cond, Src) { if (ipu_m(S, Cond)) ipu_set_m(S, Dst, ipu_m(S, Src)); }
BEHAVIOUR(atom_mamn, Dst, Src) { ipu_set_m(S, Dst, ipu_a(S, Src)); }

/* ---- ARF operations (worker) -------------------------------------------------------------------- */

#define IPU_A2(variant, expr) BEHAVIOUR(variant, Dst, Src0, Src1) \
    { const uint32_t x = ipu_a(S, Src0), y = ipu_a(S, Src1); ipu_set_a(S, Dst, (expr)); }
/* ipu21-only classes: the behaviour is written, the chips modelled refuse it */
#define IPU_A2_21(variant, mn, expr) BEHAVIOUR(variant, Dst, Src0, Src1) \
    { const uint32_t x = ipu_a(S, Src0), y = ipu_a(S, Src1); if (ipu_chip_has(S, mn, 21)) ipu_set_a(S, Dst, (expr)); }
#define IPU_A1_21(variant, mn, expr) BEHAVIOUR(variant, Dst, Src) \
    { const uint32_t x = ipu_a(S, Src); if (ipu_chip_has(S, mn, 21)) ipu_set_a(S, Dst, (expr)); }

IPU_A2(andc_aaan, x & ~y)
BEHAVIOUR(andc_aaan_zi, Dst, Src, Imm) { ipu_set_a(S, Dst, ipu_a(S, Src) & ~(uint32_t)Imm); }
BEHAVIOUR(andc_aaan_iz, Dst, Src, Imm) { ipu_set_a(S, Dst, ipu_a(S, Src) & ~((uint32_t)Imm << 20)); }
BEHAVIOUR(and_aaan_iz, Dst, Src, Imm) { ipu_set_a(S, Dst, ipu_a(S, Src) & (uint32_t)Imm << 20); }
BEHAVIOUR(not_aaan, Dst, Src) { ipu_set_a(S, Dst, ~ipu_a(S, Src)); }
IPU_A2(roll16_aaan, ipu_roll(x, y, 16))
/* sort4x16hi with Src0:BL (ipu2 on): Src0's low half in both; sort4x16lo with Src0:BU: its high half */
BEHAVIOUR(sort4x16hi_aaal, Dst, Src0, Src1)
{
    const uint32_t x = ipu_a(S, Src0) & 0xFFFFu;
    if (ipu_chip_has(S, "sort4x16hi", 2)) ipu_set_a(S, Dst, ipu_sort4x16(x | x << 16, ipu_a(S, Src1), 1));
}
IPU_A2(sort4x16hi_aaan, ipu_sort4x16(x, y, 1))
IPU_A2(sort4x16lo_aaan, ipu_sort4x16(x, y, 0))
IPU_A2(sort4x16lo_aaau, ipu_sort4x16(x >> 16 | (x & 0xFFFF0000u), y, 0))
IPU_A2_21(roll8l_aaan, "roll8l", ipu_roll(x, y, 24))
IPU_A2_21(roll8r_aaan, "roll8r", ipu_roll(x, y, 8))
IPU_A2_21(shuf8x8lo_aaan, "shuf8x8lo", ipu_shuf8x8(x, y, 0))
IPU_A2_21(shuf8x8hi_aaan, "shuf8x8hi", ipu_shuf8x8(x, y, 1))
IPU_A2_21(sort8x8lo_aaan, "sort8x8lo", ipu_sort8x8(x, y, 0))
IPU_A2_21(sort8x8hi_aaan, "sort8x8hi", ipu_sort8x8(x, y, 1))
IPU_A1_21(sort8_aaan, "sort8", (ipu_sort8x8(x, x, 0) & 0xFFFFu) | ipu_sort8x8(x, x, 1) << 16)
IPU_A1_21(swap8_aaan, "swap8", (x & 0xFF00FF00u) >> 8 | (x & 0x00FF00FFu) << 8)

/* 64-bit forms on pairs: both lanes read before either is written. sort4x32lo: [s0[0], s1[0]],
 * hi: [s0[1], s1[1]]; roll32: the middle 64 bits of {Src1:Src0}, [s0[1], s1[0]]
 * (dynamicSlice1D's misaligned copy). */
enum { IPU_P_AND, IPU_P_ANDC, IPU_P_OR, IPU_P_NOT, IPU_P_SORTLO, IPU_P_SORTHI, IPU_P_ROLL };
static inline void ipu_pair_op(struct isk_state *S, int op, int64_t dst, int64_t src0, int64_t src1)
{
    const uint32_t x0 = ipu_a(S, src0), x1 = ipu_a(S, src0 + 1), y0 = ipu_a(S, src1), y1 = ipu_a(S, src1 + 1);
    uint32_t r0, r1;
    switch (op) {
    case IPU_P_AND: r0 = x0 & y0, r1 = x1 & y1; break;
    case IPU_P_ANDC: r0 = x0 & ~y0, r1 = x1 & ~y1; break;
    case IPU_P_OR: r0 = x0 | y0, r1 = x1 | y1; break;
    case IPU_P_NOT: r0 = ~x0, r1 = ~x1; break;
    case IPU_P_SORTLO: r0 = x0, r1 = y0; break;
    case IPU_P_SORTHI: r0 = x1, r1 = y1; break;
    default: r0 = x1, r1 = y0; break;
    }
    ipu_set_a(S, dst, r0);
    ipu_set_a(S, dst + 1, r1);
}
BEHAVIOUR(and64_aaan, Dst, Src0, Src1) { ipu_pair_op(S, IPU_P_AND, Dst, Src0, Src1); }
BEHAVIOUR(andc64_aaan, Dst, Src0, Src1) { ipu_pair_op(S, IPU_P_ANDC, Dst, Src0, Src1); }
BEHAVIOUR(or64_aaan, Dst, Src0, Src1) { ipu_pair_op(S, IPU_P_OR, Dst, Src0, Src1); }
BEHAVIOUR(not64_aaan, Dst, Src) { ipu_pair_op(S, IPU_P_NOT, Dst, Src, Src); }
BEHAVIOUR(sort4x32lo_aaan, Dst, Src0, Src1) { ipu_pair_op(S, IPU_P_SORTLO, Dst, Src0, Src1); }
BEHAVIOUR(sort4x32hi_aaan, Dst, Src0, Src1) { ipu_pair_op(S, IPU_P_SORTHI, Dst, Src0, Src1); }
BEHAVIOUR(roll32_aaan, Dst, Src0, Src1) { ipu_pair_op(S, IPU_P_ROLL, Dst, Src0, Src1); }


/* ---- branches, trap, delay ---------------------------------------------------------------------- */

BEHAVIOUR(brneg_mmmn_zi, Src, Imm)
{
    if (!ipu_in_rpt(S, "brneg") && (int32_t)ipu_m(S, Src) < 0) ipu_jump(S, (uint32_t)Imm * 4, "brneg");
}
BEHAVIOUR(brpos_mmmn_zi, Src, Imm)
{
    if (!ipu_in_rpt(S, "brpos") && (int32_t)ipu_m(S, Src) >= 0) ipu_jump(S, (uint32_t)Imm * 4, "brpos");
}
/* brnzdec: a loop of N iterations starts with N - 1 in the register */
BEHAVIOUR(brnzdec_mmmn_zi, Src, Imm)
{
    if (ipu_in_rpt(S, "brnzdec")) return;
    const uint32_t v = ipu_m(S, Src);
    if (!v) return;
    ipu_set_m(S, Src, v - 1);
    ipu_jump(S, (uint32_t)Imm * 4, "brnzdec");
}

/* trap: a patched breakpoint, PBRK1 for code 15 and PBRK0 otherwise (ipu-stack's observation of
 * 0 and 15; the other codes are our choice). */
BEHAVIOUR(trap_mmmn_zi, Code)
{
    if (ipu_in_rpt(S, "trap")) return;
    RAISE(Code == 15 ? IPU_EXC_PBRK1 : IPU_EXC_PBRK0, "trap %d (%s)", (int)Code, Code == 15 ? "PBRK1" : "PBRK0");
}

/* delay n (supervisor): the supervisor's next instruction issues n + 1 cycles after the one it
 * would otherwise issue in (ipu-stack passes cycles - 1). */
BEHAVIOUR(delay_x, Count) { BLOCK_FOR((uint64_t)Count + 2); }

/* ---- loads and stores of 8, 16 and 32 bits ------------------------------------------------------ */

/* How a narrow load fills its 32-bit register. */
enum { IPU_ZX, IPU_SX, IPU_BC };

/* The value of a checked load of `bytes` at addr, extended. */
static inline uint32_t ipu_narrow(struct isk_state *S, uint32_t addr, uint32_t bytes, int ext)
{
    const uint32_t raw = ipu_mem(S, addr & ~3u) >> (addr & 3) * 8;
    if (bytes == 4) return raw;
    const int bits = 8 * (int)bytes;
    const uint32_t v = raw & ((1u << bits) - 1);
    if (ext == IPU_SX) return (uint32_t)SEXT(v, bits);
    if (ext == IPU_BC) return bytes == 1 ? v * 0x01010101u : v * 0x00010001u;
    return v;
}

/* One 8/16/32-bit load or store of a register of the MRF or the ARF. */
typedef struct ipu_scalar { const char *mn; uint32_t bytes; int ext; bool arf, store; int min_chip; } ipu_scalar;

/* The access at addr, then Delta (-1: none) becomes delta_after. */
static inline void ipu_scalar_at(struct isk_state *S, const ipu_scalar *k, int64_t reg, uint32_t addr, int64_t delta,
                                 uint32_t delta_after)
{
    if (k->min_chip && !ipu_chip_has(S, k->mn, k->min_chip)) return;
    const ipu_ea ea = { addr, k->bytes, k->store ? "store" : "load" };
    if (!ipu_access_ok(S, k->mn, &ea, 1, false)) return;
    if (k->store) {
        ipu_set_mem(S, addr, k->arf ? ipu_a(S, reg) : ipu_m(S, reg));
    } else {
        const uint32_t v = ipu_narrow(S, addr, k->bytes, k->ext);
        if (k->arf) ipu_set_a(S, reg, v);
        else ipu_set_m(S, reg, v);
    }
    if (delta >= 0) ipu_set_m(S, delta, delta_after);
}

/* The plain forms: EA = Base + Delta + Off (a register or zimm12) x size. */
#define IPU_SCALAR_PLAIN(k, variant, R) \
    BEHAVIOUR(variant, R, Base, Delta, Off) \
    { ipu_scalar_at(S, &k, R, ipu_m(S, Base) + ipu_m(S, Delta) + ipu_m(S, Off) * k.bytes, -1, 0); } \
    BEHAVIOUR(variant##_zi, R, Base, Delta, Off) \
    { ipu_scalar_at(S, &k, R, ipu_m(S, Base) + ipu_m(S, Delta) + (uint32_t)Off * k.bytes, -1, 0); }
/* The step forms: EA = Base + Delta, then Delta += Stride (a register or simm8) x size. */
#define IPU_SCALAR_STEP(k, variant, R) \
    BEHAVIOUR(variant, R, Base, Delta, Stride) \
    { \
        const uint32_t d = ipu_m(S, Delta); \
        ipu_scalar_at(S, &k, R, ipu_m(S, Base) + d, Delta, d + ipu_m(S, Stride) * k.bytes); \
    } \
    BEHAVIOUR(variant##_si, R, Base, Delta, Stride) \
    { \
        const uint32_t d = ipu_m(S, Delta); \
        ipu_scalar_at(S, &k, R, ipu_m(S, Base) + d, Delta, d + (uint32_t)Stride * k.bytes); \
    }

static const ipu_scalar ipu_k_ldz8 = { "ldz8", 1, IPU_ZX, false, false, 0 };
static const ipu_scalar ipu_k_ldz8step = { "ldz8step", 1, IPU_ZX, false, false, 0 };
static const ipu_scalar ipu_k_lds8 = { "lds8", 1, IPU_SX, false, false, 0 };
static const ipu_scalar ipu_k_lds8step = { "lds8step", 1, IPU_SX, false, false, 0 };
static const ipu_scalar ipu_k_ldb8 = { "ldb8", 1, IPU_BC, true, false, 21 };
static const ipu_scalar ipu_k_ldb8step = { "ldb8step", 1, IPU_BC, true, false, 21 };
static const ipu_scalar ipu_k_ldz16step = { "ldz16step", 2, IPU_ZX, false, false, 0 };
static const ipu_scalar ipu_k_lds16 = { "lds16", 2, IPU_SX, false, false, 0 };
static const ipu_scalar ipu_k_lds16step = { "lds16step", 2, IPU_SX, false, false, 0 };
static const ipu_scalar ipu_k_ldb16 = { "ldb16", 2, IPU_BC, true, false, 0 };
static const ipu_scalar ipu_k_ldb16step = { "ldb16step", 2, IPU_BC, true, false, 0 };
static const ipu_scalar ipu_k_ld32a = { "ld32", 4, IPU_ZX, true, false, 0 };
static const ipu_scalar ipu_k_ld32stepa = { "ld32step", 4, IPU_ZX, true, false, 0 };
static const ipu_scalar ipu_k_st32a = { "st32", 4, IPU_ZX, true, true, 0 };
static const ipu_scalar ipu_k_st32stepa = { "st32step", 4, IPU_ZX, true, true, 0 };
static const ipu_scalar ipu_k_stm32 = { "stm32", 4, IPU_ZX, false, true, 0 };
static const ipu_scalar ipu_k_stm32step = { "stm32step", 4, IPU_ZX, false, true, 0 };

IPU_SCALAR_PLAIN(ipu_k_ldz8, ldz8_mmmn, Dst)
IPU_SCALAR_STEP(ipu_k_ldz8step, ldz8step_mmmn, Dst)
IPU_SCALAR_PLAIN(ipu_k_lds8, lds8_mmmn, Dst)
IPU_SCALAR_STEP(ipu_k_lds8step, lds8step_mmmn, Dst)
IPU_SCALAR_PLAIN(ipu_k_ldb8, ldb8_mman, Dst)
IPU_SCALAR_STEP(ipu_k_ldb8step, ldb8step_mmbn, Dst)
IPU_SCALAR_STEP(ipu_k_ldz16step, ldz16step_mmmn, Dst)
IPU_SCALAR_PLAIN(ipu_k_lds16, lds16_mmmn, Dst)
IPU_SCALAR_STEP(ipu_k_lds16step, lds16step_mmmn, Dst)
IPU_SCALAR_PLAIN(ipu_k_ldb16, ldb16_mman, Dst)
IPU_SCALAR_STEP(ipu_k_ldb16step, ldb16step_mmbn, Dst)
IPU_SCALAR_PLAIN(ipu_k_ld32a, ld32_mman, Dst)
IPU_SCALAR_STEP(ipu_k_ld32stepa, ld32step_mmbn, Dst)
IPU_SCALAR_PLAIN(ipu_k_st32a, st32_mbmn, Src)
IPU_SCALAR_STEP(ipu_k_st32stepa, st32step_mbmn, Src)

/* stm32: EA = Base + Off x 4; stm32step: at Base, then Base += Stride x 4. */
BEHAVIOUR(stm32_mmmn, Src, Base, Off) { ipu_scalar_at(S, &ipu_k_stm32, Src, ipu_m(S, Base) + ipu_m(S, Off) * 4, -1, 0); }
BEHAVIOUR(stm32step_mmmn, Src, Base, Stride)
{
    const uint32_t b = ipu_m(S, Base);
    ipu_scalar_at(S, &ipu_k_stm32step, Src, b, Base, b + ipu_m(S, Stride) * 4);
}

/* ---- two-address loads: delta streams, sparse, pace -------------------------------------------- */

/* The delta-stream loads (ldd16*): EA0 reads the next delta(s) at Ptr (16 bits, or two for
 * ldd16v2a32), EA1 the data at Base + the current delta (a byte offset: the low half of Delta,
 * the high half for ldd16v2a32); then Delta = the new delta(s), Ptr advances. The EA order is
 * our choice (the pack does not give it). dwords: 1 (32-bit), 2 (64-bit pair), 0 (16-bit
 * broadcast). */
static inline void ipu_ldd16(struct isk_state *S, const char *mn, int64_t dst, int64_t ptr, int64_t base, int64_t delta,
                             int dwords, bool v2)
{
    const uint32_t p = ipu_m(S, ptr), d = ipu_m(S, delta);
    const uint32_t at = ipu_m(S, base) + (v2 ? d >> 16 : d & 0xFFFF);
    const ipu_ea ea[2] = { { p, v2 ? 4u : 2u, "delta load" }, { at, dwords ? 4u * (uint32_t)dwords : 2u, "load" } };
    if (!ipu_access_ok(S, mn, ea, 2, false)) return;
    if (dwords == 2) ipu_load_a(S, dst, at, 2);
    else ipu_set_a(S, dst, ipu_narrow(S, at, dwords ? 4 : 2, IPU_BC));
    ipu_set_m(S, delta, ipu_narrow(S, p, v2 ? 4 : 2, IPU_ZX));
    ipu_set_m(S, ptr, p + (v2 ? 4 : 2));
}
BEHAVIOUR(ldd16a32_mmbn, Dst, Ptr, Base, Delta) { ipu_ldd16(S, "ldd16a32", Dst, Ptr, Base, Delta, 1, false); }
BEHAVIOUR(ldd16a64_mmbn, Dst, Ptr, Base, Delta) { ipu_ldd16(S, "ldd16a64", Dst, Ptr, Base, Delta, 2, false); }
BEHAVIOUR(ldd16b16_mmbn, Dst, Ptr, Base, Delta) { ipu_ldd16(S, "ldd16b16", Dst, Ptr, Base, Delta, 0, false); }
BEHAVIOUR(ldd16v2a32_mmbn, Dst, Ptr, Base, Delta) { ipu_ldd16(S, "ldd16v2a32", Dst, Ptr, Base, Delta, 1, true); }

/* ld64a32: EA0 64 bits at Ptr into the quad's upper pair, EA1 32 bits at Base + Delta[15:0]
 * into its element 1 (element 0 kept); Ptr += 8. */
BEHAVIOUR(ld64a32_mmbn, Dst, Ptr, Base, Delta)
{
    const uint32_t p = ipu_m(S, Ptr), at = ipu_m(S, Base) + (ipu_m(S, Delta) & 0xFFFF);
    const ipu_ea ea[2] = { { p, 8, "load" }, { at, 4, "load" } };
    if (!ipu_access_ok(S, "ld64a32", ea, 2, false)) return;
    ipu_load_a(S, Dst + 2, p, 2);
    ipu_set_a(S, Dst + 1, ipu_mem(S, at));
    ipu_set_m(S, Ptr, p + 8);
}

/* ldb16b16: two 16-bit broadcasts, Dst from Base + Delta[15:0] (EA0), Dst+1 from Base +
 * Delta[31:16] (EA1); then the low delta += 2 bytes, the high one += MiniD[3:0] halves
 * (2 bytes each), and MiniD >>= 4. Which delta steps by what, and the mini-delta's unit, are
 * our reading of a one-line description (no poplibs use). */
BEHAVIOUR(ldb16b16_mmbn, Dst, Base, Delta, MiniD)
{
    const uint32_t b = ipu_m(S, Base), d = ipu_m(S, Delta), md = ipu_m(S, MiniD);
    const ipu_ea ea[2] = { { b + (d & 0xFFFF), 2, "load" }, { b + (d >> 16), 2, "load" } };
    if (!ipu_access_ok(S, "ldb16b16", ea, 2, false)) return;
    ipu_set_a(S, Dst, ipu_narrow(S, ea[0].addr, 2, IPU_BC));
    ipu_set_a(S, Dst + 1, ipu_narrow(S, ea[1].addr, 2, IPU_BC));
    const uint32_t lo = (d + 2) & 0xFFFF, hi = ((d >> 16) + (md & 0xF) * 2) & 0xFFFF;
    ipu_set_m(S, Delta, lo | hi << 16);
    ipu_set_m(S, MiniD, md >> 4);
}

/* ld64a32pace / ld64b16pace: 64 bits at A0 into Dst0, 32 bits (16 broadcast) at A1 into Dst1;
 * A0 steps by Strimm bits 1:0 in 8-byte atoms, A1 by bits 3:2 in atoms of its own size. */
static inline void ipu_ld64x_pace(struct isk_state *S, const char *mn, int64_t dst0, int64_t dst1, int64_t addr,
                                  int64_t stride, int64_t strimm, uint32_t bytes1)
{
    uint32_t a[3];
    ipu_unpack(S, addr, a);
    const ipu_ea ea[2] = { { a[0], 8, "load" }, { a[1], bytes1, "load" } };
    if (!ipu_access_ok(S, mn, ea, 2, true)) return;
    const uint32_t s = ipu_m(S, stride), v1 = ipu_narrow(S, a[1], bytes1, IPU_BC);
    ipu_load_a(S, dst0, a[0], 2);
    ipu_set_a(S, dst1, v1);
    a[0] += ipu_pace_step(s, (uint32_t)strimm & 3);
    a[1] += (uint32_t)((int32_t)ipu_pace_step(s, (uint32_t)strimm >> 2 & 3) / 8) * bytes1;
    ipu_pack(S, addr, a);
}
BEHAVIOUR(ld64a32pace_mmbn_ef, Dst0, Dst1, Addr, Stride, Strimm)
{
    ipu_ld64x_pace(S, "ld64a32pace", Dst0, Dst1, Addr, Stride, Strimm, 4);
}
BEHAVIOUR(ld64b16pace_mmbn_ef, Dst0, Dst1, Addr, Stride, Strimm)
{
    ipu_ld64x_pace(S, "ld64b16pace", Dst0, Dst1, Addr, Stride, Strimm, 2);
}

/* ---- the supervisor's CCCS loads ---------------------------------------------------------------- */

/* ld64putcs / ld128putcs slot: 64 (128) bits at $CCCSLOAD into CCCS slot `slot` (and slot + 1),
 * then $CCCSLOAD += 8 (16). The slots hold the AMP/SLIC weights ($CWEI_*), which nothing here
 * reads yet: they are kept in CCCS (256 slots of 64 bits, our layout: which address space the
 * hardware uses is not public). ld128putcs takes even slots (poplibs uses 0, 2, ... 62); an odd
 * one is INVALID_CCCS_MISALIGNED, our reading of that cause's name. */
static inline void ipu_putcs(struct isk_state *S, const char *mn, int64_t slot, int words)
{
    const uint32_t at = (uint32_t)GET(SCSR, S_CCCSLOAD);
    if (words == 4 && (slot & 1)) {
        RAISE(IPU_EXC_MISALIGNED, "%s: slot %d is odd (INVALID_CCCS_MISALIGNED)", mn, (int)slot);
        return;
    }
    const ipu_ea ea = { at, 4u * (uint32_t)words, "load" };
    if (!ipu_access_ok(S, mn, &ea, 1, false)) return;
    for (int i = 0; i < words; i++) SET(CCCS, slot * 2 + i, ipu_mem(S, at + 4u * (uint32_t)i));
    SET(SCSR, S_CCCSLOAD, at + 4u * (uint32_t)words);
}
BEHAVIOUR(ld64putcs_mmmn_zi, Slot) { ipu_putcs(S, "ld64putcs", Slot, 2); }
BEHAVIOUR(ld128putcs_mmmn_zi, Slot) { ipu_putcs(S, "ld128putcs", Slot, 4); }

#endif
