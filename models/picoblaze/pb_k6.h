/* Instructions only KCPSM6 has (picoblaze-isa.md section 3): the second register bank (STAR
 * writes the inactive bank), HWBUILD, the table helper LOAD&RETURN, computed JUMP@/CALL@ to
 * (sX[3:0], sY), and OUTPUTK, which writes a constant to one of 16 "constant-optimised" ports. */
#ifndef PB_K6_H
#define PB_K6_H

#include "pb_flow.h"

#define PB_INACTIVE(i) CELLS(REGS)[(PB_BANK_BASE ^ 16u) + (unsigned)(i)]

BEHAVIOUR(STAR_sX_sY, x, y)        { PB_CELLS; PB_INACTIVE(x) = sX(y); }
BEHAVIOUR(STAR_sX_kk, x, k)        { PB_CELLS; PB_INACTIVE(x) = (uint8_t)k; }
BEHAVIOUR(REGBANK, b)              { PB_CELLS; CTRL(BANK) = (uint8_t)b; }

BEHAVIOUR(HWBUILD_sX, x)
{
    PB_CELLS;
    sX(x) = (uint8_t)S->hwbuild;
    CARRY = 1;
    ZERO = S->hwbuild == 0;
}

BEHAVIOUR(LOAD_RETURN_sX_kk, x, k) { PB_CELLS; sX(x) = (uint8_t)k; pb_return(S); }

static inline uint64_t pb_computed_target(STATE, int64_t x, int64_t y)
{
    PB_CELLS;
    return (uint64_t)(sX(x) & 0xFu) << 8 | sX(y);     /* the upper nibble of sX is ignored */
}
BEHAVIOUR(JUMP_at_sX_sY, x, y)     { JUMP(pb_computed_target(S, x, y)); }
BEHAVIOUR(CALL_at_sX_sY, x, y)     { pb_call(S, pb_computed_target(S, x, y)); }

BEHAVIOUR(OUTPUTK_kk_p, k, p)      { OUTPUT(PB_PORT_OUTPUTK(p), k); }

#endif
