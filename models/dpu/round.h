/* The DPU's own steady round (PROCESSOR .round, isk_round_fn in isekit/abi.h): the engine's
 * round-robin loop over the threads, one issue per clock, with the bodies of most behaviours
 * inlined into one function and threaded dispatch, instead of a call through the decode cache
 * per instruction. The semantics stay in the behaviours: an inlined case runs the behaviour's
 * own body (name##_isk_run, model.h), and every other instruction (DMA, thread control, time,
 * stop, fault) runs through its entry's fn exactly as the engine's loop would, after which the
 * round looks at h->attention.
 *
 * Before an inlined body the round stores what the body may read: the thread (its registers and
 * flags) always; the PC and the clock only where the body may fault (which reports them) or link
 * (a call). A body that may jump (a branch, a call) finds NEXT_PC = pc + 1 and the round moves
 * the thread to what it leaves there; any other moves the thread to pc + 1 without a look at
 * NEXT_PC. None of the inlined bodies changes a thread's state or asks for attention (their
 * families only compute, load and store WRAM, or fault), so the round looks at h->attention only
 * after a call through an entry and once per chunk of DPU_ROUND_CHUNK issues (a stop request
 * from another thread). A crash inside an inlined body that stored no PC (a model bug, caught
 * by the engine's guard) reports the PC and clock of the last one that did.
 *
 * Which behaviours are inlined is decided per form (forms.h), below: every form names its
 * kind, so a new form that names none does not compile. An entry's case comes from its pattern,
 * the index of its INSTRUCTION: dpu.c declares the instructions in the order of
 * isa_instructions.inc and nothing else, so the table of cases expands the same file (each
 * case asserts that its entry's fn is its behaviour).
 *
 * The kinds, the frames, the dispatch and the case list (round_cases.h) are shared with the
 * detailed timing's stretch (dpu.c, detailed_stretch), which expands the same cases with its
 * own parts before and after the body.
 */
#ifndef DPU_ROUND_H
#define DPU_ROUND_H

/* The kind of each form: PLAIN, inlined, next PC pc + 1; FRAMED, the same for a body that may
 * fault (WRAM accesses, stack checks); BRANCH, inlined, next PC from NEXT_PC; LINKS, the same for
 * a body that reads the PC (a call's link); CALL, through the entry's fn. The conditional set
 * forms (..c) and the big-endian accesses (.._be) are CALL too: rare in compiled code, and
 * inlined they made dpu.c take half as long again to compile. */
#define DPU_ROUND_KIND_alu_rrr PLAIN
#define DPU_ROUND_KIND_alu_rrrc CALL
#define DPU_ROUND_KIND_alu_rrrci BRANCH
#define DPU_ROUND_KIND_alu_zrr PLAIN
#define DPU_ROUND_KIND_alu_zrrc CALL
#define DPU_ROUND_KIND_alu_zrrci BRANCH
#define DPU_ROUND_KIND_alu_rri PLAIN
#define DPU_ROUND_KIND_alu_rric CALL
#define DPU_ROUND_KIND_alu_rrici BRANCH
#define DPU_ROUND_KIND_alu_zri PLAIN
#define DPU_ROUND_KIND_alu_zric CALL
#define DPU_ROUND_KIND_alu_zrici BRANCH
#define DPU_ROUND_KIND_alu_rir PLAIN
#define DPU_ROUND_KIND_alu_rirc CALL
#define DPU_ROUND_KIND_alu_rirci BRANCH
#define DPU_ROUND_KIND_alu_zir PLAIN
#define DPU_ROUND_KIND_alu_zirc CALL
#define DPU_ROUND_KIND_alu_zirci BRANCH
#define DPU_ROUND_KIND_unary_rr PLAIN
#define DPU_ROUND_KIND_unary_rrc CALL
#define DPU_ROUND_KIND_unary_rrci BRANCH
#define DPU_ROUND_KIND_unary_zr PLAIN
#define DPU_ROUND_KIND_unary_zrc CALL
#define DPU_ROUND_KIND_unary_zrci BRANCH
#define DPU_ROUND_KIND_safe_ssi FRAMED
#define DPU_ROUND_KIND_safe_sss FRAMED
#define DPU_ROUND_KIND_shadd_rrri PLAIN
#define DPU_ROUND_KIND_shadd_rrrici BRANCH
#define DPU_ROUND_KIND_shadd_zrrici BRANCH
#define DPU_ROUND_KIND_step_rrrici BRANCH
#define DPU_ROUND_KIND_pair_rrci BRANCH
#define DPU_ROUND_KIND_load_erri_le FRAMED
#define DPU_ROUND_KIND_load_erri_be CALL
#define DPU_ROUND_KIND_load_ersi_le FRAMED
#define DPU_ROUND_KIND_load_ersi_be CALL
#define DPU_ROUND_KIND_store_erii_le FRAMED
#define DPU_ROUND_KIND_store_erii_be CALL
#define DPU_ROUND_KIND_store_erir_le FRAMED
#define DPU_ROUND_KIND_store_erir_be CALL
#define DPU_ROUND_KIND_store_erid_le FRAMED
#define DPU_ROUND_KIND_store_erid_be CALL
#define DPU_ROUND_KIND_store_id_erii_le FRAMED
#define DPU_ROUND_KIND_store_id_erii_be CALL
#define DPU_ROUND_KIND_store_esii_le FRAMED
#define DPU_ROUND_KIND_store_esii_be CALL
#define DPU_ROUND_KIND_store_esir_le FRAMED
#define DPU_ROUND_KIND_store_esir_be CALL
#define DPU_ROUND_KIND_store_esid_le FRAMED
#define DPU_ROUND_KIND_store_esid_be CALL
#define DPU_ROUND_KIND_call_rri LINKS
#define DPU_ROUND_KIND_call_rrr LINKS
#define DPU_ROUND_KIND_call_zri LINKS
#define DPU_ROUND_KIND_call_zrr LINKS
#define DPU_ROUND_KIND_branch_zrci BRANCH
#define DPU_ROUND_KIND_none PLAIN
#define DPU_ROUND_KIND_none_r PLAIN
#define DPU_ROUND_KIND_none_ri PLAIN
#define DPU_ROUND_KIND_none_rri PLAIN
#define DPU_ROUND_KIND_dma_rri CALL          /* the DMA cost blocks the thread */
#define DPU_ROUND_KIND_status_rici CALL      /* thread control and atomic bits wake and block threads */
#define DPU_ROUND_KIND_stop_ci CALL
#define DPU_ROUND_KIND_fault_i CALL          /* bkp stops the run */
#define DPU_ROUND_KIND_value_r CALL          /* time and time_cfg read the clock or the count */
#define DPU_ROUND_KIND_value_rci CALL
#define DPU_ROUND_KIND_value_zci CALL
#define DPU_ROUND_KIND_value_rr CALL
#define DPU_ROUND_KIND_value_rrci CALL

/* The families of the PLAIN forms that may fault (PARAM uncertain=fault): DPU_ROUND_FAULTS(F) is
 * 1 for them, 0 for any other (the second of "~, 1" or of the name and 0). */
#define DPU_ROUND_MAY_FAULT_hash ~, 1
#define DPU_ROUND_MAY_FAULT_sats ~, 1
#define DPU_ROUND_SECOND(a, b, ...) b
#define DPU_ROUND_PROBE(...) DPU_ROUND_SECOND(__VA_ARGS__, 0, )
#define DPU_ROUND_FAULTS(F) DPU_ROUND_PROBE(DPU_ROUND_MAY_FAULT_##F)

/* The clocks between two looks at h->attention (a stop request from another thread) when no
 * call through an entry comes between: a loop's chunk from `clock` ends at the clock returned. */
#define DPU_ROUND_CHUNK 65536u
ISK_INLINE uint64_t dpu_chunk_end(uint64_t clock, uint64_t limit)
{
    return limit - clock > DPU_ROUND_CHUNK ? clock + DPU_ROUND_CHUNK : limit;
}

/* Every line of isa_instructions.inc, in order: the patterns' numbers (an alias's name is not
 * unique: its line number names it). */
#define DPU_ROUND_CAT_(a, b) a##b
#define DPU_ROUND_CAT(a, b) DPU_ROUND_CAT_(a, b)
enum dpu_round_pattern {
#define DPU_INSTRUCTION(name, ...) DPU_PATTERN_##name,
#define DPU_ALIAS(...) DPU_ROUND_CAT(DPU_PATTERN_ALIAS_, __LINE__),
#include DPU_ISA_INSTRUCTIONS
#undef DPU_INSTRUCTION
#undef DPU_ALIAS
    DPU_PATTERNS
};

/* Threaded dispatch where the compiler has computed goto (GCC, Clang): each case jumps to the
 * next entry's case itself, through a table indexed by its pattern + 1 (0: not decoded yet);
 * elsewhere, or built with -DDPU_SWITCH_DISPATCH to test it, a switch in a loop. */
#if defined(__GNUC__) && !defined(DPU_SWITCH_DISPATCH)
#define DPU_THREADED 1
#define DPU_CASE(pattern, label) label:
#define DPU_DISPATCH goto *case_of[d->pattern]
#else
#define DPU_THREADED 0
#define DPU_CASE(pattern, label) case pattern:
#define DPU_DISPATCH goto dispatch
#endif

/* What a body may read besides the thread (stored in the case itself, where the body's load of it
 * then takes the register), stored only where it may: the PC (a call's link, a fault), the
 * clock `clk` (a fault) and NEXT_PC = pc + 1 (a jump). Both loops expand them (pc and h are
 * their names of the PC and the header). */
#define DPU_ROUND_FAULT_FRAME(F, clk) if (DPU_ROUND_FAULTS(F)) { h->pc = pc; h->clock = (clk); }
#define DPU_ROUND_FRAME_PLAIN(F, clk) DPU_ROUND_FAULT_FRAME(F, clk)
#define DPU_ROUND_FRAME_FRAMED(F, clk) h->pc = pc; h->clock = (clk);
#define DPU_ROUND_FRAME_BRANCH(F, clk) DPU_ROUND_FAULT_FRAME(F, clk) h->next_pc = pc + 1;
#define DPU_ROUND_FRAME_LINKS(F, clk) h->pc = pc; h->next_pc = pc + 1;
/* The next PC after a body: pc + 1, or where a body that may jump left NEXT_PC. */
#define DPU_ROUND_NEXT_PC_PLAIN (pc + 1)
#define DPU_ROUND_NEXT_PC_FRAMED (pc + 1)
#define DPU_ROUND_NEXT_PC_BRANCH (h->next_pc)
#define DPU_ROUND_NEXT_PC_LINKS (h->next_pc)

/* The case list (round_cases.h) is expanded by both loops, this round and the detailed timing's
 * stretch (dpu.c, detailed_stretch), inside the loop's function: once with DPU_ROUND_TABLE
 * defined for the threaded dispatch's table of labels, case_of (&&call for an entry not decoded
 * or run through its fn, &&case_<name> for an inlined one), once for the cases. A loop names its
 * decode cache entry d, and gives what comes before a body and after it:
 * DPU_LOOP_BEFORE(kind, family) and DPU_LOOP_AFTER(kind), kind one of PLAIN, FRAMED, BRANCH,
 * LINKS. The after part leaves the case (its next dispatch, or a jump to the loop's tail). */

/* h->trap is 0 all through a round: it runs with the engine's plain ops (no read is watched:
 * isk_watch_reads asks for attention, which ends the round) and a processor's behaviours run no
 * FinishCycle(). Told so before each inlined body, GCC drops GET's test of it from every load. */
#if defined(__GNUC__)
#define DPU_ROUND_NO_TRAP if (h->trap) __builtin_unreachable();
#else
#define DPU_ROUND_NO_TRAP
#endif

/* The next issue: the next thread round the circle, its PC, then its entry's case. */
#define DPU_ROUND_NEXT \
    c = next_ctx[id]; \
    id = next_id[id]; \
    if (ISK_UNLIKELY(--left == 0)) goto chunk; \
    pc = c->pc; \
    if (ISK_UNLIKELY(pc >= DPU_IRAM_INSNS)) goto outside; \
    d = &dcache[pc]; \
    DPU_DISPATCH;

/* GCC would merge the cases' identical tails (DPU_ROUND_NEXT) into one shared block, which
 * costs a jump per instruction and gives every case the same indirect jump to predict; and it
 * would pair a case's two stores of the PC and the clock through a vector register (four
 * instructions for two). */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-crossjumping", "no-tree-slp-vectorize")))
#endif
static uint64_t dpu_round(isk_hdr *h, const isk_decoded *dcache, uint64_t ncode, uint64_t clock, isk_round *r)
{
    assert(ncode == DPU_IRAM_INSNS);   /* the code memory's size, IRAM's: a constant frees a register */
    (void)ncode;
    assert(!h->trap);                  /* (DPU_ROUND_NO_TRAP) */
    /* the circle of the live threads from r's tables, copied where one load reads each */
    isk_context *next_ctx[DPU_THREADS];
    uint32_t next_id[DPU_THREADS];
    uint32_t id = r->id;
    do {
        assert(id < DPU_THREADS);
        next_ctx[id] = r->after_ctx[id];
        next_id[id] = (uint32_t)r->after[id];
        id = next_id[id];
    } while (id != r->id);
    isk_context *c = &r->contexts[id];
    /* the issues left in this chunk, which ends at clock `end`: the clock of an issue is
     * end - left */
    uint64_t end = dpu_chunk_end(clock, r->limit), left = end - clock, pc;
    const isk_decoded *d;
#define DPU_ROUND_TABLE
#include "round_cases.h"
#undef DPU_ROUND_TABLE
    assert(left > 0);                  /* the engine starts a round below its limit */
issue:                                 /* as DPU_ROUND_NEXT, after its move to the next thread */
    pc = c->pc;
    if (ISK_UNLIKELY(pc >= DPU_IRAM_INSNS)) goto outside;
    d = &dcache[pc];
#if DPU_THREADED
    DPU_DISPATCH;
    {
#else
dispatch:
    switch (d->pattern) {
#endif
#define DPU_LOOP_BEFORE(kind, family) h->context = id; DPU_ROUND_FRAME_##kind(family, end - left) DPU_ROUND_NO_TRAP
#define DPU_LOOP_AFTER(kind) c->pc = DPU_ROUND_NEXT_PC_##kind; DPU_ROUND_NEXT
#include "round_cases.h"
#undef DPU_LOOP_BEFORE
#undef DPU_LOOP_AFTER
#if !DPU_THREADED
    default: goto call;
#endif
    }
call:                                  /* through the entry's fn, as the engine's loop runs it */
    h->context = id;
    h->pc = pc;
    h->next_pc = pc + 1;
    h->clock = end - left;
    d->fn(h, d->op);
    if (ISK_UNLIKELY(h->attention)) {
        r->id = id;
        r->end = ISK_ROUND_ASKED;
        return end - left + 1;
    }
    c->pc = h->next_pc;
    DPU_ROUND_NEXT
chunk:                                 /* the chunk is done: the limit, then attention */
    clock = end;
    h->clock = clock - 1;              /* (the watchdog samples it: it moves at least once a chunk) */
    if (clock < r->limit && !h->attention) {
        end = dpu_chunk_end(clock, r->limit);
        left = end - clock;
        goto issue;
    }
    r->id = id;
    r->end = ISK_ROUND_LIMIT;
    /* the last issue's (a PLAIN body's store is left out; with none in this round, the engine's
     * issue just before it) */
    h->clock = clock - 1;
    return clock;
outside:                               /* the engine's general path raises the exception */
    clock = end - left;
    r->id = id;
    r->end = ISK_ROUND_OUTSIDE;
    h->clock = clock - 1;
    return clock;
}

#undef DPU_ROUND_NEXT
#undef DPU_ROUND_NO_TRAP

#endif
