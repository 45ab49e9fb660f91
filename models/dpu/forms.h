/* The DPU's operand forms (semantics.md 2): what every instruction of a form shares.
 *
 * A behaviour computes one 32-bit value X with its family operation (insns/<family>.h), then the form
 * decides what is written and whether it branches:
 *
 *   plain   rrr rri rr rrif ...   rc = X                      (.s/.u: dc = sext/zext(X))
 *   set     rrrc rric rrc ...     rc = cond(X) ? 1 : 0        (dc likewise, 64-bit)
 *   branch  rrrci rrici rrci ...  rc = X; if cond(X): PC = pc
 *   z...    zrr zric zrici ...    nothing written; flags and branch as above
 *
 * The condition is evaluated before the instruction writes its flags (it sees ZF_in), the
 * flags come from X (never from the 0/1 of a set form), and a taken branch happens after the
 * write-back. Forms are functions of values (dpu_end, dpu_put, dpu_load_safe, ...); the table of
 * DPU_FORM_<form> macros at the end turns (behaviour, family, form) into a behaviour:
 *
 *   DPU_FORM_alu_rrici(add_rrici, add, r, add_nz_cc)
 *   -> BEHAVIOUR(add_rrici, c, a, i, cc, pc)
 *      { if (dpu_cc_add_nz_cc[cc] > CC_NC) { add_rrici_cold(S, c, a, i, cc, pc); return; }
 *        dpu_end(S, DPU_END_BRANCH, DPU_DEST_r, c, dpu_alu_value(S, op_add, RV(a), RV(a), i),
 *                dpu_cc_add_nz_cc[cc], pc); }
 */
#ifndef ISEKIT_MODEL_DPU_FORMS_H
#define ISEKIT_MODEL_DPU_FORMS_H

#include <assert.h>

/* ---- registers ------------------------------------------------------------------------------ */

/* The thread issuing now, and its registers. Registers and flags are read and written as raw
 * cells (CELLS): the decoder only accepts register fields inside their domains (0..31) and
 * the thread is below 24, so GET/SET's bounds check can never fire here, and it cost about a
 * third of the instruction time (bench_dpu). */
#define TID ((uint32_t)S->isk.context)
/* The thread's registers: one base address per behaviour, each operand an index from it
 * (a 32-bit sum of thread and operand cost every operand an instruction more), loaded from the
 * table reset fills (computed from CELLS(R) and the thread, it cost two host instructions more
 * per behaviour). The empty asm keeps the base a pointer in a register: the compiler would
 * otherwise fold it into each operand's index, one add per register operand instead of one per
 * behaviour. */
ISK_INLINE uint32_t *dpu_rthread(struct isk_state *S)
{
    uint32_t *r = S->regs_of[S->isk.context];
#if defined(__GNUC__)
    __asm__("" : "+r"(r));
#endif
    return r;
}
#define RTHREAD dpu_rthread(S)
/* A register operand, encodings 0..31 (r0..r23 and the constant registers). */
#define RV(i) (RTHREAD[(i)])
/* A pair dN: rN holds bits 63:32, rN+1 bits 31:0. */
#define DV(d) (((uint64_t)RV(d) << 32) | RV((d) + 1))
#define PUT_R(rc, v) (RTHREAD[(rc)] = (uint32_t)(v))
#define PUT_D(dc, v) dpu_put_pair(S, (dc), (v))
/* (the thread's registers found once: a register store may alias S->isk.context for the
 * compiler, which would read the thread and its table again for the second half) */
ISK_INLINE void dpu_put_pair(struct isk_state *S, int64_t dc, uint64_t v)
{
    uint32_t *const r = RTHREAD;
    r[dc] = (uint32_t)(v >> 32);
    r[dc + 1] = (uint32_t)v;
}
#define PUT_S(dc, v) PUT_D(dc, (uint64_t)(int64_t)(int32_t)(uint32_t)(v))
#define PUT_U(dc, v) PUT_D(dc, (uint64_t)(uint32_t)(v))
#define SWAP_HALVES(v) ((((uint64_t)(v)) << 32) | (((uint64_t)(v)) >> 32))

/* the flags before this instruction */
#define ZF_IN ((bool)CELLS(ZF)[S->isk.context])
#define CF_IN ((uint32_t)CELLS(CF)[S->isk.context])

/* ---- the value an instruction computes ---------------------------------------------------- */

enum { W_NONE = 0, W_Z = 1, W_ZC = 3 };   /* flags a family writes */

typedef struct dpu_alu {
    uint32_t x;        /* X: the result the conditions and the flags see */
    uint32_t s;        /* S: the source operand of the s* conditions (ra) */
    uint32_t a, b;     /* operands: as added (b = ~B for a subtraction); shift amount; mul bytes */
    uint8_t carry;     /* carry out of bit 31 (add/sub families) */
    uint8_t writes;    /* W_* */
} dpu_alu;

/* What an instruction hands to its form: x for the condition and the flags, v for the
 * destination (v = X for the ALU families; the sum of a shift-add, the pair of a step). */
typedef struct dpu_result {
    dpu_alu x;
    uint64_t v;
} dpu_result;

/* ALU family operations: op_<name>(S, x, a, b) sets x->x and what the conditions need. */
#define DPU_OP(name) static inline void op_##name(struct isk_state *S, dpu_alu *x, uint32_t a, uint32_t b)
typedef void dpu_op(struct isk_state *S, dpu_alu *x, uint32_t a, uint32_t b);

/* X = op(a, b), with s the source the s* conditions test (ra; for imm - ra also ra) */
ISK_INLINE dpu_result dpu_alu_value(struct isk_state *S, dpu_op *op, uint32_t s, uint32_t a, uint32_t b)
{
    dpu_result r = { .x = { .s = s } };
    op(S, &r.x, a, b);
    r.v = r.x.x;
    return r;
}

/* a value that writes no flags (movd, swapd, stop); s = X */
ISK_INLINE dpu_result dpu_value(uint64_t v)
{
    return (dpu_result){ .x = { .x = (uint32_t)v, .s = (uint32_t)v }, .v = v };
}

/* a pair written as it is (movd, swapd): the condition sees X = 0 */
ISK_INLINE dpu_result dpu_moved(uint64_t v)
{
    return (dpu_result){ .v = v };
}

/* a status X of acquire, release, boot, ...: ZF only */
ISK_INLINE dpu_result dpu_status(uint32_t v)
{
    return (dpu_result){ .x = { .x = v, .writes = W_Z }, .v = v };
}

/* ---- conditions ------------------------------------------------------------------------------ */

/* What a condition tests; each class maps its codes to these (isa_conditions.inc, from
 * conditions.tsv). A, B: the operands of a subtraction A - B; C: carry (= no borrow). */
enum dpu_cc {
    /* the common ones first, FALSE..NC: a conditional behaviour tests them itself (dpu_end) */
    CC_INVALID, CC_FALSE, CC_TRUE, CC_Z, CC_NZ, CC_C, CC_NC, CC_XZ, CC_XNZ, CC_PL, CC_MI, CC_SZ, CC_SNZ, CC_SPL, CC_SMI,
    CC_OV, CC_NOV, CC_LTS, CC_GES, CC_LES, CC_GTS, CC_LEU, CC_GTU,
    CC_XLES, CC_XGTS, CC_XLEU, CC_XGTU, CC_E, CC_O, CC_SE, CC_SO, CC_SH32, CC_NSH32, CC_MAX, CC_NMAX,
    CC_SMALL, CC_LARGE,
    CC_NC5, CC_NC6, CC_NC7, CC_NC8, CC_NC9, CC_NC10, CC_NC11, CC_NC12, CC_NC13, CC_NC14,
};

/* signed overflow of the addition a + b = x (for a subtraction, b is ~B) */
#define OV(x) ((bool)(((((x)->a ^ (x)->x) & ((x)->b ^ (x)->x)) >> 31)))
#define NEG(v) ((bool)((v) >> 31))

/* zf: ZF before this instruction (the x conditions) */
ISK_INLINE bool dpu_cond(const dpu_alu *x, int meaning, bool zf)
{
    const uint32_t v = x->x;
    switch (meaning) {
    case CC_FALSE: return false;
    case CC_TRUE: return true;
    case CC_Z: return v == 0;
    case CC_NZ: return v != 0;
    case CC_XZ: return v == 0 && zf;                   /* 64-bit chains: this word and the previous */
    case CC_XNZ: return !(v == 0 && zf);
    case CC_PL: return !NEG(v);
    case CC_MI: return NEG(v);
    case CC_SZ: return x->s == 0;
    case CC_SNZ: return x->s != 0;
    case CC_SPL: return !NEG(x->s);
    case CC_SMI: return NEG(x->s);
    case CC_OV: return OV(x);
    case CC_NOV: return !OV(x);
    case CC_C: return x->carry;                           /* add: carry; sub: geu (no borrow) */
    case CC_NC: return !x->carry;                         /* add: no carry; sub: ltu */
    case CC_LTS: return NEG(v) != OV(x);
    case CC_GES: return NEG(v) == OV(x);
    case CC_LES: return v == 0 || NEG(v) != OV(x);
    case CC_GTS: return v != 0 && NEG(v) == OV(x);
    case CC_LEU: return !x->carry || v == 0;
    case CC_GTU: return x->carry && v != 0;
    case CC_XLES: return NEG(v) != OV(x) || (v == 0 && zf);
    case CC_XGTS: return !(NEG(v) != OV(x) || (v == 0 && zf));
    case CC_XLEU: return !x->carry || (v == 0 && zf);
    case CC_XGTU: return x->carry && !(v == 0 && zf);
    case CC_E: return !(v & 1);
    case CC_O: return v & 1;
    case CC_SE: return !(x->s & 1);
    case CC_SO: return x->s & 1;
    case CC_SH32: return (x->b >> 5) & 1;                 /* bit 5 of the shift register */
    case CC_NSH32: return !((x->b >> 5) & 1);
    case CC_MAX: return v == 32;
    case CC_NMAX: return v != 32;
    case CC_SMALL: return ((x->a | x->b) & 0xff00) == 0;  /* UNCERTAIN: both bytes 15:8 zero */
    case CC_LARGE: return ((x->a | x->b) & 0xff00) != 0;
    default:                                              /* nc5..nc14: no carry into bit N */
        if (meaning >= CC_NC5 && meaning <= CC_NC14)
            return !(((x->a ^ x->b ^ v) >> (5 + meaning - CC_NC5)) & 1);
        return false;   /* CC_INVALID: the decoder never accepts such a code */
    }
}

/* t: the issuing thread, read before the instruction's first store (a register or a flag byte
 * may alias S->isk.context for the compiler, which would read it again after each store). */
ISK_INLINE void dpu_flags(struct isk_state *S, uint32_t t, const dpu_alu *x)
{
    if ((x->writes & W_ZC) == W_ZC) CELLS(CF)[t] = x->carry;
    if (x->writes & W_Z) CELLS(ZF)[t] = x->x == 0;
}

/* ---- destinations ------------------------------------------------------------------------------ */

/* What the destination operand is (from the syntax: rc/sc a register, dc a pair written whole
 * (d), or from a 32-bit value sign- (s) or zero-extended (u)); none for the z forms. */
enum dpu_dest { DPU_DEST_none, DPU_DEST_r, DPU_DEST_s, DPU_DEST_u, DPU_DEST_d };

ISK_INLINE void dpu_put(struct isk_state *S, enum dpu_dest d, int64_t c, uint64_t v)
{
    switch (d) {
    case DPU_DEST_r: PUT_R(c, v); break;
    case DPU_DEST_s: PUT_S(c, v); break;
    case DPU_DEST_u: PUT_U(c, v); break;
    case DPU_DEST_d: PUT_D(c, v); break;
    case DPU_DEST_none: break;
    }
}

/* ---- the ends of the forms ------------------------------------------------------------------- */

/* plain: c = v; set: c = cond(X) ? 1 : 0; branch: c = v and PC = pc if cond(X). The condition
 * is evaluated before the flags change (it sees ZF_in); a taken branch follows the write-back. */
enum dpu_end { DPU_END_PLAIN, DPU_END_SET, DPU_END_BRANCH };

/* The end once the condition is known. */
ISK_INLINE void dpu_finish(struct isk_state *S, enum dpu_end end, enum dpu_dest d, int64_t c, const dpu_result *r,
                           bool taken, int64_t pc)
{
    const uint32_t t = TID;
    dpu_put(S, d, c, end == DPU_END_SET ? (uint64_t)taken : r->v);
    dpu_flags(S, t, &r->x);
    if (end == DPU_END_BRANCH && taken) JUMP(pc);
}

/* Any condition, out of line: the switch of dpu_cond inlined would cost every conditional
 * behaviour a large frame. */
static __attribute__((noinline, cold)) bool dpu_cond_other(const dpu_alu *x, int meaning, bool zf)
{
    return dpu_cond(x, meaning, zf);
}

/* The truth tables of INVALID, FALSE, TRUE, Z, NZ, C, NC at 4 * meaning, indexed by
 * zero + 2 * carry: never, never, always, zero (0b1010), not zero (0b0101), carry (0b1100),
 * no carry (0b0011). */
#define DPU_CC_COMMON 0x03C5AF00u
_Static_assert(CC_INVALID == 0 && CC_FALSE == 1 && CC_TRUE == 2 && CC_Z == 3 && CC_NZ == 4 && CC_C == 5 && CC_NC == 6,
               "DPU_CC_COMMON follows the order of enum dpu_cc");

/* meaning: the condition code's meaning in its class (DPU_CC). A behaviour that knows
 * the meaning is FALSE..NC (DPU_COND_BEHAVIOUR) keeps only the tests of those here. */
ISK_INLINE void dpu_end(struct isk_state *S, enum dpu_end end, enum dpu_dest d, int64_t c, dpu_result r,
                        int meaning, int64_t pc)
{
    bool taken = false;
    if (end != DPU_END_PLAIN) {
        /* the common ones (loop counters, unconditional, a compare's carry) without a branch:
         * bit zero + 2 * carry of each one's 4-bit truth table, at 4 * meaning */
        if (meaning <= CC_NC)
            taken = (DPU_CC_COMMON >> (4 * meaning + (r.x.x == 0) + 2 * (r.x.carry & 1))) & 1;
        else
            taken = dpu_cond_other(&r.x, meaning, ZF_IN);
    }
    dpu_finish(S, end, d, c, &r, taken, pc);
}

#define DPU_PLAIN(D, c, r) dpu_end(S, DPU_END_PLAIN, DPU_DEST_##D, (c), (r), CC_FALSE, 0)
/* The meaning of condition code cc in class K. The decoder gives cc unsigned and at most 6 bits
 * wide (gen_isa.py refuses any other cc field), so it indexes the 64-entry table unmasked: the
 * mask cost every conditional instruction two host instructions. */
#define DPU_CC(K, cc) (assert((uint64_t)(cc) < 64), dpu_cc_##K[(cc)])
#define DPU_SET(D, c, K, cc, r) dpu_end(S, DPU_END_SET, DPU_DEST_##D, (c), (r), DPU_CC(K, cc), 0)
#define DPU_BRANCH(D, c, K, cc, pc, r) dpu_end(S, DPU_END_BRANCH, DPU_DEST_##D, (c), (r), DPU_CC(K, cc), (pc))

/* X of an ALU family F: register sources (S = a), and imm - ra (the rir forms: S = ra) */
#define DPU_ALU(F, A, B) dpu_alu_value(S, op_##F, (A), (A), (uint32_t)(B))
#define DPU_ALU_S(F, I, R) dpu_alu_value(S, op_##F, (R), (uint32_t)(I), (R))

/* ---- the forms: one behaviour per signature ---------------------------------------------------- *
 *
 * isa_instructions.inc has one line per signature of instructions.tsv:
 *
 *   DPU_INSTRUCTION(add_rrici, add, alu_rrici, r, add_nz_cc, "<format>", "<syntax>", .fields = ...)
 *                   behaviour  family  form   dest  condition class
 *
 * dpu.c expands each real line once into a behaviour, DPU_FORM_<form>(behaviour, family, dest,
 * class): the form's operands, in the order of the format's fields, and a call of the form's
 * functions with the family's operation op_<family> (insns/<file>.h). The compiler inlines both,
 * so each behaviour is as specialised as if written by hand. Then it expands every line again
 * into INSTRUCTION(...). A form ignores the family or class it does not use (none). */

#define DPU_UNPAREN(...) __VA_ARGS__
#define DPU_BEHAVIOUR_(N, ...) BEHAVIOUR(N, __VA_ARGS__)
#define DPU_BEHAVIOUR(N, params, body) DPU_BEHAVIOUR_(N, DPU_UNPAREN params) { body; }
/* A conditional behaviour whose value has no side effect: N tests the common conditions
 * (FALSE..NC) itself and hands any other, before it has changed anything, to its cold twin
 * N##_cold, which computes the value again. A tail call with the operands alone, at the top:
 * the common path then needs no saved registers (handing over the computed value cost every
 * branch three saves and restores). */
#define DPU_COND_BEHAVIOUR(N, K, params, body) \
    static __attribute__((noinline, cold)) void N##_cold(struct isk_state *S ISK_PARAMS(DPU_UNPAREN params)) \
    { body; } \
    DPU_BEHAVIOUR(N, params, if (DPU_CC(K, cc) > CC_NC) { N##_cold(S, DPU_UNPAREN params); return; } body)

/* ALU families, register and immediate sources (f forms are plain: the condition is false) */
#define DPU_FORM_alu_rrr(N, F, D, K)    DPU_BEHAVIOUR(N, (c, a, b), DPU_PLAIN(D, c, DPU_ALU(F, RV(a), RV(b))))
#define DPU_FORM_alu_rrrc(N, F, D, K)   DPU_COND_BEHAVIOUR(N, K, (c, a, b, cc), DPU_SET(D, c, K, cc, DPU_ALU(F, RV(a), RV(b))))
#define DPU_FORM_alu_rrrci(N, F, D, K)  DPU_COND_BEHAVIOUR(N, K, (c, a, b, cc, pc), \
                                                      DPU_BRANCH(D, c, K, cc, pc, DPU_ALU(F, RV(a), RV(b))))
#define DPU_FORM_alu_zrr(N, F, D, K)    DPU_BEHAVIOUR(N, (a, b), DPU_PLAIN(none, 0, DPU_ALU(F, RV(a), RV(b))))
/* a set form without destination: only the flags remain */
#define DPU_FORM_alu_zrrc(N, F, D, K)   DPU_BEHAVIOUR(N, (a, b, cc), DPU_PLAIN(none, 0, DPU_ALU(F, RV(a), RV(b))))
#define DPU_FORM_alu_zrrci(N, F, D, K)  DPU_COND_BEHAVIOUR(N, K, (a, b, cc, pc), \
                                                      DPU_BRANCH(none, 0, K, cc, pc, DPU_ALU(F, RV(a), RV(b))))
#define DPU_FORM_alu_rri(N, F, D, K)    DPU_BEHAVIOUR(N, (c, a, i), DPU_PLAIN(D, c, DPU_ALU(F, RV(a), i)))
#define DPU_FORM_alu_rric(N, F, D, K)   DPU_COND_BEHAVIOUR(N, K, (c, a, i, cc), DPU_SET(D, c, K, cc, DPU_ALU(F, RV(a), i)))
#define DPU_FORM_alu_rrici(N, F, D, K)  DPU_COND_BEHAVIOUR(N, K, (c, a, i, cc, pc), \
                                                      DPU_BRANCH(D, c, K, cc, pc, DPU_ALU(F, RV(a), i)))
#define DPU_FORM_alu_zri(N, F, D, K)    DPU_BEHAVIOUR(N, (a, i), DPU_PLAIN(none, 0, DPU_ALU(F, RV(a), i)))
#define DPU_FORM_alu_zric(N, F, D, K)   DPU_BEHAVIOUR(N, (a, i, cc), DPU_PLAIN(none, 0, DPU_ALU(F, RV(a), i)))
#define DPU_FORM_alu_zrici(N, F, D, K)  DPU_COND_BEHAVIOUR(N, K, (a, i, cc, pc), \
                                                      DPU_BRANCH(none, 0, K, cc, pc, DPU_ALU(F, RV(a), i)))
/* X = imm - ra: the s* conditions test the register */
#define DPU_FORM_alu_rir(N, F, D, K)    DPU_BEHAVIOUR(N, (c, i, a), DPU_PLAIN(D, c, DPU_ALU_S(F, i, RV(a))))
#define DPU_FORM_alu_rirc(N, F, D, K)   DPU_COND_BEHAVIOUR(N, K, (c, i, a, cc), DPU_SET(D, c, K, cc, DPU_ALU_S(F, i, RV(a))))
#define DPU_FORM_alu_rirci(N, F, D, K)  DPU_COND_BEHAVIOUR(N, K, (c, i, a, cc, pc), \
                                                      DPU_BRANCH(D, c, K, cc, pc, DPU_ALU_S(F, i, RV(a))))
#define DPU_FORM_alu_zir(N, F, D, K)    DPU_BEHAVIOUR(N, (i, a), DPU_PLAIN(none, 0, DPU_ALU_S(F, i, RV(a))))
#define DPU_FORM_alu_zirc(N, F, D, K)   DPU_BEHAVIOUR(N, (i, a, cc), DPU_PLAIN(none, 0, DPU_ALU_S(F, i, RV(a))))
#define DPU_FORM_alu_zirci(N, F, D, K)  DPU_COND_BEHAVIOUR(N, K, (i, a, cc, pc), \
                                                      DPU_BRANCH(none, 0, K, cc, pc, DPU_ALU_S(F, i, RV(a))))
/* one source */
#define DPU_FORM_unary_rr(N, F, D, K)   DPU_BEHAVIOUR(N, (c, a), DPU_PLAIN(D, c, DPU_ALU(F, RV(a), 0)))
#define DPU_FORM_unary_rrc(N, F, D, K)  DPU_COND_BEHAVIOUR(N, K, (c, a, cc), DPU_SET(D, c, K, cc, DPU_ALU(F, RV(a), 0)))
#define DPU_FORM_unary_rrci(N, F, D, K) DPU_COND_BEHAVIOUR(N, K, (c, a, cc, pc), DPU_BRANCH(D, c, K, cc, pc, DPU_ALU(F, RV(a), 0)))
#define DPU_FORM_unary_zr(N, F, D, K)   DPU_BEHAVIOUR(N, (a), DPU_PLAIN(none, 0, DPU_ALU(F, RV(a), 0)))
#define DPU_FORM_unary_zrc(N, F, D, K)  DPU_BEHAVIOUR(N, (a, cc), DPU_PLAIN(none, 0, DPU_ALU(F, RV(a), 0)))
#define DPU_FORM_unary_zrci(N, F, D, K) DPU_COND_BEHAVIOUR(N, K, (a, cc, pc), DPU_BRANCH(none, 0, K, cc, pc, DPU_ALU(F, RV(a), 0)))
/* a value without sources (time) or from rb (time_cfg) */
#define DPU_FORM_value_r(N, F, D, K)    DPU_BEHAVIOUR(N, (c), DPU_PLAIN(D, c, DPU_ALU(F, 0, 0)))
#define DPU_FORM_value_rci(N, F, D, K)  DPU_COND_BEHAVIOUR(N, K, (c, cc, pc), DPU_BRANCH(D, c, K, cc, pc, DPU_ALU(F, 0, 0)))
#define DPU_FORM_value_zci(N, F, D, K)  DPU_COND_BEHAVIOUR(N, K, (cc, pc), DPU_BRANCH(none, 0, K, cc, pc, DPU_ALU(F, 0, 0)))
#define DPU_FORM_value_rr(N, F, D, K)   DPU_BEHAVIOUR(N, (c, b), DPU_PLAIN(D, c, DPU_ALU(F, 0, RV(b))))
#define DPU_FORM_value_rrci(N, F, D, K) DPU_COND_BEHAVIOUR(N, K, (c, b, cc, pc), DPU_BRANCH(D, c, K, cc, pc, DPU_ALU(F, 0, RV(b))))
/* stack-checked add/sub (adds, subs): insns/arith.h */
#define DPU_FORM_safe_ssi(N, F, D, K)   DPU_BEHAVIOUR(N, (c, a, i), dpu_safe_alu(S, op_##F, DPU_SIGN_##F, c, RV(a), (uint32_t)i))
#define DPU_FORM_safe_sss(N, F, D, K)   DPU_BEHAVIOUR(N, (c, a, b), dpu_safe_alu(S, op_##F, DPU_SIGN_##F, c, RV(a), RV(b)))
/* c = rb +- shift(ra, n): insns/shift.h */
#define DPU_FORM_shadd_rrri(N, F, D, K) DPU_BEHAVIOUR(N, (c, b, a, n), DPU_PLAIN(D, c, op_##F(RV(b), RV(a), n)))
#define DPU_FORM_shadd_rrrici(N, F, D, K) DPU_COND_BEHAVIOUR(N, K, (c, b, a, n, cc, pc), \
                                                        DPU_BRANCH(D, c, K, cc, pc, op_##F(RV(b), RV(a), n)))
#define DPU_FORM_shadd_zrrici(N, F, D, K) DPU_COND_BEHAVIOUR(N, K, (b, a, n, cc, pc), \
                                                        DPU_BRANCH(none, 0, K, cc, pc, op_##F(RV(b), RV(a), n)))
/* mul_step, div_step on a pair: insns/mul.h */
#define DPU_FORM_step_rrrici(N, F, D, K) DPU_COND_BEHAVIOUR(N, K, (c, a, b, n, cc, pc), \
                                                       DPU_BRANCH(D, c, K, cc, pc, op_##F(RV(a), DV(b), n)))
/* movd, swapd: X = 0 for the condition */
#define DPU_FORM_pair_rrci(N, F, D, K)  DPU_COND_BEHAVIOUR(N, K, (c, b, cc, pc), \
                                                      DPU_BRANCH(D, c, K, cc, pc, dpu_moved(op_##F(DV(b)))))
/* WRAM loads and stores at ra + off, or stack-checked at sa + off: insns/wram.h. The byte order
 * E is a constant: gen_isa.py makes each signature two decode entries (bit 27 fixed), _le and
 * _be, so that a little-endian access tests no order (a load and a test per lw and sw). */
#define DPU_FORM_load_erri_(N, F, D, E)  DPU_BEHAVIOUR(N, (c, a, off), \
                                                       dpu_load_plain(S, op_##F, DPU_SIZE_##F, DPU_DEST_##D, c, RV(a) + off, E))
#define DPU_FORM_load_ersi_(N, F, D, E)  DPU_BEHAVIOUR(N, (c, a, off), \
                                                       dpu_load_safe(S, op_##F, DPU_SIZE_##F, DPU_DEST_##D, c, RV(a), off, E))
#define DPU_FORM_store_erii_(N, F, D, E) DPU_BEHAVIOUR(N, (a, off, i), op_##F(S, RV(a) + off, (uint64_t)i, E))
#define DPU_FORM_store_erir_(N, F, D, E) DPU_BEHAVIOUR(N, (a, off, b), op_##F(S, RV(a) + off, RV(b), E))
#define DPU_FORM_store_erid_(N, F, D, E) DPU_BEHAVIOUR(N, (a, off, b), op_##F(S, RV(a) + off, DV(b), E))
#define DPU_FORM_store_id_erii_(N, F, D, E) DPU_BEHAVIOUR(N, (a, off, i), \
                                                          op_##F(S, RV(a) + off, (uint64_t)((int64_t)TID | i), E))
#define DPU_FORM_store_esii_(N, F, D, E) DPU_BEHAVIOUR(N, (a, off, i), \
                                                       dpu_store_safe(S, op_##F, DPU_SIZE_##F, RV(a), off, (uint64_t)i, E))
#define DPU_FORM_store_esir_(N, F, D, E) DPU_BEHAVIOUR(N, (a, off, b), \
                                                       dpu_store_safe(S, op_##F, DPU_SIZE_##F, RV(a), off, RV(b), E))
#define DPU_FORM_store_esid_(N, F, D, E) DPU_BEHAVIOUR(N, (a, off, b), \
                                                       dpu_store_safe(S, op_##F, DPU_SIZE_##F, RV(a), off, DV(b), E))
#define DPU_FORM_load_erri_le(N, F, D, K)     DPU_FORM_load_erri_(N, F, D, 0)
#define DPU_FORM_load_erri_be(N, F, D, K)     DPU_FORM_load_erri_(N, F, D, 1)
#define DPU_FORM_load_ersi_le(N, F, D, K)     DPU_FORM_load_ersi_(N, F, D, 0)
#define DPU_FORM_load_ersi_be(N, F, D, K)     DPU_FORM_load_ersi_(N, F, D, 1)
#define DPU_FORM_store_erii_le(N, F, D, K)    DPU_FORM_store_erii_(N, F, D, 0)
#define DPU_FORM_store_erii_be(N, F, D, K)    DPU_FORM_store_erii_(N, F, D, 1)
#define DPU_FORM_store_erir_le(N, F, D, K)    DPU_FORM_store_erir_(N, F, D, 0)
#define DPU_FORM_store_erir_be(N, F, D, K)    DPU_FORM_store_erir_(N, F, D, 1)
#define DPU_FORM_store_erid_le(N, F, D, K)    DPU_FORM_store_erid_(N, F, D, 0)
#define DPU_FORM_store_erid_be(N, F, D, K)    DPU_FORM_store_erid_(N, F, D, 1)
#define DPU_FORM_store_id_erii_le(N, F, D, K) DPU_FORM_store_id_erii_(N, F, D, 0)
#define DPU_FORM_store_id_erii_be(N, F, D, K) DPU_FORM_store_id_erii_(N, F, D, 1)
#define DPU_FORM_store_esii_le(N, F, D, K)    DPU_FORM_store_esii_(N, F, D, 0)
#define DPU_FORM_store_esii_be(N, F, D, K)    DPU_FORM_store_esii_(N, F, D, 1)
#define DPU_FORM_store_esir_le(N, F, D, K)    DPU_FORM_store_esir_(N, F, D, 0)
#define DPU_FORM_store_esir_be(N, F, D, K)    DPU_FORM_store_esir_(N, F, D, 1)
#define DPU_FORM_store_esid_le(N, F, D, K)    DPU_FORM_store_esid_(N, F, D, 0)
#define DPU_FORM_store_esid_be(N, F, D, K)    DPU_FORM_store_esid_(N, F, D, 1)
/* DMA: insns/dma.h */
#define DPU_FORM_dma_rri(N, F, D, K)    DPU_BEHAVIOUR(N, (a, b, i), op_##F(S, RV(a), RV(b), (uint32_t)i))
/* atomic bits and thread control on ra + imm, a status X: insns/sync.h */
#define DPU_FORM_status_rici(N, F, D, K) DPU_COND_BEHAVIOUR(N, K, (a, i, cc, pc), \
                                                       DPU_BRANCH(none, 0, K, cc, pc, dpu_status(op_##F(S, RV(a) + i))))
/* stop: the condition on X = 1 picks the PC a later resume continues at */
#define DPU_FORM_stop_ci(N, F, D, K)    DPU_COND_BEHAVIOUR(N, K, (cc, pc), DPU_BRANCH(none, 0, K, cc, pc, dpu_value(1)); op_##F(S))
/* calls and jumps (z: no link): insns/control.h */
#define DPU_FORM_call_rri(N, F, D, K)   DPU_BEHAVIOUR(N, (c, a, off), dpu_put(S, DPU_DEST_##D, c, op_##F(S, RV(a) + off)))
#define DPU_FORM_call_rrr(N, F, D, K)   DPU_BEHAVIOUR(N, (c, a, b), dpu_put(S, DPU_DEST_##D, c, op_##F(S, RV(a) + RV(b))))
#define DPU_FORM_call_zri(N, F, D, K)   DPU_BEHAVIOUR(N, (a, off), (void)op_##F(S, RV(a) + off))
#define DPU_FORM_call_zrr(N, F, D, K)   DPU_BEHAVIOUR(N, (a, b), (void)op_##F(S, RV(a) + RV(b)))
#define DPU_FORM_fault_i(N, F, D, K)    DPU_BEHAVIOUR(N, (i), op_##F(S, i))
/* no effect (isa.py: nop, tell, time zero, time_cfg zero, rb, shift-add to zero), and the
 * branch of time_cfg zero, rb, cc, pc on X = 0 */
#define DPU_FORM_none(N, F, D, K)       DPU_BEHAVIOUR(N, (), (void)0)
#define DPU_FORM_none_r(N, F, D, K)     DPU_BEHAVIOUR(N, (a), (void)a)
#define DPU_FORM_none_ri(N, F, D, K)    DPU_BEHAVIOUR(N, (a, i), (void)a; (void)i)
#define DPU_FORM_none_rri(N, F, D, K)   DPU_BEHAVIOUR(N, (b, a, n), (void)b; (void)a; (void)n)
#define DPU_FORM_branch_zrci(N, F, D, K) DPU_COND_BEHAVIOUR(N, K, (b, cc, pc), DPU_BRANCH(none, 0, K, cc, pc, dpu_value(0)); (void)b)

#endif
