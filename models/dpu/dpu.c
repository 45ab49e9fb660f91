/* The UPMEM DPU (SDK 2025.1 ISA) as an isekit model.
 *
 *   storage        dpu.h: IRAM, WRAM, MRAM, atomic bits, 24 threads of registers and flags
 *   forms          forms.h: operand forms and conditions
 *   families       insns/<family>.h: what each mnemonic family computes (op_<family>)
 *   instructions   isa_instructions.inc: one line per signature (generated from the TSV),
 *                  expanded below into a behaviour (DPU_FORM_<form>) and an INSTRUCTION
 *   description    below: parameters, storage names, kinds and instructions (generated),
 *                  the processor, the ELF format, memory regions and relocations
 *
 * The facts come from the DPU reference pack (../shared/reference/dpu/): instructions.tsv and
 * conditions.tsv (copied to data/, turned into the .inc files by gen_isa.py), semantics.md,
 * elf-abi.md, timing.md. Points the pack marks UNCERTAIN are listed in README.md with the
 * choice made here.
 *
 * Modes (PARAM "mode"): "functional" issues one instruction per clock, round robin over the
 * running threads, and DMA takes no time; "cycle" applies the 11-cycle revolver rule and the
 * DMA cost, so that the clock is the DPU's cycle count. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "dpu.h"
#include "forms.h"
#include "dram.h"

/* timing=detailed: follow an issued instruction through the pipeline (below; a DMA asks). */
static uint64_t dpu_follow_issue(struct isk_state *S, uint32_t id, uint64_t pc, uint64_t clock);

/* The generated tables. A variant of the model built from another copy of the TSV
 * (tests/dpu/tests.cmake) names its own files and adds its families (DPU_EXTRA_FAMILIES). */
#ifndef DPU_ISA_CONDITIONS
#define DPU_ISA_CONDITIONS "isa_conditions.inc"
#define DPU_ISA_KINDS "isa_kinds.inc"
#define DPU_ISA_INSTRUCTIONS "isa_instructions.inc"
#endif

#include DPU_ISA_CONDITIONS

#include "insns/arith.h"
#include "insns/logic.h"
#include "insns/shift.h"
#include "insns/bits.h"
#include "insns/mul.h"
#include "insns/wram.h"
#include "insns/dma.h"
#include "insns/sync.h"
#include "insns/control.h"
#ifdef DPU_EXTRA_FAMILIES
#include DPU_EXTRA_FAMILIES
#endif

/* One behaviour per real signature: its form applied to its family's operation (forms.h). */
#define DPU_INSTRUCTION(name, family, form, dest, cls, ...) DPU_FORM_##form(name, family, dest, cls)
#define DPU_ALIAS(...)
#include DPU_ISA_INSTRUCTIONS
#undef DPU_INSTRUCTION
#undef DPU_ALIAS

/* The steady round with the behaviours' bodies inlined (PROCESSOR .round). */
#include "round.h"

/* ---- the detailed timing's scheduler (dram.h) ------------------------------------------------ */

/* Every real signature's bit pattern and fields: how the register-file rule finds the GPRs an
 * instruction reads and writes. */
static const dram_isa_row dpu_isa_rows[] = {
#define DPU_INSTRUCTION(name, family, form, dest, cls, fmt_, ...) { .format = fmt_, .syntax = __VA_ARGS__ },
#define DPU_ALIAS(...)
#include DPU_ISA_INSTRUCTIONS
#undef DPU_INSTRUCTION
#undef DPU_ALIAS
};

#define DPU_ISA_ROWS (sizeof dpu_isa_rows / sizeof dpu_isa_rows[0])

/* dpu_isa_rows' fixed bits (dram_compile), shared by every DPU of the process: written once,
 * under pthread_once, by the first decode of any of them, and only read after that. */
static dram_isa_bits dpu_isa_bits[DPU_ISA_ROWS];
static pthread_once_t dpu_isa_bits_once = PTHREAD_ONCE_INIT;

static void dpu_isa_bits_build(void)
{
    for (size_t i = 0; i < DPU_ISA_ROWS; i++) dpu_isa_bits[i] = dram_compile(dpu_isa_rows[i].format);
}

/* dram_decode_regs over the DPU's own instruction table. */
static uint64_t dpu_decode_regs(uint64_t word)
{
    pthread_once(&dpu_isa_bits_once, dpu_isa_bits_build);
    return dram_decode_regs(dpu_isa_rows, dpu_isa_bits, DPU_ISA_ROWS, word);
}

/* The GPRs read and written by the instruction at pc (dram_decode_regs), cached per word with
 * the word's complement: a 48-bit word's complement is never 0, so an entry not yet written
 * (0) never matches and needs no flag of its own. */
static ISK_NOINLINE uint64_t dpu_regs_decode(struct isk_state *S, uint64_t pc)
{
    uint64_t *e = &CELLS(RFC)[2 * pc];
    e[0] = ~CELLS(IRAM)[pc];
    e[1] = dpu_decode_regs(~e[0]);
    return e[1];
}

/* (pc is an issued instruction's: the engine issues none at or above the code memory's size,
 * IRAM's, so the cache needs no bound check of its own) */
ISK_INLINE uint64_t dpu_regs_at(struct isk_state *S, uint64_t pc)
{
    assert(pc < DPU_IRAM_INSNS);
    const uint64_t *e = &CELLS(RFC)[2 * pc];
    if (ISK_UNLIKELY(e[0] != ~CELLS(IRAM)[pc])) return dpu_regs_decode(S, pc);
    return e[1];
}

/* What dpu_regs_at finds, worked out once per decode cache entry when the engine decodes it
 * (PROCESSOR .entry_spare), so that detailed_stretch needs no compare with the IRAM word: the
 * reads' banks in bits 0..23, bit 24 set (0: nothing kept) and in bits 25..31 the writes as an
 * index in dpu_rf_writes (an instruction writes none, one register or a pair; another mask is
 * not kept). dram_rf_extra looks at bits 0..23 only. The word depends on the IRAM word alone,
 * so DPUs running one program share it with the rest of the entry: nothing writes it at run
 * time. An entry not decoded (or invalidated by an IRAM write) has 0. */
#define DPU_RF_KEPT (UINT32_C(1) << 24)
#define DPU_RF_W1(r) (UINT32_C(1) << ((r) / 2 + ((r) & 1) * 12))
#define DPU_RF_W4(r) DPU_RF_W1(r), DPU_RF_W1(r + 1), DPU_RF_W1(r + 2), DPU_RF_W1(r + 3)
#define DPU_RF_W2(p) ((UINT32_C(1) << (p)) | (UINT32_C(1) << ((p) + 12)))
#define DPU_RF_W2_4(p) DPU_RF_W2(p), DPU_RF_W2(p + 1), DPU_RF_W2(p + 2), DPU_RF_W2(p + 3)
static const uint32_t dpu_rf_writes[] = { 0, DPU_RF_W4(0), DPU_RF_W4(4), DPU_RF_W4(8), DPU_RF_W4(12), DPU_RF_W4(16),
                                          DPU_RF_W4(20), DPU_RF_W2_4(0), DPU_RF_W2_4(4), DPU_RF_W2_4(8) };
_Static_assert(sizeof dpu_rf_writes / sizeof dpu_rf_writes[0] <= 128, "the writes' index has 7 bits");

static uint32_t dpu_entry_spare(const isk_decoded *entry, uint64_t word)
{
    (void)entry;
    const uint64_t regs = dpu_decode_regs(word);
    for (uint32_t k = 0; k < sizeof dpu_rf_writes / sizeof dpu_rf_writes[0]; k++)
        if (dpu_rf_writes[k] == DRAM_WRITES(regs)) return (uint32_t)DRAM_READS(regs) | DPU_RF_KEPT | k << 25;
    return 0;
}

/* The instruction context `id` issued, which entered the register-file stage in `enter`
 * (pipe_enter), reading `reads` and writing `writes` (dram_banks): its register-file extra
 * cycles (its reads and its thread's previous instruction's writes). Returns the cycle in which
 * it leaves the stage. */
ISK_INLINE uint64_t follow_rule(struct isk_state *S, uint32_t id, uint64_t enter, uint64_t reads, uint64_t writes)
{
    const uint32_t extra = dram_rf_extra(S->prev_writes[id] | reads);
    S->prev_writes[id] = writes;
    return S->pipe.stage_free = enter + extra + 1;
}
/* The same for the instruction at pc issued in `clock`, from the register-file cache, after its
 * way through the pipeline. */
ISK_INLINE uint64_t follow_issue(struct isk_state *S, uint32_t id, uint64_t pc, uint64_t clock)
{
    const uint64_t regs = dpu_regs_at(S, pc);
    return follow_rule(S, id, pipe_enter(S, clock), DRAM_READS(regs), DRAM_WRITES(regs));
}
/* The same for detailed_stretch's issue at pc, whose decode cache entry it has at hand: the
 * registers kept in the entry, else (not decoded yet, or a mask not kept) the cache's. The
 * writes' look-up comes after the walk: GCC then keeps the entry's word in a register across it,
 * where before both went to stack slots. */
ISK_INLINE void follow_entry(struct isk_state *S, uint32_t id, uint64_t pc, const isk_decoded *entry, uint64_t clock)
{
    if (ISK_LIKELY(entry->spare)) {
        const uint64_t enter = pipe_enter(S, clock);
        const uint32_t kept = entry->spare;
        follow_rule(S, id, enter, kept, dpu_rf_writes[kept >> 25]);
    } else {
        follow_issue(S, id, pc, clock);
    }
}

/* The same for a DMA, which needs the cycle (insns/dma.h), unless its issue was followed before
 * its behaviour ran (detailed_run; one issue per cycle, so issued_at tells). */
static uint64_t dpu_follow_issue(struct isk_state *S, uint32_t id, uint64_t pc, uint64_t clock)
{
    if (S->pipe.issued_at == clock + 1) return S->pipe.stage_free;
    return follow_issue(S, id, pc, clock);
}

/* The live context ready in `clock` that the round robin comes to first, or -1: from the
 * contexts' states, which an instruction that asked for attention may have changed since the
 * engine renewed q->running. */
static int detailed_next_live(const isk_sched *q, uint64_t clock)
{
    uint32_t id = q->cursor < q->ncontexts ? q->cursor : 0;
    for (uint32_t k = 0; k < q->ncontexts; k++, id = id + 1 < q->ncontexts ? id + 1 : 0) {
        const isk_context *c = &q->contexts[id];
        if ((q->running >> id & 1) && (c->state == ISK_CTX_RUNNING || c->state == ISK_CTX_BLOCKED) &&
            c->ready_at <= clock)
            return (int)id;
    }
    return -1;
}

/* The same while q->running is up to date (the live contexts, RUNNING or BLOCKED): only their
 * bits are visited, from the cursor on, then from 0. */
ISK_INLINE int detailed_next_ready(const isk_sched *q, uint64_t clock)
{
    const uint32_t from = q->cursor < q->ncontexts ? q->cursor : 0;
    const isk_context *const ctx = q->contexts;
    for (uint64_t m = q->running & (~UINT64_C(0) << from); m; m &= m - 1)
        if (ctx[__builtin_ctzll(m)].ready_at <= clock) return __builtin_ctzll(m);
    for (uint64_t m = q->running & ((UINT64_C(1) << from) - 1); m; m &= m - 1)
        if (ctx[__builtin_ctzll(m)].ready_at <= clock) return __builtin_ctzll(m);
    return -1;
}

/* The pick of the next cycle the pipeline lets issue, found by the after-issue hook (which
 * needs the round-robin search anyway) and kept in the scheduler's free words until the engine
 * says the contexts changed (DETAILED_NONE: nothing kept). */
#define DETAILED_AT word[0]             /* the cycle the kept pick is for */
#define DETAILED_ID word[1]             /* the context, or -1 (as uint64_t) */
#define DETAILED_NONE UINT64_MAX        /* (no pick is asked for the last cycle) */

static uint64_t detailed_next(isk_sched *q, uint64_t clock);

/* The pipeline blocks the issue in `clock`: the stalls up to its end are counted now (once,
 * detailed_next), as the engine's general path, unlike its fast loop, does not ask `next`. */
static ISK_NOINLINE int detailed_blocked(isk_sched *q, uint64_t clock)
{
    detailed_next(q, clock);
    return -1;
}

/* The revolver (a thread issues at most every 11 cycles, round robin) behind the pipeline and
 * its register-file stage (dram.h): while they block, no thread issues. */
static int detailed_pick(isk_sched *q, uint64_t clock)
{
    if (clock == q->DETAILED_AT) {
        const int id = (int)q->DETAILED_ID;
        if (id >= 0) q->cursor = (uint32_t)id + 1;
        return id;
    }
    const struct isk_state *S = (const struct isk_state *)(void *)q->h;
    if (clock != S->pipe.open_at && pipe_blocked(&S->pipe, clock)) return detailed_blocked(q, clock);
    const int id = detailed_next_ready(q, clock);
    if (id >= 0) q->cursor = (uint32_t)id + 1;
    return id;
}

/* After an issue, the next cycle the pipeline lets anything issue. When a thread is ready
 * before that, the cycles in between are register-file stalls and the engine need not look at
 * them; otherwise the engine looks at each cycle (detailed_next) and counts why it is idle.
 * Unless the instruction asked for attention (the engine then renews its view of the
 * contexts), the pick of the cycle returned is kept for detailed_pick. The issue has been
 * followed through the pipeline (detailed_issued) and `at` is the first cycle it lets issue:
 * this is the rare part, apart so that the common one saves few registers. */
static ISK_NOINLINE uint64_t detailed_issued_rest(isk_sched *q, uint32_t id, uint64_t clock, uint64_t at)
{
    struct isk_state *S = (struct isk_state *)(void *)q->h;
    q->next_pick = -1;
    q->DETAILED_AT = DETAILED_NONE;
    if (ISK_UNLIKELY(S->isk.attention)) {
        if (at == clock + 1 || detailed_next_live(q, clock + 1) < 0) return clock + 1;
        S->rf_stall_cycles += at - (clock + 1);
        return at;
    }
    /* mostly the live thread after it in the round robin (detailed_changed) */
    const uint32_t after = S->rr_after[id];
    const int next = q->contexts[after].ready_at <= at ? (int)after : detailed_next_ready(q, at);
    if (at != clock + 1 && (next < 0 || q->contexts[next].ready_at > clock + 1) &&
        detailed_next_ready(q, clock + 1) < 0) {
        q->DETAILED_AT = clock + 1;         /* blocked (pipe_unblocked): nothing issues */
        q->DETAILED_ID = (uint64_t)-1;
        return clock + 1;
    }
    S->rf_stall_cycles += at - (clock + 1);
    q->DETAILED_AT = at;
    q->DETAILED_ID = (uint64_t)(int64_t)next;
    q->next_pick = next;                    /* the engine's fast loop issues it at `at` */
    return at;
}

/* The common case: no attention, and the live thread after the issuer in the round robin is
 * ready by the next cycle, so it is the next pick (ready by `at` too) and nothing blocks. */
ISK_INLINE uint64_t detailed_issued_at(isk_sched *q, uint32_t id, uint64_t pc, uint64_t clock)
{
    struct isk_state *S = (struct isk_state *)(void *)q->h;
    q->cursor = id + 1;                     /* as its pick did, which the engine may have skipped */
    if (S->pipe.issued_at != clock + 1) follow_issue(S, id, pc, clock);   /* unless a DMA did */
    isk_context *const ctx = q->contexts;
    if (ctx[id].ready_at < clock + DPU_REVOLVER) ctx[id].ready_at = clock + DPU_REVOLVER;
    const uint64_t at = S->pipe.open_at;     /* (pipe_enter) */
    const uint32_t after = S->rr_after[id];
    if (ISK_UNLIKELY(S->isk.attention || ctx[after].ready_at > clock + 1))
        return detailed_issued_rest(q, id, clock, at);
    S->rf_stall_cycles += at - (clock + 1);
    q->DETAILED_AT = at;
    q->DETAILED_ID = after;
    q->next_pick = (int)after;              /* the engine's fast loop issues it at `at` */
    return at;
}
static uint64_t detailed_issued(isk_sched *q, uint32_t id, uint64_t clock)
{
    return detailed_issued_at(q, id, q->h->pc, clock);
}

/* A stretch's register-file stalls: each common issue's (its cycle after the previous issue's,
 * less one) is not added one by one; they telescope into base + clock - h->issued, which
 * dpu_rf_stalls reads while the stretch is open (a fault leaves it so). Returns the base. */
ISK_INLINE uint64_t rf_stretch_open(struct isk_state *S, uint64_t clock)
{
    const uint64_t base = S->rf_stall_cycles - clock + S->isk.issued;
    S->rf_base = base;
    S->rf_open = true;
    return base;
}
ISK_INLINE void rf_stretch_close(struct isk_state *S, uint64_t base, uint64_t clock, uint64_t issued)
{
    S->rf_stall_cycles = base + clock - issued;
    S->rf_open = false;
}

/* An issue's counts (isk_scheduler.run). */
ISK_INLINE void detailed_count(isk_hdr *h, isk_context *c, uint64_t clock)
{
    c->last_issue = clock;
    c->insns++;
#if defined(__GNUC__) && defined(__x86_64__)
    /* (an add in memory: GCC loads, adds and stores, keeping the count for the rare path) */
    __asm__("addq $1, %0" : "+m"(h->issued));
#else
    h->issued++;
#endif
}

/* The engine's fast loop while the pick is kept (isk_scheduler.run, abi.h: what it must store
 * per issue): the behaviour and the after-issue hook in one loop, no call of the hook and no
 * turn of the engine's loop per issue. The issue is followed through the pipeline before its
 * behaviour runs (only a DMA's looks at the pipeline, and finds it followed: dpu_follow_issue),
 * so that nothing of the walk is kept across the behaviour's call. The behaviour runs as in the
 * steady round (round.h): the bodies of most behaviours inlined, from the round's case list
 * (round_cases.h), through its dispatch, each case leaving its next PC in npc and going on to
 * the per-issue rest below; every other instruction (and an entry not decoded) through its fn.
 * The engine's ncode is the code memory's size, IRAM's, a constant here, which frees a
 * register. */
static uint64_t detailed_stretch(isk_sched *q, const isk_decoded *dcache, uint64_t clock, const uint64_t limit,
                                 uint64_t *sys_clock, int *asked)
{
    isk_hdr *const h = q->h;
    struct isk_state *const S = (struct isk_state *)(void *)h;
    *asked = -1;
    int id = q->next_pick;
    if (clock >= limit || id < 0) return clock;
    /* (the chunk's end, read from the state after each issue, where it is one compare with
     * memory, rather than kept in a stack slot that GCC loads into a register first) */
    S->stretch_limit = dpu_chunk_end(clock, limit);
    uint64_t base = rf_stretch_open(S, clock);
    isk_context *c = &q->contexts[id];
    uint64_t pc = c->pc, npc;
    const isk_decoded *d;
#define DPU_ROUND_TABLE
#include "round_cases.h"
#undef DPU_ROUND_TABLE
    if (ISK_UNLIKELY(pc >= DPU_IRAM_INSNS)) goto closed;
    for (;;) {
        d = &dcache[pc];
        follow_entry(S, (uint32_t)id, pc, d, clock);
        if (c->state == ISK_CTX_BLOCKED) c->state = ISK_CTX_RUNNING;
        h->context = (uint32_t)id;
        *sys_clock = clock;
#if DPU_THREADED
        DPU_DISPATCH;
        {
#else
        switch (d->pattern) {
#endif
#define DPU_LOOP_BEFORE(kind, family) DPU_ROUND_FRAME_##kind(family, clock)
#define DPU_LOOP_AFTER(kind) npc = DPU_ROUND_NEXT_PC_##kind; goto inlined;
#include "round_cases.h"
#undef DPU_LOOP_BEFORE
#undef DPU_LOOP_AFTER
#if !DPU_THREADED
        default: goto call;
#endif
        }
    call:
        h->pc = pc;
        h->next_pc = pc + 1;
        h->clock = clock;
        d->fn(h, d->op);
        npc = h->next_pc;
        /* (a DMA's cost may block the thread past the revolver's distance) */
        if (c->ready_at < clock + DPU_REVOLVER) c->ready_at = clock + DPU_REVOLVER;
        detailed_count(h, c, clock);
        /* a call may ask for attention (an inlined body never does; a stop request from
         * another thread is seen at the chunk's end, below) */
        if (ISK_UNLIKELY(h->attention)) goto rare;
        goto counted;
    inlined:
        assert(c->ready_at <= clock);   /* it was picked ready: the revolver's distance is the max */
        c->ready_at = clock + DPU_REVOLVER;
        detailed_count(h, c, clock);
    counted:;
        /* (read back rather than kept across the behaviour's call: only a DMA's looks at the
         * pipeline, and leaves open_at alone) */
        const uint64_t at = S->pipe.open_at;
        /* (looked up after the call, which leaves them alone, so that no register holds them
         * across it; the empty asm keeps GCC from sharing &ctx_after[id] with the register-file
         * rule's &prev_writes[id] and spilling that across the call) */
        uint64_t t = (uint32_t)id;
#if defined(__GNUC__)
        __asm__("" : "+r"(t));
#endif
        const uint64_t after = S->rr_after[t];
        isk_context *const next_c = S->ctx_after[t];
        /* (ready_at > clock + 1, written so that clock + 1 is not kept across the call) */
        if (ISK_UNLIKELY(next_c->ready_at >= clock + 2)) {
        rare:
            /* the issue's PC, next PC and clock, which an inlined body may have left alone */
            h->pc = pc;
            h->next_pc = npc;
            h->clock = clock;
            q->cursor = (uint32_t)id + 1;
            rf_stretch_close(S, base, clock, h->issued - 1);   /* before this issue's */
            const uint64_t next = detailed_issued_rest(q, (uint32_t)id, clock, S->pipe.open_at);
            if (h->attention) {
                *asked = id;
                return next;
            }
            c->pc = npc;
            clock = next;
            id = q->next_pick;
            if (clock >= limit || id < 0) return clock;
            S->stretch_limit = dpu_chunk_end(clock, limit);
            c = &q->contexts[id];
            base = rf_stretch_open(S, clock);
            pc = c->pc;
            if (ISK_UNLIKELY(pc >= DPU_IRAM_INSNS)) goto closed;   /* q is up to date */
            continue;
        }
        c->pc = npc;
        const uint64_t issued_in = clock;
        clock = at;
        if (ISK_UNLIKELY(clock >= S->stretch_limit)) {
            /* the chunk's end: the limit, then a stop request from another thread (as the
             * steady round, the stretch ends as at the limit and the engine sees it) */
            if (clock >= limit || h->attention) goto last;
            S->stretch_limit = dpu_chunk_end(clock, limit);
        }
        const uint64_t next_pc = next_c->pc;
        if (ISK_UNLIKELY(next_pc >= DPU_IRAM_INSNS)) goto last;
        pc = next_pc;
        id = (int)after;
        c = next_c;
        continue;
    last:
        /* the last issue's PC, next PC and clock, as the engine's loop leaves them */
        h->pc = pc;
        h->next_pc = npc;
        h->clock = issued_in;
        break;
    }
    /* q's kept pick and cursor lag: as detailed_issued_at leaves them after the last issue, id's */
    rf_stretch_close(S, base, clock, h->issued);
    const uint32_t after = S->rr_after[id];
    q->cursor = (uint32_t)id + 1;
    q->DETAILED_AT = clock;
    q->DETAILED_ID = after;
    q->next_pick = (int)after;
    return clock;
closed:
    rf_stretch_close(S, base, clock, h->issued);
    return clock;
}
static uint64_t detailed_run(isk_sched *q, const isk_decoded *dcache, uint64_t ncode, uint64_t clock, uint64_t limit,
                             uint64_t *sys_clock, int *asked)
{
    assert(ncode == DPU_IRAM_INSNS);
    (void)ncode;
    return detailed_stretch(q, dcache, clock, limit, sys_clock, asked);
}

/* The contexts changed: the kept pick may be stale, and the round robin's order of the live
 * threads is renewed. */
static void detailed_changed(isk_sched *q)
{
    struct isk_state *S = (struct isk_state *)(void *)q->h;
    q->DETAILED_AT = DETAILED_NONE;
    for (uint64_t m = q->running; m; m &= m - 1) {
        const int i = __builtin_ctzll(m);
        const uint64_t later = q->running & ~((UINT64_C(2) << i) - 1);
        S->rr_after[i] = (uint8_t)__builtin_ctzll(later ? later : q->running);
        S->ctx_after[i] = &q->contexts[S->rr_after[i]];
    }
}

/* The first cycle after `clock` in which a thread is ready and the pipeline lets it issue. The
 * cycles a ready thread lost to the pipeline count as register-file stalls; those among them in
 * which another thread waited for a DMA (the engine counts them as DMA wait) are noted, so
 * that the statistics can count each cycle once. */
static uint64_t detailed_next(isk_sched *q, uint64_t clock)
{
    struct isk_state *S = (struct isk_state *)(void *)q->h;
    uint64_t first = UINT64_MAX, blocked_until = 0;
    for (uint64_t m = q->running; m; m &= m - 1) {
        const isk_context *c = &q->contexts[__builtin_ctzll(m)];
        if (c->state == ISK_CTX_BLOCKED && c->ready_at > blocked_until) blocked_until = c->ready_at;
        if (c->state != ISK_CTX_RUNNING && c->state != ISK_CTX_BLOCKED) continue;
        const uint64_t at = c->ready_at > clock ? c->ready_at : clock;
        if (at < first) first = at;
    }
    if (first == UINT64_MAX) return first;
    const uint64_t at = pipe_unblocked(&S->pipe, first);
    /* the engine asks again for a cycle before `at` when a run ends there or on its general
     * path (every idle cycle): the stalls it foresaw are counted once */
    const uint64_t from = first > S->rf_counted_until ? first : S->rf_counted_until;
    if (at > from) {
        S->rf_stall_cycles += at - from;
        if (blocked_until > from) S->rf_stall_in_dma_wait += (blocked_until < at ? blocked_until : at) - from;
        S->rf_counted_until = at;
    }
    return at > clock ? at : clock + 1;
}

static const isk_scheduler dpu_detailed = { "revolver with the register-file stage", detailed_pick,
                                            detailed_issued, detailed_next, detailed_changed, 1, detailed_run };

/* ---- reset --------------------------------------------------------------------------------- */

static void dpu_reset(isk_hdr *h)
{
    struct isk_state *S = (struct isk_state *)(void *)h;
    S->v1b = GET_PARAM("chip") == 1;
    S->nthreads = S->v1b ? 16 : 24;
    S->wram_bytes = S->v1b ? 63488 : 65536;
    for (uint32_t n = 1; n <= 8; n *= 2) S->wram_last[n] = S->wram_bytes - n;
    S->iram_insns = S->v1b ? 3968 : 4096;
    S->atomic_bits = S->v1b ? 64 : 256;
    S->cycle_mode = GET_PARAM("mode") == 1;
    /* One instruction per clock over the running threads, round robin; in cycle mode a thread
     * issues at most every 11 cycles (the revolver pipeline), in functional mode every clock. */
    S->detailed = S->cycle_mode && GET_PARAM("timing") == 1;
    if (S->detailed) SCHEDULE_OWN(&dpu_detailed);
    else SCHEDULE(ISK_ISSUE_REVOLVER, S->cycle_mode ? DPU_REVOLVER : 1);
    S->tm = (dpu_timing){ .logic_mhz = (uint64_t)GET_PARAM("logic_mhz"), .mem_mhz = (uint64_t)GET_PARAM("memory_mhz"),
                          .t_rcd = (uint64_t)GET_PARAM("t_rcd"), .t_ras = (uint64_t)GET_PARAM("t_ras"),
                          .t_rp = (uint64_t)GET_PARAM("t_rp"), .t_cl = (uint64_t)GET_PARAM("t_cl"),
                          .t_bl = (uint64_t)GET_PARAM("t_bl"), .row_bytes = (uint64_t)GET_PARAM("row_bytes"),
                          .pipeline = (uint64_t)GET_PARAM("pipeline_stages") };
    memset(&S->dram, 0, sizeof S->dram);
    memset(&S->pipe, 0, sizeof S->pipe);
    S->pipe.late_at = UINT64_MAX;   /* no late entry yet (0 would block cycle 0 in pipe_unblocked) */
    S->pipe.lag = S->tm.pipeline - 1;
    pipe_sentinel(&S->pipe, 0);
    S->rf_stall_cycles = 0;
    S->rf_open = false;
    S->rf_stall_in_dma_wait = 0;
    S->rf_counted_until = 0;
    memset(S->prev_writes, 0, sizeof S->prev_writes);
    S->uncertain_fault = GET_PARAM("uncertain") == 1;
    S->sats_hook = dpu_default_sats;
    S->hash_hook = dpu_default_hash;
    /* the constant registers of every thread */
    for (uint32_t t = 0; t < DPU_THREADS; t++) {
        S->regs_of[t] = CELLS(R) + t * DPU_REGS;
        const uint32_t c[8] = { 0, 1, 0xffffffffu, 0x80000000u, t, 2 * t, 4 * t, 8 * t };
        for (int i = 0; i < 8; i++) CELLS(R)[t * DPU_REGS + DPU_ZERO + (uint32_t)i] = c[i];
    }
    S->time_mode = 1;
    S->time_base = S->time_origin = 0;
    S->dma_reads = S->dma_writes = S->dma_read_bytes = S->dma_write_bytes = S->dma_cycles = 0;
    memset(S->thread, 0, sizeof S->thread);
}

/* ---- the toolchain's view -------------------------------------------------------------------- */

/* ELF virtual address -> the value an instruction or pointer holds (elf-abi.md 2): atomic bit
 * index, IRAM instruction index ((VA >> 3) + (VA & 7), so that `. + 1` is the next
 * instruction), MRAM offset, or the WRAM address itself. */
static uint64_t dpu_va_to_value(uint64_t va)
{
    const uint32_t v = (uint32_t)va;
    if ((v & 0xf0000000u) == 0xf0000000u) return v & 0x0fffffffu;
    if (v & 0x80000000u) {
        const uint32_t o = v & 0x7fffffffu;
        return (o >> 3) + (o & 7);
    }
    if (v & 0x08000000u) return v & ~0x08000000u;
    return v;
}

#include DPU_ISA_KINDS

/* ---- the description --------------------------------------------------------------------------- */

MODEL_BEGIN(dpu, "UPMEM DPU (SDK 2025.1 ISA)")
    WORD_BITS(48);
    PARAM_ENUM("chip", "v1A", "v1A v1B", "v1A: 24 threads, 64 KiB WRAM, 4096 instructions; v1B: 16 threads, "
               "62 KiB WRAM, 3968 instructions");
    PARAM_ENUM("mode", "functional", "functional cycle", "functional: one instruction per clock; cycle: the "
               "revolver pipeline's timing (--cycles)");
    PARAM_ENUM("timing", "prim", "prim detailed", "cycle mode's timing: prim, the PrIM DMA cost (77/61 + "
               "bytes/2); detailed, uPIMulator's register-file rule and DRAM model (docs/dpu-timing.md)");
    PARAM_INT("logic_mhz", 350, 1, 10000, "timing=detailed: DPU logic clock, MHz");
    PARAM_INT("memory_mhz", 2400, 1, 100000, "timing=detailed: MRAM clock, MHz");
    PARAM_INT("t_rcd", 32, 0, 100000, "timing=detailed: ACTIVATE to row open, memory cycles");
    PARAM_INT("t_ras", 78, 0, 100000, "timing=detailed: ACTIVATE to PRECHARGE, memory cycles");
    PARAM_INT("t_rp", 32, 0, 100000, "timing=detailed: PRECHARGE, memory cycles");
    PARAM_INT("t_cl", 32, 0, 100000, "timing=detailed: READ/WRITE in the I/O stage, memory cycles");
    PARAM_INT("t_bl", 8, 0, 100000, "timing=detailed: burst on the bus, memory cycles");
    PARAM_INT("row_bytes", 1024, 8, 65536, "timing=detailed: MRAM row (wordline) bytes", .pow2 = 1);
    PARAM_INT("pipeline_stages", 14, 2, 60, "timing=detailed: pipeline stages before the register-file stage");
    PARAM_ENUM("uncertain", "allow", "allow fault", "hash and sats have no public definition: run our own "
               "(allow) or fault");
    ON_RESET(dpu_reset);

    MEMORY(IRAM, "Instruction RAM");
    MEMORY(WRAM, "Working RAM");
    MEMORY(MRAM, "Main RAM");
    MEMORY(ATOMIC, "Atomic bits");
    MEMORY(RFC, "Register-file rule cache (timing=detailed)");
    REGFILE_BEGIN(R, "Registers")
    {
        static const char *const konst[8] = { "zero", "one", "lneg", "mneg", "id", "id2", "id4", "id8" };
        char name[24];
        for (int t = 0; t < DPU_THREADS; t++)
            for (int i = 0; i < DPU_REGS; i++) {
                const char *reg = i < DPU_GPRS ? NULL : konst[i - DPU_GPRS];
                if (reg) snprintf(name, sizeof name, t ? "t%d.%s" : "%.0d%s", t, reg);
                else snprintf(name, sizeof name, t ? "t%d.r%d" : "%.0dr%d", t, i);
                REGISTER((uint64_t)(t * DPU_REGS + i), name);   /* r5, id, t3.r5, t3.id */
            }
    }
    REGFILE_END()
    REG(ZF, "Zero flags");
    REG(CF, "Carry flags");

    dpu_declare_kinds(B);
    /* Every signature, real or sugar (an alias of a real one's behaviour). */
#define DPU_DECLARE(name, format, ...) INSTRUCTION(format, name, __VA_ARGS__)
#define DPU_INSTRUCTION(name, family, form, dest, cls, ...) DPU_DECLARE(name, __VA_ARGS__);
#define DPU_ALIAS(name, ...) DPU_DECLARE(name, __VA_ARGS__, .alias = 1);
#include DPU_ISA_INSTRUCTIONS
#undef DPU_INSTRUCTION
#undef DPU_ALIAS

    /* One instruction per clock over the running threads, round robin; dpu_reset chooses the
     * distance between two issues of a thread from the mode. */
    PROCESSOR(.code = "IRAM", .contexts = DPU_THREADS, .issue = ISK_ISSUE_REVOLVER, .distance = 1,
              .reset_pc = 0, .code_bytes = 8, .pc_unit_bytes = 8, .entry_spare = dpu_entry_spare, .round = dpu_round);

    /* ELF (elf-abi.md 1): EM_DPU, ELFCLASS32 little-endian, e_flags = EABI set (bit 23) and
     * version 2 in bits 31:24. */
    /* gdb knows no DPU: a stub client sees r0..r23 of each tasklet and the pc (docs/gdb.md) */
    GDB_TARGET(.registers = "R[0..23] pc", .context_stride = DPU_REGS);
    ELF_FORMAT(.machine = 0xf5, .elfclass = 32, .big_endian = 0, .flags = 0x02800000u,
               .abi_mask = 0xff000000u, .abi_shift = 24);
    REGION(.name = "IRAM", .base = 0x80000000u, .size = DPU_IRAM_INSNS * 8,
           .sections = ".text.__bootstrap .text .text.*", .storage = "IRAM", .code = 1);
    REGION(.name = "MRAM", .base = 0x08000000u, .size = DPU_MRAM_BYTES,
           .sections = ".mram.noinit .mram.noinit.* .mram .mram.*", .storage = "MRAM");
    REGION(.name = "WRAM", .base = 0, .size = DPU_WRAM_BYTES,
           .sections = ".data.__sys_zero .data.immediate_memory .data.immediate_memory.* .rodata .rodata.* "
                       ".bss .bss.* .data .data.* .dpu_host .dpu_profiling COMMON",
           .storage = "WRAM");
    REGION(.name = "ATOMIC", .base = 0xf0000000u, .size = DPU_ATOMIC_BITS, .sections = ".atomic .atomic.*",
           .storage = "ATOMIC");
    /* Data relocations write the translated value; instruction relocations scatter it into the
     * 64-bit container of a 48-bit instruction. */
    RELOCATION(.type = 1, .name = "R_DPU_32", .bytes = 4, .min = -2147483648LL, .max = 4294967295LL,
               .convert = dpu_va_to_value);
    RELOCATION(.type = 2, .name = "R_DPU_8", .bytes = 1, .min = -128, .max = 255, .convert = dpu_va_to_value);
    RELOCATION(.type = 3, .name = "R_DPU_16", .bytes = 2, .min = -32768, .max = 65535, .convert = dpu_va_to_value);
    RELOCATION(.type = 4, .name = "R_DPU_64", .bytes = 8, .convert = dpu_va_to_value);
    dpu_declare_instruction_relocations(B);
MODEL_END
