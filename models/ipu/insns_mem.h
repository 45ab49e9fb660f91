/* The tile's memory side and what the seed chapter's examples execute (architecture.md 3, 4,
 * 6, 7, 9): 64/128-bit ARF loads and stores with the step, pace and tapack forms, the bank
 * conflict rule, rpt, the CSR moves and the MRF arithmetic of the division tricks (floating
 * point is insns_fp.h's). Included from ipu.c after insns.h. */
#ifndef ISEKIT_MODEL_IPU_INSNS_MEM_H
#define ISEKIT_MODEL_IPU_INSNS_MEM_H

#include "ipu.h"

/* ---- the ARF ------------------------------------------------------------------------------------ */

/* $a8..$a15 read 0 (architecture.md 2.3); the supervisor has no ARF. */
static inline uint32_t ipu_a(struct isk_state *S, int64_t r)
{
    return r >= 8 || !CONTEXT ? 0 : (uint32_t)GET(A, (int64_t)(CONTEXT - 1) * IPU_REGS + r);
}

static inline uint32_t ipu_wcsr(struct isk_state *S, int i) { return (uint32_t)GET(WCSR, (int64_t)(CONTEXT - 1) * W_NCSR + i); }
static inline void ipu_set_wcsr(struct isk_state *S, int i, uint32_t v) { SET(WCSR, (int64_t)(CONTEXT - 1) * W_NCSR + i, v); }

/* ---- memory: regions, banks, the checks of one instruction's accesses --------------------------- */

/* One effective address of an instruction: EAn is its index in the array. */
typedef struct ipu_ea { uint32_t addr; uint32_t bytes; const char *what; } ipu_ea;

/* The bank (conflict) key of a byte address (architecture.md 4.4): region 0 one key per 16 KiB
 * bank, region 1 two per 32 KiB element (address bit 3 picks the bank of the element). */
static inline int ipu_bank(const struct isk_state *S, uint32_t a)
{
    if (S->ipu2) return a < 0x80000u ? (int)(a >> 14) - 19 : 13 + 2 * (int)((a - 0x80000u) >> 15) + (int)(a >> 3 & 1);
    return a < 0x60000u ? (int)(a >> 14 & 7) : 8 + 2 * (int)((a - 0x60000u) >> 15) + (int)(a >> 3 & 1);
}

/* Whether two accesses share a bank: a 128-bit access (region 1 only) holds both banks of its
 * 32 KiB element. */
static inline bool ipu_same_bank(const struct isk_state *S, const ipu_ea *x, const ipu_ea *y)
{
    const uint32_t r1 = ipu_region1(S);
    if (x->bytes == 16 || y->bytes == 16)
        return x->addr >= r1 && y->addr >= r1 && (x->addr - r1) >> 15 == (y->addr - r1) >> 15;
    return ipu_bank(S, x->addr) == ipu_bank(S, y->addr);
}

/* The checks of one instruction's accesses, before it changes anything (a faulting instruction
 * commits nothing): each EA naturally aligned and populated, 128-bit ones in region 1; then no
 * two in one bank (CONFLICT_EAn names the later one); then, for the pace family, EA1 not in
 * executable memory. Raises and returns false on the first violation. */
static inline bool ipu_access_ok(struct isk_state *S, const char *mn, const ipu_ea *ea, int n, bool pace)
{
    for (int i = 0; i < n; i++) {
        const uint32_t a = ea[i].addr;
        if (a % ea[i].bytes) {
            RAISE(IPU_EXC_MISALIGNED, "%s: %s at 0x%x is not %u-byte aligned (MISALIGNED_EA%d)", mn, ea[i].what, a,
                  ea[i].bytes, i);
            return false;
        }
        if (a < S->mem_lo || a + ea[i].bytes > S->mem_hi) {
            RAISE(IPU_EXC_ADDRESS, "%s: %s at 0x%x: no memory there (0x%x-0x%x) (INVALID_ADDRESS_EA%d)", mn, ea[i].what,
                  a, S->mem_lo, S->mem_hi - 1, i);
            return false;
        }
        if (ea[i].bytes == 16 && a < ipu_region1(S)) {
            RAISE(IPU_EXC_ADDRESS, "%s: 128-bit %s at 0x%x: only region 1 (0x%x up) (INVALID_REGION_EA%d)", mn,
                  ea[i].what, a, ipu_region1(S), i);
            return false;
        }
    }
    for (int j = 1; j < n; j++)
        for (int i = 0; i < j; i++)
            if (ipu_same_bank(S, &ea[i], &ea[j])) {
                RAISE(IPU_EXC_CONFLICT, "%s: memory conflict: EA%d %s 0x%x and EA%d %s 0x%x are in bank %d (CONFLICT_EA%d)",
                      mn, i, ea[i].what, ea[i].addr, j, ea[j].what, ea[j].addr, ipu_bank(S, ea[j].addr), j);
                return false;
            }
    if (pace && n > 1 && ea[1].addr < ipu_region1(S)) {
        RAISE(IPU_EXC_ADDRESS, "%s: %s at 0x%x is executable memory (EXECUTABLE_ADDRESS_EA1)", mn, ea[1].what, ea[1].addr);
        return false;
    }
    return true;
}

static inline uint32_t ipu_mem(struct isk_state *S, uint32_t addr) { return (uint32_t)GET(TMEM, (addr - IPU_TMEM_BASE) / 4); }
static inline void ipu_set_mem(struct isk_state *S, uint32_t addr, uint32_t v) { SET(TMEM, (addr - IPU_TMEM_BASE) / 4, v); }

/* `words` ARF registers from Dst (a pair or quad) loaded from a checked address. */
static inline void ipu_load_a(struct isk_state *S, int64_t dst, uint32_t addr, int words)
{
    for (int i = 0; i < words; i++) ipu_set_a(S, dst + i, ipu_mem(S, addr + 4u * (uint32_t)i));
}

/* A plain or step load of an ARF pair/quad: EA = addr, then Delta (an MRF register, -1: none)
 * becomes delta_after. */
static inline void ipu_ld_a(struct isk_state *S, const char *mn, int64_t dst, uint32_t addr, int words, int64_t delta,
                            uint32_t delta_after)
{
    const ipu_ea ea = { addr, 4u * (uint32_t)words, "load" };
    if (!ipu_access_ok(S, mn, &ea, 1, false)) return;
    ipu_load_a(S, dst, addr, words);
    if (delta >= 0) ipu_set_m(S, delta, delta_after);
}

static inline void ipu_st_a(struct isk_state *S, const char *mn, int64_t src, uint32_t addr, int words, int64_t delta,
                            uint32_t delta_after)
{
    const ipu_ea ea = { addr, 4u * (uint32_t)words, "store" };
    if (!ipu_access_ok(S, mn, &ea, 1, false)) return;
    uint32_t v[2];
    for (int i = 0; i < words; i++) v[i] = ipu_a(S, src + i);
    for (int i = 0; i < words; i++) ipu_set_mem(S, addr + 4u * (uint32_t)i, v[i]);
    if (delta >= 0) ipu_set_m(S, delta, delta_after);
}

/* ---- tapack and the pace family (architecture.md 6.1, 6.2) ------------------------------------- */

enum { IPU_ADDR_MASK = 0x1FFFFF };

/* The three addresses of a packed MRF pair. */
static inline void ipu_unpack(struct isk_state *S, int64_t pair, uint32_t a[3])
{
    const uint32_t lo = ipu_m(S, pair), hi = ipu_m(S, pair + 1);
    a[0] = lo & IPU_ADDR_MASK;
    a[1] = hi & IPU_ADDR_MASK;
    a[2] = lo >> 21 | (hi >> 21) << 11;
}

static inline void ipu_pack(struct isk_state *S, int64_t pair, const uint32_t a[3])
{
    ipu_set_m(S, pair, (a[0] & IPU_ADDR_MASK) | (a[2] & 0x7FFu) << 21);
    ipu_set_m(S, pair + 1, (a[1] & IPU_ADDR_MASK) | (a[2] >> 11 & 0x3FFu) << 21);
}

/* The step of a pace address for its 2-bit Strimm: 00 one atom, else the stride register's
 * signed 10-bit field s0, s1 or s2, in atoms of 8 bytes. */
static inline uint32_t ipu_pace_step(uint32_t stride, uint32_t strimm2)
{
    if (!strimm2) return 8;
    const uint32_t f = stride >> (10 * (strimm2 - 1)) & 0x3FF;
    return (uint32_t)((int32_t)(f ^ 0x200) - 0x200) * 8;
}

/* ---- rpt (architecture.md 7) -------------------------------------------------------------------- */

/* Start a repeat: the body is the Body + 1 bundles after the rpt (word or bundle), which must
 * start 8-byte aligned; count 0 branches over it. The loop itself is the barrel's (ipu.c,
 * ipu_rpt_next): $REPEAT_COUNT is the iterations left, $REPEAT_FIRST/$REPEAT_END the body's
 * limits (byte address >> 3). */
static inline void ipu_rpt(struct isk_state *S, uint32_t count, int64_t body)
{
    if (ipu_in_rpt(S, "rpt")) return;
    const uint32_t first = IPU_TMEM_BASE + (uint32_t)NEXT_PC * 4, end = first + 8u * (uint32_t)(body + 1);
    if (first % 8) {
        RAISE(IPU_EXC_MISALIGNED, "rpt: its body at 0x%x is not 8-byte aligned (bundle it with fnop)", first);
        return;
    }
    count &= S->ipu2 ? 0xFFFFu : 0xFFFu;
    if (!count) {
        ipu_jump(S, end, "rpt");
        return;
    }
    ipu_set_wcsr(S, W_REPEAT_COUNT, count);
    ipu_set_wcsr(S, W_REPEAT_FIRST, first >> 3);
    ipu_set_wcsr(S, W_REPEAT_END, end >> 3);
}

/* ---- the behaviours ------------------------------------------------------------------------------- */

BEHAVIOUR(rpt_mmmn_zi, Count, Body) { ipu_rpt(S, ipu_m(S, Count), Body); }
BEHAVIOUR(rpt_mmmn_zi_zi, Count, Body) { ipu_rpt(S, (uint32_t)Count, Body); }

/* The four addressing forms of a 64- or 128-bit load or store of an ARF pair or quad
 * (architecture.md 6): Base + Delta + Off (a register or zimm12) scaled by the access size, and
 * the step forms at Base + Delta, then Delta += Stride (a register or simm8) scaled likewise. R
 * is the data register's field (Dst or Src). */
#define IPU_ARF_FORMS(access, mn, plain, step, R, words) \
    BEHAVIOUR(plain, R, Base, Delta, Off) \
    { access(S, mn, R, ipu_m(S, Base) + ipu_m(S, Delta) + ipu_m(S, Off) * 4u * (words), words, -1, 0); } \
    BEHAVIOUR(plain##_zi, R, Base, Delta, Off) \
    { access(S, mn, R, ipu_m(S, Base) + ipu_m(S, Delta) + (uint32_t)Off * 4u * (words), words, -1, 0); } \
    BEHAVIOUR(step, R, Base, Delta, Stride) \
    { \
        const uint32_t d = ipu_m(S, Delta); \
        access(S, mn "step", R, ipu_m(S, Base) + d, words, Delta, d + ipu_m(S, Stride) * 4u * (words)); \
    } \
    BEHAVIOUR(step##_si, R, Base, Delta, Stride) \
    { \
        const uint32_t d = ipu_m(S, Delta); \
        access(S, mn "step", R, ipu_m(S, Base) + d, words, Delta, d + (uint32_t)Stride * 4u * (words)); \
    }
IPU_ARF_FORMS(ipu_ld_a, "ld64", ld64_mman, ld64step_mmbn, Dst, 2)
IPU_ARF_FORMS(ipu_ld_a, "ld128", ld128_mman, ld128step_mmbn, Dst, 4)
IPU_ARF_FORMS(ipu_st_a, "st64", st64_mbmn, st64step_mbmn, Src, 2)

BEHAVIOUR(tapack_mmmn, Dst, A0, A1, A2)
{
    const uint32_t a[3] = { ipu_m(S, A0), ipu_m(S, A1), ipu_m(S, A2) };
    ipu_pack(S, Dst, a);
}

/* ldst64pace: load A0 into Dst, store Src (read before the load writes) at A2; EA0 the load,
 * EA1 the store; A0 steps by Strimm bits 1:0, A2 by bits 3:2. */
BEHAVIOUR(ldst64pace_mbbn_ef, Dst, Src, Addr, Stride, Strimm)
{
    uint32_t a[3];
    ipu_unpack(S, Addr, a);
    const ipu_ea ea[2] = { { a[0], 8, "load" }, { a[2], 8, "store" } };
    if (!ipu_access_ok(S, "ldst64pace", ea, 2, true)) return;
    const uint32_t v0 = ipu_a(S, Src), v1 = ipu_a(S, Src + 1), stride = ipu_m(S, Stride);
    ipu_load_a(S, Dst, a[0], 2);
    ipu_set_mem(S, a[2], v0);
    ipu_set_mem(S, a[2] + 4, v1);
    a[0] += ipu_pace_step(stride, (uint32_t)Strimm & 3);
    a[2] += ipu_pace_step(stride, (uint32_t)Strimm >> 2 & 3);
    ipu_pack(S, Addr, a);
}

/* st64pace: store Src at A2, which steps by Strimm bits 1:0. */
BEHAVIOUR(st64pace_mbmn_ef, Src, Addr, Stride, Strimm)
{
    uint32_t a[3];
    ipu_unpack(S, Addr, a);
    const ipu_ea ea = { a[2], 8, "store" };
    if (!ipu_access_ok(S, "st64pace", &ea, 1, true)) return;
    ipu_set_mem(S, a[2], ipu_a(S, Src));
    ipu_set_mem(S, a[2] + 4, ipu_a(S, Src + 1));
    a[2] += ipu_pace_step(ipu_m(S, Stride), (uint32_t)Strimm & 3);
    ipu_pack(S, Addr, a);
}

/* ld2x64pace: A0 into Dst0, A1 into Dst1 (the same pair twice is INVALID_OP). */
BEHAVIOUR(ld2x64pace_mmbn_ef, Dst0, Dst1, Addr, Stride, Strimm)
{
    if (Dst0 == Dst1 && Dst0 < 14) {
        RAISE(IPU_EXC_INVALID_OP, "ld2x64pace: both destinations are $a%d:%d", (int)Dst0, (int)Dst0 + 1);
        return;
    }
    uint32_t a[3];
    ipu_unpack(S, Addr, a);
    const ipu_ea ea[2] = { { a[0], 8, "load" }, { a[1], 8, "load" } };
    if (!ipu_access_ok(S, "ld2x64pace", ea, 2, true)) return;
    const uint32_t stride = ipu_m(S, Stride);
    ipu_load_a(S, Dst0, a[0], 2);
    ipu_load_a(S, Dst1, a[1], 2);
    a[0] += ipu_pace_step(stride, (uint32_t)Strimm & 3);
    a[1] += ipu_pace_step(stride, (uint32_t)Strimm >> 2 & 3);
    ipu_pack(S, Addr, a);
}

/* ld2xst64pace: A0 into the quad's low pair, A1 into its high pair, Src (read first) stored at
 * A2; EA0..EA2 in that order, Strimm bits 1:0, 3:2, 5:4 step A0, A1, A2. */
BEHAVIOUR(ld2xst64pace_mbbn_ef, Dst, Src, Addr, Stride, Strimm)
{
    uint32_t a[3];
    ipu_unpack(S, Addr, a);
    const ipu_ea ea[3] = { { a[0], 8, "load" }, { a[1], 8, "load" }, { a[2], 8, "store" } };
    if (!ipu_access_ok(S, "ld2xst64pace", ea, 3, true)) return;
    const uint32_t v0 = ipu_a(S, Src), v1 = ipu_a(S, Src + 1), stride = ipu_m(S, Stride);
    ipu_load_a(S, Dst, a[0], 2);
    ipu_load_a(S, Dst + 2, a[1], 2);
    ipu_set_mem(S, a[2], v0);
    ipu_set_mem(S, a[2] + 4, v1);
    for (int i = 0; i < 3; i++) a[i] += ipu_pace_step(stride, (uint32_t)Strimm >> 2 * i & 3);
    ipu_pack(S, Addr, a);
}

/* 16-bit zero-extending load into the MRF (offset scaled by 2). */
static inline void ipu_ldz16(struct isk_state *S, int64_t dst, uint32_t addr)
{
    const ipu_ea ea = { addr, 2, "load" };
    if (!ipu_access_ok(S, "ldz16", &ea, 1, false)) return;
    ipu_set_m(S, dst, ipu_mem(S, addr & ~3u) >> (addr & 2) * 8 & 0xFFFF);
}
BEHAVIOUR(ldz16_mmmn, Dst, Base, Delta, Off) { ipu_ldz16(S, Dst, ipu_m(S, Base) + ipu_m(S, Delta) + ipu_m(S, Off) * 2); }
BEHAVIOUR(ldz16_mmmn_zi, Dst, Base, Delta, Off) { ipu_ldz16(S, Dst, ipu_m(S, Base) + ipu_m(S, Delta) + (uint32_t)Off * 2); }

/* MRF arithmetic and logic (min is signed, cmpult unsigned; a shift of 32 or more gives 0). */
static inline uint32_t ipu_shr(uint32_t v, uint32_t n) { return n >= 32 ? 0 : v >> n; }
static inline uint32_t ipu_shl(uint32_t v, uint32_t n) { return n >= 32 ? 0 : v << n; }
static inline uint32_t ipu_smin(uint32_t x, uint32_t y) { return (int32_t)x < (int32_t)y ? x : y; }
static inline uint32_t ipu_smax(uint32_t x, uint32_t y) { return (int32_t)x > (int32_t)y ? x : y; }
BEHAVIOUR(and_mmmn, Dst, Src0, Src1) { ipu_set_m(S, Dst, ipu_m(S, Src0) & ipu_m(S, Src1)); }
BEHAVIOUR(and_mmmn_zi, Dst, Src, Imm) { ipu_set_m(S, Dst, ipu_m(S, Src) & (uint32_t)Imm); }
BEHAVIOUR(or_mmmn, Dst, Src0, Src1) { ipu_set_m(S, Dst, ipu_m(S, Src0) | ipu_m(S, Src1)); }
BEHAVIOUR(or_mmmn_zi, Dst, Src, Imm) { ipu_set_m(S, Dst, ipu_m(S, Src) | (uint32_t)Imm); }
BEHAVIOUR(or_mmmn_iz, Dst, Src, Imm) { ipu_set_m(S, Dst, ipu_m(S, Src) | (uint32_t)Imm << 20); }
BEHAVIOUR(shr_mmmn, Dst, Src0, Src1) { ipu_set_m(S, Dst, ipu_shr(ipu_m(S, Src0), ipu_m(S, Src1))); }
BEHAVIOUR(shr_mmmn_zi, Dst, Src, Imm) { ipu_set_m(S, Dst, ipu_shr(ipu_m(S, Src), (uint32_t)Imm)); }
BEHAVIOUR(shl_mmmn, Dst, Src0, Src1) { ipu_set_m(S, Dst, ipu_shl(ipu_m(S, Src0), ipu_m(S, Src1))); }
BEHAVIOUR(shl_mmmn_zi, Dst, Src, Imm) { ipu_set_m(S, Dst, ipu_shl(ipu_m(S, Src), (uint32_t)Imm)); }
BEHAVIOUR(mul_mmmn, Dst, Src0, Src1) { ipu_set_m(S, Dst, ipu_m(S, Src0) * ipu_m(S, Src1)); }
BEHAVIOUR(mul_mmmn_si, Dst, Src, Imm) { ipu_set_m(S, Dst, ipu_m(S, Src) * (uint32_t)Imm); }
BEHAVIOUR(min_mmmn, Dst, Src0, Src1) { ipu_set_m(S, Dst, ipu_smin(ipu_m(S, Src0), ipu_m(S, Src1))); }
BEHAVIOUR(min_mmmn_si, Dst, Src, Imm) { ipu_set_m(S, Dst, ipu_smin(ipu_m(S, Src), (uint32_t)Imm)); }
BEHAVIOUR(max_mmmn, Dst, Src0, Src1) { ipu_set_m(S, Dst, ipu_smax(ipu_m(S, Src0), ipu_m(S, Src1))); }
BEHAVIOUR(max_mmmn_si, Dst, Src, Imm) { ipu_set_m(S, Dst, ipu_smax(ipu_m(S, Src), (uint32_t)Imm)); }
BEHAVIOUR(cmpult_mmmn, Dst, Src0, Src1) { ipu_set_m(S, Dst, ipu_m(S, Src0) < ipu_m(S, Src1)); }
BEHAVIOUR(cmpult_mmmn_zi, Dst, Src, Imm) { ipu_set_m(S, Dst, ipu_m(S, Src) < (uint32_t)Imm); }
BEHAVIOUR(cmpeq_mmmn, Dst, Src0, Src1) { ipu_set_m(S, Dst, ipu_m(S, Src0) == ipu_m(S, Src1)); }

/* ARF logic of the constant idioms (or $a6, $a15, 0x3F000000). */
BEHAVIOUR(or_aaan, Dst, Src0, Src1) { ipu_set_a(S, Dst, ipu_a(S, Src0) | ipu_a(S, Src1)); }
BEHAVIOUR(or_aaan_zi, Dst, Src, Imm) { ipu_set_a(S, Dst, ipu_a(S, Src) | (uint32_t)Imm); }
BEHAVIOUR(or_aaan_iz, Dst, Src, Imm) { ipu_set_a(S, Dst, ipu_a(S, Src) | (uint32_t)Imm << 20); }
BEHAVIOUR(and_aaan, Dst, Src0, Src1) { ipu_set_a(S, Dst, ipu_a(S, Src0) & ipu_a(S, Src1)); }
BEHAVIOUR(and_aaan_zi, Dst, Src, Imm) { ipu_set_a(S, Dst, ipu_a(S, Src) & (uint32_t)Imm); }

/* ---- CSRs (architecture.md 3) ------------------------------------------------------------------ */

/* The CSR-file index of lower-space CSR `csr` of this context, or -1 (supervisor: the SCSR file;
 * workers: WCSR). $COUNT_L/U read the tile clock and are handled by the caller. */
static inline int ipu_lower_csr(const struct isk_state *S, int64_t csr)
{
    if (!CONTEXT) {
        if (csr >= 1 && csr <= 3) return (int)csr - 1 + S_SSR;
        if (csr == 0x20) return S_FP_ICTL;
        if (csr >= 0x21 && csr <= 0x26) return S_WORKER0_BASE + (int)csr - 0x21;
        if (csr == 0x50) return S_CCCSLOAD;
        if (csr == 0x72) return S_CTXT_STS;
        return -1;
    }
    return csr >= 1 && csr <= 6 ? (int)csr - 1 + W_WSR : -1;
}

BEHAVIOUR(get_mmmn_zi, Dst, Csr)
{
    if (ipu_in_rpt(S, "get")) return;
    if (Csr == 0x60 || Csr == 0x61) {
        ipu_set_m(S, Dst, (uint32_t)(Csr == 0x60 ? CLOCK : CLOCK >> 32));
        return;
    }
    if (Csr == 0x70) {                                   /* $DBG_DATA, one for the tile */
        ipu_set_m(S, Dst, (uint32_t)GET(DBG_DATA, 0));
        return;
    }
    const int i = ipu_lower_csr(S, Csr);
    if (i < 0) {
        RAISE(IPU_EXC_CSR, "get: no CSR 0x%x in the %s (INVALID_CSR)", (unsigned)Csr, CONTEXT ? "worker" : "supervisor");
        return;
    }
    ipu_set_m(S, Dst, CONTEXT ? ipu_wcsr(S, i) : (uint32_t)GET(SCSR, i));
}

/* put: the worker's writable lower CSRs are the repeat ones; the supervisor's all but $CTXT_STS. */
BEHAVIOUR(put_mmmn_zi, Csr, Src)
{
    if (ipu_in_rpt(S, "put")) return;
    if (Csr == 0x70) {
        SET(DBG_DATA, 0, ipu_m(S, Src));
        return;
    }
    const int i = ipu_lower_csr(S, Csr);
    if (i < 0 || (CONTEXT && i < W_REPEAT_COUNT) || (!CONTEXT && (i == S_CTXT_STS || i == S_TILE_ID))) {
        RAISE(IPU_EXC_CSR, "put: CSR 0x%x is not writable in the %s (INVALID_CSR)", (unsigned)Csr,
              CONTEXT ? "worker" : "supervisor");
        return;
    }
    if (CONTEXT) ipu_set_wcsr(S, i, ipu_m(S, Src));
    else SET(SCSR, i, ipu_m(S, Src));
}

/* Upper space, index 0x100 + imm: $FP_STS 0, $FP_CLR 1 (write 1 to clear; ZAACC zeroes the
 * accumulators), $FP_CTL 2, $PRNG_x_y 3-6, $PRNG_SEED 7, $TAS 8. */
static inline int ipu_upper_csr(int64_t csr)
{
    static const int map[9] = { W_FP_STS, -1, W_FP_CTL, W_PRNG_0_0, W_PRNG_0_1, W_PRNG_1_0, W_PRNG_1_1, -1, W_TAS };
    return csr >= 0 && csr <= 8 ? map[csr] : -2;
}

BEHAVIOUR(uget_aaan_zi, Dst, Csr)
{
    if (ipu_in_rpt(S, "uget")) return;
    const int i = ipu_upper_csr(Csr);
    if (i == -2) {
        RAISE(IPU_EXC_CSR, "uget: no upper CSR %d (INVALID_CSR)", (int)Csr);
        return;
    }
    ipu_set_a(S, Dst, i < 0 ? 0 : ipu_wcsr(S, i));     /* $FP_CLR and $PRNG_SEED read 0 */
}

BEHAVIOUR(uput_aaan_zi, Csr, Src)
{
    if (ipu_in_rpt(S, "uput")) return;
    const int i = ipu_upper_csr(Csr);
    const uint32_t v = ipu_a(S, Src);
    if (i == -2) {
        RAISE(IPU_EXC_CSR, "uput: no upper CSR %d (INVALID_CSR)", (int)Csr);
        return;
    }
    if (Csr == 1) {
        ipu_set_wcsr(S, W_FP_STS, ipu_wcsr(S, W_FP_STS) & ~(v & 7));
        if (v & 8)
            for (int k = 0; k < 16; k++) SET(AACC, (int64_t)(CONTEXT - 1) * 16 + k, 0);
    } else if (Csr == 7) {
        ipu_set_wcsr(S, W_PRNG_0_0, v);
        ipu_set_wcsr(S, W_PRNG_0_1, ~v);
        ipu_set_wcsr(S, W_PRNG_1_0, v << 13 | ~v >> 19);
        ipu_set_wcsr(S, W_PRNG_1_1, ~v << 13 | v >> 19);
    } else {
        ipu_set_wcsr(S, i, v);
    }
}

BEHAVIOUR(exitpos_mmmn, Src) { if (!ipu_in_rpt(S, "exitpos")) ipu_exit(S, (int32_t)ipu_m(S, Src) >= 0); }
BEHAVIOUR(exitneg_mmmn, Src) { if (!ipu_in_rpt(S, "exitneg")) ipu_exit(S, (int32_t)ipu_m(S, Src) < 0); }

#endif
