/* Control transfer (unprivileged spec, chapter 2.5): jal, jalr and the conditional branches.
 * Offsets are in bytes; a target that is not a multiple of 4 raises the instruction-address-
 * misaligned exception at the jump, which then writes no link (there is no C extension). A
 * taken branch or a jump costs taken_branch_cycles clocks (PARAM, 1 = no extra clock). */

static inline bool rv_taken(struct isk_state *S, uint32_t target)
{
    if (!rv_jump(S, target)) return false;
    if (ISK_UNLIKELY(S->branch_cycles > 1)) BLOCK_FOR(S->branch_cycles);
    return true;
}

static inline void rv_jal(struct isk_state *S, int64_t off, int64_t rd)
{
    const uint32_t link = RV_PC + 4;
    if (rv_taken(S, RV_PC + (uint32_t)off)) XW(rd, link);
}
BEHAVIOUR(jal, off, rd) { rv_jal(S, off, rd); }
BEHAVIOUR(jal_ra, off) { rv_jal(S, off, 1); }             /* jal ra: a call, for the debugger */

/* The target is read before the link is written (jalr ra, 0(ra) works). */
static inline void rv_jalr(struct isk_state *S, int64_t imm, int64_t rs1, int64_t rd)
{
    const uint32_t target = (XR(rs1) + (uint32_t)imm) & ~1u, link = RV_PC + 4;
    if (rv_taken(S, target)) XW(rd, link);
}
BEHAVIOUR(jalr, imm, rs1, rd) { rv_jalr(S, imm, rs1, rd); }
BEHAVIOUR(jalr_ra, imm, rs1) { rv_jalr(S, imm, rs1, 1); }   /* jalr ra, ...: a call */
BEHAVIOUR(ret) { rv_jalr(S, 0, 1, 0); }                     /* jalr zero, 0(ra): a return */

#define RV_BRANCH(name, cond) \
    BEHAVIOUR(name, rs1, rs2, off) \
    { \
        const uint32_t a = XR(rs1), b = XR(rs2); \
        if (cond) rv_taken(S, RV_PC + (uint32_t)off); \
    }
RV_BRANCH(beq, a == b)
RV_BRANCH(bne, a != b)
RV_BRANCH(blt, (int32_t)a < (int32_t)b)
RV_BRANCH(bge, (int32_t)a >= (int32_t)b)
RV_BRANCH(bltu, a < b)
RV_BRANCH(bgeu, a >= b)
