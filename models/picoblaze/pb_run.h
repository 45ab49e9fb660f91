/* The PicoBlaze's own fast loop (PROCESSOR .burst, isk_burst_fn in isekit/abi.h): what the
 * engine's loop does for a processor running alone, with the common instructions' bodies inlined
 * into one function instead of called one by one through the decode cache. The semantics stay
 * in the behaviours: an inlined case runs the behaviour's own body, and every other instruction
 * (CALL, RETURN, I/O, interrupt control...) runs its behaviour through the cache entry exactly as
 * the engine's loop would.
 *
 * An inlined body skips the frame (pb_before/pb_after) and the engine's per-instruction stores,
 * which is right only while the frame has nothing to do: no interrupt can be taken (the pin and
 * IE are not both 1), no internal reset is pending and no read is watched ("quiet"). None of the
 * inlined instructions changes any of that, so quiet is checked again only after an instruction
 * that ran through its behaviour. The inlined ones do not read PC, and do not write NEXT_PC
 * unless they are jumps (PB_FLOW cases): their next PC is pc + 1, wrapped as the frame wraps it.
 * Counts stay exact: h->issued is brought up to date from the clock before every behaviour call
 * and at the end (one issue every 2 clocks), and the system's clock is current at every issue.
 */
#ifndef PB_RUN_H
#define PB_RUN_H

#include <stdbool.h>
#include <string.h>

/* The inlined instructions: X(behaviour, operands) for those that only compute (next PC =
 * pc + 1) and J(behaviour, operands) for jumps. */
#define PB_INLINE_COMMON(X, J) \
    X(LOAD_sX_kk, 2) X(LOAD_sX_sY, 2) X(AND_sX_kk, 2) X(AND_sX_sY, 2) X(OR_sX_kk, 2) X(OR_sX_sY, 2) \
    X(XOR_sX_kk, 2) X(XOR_sX_sY, 2) X(TEST_sX_kk, 2) X(TEST_sX_sY, 2) X(ADD_sX_kk, 2) X(ADD_sX_sY, 2) \
    X(ADDCY_sX_kk, 2) X(ADDCY_sX_sY, 2) X(SUB_sX_kk, 2) X(SUB_sX_sY, 2) X(SUBCY_sX_kk, 2) X(SUBCY_sX_sY, 2) \
    X(COMPARE_sX_kk, 2) X(COMPARE_sX_sY, 2) \
    X(SLA_sX, 1) X(RL_sX, 1) X(SLX_sX, 1) X(SL0_sX, 1) X(SL1_sX, 1) \
    X(SRA_sX, 1) X(SRX_sX, 1) X(RR_sX, 1) X(SR0_sX, 1) X(SR1_sX, 1) \
    X(FETCH_sX_ss, 2) X(FETCH_sX_at_sY, 2) X(STORE_sX_ss, 2) X(STORE_sX_at_sY, 2) \
    J(JUMP_aaa, 1) J(JUMP_cc_aaa, 2)
#if PB_CORE == 6
#define PB_INLINE(X, J) PB_INLINE_COMMON(X, J) \
    X(TESTCY_sX_kk, 2) X(TESTCY_sX_sY, 2) X(COMPARECY_sX_kk, 2) X(COMPARECY_sX_sY, 2) \
    X(STAR_sX_kk, 2) X(STAR_sX_sY, 2) J(JUMP_at_sX_sY, 2)
#else
#define PB_INLINE(X, J) PB_INLINE_COMMON(X, J)
#endif

/* Case numbers: 0 = run through the behaviour, 1 = a pattern not seen yet, then one per inlined. */
#define PB_CASE_ID(name, n) PB_CASE_##name,
enum { PB_CASE_BEHAVIOUR, PB_CASE_UNSEEN, PB_INLINE(PB_CASE_ID, PB_CASE_ID) PB_CASES };
#undef PB_CASE_ID

/* The case of a decoded entry's behaviour (once per pattern and instance). */
static uint8_t pb_case_of(isk_behaviour_fn fn)
{
#define PB_CASE_MATCH(name, n) if (fn == name) return PB_CASE_##name;
    PB_INLINE(PB_CASE_MATCH, PB_CASE_MATCH)
#undef PB_CASE_MATCH
    return PB_CASE_BEHAVIOUR;
}

/* While the core is not quiet, every pattern runs through its behaviour. The index is pattern
 * + 1 (0: a word not decoded yet), and a core has fewer than 127 INSTRUCTION lines. */
static const uint8_t pb_all_behaviour[sizeof ((struct isk_state *)0)->pb_case];   /* PB_CASE_BEHAVIOUR */

/* At reset: every pattern is classified again when first met. */
static void pb_forget_cases(STATE)
{
    memset(S->pb_case, PB_CASE_UNSEEN, sizeof S->pb_case);
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
 * next one itself; elsewhere, or built with -DPB_SWITCH_DISPATCH to test it, a switch in a loop. */
#if defined(__GNUC__) && !defined(PB_SWITCH_DISPATCH)
#define PB_LABEL(id) pb_##id:
#define PB_NEXT \
    after += 2; \
    if (ISK_UNLIKELY((after >= limit) | h->attention)) goto out; \
    *clock = after; \
    goto *labels[cases[dcache[pc].pattern + 1]]
#else
#define PB_LABEL(id) case id:
#define PB_NEXT after += 2; continue
#endif

static uint64_t pb_burst(isk_hdr *h, const isk_decoded *dcache, uint64_t ncode, uint64_t after, uint64_t limit,
                         uint64_t *clock)
{
    struct isk_state *const S = (struct isk_state *)(void *)h;
    const uint64_t start = after, issued = h->issued;
    uint64_t pc = h->next_pc;
    const isk_decoded *d;
    /* Only a behaviour can take the PC outside the code memory: an inlined case wraps it. */
    if (pc >= ncode || ncode != PB_PROGRAM_WORDS || after >= limit) return after;
    const uint8_t *cases = pb_quiet(S) ? S->pb_case : pb_all_behaviour;
    *clock = after;
#if defined(__GNUC__) && !defined(PB_SWITCH_DISPATCH)
#define PB_LABEL_ADDRESS(name, n) [PB_CASE_##name] = &&pb_PB_CASE_##name,
    static const void *const labels[PB_CASES] = {
        [PB_CASE_UNSEEN] = &&pb_PB_CASE_UNSEEN, [PB_CASE_BEHAVIOUR] = &&pb_PB_CASE_BEHAVIOUR,
        PB_INLINE(PB_LABEL_ADDRESS, PB_LABEL_ADDRESS)
    };
#undef PB_LABEL_ADDRESS
    goto *labels[cases[dcache[pc].pattern + 1]];
    {
#else
    for (;;) {
        if ((after >= limit) | h->attention) goto out;
        *clock = after;
        switch (cases[dcache[pc].pattern + 1]) {
#endif
    PB_LABEL(PB_CASE_UNSEEN)
        d = &dcache[pc];
        S->pb_case[d->pattern + 1] = pb_case_of(d->fn);
        after -= 2;                   /* dispatch this instruction again */
        PB_NEXT;
#define PB_CASE_X(name, n) \
    PB_LABEL(PB_CASE_##name) \
        d = &dcache[pc]; \
        name##_isk_body(S PB_BODY_ARGS_##n); \
        pc = (pc + 1) & PB_PC_MASK; \
        PB_NEXT;
#define PB_CASE_J(name, n) \
    PB_LABEL(PB_CASE_##name) \
        d = &dcache[pc]; \
        NEXT_PC = pc + 1; \
        name##_isk_body(S PB_BODY_ARGS_##n); \
        pc = NEXT_PC & PB_PC_MASK; \
        PB_NEXT;
    PB_INLINE(PB_CASE_X, PB_CASE_J)
#undef PB_CASE_X
#undef PB_CASE_J
    PB_LABEL(PB_CASE_BEHAVIOUR)       /* through the behaviour, as the engine's loop runs it */
        d = &dcache[pc];
        h->pc = pc;
        h->next_pc = pc + 1;
        h->clock = after;
        h->issued = issued + ((after - start) >> 1);
        d->fn(h, d->op);
        pc = h->next_pc;
        if (ISK_UNLIKELY(h->attention | (pc >= ncode))) {
            after += 2;
            goto out;
        }
        cases = pb_quiet(S) ? S->pb_case : pb_all_behaviour;
        PB_NEXT;
#if !defined(__GNUC__) || defined(PB_SWITCH_DISPATCH)
        }
#endif
    }
out:
    if (after != start) h->clock = after - 2;
    h->issued = issued + ((after - start) >> 1);
    h->next_pc = pc;
    return after;
}

#undef PB_LABEL
#undef PB_NEXT
#undef PB_BODY_ARGS_1
#undef PB_BODY_ARGS_2

#endif
