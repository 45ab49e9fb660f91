/* Instructions only KCPSM6 has (picoblaze-isa.md section 3): the second register bank (STAR
 * writes the inactive bank), HWBUILD, the table helper LOAD&RETURN, computed JUMP@/CALL@ to
 * (sX[3:0], sY), and OUTPUTK, which writes a constant to one of 16 "constant-optimised" ports. */
#ifndef PB_K6_H
#define PB_K6_H

#include "pb_flow.h"

/* STAR's destination: the registers of the bank that is not active. */
static inline uint8_t *pb_inactive_bank(STATE, pb_cells r)
{
    return CELLS(REGS) + (pb_bank_base(r.control) ^ 16u);
}

PB_BEHAVIOUR(STAR_sX_sY, x, y)     { pb_inactive_bank(S, r)[x] = r.bank[y]; }
PB_BEHAVIOUR(STAR_sX_kk, x, k)     { pb_inactive_bank(S, r)[x] = (uint8_t)k; }
BEHAVIOUR(REGBANK, b)              { CELLS(CONTROL)[PB_BANK] = (uint8_t)b; }

BEHAVIOUR(HWBUILD_sX, x)
{
    const pb_cells r = pb_cells_of(S);
    r.bank[x] = (uint8_t)S->hwbuild;
    r.control[PB_C] = 1;
    r.control[PB_Z] = S->hwbuild == 0;
}

BEHAVIOUR(LOAD_RETURN_sX_kk, x, k) { pb_cells_of(S).bank[x] = (uint8_t)k; pb_return(S); }

static inline uint64_t pb_computed_target(pb_cells r, int64_t x, int64_t y)
{
    return (uint64_t)(r.bank[x] & 0xFu) << 8 | r.bank[y];     /* the upper nibble of sX is ignored */
}
PB_BEHAVIOUR(JUMP_at_sX_sY, x, y)  { JUMP(pb_computed_target(r, x, y)); }
BEHAVIOUR(CALL_at_sX_sY, x, y)     { pb_call(S, pb_computed_target(pb_cells_of(S), x, y)); }

BEHAVIOUR(OUTPUTK_kk_p, k, p)      { OUTPUT(PB_PORT_OUTPUTK(p), k); }

#endif
