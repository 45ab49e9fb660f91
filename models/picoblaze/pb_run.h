/* The PicoBlaze's own fast loop (PROCESSOR .burst, isk_burst_fn in isekit/abi.h): what the
 * engine's loop does for a processor running alone, with the common instructions' bodies inlined
 * into one function instead of called one by one through the decode cache. The semantics stay
 * in the behaviours: an inlined case runs the behaviour's own body (Name_cells, PB_BEHAVIOUR in
 * pb_state.h) on cells kept in registers, and every other instruction (I/O, RETURNI,
 * interrupt control...) runs its behaviour through the cache entry exactly as the engine's loop
 * would. CALL and RETURN run inline (pb_push_at, pb_pop_at) except where the stack pointer
 * reaches an edge (a KCPSM6 overflow or underflow, which resets the core; KCPSM3's wrap), which
 * is left to their behaviours.
 *
 * An inlined body skips the frame (pb_before/pb_after) and the engine's per-instruction stores,
 * which is right only while the frame has nothing to do: no interrupt can be taken (the pin and
 * IE are not both 1), no internal reset is pending and no read is watched ("quiet"). None of the
 * inlined instructions changes any of that, nor the bank, so quiet and the cells are read again
 * only after an instruction that ran through its behaviour; while the core is not quiet, every
 * instruction runs through its behaviour. The inlined ones do not read PC, and do not write
 * NEXT_PC unless they are jumps (PB_FLOW cases): their next PC is pc + 1, wrapped as the frame
 * wraps it.
 *
 * Each cache entry's `spare` word holds its case, found when the entry is first met (0: not yet;
 * the engine zeroes the word whenever it decodes or invalidates the entry, so a rewritten word
 * is classified again), a case number that indexes the table of the cases' labels. A fused
 * pair's case lives in its first entry and depends on the second, so the pair checks the
 * second's case before it runs it inline (a rewritten second word has lost it).
 *
 * Counts stay exact: the run's budget is counted down one per instruction; h->issued, h->clock
 * and the system's clock are brought up to date before every behaviour call and at the end (one
 * issue every 2 clocks). Only what can never leave the burst by itself is spared a check per
 * instruction: the system's clock (which the watchdog samples) and h->attention (which a stop
 * request from a signal handler or another thread sets) are stored and read at every jump and
 * every behaviour, which every loop passes through.
 */
#ifndef PB_RUN_H
#define PB_RUN_H

#include <stdbool.h>
#include <string.h>

/* The inlined instructions: X(behaviour, operands) for those that only compute (next PC =
 * pc + 1), J(behaviour, operands) for jumps and K(kind, behaviour, condition) for a JUMP, CALL or
 * RETURN with its condition (0 Z, 1 NZ, 2 C, 3 NC, A always) known, one case each. */
#define PB_INLINE_COMMON(X, J, K) \
    X(LOAD_sX_kk, 2) X(LOAD_sX_sY, 2) X(AND_sX_kk, 2) X(AND_sX_sY, 2) X(OR_sX_kk, 2) X(OR_sX_sY, 2) \
    X(XOR_sX_kk, 2) X(XOR_sX_sY, 2) X(TEST_sX_kk, 2) X(TEST_sX_sY, 2) X(ADD_sX_kk, 2) X(ADD_sX_sY, 2) \
    X(ADDCY_sX_kk, 2) X(ADDCY_sX_sY, 2) X(SUB_sX_kk, 2) X(SUB_sX_sY, 2) X(SUBCY_sX_kk, 2) X(SUBCY_sX_sY, 2) \
    X(COMPARE_sX_kk, 2) X(COMPARE_sX_sY, 2) \
    X(SLA_sX, 1) X(RL_sX, 1) X(SLX_sX, 1) X(SL0_sX, 1) X(SL1_sX, 1) \
    X(SRA_sX, 1) X(SRX_sX, 1) X(RR_sX, 1) X(SR0_sX, 1) X(SR1_sX, 1) \
    X(FETCH_sX_ss, 2) X(FETCH_sX_at_sY, 2) X(STORE_sX_ss, 2) X(STORE_sX_at_sY, 2) \
    J(JUMP_aaa, 1) K(JUMP, JUMP_cc_aaa, 0) K(JUMP, JUMP_cc_aaa, 1) K(JUMP, JUMP_cc_aaa, 2) K(JUMP, JUMP_cc_aaa, 3) \
    K(CALL, CALL_aaa, A) K(CALL, CALL_cc_aaa, 0) K(CALL, CALL_cc_aaa, 1) K(CALL, CALL_cc_aaa, 2) \
    K(CALL, CALL_cc_aaa, 3) K(RETURN, RETURN, A) K(RETURN, RETURN_cc, 0) K(RETURN, RETURN_cc, 1) \
    K(RETURN, RETURN_cc, 2) K(RETURN, RETURN_cc, 3)
#if PB_CORE == 6
#define PB_INLINE(X, J, K) PB_INLINE_COMMON(X, J, K) \
    X(TESTCY_sX_kk, 2) X(TESTCY_sX_sY, 2) X(COMPARECY_sX_kk, 2) X(COMPARECY_sX_sY, 2) \
    X(STAR_sX_kk, 2) X(STAR_sX_sY, 2) J(JUMP_at_sX_sY, 2)
#else
#define PB_INLINE(X, J, K) PB_INLINE_COMMON(X, J, K)
#endif

/* Superinstructions: an instruction that sets the flags, followed by a JUMP cc (a fifth of what
 * the programs of docs/picoblaze.md's speed section run: TEST/COMPARE/SUB/shift, then a
 * conditional jump), fused into one case per condition F(behaviour, operands, condition): the
 * jump tests the flags the first one has just computed, in registers, and takes no dispatch. */
#define PB_FUSE_COMMON(F) \
    F(AND_sX_kk, 2) F(AND_sX_sY, 2) F(OR_sX_kk, 2) F(OR_sX_sY, 2) F(XOR_sX_kk, 2) F(XOR_sX_sY, 2) \
    F(TEST_sX_kk, 2) F(TEST_sX_sY, 2) F(ADD_sX_kk, 2) F(ADD_sX_sY, 2) F(ADDCY_sX_kk, 2) F(ADDCY_sX_sY, 2) \
    F(SUB_sX_kk, 2) F(SUB_sX_sY, 2) F(SUBCY_sX_kk, 2) F(SUBCY_sX_sY, 2) F(COMPARE_sX_kk, 2) \
    F(COMPARE_sX_sY, 2) F(SLA_sX, 1) F(RL_sX, 1) F(SLX_sX, 1) F(SL0_sX, 1) F(SL1_sX, 1) \
    F(SRA_sX, 1) F(SRX_sX, 1) F(RR_sX, 1) F(SR0_sX, 1) F(SR1_sX, 1)
#if PB_CORE == 6
#define PB_FUSE(F) PB_FUSE_COMMON(F) \
    F(TESTCY_sX_kk, 2) F(TESTCY_sX_sY, 2) F(COMPARECY_sX_kk, 2) F(COMPARECY_sX_sY, 2)
#else
#define PB_FUSE(F) PB_FUSE_COMMON(F)
#endif

/* Case numbers: 0 = an entry not classified yet, 1 = run through the behaviour, then one per
 * inlined instruction, then the fused pairs (the four conditions of one first instruction in a
 * row, so that the condition is an offset). */
#define PB_CASE_ID(name, n) PB_CASE_##name,
#define PB_CASE_ID_K(kind, name, c) PB_CASE_##name##_##c,
#define PB_CASE_ID_F(name, n) PB_CASE_##name##_JUMP_0, PB_CASE_##name##_JUMP_1, PB_CASE_##name##_JUMP_2, \
    PB_CASE_##name##_JUMP_3,
enum { PB_CASE_UNSEEN, PB_CASE_BEHAVIOUR, PB_INLINE(PB_CASE_ID, PB_CASE_ID, PB_CASE_ID_K) PB_FUSE(PB_CASE_ID_F)
       PB_CASES };

/* A K case's condition as a number: 4 is "always" (CALL aaa, RETURN), whose operands do not
 * start with a condition. */
#define PB_COND_0 0u
#define PB_COND_1 1u
#define PB_COND_2 2u
#define PB_COND_3 3u
#define PB_COND_A 4u

/* The case of a decoded entry (once per entry). */
static unsigned pb_case_of(const isk_decoded *d)
{
#define PB_CASE_MATCH(name, n) if (d->fn == name) return PB_CASE_##name;
#define PB_CASE_MATCH_K(kind, name, c) \
    if (d->fn == name && (PB_COND_##c == 4u || d->op[0] == PB_COND_##c)) return PB_CASE_##name##_##c;
    PB_INLINE(PB_CASE_MATCH, PB_CASE_MATCH, PB_CASE_MATCH_K)
#undef PB_CASE_MATCH
#undef PB_CASE_MATCH_K
    return PB_CASE_BEHAVIOUR;
}

/* The case of an entry whose case is `c` and whose next entry is `next`: the fused pair if c
 * sets the flags and next is a JUMP cc (decoded), else c. */
static unsigned pb_fused_case(unsigned c, const isk_decoded *next)
{
    if (next->fn != JUMP_cc_aaa) return c;
#define PB_FUSED_MATCH(name, n) if (c == PB_CASE_##name) return PB_CASE_##name##_JUMP_0 + (unsigned)next->op[0];
    PB_FUSE(PB_FUSED_MATCH)
#undef PB_FUSED_MATCH
    return c;
}

/* The frame has nothing to do after an inlined instruction (see above). */
ISK_INLINE bool pb_quiet(STATE)
{
    const uint8_t *const control = CELLS(CONTROL);
    return !((control[PB_INTERRUPT] & control[PB_IE]) | control[PB_RESET_PENDING] | S->isk.trap);
}

#define PB_BODY_ARGS_1 , d->op[0]
#define PB_BODY_ARGS_2 , d->op[0], d->op[1]

/* Threaded dispatch where the compiler has computed goto (GCC, Clang): every case jumps to the
 * next one itself, through a table of the cases' labels indexed by the entry's spare word (one
 * load and a jump through memory); elsewhere, or built with -DPB_SWITCH_DISPATCH to test it, a
 * switch on the case number in a loop. */
#if defined(__GNUC__) && !defined(PB_SWITCH_DISPATCH)
#define PB_THREADED 1
#define PB_LABEL(id) pb_##id:
#define PB_DISPATCH goto *labels[d->spare]
#else
#define PB_THREADED 0
#define PB_LABEL(id) case id:
#define PB_DISPATCH goto pb_dispatch
#endif
/* After an instruction: the count, then the next one's entry is dispatched. */
#define PB_NEXT \
    if (ISK_UNLIKELY(--budget == 0)) goto refill; \
    PB_DISPATCH
/* The instructions counted down between two looks at the clock and attention (see above). */
#define PB_CHUNK 65536u

/* GCC would merge the cases' identical tails (the count, the dispatch) into one shared block,
 * which costs a jump per instruction and gives every case the same indirect jump to predict:
 * the point of threaded dispatch is one indirect jump per case. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-crossjumping")))
#endif
static uint64_t pb_burst(isk_hdr *h, const isk_decoded *cache, uint64_t ncode, uint64_t after, uint64_t limit,
                         uint64_t *clock)
{
    struct isk_state *const S = (struct isk_state *)(void *)h;
    /* The engine's own cache (p->dcache): the burst writes the entries' spare word only. */
    isk_decoded *const dcache = (isk_decoded *)(uintptr_t)cache, *const dend = dcache + PB_PROGRAM_WORDS;
    const uint64_t start = after, issued = h->issued;
    /* Only a behaviour can take the PC outside the code memory: an inlined case wraps it. */
    if (h->next_pc >= ncode || ncode != PB_PROGRAM_WORDS || after >= limit) return after;
    isk_decoded *d = &dcache[h->next_pc];      /* the entry of the PC */
    /* The instructions the run may still issue (at start, start + 2, ... below limit): budget in
     * this chunk and rest after it. The clock after the last one issued is end - 2 * (both). */
    uint64_t rest = (limit - start + 1) / 2;
    const uint64_t end = start + 2 * rest;
    uint64_t budget = rest < PB_CHUNK ? rest : PB_CHUNK;
    rest -= budget;
    pb_cells r = pb_cells_of(S);
    uint64_t target = 0;              /* a CALL's, for pb_call */
#if PB_THREADED
#define PB_ADDR(id) [id] = &&pb_##id,
#define PB_ADDR_OF(name, n) PB_ADDR(PB_CASE_##name)
#define PB_ADDR_OF_K(kind, name, c) PB_ADDR(PB_CASE_##name##_##c)
#define PB_ADDR_OF_F(name, n) PB_ADDR(PB_CASE_##name##_JUMP_0) PB_ADDR(PB_CASE_##name##_JUMP_1) \
    PB_ADDR(PB_CASE_##name##_JUMP_2) PB_ADDR(PB_CASE_##name##_JUMP_3)
    static const void *const labels[PB_CASES] = {
        PB_ADDR(PB_CASE_UNSEEN) PB_ADDR(PB_CASE_BEHAVIOUR)
        PB_INLINE(PB_ADDR_OF, PB_ADDR_OF, PB_ADDR_OF_K) PB_FUSE(PB_ADDR_OF_F)
    };
#undef PB_ADDR
#undef PB_ADDR_OF
#undef PB_ADDR_OF_K
#undef PB_ADDR_OF_F
#endif
    if (!pb_quiet(S)) goto pb_behaviour;
#if PB_THREADED
    PB_DISPATCH;
    {
#else
pb_dispatch:
    switch (d->spare) {
#endif
    PB_LABEL(PB_CASE_UNSEEN)
        if (d->pattern < 0) goto pb_behaviour;   /* its fn decodes the word, then runs it */
        /* The last address runs through its behaviour, whose frame wraps the PC: an inlined
         * case then steps to the next entry without a check. */
        if (d == dend - 1) d->spare = PB_CASE_BEHAVIOUR;
        else {
            /* A pair fuses whichever of its two entries is classified last; its JUMP must not
             * be the last address (which runs through its behaviour). */
            const unsigned c = pb_case_of(d);
            d->spare = d + 2 < dend ? pb_fused_case(c, d + 1) : c;
            if (d > dcache && d[-1].spare && d + 1 < dend) {
                const unsigned before = pb_case_of(d - 1), fused = pb_fused_case(before, d);
                if (fused != before) d[-1].spare = fused;
            }
        }
        PB_DISPATCH;                                      /* this instruction again, classified */
#define PB_CASE_X(name, n) \
    PB_LABEL(PB_CASE_##name) \
        name##_cells(S, r PB_BODY_ARGS_##n); \
        d++; \
        PB_NEXT;
/* A jump's NEXT_PC is PB_PROGRAM_WORDS, no program address, unless it jumps. */
#define PB_CASE_J(name, n) \
    PB_LABEL(PB_CASE_##name) \
        NEXT_PC = PB_PROGRAM_WORDS; \
        name##_cells(S, r PB_BODY_ARGS_##n); \
        d = NEXT_PC != PB_PROGRAM_WORDS ? &dcache[NEXT_PC] : d + 1; \
        PB_NEXT;
/* JUMP, CALL or RETURN with its condition known: the behaviour's test, without NEXT_PC's round
 * trip through memory; then, if it holds, PB_TAKE_kind with the target operand `a`. */
#define PB_CASE_K(kind, name, c) \
    PB_LABEL(PB_CASE_##name##_##c) \
        if (PB_COND_##c == 4u || pb_condition(r.control, PB_COND_##c)) { \
            const uint64_t a = (uint64_t)d->op[PB_COND_##c == 4u ? 0 : 1]; \
            (void)a; \
            PB_TAKE_##kind \
        } else d++; \
        PB_NEXT;
/* A fused pair: the first instruction and its count, then the JUMP cc unless the next entry no
 * longer holds it (a rewritten word: its spare word is zeroed, and the entry is classified
 * again when it is dispatched), which the check of its case finds. */
#define PB_CASE_F1(name, n, c) \
    PB_LABEL(PB_CASE_##name##_JUMP_##c) \
        name##_cells(S, r PB_BODY_ARGS_##n); \
        d++; \
        if (ISK_UNLIKELY(--budget == 0)) goto refill; \
        if (ISK_UNLIKELY(d->spare != PB_CASE_JUMP_cc_aaa_##c)) PB_DISPATCH; \
        d = pb_condition(r.control, c) ? &dcache[d->op[1]] : d + 1; \
        PB_NEXT;
#define PB_CASE_F(name, n) PB_CASE_F1(name, n, 0) PB_CASE_F1(name, n, 1) PB_CASE_F1(name, n, 2) \
    PB_CASE_F1(name, n, 3)
    PB_FUSE(PB_CASE_F)
#undef PB_CASE_F1
#undef PB_CASE_F
#define PB_TAKE_JUMP d = &dcache[a];
#define PB_TAKE_CALL { target = a; goto pb_call; }
#define PB_TAKE_RETURN goto pb_return;
    PB_INLINE(PB_CASE_X, PB_CASE_J, PB_CASE_K)
#undef PB_CASE_X
#undef PB_CASE_J
#undef PB_CASE_K
#undef PB_TAKE_JUMP
#undef PB_TAKE_CALL
#undef PB_TAKE_RETURN
    /* One copy of CALL's and RETURN's taken path. The stack pointer's edges (KCPSM6: reaching 31
     * resets the core; KCPSM3: 31 wraps to 0 and back) run the behaviour, which tests the
     * condition again; a push from sp < 30 and a pop from sp > 0 reach none of them. */
    pb_call: {
        const unsigned sp = r.control[PB_SP];
        if (ISK_UNLIKELY(sp >= 30u)) goto pb_behaviour;
        pb_push_at(r.control, CELLS(STACK), sp, (uint64_t)(d - dcache));
        d = &dcache[target];
        PB_NEXT;
    }
    pb_return: {
        const unsigned sp = r.control[PB_SP];
        if (ISK_UNLIKELY(sp == 0u)) goto pb_behaviour;
        d = &dcache[(pb_pop_at(r.control, CELLS(STACK), sp, (uint64_t)(d - dcache)) + 1u) & PB_PC_MASK];
        PB_NEXT;
    }
    PB_LABEL(PB_CASE_BEHAVIOUR)       /* through the behaviour, as the engine's loop runs it */
    pb_behaviour: {
        const uint64_t pc = (uint64_t)(d - dcache);
        after = end - 2 * (rest + budget);
        h->pc = pc;
        h->next_pc = pc + 1;
        h->clock = *clock = after;
        h->issued = issued + ((after - start) >> 1);
        d->fn(h, d->op);
        budget--;
        if (ISK_UNLIKELY(h->attention | (h->next_pc >= ncode))) goto leave;   /* h->next_pc is right */
        d = &dcache[h->next_pc];
        r = pb_cells_of(S);           /* it may have switched banks */
        if (ISK_UNLIKELY(budget == 0)) goto refill;
        if (!pb_quiet(S)) goto pb_behaviour;
        PB_DISPATCH;
    }
    }
refill:                               /* the chunk is done: the clock, attention, the next chunk */
    *clock = end - 2 * rest - 2;
    if (rest == 0 || h->attention) goto out;
    budget = rest < PB_CHUNK ? rest : PB_CHUNK;
    rest -= budget;
    if (!pb_quiet(S)) goto pb_behaviour;
    PB_DISPATCH;
out:
    h->next_pc = (uint64_t)(d - dcache);
leave:
    after = end - 2 * (rest + budget);
    if (after != start) h->clock = *clock = after - 2;
    h->issued = issued + ((after - start) >> 1);
    return after;
}

#undef PB_CASE_ID
#undef PB_CASE_ID_K
#undef PB_CASE_ID_F
#undef PB_COND_0
#undef PB_COND_1
#undef PB_COND_2
#undef PB_COND_3
#undef PB_COND_A
#undef PB_THREADED
#undef PB_LABEL
#undef PB_DISPATCH
#undef PB_NEXT
#undef PB_CHUNK
#undef PB_BODY_ARGS_1
#undef PB_BODY_ARGS_2

#endif
