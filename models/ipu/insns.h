/* What the modelled instruction classes do (data/behaviours.tsv lists them; gen_isa.py marks
 * their table lines). Parameters are the operands in the order the syntax writes them; a
 * register operand is its number, a branch target the field (byte address >> 2). Facts from
 * architecture.md: 2.2/2.3 (read-only and discarded registers), 4 (memory map, alignment),
 * 8 (branches, exits, run/runall). */
#ifndef ISEKIT_MODEL_IPU_INSNS_H
#define ISEKIT_MODEL_IPU_INSNS_H

#include "ipu.h"

/* A class without a behaviour: the issuing context raises "not modelled yet: MNEMONIC (why)",
 * the reason from data/unmodelled.tsv (the facts it needs are not public). */
#define IPU_UNMODELLED(v, mn, why, ...) \
    BEHAVIOUR(v, __VA_ARGS__) { RAISE(IPU_EXC_UNMODELLED, "not modelled yet: %s (%s)", mn, why); }

/* ---- registers ------------------------------------------------------------------------------- */

/* $m15 reads 0, $m14 (unimplemented, written by nop) is read as 0. */
static inline uint32_t ipu_m(struct isk_state *S, int64_t r)
{
    return r >= 14 ? 0 : (uint32_t)GET(M, (int64_t)CONTEXT * IPU_REGS + r);
}

/* Writes to $m14/$m15 are discarded, as are a worker's to its read-only $m12/$m13. */
static inline void ipu_set_m(struct isk_state *S, int64_t r, uint32_t v)
{
    if (r >= 14 || (CONTEXT && (r == IPU_MWORKER_BASE || r == IPU_MVERTEX_BASE))) return;
    SET(M, (int64_t)CONTEXT * IPU_REGS + r, v);
}

/* $a8..$a15 are discarded destinations (fnop writes $a13). */
static inline void ipu_set_a(struct isk_state *S, int64_t r, uint32_t v)
{
    if (r >= 8 || !CONTEXT) return;
    SET(A, (int64_t)(CONTEXT - 1) * IPU_REGS + r, v);
}

static inline void ipu_set_ctxt_sts(struct isk_state *S, uint32_t context, uint32_t status)
{
    uint32_t v = (uint32_t)GET(SCSR, S_CTXT_STS) & ~(3u << (2 * context));
    SET(SCSR, S_CTXT_STS, v | status << (2 * context));
}

/* ---- memory ----------------------------------------------------------------------------------- */

/* The TMEM word of a 32-bit access at byte address addr, or -1 after raising its exception
 * (misaligned, or no memory there). */
static inline int64_t ipu_word(struct isk_state *S, uint32_t addr, const char *what)
{
    if (addr % 4) {
        RAISE(IPU_EXC_MISALIGNED, "%s at 0x%x is not 4-byte aligned", what, addr);
        return -1;
    }
    if (addr < S->mem_lo || addr >= S->mem_hi) {
        RAISE(IPU_EXC_ADDRESS, "%s at 0x%x: no memory there (0x%x-0x%x)", what, addr, S->mem_lo, S->mem_hi - 1);
        return -1;
    }
    return (addr - IPU_TMEM_BASE) / 4;
}

static inline void ipu_load(struct isk_state *S, int64_t dst, uint32_t addr)
{
    int64_t w = ipu_word(S, addr, "ld32");
    if (w >= 0) ipu_set_m(S, dst, (uint32_t)GET(TMEM, w));
}

static inline void ipu_store(struct isk_state *S, int64_t src, uint32_t addr)
{
    int64_t w = ipu_word(S, addr, "st32");
    if (w >= 0) SET(TMEM, w, ipu_m(S, src));
}

/* ---- control ---------------------------------------------------------------------------------- */

/* Whether the issuing worker is inside a rpt body ($REPEAT_COUNT != 0 and the PC between
 * $REPEAT_FIRST and $REPEAT_END): control and system instructions raise INSTR_IN_REPEAT there
 * (architecture.md 7), and the caller returns. */
static inline bool ipu_in_rpt(struct isk_state *S, const char *mn)
{
    if (!CONTEXT) return false;
    const int64_t csr = (int64_t)(CONTEXT - 1) * W_NCSR;
    const uint64_t at = IPU_TMEM_BASE + PC * 4;
    if (!GET(WCSR, csr + W_REPEAT_COUNT) || at < (uint64_t)GET(WCSR, csr + W_REPEAT_FIRST) << 3 ||
        at >= (uint64_t)GET(WCSR, csr + W_REPEAT_END) << 3)
        return false;
    RAISE(IPU_EXC_IN_RPT, "%s is not allowed in a rpt body (INSTR_IN_REPEAT)", mn);
    return true;
}

/* Region 0, the only executable memory: its end. */
static inline uint32_t ipu_region1(const struct isk_state *S) { return S->ipu2 ? 0x80000u : 0x60000u; }

/* The PC (a TMEM word index) of a code byte address, or -1 after raising its exception. */
static inline int64_t ipu_code(struct isk_state *S, uint32_t addr, const char *what)
{
    if (addr >= ipu_region1(S) && addr < S->mem_hi) {
        RAISE(IPU_EXC_ADDRESS, "%s to 0x%x: only region 0 (below 0x%x) is executable", what, addr, ipu_region1(S));
        return -1;
    }
    return ipu_word(S, addr, what);
}

static inline void ipu_jump(struct isk_state *S, uint32_t addr, const char *what)
{
    int64_t pc = ipu_code(S, addr, what);
    if (pc >= 0) JUMP(pc);
}

/* The end of a worker's vertex: its status ($m == 0 for exitz) and cycles are recorded, its
 * context becomes inactive and its slot goes back to the supervisor. */
static inline bool ipu_worker_active(const struct isk_state *S, uint32_t w)
{
    uint32_t st = S->isk.contexts[w + 1].state;
    return st == ISK_CTX_RUNNING || st == ISK_CTX_BLOCKED;
}

/* A worker has ended (exit or exception): a supervisor asleep in `sync 2` wakes once none is
 * left, and issues its sync again (re-issuing it in every free slot meanwhile would cost host
 * time and nothing else: the slots are the supervisor's anyway). */
static inline void ipu_worker_ended(struct isk_state *S)
{
    if (S->isk.contexts[0].state != ISK_CTX_SLEEPING) return;
    for (uint32_t w = 0; w < IPU_WORKERS; w++)
        if (ipu_worker_active(S, w)) return;
    WAKE_CONTEXT(0);
}

static inline void ipu_exit(struct isk_state *S, bool success)
{
    const uint32_t w = CONTEXT - 1;       /* exits are in the workers' set only */
    SET(EXIT_STATUS, w, success);
    SET(CYCLES, w, CLOCK - S->started[w]);
    ipu_set_ctxt_sts(S, CONTEXT, IPU_CTXT_INACTIVE);
    STOP_CONTEXT(CONTEXT);
    ipu_worker_ended(S);
}

/* Start worker w at the code address entry with $VERTEX_BASE = vbase, in slot w of the barrel:
 * $mvertex_base and $mworker_base mirror their CSRs, $FP_CTL comes from $FP_ICTL, $FP_STS is
 * reset. */
static inline void ipu_start_worker(struct isk_state *S, uint32_t w, uint32_t entry, uint32_t vbase)
{
    int64_t pc = ipu_code(S, entry, "run");
    if (pc < 0) return;
    const uint32_t ctx = w + 1, csr = w * W_NCSR;
    SET(WCSR, csr + W_VERTEX_BASE, vbase);
    SET(WCSR, csr + W_WORKER_BASE, GET(SCSR, S_WORKER0_BASE + w));
    SET(WCSR, csr + W_FP_CTL, GET(SCSR, S_FP_ICTL));
    SET(WCSR, csr + W_FP_STS, 0);
    SET(M, (int64_t)ctx * IPU_REGS + IPU_MVERTEX_BASE, vbase);
    SET(M, (int64_t)ctx * IPU_REGS + IPU_MWORKER_BASE, GET(SCSR, S_WORKER0_BASE + w));
    SET(EXIT_STATUS, w, -1);
    S->owner[w] = ctx;
    S->started[w] = CLOCK;
    ipu_set_ctxt_sts(S, ctx, IPU_CTXT_ACTIVE);
    START_CONTEXT(ctx, pc);
}


/* ---- the behaviours --------------------------------------------------------------------------- */

BEHAVIOUR(setzi_mmmn_zi, Dst, Imm) { ipu_set_m(S, Dst, (uint32_t)Imm); }
BEHAVIOUR(setzi_aaan_zi, Dst, Imm) { ipu_set_a(S, Dst, (uint32_t)Imm); }

BEHAVIOUR(add_mmmn, Dst, Src0, Src1) { ipu_set_m(S, Dst, ipu_m(S, Src0) + ipu_m(S, Src1)); }
BEHAVIOUR(add_mmmn_si, Dst, Src, Imm) { ipu_set_m(S, Dst, ipu_m(S, Src) + (uint32_t)Imm); }
BEHAVIOUR(add_mmmn_zi, Dst, Src, Imm) { ipu_set_m(S, Dst, ipu_m(S, Src) + (uint32_t)Imm); }
BEHAVIOUR(sub_mmmn, Dst, Src0, Src1) { ipu_set_m(S, Dst, ipu_m(S, Src0) - ipu_m(S, Src1)); }
BEHAVIOUR(sub_mmmn_si, Dst, Imm, Src) { ipu_set_m(S, Dst, (uint32_t)Imm - ipu_m(S, Src)); }
BEHAVIOUR(sub_mmmn_zi, Dst, Imm, Src) { ipu_set_m(S, Dst, (uint32_t)Imm - ipu_m(S, Src)); }

/* EA = Base + Delta + Off*4; the step forms load or store at Base + Delta, then Delta += Stride*4
 * (both writes land together: the engine holds a bundle's writes to its end anyway). */
BEHAVIOUR(ld32_mmmn, Dst, Base, Delta, Off) { ipu_load(S, Dst, ipu_m(S, Base) + ipu_m(S, Delta) + ipu_m(S, Off) * 4); }
BEHAVIOUR(ld32_mmmn_zi, Dst, Base, Delta, Off) { ipu_load(S, Dst, ipu_m(S, Base) + ipu_m(S, Delta) + (uint32_t)Off * 4); }
BEHAVIOUR(ld32step_mmmn, Dst, Base, Delta, Stride)
{
    const uint32_t delta = ipu_m(S, Delta), stride = ipu_m(S, Stride);
    ipu_load(S, Dst, ipu_m(S, Base) + delta);
    ipu_set_m(S, Delta, delta + stride * 4);
}
BEHAVIOUR(ld32step_mmmn_si, Dst, Base, Delta, Stride)
{
    const uint32_t delta = ipu_m(S, Delta);
    ipu_load(S, Dst, ipu_m(S, Base) + delta);
    ipu_set_m(S, Delta, delta + (uint32_t)Stride * 4);
}
BEHAVIOUR(st32_mmmn_zi, Src, Base, Delta, Off) { ipu_store(S, Src, ipu_m(S, Base) + ipu_m(S, Delta) + (uint32_t)Off * 4); }
BEHAVIOUR(st32step_mmmn_si, Src, Base, Delta, Stride)
{
    const uint32_t delta = ipu_m(S, Delta);
    ipu_store(S, Src, ipu_m(S, Base) + delta);
    ipu_set_m(S, Delta, delta + (uint32_t)Stride * 4);
}

BEHAVIOUR(br_mmmn, Src) { if (!ipu_in_rpt(S, "br")) ipu_jump(S, ipu_m(S, Src), "br"); }
BEHAVIOUR(bri_mmmn_zi, Target) { if (!ipu_in_rpt(S, "bri")) ipu_jump(S, (uint32_t)Target * 4, "bri"); }
BEHAVIOUR(brz_mmmn_zi, Src, Imm) { if (!ipu_in_rpt(S, "brz") && ipu_m(S, Src) == 0) ipu_jump(S, (uint32_t)Imm * 4, "brz"); }
BEHAVIOUR(brnz_mmmn_zi, Src, Imm) { if (!ipu_in_rpt(S, "brnz") && ipu_m(S, Src) != 0) ipu_jump(S, (uint32_t)Imm * 4, "brnz"); }

BEHAVIOUR(exitz_mmmn, Src) { if (!ipu_in_rpt(S, "exitz")) ipu_exit(S, ipu_m(S, Src) == 0); }
BEHAVIOUR(exitnz_mmmn, Src) { if (!ipu_in_rpt(S, "exitnz")) ipu_exit(S, ipu_m(S, Src) != 0); }

/* run: the lowest free worker (which one the hardware picks is not public), $VERTEX_BASE
 * relative to region 0; runall: all six, $VERTEX_BASE = VBase + n * VOff * 4, absolute, and
 * an exception ($SSR.RAERR) if any worker is active. */
BEHAVIOUR(run_mmmn_zi, Entry, VBase, VOff)
{
    const uint32_t region0 = S->ipu2 ? 0x4C000u : (uint32_t)IPU_TMEM_BASE;
    for (uint32_t w = 0; w < IPU_WORKERS; w++)
        if (!ipu_worker_active(S, w)) {
            ipu_start_worker(S, w, ipu_m(S, Entry), ipu_m(S, VBase) + (uint32_t)VOff * 4 + region0);
            return;
        }
    RAISE(IPU_EXC_RUN, "run: all six workers are active");
}
BEHAVIOUR(runall_mmmn_zi, Entry, VBase, VOff)
{
    for (uint32_t w = 0; w < IPU_WORKERS; w++)
        if (ipu_worker_active(S, w)) {
            SET(SCSR, S_SSR, GET(SCSR, S_SSR) | 8u);       /* RAERR */
            RAISE(IPU_EXC_RUN, "runall: worker %u is active", w);
            return;
        }
    for (uint32_t w = 0; w < IPU_WORKERS; w++)
        ipu_start_worker(S, w, ipu_m(S, Entry), ipu_m(S, VBase) + w * (uint32_t)VOff * 4);
}

/* sync 2 (TEXCH_SYNCZONE_LOCAL): the supervisor waits until no worker is active: it sleeps at the
 * sync, and the last worker to end wakes it to issue the sync again in its next slot. The other
 * zones are exchange and not modelled yet. */
BEHAVIOUR(sync_x, Zone)
{
    if (Zone != 2) {
        RAISE(IPU_EXC_UNMODELLED, "not modelled yet: sync %d (only zone 2, LOCAL)", (int)Zone);
        return;
    }
    for (uint32_t w = 0; w < IPU_WORKERS; w++)
        if (ipu_worker_active(S, w)) {
            JUMP(PC);
            SLEEP_CONTEXT(CONTEXT);
            return;
        }
}

#endif
