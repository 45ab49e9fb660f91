/* The DPU's operand forms (semantics.md 2): what every ALU family shares.
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
 * write-back. The generated behaviours (isa_behaviours.inc) read like this:
 *
 *   BEHAVIOUR(add_rrici, rc, ra, imm, cc, pc)
 *   { ISSUE(); ALU(add, RV(ra), imm); TAKEN(add_nz_cc, cc); PUT_R(rc, X); FLAGS(); BRANCH(pc); }
 */
#ifndef ISEKIT_MODEL_DPU_FORMS_H
#define ISEKIT_MODEL_DPU_FORMS_H

/* ---- registers ------------------------------------------------------------------------------ */

/* The thread issuing now, and its registers. Registers and flags are read and written as raw
 * cells (CELLS): the decoder only accepts register fields inside their domains (0..31) and
 * the thread is below 24, so GET/SET's bounds check can never fire here, and it cost about a
 * third of the instruction time (bench_dpu). */
#define TID ((uint32_t)S->isk.context)
#define RBASE (S->isk.context * DPU_REGS)
/* A register operand, encodings 0..31 (r0..r23 and the constant registers). */
#define RV(i) (CELLS(R)[RBASE + (uint32_t)(i)])
/* A pair dN: rN holds bits 63:32, rN+1 bits 31:0. */
#define DV(d) (((uint64_t)RV(d) << 32) | RV((d) + 1))
#define PUT_R(rc, v) (CELLS(R)[RBASE + (uint32_t)(rc)] = (uint32_t)(v))
#define PUT_D(dc, v) do { const uint64_t pd_ = (v); PUT_R(dc, pd_ >> 32); PUT_R((dc) + 1, pd_); } while (0)
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

/* Family operations: op_<name>(S, x, a, b) sets x->x and what the conditions need. */
#define DPU_OP(name) static inline void op_##name(struct isk_state *S, dpu_alu *x, uint32_t a, uint32_t b)

#define X (x_.x)
/* X = op(a, b); S = a (the register source) */
#define ALU(op, A, B) const uint32_t a_ = (uint32_t)(A); dpu_alu x_ = { .s = a_ }; \
    op_##op(S, &x_, a_, (uint32_t)(B))
/* the same with another source for S (the rir forms: X = imm - ra, S = ra) */
#define ALU_S(op, A, B, SRC) dpu_alu x_ = { .s = (uint32_t)(SRC) }; op_##op(S, &x_, (uint32_t)(A), (uint32_t)(B))
#define UNARY(op, A) ALU(op, A, 0)
/* a value that writes no flags (time, movd, ...) */
#define VALUE(v) dpu_alu x_ = { .x = (uint32_t)(v) }

/* ---- conditions ------------------------------------------------------------------------------ */

/* What a condition tests; each class maps its codes to these (isa_conditions.inc, from
 * conditions.tsv). A, B: the operands of a subtraction A - B; C: carry (= no borrow). */
enum dpu_cc {
    CC_INVALID, CC_FALSE, CC_TRUE, CC_Z, CC_NZ, CC_XZ, CC_XNZ, CC_PL, CC_MI, CC_SZ, CC_SNZ, CC_SPL, CC_SMI,
    CC_OV, CC_NOV, CC_C, CC_NC, CC_LTS, CC_GES, CC_LES, CC_GTS, CC_LEU, CC_GTU,
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

/* taken_: the condition of this instruction, evaluated on X before the flags change. */
#define TAKEN(cls, cc) const bool taken_ = dpu_cond(&x_, dpu_cc_##cls[(cc) & 63], ZF_IN)
#define BRANCH(pc) do { if (taken_) JUMP(pc); } while (0)

ISK_INLINE void dpu_flags(struct isk_state *S, const dpu_alu *x)
{
    if (x->writes & W_Z) CELLS(ZF)[S->isk.context] = x->x == 0;
    if ((x->writes & W_ZC) == W_ZC) CELLS(CF)[S->isk.context] = x->carry;
}
#define FLAGS() dpu_flags(S, &x_)

/* ---- issue: the revolver rule ---------------------------------------------------------------- */

/* Every instruction starts here. The engine issues one instruction per clock, round robin over
 * the ready threads; in cycle mode the DPU's rule "a thread issues at most every 11 cycles" is
 * applied here, so that the functional mode can leave it out. Idle cycles are accounted as
 * waiting for DMA when a transfer was in flight, else as revolver/dependency idle. */
ISK_INLINE void dpu_issue(struct isk_state *S)
{
    S->insns++;
    if (!S->cycle_mode) return;
    const uint64_t now = S->isk.clock;
    if (now > S->last_issue + 1 && S->insns > 1) {
        uint64_t from = S->last_issue + 1;
        uint64_t dma_end = S->dma_until < now ? S->dma_until : now;
        S->idle_cycles += now - from;
        if (dma_end > from) S->dma_idle_cycles += dma_end - from;
    }
    S->last_issue = now;
    S->isk.contexts[S->isk.context].ready_at = now + DPU_REVOLVER;
}
#define ISSUE() dpu_issue(S)

#endif
